// frictionlab: the model registry of `simulate --model` (include/frictionlab/sim/model_run.hpp).
#include "frictionlab/sim/model_run.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/dahl/temperature.hpp"
#include "frictionlab/models/elastoplastic/temperature.hpp"
#include "frictionlab/models/gms/temperature.hpp"
#include "frictionlab/models/joint_lugre/temperature.hpp"
#include "frictionlab/models/lugre/temperature.hpp"
#include "frictionlab/models/maxwell_slip/temperature.hpp"
#include "frictionlab/models/modified_stribeck/temperature.hpp"
#include "frictionlab/models/stribeck/temperature.hpp"
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
auto& model_params(P& p) {
  if constexpr (std::is_same_v<std::remove_const_t<P>, StaticSpec>) {
    return p.params;
  } else {
    return p;
  }
}

// Every registered model says which of its parameters a temperature law scales.
static_assert([]<class... Ps>(std::type_identity<std::variant<Ps...>>) {
  return (HasTemperatureLevels<typename ModelOf<Ps>::type> && ...);
}(std::type_identity<ModelSpec>{}));

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

namespace {

/// The checks every run makes before any work: the method, the lengths, t increasing.
void check_run(const ModelSpec& spec, std::span<const double> t, std::span<const double> v,
               Method method) {
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
}

/// What a run of model M records at each sample: the force and the states, the first sample
/// whose state leaves the bound, and on_sample at its cadence (every 65536 steps of work, a
/// sample counting its substeps).
template <class M>
class Recording {
 public:
  Recording(const typename M::Params& p, std::span<const double> t, double state_bound,
            double max_substep, const std::function<void(long k)>& on_sample)
      : t_(t), max_substep_(max_substep), on_sample_(on_sample) {
    const int ns = state_count<M>(p);
    ns_ = ns;
    if constexpr (requires { M::kMaxElements; }) {
      for (int i = 0; i < ns; ++i) {
        // (name built with append: GCC 12 warns falsely on "z" + std::to_string(...))
        std::string name(1, 'z');
        name.append(std::to_string(i + 1));
        run_.state_names.push_back(std::move(name));
      }
    } else if (ns == 1) {
      run_.state_names = {"z"};
    }
    run_.F.resize(t.size());
    run_.states.assign(static_cast<std::size_t>(ns), std::vector<double>(t.size()));
    run_.state_bound = state_bound;
    limit_ = state_bound * (1 + 1e-9);  // rounding of the exact updates
  }

  void operator()(long k, double F, const typename M::State& x) {
    const auto kk = static_cast<std::size_t>(k);
    run_.F[kk] = F;
    if constexpr (M::kNumStates > 0) {
      if constexpr (requires { x.z[0]; }) {
        for (int i = 0; i < ns_; ++i) take_state(k, i, x.z[static_cast<std::size_t>(i)]);
      } else {
        take_state(k, 0, x.z);
      }
    }
    if (!on_sample_) return;
    if (k > 0)
      work_ +=
          max_substep_ > 0 ? std::max(1.0, std::ceil((t_[kk] - t_[kk - 1]) / max_substep_)) : 1.0;
    if (k == 0 || work_ >= 65536) {
      work_ = 0;
      on_sample_(k);
    }
  }

  ModelRun take() { return std::move(run_); }

 private:
  void take_state(long k, int i, double z) {
    run_.states[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] = z;
    if (!(std::abs(z) <= limit_) && run_.bound_exceeded < 0) run_.bound_exceeded = k;
  }

