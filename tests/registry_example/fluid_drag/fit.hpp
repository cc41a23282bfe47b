// The fit parameterisation of the worked example (docs/architecture.md, "Adding a model").
#pragma once

#include "fluid_drag/model.hpp"
#include "frictionlab/models/fit_form.hpp"

namespace frictionlab::example {

// Both coefficients are plain values bounded at 0 (a fit may find either to be 0).
struct FluidDragFit : ReportsInternal {                   // reports sigma2, cd as estimated
  static constexpr bool dynamic = false;                  // no state
  static constexpr FitInit init = FitInit::static_curve;  // sigma2 from the static fit
  template <class S, int E>
  using Model = FluidDrag<S>;

  explicit FluidDragFit(const FitStructure& /*s*/) {}

  void declare(FitParamList& b) const {
    b.add("sigma2", Unit::damping, FitScale::nonneg, true);
    b.add("cd", Unit::other, FitScale::nonneg, false);
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    return {nat[0], nat[1]};
  }
};

}  // namespace frictionlab::example
