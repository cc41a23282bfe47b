// frictionlab: the registry descriptor of the elasto-plastic model (what a descriptor holds:
// models/fields.hpp).
#pragma once

#include <string_view>

#include "frictionlab/models/elastoplastic/fit.hpp"
#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/elastoplastic/validation.hpp"
#include "frictionlab/models/fields.hpp"

namespace frictionlab {

struct ElastoPlasticInfo : PlainInfo<ElastoPlastic<double>::Params> {
  static constexpr std::string_view name = "elasto-plastic";
  static constexpr FitFacts fit{.fit = true, .asym = true, .rational = true, .list_asym = true};
  using Fit = ElastoPlasticFit;  ///< the fit parameterisation (fit.hpp)

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma0", p.sigma0, Unit::stiffness);
    v.number("sigma1", p.sigma1, Unit::damping);
    v.number("sigma2", p.sigma2, Unit::damping);
    v.curve(p.curve);
    v.number("z_ba", p.z_ba, Unit::displacement);
  }
};

}  // namespace frictionlab
