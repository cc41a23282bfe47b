// frictionlab: the registry descriptor of the modified Stribeck model (what a descriptor holds:
// models/fields.hpp).
#pragma once

#include <string_view>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/modified_stribeck/model.hpp"
#include "frictionlab/models/modified_stribeck/validation.hpp"

namespace frictionlab {

struct ModifiedStribeckInfo : PlainInfo<ModifiedStribeck<double>::Params> {
  static constexpr std::string_view name = "modified-stribeck";

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("k", p.k, Unit::stiffness);
    v.number("sigma2", p.sigma2, Unit::damping);
    v.curve(p.curve);
  }
};

}  // namespace frictionlab
