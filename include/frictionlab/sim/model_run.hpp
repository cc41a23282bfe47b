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
#include "frictionlab/models/temperature_dependence.hpp"

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

/// A temperature channel for run_model: the law that scales the model's levels
/// (models/temperature_dependence.hpp; which parameters: models/<model>/temperature.hpp) and the
/// temperature [degC] at every sample.
struct TemperatureInput {
  TemperatureDependence<double> law;
  std::span<const double> T;
};

/// The model of `spec` at temperature T [degC] under `law`: its levels scaled by level_scale, its
/// viscous term by viscous_scale. Throws std::invalid_argument if a linear law's scale is not
/// positive at T or the scaled parameters are invalid (naming T and the parameter).
ModelSpec at_temperature(const ModelSpec& spec, const TemperatureDependence<double>& law, double T);

/// run_model with the model's levels at the record's temperature: the force at sample k with
/// the parameters at T[k]; the state over the interval [t[k], t[k+1]] stepped with the
/// parameters at T[k] under Hold::zoh (the temperature held as the velocity is) and at T[k+1]
/// under Hold::linear (the interval's end, as the joint model's simulation takes its levels: a
/// stiff bristle state relaxed to its level over the interval then meets the force's levels at
/// the sample; the midpoint would leave it half an interval's drift behind, which sigma1
/// amplifies). The state bound is the largest over the record's temperatures. Throws
/// std::invalid_argument as run_model does, and if T has another length than t, a temperature
/// is not finite or the law gives no valid model at one (naming the sample).
ModelRun run_model(const ModelSpec& spec, const TemperatureInput& temperature,
                   std::span<const double> t, std::span<const double> v, Method method, Hold hold,
                   double max_substep, const std::function<void(long k)>& on_sample = {});

/// The velocity of the piecewise-linear interpolant of a sampled displacement x(t):
/// v[k] = (x[k+1] - x[k]) / (t[k+1] - t[k]) on [t[k], t[k+1]) and v[n-1] = v[n-2]. Driving a model
/// with it under Hold::zoh moves it by exactly x[k+1] - x[k] over every interval.
/// Needs n >= 2 and strictly increasing t (std::invalid_argument otherwise).
std::vector<double> velocity_from_displacement(std::span<const double> t,
                                               std::span<const double> x);

}  // namespace frictionlab::sim
