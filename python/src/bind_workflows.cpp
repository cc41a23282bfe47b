// frictionlab Python module: bind_workflows (bindings.hpp).
#include "bindings.hpp"

namespace frictionlab::python {

void bind_workflows(py::module_& /*m*/) {}

}  // namespace frictionlab::python
