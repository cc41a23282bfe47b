// frictionlab: the joint LuGre model (reference 004, joint_lugre/model.hpp) written as the LuGre
// model (lugre/model.hpp) where the two are the same model, so that a joint fit's friction goes
// through the exports of a LuGre fit (io/estimator_export.hpp; docs/joint-identification.md,
// "Shipping a joint fit").
//
// With the exact sign (K = 0), at most one Stribeck term and a viscous series of at most the
// linear power (terms with a zero coefficient do not count), the joint LuGre's equations
// (joint_lugre/model.hpp)
//   tau_f = sigma0 z + sigma1 zdot + cv_1 qd,   zdot = qd - sigma0 |qd| / g(qd) z,
//   g(qd) = Fc + Fs_1 exp(-|qd / Omega_s|^delta_1)
// are the LuGre equations (lugre/model.hpp, stribeck_curve.hpp)
//   F = sigma0 z + sigma1 zdot + sigma2 v,      zdot = v - sigma0 |v| / g(v) z,
//   g(v) = Fc + (Fs - Fc) exp(-(|v| / vs)^alpha)
// term by term with sigma2 = cv_1 (0 without a viscous term), Fs = Fc + Fs_1, vs = Omega_s,
// alpha = delta_1, the exponential shape, symmetric levels and constant damping (vd = 0).
// Without a Stribeck term g is the constant Fc: Fs = Fc, vs = Omega_s and alpha = 1 (the shape
// then has no effect; 1 is the exponent of reference 000's LUGRE group, which can then hold it).
// Anything else has no LuGre equivalent: the tanh sign (model B), several Stribeck terms (a
// curve LuGre's single exponential cannot follow) or powers qd^2, qd^3, ... of the viscous
// series; as_lugre then names what prevents it (JointLuGreAsLuGre::obstacle) rather than
// approximating it.
#pragma once

#include "frictionlab/models/joint_lugre/model.hpp"
#include "frictionlab/models/lugre/model.hpp"

namespace frictionlab {

/// Why a joint LuGre set has no LuGre equivalent (none: it has one).
enum class JointLuGreObstacle {
  none,
  tanh_sign,       ///< K > 0 (the paper's model B): sg = tanh(K qd), LuGre has sgn
  stribeck_terms,  ///< more than one Stribeck term with Fs != 0: g is a sum of exponentials
  viscous_powers,  ///< a non-zero cv of qd^2 or a higher power
};

template <class S>
struct JointLuGreAsLuGre {
  JointLuGreObstacle obstacle = JointLuGreObstacle::none;
  typename LuGre<S>::Params params{};  ///< the equivalent set (when obstacle is none)
};

/// The LuGre set equal to the joint LuGre set `p` (see the header), or the first obstacle in the
/// order tanh sign, Stribeck terms, viscous powers. No allocation, no checks beyond these (p is
/// assumed valid: joint_lugre/validation.hpp).
template <class S>
JointLuGreAsLuGre<S> as_lugre(const typename JointLuGre<S>::Params& p) noexcept {
  JointLuGreAsLuGre<S> out;
  // Terms with a zero coefficient add nothing and are left out.
  int dips = 0, dip = -1;
  for (int i = 0; i < p.n_stribeck; ++i)
    if (p.Fs[static_cast<std::size_t>(i)] != S(0)) {
      ++dips;
      dip = i;
    }
  bool higher_powers = false;
  for (int i = 1; i < p.n_viscous; ++i)
    higher_powers = higher_powers || p.cv[static_cast<std::size_t>(i)] != S(0);
  if (p.K > S(0)) {
    out.obstacle = JointLuGreObstacle::tanh_sign;
  } else if (dips > 1) {
    out.obstacle = JointLuGreObstacle::stribeck_terms;
  } else if (higher_powers) {
    out.obstacle = JointLuGreObstacle::viscous_powers;
  }
  if (out.obstacle != JointLuGreObstacle::none) return out;
  auto& l = out.params;
  l.sigma0 = p.sigma0;
  l.sigma1 = p.sigma1;
  l.sigma2 = p.n_viscous >= 1 ? p.cv[0] : S(0);
  l.vd = S(0);
  const auto d = static_cast<std::size_t>(dip < 0 ? 0 : dip);
  const S Fs = dip >= 0 ? p.Fc + p.Fs[d] : p.Fc;
  l.curve = StribeckCurve<S>::symmetric(p.Fc, Fs, p.Omega_s, dip >= 0 ? p.delta[d] : S(1),
                                        StribeckShape::exponential);
  return out;
}

}  // namespace frictionlab
