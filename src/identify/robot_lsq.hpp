// frictionlab identify (private): the least squares of the arm fits (robot_fit.cpp, the drive
// gains of robot_gains.cpp): problems given row by row (RowSource), their normal equations,
// ordinary then per-joint weighted least squares, and the result's parameters and flags.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "robot_base.hpp"

namespace frictionlab::identify::arm {

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

/// One record with joint torques: the base regressor's rows and the torques. The load columns
/// take `load` (per joint, per sample: the instrument tau_hat [N m]; nullptr: 0).
class BaseRows : public RowSource {
 public:
  BaseRows(FullRegressor& full, const Base& b, const data::ArmSamples& s,
           const std::vector<std::vector<double>>* load = nullptr)
      : full_(full),
        base_(b),
        s_(s),
        load_(load),
        n_(s.dof()),
        q_(n_),
        qd_(n_),
        qdd_(n_),
        tau_(n_) {}

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
      if (load_ != nullptr) tau_(j) = (*load_)[jj][k];
    }
    full_.evaluate(q_.data(), qd_.data(), qdd_.data(), W_,
                   load_ != nullptr ? tau_.data() : nullptr);
    arm::base_columns(W_, base_, Wb);
  }
  /// The full regressor of the last base_rows call.
  const MatrixXd& full_rows() const { return W_; }

 private:
  FullRegressor& full_;
  const Base& base_;
  const data::ArmSamples& s_;
  const std::vector<std::vector<double>>* load_;
  int n_;
  VectorXd q_, qd_, qdd_, tau_;
  MatrixXd W_;
};

/// The normal equations with per-joint weights w (1 / sigma_j).
struct Normal {
  MatrixXd A;
  VectorXd b;
};
Normal accumulate(RowSource& rows, const VectorXd& w);

/// Per joint, the sum of squared residuals of theta and of the measured torques.
struct Residuals {
  VectorXd ssr, sst;
};
Residuals residuals(RowSource& rows, const VectorXd& theta, int n);

/// Steps 2 and 3 of fit_robot: ordinary least squares, each joint's residual scatter, weighted
/// least squares and the covariance of its estimates; the figures of step 4 that need no names.
struct Solution {
  VectorXd theta, sigma;
  MatrixXd cov;
  Residuals e;
  double condition_number = 0;
};
Solution solve(RowSource& rows, int n, bool weighted);

/// A parameter with its standard error sqrt(variance) and relative standard error.
RobotParameter parameter(std::string name, std::string unit, double value, double variance);

/// The result from a solution whose first parameters are the base's.
RobotFitResult result_of(const Solution& s, const Base& base, const Columns& cols,
                         std::size_t samples, int n);

/// The flags: the poorly determined parameters and a badly conditioned record.
void flag(RobotFitResult& r, const RobotFitOptions& o);

/// Steps 2-4 of fit_robot on `samples` with the base `base` of `cols` (the load columns from
/// `load`, per joint per sample [N m]; nullptr: 0).
RobotFitResult solve_base(FullRegressor& full, const Base& base, const Columns& cols,
                          const data::ArmSamples& samples, const RobotFitOptions& options,
                          const std::vector<std::vector<double>>* load = nullptr);

}  // namespace frictionlab::identify::arm
