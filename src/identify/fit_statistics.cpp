// frictionlab identify: a fit's result at its optimum: values, metrics, standard errors and
// reliability (fit_statistics.hpp; docs/identification.md, "Results").
#include "fit_statistics.hpp"

#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
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
/// isolated spike (a dropped sample, a sensor glitch). Its square pulls a least-squares fit, and
/// the white-noise standard errors do not account for it: said, with the remedy. A fit with a
/// robust loss bounds their pull already: not flagged.
void flag_outliers(Reliability& rel, const std::vector<double>& res, LossKind loss) {
  constexpr double kOutlierScale = 10;
  if (loss != LossKind::none || res.size() < 20) return;
  const auto median_of = [](std::vector<double> v) {
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  };
  const double med = median_of(res);
  std::vector<double> dev(res.size());
  for (std::size_t k = 0; k < res.size(); ++k) dev[k] = std::abs(res[k] - med);
  const double scale = 1.4826 * median_of(dev);
  if (!(scale > 0)) return;
  std::size_t count = 0;
  double largest = 0;
  for (double a : dev)
    if (a > kOutlierScale * scale) {
      ++count;
      largest = std::max(largest, a);
    }
  if (count == 0) return;
  rel.outliers = static_cast<long>(count);
  rel.standard_errors = false;
  rel.reasons.push_back(std::to_string(count) + " of " + std::to_string(res.size()) +
                        " residuals are outliers (beyond " + format_number(kOutlierScale) +
                        " robust standard deviations of " + format_number(scale) +
                        ", the largest " + format_number(largest / scale) +
                        "): a spike pulls a least-squares fit and "
                        "its standard errors do not account for it; a robust loss bounds its pull "
                        "(--loss huber; Python loss='huber')");
}

