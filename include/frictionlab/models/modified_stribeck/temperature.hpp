// frictionlab: which modified-Stribeck parameters a temperature law scales
// (models/temperature_levels.hpp): the Coulomb and Stribeck levels by the level scale, sigma2 by
// the viscous scale; the element stiffness k, vs and alpha unchanged.
#pragma once

#include "frictionlab/models/modified_stribeck/model.hpp"
#include "frictionlab/models/stribeck/temperature.hpp"

namespace frictionlab {

template <class S>
struct TemperatureLevels<ModifiedStribeck<S>> {
  static void scale(typename ModifiedStribeck<S>::Params& p, const S& level,
                    const S& viscous) noexcept {
    scale_curve_and_sigma2(p, level, viscous);
  }
};

}  // namespace frictionlab
