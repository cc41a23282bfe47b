// frictionlab: validation of the elasto-plastic parameters (check(params); rules: docs/models.md,
// "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

inline std::vector<ParamIssue> check(const ElastoPlastic<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  const bool s0 = c.positive("sigma0", p.sigma0);
  c.nonnegative("sigma1", p.sigma1);
  c.nonnegative("sigma2", p.sigma2);
  const bool curve_ok = validation_detail::check_curve(c, p.curve, /*g_divides=*/true);
  if (c.finite("z_ba", p.z_ba) && s0 && curve_ok && !ElastoPlastic<double>::z_ba_valid(p)) {
    const double zmax = ElastoPlastic<double>::gmin(p) / p.sigma0;
    c.error("z_ba", "must satisfy 0 < z_ba < min(Fc, Fs)/sigma0 = " + format_number(zmax) +
                        " m, got " + format_exact(p.z_ba));
  }
  return out;
}

}  // namespace frictionlab
