// frictionlab identify: a fit's result at its optimum: values, metrics, standard errors and
// reliability (fit_statistics.hpp; docs/identification.md, "Results").
#include "fit_statistics.hpp"

#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/stats.hpp"
#include "frictionlab/models/validation.hpp"
#include "parallel.hpp"
#include "statistics.hpp"

namespace frictionlab::identify::detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Residuals farther than kOutlierScale robust standard deviations (1.4826 MAD, the normal
/// distribution's consistent scale) from their median: under Gaussian noise one in 1e23, so an
/// isolated spike (a dropped sample, a sensor glitch). A fit with a robust loss bounds their pull
/// already: none looked for.
std::optional<Outliers> find_outliers(const std::vector<double>& res, LossKind loss) {
  constexpr double kOutlierScale = 10;
  if (loss != LossKind::none || res.size() < 20) return std::nullopt;
  const auto median_of = [](std::vector<double> v) {
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  };
  const double med = median_of(res);
  std::vector<double> dev(res.size());
  for (std::size_t k = 0; k < res.size(); ++k) dev[k] = std::abs(res[k] - med);
  const double scale = 1.4826 * median_of(dev);
  if (!(scale > 0)) return std::nullopt;
  std::size_t count = 0;
  double largest = 0;
  for (double a : dev)
    if (a > kOutlierScale * scale) {
      ++count;
      largest = std::max(largest, a);
    }
  if (count == 0) return std::nullopt;
  return Outliers{static_cast<long>(count), static_cast<long>(res.size()), kOutlierScale, scale,
                  largest / scale};
}

/// The signature of the other input hold in the residuals (docs/identification.md, "Input
/// hold"). With delta_k = pred_other_k - pred_k the change of the fitted model's prediction when
/// its input is taken the other way between samples (held instead of linear, or the reverse), a
/// record made the other way has residuals r_k ~ delta_k - J dtheta: the part of delta that the
/// parameters cannot absorb, delta_perp = (I - J (J^T J)^-1 J^T) delta (the residuals are
/// orthogonal to the columns of J at the optimum). So the slope beta = r.delta_perp /
/// |delta_perp|^2 is near 1 and the share of the residuals' sum of squares it explains, R2 =
/// (r.delta_perp)^2 / (|r|^2 |delta_perp|^2), is large; for a record made the fitted way beta
/// is near 0 (noise, R2 ~ 1/N). Found when kOtherHoldSlope[0] <= beta <= kOtherHoldSlope[1] and
/// R2 >= kOtherHoldShare. A model without a state has delta = 0, a robust loss other residuals:
/// nothing to find. JtJ_inv: (J^T J)^-1 of the free internal parameters.
std::optional<OtherHold> other_hold_signature(const Family& fam, const FitData& d,
                                              const std::vector<double>& theta,
                                              const Eigen::Ref<const RowMatrix>& J,
                                              const std::vector<double>& res,
                                              const Eigen::MatrixXd& JtJ_inv, LossKind loss) {
  constexpr double kOtherHoldSlope[2] = {0.5, 2.0};
  constexpr double kOtherHoldShare = 0.25;
  if (loss != LossKind::none) return std::nullopt;
  const Hold other = d.hold == Hold::zoh ? Hold::linear : Hold::zoh;
  std::vector<double> pred_other(static_cast<std::size_t>(d.n()));
  fam.predict(theta.data(), d, Method::exact, other, pred_other.data());
  const long m = d.m();
  const Eigen::Map<const Eigen::VectorXd> rv(res.data(), m);
  Eigen::VectorXd delta(m);
  for (long i = 0; i < m; ++i) {
    const auto k = static_cast<std::size_t>(d.first + i);
    delta(i) = pred_other[k] - (d.y[k] - rv(i));  // the prediction is y - r
  }
  const Eigen::VectorXd perp = delta - J * (JtJ_inv * (J.transpose() * delta));
  const double rd = rv.dot(perp), dd = perp.squaredNorm(), rr = rv.squaredNorm();
  if (!(dd > 0) || !(rr > 0) || !std::isfinite(rd)) return std::nullopt;
  const double beta = rd / dd, r2 = rd * rd / (rr * dd);
  if (!(beta >= kOtherHoldSlope[0] && beta <= kOtherHoldSlope[1] && r2 >= kOtherHoldShare))
    return std::nullopt;
  return OtherHold{other, beta, r2};
}

void fill_common(FitResult& r, const Family& fam, const FitData& d,
                 const std::vector<double>& theta, const std::vector<double>* residuals) {
  r.params = fam.fitted(theta.data());
  if (fam.sensorless()) r.Km = std::exp(theta[0]);
  if (residuals != nullptr) {
    r.training = metrics_of_residuals(d.y, *residuals, d.first);
  } else {
    std::vector<double> pred(static_cast<std::size_t>(d.n()));
    fam.predict(theta.data(), d, r.scheme, r.hold, pred.data());
    r.training = compute_metrics(d.y, pred, d.first);
  }
  if (const auto* lp = std::get_if<LuGre<double>::Params>(&r.params)) {
    r.passive = LuGre<double>::is_passive(*lp);
    if (!*r.passive) {
      std::vector<ParamIssue> issues;
      validation_detail::Checker c(issues);
      validation_detail::check_passivity(c, lp->sigma1, lp->sigma2, lp->curve.Fc_pos,
                                         lp->curve.Fs_pos, lp->curve.Fc_neg, lp->curve.Fs_neg);
      for (const auto& is : issues) {
        r.passivity_message += (r.passivity_message.empty() ? "" : "; ") + is.message;
      }
    }
  }
}

}  // namespace

