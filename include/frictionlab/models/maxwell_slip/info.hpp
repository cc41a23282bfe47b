// frictionlab: the registry descriptor of the Maxwell-slip model (what a descriptor holds:
// models/fields.hpp).
#pragma once

#include <string_view>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/maxwell_slip/fit.hpp"
#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/maxwell_slip/validation.hpp"

namespace frictionlab {

struct MaxwellSlipInfo : PlainInfo<MaxwellSlip<double>::Params> {
  static constexpr std::string_view name = "maxwell-slip";
  static constexpr FitFacts fit{.fit = true, .elements = true};
  using Fit = MaxwellSlipFit;  ///< the fit parameterisation (fit.hpp)

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.elements(p.n, Elements{"k", p.k, Unit::stiffness},
               Elements{"Delta", p.Delta, Unit::displacement});
    v.number("sigma2", p.sigma2, Unit::damping);
  }
};

}  // namespace frictionlab
