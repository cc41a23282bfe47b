// frictionlab: which Maxwell-slip parameters a temperature law scales
// (models/temperature_levels.hpp): each element's slip deflection Delta_i by the level scale, so
// that its slip force k_i Delta_i scales with the levels; sigma2 by the viscous scale; the
// stiffnesses k_i unchanged.
#pragma once

#include <cstddef>

#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/temperature_levels.hpp"

namespace frictionlab {

template <class S, int N>
struct TemperatureLevels<MaxwellSlip<S, N>> {
  static void scale(typename MaxwellSlip<S, N>::Params& p, const S& level,
                    const S& viscous) noexcept {
    for (int i = 0; i < p.n; ++i) p.Delta[static_cast<std::size_t>(i)] *= level;
    p.sigma2 *= viscous;
  }
};

}  // namespace frictionlab
