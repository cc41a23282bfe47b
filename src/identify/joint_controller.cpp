// frictionlab identify: a closed-loop record's controller (identify/joint_controller.hpp).
#include "frictionlab/identify/joint_controller.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::identify {
namespace {

std::string src_of(const JointData& d) { return d.source.empty() ? "record" : d.source; }

void need_desired(const JointData& d) {
  const std::size_t n = d.size();
  if (!d.has_desired() || d.q_des.size() != n || d.qd_des.size() != n || d.tau_ff.size() != n)
    throw FitError(src_of(d) +
                   ": the controller needs the desired position, velocity and "
                   "feedforward torque at every sample (a --desired record)");
}

}  // namespace

JointControllerFit fit_joint_controller(const JointData& d) {
  need_desired(d);
  const auto n = static_cast<Eigen::Index>(d.size());
  if (n < 8) throw FitError(src_of(d) + ": too few samples to fit the controller");
  Eigen::MatrixXd A(n, 4);
  Eigen::VectorXd y(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto u = static_cast<std::size_t>(k);
    A(k, 0) = d.tau_ff[u];
    A(k, 1) = 1.0;
    A(k, 2) = d.q_des[u] - d.q[u];
    A(k, 3) = d.qd_des[u] - d.qd[u];
    y(k) = d.tau[u];
  }
  // Column scaling keeps the QR's rank decision independent of the channels' units.
  const Eigen::VectorXd scale = A.colwise().norm().cwiseMax(1e-300).transpose();
  const Eigen::MatrixXd As = A * scale.cwiseInverse().asDiagonal();
  const Eigen::VectorXd xs = As.colPivHouseholderQr().solve(y);
  const Eigen::VectorXd x = xs.cwiseQuotient(scale);
  JointControllerFit f;
  f.controller = {x(2), x(3), x(0), x(1)};
  const double yn = y.norm();
  f.rel_error = yn > 0 ? (A * x - y).norm() / yn : 0.0;
  if (!(x(2) >= 0) || !(x(3) >= 0))
    throw FitError(src_of(d) + ": the least-squares controller gains are kp = " +
                   format_number(x(2)) + ", kd = " + format_number(x(3)) +
                   ": a PD law with these signals does not describe the record (give the "
                   "controller's gains in a file instead)");
  return f;
}

std::vector<double> controller_drive(const JointController& c, const JointData& d) {
  need_desired(d);
  std::vector<double> u(d.size());
  for (std::size_t k = 0; k < d.size(); ++k)
    u[k] = c.kff * d.tau_ff[k] + c.bias + c.kp * d.q_des[k] + c.kd * d.qd_des[k];
  return u;
}

std::vector<double> controller_torque(const JointController& c, const JointData& d) {
  std::vector<double> u = controller_drive(c, d);
  for (std::size_t k = 0; k < d.size(); ++k) u[k] -= c.kp * d.q[k] + c.kd * d.qd[k];
  return u;
}

}  // namespace frictionlab::identify
