// frictionlab identify (private): the arm fits' least squares (robot_lsq.hpp).
#include "robot_lsq.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace frictionlab::identify::arm {

Normal accumulate(RowSource& rows, const VectorXd& w) {
  const Eigen::Index r = rows.columns();
  Normal ne{MatrixXd::Zero(r, r), VectorXd::Zero(r)};
  MatrixXd W;
  VectorXd y;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows.at(k, W, y);
    const MatrixXd Ww = w.asDiagonal() * W;
    ne.A.selfadjointView<Eigen::Lower>().rankUpdate(Ww.transpose());
    ne.b += Ww.transpose() * w.asDiagonal() * y;
  }
  ne.A = ne.A.selfadjointView<Eigen::Lower>();
  return ne;
}

/// Per joint, the sum of squared residuals of theta and of the measured torques.
Residuals residuals(RowSource& rows, const VectorXd& theta, int n) {
  Residuals r{VectorXd::Zero(n), VectorXd::Zero(n)};
  MatrixXd W;
  VectorXd y;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows.at(k, W, y);
    r.ssr += (y - W * theta).cwiseAbs2();
    r.sst += rows.measured(k, y, theta).cwiseAbs2();
  }
  return r;
}

/// Steps 2 and 3: ordinary least squares, each joint's residual scatter, weighted least squares
/// and the covariance of its estimates; the figures of step 4 that need no names.
Solution solve(RowSource& rows, int n, bool weighted) {
  const Eigen::Index r = rows.columns();
  const auto N = static_cast<double>(rows.size());
  Solution s;
  const Normal ols = accumulate(rows, VectorXd::Ones(n));
  const Residuals e0 = residuals(rows, ols.A.ldlt().solve(ols.b), n);
  s.sigma = (e0.ssr / (N - static_cast<double>(r) / n)).cwiseSqrt();
  const VectorXd w = weighted ? VectorXd(s.sigma.cwiseInverse()) : VectorXd::Ones(n);
  const Normal wls = weighted ? accumulate(rows, w) : ols;
  const auto ldlt = wls.A.ldlt();
  s.theta = ldlt.solve(wls.b);
  s.e = residuals(rows, s.theta, n);
  const double s2 = s.e.ssr.cwiseProduct(w.cwiseAbs2()).sum() / (N * n - static_cast<double>(r));
  s.cov = s2 * ldlt.solve(MatrixXd::Identity(r, r));
  const VectorXd ev =
      Eigen::SelfAdjointEigenSolver<MatrixXd>(ols.A, Eigen::EigenvaluesOnly).eigenvalues();
  s.condition_number = ev.minCoeff() > 0 ? std::sqrt(ev.maxCoeff() / ev.minCoeff())
                                         : std::numeric_limits<double>::infinity();
  return s;
}

RobotParameter parameter(std::string name, std::string unit, double value, double variance) {
  RobotParameter p;
  p.name = std::move(name);
  p.expression = p.name;
  p.terms = {{p.name, 1.0}};
  p.unit = std::move(unit);
  p.value = value;
  p.std_error = std::sqrt(std::max(0.0, variance));
  p.relative_std_error_percent =
      value == 0 ? std::numeric_limits<double>::infinity() : 100 * p.std_error / std::abs(value);
  return p;
}

/// Step 4: the result from a solution whose first parameters are the base's.
RobotFitResult result_of(const Solution& s, const Base& base, const Columns& cols,
                         std::size_t samples, int n) {
  RobotFitResult out;
  out.samples = static_cast<int>(samples);
  out.standard_parameters = cols.size();
  out.rank = static_cast<int>(base.independent.size());
  for (std::size_t i = 0; i < base.independent.size(); ++i) {
    const auto c = static_cast<std::size_t>(base.independent[i]);
    const auto ii = static_cast<Eigen::Index>(i);
    RobotParameter p = parameter(cols.names[c], cols.units[c], s.theta(ii), s.cov(ii, ii));
    p.terms = arm::grouping(base, cols, i);
    p.expression = arm::expression(p.terms);
    out.parameters.push_back(p);
  }
  const auto r = static_cast<Eigen::Index>(base.independent.size());
  for (Eigen::Index i = 0; i < r; ++i) {
    out.covariance.emplace_back(static_cast<std::size_t>(r));
    for (Eigen::Index k = 0; k < r; ++k)
      out.covariance.back()[static_cast<std::size_t>(k)] = s.cov(i, k);
  }
  out.condition_number = s.condition_number;
  out.relative_error_percent = 100 * std::sqrt(s.e.ssr.sum() / s.e.sst.sum());
  for (int j = 0; j < n; ++j) {
    out.rms_error.push_back(std::sqrt(s.e.ssr(j) / static_cast<double>(samples)));
    out.sigma.push_back(s.sigma(j));
  }
  return out;
}

/// Step 4's flags: the poorly determined parameters and a badly conditioned record.
void flag(RobotFitResult& r, const RobotFitOptions& o) {
  std::string poor;
  int count = 0;
  for (auto& p : r.parameters) {
    p.poorly_determined = !(p.relative_std_error_percent <= o.flag_relative_error_percent);
    if (!p.poorly_determined) continue;
    if (count++ < 8) poor += (poor.empty() ? "" : ", ") + p.name;
  }
  if (count > 8) poor += " and " + std::to_string(count - 8) + " more";
  if (count > 0)
    r.flags.push_back(std::to_string(count) + " of " + std::to_string(r.parameters.size()) +
                      " base parameters have a relative standard error above " +
                      std::to_string(static_cast<int>(o.flag_relative_error_percent)) +
                      " %: " + poor + " (the record hardly excites them)");
  if (r.condition_number > 1e4)
    r.flags.push_back("the base regressor's condition number is " +
                      std::to_string(static_cast<long>(r.condition_number)) +
                      ": the record excites some base parameters far less than others");
}

RobotFitResult solve_base(FullRegressor& full, const Base& base, const Columns& cols,
                          const data::ArmSamples& samples, const RobotFitOptions& options,
                          const std::vector<std::vector<double>>* load) {
  BaseRows rows(full, base, samples, load);
  const Solution s = solve(rows, samples.dof(), options.weighted);
  RobotFitResult out = result_of(s, base, cols, samples.size(), samples.dof());
  flag(out, options);
  return out;
}

}  // namespace frictionlab::identify::arm
