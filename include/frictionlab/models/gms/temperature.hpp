// frictionlab: which GMS parameters a temperature law scales (models/temperature_levels.hpp):
// the Coulomb and Stribeck levels of the curve the elements share (their weights nu_i split it)
// by the level scale, sigma2 by the viscous scale; the stiffnesses k_i, the weights, the
// attraction C, vs and alpha unchanged.
#pragma once

#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/stribeck/temperature.hpp"

namespace frictionlab {

template <class S, int N>
struct TemperatureLevels<GMS<S, N>> {
  static void scale(typename GMS<S, N>::Params& p, const S& level, const S& viscous) noexcept {
    scale_curve_and_sigma2(p, level, viscous);
  }
};

}  // namespace frictionlab
