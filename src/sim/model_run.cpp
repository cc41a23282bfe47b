// frictionlab: the model registry of `simulate --model` (include/frictionlab/sim/model_run.hpp).
#include "frictionlab/sim/model_run.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab::sim {

namespace {

// The integrators' names (simulate --method, messages), in the order messages list them.
constexpr std::array<Named<Method>, 4> kMethodNames{{
    {Method::exact, "exact"},
    {Method::implicit_euler, "implicit-euler"},
    {Method::forward_euler, "euler"},
    {Method::rk4, "rk4"},
}};
static_assert(names_every(kMethodNames, Method::rk4));

// The model type of each alternative of ModelSpec (StaticSpec wraps StaticFriction's Params).
template <class P>
struct ModelOf {
  using type = model_of_t<P>;
};
template <>
struct ModelOf<StaticSpec> {
  using type = StaticFriction<double>;
};

template <class P>
const auto& model_params(const P& p) {
  if constexpr (std::is_same_v<P, StaticSpec>) {
    return p.params;
  } else {
    return p;
  }
}

// Number of state columns written for a model: z (1), z1..zn (n elements), none (static).
template <class M>
int state_count(const typename M::Params& p) {
  if constexpr (requires { M::kMaxElements; }) {
    return p.n;
  } else {
    return M::kNumStates;
  }
}

}  // namespace

const char* method_name(Method m) { return name_of(kMethodNames, m, "exact").data(); }

std::optional<Method> parse_method(std::string_view name) { return parse_name(kMethodNames, name); }

bool supports(const ModelSpec& spec, Method m) {
  return std::visit(
      [m](const auto& p) {
        using M = typename ModelOf<std::decay_t<decltype(p)>>::type;
        return frictionlab::supports<M>(m);
      },
      spec);
}

std::string supported_methods(const ModelSpec& spec) {
  std::string s;
  for (const Named<Method>& m : kMethodNames)
    if (supports(spec, m.value)) s += std::string(s.empty() ? "" : ", ") + std::string(m.name);
  return s;
}

ModelRun run_model(const ModelSpec& spec, std::span<const double> t, std::span<const double> v,
                   Method method, Hold hold, double max_substep,
                   const std::function<void(long k)>& on_sample) {
  if (!supports(spec, method))
    throw std::invalid_argument("model '" + frictionlab::model_name(spec) +
                                "' does not support the integrator '" + method_name(method) +
                                "' (supported: " + supported_methods(spec) + ")");
  if (t.size() != v.size())
    throw std::invalid_argument("run_model: " + std::to_string(t.size()) + " times but " +
                                std::to_string(v.size()) + " velocities");
  for (std::size_t k = 1; k < t.size(); ++k)
    if (!(t[k] > t[k - 1]))
      throw std::invalid_argument("run_model: t is not strictly increasing at sample " +
                                  std::to_string(k));
  return std::visit(
      [&](const auto& spec_params) {
        using M = typename ModelOf<std::decay_t<decltype(spec_params)>>::type;
        const auto& p = model_params(spec_params);
        const int ns = state_count<M>(p);
        ModelRun run;
        if constexpr (requires { M::kMaxElements; }) {
          for (int i = 0; i < ns; ++i) {
            // (name built with append: GCC 12 warns falsely on "z" + std::to_string(...))
            std::string name(1, 'z');
            name.append(std::to_string(i + 1));
            run.state_names.push_back(std::move(name));
          }
        } else if (ns == 1) {
          run.state_names = {"z"};
        }
        const std::size_t n = t.size();
        run.F.resize(n);
        run.states.assign(static_cast<std::size_t>(ns), std::vector<double>(n));
        if constexpr (requires { M::state_bound(p); }) run.state_bound = M::state_bound(p);
        const double limit = run.state_bound * (1 + 1e-9);  // rounding of the exact updates
        // on_sample's cadence: every 65536 steps of work, a sample counting its substeps.
        double work = 0;
        drive<M>(p, typename M::State{}, t.data(), v.data(), static_cast<long>(n), method, hold,
                 max_substep, [&](long k, double F, const typename M::State& x) {
                   const auto kk = static_cast<std::size_t>(k);
                   run.F[kk] = F;
                   if constexpr (M::kNumStates > 0) {
                     if constexpr (requires { x.z[0]; }) {
                       for (int i = 0; i < ns; ++i) {
                         const double z = x.z[static_cast<std::size_t>(i)];
                         run.states[static_cast<std::size_t>(i)][kk] = z;
                         if (!(std::abs(z) <= limit) && run.bound_exceeded < 0)
                           run.bound_exceeded = k;
                       }
                     } else {
                       run.states[0][kk] = x.z;
                       if (!(std::abs(x.z) <= limit) && run.bound_exceeded < 0)
                         run.bound_exceeded = k;
                     }
                   }
                   if (!on_sample) return;
                   if (k > 0)
                     work += max_substep > 0
                                 ? std::max(1.0, std::ceil((t[kk] - t[kk - 1]) / max_substep))
                                 : 1.0;
                   if (k == 0 || work >= 65536) {
                     work = 0;
                     on_sample(k);
                   }
                 });
        return run;
      },
      spec);
}

std::vector<double> velocity_from_displacement(std::span<const double> t,
                                               std::span<const double> x) {
  if (t.size() != x.size())
    throw std::invalid_argument("velocity_from_displacement: " + std::to_string(t.size()) +
                                " times but " + std::to_string(x.size()) + " positions");
  if (t.size() < 2)
    throw std::invalid_argument("velocity_from_displacement: needs at least 2 samples");
  const std::size_t n = t.size();
  std::vector<double> v(n);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (!(t[k + 1] > t[k]))
      throw std::invalid_argument(
          "velocity_from_displacement: t is not strictly increasing at "
          "sample " +
          std::to_string(k + 1));
    v[k] = (x[k + 1] - x[k]) / (t[k + 1] - t[k]);
  }
  v[n - 1] = v[n - 2];
  return v;
}

}  // namespace frictionlab::sim
