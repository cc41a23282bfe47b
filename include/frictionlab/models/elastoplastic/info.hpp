// frictionlab: the registry descriptor of the elasto-plastic model (what a descriptor holds: models/fields.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/elastoplastic/validation.hpp"

namespace frictionlab {

struct ElastoPlasticInfo {
  using Params = ElastoPlastic<double>::Params;
  using Spec = Params;
  static constexpr std::string_view name = "elasto-plastic";
  static constexpr FitFacts fit{.fit = true, .asym = true, .rational = true, .list_asym = true};

  static bool matches(const Spec&) { return true; }
  static Spec spec(const Params& p) { return p; }
  static Params& params(Spec& s) { return s; }
  static const Params& params(const Spec& s) { return s; }
  static Params defaults() { return Params{}; }

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma0", p.sigma0, Unit::stiffness);
    v.number("sigma1", p.sigma1, Unit::damping);
    v.number("sigma2", p.sigma2, Unit::damping);
    v.curve(p.curve);
    v.number("z_ba", p.z_ba, Unit::displacement);
  }

  static std::vector<ParamIssue> check(const Params& p) { return frictionlab::check(p); }
  static const char* write_requirement(const Params&) { return nullptr; }
};

}  // namespace frictionlab
