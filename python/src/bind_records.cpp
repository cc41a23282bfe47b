// frictionlab Python module: frictionlab.Record, a measured trajectory (data::Record) from NumPy
// arrays, a pandas DataFrame or a file (io::read_record), checked by data::check_record
// (bindings.hpp; docs/python.md, "Records").
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "frictionlab/data/checks.hpp"
#include "frictionlab/io/record_io.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

/// The structural checks of every record (channel lengths, finite values, strictly increasing
/// time: data::check_record without required channels or minimum length).
void check_structure(const data::Record& r) {
  data::CheckOptions o;
  o.min_samples = 1;
  (void)data::check_record(r, o);
}

std::vector<double> channel(const py::handle& a, const std::string& name) {
  if (a.is_none()) return {};
  return DoubleArray(a, name).vector();
}

data::Record make_record(const py::handle& t, const py::handle& position,
                         const py::handle& velocity, const py::handle& force,
                         const py::handle& current, const py::handle& acceleration,
                         const py::handle& temperature, const std::string& source) {
  data::Record r;
  r.source = source;
  r.t = channel(t, "t");
  r.position = channel(position, "position");
  r.velocity = channel(velocity, "velocity");
  r.force = channel(force, "force");
  r.current = channel(current, "current");
  r.acceleration = channel(acceleration, "acceleration");
  r.temperature = channel(temperature, "temperature");
  check_structure(r);
  return r;
}

std::string source_of(const py::handle& source) {
  return source.is_none() ? std::string() : source.cast<std::string>();
}

}  // namespace

data::Record record_from_arrays(const py::dict& arrays, const std::string& source) {
  static const std::vector<std::string> keys{"t",       "position",     "velocity",    "force",
                                             "current", "acceleration", "temperature", "source"};
  for (const auto& item : arrays) {
    const std::string k = py::str(item.first);
    if (std::find(keys.begin(), keys.end(), k) == keys.end())
      throw std::invalid_argument("record: unknown channel '" + k +
                                  "' (t, position, velocity, force, current, acceleration, "
                                  "temperature)");
  }
  auto get = [&](const char* k) -> py::object {
    return arrays.contains(k) ? py::reinterpret_borrow<py::object>(arrays[k]) : py::none();
  };
  if (!arrays.contains("t")) throw std::invalid_argument("record: no time array 't'");
  const std::string src = arrays.contains("source") ? source_of(arrays["source"]) : source;
  return make_record(get("t"), get("position"), get("velocity"), get("force"), get("current"),
                     get("acceleration"), get("temperature"), src);
}

data::Record record_from_dataframe(const py::handle& df, const io::RecordSpec& spec,
                                   const std::string& source) {
  const py::list columns = py::list(df.attr("columns"));
  auto column = [&](const std::string& name, const std::string& channel_name) -> py::object {
    if (name.empty()) return py::none();
    for (const py::handle c : columns)
      if (py::isinstance<py::str>(c) && c.cast<std::string>() == name)
        return df[py::str(name)].attr("to_numpy")();
    std::string found;
    for (const py::handle c : columns)
      found += (found.empty() ? "" : ", ") + std::string(py::str(c));
    throw std::invalid_argument("DataFrame: no column '" + name + "' for " + channel_name +
                                " (columns found: " + found + ")");
  };
  if (!spec.matrix.empty())
    throw std::invalid_argument("DataFrame: 'matrix' applies to .mat files only");
  const std::string time = spec.time.empty() ? spec.time_default : spec.time;
  if (time.empty()) throw std::invalid_argument("DataFrame: no time column given (time=...)");
  return make_record(column(time, "time"), column(spec.position, "position"),
                     column(spec.velocity, "velocity"), column(spec.force, "force"),
                     column(spec.current, "current"), py::none(),
                     column(spec.temperature, "temperature"), source);
}