void fill_values_only(FitResult& r, const Family& fam, const FitData& d,
                      const std::vector<double>& theta, const std::vector<int>& estimated,
                      const std::vector<double>* residuals) {
  fill_common(r, fam, d, theta, residuals);
  const auto& ui = fam.user_info();
  std::vector<double> u(ui.size());
  fam.user_values(theta.data(), u.data());
  std::vector<double> G(ui.size() * std::max<std::size_t>(estimated.size(), 1));
  fam.user_jacobian(theta.data(), estimated, G.data());
  r.parameters.clear();
  for (std::size_t q = 0; q < ui.size(); ++q) {
    ParameterEstimate e;
    e.name = ui[q].name;
    e.field = ui[q].field;
    e.unit = ui[q].unit;
    e.value = u[q];
    bool depends = false;
    for (std::size_t j = 0; j < estimated.size(); ++j)
      depends = depends || G[q * estimated.size() + j] != 0;
    e.fixed = !depends;
    e.std_error = e.fixed ? 0 : kNaN;
    e.ci_low = e.fixed ? e.value : kNaN;
    e.ci_high = e.fixed ? e.value : kNaN;
    r.parameters.push_back(e);
  }
  r.num_estimated = static_cast<int>(estimated.size());
  r.correlation.assign(ui.size(), std::vector<double>(ui.size(), kNaN));
  for (std::size_t q = 0; q < ui.size(); ++q) r.correlation[q][q] = 1;
  r.condition_number = kNaN;
  const long m = r.training.n;
  r.sigma = m > r.num_estimated
                ? std::sqrt(r.training.ssr / static_cast<double>(m - r.num_estimated))
                : kNaN;
  r.aicc = aicc(r.training.ssr, m, r.num_estimated);
  r.bic = bic(r.training.ssr, m, r.num_estimated);
}

