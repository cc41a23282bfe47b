// frictionlab: validation of the joint LuGre parameters (check(params); rules: docs/models.md,
// "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/joint_lugre/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

/// The joint LuGre model of reference 004 (joint_lugre.hpp): element parameters "cv[i]",
/// "Fs[i]", "delta[i]" with 0-based i; g must stay > 0 at every velocity.
inline std::vector<ParamIssue> check(const JointLuGre<double>::Params& p) {
  using M = JointLuGre<double>;
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  using validation_detail::element;
  c.positive("sigma0", p.sigma0);
  c.nonnegative("sigma1", p.sigma1);
  c.nonnegative("K", p.K);
  c.positive("Omega_s", p.Omega_s);
  bool levels_ok = c.finite("Fc", p.Fc);
  if (p.n_viscous < 0 || p.n_viscous > M::kMaxViscous) {
    c.error("n_viscous", "must be between 0 and " + std::to_string(M::kMaxViscous) + ", got " +
                             std::to_string(p.n_viscous));
  } else {
    for (int i = 0; i < p.n_viscous; ++i)
      c.finite(element("cv", i), p.cv[static_cast<std::size_t>(i)]);
  }
  if (p.n_stribeck < 0 || p.n_stribeck > M::kMaxStribeck) {
    c.error("n_stribeck", "must be between 0 and " + std::to_string(M::kMaxStribeck) + ", got " +
                              std::to_string(p.n_stribeck));
    levels_ok = false;
  } else {
    for (int i = 0; i < p.n_stribeck; ++i) {
      const auto k = static_cast<std::size_t>(i);
      levels_ok = c.finite(element("Fs", i), p.Fs[k]) && levels_ok;
      c.positive(element("delta", i), p.delta[k]);
    }
  }
  if (levels_ok && !(M::g_min(p) > 0))
    c.error("Fc",
            "g(qd) = Fc + sum Fs[i] exp(-|qd/Omega_s|^delta[i]) must stay > 0 at every "
            "velocity: Fc + sum of the negative Fs[i] = " +
                format_exact(M::g_min(p)));
  return out;
}

}  // namespace frictionlab
