// frictionlab Python module, models part: what bind_models.cpp and models_systems.cpp share
// (docs/python.md, "Models"). Every registered model's parameters are one Python class
// generated from its registry descriptor (models/registry.hpp): PyParams<Info>, all derived from
// ParamsBase (frictionlab.ModelParams), so that a function taking "any model" (simulate, the
// coupled systems) takes a ParamsBase.
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <string>

#include "bindings.hpp"
#include "frictionlab/models/registry.hpp"

namespace frictionlab::python {

namespace py = pybind11;

/// frictionlab.ModelParams: the parameters of any registered model.
struct ParamsBase {
  virtual ~ParamsBase() = default;
  /// The parameters as the library's ModelSpec (validated first: check() unless already done
  /// since the last change).
  virtual ModelSpec checked_spec() = 0;
  /// The parameters as they are (no validation).
  virtual ModelSpec spec() const = 0;
};

/// A Python object (dict, list, str, number, bool, None, NumPy array or scalar) as JSON, for the
/// library's MODEL.json reader (io::model_from_json). `what` names the object in messages.
nlohmann::json json_from_python(const py::handle& obj, const std::string& what);

/// A JSON value as a Python object (dict keeps the order of an ordered_json object).
py::object python_from_json(const nlohmann::ordered_json& j);

/// The Python Params object of a spec (the class of its model: LuGreParams, ...). `validated`:
/// the spec comes from a file reader that has checked it and issued (or, by the file's
/// "accepted_warnings", accepted) its warnings; the object is not checked again until changed.
py::object params_object(const ModelSpec& spec, bool validated = false);

/// A spec from a Params object or a path to a MODEL.json file (str or os.PathLike).
ModelSpec model_argument(const py::handle& model);

/// The coupled systems (sim/systems.hpp, workflows::simulate_system): models_systems.cpp.
void bind_systems(py::module_& m);
/// simulate_batch: many LuGre sets on one record (workflows::simulate_batch): models_batch.cpp.
void bind_batch(py::module_& m);

}  // namespace frictionlab::python
