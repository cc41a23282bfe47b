// frictionlab: which joint-LuGre parameters a temperature law scales
// (models/temperature_levels.hpp): the Coulomb level Fc and the Stribeck terms Fs[i] by the level
// scale, the viscous series cv[i] by the viscous scale; sigma0, sigma1, Omega_s, delta and K
// unchanged.
#pragma once

#include <cstddef>

#include "frictionlab/models/joint_lugre/model.hpp"
#include "frictionlab/models/temperature_levels.hpp"

namespace frictionlab {

template <class S>
struct TemperatureLevels<JointLuGre<S>> {
  static void scale(typename JointLuGre<S>::Params& p, const S& level, const S& viscous) noexcept {
    p.Fc *= level;
    for (int i = 0; i < p.n_stribeck; ++i) p.Fs[static_cast<std::size_t>(i)] *= level;
    for (int i = 0; i < p.n_viscous; ++i) p.cv[static_cast<std::size_t>(i)] *= viscous;
  }
};

}  // namespace frictionlab
