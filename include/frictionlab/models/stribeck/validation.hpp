// frictionlab: validation of the static friction (coulomb, viscous, coulomb-viscous, stribeck)
// parameters (check(params); rules: docs/models.md, "valid" columns; building blocks:
// models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/param_checks.hpp"
#include "frictionlab/models/stribeck/model.hpp"

namespace frictionlab {

/// Static friction (Coulomb, viscous, Coulomb+viscous, Stribeck).
inline std::vector<ParamIssue> check(const StaticFriction<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  validation_detail::check_curve(c, p.curve, /*g_divides=*/false);
  c.nonnegative("sigma2", p.sigma2);
  c.nonnegative("v_smooth", p.v_smooth);
  return out;
}

}  // namespace frictionlab
