// frictionlab: validation of the modified Stribeck parameters (check(params); rules:
// docs/models.md, "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/modified_stribeck/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

inline std::vector<ParamIssue> check(const ModifiedStribeck<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.positive("k", p.k);
  c.nonnegative("sigma2", p.sigma2);
  validation_detail::check_curve(c, p.curve, /*g_divides=*/true);
  return out;
}

}  // namespace frictionlab
