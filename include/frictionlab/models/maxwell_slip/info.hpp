// frictionlab: the registry descriptor of the Maxwell-slip model (what a descriptor holds: models/fields.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/maxwell_slip/validation.hpp"

namespace frictionlab {

struct MaxwellSlipInfo {
  using Params = MaxwellSlip<double>::Params;
  using Spec = Params;
  static constexpr std::string_view name = "maxwell-slip";
  static constexpr FitFacts fit{.fit = true, .elements = true};

  static bool matches(const Spec&) { return true; }
  static Spec spec(const Params& p) { return p; }
  static Params& params(Spec& s) { return s; }
  static const Params& params(const Spec& s) { return s; }
  static Params defaults() { return Params{}; }

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.elements(p.n, Elements{"k", p.k, Unit::stiffness}, Elements{"Delta", p.Delta, Unit::displacement});
    v.number("sigma2", p.sigma2, Unit::damping);
  }

  static std::vector<ParamIssue> check(const Params& p) { return frictionlab::check(p); }
  static const char* write_requirement(const Params&) { return nullptr; }
};

}  // namespace frictionlab
