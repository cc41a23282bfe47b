// The registry descriptor of the worked example (docs/architecture.md, "Adding a model").
#pragma once

#include <string_view>

#include "fluid_drag/fit.hpp"
#include "fluid_drag/model.hpp"
#include "fluid_drag/validation.hpp"
#include "frictionlab/models/fields.hpp"

namespace frictionlab::example {

// PlainInfo: Params, Spec, defaults(), check() (found for Params).
struct FluidDragInfo : PlainInfo<FluidDrag<double>::Params> {
  static constexpr std::string_view name = "fluid-drag";
  static constexpr FitFacts fit{.fit = true};  // `fit --model fluid-drag`
  using Fit = FluidDragFit;

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma2", p.sigma2, Unit::damping);
    v.number("cd", p.cd, Unit::other);
  }
};

}  // namespace frictionlab::example
