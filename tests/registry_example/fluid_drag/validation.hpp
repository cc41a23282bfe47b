// Validation of the worked example's parameters (docs/architecture.md, "Adding a model").
#pragma once

#include <vector>

#include "fluid_drag/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab::example {

inline std::vector<ParamIssue> check(const FluidDrag<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.nonnegative("sigma2", p.sigma2);
  c.nonnegative("cd", p.cd);
  return out;
}

}  // namespace frictionlab::example
