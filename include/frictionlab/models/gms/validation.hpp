// frictionlab: validation of the GMS parameters (check(params); rules: docs/models.md,
// "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

/// GMS: the weights must sum to 1 within 1e-6 (docs/models.md).
template <int N>
std::vector<ParamIssue> check_gms(const typename GMS<double, N>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  if (validation_detail::check_count(c, p.n, N)) {
    bool nu_ok = true;
    double sum = 0;
    for (int i = 0; i < p.n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      c.positive(validation_detail::element("k", i), p.k[k]);
      nu_ok = c.positive(validation_detail::element("nu", i), p.nu[k]) && nu_ok;
      sum += p.nu[k];
    }
    if (nu_ok && std::abs(sum - 1) > 1e-6)
      c.error("nu", "the weights must sum to 1 (within 1e-6), got sum = " + format_exact(sum) +
                        " (the steady state would not be the Stribeck curve)");
  }
  c.positive("C", p.C);
  c.nonnegative("sigma2", p.sigma2);
  validation_detail::check_curve(c, p.curve, /*g_divides=*/true);
  return out;
}

inline std::vector<ParamIssue> check(const GMS<double>::Params& p) {
  return check_gms<GMS<double>::kMaxElements>(p);
}

}  // namespace frictionlab
