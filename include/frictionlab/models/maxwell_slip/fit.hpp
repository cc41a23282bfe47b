// frictionlab: the fit parameterisation of the Maxwell-slip model (what a Fit struct holds:
// models/fit_form.hpp): sigma2 (plain, bounded at 0), the stiffnesses k_i (log) and the
// increments d_i (log) of the slip deflections, Delta_0 = d_0, Delta_i = Delta_{i-1} + d_i, so that
// the elements stay ordered (no permutation symmetry). Reported: sigma2, k_i, Delta_i.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/maxwell_slip/sensitivity.hpp"

namespace frictionlab {

struct MaxwellSlipFit {
  static constexpr bool dynamic = true;
  static constexpr FitInit init = FitInit::maxwell_ladder;
  static constexpr int starts = 3;
  template <class S, int E>
  using Model = MaxwellSlip<S, E>;
  /// The fast path's sensitivities, for the fitting instantiation's element arrays.
  using Sensitivity = MaxwellSlipSensitivity<kMaxFitElements>;

  int n = 1;
  explicit MaxwellSlipFit(const FitStructure& s) : n(s.elements) {}

  void declare(FitParamList& b) const {
    b.add("sigma2", Unit::damping, FitScale::nonneg, false);
    for (int i = 0; i < n; ++i)
      b.add("k[" + std::to_string(i) + "]", Unit::stiffness, FitScale::log, false);
    for (int i = 0; i < n; ++i)
      b.add("dDelta[" + std::to_string(i) + "]", Unit::displacement, FitScale::log, false);
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    typename Model<S, E>::Params p;
    p.n = n;
    p.sigma2 = nat[0];
    S acc(0);
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      p.k[ui] = nat[1 + i];
      acc += nat[1 + n + i];
      p.Delta[ui] = acc;
    }
    return p;
  }
  /// n elements contain n - 1: the extra element with a negligible stiffness (1e-9 of the
  /// smallest) carries no force.
  std::optional<FitStructure> nested() const {
    if (n <= 1) return std::nullopt;
    return FitStructure{.elements = n - 1};
  }
  void embed(const std::vector<FitParam>& nested, const std::vector<double>& nested_nat,
             const std::vector<FitParam>& own, std::vector<double>& nat) const {
    embed_by_field(nested, nested_nat, own, nat);
    double kmin = nat[1];
    const auto un = static_cast<std::size_t>(n);
    for (std::size_t i = 1; i + 1 < un; ++i) kmin = std::min(kmin, nat[1 + i]);
    nat[un] = 1e-9 * kmin;          // k[n-1]
    nat[2 * un] = nat[2 * un - 1];  // dDelta[n-1]
  }
  /// Delta_0 equals d_0; the other Delta_i are sums.
  void report(const std::vector<FitParam>& /*internal*/, std::vector<ReportedParam>& out) const {
    out.push_back({"sigma2", Unit::damping, 0});
    for (int i = 0; i < n; ++i)
      out.push_back({"k[" + std::to_string(i) + "]", Unit::stiffness, 1 + i});
    for (int i = 0; i < n; ++i)
      out.push_back({"Delta[" + std::to_string(i) + "]", Unit::displacement, i == 0 ? 1 + n : -1});
  }
  template <class S>
  void reported(const S* nat, S* out, int /*count*/) const {
    out[0] = nat[0];
    S acc(0);
    for (int i = 0; i < n; ++i) {
      out[1 + i] = nat[1 + i];
      acc += nat[1 + n + i];
      out[1 + n + i] = acc;
    }
  }
};

}  // namespace frictionlab
