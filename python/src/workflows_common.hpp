// frictionlab Python module: what the record and workflow bindings share (bind_records.cpp,
// bind_workflows.cpp, workflows_*.cpp): keyword options mapped onto the library's option
// structs, long calls with the GIL released, progress and Ctrl-C, records from Python objects,
// models at the binding's boundary (MODEL.json dicts), and NumPy views of result vectors.
// docs/python.md, "Identification".
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "arrays.hpp"
#include "bindings.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/models/model_spec.hpp"
#include "frictionlab/workflows/progress.hpp"
#include "frictionlab/workflows/validate.hpp"

namespace frictionlab::python {

namespace py = pybind11;

// ---- keyword options -------------------------------------------------------------------------

/// A value of an option given as text that names one of `choices` (an enum without a parser in
/// the library); std::invalid_argument "OPTION must be a, b or c, got 'x'" otherwise.
template <class E>
E choice(const std::string& option, const std::string& value,
         const std::vector<std::pair<std::string, E>>& choices) {
  std::string names;
  for (std::size_t k = 0; k < choices.size(); ++k) {
    if (choices[k].first == value) return choices[k].second;
    names += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + choices[k].first;
  }
  throw std::invalid_argument(option + " must be " + names + ", got '" + value + "'");
}

/// A Python int `h` within the range of the integer type T, else std::invalid_argument
/// "option 'seed': must be an integer between 0 and 4294967295, got -1".
template <class T>
void require_in_range(const std::string& name, const py::handle& h) {
  const py::int_ lo(std::numeric_limits<T>::min()), hi(std::numeric_limits<T>::max());
  const py::object x = py::reinterpret_borrow<py::object>(h);
  if (x < lo || x > hi)
    throw std::invalid_argument("option '" + name + "': must be an integer between " +
                                std::to_string(std::numeric_limits<T>::min()) + " and " +
                                std::to_string(std::numeric_limits<T>::max()) + ", got " +
                                io::printable_text(std::string(py::repr(h)), 60));
}

/// The Python value of option `name` as T, with no silent conversion (a bool is not an int,
/// a str is not a number); std::invalid_argument "option 'NAME': expected ..., got TYPE (REPR)".
template <class T>
T option_cast(const std::string& name, const py::handle& h) {
  auto type_name = [] {
    if constexpr (std::is_same_v<T, bool>)
      return "a bool";
    else if constexpr (std::is_integral_v<T>)
      return "an int";
    else if constexpr (std::is_floating_point_v<T>)
      return "a number";
    else if constexpr (std::is_same_v<T, std::string>)
      return "a str";
    else
      return "a list of numbers";
  };
  try {
    if constexpr (std::is_same_v<T, double>) {
      if (py::isinstance<py::bool_>(h) ||
          (!py::isinstance<py::float_>(h) && !py::isinstance<py::int_>(h)))
        throw py::cast_error();
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (!py::isinstance<py::int_>(h) || py::isinstance<py::bool_>(h)) throw py::cast_error();
      require_in_range<T>(name, h);
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!py::isinstance<py::bool_>(h)) throw py::cast_error();
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!py::isinstance<py::str>(h)) throw py::cast_error();
    }
    return h.cast<T>();
  } catch (const py::cast_error&) {
    throw std::invalid_argument("option '" + name + "': expected " + type_name() + ", got " +
                                std::string(py::str(py::type::of(h).attr("__name__"))) + " (" +
                                std::string(py::repr(h)) + ")");
  }
}

/// The keyword options of one function, each applied to the library's option struct `O`: the
/// options are the C++ member names (nested structs flattened: FitOptions::fit.lsq.starts is
/// `starts`). Unknown keywords and values of the wrong type are frictionlab.Error naming them.
template <class O>
class OptionTable {
 public:
  using Setter = std::function<void(O&, const py::handle&)>;
  explicit OptionTable(std::string function) : function_(std::move(function)) {}

