// frictionlab: the fit parameterisation of the elasto-plastic model (what a Fit struct holds:
// models/fit_form.hpp): LuGre's parameters (lugre/fit.hpp), and the breakaway displacement through
// a logit, z_ba = (min g / sigma0) * logistic(q), so that the validity condition
// 0 < z_ba < min g / sigma0 holds for every q. Reported: z_ba in place of q.
#pragma once

#include <cmath>
#include <vector>

#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/elastoplastic/sensitivity.hpp"
#include "frictionlab/models/lugre/fit.hpp"

namespace frictionlab {

struct ElastoPlasticFit : LuGreFit {
  template <class S, int E>
  using Model = ElastoPlastic<S>;
  /// The fit's fast path: closed-form sensitivities (sensitivity.hpp), in place of LuGre's.
  using Sensitivity = ElastoPlasticSensitivity;

  using LuGreFit::LuGreFit;
  static constexpr int starts = 3;

  void declare(FitParamList& b) const {
    LuGreFit::declare(b);
    b.add("z_ba_logit", Unit::none, FitScale::free, false);
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    using std::exp;
    typename Model<S, E>::Params p;
    int j = 0;
    read(p, nat, j);
    p.z_ba = S(0);
    p.z_ba = Model<S, E>::gmin(p) / p.sigma0 * (S(1) / (S(1) + exp(-nat[j])));
    return p;
  }
  void report(const std::vector<FitParam>& internal, std::vector<ReportedParam>& out) const {
    for (std::size_t i = 0; i + 1 < internal.size(); ++i)
      out.push_back({internal[i].field, internal[i].unit, static_cast<int>(i)});
    out.push_back({"z_ba", Unit::displacement, -1});
  }
  template <class S>
  void reported(const S* nat, S* out, int n) const {
    for (int i = 0; i < n - 1; ++i) out[i] = nat[i];
    out[n - 1] = params<S, 1>(nat).z_ba;
  }
};

}  // namespace frictionlab
