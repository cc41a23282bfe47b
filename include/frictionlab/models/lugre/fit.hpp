// frictionlab: the fit parameterisation of the LuGre model (what a Fit struct holds:
// models/fit_form.hpp). sigma2 and sigma1 are plain values bounded at 0; the curve levels, vs,
// alpha and sigma0 are log-scaled (strictly positive). vd is not estimated (0).
#pragma once

#include <array>
#include <string_view>

#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/models/lugre/sensitivity.hpp"

namespace frictionlab {

struct LuGreFit : CurveChoice, ReportsInternal {
  static constexpr bool dynamic = true;
  static constexpr FitInit init = FitInit::bristle;
  static constexpr int starts = 1;
  /// F = sigma0 z + sigma1 zdot + sigma2 v with dz/dt free of sigma1 and sigma2 (model.hpp).
  static constexpr std::array<std::string_view, 2> force_affine{"sigma1", "sigma2"};
  template <class S, int E>
  using Model = LuGre<S>;
  /// The fit's fast path: closed-form sensitivities (sensitivity.hpp).
  using Sensitivity = LuGreSensitivity;

  using CurveChoice::CurveChoice;

  void declare(FitParamList& b) const {
    b.add("sigma2", Unit::damping, FitScale::nonneg, true);
    b.curve(asym, true, FitScale::log);
    b.add("sigma0", Unit::stiffness, FitScale::log, false);
    b.add("sigma1", Unit::damping, FitScale::nonneg, false);
  }
  /// Reads what declare() declared into any Params with LuGre's fields; advances j.
  template <class P, class S>
  void read(P& p, const S* nat, int& j) const {
    p.sigma2 = nat[j++];
    p.curve = read_fit_curve(nat, j, asym, true, shape);
    p.sigma0 = nat[j++];
    p.sigma1 = nat[j++];
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    typename Model<S, E>::Params p;
    int j = 0;
    read(p, nat, j);
    p.vd = S(0);
    return p;
  }
};

}  // namespace frictionlab
