// frictionlab: the registry descriptor of the Dahl model (what a descriptor holds: models/fields.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/dahl/model.hpp"
#include "frictionlab/models/dahl/validation.hpp"

namespace frictionlab {

struct DahlInfo {
  using Params = Dahl<double>::Params;
  using Spec = Params;
  static constexpr std::string_view name = "dahl";
  static constexpr FitFacts fit{.fit = true};

  static bool matches(const Spec&) { return true; }
  static Spec spec(const Params& p) { return p; }
  static Params& params(Spec& s) { return s; }
  static const Params& params(const Spec& s) { return s; }
  static Params defaults() { return Params{}; }

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma0", p.sigma0, Unit::stiffness);
    v.number("Fc", p.Fc, Unit::force);
    v.number("n", p.n, Unit::none);
  }

  static std::vector<ParamIssue> check(const Params& p) { return frictionlab::check(p); }
  static const char* write_requirement(const Params&) { return nullptr; }
};

}  // namespace frictionlab
