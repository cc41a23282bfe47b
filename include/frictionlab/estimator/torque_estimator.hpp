// frictionlab: the real-time sensorless torque estimator (docs/estimator.md).
//
// Reference 000's estimator for a joint driven by a current-controlled motor, called once per
// control cycle:
//
//   tau = Km * i - F                                         [Nm]    net (joint) torque
//   F   = sigma0 * z + sigma1(v) * dz/dt + sigma2 * v        [Nm]    LuGre friction
//   (models/lugre.hpp) dz/dt = v - sigma0 |v| / g(v) * z  (+ u, optional observer correction)
//   [rad/s]
//
// with i the motor current [A], v the velocity [rad/s] (or a position increment dx [rad] over
// the cycle), Km the torque constant [Nm/A] and g(v) the (asymmetric) Stribeck curve
// (models/stribeck.hpp). The LuGre equations live in models/lugre.hpp; this header only sequences
// them per cycle:
//   - velocity input: z is advanced over the actual elapsed time dt from the previous cycle's
//     velocity to this one's with LuGre::step_linear (Hold::linear, default: the input of `fit`) or
//     held at the previous velocity with the exact LuGre::step (Hold::zoh);
//   - position increments: z is advanced over the displacement dx with LuGre::step_displacement
//     (the arc-length form dz/ds: the decay depends on |dx|, not on a noisy velocity), v = dx/dt;
//   - the friction is LuGre::force at the new state: dz/dt is the model's derivative at the end of
//     the step (the sampled continuous-time force; docs/estimator.md, "Which dz/dt").
// Both updates are exact for the held input and keep |z| <= max g / sigma0 for any dt, where
// forward Euler at a hard-coded 1 ms (the deployed firmware of reference 000) diverges once
// sigma0 |v| / g(v) > 2000 1/s.
//
// Contract (the firmware side): step() and step_displacement() are noexcept, allocation-free,
// branch-light, work with -fno-exceptions -fno-rtti, and take the actual elapsed time. The state
// is two scalars. Parameters are checked by init()/set_params() without allocating (first_invalid);
// the host-side builder with messages is estimator/builder.hpp.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/lugre/model.hpp"  // the model only: no host-side validation
#include "frictionlab/names.hpp"

