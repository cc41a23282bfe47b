// frictionlab: the registry descriptor of the Dahl model (what a descriptor holds:
// models/fields.hpp).
#pragma once

#include <string_view>

#include "frictionlab/models/dahl/fit.hpp"
#include "frictionlab/models/dahl/model.hpp"
#include "frictionlab/models/dahl/validation.hpp"
#include "frictionlab/models/fields.hpp"

namespace frictionlab {

struct DahlInfo : PlainInfo<Dahl<double>::Params> {
  static constexpr std::string_view name = "dahl";
  static constexpr FitFacts fit{.fit = true};
  using Fit = DahlFit;  ///< the fit parameterisation (fit.hpp)

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma0", p.sigma0, Unit::stiffness);
    v.number("Fc", p.Fc, Unit::force);
    v.number("n", p.n, Unit::none);
  }
};

}  // namespace frictionlab