  std::span<const double> t_;
  double max_substep_;
  const std::function<void(long k)>& on_sample_;
  ModelRun run_;
  int ns_ = 0;
  double limit_ = 0;
  double work_ = 0;
};

/// The model's invariant bound on |state| at p (M::state_bound), 0 if it has none.
template <class M>
double state_bound(const typename M::Params& p) {
  if constexpr (requires { M::state_bound(p); }) {
    return M::state_bound(p);
  } else {
    return 0.0;
  }
}

/// p with its levels scaled by the law at T [degC] (scale_levels, the model folder's
/// temperature.hpp); run_model's check_temperature has checked the law at every T.
template <class P>
P scaled(P p, const TemperatureDependence<double>& law, double T) {
  scale_levels(p, level_scale(law, T), viscous_scale(law, T));
  return p;
}

/// The temperatures' checks before any work: their count, finite values and a positive scale
/// of the law at each (naming the sample); the model valid at the coldest and the warmest
/// (the levels are monotone in T between them).
void check_temperature(const ModelSpec& spec, const TemperatureInput& temperature,
                       std::span<const double> t) {
  const auto& T = temperature.T;
  if (T.size() != t.size())
    throw std::invalid_argument("run_model: " + std::to_string(t.size()) + " times but " +
                                std::to_string(T.size()) + " temperatures");
  for (std::size_t k = 0; k < T.size(); ++k) {
    if (!std::isfinite(T[k]))
      throw std::invalid_argument("the temperature at sample " + std::to_string(k) +
                                  " is not finite");
    detail::check_scale_positive("sample " + std::to_string(k), temperature.law, T[k]);
  }
  if (T.empty()) return;
  const auto [lo, hi] = std::minmax_element(T.begin(), T.end());
  (void)at_temperature(spec, temperature.law, *lo);
  (void)at_temperature(spec, temperature.law, *hi);
}

}  // namespace

ModelRun run_model(const ModelSpec& spec, std::span<const double> t, std::span<const double> v,
                   Method method, Hold hold, double max_substep,
                   const std::function<void(long k)>& on_sample) {
  check_run(spec, t, v, method);
  return std::visit(
      [&](const auto& spec_params) {
        using M = typename ModelOf<std::decay_t<decltype(spec_params)>>::type;
        const auto& p = model_params(spec_params);
        Recording<M> record(p, t, state_bound<M>(p), max_substep, on_sample);
        drive<M>(p, typename M::State{}, t.data(), v.data(), static_cast<long>(t.size()), method,
                 hold, max_substep, record);
        return record.take();
      },
      spec);
}

ModelSpec at_temperature(const ModelSpec& spec, const TemperatureDependence<double>& law,
                         double T) {
  ModelSpec out = spec;
  std::visit(
      [&](auto& spec_params) {
        auto& p = model_params(spec_params);
        p = detail::params_at(p, law, T, "model '" + frictionlab::model_name(spec) + "'");
      },
      out);
  for (const ParamIssue& issue : check(out))
    if (!issue.warning)
      throw std::invalid_argument("at T = " + format_number(T) +
                                  " degC the temperature law gives " + issue.param + " that " +
                                  issue.message);
  return out;
}

ModelRun run_model(const ModelSpec& spec, const TemperatureInput& temperature,
                   std::span<const double> t, std::span<const double> v, Method method, Hold hold,
                   double max_substep, const std::function<void(long k)>& on_sample) {
  check_run(spec, t, v, method);
  check_temperature(spec, temperature, t);
  const auto& law = temperature.law;
  const auto& T = temperature.T;
  return std::visit(
      [&](const auto& spec_params) {
        using M = typename ModelOf<std::decay_t<decltype(spec_params)>>::type;
        const auto& p = model_params(spec_params);
        double bound = 0.0;
        if (!T.empty()) {
          const auto [lo, hi] = std::minmax_element(T.begin(), T.end());
          bound =
              std::max(state_bound<M>(scaled(p, law, *lo)), state_bound<M>(scaled(p, law, *hi)));
        }
        Recording<M> record(p, t, bound, max_substep, on_sample);
        const long n = static_cast<long>(t.size());
        typename M::State x{};
        const auto ignore = [](long, double, const typename M::State&) {};
        if (n == 0) return record.take();
        auto pk = scaled(p, law, T[0]);  // the parameters at sample k's temperature
        for (long k = 0; k < n; ++k) {
          const auto kk = static_cast<std::size_t>(k);
          record(k, M::force(pk, x, v[kk]), x);
          if (k + 1 == n) break;
          auto next = scaled(p, law, T[kk + 1]);
          x = drive<M>(hold == Hold::zoh ? pk : next, x, t.data() + k, v.data() + k, 2, method,
                       hold, max_substep, ignore);
          pk = std::move(next);
        }
        return record.take();
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
