// frictionlab identify: an arm's rigid body and a registry friction model per joint, by
// alternating least squares (identify/robot_friction.hpp).
#include "frictionlab/identify/robot_friction.hpp"

#include <cmath>
#include <stdexcept>

#include "frictionlab/identify/fit.hpp"
#include "parallel.hpp"

namespace frictionlab::identify {

namespace {

using Matrix = std::vector<std::vector<double>>;  ///< per joint, per sample

/// `fit` without the parameters of the columns `options` leaves out (a linear fit's viscous
/// and Coulomb terms): what predict_robot needs to give the rest of the torque.
RobotFitResult without_friction_columns(RobotFitResult fit) {
  std::erase_if(fit.parameters, [](const RobotParameter& p) {
    return p.name.rfind("Fv_", 0) == 0 || p.name.rfind("Fc_", 0) == 0;
  });
  return fit;
}

/// The rigid-body stage of the rounds: no viscous or Coulomb columns, and unweighted, so that
/// both blocks lower the same (unweighted) sum of squares.
RobotFitOptions rigid_options(RobotFitOptions o) {
  o.viscous = false;
  o.coulomb = false;
  o.weighted = false;
  return o;
}

/// Step 1 for joint j: its friction model fitted to what the rigid body leaves of its torque.
FitResult fit_joint_friction(const data::ArmSamples& s, const std::vector<double>& rigid, int j,
                             const robot::RobotModel& model, const FitOptions& options) {
  const auto jj = static_cast<std::size_t>(j);
  data::Record r;
  r.source = "joint '" + model.joints[jj].name + "'";
  r.t = s.t;
  r.velocity = s.qd[jj];
  r.force.resize(s.size());
  for (std::size_t k = 0; k < s.size(); ++k) r.force[k] = s.effort[jj][k] - rigid[k];
  return fit(r, options);
}

/// Each joint's friction torque F_j(qd_j) from its fit (a dynamic model simulated from rest).
Matrix friction_torques(const data::ArmSamples& s, const std::vector<FitResult>& fits) {
  Matrix out;
  for (std::size_t j = 0; j < fits.size(); ++j) {
    data::Record r;
    r.t = s.t;
    r.velocity = s.qd[j];
    r.force.assign(s.size(), 0.0);  // predict checks the channel; it reads only t and velocity
    out.push_back(predict(fits[j], r));
  }
  return out;
}

/// The samples with each joint's torque minus its friction torque.
data::ArmSamples minus(data::ArmSamples s, const Matrix& friction) {
  for (std::size_t j = 0; j < friction.size(); ++j)
    for (std::size_t k = 0; k < s.size(); ++k) s.effort[j][k] -= friction[j][k];
  return s;
}

/// Per joint sum of squared residuals of tau - rigid - friction, and sum of squares of tau.
struct Sums {
  std::vector<double> ssr, sst;
  double total() const {
    double x = 0;
    for (double v : ssr) x += v;
    return x;
  }
};
Sums sums(const data::ArmSamples& s, const Matrix& rigid, const Matrix& friction) {
  Sums out{std::vector<double>(rigid.size(), 0.0), std::vector<double>(rigid.size(), 0.0)};
  for (std::size_t j = 0; j < rigid.size(); ++j)
    for (std::size_t k = 0; k < s.size(); ++k) {
      const double e = s.effort[j][k] - rigid[j][k] - friction[j][k];
      out.ssr[j] += e * e;
      out.sst[j] += s.effort[j][k] * s.effort[j][k];
    }
  return out;
}

void finish(RobotFrictionResult& out, const Sums& e, std::size_t samples) {
  double ssr = 0, sst = 0;
  for (std::size_t j = 0; j < e.ssr.size(); ++j) {
    ssr += e.ssr[j];
    sst += e.sst[j];
    out.rms_error.push_back(std::sqrt(e.ssr[j] / static_cast<double>(samples)));
  }
  out.relative_error_percent = 100 * std::sqrt(ssr / sst);
}

}  // namespace

RobotFrictionResult fit_robot_friction(const robot::RobotModel& model,
                                       const data::ArmSamples& samples,
                                       const RobotFrictionOptions& options) {
  if (options.max_rounds < 1) throw std::invalid_argument("max_rounds: must be >= 1");
  if (!(options.tolerance > 0)) throw std::invalid_argument("tolerance: must be > 0");
  const RobotFitOptions rigid_opt = rigid_options(options.fit);
  RobotFrictionResult out;
  // Step 0: the linear fit; its rigid part (without the viscous and Coulomb terms) starts.
  const RobotFitResult linear = fit_robot(model, samples, options.fit);
  out.linear_relative_error_percent = linear.relative_error_percent;
  out.rigid = without_friction_columns(linear);
  Matrix rigid = predict_robot(model, out.rigid, samples, rigid_opt).predicted, friction;
  double previous = INFINITY;
  for (out.rounds = 1; out.rounds <= options.max_rounds; ++out.rounds) {
    out.friction.assign(rigid.size(), {});  // step 1, the joints on parallel threads
    parallel::for_each_index(rigid.size(), options.threads, [&](std::size_t j) {
      out.friction[j] =
          fit_joint_friction(samples, rigid[j], static_cast<int>(j), model, options.friction);
    });
    friction = friction_torques(samples, out.friction);
    const data::ArmSamples rest = minus(samples, friction);  // step 2
    out.rigid = fit_robot(model, rest, rigid_opt);
    rigid = predict_robot(model, out.rigid, rest, rigid_opt).predicted;
    const double total = sums(samples, rigid, friction).total();
    if (std::abs(previous - total) <= options.tolerance * total) {
      out.converged = true;
      break;
    }
    previous = total;
  }
  out.rounds = std::min(out.rounds, options.max_rounds);
  if (options.fit.weighted) {  // the reported rigid body: weighted as asked, given the friction
    RobotFitOptions weighted = rigid_options(options.fit);
    weighted.weighted = true;
    const data::ArmSamples rest = minus(samples, friction);
    out.rigid = fit_robot(model, rest, weighted);
    rigid = predict_robot(model, out.rigid, rest, weighted).predicted;
  }
  finish(out, sums(samples, rigid, friction), samples.size());
  return out;
}

RobotPrediction predict_robot_friction(const robot::RobotModel& model,
                                       const RobotFrictionResult& result,
                                       const data::ArmSamples& samples,
                                       const RobotFrictionOptions& options) {
  RobotFitOptions rigid_opt = rigid_options(options.fit);
  rigid_opt.weighted = options.fit.weighted;
  RobotPrediction out = predict_robot(model, result.rigid, samples, rigid_opt);
  const Matrix friction = friction_torques(samples, result.friction);
  for (std::size_t j = 0; j < friction.size(); ++j)
    for (std::size_t k = 0; k < samples.size(); ++k) out.predicted[j][k] += friction[j][k];
  const Matrix zero(friction.size(), std::vector<double>(samples.size(), 0.0));
  const Sums e = sums(samples, out.predicted, zero);
  RobotFrictionResult figures;
  finish(figures, e, samples.size());
  out.relative_error_percent = figures.relative_error_percent;
  out.rms_error = figures.rms_error;
  return out;
}

}  // namespace frictionlab::identify