namespace {

/// The residuals and the row-major Jacobian (w.r.t. the free internal parameters) at the optimum.
struct Evaluation {
  std::vector<double> res, jac;
  Eigen::MatrixXd normal;  ///< J^T J when the solver's evaluation computed it, else empty
  bool ok = false;         ///< evaluated and finite
};

/// The solver's own last evaluation when it was made at the optimum (the same cost, bit for bit
/// the same x; its arrays taken, not copied: a long record's Jacobian is large), else a new
/// evaluation of the cost there. None without free parameters.
Evaluation evaluate_at_optimum(const Family& fam, const FitData& d,
                               const std::vector<double>& theta, const std::vector<int>& free,
                               const Robust& loss, int threads, Linearisation* known) {
  Evaluation ev;
  const auto p = static_cast<long>(free.size());
  const long m = d.m();
  if (p == 0) return ev;
  std::vector<double> x(static_cast<std::size_t>(p));
  for (long j = 0; j < p; ++j)
    x[static_cast<std::size_t>(j)] =
        theta[static_cast<std::size_t>(free[static_cast<std::size_t>(j)])];
  if (known != nullptr && known->x == x && known->residuals.size() == static_cast<std::size_t>(m) &&
      known->jacobian.size() == static_cast<std::size_t>(m * p)) {
    ev.res = std::move(known->residuals);
    ev.jac = std::move(known->jacobian);
    ev.normal = std::move(known->normal);
    known->x.clear();
    ev.ok = true;
    return ev;
  }
  const auto cost = fam.make_cost(d, theta, free, loss, threads);
  ev.res.resize(static_cast<std::size_t>(m));
  ev.jac.resize(static_cast<std::size_t>(m * p));
  const double* params[1] = {x.data()};
  double* jacs[1] = {ev.jac.data()};
  ev.ok = cost->Evaluate(params, ev.res.data(), jacs);
  return ev;
}

/// The values and training metrics (fill_values_only), then `at_values` with the prediction.
/// Without a robust loss the residuals are y - prediction: the metrics need no simulation of
/// their own, and where they are those of every sample they give the prediction.
void fill_values(FitResult& r, const Family& fam, const FitData& d,
                 const std::vector<double>& theta, const std::vector<int>& free, LossKind loss,
                 const Evaluation& ev, const AtOptimum& at_values) {
  const bool plain = ev.ok && loss == LossKind::none;
  fill_values_only(r, fam, d, theta, free, plain ? &ev.res : nullptr);
  if (!at_values) return;
  std::vector<double> prediction;
  if (plain && d.first == 0) {
    prediction.resize(static_cast<std::size_t>(d.m()));
    for (std::size_t k = 0; k < prediction.size(); ++k) prediction[k] = d.y[k] - ev.res[k];
  }
  at_values(r, prediction);
}

/// The reported parameters equal to an internal one that ended on its search box (`at_limit`:
/// theta indices): marked, and found.
void mark_at_limit(FitResult& r, const Family& fam, const std::vector<int>& at_limit, Findings& f) {
  for (std::size_t q = 0; q < fam.user_info().size(); ++q) {
    const int ii = fam.user_info()[q].internal;
    for (int j : at_limit) {
      if (ii != j) continue;
      auto& e = r.parameters[q];
      e.at_limit = true;
      f.at_limit.push_back({e.name, fam.info()[static_cast<std::size_t>(j)].tf});
    }
  }
}

/// The warnings on J^T J: parameters with no effect on the prediction (its zero columns), J^T J
/// singular, or ill-conditioned (condition number > 1e10).
void warn_conditioning(FitResult& r, const Family& fam, const std::vector<int>& free,
                       const LinearCovariance& lc) {
  std::vector<std::string> dead;
  for (long j : lc.dead)
    dead.push_back(fam.info()[static_cast<std::size_t>(free[static_cast<std::size_t>(j)])].name);
  if (!dead.empty()) {
    r.warnings.push_back(
        "parameters with no effect on the prediction (not identifiable from this record): " +
        join_list(dead));
  }
  if (lc.singular) {
    r.warnings.push_back("J^T J is singular at the optimum (condition number " +
                         format_number(lc.condition_number) + "): no standard errors");
    return;
  }
  if (lc.condition_number > 1e10)
    r.warnings.push_back("J^T J is ill-conditioned (condition number " +
                         format_number(lc.condition_number) +
                         "): parameters strongly correlated, standard errors large");
}

/// Correlations of the reported parameters from their covariance (0 with a fixed one).
void fill_correlation(FitResult& r, const Eigen::MatrixXd& cov) {
  const auto q = static_cast<long>(r.parameters.size());
  for (long a = 0; a < q; ++a) {
    for (long b = 0; b < q; ++b) {
      auto& c = r.correlation[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      const auto& ea = r.parameters[static_cast<std::size_t>(a)];
      const auto& eb = r.parameters[static_cast<std::size_t>(b)];
      if (a == b) {
        c = 1;
      } else if (ea.fixed || eb.fixed) {
        c = 0;
      } else {
        const double den = std::sqrt(cov(a, a) * cov(b, b));
        c = den > 0 ? cov(a, b) / den : kNaN;
      }
    }
  }
}

/// Standard errors, white-noise and Newey-West 95 % intervals and correlations of the reported
/// parameters by the delta method: Cov_user = G Cov_theta G^T, G = d user / d theta_free. A
/// non-negative parameter on its bound 0 gets none.
void fill_intervals(FitResult& r, const Family& fam, const std::vector<double>& theta,
                    const std::vector<int>& free, const Eigen::Ref<const RowMatrix>& J,
                    const std::vector<double>& res, const LinearCovariance& lc, long dof,
                    int threads) {
  const auto p = static_cast<long>(free.size());
  const auto q = static_cast<long>(fam.user_info().size());
  std::vector<double> Gv(static_cast<std::size_t>(q * p));
  fam.user_jacobian(theta.data(), free, Gv.data());
  const Eigen::Map<const RowMatrix> G(Gv.data(), q, p);
  const Eigen::MatrixXd cov = G * lc.cov * G.transpose();
  const double tq = student_t_quantile(0.975, static_cast<double>(dof));
  auto& rel = r.reliability;
  rel.hac_lags = static_cast<int>(hac_bandwidth(rel.whiteness.acf1, J.rows()));
  const Eigen::MatrixXd cov_hac =
      G * hac_covariance(J, res, lc.cov / lc.s2, rel.hac_lags, threads) * G.transpose();
  for (long a = 0; a < q; ++a) {
    auto& e = r.parameters[static_cast<std::size_t>(a)];
    if (e.fixed) continue;
    const int ii = fam.user_info()[static_cast<std::size_t>(a)].internal;
    if (ii >= 0 && fam.info()[static_cast<std::size_t>(ii)].tf == FitScale::nonneg &&
        theta[static_cast<std::size_t>(ii)] <= 0) {
      set_at_bound(e);
      continue;
    }
    set_intervals(e, std::sqrt(std::max(cov(a, a), 0.0)), tq, rel,
                  std::sqrt(std::max(cov_hac(a, a), 0.0)));
  }
  fill_correlation(r, cov);
}

/// What needs the Jacobian at the optimum: the residuals' whiteness and outliers, sigma, the
/// condition number, the intervals and correlations, the other hold's signature. What it finds
/// goes to f (assess), its warnings to r.
void fill_uncertainty(FitResult& r, Findings& f, const Family& fam, const FitData& d,
                      const std::vector<double>& theta, const std::vector<int>& free, LossKind loss,
                      Evaluation& ev, int threads) {
  if (!ev.ok) {
    r.warnings.push_back("the Jacobian at the optimum is not finite: no standard errors");
    f.jacobian_failure = "is not finite";
    return;
  }
  r.reliability.whiteness = residual_whiteness(ev.res);
  f.outliers = find_outliers(ev.res, loss);
  const auto p = static_cast<long>(free.size());
  const long m = d.m(), dof = m - p;
  if (dof <= 0) {
    r.warnings.push_back("no degrees of freedom left (N <= p): no standard errors");
    return;
  }
  const Eigen::Map<const RowMatrix> J(ev.jac.data(), m, p);
  double ssr = 0;
  for (double e : ev.res) ssr += e * e;
  // J^T J as the solver's evaluation computed it, or straight from the row-major Jacobian (no
  // column-major or scaled copy of J).
  if (ev.normal.rows() != p || ev.normal.cols() != p) ev.normal = normal_matrix(J, threads);
  const LinearCovariance lc = linear_covariance_normal(ev.normal, ssr, m);
  r.sigma = std::sqrt(lc.s2);
  r.condition_number = lc.condition_number;
  f.information.condition_number = lc.condition_number;
  f.information.singular = lc.singular;
  warn_conditioning(r, fam, free, lc);
  if (lc.singular) return;
  fill_intervals(r, fam, theta, free, J, ev.res, lc, dof, threads);
  f.coloured = "";
  f.other_hold = other_hold_signature(fam, d, theta, J, ev.res, lc.cov / lc.s2, loss);
}

}  // namespace

void fill_statistics(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const std::vector<int>& free,
                     const Robust& loss, const std::vector<int>& at_limit, int threads,
                     Linearisation* known, const AtOptimum& at_values) {
  threads = resolve_threads(threads);
  Evaluation ev = evaluate_at_optimum(fam, d, theta, free, loss, threads, known);
  fill_values(r, fam, d, theta, free, loss.kind, ev, at_values);
  Findings f;
  f.converged = r.converged || r.starts.empty();
  mark_at_limit(r, fam, at_limit, f);
  if (!free.empty()) fill_uncertainty(r, f, fam, d, theta, free, loss.kind, ev, threads);
  assess(f, r.reliability);
}

}  // namespace frictionlab::identify::detail
