// frictionlab: the registry descriptor of the GMS model (what a descriptor holds: models/fields.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/gms/validation.hpp"

namespace frictionlab {

struct GmsInfo {
  using Params = GMS<double>::Params;
  using Spec = Params;
  static constexpr std::string_view name = "gms";
  static constexpr FitFacts fit{.fit = true, .asym = true, .rational = true, .elements = true};

  static bool matches(const Spec&) { return true; }
  static Spec spec(const Params& p) { return p; }
  static Params& params(Spec& s) { return s; }
  static const Params& params(const Spec& s) { return s; }
  static Params defaults() { return Params{}; }

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.elements(p.n, Elements{"k", p.k, Unit::stiffness}, Elements{"nu", p.nu, Unit::none});
    v.number("C", p.C, Unit::force_rate);
    v.number("sigma2", p.sigma2, Unit::damping);
    v.curve(p.curve);
  }

  static std::vector<ParamIssue> check(const Params& p) { return frictionlab::check(p); }
  static const char* write_requirement(const Params&) { return nullptr; }
};

}  // namespace frictionlab
