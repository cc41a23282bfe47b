// frictionlab mujoco (private): the context behind flmj_friction (include/frictionlab/mujoco/
// friction.h): the servo joints bound to a MuJoCo model's indices, their firmware memory, and
// the scratch of a step.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "box_qp.hpp"
#include "friction_step.hpp"
#include "frictionlab/io/mujoco_friction.hpp"
#include "frictionlab/models/load_dependence.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/stribeck.hpp"
#include "frictionlab/mujoco/friction.h"
#include "frictionlab/sim/joint_model.hpp"
#include "frictionlab/sim/servo.hpp"
#include "frictionlab/sim/servo_params.hpp"
#include "small_lu.hpp"

namespace frictionlab::mujoco {

/// Row i of a MuJoCo array of `width` numbers per row (an actuator's gain or bias parameters,
/// its ranges).
inline const mjtNum* row(const mjtNum* array, int i, int width) {
  return array + static_cast<std::ptrdiff_t>(i) * width;
}

/// A servo joint of the model: where MuJoCo keeps it, its fitted actuator, its firmware.
struct ServoJoint {
  std::string name;
  int dof = -1;   ///< index into qvel, qfrc_*
  int qpos = -1;  ///< index into qpos
  int goal = -1;  ///< the actuator whose ctrl is the goal position
  sim::ServoConstants constants;
  sim::ServoParams params;
  sim::ServoRunInput firmware_input;  ///< kp, kd, ki, vin (dt: MuJoCo's timestep, per step)
  sim::ServoFirmwareState firmware;
  bool enabled = true;
  flmj_torques last{};
  /// With a temperature law (params.temperature): the joint's temperature [degC] and the law's
  /// scales of the dry terms and of Kv |v| there (set_temperature); 1 without a law.
  double temperature = std::numeric_limits<double>::quiet_NaN();
  double level = 1.0, viscous = 1.0;
};

/// A joint whose friction is a friction model: LuGre (its bristle state kept from step to step)
/// or a static model (the stopping-torque rule).
struct FrictionJoint {
  std::string name;
  int dof = -1;
  bool lugre = false;
  LugreParams lugre_params;  ///< at the joint's temperature (set_temperature)
  StaticFriction<double>::Params static_params;
  /// A joint fit's load dependence (models/load_dependence.hpp) under the torque applied on the
  /// joint (qfrc_applied and the actuators' forces at its dof); none: load-free.
  std::optional<LoadDependence<double>> load;
  /// A joint fit with a temperature law: its joint model at T_ref, from which set_temperature
  /// takes the parameters above at the joint's temperature; none: no law.
  std::optional<sim::JointModel> reference;
  double temperature = std::numeric_limits<double>::quiet_NaN();  ///< [degC], with a law
  double z = 0.0;       ///< LuGre's bristle deflection at the start of the current step [rad]
  double z_next = 0.0;  ///< at its end, from the step's last evaluation [rad]
  double v_next = 0.0;  ///< LuGre: the velocity the last solve ended the step with [rad/s]
  /// A static model's budget this step where the joint would move forward / backward [Nm]
  double budget_pos = 0.0, budget_neg = 0.0;
  flmj_torques last{};
};

/// The scratch of a step, sized once for the model (no allocation in the callback).
struct StepScratch {
  std::vector<mjtNum> bias;   ///< mj_rne without acceleration: gravity and Coriolis [nv]
  std::vector<mjtNum> dense;  ///< mj_fullM's row-major nv x nv mass matrix
  Eigen::MatrixXd A;          ///< M (+ h diag(damping) under Euler)
  Eigen::LLT<Eigen::MatrixXd> llt;
  std::vector<int> dofs;  ///< the n joints' dofs (servos first)
  /// nv x (n + 1): the unit vectors of the n joints' dofs, then the step's smooth forces
  Eigen::MatrixXd select;
  /// nv x (n + 1): A^-1 select (A assembled), or D^-1/2 L'^-1 select (A = M = L'DL, mj_solveM2)
  Eigen::MatrixXd solved;
  /// n x n: the velocity change over the step per unit torque, divided by h, of joint a under
  /// a torque on joint b: (A^-1)(dof_a, dof_b)
  Eigen::MatrixXd coupling;
  Eigen::VectorXd force;  ///< the smooth forces before friction [nv]
  /// the torque applied on each dof (qfrc_applied and the actuators' forces), a load
  /// dependence's load [nv]
  Eigen::VectorXd applied;
  Eigen::VectorXd w;   ///< A^-1 force
  Eigen::VectorXd wf;  ///< w at the joints' dofs, with the frictions taken so far
  /// The budget joints' programme (box_qp.hpp): v0, H = h coupling, the bounds, the frictions
  /// and the solver with the joints' sides of the step before
  Eigen::VectorXd v0, lo, hi, f;
  Eigen::MatrixXd H;
  BoxQp qp;
  /// The coupled LuGre joints' Newton iteration (their positions among the n joints in
  /// `lugre`): their velocities u, F(u), dF/du, z+(u), the residual, the Newton step du from
  /// the last accepted iterate u_base, the Jacobian I + C diag(dF/du) and its factor (C: H's
  /// LuGre block, less what the sticking budget joints take: H_LL - H_LS H_SS^-1 H_SL); all
  /// joints' velocities v
  std::vector<int> lugre;
  Eigen::VectorXd u, F, dF, z_next, r, du, u_base, v;
  Eigen::MatrixXd J;
  SmallLu lu;
  /// The sticking budget joints' positions, H_SS (factored in place) and H_SS^-1 H_SL
  std::vector<int> sticking;
  Eigen::MatrixXd Hss, X;
};

}  // namespace frictionlab::mujoco

/// The C API's opaque type.
struct flmj_friction {
  int nv = 0, njnt = 0;  ///< of the model it was loaded for (flmj_apply checks them)
  std::vector<frictionlab::mujoco::ServoJoint> servos;
  std::vector<frictionlab::mujoco::FrictionJoint> frictions;
  /// the mjData and time of the step under way: the firmware and the LuGre states advance once
  /// per step
  const mjData* data = nullptr;
  double time = std::numeric_limits<double>::quiet_NaN();
  frictionlab::mujoco::StepScratch scratch;
  flmj_stats stats{};  ///< flmj_get_stats
};

namespace frictionlab::mujoco {

/// Bind a MUJOCO.json's joints to model m's indices, checking what the MJCF must carry.
/// Throws io::InputError naming the file, the entry's line and the MJCF name.
void bind(flmj_friction& fl, const mjModel& m, const io::MujocoFriction& file);

/// A friction joint with a temperature law at temperature T [degC]: its parameters become the
/// law's at T. Throws std::invalid_argument for a joint without a law, or a T at which the
/// law's scale is not positive (the parameters unchanged).
void set_temperature(FrictionJoint& j, double T);
/// A servo joint whose parameter file has a temperature law at temperature T [degC]: its
/// budget's scales become the law's at T. Throws as the overload above.
void set_temperature(ServoJoint& j, double T);

/// One evaluation: add the servo torques and the friction of fl's joints to d.qfrc_passive.
void apply(flmj_friction& fl, const mjModel& m, mjData& d);

}  // namespace frictionlab::mujoco
