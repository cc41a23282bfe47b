// frictionlab Python module: the binding functions of each part (bind_*.cpp) and the helpers they
// share. docs/python.md.
#pragma once

#include <pybind11/pybind11.h>

namespace frictionlab::python {

namespace py = pybind11;

/// frictionlab.Error (a ValueError) and the translation of the library's exceptions.
void bind_errors(py::module_& m);
/// Every registered model's Params, step/force, simulate, MODEL.json, the coupled systems.
void bind_models(py::module_& m);
/// Record from arrays, a pandas DataFrame or a file.
void bind_records(py::module_& m);
/// fit, compare, fit_joint, eval_joint, fit_actuator, eval_actuator, the estimator, export_*.
void bind_workflows(py::module_& m);
/// Pickling of Record and of the fit and compare results (after bind_records, bind_workflows).
void bind_pickling(py::module_& m);

}  // namespace frictionlab::python
