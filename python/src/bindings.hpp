// frictionlab Python module: the binding functions of each part (bind_*.cpp) and the helpers they
// share. docs/python.md.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace frictionlab::python {

namespace py = pybind11;

/// frictionlab.Error (a ValueError) and the translation of the library's exceptions;
/// frictionlab.FrictionlabWarning (a UserWarning), the category of every warning it issues.
void bind_errors(py::module_& m);

/// Issue each distinct message of `warnings` once as a frictionlab.FrictionlabWarning (a
/// message repeated in the list is issued once), attributed to the caller `stacklevel` frames
/// up (1: the Python code calling the binding). The package's default filter shows a message
/// once per process (frictionlab/__init__.py, docs/python.md "Warnings").
void warn_all(const std::vector<std::string>& warnings, int stacklevel = 1);
/// Every registered model's Params, step/force, simulate, MODEL.json, the coupled systems.
void bind_models(py::module_& m);
/// Record from arrays, a pandas DataFrame or a file.
void bind_records(py::module_& m);
/// fit, compare, fit_joint, eval_joint, fit_actuator, eval_actuator, the estimator, export_*.
void bind_workflows(py::module_& m);
/// The library's SVG plots and page pieces: Plot, PlotPanel, PlotSeries, PlotMargins,
/// render_svg, nice_ticks, escape_markup, report_css.
void bind_plots(py::module_& m);
/// Pickling of Record and of every workflow result (after bind_records, bind_workflows).
void bind_pickling(py::module_& m);

}  // namespace frictionlab::python
