// frictionlab: the fit parameterisation of the static models coulomb, viscous, coulomb-viscous and
// stribeck (what a Fit struct holds: models/fit_form.hpp). Levels and sigma2 are plain values
// bounded at 0 (a static model may fit a level of exactly 0); vs and alpha are log-scaled.
#pragma once

#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/stribeck/model.hpp"

namespace frictionlab {

template <StaticKind K>
struct StaticFit : CurveChoice, ReportsInternal {
  static constexpr bool dynamic = false;
  static constexpr FitInit init = FitInit::static_curve;
  static constexpr int starts = 1;
  template <class S, int E>
  using Model = StaticFriction<S>;

  using CurveChoice::CurveChoice;

  static constexpr bool has_sigma2 = K != StaticKind::coulomb;
  static constexpr bool has_fc = K != StaticKind::viscous;
  static constexpr bool has_fs = K == StaticKind::stribeck;

  void declare(FitParamList& b) const {
    if (has_sigma2) b.add("sigma2", Unit::damping, FitScale::nonneg, true);
    if (has_fc) b.curve(asym, has_fs, FitScale::nonneg);
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    typename Model<S, E>::Params p;
    int j = 0;
    p.sigma2 = has_sigma2 ? nat[j++] : S(0);
    if (has_fc) {
      p.curve = read_fit_curve(nat, j, asym, has_fs, shape);
    } else {
      p.curve = StribeckCurve<S>{S(0), S(0), S(0), S(0), S(1), S(2), shape};
    }
    p.v_smooth = S(0);
    return p;
  }
};

}  // namespace frictionlab
