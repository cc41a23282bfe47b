// frictionlab Python module: bind_models (bindings.hpp).
#include "bindings.hpp"

namespace frictionlab::python {

void bind_models(py::module_& /*m*/) {}

}  // namespace frictionlab::python
