// frictionlab: run any model of a MODEL.json file over a sampled input (the model registry behind
// workflows::simulate_model and `frictionlab simulate --model`; the per-model work is
// integrate/stepper.hpp's drive()). The model is an ModelSpec, the parameters of any model a
// MODEL.json file can describe (io/model_json.hpp).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/model_spec.hpp"

namespace frictionlab::sim {

struct ModelRun {
  std::vector<std::string> state_names;     ///< "z" (single-state models), "z1".."zn" (the n
                                            ///< elements of maxwell-slip, gms), none (static)
  std::vector<double> F;                    ///< friction force at every input sample [N]
  std::vector<std::vector<double>> states;  ///< states[i][k]: state i at sample k
  /// The model's invariant bound on |state| (M::state_bound) [m], 0 if it has none (static).
  double state_bound = 0;
  /// First sample at which a state is outside the bound (or not finite), -1 if none. The exact
  /// steps keep the bound for any step; forward Euler and RK4 leave it when unstable.
  long bound_exceeded = -1;
};

/// Command-line names of the methods: exact, implicit-euler, euler, rk4.
const char* method_name(Method m);
std::optional<Method> parse_method(std::string_view name);

/// Whether the model of `spec` supports `m` (integrate/stepper.hpp, supports<M>).
bool supports(const ModelSpec& spec, Method m);

/// The methods a spec supports, as command-line names ("exact, implicit-euler, ...").
std::string supported_methods(const ModelSpec& spec);

/// Drive the model of `spec` from its zero state along the record (t[k], v[k]) with drive():
/// the state and force at every sample, every interval split into ceil(h / max_substep)
/// substeps if max_substep > 0. Throws std::invalid_argument if the method is not supported
/// ("model 'maxwell-slip' does not support the integrator 'rk4' (supported: exact)"), if the
/// sizes differ, or if t is not strictly increasing.
///
/// `on_sample(k)`, if set, is called at sample 0 and then after every 65536 steps of work (after
/// sample k is stored; a sample interval counts its substeps: without substeps, k = 65536,
/// 131072, ...); an exception it throws stops the run and propagates (workflows::simulate_model
/// reports progress and polls cancellation through it, so a run split into many substeps is
/// polled as often as a long one).
ModelRun run_model(const ModelSpec& spec, std::span<const double> t, std::span<const double> v,
                   Method method, Hold hold, double max_substep,
                   const std::function<void(long k)>& on_sample = {});

/// The velocity of the piecewise-linear interpolant of a sampled displacement x(t):
/// v[k] = (x[k+1] - x[k]) / (t[k+1] - t[k]) on [t[k], t[k+1]) and v[n-1] = v[n-2]. Driving a model
/// with it under Hold::zoh moves it by exactly x[k+1] - x[k] over every interval.
/// Needs n >= 2 and strictly increasing t (std::invalid_argument otherwise).
std::vector<double> velocity_from_displacement(std::span<const double> t,
                                               std::span<const double> x);

}  // namespace frictionlab::sim
