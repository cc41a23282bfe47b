// frictionlab: validation of an identified joint on a record (docs/joint-identification.md,
// "Validation"): the same error measures for every method and for models from elsewhere.
//
// Torque (inverse model, from the measured motion):
//   tau_hat_k = I*qdd_k + tau_g(q_k) + offset + tau_f(qd_k, z_k),
//   z from the exact-step integration of the bristle equation driven by the measured qd
//   (sim::bristle_state; 0 for static friction).
// Position and velocity (forward model, from the applied torque): the equation of motion
// simulated from the measured q, qd at the first sample (z = 0), driven by the measured torque
// (sim::simulate_joint_model). With horizon_s > 0 the simulation restarts from the measured
// state every horizon_s seconds (an n-step-ahead prediction; z carried over from the bristle
// integration), which keeps long records of an unstable or drifting joint meaningful.
// Error measures of a channel y (prediction p) over the record:
//   rel = ||p - y||_2 / ||y||_2   (reference 004's relative error E_tau/||tau||; dimensionless)
//   rmse = sqrt(mean (p - y)^2),  max_abs = max |p - y|   (channel units)
//
// Static curve: the friction torque estimated from the data, tau - I qdd - tau_g - offset, is
// averaged over constant-velocity segments of the record (identify/segments.hpp) and compared
// with the model's steady-state curve tau_ss(v) (zdot = 0) at each segment's mean velocity.
//
// Host side: allocates, throws FitError (bad record) or std::invalid_argument (bad model).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/identify/joint.hpp"
#include "frictionlab/identify/options.hpp"

namespace frictionlab::identify {

struct JointEvalOptions {
  double max_step = 1e-3;  ///< largest simulation step [s]
  double horizon_s = 0;    ///< restart the simulation from the measured state every horizon_s [s]
};

struct ChannelError {
  double rel = 0;      ///< ||p - y|| / ||y|| [-]
  double rmse = 0;     ///< [channel units]
  double max_abs = 0;  ///< [channel units]
};

struct JointEvaluation {
  std::string source;
  ChannelError torque, position, velocity;
  std::vector<double> tau_pred;  ///< inverse-model torque at every sample [N m]
  std::vector<double> q_sim;     ///< simulated position [rad]
  std::vector<double> qd_sim;    ///< simulated velocity [rad/s]
  long unconverged_stages = 0;   ///< TR-BDF2 stages out of Newton corrections (simulation)
};

/// The inverse-model torque tau_hat_k of `m` along the measured motion of `d` [N m] (header;
/// d.t, d.q, d.qd, d.qdd used).
std::vector<double> inverse_torque(const JointModel& m, const JointData& d);

/// The sample at which a simulation of `d` started at sample k0 ends and the next one starts:
/// the last sample, or with horizon_s > 0 the first at least horizon_s [s] after k0 (at least
/// k0 + 1; evaluate_joint's restarts, and those of anything compared with it).
std::size_t horizon_end(const JointData& d, std::size_t k0, double horizon_s);

/// The error measures of `m` on `d` (every channel of d used).
JointEvaluation evaluate_joint(const JointModel& m, const JointData& d,
                               const JointEvalOptions& opt = {});

/// The error measures of a prediction p against measurements y.
ChannelError channel_error(const std::vector<double>& y, const std::vector<double>& p);

struct StaticCurvePoint {
  double qd = 0;        ///< mean velocity of the segment [rad/s]
  double measured = 0;  ///< mean friction estimated from the data [N m]
  double model = 0;     ///< the model's steady-state friction at qd [N m]
  double duration = 0;  ///< averaged time [s]
};

/// Constant-velocity segments of d and the model's static curve there (header).
std::vector<StaticCurvePoint> static_curve_check(const JointModel& m, const JointData& d,
                                                 const SegmentOptions& seg = {});

}  // namespace frictionlab::identify