  /// An option whose Python value casts to T and is stored through `field`. A number with a
  /// range in the workflows' rules (workflows/validate.hpp) is checked against it as given:
  /// frictionlab.Error "starts=0: must be an integer >= 1".
  template <class T, class F>
  OptionTable& add(const std::string& name, F field, const std::string& doc) {
    entries_.push_back({name, doc, [name, field](O& o, const py::handle& h) {
                          const T value = option_cast<T>(name, h);
                          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
                            if (workflows::find_option_rule(name) != nullptr)
                              workflows::check_option(name, static_cast<double>(value));
                          field(o) = value;
                        }});
    return *this;
  }
  /// An option with its own conversion.
  OptionTable& custom(const std::string& name, Setter set, const std::string& doc) {
    entries_.push_back({name, doc, std::move(set)});
    return *this;
  }
  /// Apply `kwargs` to `o` in the table's order (a model before the options refining it),
  /// skipping the names in `skip` (handled by the caller); None keeps the default.
  void apply(O& o, const py::kwargs& kwargs, const std::vector<std::string>& skip = {}) const {
    for (const auto& item : kwargs) {
      const std::string key = py::str(item.first);
      if (std::find(skip.begin(), skip.end(), key) != skip.end() || find(key) != nullptr) continue;
      std::string known;
      for (const auto& x : entries_) known.append(known.empty() ? "" : ", ").append(x.name);
      std::string message = function_;
      message.append(": unknown option '").append(key).append("' (options: ").append(known);
      throw std::invalid_argument(message.append(")"));
    }
    for (const auto& e : entries_)
      if (kwargs.contains(e.name.c_str()) && !kwargs[e.name.c_str()].is_none())
        e.set(o, kwargs[e.name.c_str()]);
  }
  /// "Options (keyword arguments):" and one line per option: name, default, doc.
  std::string doc() const {
    std::string s = "Options (keyword arguments; None keeps the default):\n";
    for (const auto& e : entries_) s += "    " + e.name + ": " + e.doc + "\n";
    return s;
  }

 private:
  struct Entry {
    std::string name, doc;
    Setter set;
  };
  const Entry* find(const std::string& key) const {
    for (const auto& e : entries_)
      if (e.name == key) return &e;
    return nullptr;
  }
  std::string function_;
  std::vector<Entry> entries_;
};

// ---- long calls: GIL, progress, Ctrl-C -------------------------------------------------------

/// The Python side of a workflows::Progress: `progress` is None, a callable receiving
/// (message: str, fraction: float; negative when unknown), or True for a tqdm bar
/// (frictionlab._progress). Progress::cancel reads a flag (cheap, from any thread) that is set
/// when the callback raised or when check_signals() ran a signal handler that raised
/// (KeyboardInterrupt from Ctrl-C).
class PyProgress {
 public:
  explicit PyProgress(const py::object& progress);
  ~PyProgress();
  PyProgress(const PyProgress&) = delete;
  PyProgress& operator=(const PyProgress&) = delete;
  /// The Progress to hand to a workflow (valid while this object lives).
  const workflows::Progress& progress() const { return progress_; }
  /// Runs Python's pending signal handlers (PyErr_CheckSignals: only on the main thread); an
  /// exception one raises is kept and sets the cancel flag. Needs the GIL.
  void check_signals();
  /// Raise the stored Python exception (KeyboardInterrupt from a signal handler, an exception
  /// from the callback), if any. Needs the GIL.
  void rethrow();

 private:
  struct State;
  std::shared_ptr<State> state_;
  workflows::Progress progress_;
};

/// How often the calling thread runs Python's signal handlers while a call works [ms]: a
/// Ctrl-C stops the call within this plus the workflow's polling interval (docs/python.md,
/// "Progress and Ctrl-C").
inline constexpr int kSignalPollMs = 50;

/// Run `call(progress)` on a worker thread with the GIL released while the calling thread runs
/// Python's signal handlers every kSignalPollMs: a KeyboardInterrupt (or any exception a signal
/// handler raises) sets the cancel flag the workflow polls, the worker stops with Cancelled and
/// the exception is raised. So is an exception of the progress callback. The worker is always
/// joined before this returns or raises. `short_call`: the caller knows the work is no longer
/// than one of the workflow's polling intervals (a simulation of at most 65536 steps): it runs
/// on the calling thread (no thread started: tens of microseconds per call in a loop) and a
/// Ctrl-C is raised when it returns.
template <class F>
auto run_released(const py::object& progress, F&& call, bool short_call = false) {
  PyProgress p(progress);
  using R = decltype(call(p.progress()));
  std::packaged_task<R()> task([&call, &p] { return call(p.progress()); });
  std::future<R> done = task.get_future();
  if (short_call) {
    {
      py::gil_scoped_release release;
      task();
    }
    p.check_signals();
  } else {
    py::gil_scoped_release release;
    std::thread worker(std::move(task));
    while (done.wait_for(std::chrono::milliseconds(kSignalPollMs)) != std::future_status::ready) {
      py::gil_scoped_acquire gil;
      p.check_signals();
    }
    worker.join();
  }
  try {
    R r = done.get();
    p.rethrow();  // (a signal or callback error that came as the call ended is not lost)
    return r;
  } catch (const workflows::Cancelled&) {
    p.rethrow();
    throw;
  }
}

/// The doc line of `progress=`.
inline constexpr const char* kProgressDoc =
    "progress: None, a callable progress(message: str, fraction: float) (fraction in [0, 1], "
    "negative when unknown; an exception it raises stops the call and is raised), or True for "
    "a tqdm bar. Ctrl-C stops the call (KeyboardInterrupt); the GIL is released meanwhile.";

// ---- reports ---------------------------------------------------------------------------------

