// frictionlab identify: a robot arm's base parameters and joint friction by weighted least
// squares (identify/robot_fit.hpp).
#include "frictionlab/identify/robot_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/load_rule.hpp"
#include "frictionlab/models/load_dependence.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "robot_base.hpp"
#include "robot_lsq.hpp"

namespace frictionlab::identify {

namespace {

using arm::Base;
using arm::BaseRows;
using arm::Columns;
using arm::FullRegressor;
using arm::Solution;
using Eigen::MatrixXd;
using Eigen::VectorXd;
/// Per joint, per sample [N m].
using Series = std::vector<std::vector<double>>;

/// The instrumental-variable rounds of a load-dependent fit: at most this many, until every mu
/// changes by less than kLoadTolerance [-].
constexpr int kLoadMaxRounds = 100;
constexpr double kLoadTolerance = 1e-10;

void check_inputs(const robot::RobotModel& m, const data::ArmSamples& s) {
  if (s.dof() != m.dof())
    throw std::invalid_argument("the record has " + std::to_string(s.dof()) +
                                " joints, the robot " + std::to_string(m.dof()));
  if (s.effort_is_current)
    throw std::invalid_argument(
        "the record has motor currents, not joint torques: give the drive gains to convert them");
}

/// Steps 2-4 with the base `base` of `cols` (the load columns from `load`).
RobotFitResult solve_base(FullRegressor& full, const Base& base, const Columns& cols,
                          const data::ArmSamples& samples, const RobotFitOptions& options,
                          const Series* load = nullptr) {
  BaseRows rows(full, base, samples, load);
  const Solution s = arm::solve(rows, samples.dof(), options.weighted);
  RobotFitResult out = arm::result_of(s, base, cols, samples.size(), samples.dof());
  arm::flag(out, options);
  return out;
}

/// Each joint's mu in `r` (0 where it has none).
std::vector<double> load_coefficients(const robot::RobotModel& model, const RobotFitResult& r) {
  std::vector<double> mu;
  for (const auto& j : model.joints) {
    const auto it = std::find_if(r.parameters.begin(), r.parameters.end(),
                                 [&](const RobotParameter& p) { return p.name == "mu_" + j.name; });
    mu.push_back(it == r.parameters.end() ? 0.0 : it->value);
  }
  return mu;
}

/// The joints whose record does not determine mu (the load rule over the moving samples'
/// measured torques), with a flag each.
std::vector<bool> undetermined_loads(const robot::RobotModel& model,
                                     const data::ArmSamples& samples,
                                     std::vector<std::string>& flags) {
  std::vector<bool> held;
  for (int j = 0; j < model.dof(); ++j) {
    const auto jj = static_cast<std::size_t>(j);
    std::vector<double> drive, back;
    for (std::size_t k = 0; k < samples.size(); ++k) {
      const double qd = samples.qd[jj][k], tau = samples.effort[jj][k];
      if (qd != 0) (is_driving(tau, qd > 0) ? drive : back).push_back(std::abs(tau));
    }
    const std::string why = load_undetermined_reason(drive, back);
    held.push_back(!why.empty());
    if (!why.empty())
      flags.push_back("the load coefficient mu_" + model.joints[jj].name +
                      " is not determined by the record: " + why + "; held at 0");
  }
  return held;
}

/// Holds joint j's mu at 0 (its column left out) with the note that says why: a value below 0
/// (no level rising with the load) or at 1 and above (no torque would drive the joint).
void hold_load(const robot::RobotModel& model, std::size_t j, double mu, Columns& cols,
               std::vector<std::string>& notes) {
  cols.load_held[j] = true;
  notes.push_back("mu_" + model.joints[j].name + " came out at " + format_number(mu, 3) +
                  (mu < 0 ? ": the record shows no Coulomb level rising with the load"
                          : ": not a load-dependent level (mu_drive must stay below 1)") +
                  "; held at 0");
}

/// The instrumental-variable rounds (header) from the instrument `tau_hat`, which ends as the
/// returned fit's prediction. A coefficient where the prediction r / (1 -+ mu) stops making
/// sense (mu <= -1/2, mu >= 1) is held at once, the others only after the rounds have settled.
RobotFitResult iterate_load(const robot::RobotModel& model, const data::ArmSamples& samples,
                            const RobotFitOptions& options, Columns& cols, Series& tau_hat,
                            std::vector<std::string>& notes) {
  FullRegressor full(model, cols);
  Base base = arm::find_base(full, cols, options);
  std::vector<double> mu(static_cast<std::size_t>(model.dof()), 0.0);
  RobotFitResult fit;
  fit.load_converged = false;
  for (int round = 1; round <= kLoadMaxRounds; ++round) {
    fit = solve_base(full, base, cols, samples, options, &tau_hat);
    fit.load_rounds = round;
    const std::vector<double> next = load_coefficients(model, fit);
    bool held = false;
    for (std::size_t j = 0; j < next.size(); ++j)
      if (!cols.held(static_cast<int>(j)) && !(next[j] > -0.5 && next[j] < 1)) {
        hold_load(model, j, next[j], cols, notes);
        held = true;
      }
    if (held) {
      base = arm::find_base(full, cols, options);
      continue;
    }
    double change = 0;
    for (std::size_t j = 0; j < mu.size(); ++j)
      change = std::max(change, std::abs(next[j] - mu[j]));
    mu = next;
    tau_hat = predict_robot(model, fit, samples, options).predicted;
    if (change < kLoadTolerance) {
      fit.load_converged = true;
      break;
    }
  }
  return fit;
}

/// The load-dependent fit (header): the load-free fit's prediction as the first instrument,
/// the undetermined joints held at 0, the rounds, and once more with every mu below 0 held at
/// 0.
RobotFitResult fit_load_dependent(const robot::RobotModel& model, const data::ArmSamples& samples,
                                  const RobotFitOptions& options) {
  RobotFitOptions plain = options;
  plain.load = false;
  Series tau_hat = predict_robot(model, fit_robot(model, samples, plain), samples, plain).predicted;
  Columns cols = arm::columns_of(model, options);
  std::vector<std::string> flags, notes;
  cols.load_held = undetermined_loads(model, samples, flags);
  RobotFitResult fit = iterate_load(model, samples, options, cols, tau_hat, notes);
  const std::vector<double> mu = load_coefficients(model, fit);
  bool again = false;
  for (std::size_t j = 0; j < mu.size(); ++j)
    if (!cols.held(static_cast<int>(j)) && mu[j] < 0) {
      hold_load(model, j, mu[j], cols, notes);
      again = true;
    }
  if (again) fit = iterate_load(model, samples, options, cols, tau_hat, notes);
  fit.flags.insert(fit.flags.end(), flags.begin(), flags.end());
  fit.load_notes = std::move(notes);
  return fit;
}

}  // namespace

RobotFitResult fit_robot(const robot::RobotModel& model, const data::ArmSamples& samples,
                         const RobotFitOptions& options) {
  check_inputs(model, samples);
  if (options.load) return fit_load_dependent(model, samples, options);
  const Columns cols = arm::columns_of(model, options);
  FullRegressor full(model, cols);
  const Base base = arm::find_base(full, cols, options);
  return solve_base(full, base, cols, samples, options);
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
  const std::vector<double> mu = options.load ? load_coefficients(model, result)
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
