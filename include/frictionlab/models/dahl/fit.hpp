// frictionlab: the fit parameterisation of the Dahl model (what a Fit struct holds:
// models/fit_form.hpp): sigma0, Fc and n, all log-scaled. Fc is set by the static initial fit.
#pragma once

#include "frictionlab/models/dahl/model.hpp"
#include "frictionlab/models/dahl/sensitivity.hpp"
#include "frictionlab/models/fit_form.hpp"

namespace frictionlab {

struct DahlFit : ReportsInternal {
  static constexpr bool dynamic = true;
  static constexpr FitInit init = FitInit::bristle;
  static constexpr int starts = 3;
  template <class S, int E>
  using Model = Dahl<S>;
  /// The fit's fast path: closed-form sensitivities (sensitivity.hpp).
  using Sensitivity = DahlSensitivity;

  explicit DahlFit(const FitStructure& /*s*/) {}

  void declare(FitParamList& b) const {
    b.add("sigma0", Unit::stiffness, FitScale::log, false);
    b.add("Fc", Unit::force, FitScale::log, true);
    b.add("n", Unit::none, FitScale::log, false);
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    return typename Model<S, E>::Params{nat[0], nat[1], nat[2]};
  }
};

}  // namespace frictionlab