/// The signature of the other input hold in the residuals (docs/identification.md, "Input
/// hold"). With delta_k = pred_other_k - pred_k the change of the fitted model's prediction when
/// its input is taken the other way between samples (held instead of linear, or the reverse), a
/// record made the other way has residuals r_k ~ delta_k - J dtheta: the part of delta that the
/// parameters cannot absorb, delta_perp = (I - J (J^T J)^-1 J^T) delta (the residuals are
/// orthogonal to the columns of J at the optimum). So the slope beta = r.delta_perp /
/// |delta_perp|^2 is near 1 and the share of the residuals' sum of squares it explains, R2 =
/// (r.delta_perp)^2 / (|r|^2 |delta_perp|^2), is large; for a record made the fitted way beta
/// is near 0 (noise, R2 ~ 1/N). Said when kOtherHoldSlope[0] <= beta <= kOtherHoldSlope[1] and
/// R2 >= kOtherHoldShare. A model without a state has delta = 0, a robust loss other residuals:
/// nothing to say. JtJ_inv: (J^T J)^-1 of the free internal parameters.
void flag_other_hold(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const Eigen::Ref<const RowMatrix>& J,
                     const std::vector<double>& res, const Eigen::MatrixXd& JtJ_inv,
                     LossKind loss) {
  constexpr double kOtherHoldSlope[2] = {0.5, 2.0};
  constexpr double kOtherHoldShare = 0.25;
  if (loss != LossKind::none) return;
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
  if (!(dd > 0) || !(rr > 0) || !std::isfinite(rd)) return;
  const double beta = rd / dd, r2 = rd * rd / (rr * dd);
  if (!(beta >= kOtherHoldSlope[0] && beta <= kOtherHoldSlope[1] && r2 >= kOtherHoldShare)) return;
  auto& rel = r.reliability;
  rel.standard_errors = false;
  rel.reasons.push_back(
      std::string("the residuals follow the change of the prediction with the input ") +
      (other == Hold::zoh ? "held between samples" : "linear between samples") + " (slope " +
      format_fixed(beta, 2) + ", " + format_fixed(100 * r2, 0) +
      " % of the residuals' sum of squares): " +
      (other == Hold::zoh
           ? "the record's velocity was likely held between samples (a digital controller's or "
             "DAC's output); fit with --hold zoh (Python hold='zoh')"
           : "the record's velocity likely changes smoothly between samples; fit with --hold "
             "linear (Python hold='linear')"));
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

void fill_statistics(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const std::vector<int>& free,
                     const Robust& loss, const std::vector<int>& at_limit, int threads,
                     Linearisation* known, const AtOptimum& at_values) {
  threads = resolve_threads(threads);
  const auto p = static_cast<long>(free.size());
  const long m = d.m();
  // Residuals and Jacobian (w.r.t. the free internal parameters) at the optimum: the solver's
  // own last evaluation when it was made there (the same cost, bit for bit the same x).
  std::vector<double> x(static_cast<std::size_t>(p));
  for (long j = 0; j < p; ++j)
    x[static_cast<std::size_t>(j)] =
        theta[static_cast<std::size_t>(free[static_cast<std::size_t>(j)])];
  std::vector<double> res, jac;
  Eigen::MatrixXd normal;  // J^T J when the solver's evaluation computed it
  bool evaluated = true;
  if (p == 0) {
    evaluated = false;
  } else if (known != nullptr && known->x == x &&
             known->residuals.size() == static_cast<std::size_t>(m) &&
             known->jacobian.size() == static_cast<std::size_t>(m * p)) {
    res = std::move(known->residuals);  // taken, not copied (a long record's Jacobian is large)
    jac = std::move(known->jacobian);
    normal = std::move(known->normal);
    known->x.clear();
  } else {
    const auto cost = fam.make_cost(d, theta, free, loss, threads);
    res.resize(static_cast<std::size_t>(m));
    jac.resize(static_cast<std::size_t>(m * p));
    const double* params[1] = {x.data()};
    double* jacs[1] = {jac.data()};
    evaluated = cost->Evaluate(params, res.data(), jacs);
  }
  // Without a robust loss the residuals are y - prediction: the training metrics need no
  // simulation of their own.
  fill_values_only(r, fam, d, theta, free,
                   evaluated && loss.kind == LossKind::none ? &res : nullptr);
  if (at_values) {
    // The prediction from the residuals (y - prediction) where they are those of every sample.
    std::vector<double> prediction;
    if (evaluated && loss.kind == LossKind::none && d.first == 0) {
      prediction.resize(static_cast<std::size_t>(m));
      for (std::size_t k = 0; k < prediction.size(); ++k) prediction[k] = d.y[k] - res[k];
    }
    at_values(r, prediction);
  }
  auto& rel = r.reliability;
  const auto unreliable = [&](const std::string& why) {
    rel.standard_errors = false;
    rel.reasons.push_back(why);
  };
  if (!r.converged && !r.starts.empty()) unreliable("the solver stopped without convergence");
  for (std::size_t q = 0; q < fam.user_info().size(); ++q) {
    const int ii = fam.user_info()[q].internal;
    for (int j : at_limit) {
      if (ii != j) continue;
      auto& e = r.parameters[q];
      e.at_limit = true;
      unreliable("parameter " + e.name + " ended at the edge of its search region (" +
                 (fam.info()[static_cast<std::size_t>(j)].tf == FitScale::log
                      ? "a factor 1e6 from its start"
                      : "a logit or weight of +-30") +
                 "): the record does not determine it");
    }
  }
  if (p == 0) return;
  if (!evaluated) {
    r.warnings.push_back("the Jacobian at the optimum is not finite: no standard errors");
    unreliable("the Jacobian at the optimum is not finite");
    return;
  }
  rel.whiteness = residual_whiteness(res);
  flag_outliers(rel, res, loss.kind);
  const Eigen::Map<const RowMatrix> J(jac.data(), m, p);
  double ssr = 0;
  for (double e : res) ssr += e * e;
  const long dof = m - p;
  if (dof <= 0) {
    r.warnings.push_back("no degrees of freedom left (N <= p): no standard errors");
    return;
  }
  // J^T J as the solver's evaluation computed it, or straight from the row-major Jacobian (no
  // column-major or scaled copy of J).
  if (normal.rows() != p || normal.cols() != p) normal = normal_matrix(J, threads);
  const LinearCovariance lc = linear_covariance_normal(normal, ssr, m);
  const double s2 = lc.s2;
  r.sigma = std::sqrt(s2);
  r.condition_number = lc.condition_number;
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
                         format_number(r.condition_number) + "): no standard errors");
    unreliable("the information matrix J^T J is singular: some parameters are not determined");
    return;
  }
  if (r.condition_number > 1e10)
    r.warnings.push_back("J^T J is ill-conditioned (condition number " +
                         format_number(r.condition_number) +
                         "): parameters strongly correlated, standard errors large");
  if (r.condition_number > 1e8)
    unreliable("the information matrix J^T J is nearly singular (condition number " +
               format_number(r.condition_number) + " > 1e8): the linearised intervals do not hold");
  const Eigen::MatrixXd& cov_theta = lc.cov;
  // Delta method: Cov_user = G Cov_theta G^T, G = d user / d theta_free.
  const auto q = static_cast<long>(fam.user_info().size());
  std::vector<double> Gv(static_cast<std::size_t>(q * p));
  fam.user_jacobian(theta.data(), free, Gv.data());
  const Eigen::Map<const RowMatrix> G(Gv.data(), q, p);
  const Eigen::MatrixXd cov = G * cov_theta * G.transpose();
  const double tq = student_t_quantile(0.975, static_cast<double>(dof));
  rel.hac_lags = static_cast<int>(hac_bandwidth(rel.whiteness.acf1, m));
  const Eigen::MatrixXd cov_hac =
      G * hac_covariance(J, res, cov_theta / s2, rel.hac_lags, threads) * G.transpose();
  for (long a = 0; a < q; ++a) {
    auto& e = r.parameters[static_cast<std::size_t>(a)];
    if (e.fixed) continue;
    const int ii = fam.user_info()[static_cast<std::size_t>(a)].internal;
    if (ii >= 0 && fam.info()[static_cast<std::size_t>(ii)].tf == FitScale::nonneg &&
        theta[static_cast<std::size_t>(ii)] <= 0) {
      e.at_bound = true;
      e.std_error = kNaN;
      e.ci_low = e.ci_high = kNaN;
      continue;
    }
    e.std_error = std::sqrt(std::max(cov(a, a), 0.0));
    e.ci_low = e.value - tq * e.std_error;
    e.ci_high = e.value + tq * e.std_error;
    e.hac_std_error = std::sqrt(std::max(cov_hac(a, a), 0.0));
    e.hac_ci_low = e.value - tq * e.hac_std_error;
    e.hac_ci_high = e.value + tq * e.hac_std_error;
    if (e.std_error > 0) {
      const double ratio = e.hac_std_error / e.std_error;
      if (!(ratio <= rel.hac_ratio_max)) rel.hac_ratio_max = ratio;
    }
  }
  flag_coloured_residuals(rel);
  flag_other_hold(r, fam, d, theta, J, res, cov_theta / s2, loss.kind);
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

}  // namespace frictionlab::identify::detail
