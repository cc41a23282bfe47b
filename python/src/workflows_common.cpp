// frictionlab Python module: progress, records from Python objects, models at the boundary
// (workflows_common.hpp).
#include "workflows_common.hpp"

#include "models_common.hpp"

#include <Python.h>

#include <stdexcept>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/io/model_json.hpp"

namespace frictionlab::python {

// ---- progress ----

struct PyProgress::State {
  py::object callback;                         ///< None or a callable
  std::optional<py::error_already_set> error;  ///< what stopped the call (read with the GIL)
  std::atomic<bool> cancelled{false};          ///< error is set: the workflow stops
};

PyProgress::PyProgress(const py::object& progress) : state_(std::make_shared<State>()) {
  if (py::isinstance<py::bool_>(progress)) {
    if (progress.cast<bool>())
      state_->callback = py::module_::import("frictionlab._progress").attr("TqdmProgress")();
  } else if (!progress.is_none()) {
    if (!PyCallable_Check(progress.ptr()))
      throw std::invalid_argument(
          "progress: expected None, True or a callable progress(message, fraction), got " +
          std::string(py::str(py::type::of(progress).attr("__name__"))));
    state_->callback = progress;
  }
  std::shared_ptr<State> s = state_;
  if (s->callback) {
    progress_.report = [s](const workflows::ProgressEvent& event) {
      py::gil_scoped_acquire gil;
      if (s->error) return;
      try {
        s->callback(py::str(event.message.data(), event.message.size()), event.fraction);
      } catch (py::error_already_set& e) {
        s->error.emplace(std::move(e));
        s->cancelled = true;
      }
    };
  }
  progress_.cancel = [s]() { return s->cancelled.load(std::memory_order_relaxed); };
}

void PyProgress::check_signals() {
  if (state_->error) return;
  if (PyErr_CheckSignals() != 0) {
    state_->error.emplace();  // (fetches the exception the handler raised)
    state_->cancelled = true;
  }
}

PyProgress::~PyProgress() {
  // A tqdm bar is closed whatever happened (called with the GIL held: after run_released's
  // release scope).
  if (state_->callback && py::hasattr(state_->callback, "close")) {
    try {
      state_->callback.attr("close")();
    } catch (py::error_already_set&) {
    }
  }
}

void PyProgress::rethrow() {
  if (state_->error) {
    py::error_already_set e = std::move(*state_->error);
    state_->error.reset();
    throw e;
  }
}

// ---- reports ----

/// What a report made from Python says made it (workflows_common.hpp).
io::ReportOptions python_report_options(const std::string& title) {
  io::ReportOptions ro;
  if (!title.empty()) ro.title = title;
  ro.generator = "frictionlab " +
                 py::module_::import("frictionlab").attr("__version__").cast<std::string>() +
                 " (Python)";
  return ro;
}

std::string write_python_report(const py::handle& path, const std::string& name,
                                const nlohmann::ordered_json& result, const std::string& title) {
  const std::string p = path_argument(path, "path");
  io::write_report(p, {{name, result}}, python_report_options(title));
  return p;
}

// ---- records ----

const std::vector<std::string>& record_spec_names() {
  static const std::vector<std::string> names{"time",  "position",    "velocity", "current",
                                              "force", "temperature", "matrix"};
  return names;
}

io::RecordSpec record_spec(const py::kwargs& kwargs, const std::string& time_default) {
  io::RecordSpec s;
  s.time_default = time_default;
  auto get = [&](const char* key, std::string& field) {
    if (kwargs.contains(key) && !kwargs[key].is_none()) {
      const py::handle v = kwargs[key];
      if (!py::isinstance<py::str>(v))
        throw std::invalid_argument(std::string("option '") + key +
                                    "': expected a column / variable name (str), got " +
                                    std::string(py::repr(v)));
      field = v.cast<std::string>();
    }
  };
  get("time", s.time);
  get("position", s.position);
  get("velocity", s.velocity);
  get("current", s.current);
  get("force", s.force);
  get("temperature", s.temperature);
  get("matrix", s.matrix);
  return s;
}

std::optional<std::string> as_path(const py::handle& obj) {
  if (py::isinstance<py::str>(obj)) return obj.cast<std::string>();
  const py::object fspath = py::module_::import("os").attr("fspath");
  if (py::hasattr(obj, "__fspath__")) return fspath(obj).cast<std::string>();
  return std::nullopt;
}

std::string path_argument(const py::handle& obj, const std::string& name) {
  if (auto p = as_path(obj)) return *p;
  throw std::invalid_argument(name + ": expected a path (str or os.PathLike), got " +
                              std::string(py::str(py::type::of(obj).attr("__name__"))));
}

data::Record record_from_arrays(const py::dict& arrays, const std::string& source);
data::Record record_from_dataframe(const py::handle& df, const io::RecordSpec& spec,
                                   const std::string& source);

data::Record as_record(const py::handle& obj, const io::RecordSpec& spec, const std::string& name) {
  if (py::isinstance<data::Record>(obj)) return obj.cast<const data::Record&>();
  if (const auto path = as_path(obj)) return io::read_record(*path, spec);
  if (py::isinstance<py::dict>(obj))
    return record_from_arrays(py::reinterpret_borrow<py::dict>(obj), "");
  if (py::hasattr(obj, "columns") && py::hasattr(obj, "to_numpy"))
    return record_from_dataframe(obj, spec, "");
  throw std::invalid_argument(name +
                              ": expected a Record, a file path, a pandas DataFrame or a dict "
                              "of arrays, got " +
                              std::string(py::str(py::type::of(obj).attr("__name__"))));
}

std::vector<data::Record> as_records(const py::handle& obj, const io::RecordSpec& spec,
                                     const std::string& name) {
  std::vector<data::Record> out;
  if (obj.is_none()) return out;
  if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
    std::size_t k = 0;
    for (const py::handle item : obj)
      out.push_back(as_record(item, spec, name + "[" + std::to_string(k++) + "]"));
    return out;
  }
  out.push_back(as_record(obj, spec, name));
  return out;
}

