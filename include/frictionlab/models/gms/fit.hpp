// frictionlab: the fit parameterisation of the generalized Maxwell-slip model (what a Fit struct
// holds: models/fit_form.hpp): sigma2 (plain, bounded at 0), the curve (log), the stiffnesses k_i
// (log), softmax weights w_0..w_{n-2} of nu (w_{n-1} = 0, so that sum nu_i = 1 for every w) and
// C (log). Reported: sigma2, the curve, k_i, nu_i, C.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/gms/sensitivity.hpp"

namespace frictionlab {

struct GmsFit : CurveChoice {
  static constexpr bool dynamic = true;
  static constexpr FitInit init = FitInit::gms_ladder;
  static constexpr int starts = 3;
  template <class S, int E>
  using Model = GMS<S, E>;
  using Sensitivity = GmsSensitivity<kMaxFitElements>;

  int n = 1;
  explicit GmsFit(const FitStructure& s) : CurveChoice(s), n(s.elements) {}

  int curve_size() const { return asym ? 6 : 4; }

  /// Per-side contains symmetric (CurveChoice); n elements contain n - 1: the extra element
  /// with weight nu = 1e-6 (the others scaled by 1 - 1e-6) changes the force by ~1e-6 Fs.
  std::optional<FitStructure> nested() const {
    if (asym) return CurveChoice::nested().value();
    if (n <= 1) return std::nullopt;
    return FitStructure{.asymmetric = false, .shape = shape, .elements = n - 1};
  }
  void embed(const std::vector<FitParam>& nested, const std::vector<double>& nested_nat,
             const std::vector<FitParam>& own, std::vector<double>& nat) const {
    embed_by_field(nested, nested_nat, own, nat);
    if (own.size() == nested.size()) return;  // per side from symmetric: by field
    // Softmax weights relative to the last element: nested w_i = ln(nu_i / nu_{n-2}); here
    // w_i = ln(nu_i / nu_{n-1}) with nu_{n-1} = eps.
    const int head = 1 + curve_size();
    const int m = n - 1;  // nested elements
    const auto at = [](int i) { return static_cast<std::size_t>(i); };
    double sum = 1;  // exp(0) of the nested last element
    for (int i = 0; i + 1 < m; ++i) sum += std::exp(nested_nat[at(head + m + i)]);
    constexpr double eps = 1e-6;
    const double L = std::log((1 - eps) / (eps * sum));  // ln(nu_{m-1} (1 - eps) / eps)
    for (int i = 0; i + 1 < m; ++i) nat[at(head + n + i)] = nested_nat[at(head + m + i)] + L;
    nat[at(head + n + m - 1)] = L;              // w[n-2]: the nested last element
    nat[at(head + m)] = nat[at(head + m - 1)];  // k[n-1]
    nat.back() = nested_nat.back();             // C
  }

  void declare(FitParamList& b) const {
    b.add("sigma2", Unit::damping, FitScale::nonneg, true);
    b.curve(asym, true, FitScale::log);
    for (int i = 0; i < n; ++i)
      b.add("k[" + std::to_string(i) + "]", Unit::stiffness, FitScale::log, false);
    for (int i = 0; i + 1 < n; ++i)
      b.add("w[" + std::to_string(i) + "]", Unit::none, FitScale::free, false);
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
    for (int i = 0; i < n; ++i)
      out.push_back({"k[" + std::to_string(i) + "]", Unit::stiffness, head + i});
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
