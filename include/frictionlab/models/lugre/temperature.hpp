// frictionlab: which LuGre parameters a temperature law scales (models/temperature_levels.hpp):
// the Coulomb and Stribeck levels of g(v) by the level scale, sigma2 by the viscous scale;
// sigma0, sigma1, vs, alpha and vd unchanged (Park et al., Sensors 2022, fit the levels).
#pragma once

#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/models/stribeck/temperature.hpp"

namespace frictionlab {

template <class S>
struct TemperatureLevels<LuGre<S>> {
  static void scale(typename LuGre<S>::Params& p, const S& level, const S& viscous) noexcept {
    scale_curve_and_sigma2(p, level, viscous);
  }
};

}  // namespace frictionlab