/// io::ReportOptions of a report made from Python: `title` (default if empty) and the generator
/// "frictionlab VERSION (Python)".
io::ReportOptions python_report_options(const std::string& title);
/// The results' report() methods: io::write_report of one result (`name`: its label, `result`:
/// its JSON object) to `path` (path_argument) with python_report_options(title); the path.
std::string write_python_report(const py::handle& path, const std::string& name,
                                const nlohmann::ordered_json& result, const std::string& title);

// ---- records ---------------------------------------------------------------------------------

/// The channels of a record file or DataFrame (io::RecordSpec): time, position, velocity,
/// current, force, matrix. Options of these names in kwargs are read; the others are left.
io::RecordSpec record_spec(const py::kwargs& kwargs, const std::string& time_default);
/// The names record_spec reads.
const std::vector<std::string>& record_spec_names();

/// A data::Record from a Record, a str / os.PathLike (io::read_record with `spec`), a pandas
/// DataFrame (columns named by `spec`) or a dict of arrays (Record's keywords). `name`: the
/// argument, in messages.
data::Record as_record(const py::handle& obj, const io::RecordSpec& spec, const std::string& name);
/// A list of records (None: none; one record-like object: a list of one).
std::vector<data::Record> as_records(const py::handle& obj, const io::RecordSpec& spec,
                                     const std::string& name);
/// "record" or the record's source for naming it (workflows::NamedRecord's name).
std::string record_name(const data::Record& r, const std::string& fallback);
/// A str / os.PathLike as a path string; nullopt otherwise.
std::optional<std::string> as_path(const py::handle& obj);
/// as_path(obj), or frictionlab.Error "NAME: expected a path (str or os.PathLike), got TYPE"
/// (an output directory or file argument).
std::string path_argument(const py::handle& obj, const std::string& name);

// ---- models at the boundary ------------------------------------------------------------------
// A friction model is a Params object (frictionlab.LuGreParams, ...: bind_models), a MODEL.json
// object (dict) or a MODEL.json file (path) here; the fitted model is returned as its Params
// object. These two functions are the only conversion.

/// A ModelSpec from a Params object, a dict (MODEL.json object) or a path to a MODEL.json file.
ModelSpec model_from_python(const py::handle& obj, const std::string& name);
/// The Params object of `spec` (LuGreParams, ...; .to_json() gives the MODEL.json text).
py::object model_to_python(const ModelSpec& spec);

/// A JSON value as the Python object json.loads gives for its text.
py::object json_to_python(const nlohmann::ordered_json& j);
/// A dict / list / str / number as JSON (json.dumps text parsed by nlohmann).
nlohmann::json python_to_json(const py::handle& obj);

// ---- results ---------------------------------------------------------------------------------

/// A read-only NumPy view of `v` kept alive by `owner` (no copy).
inline py::array_t<double> view(const std::vector<double>& v, const py::handle& owner) {
  py::array_t<double> a({static_cast<py::ssize_t>(v.size())}, {sizeof(double)}, v.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

/// The getter of a read-only property that is a view() of the vector `member` of the bound
/// object: .def_property_readonly("t", view_of(&JointData::t), "[s]").
template <class T>
auto view_of(std::vector<double> T::*member) {
  return [member](const py::object& self) { return view(self.cast<const T&>().*member, self); };
}

/// Python references (no copies) to the elements of a vector member of `self`'s C++ object.
template <class T>
py::list ref_list(const std::vector<T>& v, const py::handle& self) {
  py::list l;
  for (const T& x : v) l.append(py::cast(&x, py::return_value_policy::reference_internal, self));
  return l;
}

/// The results' report(path, title="") method: write_python_report of the result with its label
/// (`label`: a string, or a member or function of the result giving it) and its JSON object
/// (`json`: a function of the result); `doc` says which page it writes.
template <class T, class Label, class Json>
void def_report(py::class_<T>& cls, Label label, Json json, const char* doc) {
  cls.def(
      "report",
      [label, json](const T& r, const py::object& path, const std::string& title) {
        if constexpr (std::is_invocable_v<const Label&, const T&>)
          return write_python_report(path, std::invoke(label, r), json(r), title);
        else
          return write_python_report(path, label, json(r), title);
      },
      py::arg("path"), py::arg("title") = "", doc);
}

/// A float64 matrix (copy) of rows of equal length.
py::array_t<double> matrix(const std::vector<std::vector<double>>& rows);

/// Register the records' Python API (bind_records) and the parts of bind_workflows.
void bind_fit_compare(py::module_& m);
void bind_verdict(py::module_& m);
void bind_joint(py::module_& m);
void bind_actuator(py::module_& m);
void bind_export(py::module_& m);
void bind_actuator_export(py::module_& m);
void bind_robot(py::module_& m);

}  // namespace frictionlab::python