namespace frictionlab::estimator {

/// The first invalid parameter of a set (declaration order), `ok` if none. The values are those
/// of the C API's FL_ESTIMATOR_* codes (estimator/torque_estimator.h).
enum class ParamError : std::uint8_t {
  ok = 0,
  Km,
  sigma0,
  sigma1,
  sigma2,
  Fc_pos,
  Fc_neg,
  Fs_pos,
  Fs_neg,
  vs,
  alpha,
  shape,
  vd,
  hold,
};

/// The parameters' names as in docs/estimator.md ("ok" for ParamError::ok).
inline constexpr std::array<Named<ParamError>, 14> kParamErrorNames{{
    {ParamError::ok, "ok"},
    {ParamError::Km, "Km"},
    {ParamError::sigma0, "sigma0"},
    {ParamError::sigma1, "sigma1"},
    {ParamError::sigma2, "sigma2"},
    {ParamError::Fc_pos, "Fc_pos"},
    {ParamError::Fc_neg, "Fc_neg"},
    {ParamError::Fs_pos, "Fs_pos"},
    {ParamError::Fs_neg, "Fs_neg"},
    {ParamError::vs, "vs"},
    {ParamError::alpha, "alpha"},
    {ParamError::shape, "shape"},
    {ParamError::vd, "vd"},
    {ParamError::hold, "hold"},
}};
static_assert(names_every(kParamErrorNames, ParamError::hold));

/// The parameter's name as in docs/estimator.md ("ok" for ParamError::ok).
constexpr const char* param_name(ParamError e) noexcept {
  return name_of(kParamErrorNames, e, "unknown").data();
}

/// The estimator's parameters: reference 000's Km, Kw (= sigma2), S0 (= sigma0), S1 (= sigma1),
/// Vth (= vs), Fc_pos/neg, Fs_pos/neg, plus the Stribeck exponent and shape, the damping decay
/// velocity vd and the input hold. Units: torque [Nm], velocity [rad/s], current [A] (or any
/// consistent set, e.g. N and m/s).
template <class S>
struct EstimatorParams {
  S Km{1};                               ///< torque constant [Nm/A], > 0
  typename LuGre<S>::Params friction{};  ///< the LuGre model (models/lugre.hpp)
  Hold hold{Hold::linear};               ///< velocity input between two cycles
};

namespace detail {
template <class S>
bool finite(const S& x) noexcept {
  using std::isfinite;
  return isfinite(x);
}
template <class S>
bool positive(const S& x) noexcept {
  return finite(x) && x > S(0);
}
template <class S>
bool nonnegative(const S& x) noexcept {
  return finite(x) && x >= S(0);
}
template <class S>
constexpr S clamp(const S& x, const S& lo, const S& hi) noexcept {
  return x < lo ? lo : (x > hi ? hi : x);
}
}  // namespace detail

/// The errors of models/validation.hpp's check(LuGre<double>::Params) plus Km > 0 and a known
/// hold, without allocating: what must hold for the step to be safe. (Warnings, such as a
/// non-passive set, are the host builder's business.)
template <class S>
ParamError first_invalid(const EstimatorParams<S>& p) noexcept {
  using detail::nonnegative;
  using detail::positive;
  const auto& f = p.friction;
  const auto& c = f.curve;
  if (!positive(p.Km)) return ParamError::Km;
  if (!positive(f.sigma0)) return ParamError::sigma0;
  if (!nonnegative(f.sigma1)) return ParamError::sigma1;
  if (!nonnegative(f.sigma2)) return ParamError::sigma2;
  if (!positive(c.Fc_pos)) return ParamError::Fc_pos;
  if (!positive(c.Fc_neg)) return ParamError::Fc_neg;
  if (!positive(c.Fs_pos)) return ParamError::Fs_pos;
  if (!positive(c.Fs_neg)) return ParamError::Fs_neg;
  if (!positive(c.vs)) return ParamError::vs;
  if (!positive(c.alpha)) return ParamError::alpha;
  if (c.shape != StribeckShape::exponential && c.shape != StribeckShape::rational)
    return ParamError::shape;
  if (!nonnegative(f.vd)) return ParamError::vd;
  if (p.hold != Hold::zoh && p.hold != Hold::linear) return ParamError::hold;
  // The bound max g / sigma0 must be a usable number in S (not 0 or inf after rounding).
  if (!positive(LuGre<S>::state_bound(f))) return ParamError::sigma0;
  return ParamError::ok;
}

/// The estimator: parameters, the cached state bound, and the state (z, previous velocity).
/// Trivially copyable; no allocation anywhere.
template <class S>
class TorqueEstimator {
 public:
  using Scalar = S;
  using Model = LuGre<S>;
  using Params = EstimatorParams<S>;

  struct State {
    S z{0};       ///< bristle deflection [rad]
    S v_prev{0};  ///< velocity of the previous cycle [rad/s] (the start of the next interval)
  };

  struct Output {
    S friction{0};   ///< F [Nm] at the end of the step
    S torque{0};     ///< Km * i - F [Nm]
    S z{0};          ///< bristle deflection after the step [rad]
    bool ok{false};  ///< false: an input was not finite or dt < 0; state unchanged, outputs 0
  };

  /// The default parameters (Km = 1, models/lugre.hpp's defaults), state zero.
  TorqueEstimator() noexcept : zmax_(Model::state_bound(params_.friction)) {}

  /// Set the parameters and reset the state to zero; on error nothing changes.
  ParamError init(const Params& p) noexcept {
    const ParamError e = first_invalid(p);
    if (e != ParamError::ok) return e;
    params_ = p;
    zmax_ = Model::state_bound(p.friction);
    x_ = State{};
    return ParamError::ok;
  }

