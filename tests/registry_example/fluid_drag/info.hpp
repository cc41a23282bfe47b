// The registry descriptor of the worked example (docs/architecture.md, "Adding a model").
#pragma once

#include <string_view>
#include <vector>

#include "fluid_drag/model.hpp"
#include "fluid_drag/validation.hpp"
#include "frictionlab/models/fields.hpp"

namespace frictionlab::example {

struct FluidDragInfo {
  using Params = FluidDrag<double>::Params;
  using Spec = Params;
  static constexpr std::string_view name = "fluid-drag";
  static constexpr FitFacts fit{};  // no fit parameterisation: not offered by `fit --model`

  static bool matches(const Spec&) { return true; }
  static Spec spec(const Params& p) { return p; }
  static Params& params(Spec& s) { return s; }
  static const Params& params(const Spec& s) { return s; }
  static Params defaults() { return Params{}; }

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma2", p.sigma2, Unit::damping);
    v.number("cd", p.cd, Unit::other);
  }

  static std::vector<ParamIssue> check(const Params& p) { return example::check(p); }
  static const char* write_requirement(const Params&) { return nullptr; }
};

}  // namespace frictionlab::example
