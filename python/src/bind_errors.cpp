// frictionlab Python module: frictionlab.Error and the translation of the library's exceptions
// (bindings.hpp). Every error the library reports about its input (a file, a record, a parameter,
// an option) is a frictionlab.Error, a subclass of ValueError, with the library's message;
// cancellation (Ctrl-C in a long call) is KeyboardInterrupt. Its warnings are
// frictionlab.FrictionlabWarning (warn_all).
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "frictionlab/data/checks.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::python {

namespace {
PyObject* g_warning = nullptr;  // frictionlab.FrictionlabWarning (owned by the module)
}  // namespace

void warn_all(const std::vector<std::string>& warnings, int stacklevel) {
  PyObject* category = g_warning != nullptr ? g_warning : PyExc_UserWarning;
  std::set<std::string> issued;
  for (const auto& w : warnings)
    if (issued.insert(w).second && PyErr_WarnEx(category, w.c_str(), stacklevel) != 0)
      throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  g_warning = PyErr_NewExceptionWithDoc(
      "frictionlab.FrictionlabWarning",
      "A result or an input the library accepts but doubts (a set that is not passive, a "
      "parameter at its bound, ...). A subclass of UserWarning; each distinct message is shown "
      "once per process by default (docs/python.md, \"Warnings\").",
      PyExc_UserWarning, nullptr);
  if (g_warning == nullptr) throw py::error_already_set();
  m.attr("FrictionlabWarning") = py::reinterpret_borrow<py::object>(g_warning);
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
