// frictionlab Python module: the envelope of a pickled object's state (pickling.cpp and the
// Python-side result structs of bind_models.cpp, models_systems.cpp): (kStateVersion, members).
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace frictionlab::python {

namespace py = pybind11;

/// The layout of the states; raise it when a member is added to a pickled type.
inline constexpr int kStateVersion = 1;

/// `members` as a pickled state.
inline py::tuple pickle_state(const py::object& members) {
  return py::make_tuple(kStateVersion, members);
}

/// The members of a pickled state of type `name` (`count` of them for a tuple, any for another
/// object; 0: not checked); frictionlab.Error for a state of another version or layout.
inline py::object unpickle_state(const py::tuple& state, const std::string& name,
                                 std::size_t count = 0) {
  if (state.size() != 2 || !py::isinstance<py::int_>(state[0]) ||
      state[0].cast<int>() != kStateVersion)
    throw std::invalid_argument("pickle: a " + name + " state of another frictionlab version");
  py::object members = state[1];
  if (count != 0 && (!py::isinstance<py::tuple>(members) || py::len(members) != count))
    throw std::invalid_argument("pickle: a " + name + " state of another layout");
  return members;
}

}  // namespace frictionlab::python
