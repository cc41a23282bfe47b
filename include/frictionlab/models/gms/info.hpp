// frictionlab: the registry descriptor of the GMS model (what a descriptor holds:
// models/fields.hpp).
#pragma once

#include <string_view>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/gms/fit.hpp"
#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/gms/validation.hpp"

namespace frictionlab {

struct GmsInfo : PlainInfo<GMS<double>::Params> {
  static constexpr std::string_view name = "gms";
  static constexpr FitFacts fit{.fit = true, .asym = true, .rational = true, .elements = true};
  using Fit = GmsFit;  ///< the fit parameterisation (fit.hpp)

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.elements(p.n, Elements{"k", p.k, Unit::stiffness}, Elements{"nu", p.nu, Unit::none});
    v.number("C", p.C, Unit::force_rate);
    v.number("sigma2", p.sigma2, Unit::damping);
    v.curve(p.curve);
  }
};

}  // namespace frictionlab
