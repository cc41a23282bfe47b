// frictionlab: which parameters of the static models (coulomb, viscous, coulomb-viscous,
// stribeck) a temperature law scales (models/temperature_levels.hpp): the Coulomb and Stribeck
// levels on both sides by the level scale, sigma2 by the viscous scale; vs and alpha unchanged.
#pragma once

#include "frictionlab/models/stribeck/model.hpp"
#include "frictionlab/models/temperature_levels.hpp"

namespace frictionlab {

/// The levels Fc and Fs of a Stribeck curve, both sides, scaled by `level`.
template <class S>
void scale_curve_levels(StribeckCurve<S>& c, const S& level) noexcept {
  c.Fc_pos *= level;
  c.Fc_neg *= level;
  c.Fs_pos *= level;
  c.Fs_neg *= level;
}

/// The rule of every model whose Params hold a Stribeck curve `curve` and a viscous coefficient
/// sigma2 (the static models, LuGre, elasto-plastic, modified Stribeck, GMS): the curve's
/// levels by `level`, sigma2 by `viscous`.
template <class P, class S>
void scale_curve_and_sigma2(P& p, const S& level, const S& viscous) noexcept {
  scale_curve_levels(p.curve, level);
  p.sigma2 *= viscous;
}

template <class S>
struct TemperatureLevels<StaticFriction<S>> {
  static void scale(typename StaticFriction<S>::Params& p, const S& level,
                    const S& viscous) noexcept {
    scale_curve_and_sigma2(p, level, viscous);
  }
};

}  // namespace frictionlab