void bind_records(py::module_& m) {
  py::class_<data::Record> rec(m, "Record", R"doc(
A measured trajectory (C++ frictionlab::data::Record): time and the channels present.

Record(t, position=None, velocity=None, force=None, current=None, acceleration=None,
       temperature=None, source="")
takes one-dimensional float64 or float32 NumPy arrays of the same length (float64 contiguous
arrays are read in place and copied once into the record; float32 is converted in that copy).
Units: t [s], position [m | rad], velocity [m/s | rad/s], acceleration [m/s^2 | rad/s^2],
force: friction force or joint torque [N | N m], current [A], temperature [degC]. Time must be strictly
increasing and every value finite: otherwise frictionlab.Error with the library's message
(data::check_record). The channels read back as read-only NumPy views of the record's memory
(no copy); a channel the record does not have is an empty array.
)doc");
  rec.def(py::init([](const py::object& t, const py::object& position, const py::object& velocity,
                      const py::object& force, const py::object& current,
                      const py::object& acceleration, const py::object& temperature,
                      const py::object& source) {
            return make_record(t, position, velocity, force, current, acceleration, temperature,
                               source_of(source));
          }),
          py::arg("t"), py::arg("position") = py::none(), py::arg("velocity") = py::none(),
          py::arg("force") = py::none(), py::arg("current") = py::none(),
          py::arg("acceleration") = py::none(), py::arg("temperature") = py::none(),
          py::arg("source") = "");
  auto chan = [&](const char* name, std::vector<double> data::Record::*field, const char* doc) {
    rec.def_property_readonly(
        name,
        [field](py::object self) { return view(self.cast<const data::Record&>().*field, self); },
        doc);
  };
  chan("t", &data::Record::t, "time [s] (read-only view)");
  chan("position", &data::Record::position, "position [m | rad] (read-only view)");
  chan("velocity", &data::Record::velocity, "velocity [m/s | rad/s] (read-only view)");
  chan("acceleration", &data::Record::acceleration, "acceleration [m/s^2 | rad/s^2]");
  chan("current", &data::Record::current, "motor current [A] (read-only view)");
  chan("force", &data::Record::force, "friction force or joint torque [N | N m]");
  chan("temperature", &data::Record::temperature, "temperature [degC] (read-only view)");
  rec.def_readwrite("source", &data::Record::source,
                    "where it came from (file name), for messages");
  rec.def("__len__", &data::Record::size);
  rec.def("__repr__", [](const data::Record& r) {
    std::string ch;
    const std::pair<const char*, const std::vector<double>*> cs[] = {
        {"position", &r.position}, {"velocity", &r.velocity}, {"acceleration", &r.acceleration},
        {"current", &r.current},   {"force", &r.force},       {"temperature", &r.temperature}};
    for (const auto& [n, v] : cs)
      if (!v->empty()) ch += std::string(", ") + n;
    return "Record(" + std::to_string(r.size()) + " samples: t" + ch +
           (r.source.empty() ? "" : ", source='" + r.source + "'") + ")";
  });
  rec.def_static(
      "read",
      [](const py::object& path, const py::kwargs& kwargs) {
        for (const auto& item : kwargs) {
          const std::string k = py::str(item.first);
          const auto& names = record_spec_names();
          if (std::find(names.begin(), names.end(), k) == names.end())
            throw std::invalid_argument("Record.read: unknown option '" + k +
                                        "' (time, position, velocity, current, force, "
                                        "temperature, matrix)");
        }
        const auto p = as_path(path);
        if (!p) throw std::invalid_argument("Record.read: expected a file path");
        const io::RecordSpec spec = record_spec(kwargs, "t");
        py::gil_scoped_release release;
        return io::read_record(*p, spec);
      },
      py::arg("path"), R"doc(
Read a record from a CSV or MATLAB .mat file (io::read_record; docs/file-formats.md).

Keyword arguments name the channels: time (default "t"), position, velocity, current, force,
temperature (CSV: column names or 0-based indices as text; .mat: variable names), matrix (.mat: the 4xN
variable [t, current, velocity, torque] of reference 000). Errors name the file, line and
column (frictionlab.Error).
)doc");
  rec.def_static(
      "from_dataframe",
      [](const py::object& df, const py::kwargs& kwargs) {
        const io::RecordSpec spec = record_spec(kwargs, "t");
        std::string source;
        if (kwargs.contains("source")) source = source_of(kwargs["source"]);
        for (const auto& item : kwargs) {
          const std::string k = py::str(item.first);
          const auto& names = record_spec_names();
          if (k != "source" && std::find(names.begin(), names.end(), k) == names.end())
            throw std::invalid_argument("Record.from_dataframe: unknown option '" + k +
                                        "' (time, position, velocity, current, force, "
                                        "temperature, source)");
        }
        return record_from_dataframe(df, spec, source);
      },
      py::arg("df"), R"doc(
A record from a pandas DataFrame: keyword arguments name the columns (time, default "t";
position, velocity, current, force, temperature) and source labels it. The columns must hold float64 or
float32 (nothing is converted silently).
)doc");
  rec.def(
      "to_dataframe",
      [](const data::Record& r) {
        py::dict d;
        d["t"] = to_numpy(std::vector<double>(r.t));
        const std::pair<const char*, const std::vector<double>*> cs[] = {
            {"position", &r.position}, {"velocity", &r.velocity}, {"acceleration", &r.acceleration},
            {"current", &r.current},   {"force", &r.force},       {"temperature", &r.temperature}};
        for (const auto& [n, v] : cs)
          if (!v->empty()) d[n] = to_numpy(std::vector<double>(*v));
        return py::module_::import("pandas").attr("DataFrame")(d);
      },
      "The channels present as a pandas DataFrame (columns t, position, velocity, ...).");
}

}  // namespace frictionlab::python
