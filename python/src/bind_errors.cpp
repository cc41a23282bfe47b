// frictionlab Python module: frictionlab.Error and the translation of the library's exceptions
// (bindings.hpp). Every error the library reports about its input (a file, a record, a parameter,
// an option) is a frictionlab.Error, a subclass of ValueError, with the library's message;
// cancellation (Ctrl-C in a long call) is KeyboardInterrupt.
#include <stdexcept>

#include "bindings.hpp"
#include "frictionlab/data/checks.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::python {

void bind_errors(py::module_& m) {
  static py::exception<std::invalid_argument> error(m, "Error", PyExc_ValueError);
  error.doc() =
      "An input the library cannot use (file, record, parameter, option), with the library's "
      "message naming the file, line/column or parameter. A subclass of ValueError.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const workflows::Cancelled&) {
      if (PyErr_Occurred() == nullptr) PyErr_SetString(PyExc_KeyboardInterrupt, "cancelled");
    } catch (const io::InputError& e) {
      error(e.what());
    } catch (const identify::FitError& e) {
      error(e.what());
    } catch (const data::RecordError& e) {
      error(e.what());
    } catch (const std::invalid_argument& e) {
      error(e.what());
    }
  });
}

}  // namespace frictionlab::python
