// frictionlab: the static (memoryless) friction models coulomb, viscous, coulomb-viscous and
// stribeck: F(v) = sgn(v) * g(v) + sigma2 * v with the Stribeck curve g of stribeck_curve.hpp.
// Units: forces in N (Nm), velocities in m/s (rad/s), sigma2 in N s/m (Nm s/rad). Equations
// and sources: docs/models.md, section "Static models".
#pragma once

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

/// Static (memoryless) friction: F = sgn(v) * g(v) + sigma2 * v, with an optional smoothed sign
/// (tanh or atan, common.hpp smooth_sgn). Coulomb is Fs = Fc; viscous-only is Fc = Fs = 0;
/// Coulomb+viscous is Fs = Fc. Which special case of StaticFriction a static model names (coulomb:
/// Fs = Fc, sigma2 = 0; viscous: Fc = Fs = 0; coulomb-viscous: Fs = Fc; stribeck: the whole curve).
enum class StaticKind { coulomb, viscous, coulomb_viscous, stribeck };

template <class S>
struct StaticFriction {
  using Scalar = S;
  struct Params {
    using Model = StaticFriction;  ///< the model these parameters belong to
    StribeckCurve<S> curve{};
    S sigma2{0};    ///< viscous coefficient [N s/m], >= 0
    S v_smooth{0};  ///< velocity scale of the smoothed sign [m/s]; 0 = exact sign
    SignSmoothing smoothing{SignSmoothing::tanh};  ///< tanh or (2/pi) atan (common.hpp)
  };
  struct State {};
  static constexpr int kNumStates = 0;

  static S steady_force(const Params& p, const S& v) noexcept {
    return smooth_sgn(v, p.v_smooth, p.smoothing) * stribeck_g(p.curve, v) + p.sigma2 * v;
  }
  static S force(const Params& p, const State& /*x*/, const S& v) noexcept {
    return steady_force(p, v);
  }
  static State derivative(const Params& /*p*/, const State& x, const S& /*v*/) noexcept {
    return x;
  }
  static State step(const Params& /*p*/, const State& x, const S& /*v*/, const S& /*h*/) noexcept {
    return x;
  }
};

}  // namespace frictionlab
