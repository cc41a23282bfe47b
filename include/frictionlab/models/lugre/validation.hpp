// frictionlab: validation of the LuGre (and its displacement-unit form) parameters (check(params);
// rules: docs/models.md, "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

inline std::vector<ParamIssue> check(const LuGre<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  bool ok = c.positive("sigma0", p.sigma0);
  ok = c.nonnegative("sigma1", p.sigma1) && ok;
  ok = c.nonnegative("sigma2", p.sigma2) && ok;
  ok = validation_detail::check_curve(c, p.curve, /*g_divides=*/true) && ok;
  c.nonnegative("vd", p.vd);
  if (ok)
    validation_detail::check_passivity(c, p.sigma1, p.sigma2, p.curve.Fc_pos, p.curve.Fs_pos,
                                       p.curve.Fc_neg, p.curve.Fs_neg);
  return out;
}

/// The displacement-unit form of LuGre (Fortran library): Fc = sigma0 a1 > 0 needs a1 > 0,
/// Fs = sigma0 (a1 + a2) > 0 needs a1 + a2 > 0; a2 < 0 is the inverted Stribeck effect (warning).
inline std::vector<ParamIssue> check(const LuGreDisplacementForm<double>& d) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  bool ok = c.positive("sigma0", d.sigma0);
  ok = c.nonnegative("sigma1", d.sigma1) && ok;
  ok = c.nonnegative("sigma2", d.sigma2) && ok;
  const bool a1_ok = c.positive("a1", d.a1);
  ok = a1_ok && ok;
  if (c.finite("a2", d.a2) && a1_ok) {
    if (!(d.a1 + d.a2 > 0)) {
      c.error("a2", "a1 + a2 must be > 0 (Fs = sigma0 (a1 + a2)), got a1 + a2 = " +
                        format_exact(d.a1 + d.a2));
      ok = false;
    } else if (d.a2 < 0) {
      c.warn("a2", "a2 = " + format_exact(d.a2) + " < 0: inverted Stribeck effect (Fs < Fc)");
    }
  } else {
    ok = false;
  }
  ok = c.positive("vs", d.vs) && ok;
  const bool alpha_ok = c.positive("alpha", d.alpha);
  if (alpha_ok && (d.alpha < 0.5 || d.alpha > 2))
    c.warn("alpha", "alpha = " + format_exact(d.alpha) + " is outside the usual range [0.5, 2]");
  if (ok && alpha_ok) {
    const double Fc = d.sigma0 * d.a1, Fs = d.sigma0 * (d.a1 + d.a2);
    validation_detail::check_passivity(c, d.sigma1, d.sigma2, Fc, Fs, Fc, Fs);
  }
  return out;
}

}  // namespace frictionlab
