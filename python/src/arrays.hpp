// frictionlab Python module: NumPy arrays in and out (bindings.hpp). Inputs: one-dimensional
// float64 or float32 arrays of either byte order; anything else (another dtype such as an int
// array, another shape, NaN or infinity where the library requires finite values) raises
// frictionlab.Error naming the argument. Native-order float64 contiguous arrays are read in
// place (no copy); others (float32, big-endian '>f8' on this little-endian machine, strided)
// are converted once, explicitly, to native float64 (NumPy's cast: values kept exactly).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace frictionlab::python {

namespace py = pybind11;

/// A read-only view of a 1-D float array as doubles: in place for contiguous native-order
/// float64, else a converted copy (float32, non-native byte order, strided) kept alive by the
/// object.
class DoubleArray {
 public:
  DoubleArray(const py::handle& obj, const std::string& name) {
    if (!py::isinstance<py::array>(obj))
      throw std::invalid_argument(name + ": expected a NumPy array (float64 or float32), got " +
                                  std::string(py::str(py::type::of(obj).attr("__name__"))));
    auto a = py::reinterpret_borrow<py::array>(obj);
    if (a.ndim() != 1)
      throw std::invalid_argument(name + ": expected a one-dimensional array, got " +
                                  std::to_string(a.ndim()) + " dimensions");
    const auto kind = a.dtype().kind();
    const auto size = a.dtype().itemsize();
    if (kind != 'f' || (size != 8 && size != 4))
      throw std::invalid_argument(name + ": expected float64 or float32, got " +
                                  std::string(py::str(a.dtype())));
    // A non-native byte order ('>f8' on a little-endian machine) read in place would be read
    // as native bytes (1.0 as 3.04e-319): such arrays take the converting branch.
    const bool native = a.dtype().attr("isnative").cast<bool>();
    if (size == 8 && native && (a.flags() & py::array::c_style)) {
      keep_ = a;
      data_ = static_cast<const double*>(a.data());
      n_ = static_cast<std::size_t>(a.shape(0));
      in_place_ = true;
    } else {
      auto c = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
      keep_ = c;
      data_ = c.data();
      n_ = static_cast<std::size_t>(c.shape(0));
    }
  }
  std::span<const double> span() const { return {data_, n_}; }
  /// A read-only float64 view of the data: of the caller's array when read in place, else of
  /// the converted copy.
  py::array readonly_view() const {
    py::array v = keep_.attr("view")();
    v.attr("flags").attr("writeable") = false;
    return v;
  }
  std::vector<double> vector() const { return {data_, data_ + n_}; }
  std::size_t size() const { return n_; }
  const double* data() const { return data_; }
  bool in_place() const { return in_place_; }
  /// Throws naming the argument and the first non-finite sample.
  void require_finite(const std::string& name) const {
    for (std::size_t k = 0; k < n_; ++k)
      if (!std::isfinite(data_[k]))
        throw std::invalid_argument(name + "[" + std::to_string(k) + "] is not finite (" +
                                    std::to_string(data_[k]) + ")");
  }

 private:
  py::object keep_;
  const double* data_ = nullptr;
  std::size_t n_ = 0;
  bool in_place_ = false;
};

/// A new float64 NumPy array holding `v` (moved into the array's memory, no second copy).
inline py::array_t<double> to_numpy(std::vector<double>&& v) {
  auto* heap = new std::vector<double>(std::move(v));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>({static_cast<py::ssize_t>(heap->size())}, {sizeof(double)},
                             heap->data(), owner);
}

}  // namespace frictionlab::python