  /// Replace the parameters between two cycles. The bristle force sigma0*z is kept continuous
  /// (z is rescaled by sigma0_old/sigma0_new), then z is projected onto the new bound; the
  /// previous velocity is kept. An invalid set is refused and the old one stays in force.
  ParamError set_params(const Params& p) noexcept {
    const ParamError e = first_invalid(p);
    if (e != ParamError::ok) return e;
    const S z = x_.z * (params_.friction.sigma0 / p.friction.sigma0);
    params_ = p;
    zmax_ = Model::state_bound(p.friction);
    x_.z = detail::clamp(z, -zmax_, zmax_);
    return ParamError::ok;
  }

  /// Set the state: z (projected onto the bound) and the velocity the next velocity step starts
  /// from (give the current velocity when starting a run, and call step() with dt = 0 first if
  /// the output at the starting sample is needed).
  void reset(S z = S(0), S v_prev = S(0)) noexcept {
    x_.z = detail::clamp(z, -zmax_, zmax_);
    x_.v_prev = v_prev;
  }

  const Params& params() const noexcept { return params_; }
  const State& state() const noexcept { return x_; }
  /// The invariant bound on |z|: max g / sigma0 [rad].
  S state_bound() const noexcept { return zmax_; }

  /// One cycle with the velocity v [rad/s] measured now, the motor current i [A], the time dt [s]
  /// elapsed since the previous cycle (>= 0; 0 only re-evaluates the output) and an optional
  /// observer correction u [rad/s] added to dz/dt over the step (0: the model alone).
  Output step(S current, S velocity, S dt, S correction = S(0)) noexcept {
    const auto& f = params_.friction;
    const typename Model::State x{x_.z};
    const bool linear = params_.hold == Hold::linear;
    typename Model::State xn = linear ? Model::step_linear(f, x, x_.v_prev, velocity, dt)
                                      : Model::step(f, x, x_.v_prev, dt);
    if (correction != S(0)) {
      // dz/dt = v - a z + u: the exact relaxation of u at the step's rate a, then the projection
      // onto |z| <= zmax (the model alone never leaves it; a correction may push it out).
      const S vm = linear ? (x_.v_prev + velocity) / S(2) : x_.v_prev;
      xn.z += dt * phi1_neg(Model::rate(f, vm) * dt) * correction;
      xn.z = detail::clamp(xn.z, -zmax_, zmax_);
    }
    return finish(current, velocity, dt, detail::finite(velocity) && detail::finite(correction),
                  xn.z);
  }

  /// One cycle with the position increment dx [rad] since the previous cycle, over dt [s] (>= 0),
  /// the current i [A] and the optional correction u [rad/s]: z advances over the distance |dx|
  /// (LuGre::step_displacement), the velocity of the cycle is dx/dt (0 if dt = 0).
  Output step_displacement(S current, S dx, S dt, S correction = S(0)) noexcept {
    const auto& f = params_.friction;
    const S v = dt > S(0) ? dx / dt : S(0);
    typename Model::State xn =
        Model::step_displacement(f, typename Model::State{x_.z}, dx, v, correction * dt);
    if (correction != S(0)) xn.z = detail::clamp(xn.z, -zmax_, zmax_);
    return finish(current, v, dt, detail::finite(dx) && detail::finite(correction), xn.z);
  }

 private:
  /// Accept the new state if every input (and so the result) is finite and dt >= 0, compute the
  /// outputs.
  Output finish(S current, S v, S dt, bool inputs_finite, S zn) noexcept {
    using detail::finite;
    const S F = Model::force(params_.friction, typename Model::State{zn}, v);
    const bool ok = inputs_finite && dt >= S(0) && finite(current) && finite(v) && finite(dt) &&
                    finite(zn) && finite(F);
    if (!ok) return Output{S(0), S(0), x_.z, false};
    x_.z = zn;
    x_.v_prev = v;
    return Output{F, params_.Km * current - F, zn, true};
  }

  Params params_{};
  S zmax_{};
  State x_{};
};

}  // namespace frictionlab::estimator
