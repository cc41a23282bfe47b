// frictionlab Python module, models part: simulate_batch, many LuGre parameter sets on one
// velocity record at once (workflows::simulate_batch; docs/python.md, "Simulate").
//
//   frictionlab.simulate_batch(params, t, v, *, progress=None) -> (P, N) float64 array of F [N]
#include <pybind11/numpy.h>

#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "frictionlab/workflows/batch.hpp"
#include "models_common.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

void bind_batch(py::module_& m) {
  m.def(
      "simulate_batch",
      [](const py::sequence& params, const py::object& t, const py::object& v,
         const py::object& progress) {
        std::vector<LuGre<double>::Params> sets;
        sets.reserve(py::len(params));
        for (std::size_t i = 0; i < py::len(params); ++i) {
          const py::object item = params[i];
          const std::string where = "params[" + std::to_string(i) + "]";
          if (!py::isinstance<ParamsBase>(item))
            throw std::invalid_argument(where + ": expected frictionlab.LuGreParams, got " +
                                        std::string(py::str(py::type::of(item).attr("__name__"))));
          // Validated by the library's MODEL.json rules (warnings issued once, as simulate).
          const ModelSpec spec = item.cast<ParamsBase&>().checked_spec();
          const auto* p = std::get_if<LuGre<double>::Params>(&spec);
          if (p == nullptr || model_name(spec) != "lugre")
            throw std::invalid_argument(where +
                                        ": simulate_batch runs the LuGre model only, got a '" +
                                        model_name(spec) + "' parameter set");
          sets.push_back(*p);
        }
        const DoubleArray ta(t, "t"), va(v, "v");
        ta.require_finite("t");
        va.require_finite("v");
        workflows::SimulateBatchOutcome r =
            run_released(progress, [&](const workflows::Progress& pr) {
              return workflows::simulate_batch(sets, ta.span(), va.span(), pr);
            });
        // (r.warnings are the parameter warnings checked_spec has issued already.)
        // The (P, N) array owns the outcome's vector: no copy.
        auto* heap = new std::vector<double>(std::move(r.F));
        py::capsule owner(heap, [](void* q) { delete static_cast<std::vector<double>*>(q); });
        const auto P = static_cast<py::ssize_t>(r.sets), N = static_cast<py::ssize_t>(r.samples);
        return py::array_t<double>({P, N},
                                   {N * static_cast<py::ssize_t>(sizeof(double)),
                                    static_cast<py::ssize_t>(sizeof(double))},
                                   heap->data(), owner);
      },
      py::arg("params"), py::arg("t"), py::arg("v"), py::kw_only(),
      py::arg("progress") = py::none(),
      (std::string("Drive many LuGre parameter sets from their zero state along one record at "
                   "once (workflows::simulate_batch: SIMD over the sets, the exact step with the "
                   "velocity held over each interval, hold='zoh'), in C++ with the GIL "
                   "released.\n\n") +
       "params: a sequence of P LuGreParams. t: sample times [s], strictly increasing, at least "
       "2. v: velocity [m/s] at every t. Arrays: 1-D float64 (read in place if contiguous) or "
       "float32. Returns F [N] as a (P, N) float64 array: row i equals simulate(params[i], t, v, "
       "hold='zoh').F to rounding. " +
       std::string(kProgressDoc) + " (reported every 8192 samples)")
          .c_str());
}

}  // namespace frictionlab::python
