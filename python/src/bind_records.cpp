// frictionlab Python module: bind_records (bindings.hpp).
#include "bindings.hpp"

namespace frictionlab::python {

void bind_records(py::module_& /*m*/) {}

}  // namespace frictionlab::python
