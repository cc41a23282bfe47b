// frictionlab: validation of the Maxwell slip parameters (check(params); rules: docs/models.md,
// "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

template <int N>
std::vector<ParamIssue> check_maxwell_slip(const typename MaxwellSlip<double, N>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  if (validation_detail::check_count(c, p.n, N)) {
    for (int i = 0; i < p.n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      c.positive(validation_detail::element("k", i), p.k[k]);
      c.positive(validation_detail::element("Delta", i), p.Delta[k]);
    }
  }
  c.nonnegative("sigma2", p.sigma2);
  return out;
}

inline std::vector<ParamIssue> check(const MaxwellSlip<double>::Params& p) {
  return check_maxwell_slip<MaxwellSlip<double>::kMaxElements>(p);
}

}  // namespace frictionlab
