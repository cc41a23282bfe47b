// frictionlab: the fit parameterisation of the generalized Maxwell-slip model (what a Fit struct
// holds: models/fit_form.hpp): sigma2 (plain, bounded at 0), the curve (log), the stiffnesses k_i
// (log), softmax weights w_0..w_{n-2} of nu (w_{n-1} = 0, so that sum nu_i = 1 for every w) and
// C (log). Reported: sigma2, the curve, k_i, nu_i, C.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/gms/model.hpp"

namespace frictionlab {

struct GmsFit : CurveChoice {
  static constexpr bool dynamic = true;
  static constexpr FitInit init = FitInit::gms_ladder;
  template <class S, int E>
  using Model = GMS<S, E>;

  int n = 1;
  explicit GmsFit(const FitStructure& s) : CurveChoice(s), n(s.elements) {}

  int curve_size() const { return asym ? 6 : 4; }

  void declare(FitParamList& b) const {
    b.add("sigma2", Unit::damping, FitScale::nonneg, true);
    b.curve(asym, true, FitScale::log);
    for (int i = 0; i < n; ++i)
      b.add("k[" + std::to_string(i) + "]", Unit::stiffness, FitScale::log, false);
    for (int i = 0; i + 1 < n; ++i) b.add("w[" + std::to_string(i) + "]", Unit::none, FitScale::free, false);
    b.add("C", Unit::force_rate, FitScale::log, false);
  }
  template <class S, int E>
  typename Model<S, E>::Params params(const S* nat) const {
    using std::exp;
    typename Model<S, E>::Params p;
    p.n = n;
    int j = 0;
    p.sigma2 = nat[j++];
    p.curve = read_fit_curve(nat, j, asym, true, shape);
    for (int i = 0; i < n; ++i) p.k[static_cast<std::size_t>(i)] = nat[j++];
    // Softmax with the largest weight subtracted (no overflow).
    S wmax(0);
    for (int i = 0; i + 1 < n; ++i)
      if (nat[j + i] > wmax) wmax = nat[j + i];
    S sum(0);
    for (int i = 0; i < n; ++i) {
      const S w = i + 1 < n ? nat[j + i] : S(0);
      p.nu[static_cast<std::size_t>(i)] = exp(w - wmax);
      sum += p.nu[static_cast<std::size_t>(i)];
    }
    for (int i = 0; i < n; ++i) p.nu[static_cast<std::size_t>(i)] /= sum;
    j += n - 1;
    p.C = nat[j++];
    return p;
  }
  /// sigma2 and the curve as themselves, k_i, the weights nu_i (combinations), C.
  void report(const std::vector<FitParam>& internal, std::vector<ReportedParam>& out) const {
    const int head = 1 + curve_size();
    for (int i = 0; i < head; ++i) {
      const auto& pi = internal[static_cast<std::size_t>(i)];
      out.push_back({pi.field, pi.unit, i});
    }
    for (int i = 0; i < n; ++i) out.push_back({"k[" + std::to_string(i) + "]", Unit::stiffness, head + i});
    for (int i = 0; i < n; ++i) out.push_back({"nu[" + std::to_string(i) + "]", Unit::none, -1});
    out.push_back({"C", Unit::force_rate, static_cast<int>(internal.size()) - 1});
  }
  template <class S>
  void reported(const S* nat, S* out, int /*count*/) const {
    const auto p = params<S, kMaxFitElements>(nat);
    int j = 0;
    const int head = 1 + curve_size();
    for (; j < head; ++j) out[j] = nat[j];
    for (int i = 0; i < n; ++i) out[j++] = p.k[static_cast<std::size_t>(i)];
    for (int i = 0; i < n; ++i) out[j++] = p.nu[static_cast<std::size_t>(i)];
    out[j++] = p.C;
  }
};

}  // namespace frictionlab