std::string record_name(const data::Record& r, const std::string& fallback) {
  return r.source.empty() ? fallback : r.source;
}

// ---- models ----

py::object json_to_python(const nlohmann::ordered_json& j) { return python_from_json(j); }

nlohmann::json python_to_json(const py::handle& obj) { return json_from_python(obj, "value"); }

ModelSpec model_from_python(const py::handle& obj, const std::string& name) {
  // Params objects and MODEL.json paths: the models part's conversion.
  if (py::isinstance<ParamsBase>(obj) || as_path(obj)) return model_argument(obj);
  if (py::isinstance<py::dict>(obj)) {
    const std::string text = py::module_::import("json").attr("dumps")(obj).cast<std::string>();
    io::ModelFile f = io::parse_model_json(text, name);
    warn_all(f.warnings);
    return f.spec;
  }
  throw std::invalid_argument(name +
                              ": expected model parameters (frictionlab.LuGreParams, ...), a "
                              "MODEL.json object (dict) or file path, got " +
                              std::string(py::str(py::type::of(obj).attr("__name__"))));
}

py::object model_to_python(const ModelSpec& spec) { return params_object(spec); }

py::array_t<double> matrix(const std::vector<std::vector<double>>& rows) {
  const std::size_t n = rows.size(), m = rows.empty() ? 0 : rows.front().size();
  py::array_t<double> a({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(m)});
  auto w = a.mutable_unchecked<2>();
  for (std::size_t i = 0; i < n; ++i) {
    if (rows[i].size() != m) throw std::logic_error("matrix: rows of different lengths");
    for (std::size_t j = 0; j < m; ++j)
      w(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = rows[i][j];
  }
  return a;
}

}  // namespace frictionlab::python
