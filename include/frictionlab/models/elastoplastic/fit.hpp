// frictionlab: the fit parameterisation of the elasto-plastic model (what a Fit struct holds:
// models/fit_form.hpp): LuGre's parameters, and the breakaway displacement through a logit,
// z_ba = (min g / sigma0) * logistic(q), so that the validity condition 0 < z_ba < min g / sigma0
// holds for every q.
#pragma once

#include <cmath>
#include <vector>

#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/fit_form.hpp"

namespace frictionlab {

struct ElastoPlasticFit {
  static constexpr bool dynamic = true;
  static constexpr FitInit init = FitInit::bristle;
  template <class S, int E>
  using Model = ElastoPlastic<S>;

  bool asym = false;
  StribeckShape shape = StribeckShape::exponential;
  explicit ElastoPlasticFit(const FitStructure& s) : asym(s.asymmetric), shape(s.shape) {}

  void declare(FitParamList& b) const {
    b.add("sigma2", Unit::damping, FitScale::nonneg, true);
    b.curve(asym, true, FitScale::log);
    b.add("sigma0", Unit::stiffness, FitScale::log, false);
    b.add("sigma1", Unit::damping, FitScale::nonneg, false);
    b.add("z_ba_logit", Unit::none, FitScale::free, false);
  }
  template <class S>
  static S logistic(const S& q) {
    using std::exp;
    return S(1) / (S(1) + exp(-q));
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    typename Model<S, E>::Params p;
    int j = 0;
    p.sigma2 = nat[j++];
    p.curve = read_fit_curve(nat, j, asym, true, shape);
    p.sigma0 = nat[j++];
    p.sigma1 = nat[j++];
    p.z_ba = S(0);
    p.z_ba = Model<S, E>::gmin(p) / p.sigma0 * logistic(nat[j++]);
    return p;
  }
  /// The internal parameters, with z_ba in place of its logit.
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
