// frictionlab: which elasto-plastic parameters a temperature law scales
// (models/temperature_levels.hpp): the Coulomb and Stribeck levels by the level scale, and the
// breakaway displacement z_ba with them (so that it keeps its fraction of the steady deflection
// g/sigma0 and stays below it), sigma2 by the viscous scale; sigma0, sigma1, vs, alpha unchanged.
#pragma once

#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/stribeck/temperature.hpp"

namespace frictionlab {

template <class S>
struct TemperatureLevels<ElastoPlastic<S>> {
  static void scale(typename ElastoPlastic<S>::Params& p, const S& level,
                    const S& viscous) noexcept {
    scale_curve_and_sigma2(p, level, viscous);
    p.z_ba *= level;
  }
};

}  // namespace frictionlab
