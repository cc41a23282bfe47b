// frictionlab identify: a robot arm's base parameters and joint friction by weighted least
// squares (identify/robot_fit.hpp).
#include "frictionlab/identify/robot_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "frictionlab/models/load_dependence.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "robot_base.hpp"
#include "robot_load.hpp"
#include "robot_lsq.hpp"

namespace frictionlab::identify {

namespace {

using arm::Base;
using arm::BaseRows;
using arm::Columns;
using arm::FullRegressor;
using Eigen::MatrixXd;
using Eigen::VectorXd;

void check_inputs(const robot::RobotModel& m, const data::ArmSamples& s) {
  if (s.dof() != m.dof())
    throw std::invalid_argument("the record has " + std::to_string(s.dof()) +
                                " joints, the robot " + std::to_string(m.dof()));
  if (s.effort_is_current)
    throw std::invalid_argument(
        "the record has motor currents, not joint torques: give the drive gains to convert them");
}

}  // namespace

RobotFitResult fit_robot(const robot::RobotModel& model, const data::ArmSamples& samples,
                         const RobotFitOptions& options) {
  check_inputs(model, samples);
  if (options.load) return arm::fit_load_dependent(model, samples, options);
  const Columns cols = arm::columns_of(model, options);
  FullRegressor full(model, cols);
  const Base base = arm::find_base(full, cols, options);
  return arm::solve_base(full, base, cols, samples, options);
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
  const std::vector<double> mu = options.load ? arm::load_coefficients(model, result)
                                              : std::vector<double>(static_cast<std::size_t>(n));
  FullRegressor full(model, cols);
  BaseRows rows(full, base, samples);  // no instrument: the load columns are 0
  RobotPrediction out;
  out.samples = static_cast<int>(samples.size());
  out.predicted.assign(static_cast<std::size_t>(n), {});
  VectorXd ssr = VectorXd::Zero(n), sst = VectorXd::Zero(n), tau;
  MatrixXd Wb;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    rows.at(k, Wb, tau);
    VectorXd p = Wb * beta;
    for (int j = 0; j < n; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      p(j) = applied_torque(LoadDependence<double>{mu[jj], mu[jj]}, p(j), samples.qd[jj][k]);
      out.predicted[jj].push_back(p(j));
    }
    ssr += (tau - p).cwiseAbs2();
    sst += tau.cwiseAbs2();
  }
  out.relative_error_percent = 100 * std::sqrt(ssr.sum() / sst.sum());
  for (int j = 0; j < n; ++j)
    out.rms_error.push_back(std::sqrt(ssr(j) / static_cast<double>(samples.size())));
  return out;
}

}  // namespace frictionlab::identify
