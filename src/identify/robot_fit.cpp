// frictionlab identify: a robot arm's base parameters and joint friction by weighted least
// squares (identify/robot_fit.hpp).
#include "frictionlab/identify/robot_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "frictionlab/robot/dynamics.hpp"
#include "robot_base.hpp"

namespace frictionlab::identify {

namespace {

using arm::Base;
using arm::Columns;
using arm::FullRegressor;
using Eigen::MatrixXd;
using Eigen::VectorXd;

/// The rows of an identification problem, sample by sample over one or more records: W_k
/// (n x p) and y_k (n) with y_k = W_k theta + noise, and the measured torque the relative error
/// is taken of (y_k itself, or for currents the torque the estimated gains make of them).
class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual std::size_t size() const = 0;
  virtual Eigen::Index columns() const = 0;
  virtual void at(std::size_t k, MatrixXd& W, VectorXd& y) = 0;
  virtual VectorXd measured(std::size_t /*k*/, const VectorXd& y, const VectorXd& /*theta*/) {
    return y;
  }
};

/// One record with joint torques: the base regressor's rows and the torques.
class BaseRows : public RowSource {
 public:
  BaseRows(FullRegressor& full, const Base& b, const data::ArmSamples& s)
      : full_(full), base_(b), s_(s), n_(s.dof()), q_(n_), qd_(n_), qdd_(n_) {}

  std::size_t size() const override { return s_.size(); }
  Eigen::Index columns() const override {
    return static_cast<Eigen::Index>(base_.independent.size());
  }
  void at(std::size_t k, MatrixXd& Wb, VectorXd& tau) override {
    tau.resize(n_);
    for (int j = 0; j < n_; ++j) tau(j) = s_.effort[static_cast<std::size_t>(j)][k];
    base_rows(k, Wb);
  }

  /// Sample k's full regressor into W_ and its base columns into Wb.
  void base_rows(std::size_t k, MatrixXd& Wb) {
    for (int j = 0; j < n_; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      q_(j) = s_.q[jj][k];
      qd_(j) = s_.qd[jj][k];
      qdd_(j) = s_.qdd[jj][k];
    }
    full_.evaluate(q_.data(), qd_.data(), qdd_.data(), W_);
    arm::base_columns(W_, base_, Wb);
  }
  /// The full regressor of the last base_rows call.
  const MatrixXd& full_rows() const { return W_; }

 private:
  FullRegressor& full_;
  const Base& base_;
  const data::ArmSamples& s_;
  int n_;
  VectorXd q_, qd_, qdd_;
  MatrixXd W_;
};

/// The normal equations with per-joint weights w (1 / sigma_j).
struct Normal {
  MatrixXd A;
  VectorXd b;
};
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
struct Residuals {
  VectorXd ssr, sst;
};
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
struct Solution {
  VectorXd theta, sigma;
  MatrixXd cov;
  Residuals e;
  double condition_number = 0;
};
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
  out.condition_number = s.condition_number;
  out.relative_error_percent = 100 * std::sqrt(s.e.ssr.sum() / s.e.sst.sum());
  for (int j = 0; j < n; ++j) {
    out.rms_error.push_back(std::sqrt(s.e.ssr(j) / static_cast<double>(samples)));
    out.sigma.push_back(s.sigma(j));
  }
  return out;
}

void check_inputs(const robot::RobotModel& m, const data::ArmSamples& s) {
  if (s.dof() != m.dof())
    throw std::invalid_argument("the record has " + std::to_string(s.dof()) +
                                " joints, the robot " + std::to_string(m.dof()));
  if (s.effort_is_current)
    throw std::invalid_argument(
        "the record has motor currents, not joint torques: give the drive gains to convert them");
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

}  // namespace

RobotFitResult fit_robot(const robot::RobotModel& model, const data::ArmSamples& samples,
                         const RobotFitOptions& options) {
  check_inputs(model, samples);
  const Columns cols = arm::columns_of(model, options);
  FullRegressor full(model, cols);
  const Base base = arm::find_base(full, cols, options);
  BaseRows rows(full, base, samples);
  const Solution s = solve(rows, model.dof(), options.weighted);
  RobotFitResult out = result_of(s, base, cols, samples.size(), model.dof());
  flag(out, options);
  return out;
}

RobotPrediction predict_robot(const robot::RobotModel& model, const RobotFitResult& result,
                              const data::ArmSamples& samples, const RobotFitOptions& options) {
  check_inputs(model, samples);
  const int n = model.dof();
  const Columns cols = arm::columns_of(model, options);
  Base base;  // the fit's base columns, found by name; no grouping is needed to predict
  VectorXd beta(static_cast<Eigen::Index>(result.parameters.size()));
  for (std::size_t i = 0; i < result.parameters.size(); ++i) {
    const auto it = std::find(cols.names.begin(), cols.names.end(), result.parameters[i].name);
    if (it == cols.names.end())
      throw std::invalid_argument("the fit's parameter " + result.parameters[i].name +
                                  " is not one of this robot's with these options");
    base.independent.push_back(static_cast<int>(it - cols.names.begin()));
    beta(static_cast<Eigen::Index>(i)) = result.parameters[i].value;
  }
  FullRegressor full(model, cols);
  BaseRows rows(full, base, samples);
  RobotPrediction out;
  out.samples = static_cast<int>(samples.size());
  out.predicted.assign(static_cast<std::size_t>(n), {});
  VectorXd ssr = VectorXd::Zero(n), sst = VectorXd::Zero(n), tau;
  MatrixXd Wb;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    rows.at(k, Wb, tau);
    const VectorXd p = Wb * beta;
    for (int j = 0; j < n; ++j) out.predicted[static_cast<std::size_t>(j)].push_back(p(j));
    ssr += (tau - p).cwiseAbs2();
    sst += tau.cwiseAbs2();
  }
  out.relative_error_percent = 100 * std::sqrt(ssr.sum() / sst.sum());
  for (int j = 0; j < n; ++j)
    out.rms_error.push_back(std::sqrt(ssr(j) / static_cast<double>(samples.size())));
  return out;
}

}  // namespace frictionlab::identify
