// Synthetic arm records for the arm tests: made-up link mass properties, and the joint torques of
// a trajectory by the inverse dynamics plus a friction law and Gaussian noise.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <random>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/models/load_dependence.hpp"
#include "frictionlab/robot/dynamics.hpp"

namespace frictionlab::testing {

/// Every link: mass in [1, 4] kg, centre of mass within 4 cm of the joint origin, principal
/// moments 0.02, 0.03, 0.025 kg m^2 (real bodies).
inline void made_up_inertials(robot::RobotModel& m, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& j : m.joints) {
    j.inertial.mass = 1 + 3 * u(rng);
    j.inertial.com = 0.08 * Eigen::Vector3d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    j.inertial.inertia = Eigen::Vector3d(0.02, 0.03, 0.025).asDiagonal();
  }
}

/// The motion of the synthetic arm records: an excitation designed for `m` (period 10 s,
/// `evaluations` evaluations of the design's search), sampled at `rate` [Hz] over `periods`
/// periods, without torques.
inline data::ArmSamples designed_excitation(const robot::RobotModel& m, long evaluations,
                                            double rate, int periods = 1) {
  identify::ExcitationOptions eo;
  eo.period = 10;
  eo.evaluations = evaluations;
  return identify::design_excitation(m, eo).trajectory.sample(rate, periods);
}

/// The 10 standard parameters of every link of `m`, stacked.
inline Eigen::VectorXd standard_parameters(const robot::RobotModel& m) {
  Eigen::VectorXd pi(10 * m.dof());
  for (int i = 0; i < m.dof(); ++i)
    pi.segment<10>(10 * i) =
        robot::standard_parameters(m.joints[static_cast<std::size_t>(i)].inertial);
  return pi;
}

/// s.effort: per joint j and sample k, the torque of the links `pi` along s's motion plus
/// friction(j, qd_jk) plus Gaussian noise of standard deviation `noise` [N m]. With `mu` (one
/// per joint), the Coulomb level rises by mu_j |tau| (models/load_dependence.hpp, mu_drive =
/// mu_back = mu_j): the torque is applied_torque of that load-free one.
inline void add_torques(data::ArmSamples& s, const robot::RobotModel& m, const Eigen::VectorXd& pi,
                        const std::function<double(int, double)>& friction, double noise,
                        std::mt19937& rng, const std::vector<double>& mu = {}) {
  robot::RigidBodyDynamics<double> dyn(m);
  const int n = m.dof();
  Eigen::VectorXd q(n), qd(n), qdd(n), tau(n);
  std::normal_distribution<double> e(0, noise);
  s.effort.assign(static_cast<std::size_t>(n), {});
  for (std::size_t k = 0; k < s.size(); ++k) {
    for (int j = 0; j < n; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      q(j) = s.q[jj][k], qd(j) = s.qd[jj][k], qdd(j) = s.qdd[jj][k];
    }
    dyn.inverse_dynamics(q.data(), qd.data(), qdd.data(), pi.data(), tau.data());
    for (int j = 0; j < n; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      double r = tau(j) + friction(j, qd(j));
      if (!mu.empty()) r = applied_torque(LoadDependence<double>{mu[jj], mu[jj]}, r, qd(j));
      s.effort[jj].push_back(r + (noise > 0 ? e(rng) : 0.0));
    }
  }
}

}  // namespace frictionlab::testing
