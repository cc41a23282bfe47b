// frictionlab: which Dahl parameters a temperature law scales (models/temperature_levels.hpp):
// the Coulomb level Fc by the level scale; sigma0 and n unchanged (the model has no viscous term).
#pragma once

#include "frictionlab/models/dahl/model.hpp"
#include "frictionlab/models/temperature_levels.hpp"

namespace frictionlab {

template <class S>
struct TemperatureLevels<Dahl<S>> {
  static void scale(typename Dahl<S>::Params& p, const S& level, const S& /*viscous*/) noexcept {
    p.Fc *= level;
  }
};

}  // namespace frictionlab
