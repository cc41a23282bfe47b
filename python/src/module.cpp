// frictionlab Python module (frictionlab._frictionlab): the entry point. Each part of the API
// is bound in its own source (bind_*.cpp) through the functions declared in bindings.hpp.
// docs/python.md.
#include "bindings.hpp"

PYBIND11_MODULE(_frictionlab, m) {
  m.doc() = "frictionlab: friction models, exact simulation and identification (C++ core)";
  frictionlab::python::bind_errors(m);
  frictionlab::python::bind_models(m);
  frictionlab::python::bind_records(m);
  frictionlab::python::bind_workflows(m);
  frictionlab::python::bind_plots(m);
  frictionlab::python::bind_pickling(m);
}
