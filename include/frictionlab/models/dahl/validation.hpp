// frictionlab: validation of the Dahl parameters (check(params); rules: docs/models.md,
// "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/dahl/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

inline std::vector<ParamIssue> check(const Dahl<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.positive("sigma0", p.sigma0);
  c.positive("Fc", p.Fc);
  if (c.positive("n", p.n) && p.n > 2)
    c.warn("n", "n = " + format_exact(p.n) + " is outside (0, 2] (Dahl used 0 < n <= 2)");
  return out;
}

}  // namespace frictionlab
