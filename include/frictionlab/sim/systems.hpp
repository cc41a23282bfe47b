// frictionlab: coupled mechanical systems with dynamic friction (docs/simulation.md).
//
// a. Stick-slip benchmark (Armstrong-Helouvry 1991; Canudas de Wit et al. 1995, sec. V):
//    a mass m [kg] on fixed ground, tied by a spring k [N/m] to a point pulled at constant speed
//    v_drive [m/s]:          m*xdd = k*(v_drive*t - x) - F(v, z),        friction at velocity v =
//    xd. Belt variant (belt = true): the mass is tied to a wall by the spring and lies on a belt
//    moving at v_drive:             m*xdd = -k*x - F(v_rel, z),  v_rel = xd - v_drive.
// b. One rotary joint (04_* eq. 1), torque driven:
//    I*qdd + mgCx*cos(q) - mgCy*sin(q) + tau_f(qd, z) = tau(t).
//
// Friction: one of the single-state dynamic models (LuGre, Dahl, elasto-plastic), double.
// Integrators: `trbdf2` = fixed-step TR-BDF2 with Newton iterations (L-stable, order 2), the
// recommended real-time scheme; `rosenbrock` = fixed-step ROS2 (linearly implicit, L-stable,
// order 2), cheaper per step but accurate on the stick-slip benchmark only for h <= 1.1 ms;
// `cvode` = SUNDIALS CVODE BDF with a dense Jacobian, adaptive, the high-accuracy reference
// (docs/simulation.md).
//
// Output: samples at t = 0, every output_dt (0: every h) and at t_end. Fixed-step integrators
// (rosenbrock, trbdf2): t_end and output_dt must be integer multiples of h (within 1e-9
// relative). cvode: h > 0 is the largest step; with h <= 0 output_dt must be > 0. The friction
// state is integrated scaled by its invariant bound, s = z / M::state_bound(p), so atol applies
// to x [m], v [m/s] and s [-] (joint: q [rad], qd [rad/s], s). Counters: steps = integrator
// steps; rhs_evals = evaluations of the right-hand side in double or ceres::Jet (ROS2: 2 per
// step; TR-BDF2: 1 + one per Newton iteration; CVODE: its count plus one per Jacobian). Invalid
// input: std::invalid_argument naming the parameter; integrator failure (CVODE flag, non-finite
// state of a fixed-step scheme): std::runtime_error.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "frictionlab/models/registry.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab::sim {

enum class SystemIntegrator {
  /// Fixed-step ROS2 (integrate/rosenbrock.hpp): one linearisation per step, no iteration.
  /// Cheapest per step, but on the stick-slip benchmark it stalls at breakaway for
  /// 1.12 ms <= h <= 9.1 ms (silently wrong by 0.08 m to 22.5 m) and is within 1 % only for
  /// h <= 1.1 ms; check new parameter sets against cvode.
  rosenbrock,
  /// Adaptive CVODE BDF (SUNDIALS): the high-accuracy reference, not real-time.
  cvode,
  /// Fixed-step TR-BDF2 (integrate/trbdf2.hpp): trapezoidal stage + BDF2 stage, each solved by
  /// full Newton (Jacobian by ceres::Jet at every iterate) to 1e-10 on the scaled state, at
  /// most 8 iterations per stage. L-stable, order 2; bounded cost per step, no allocation. The
  /// recommended real-time scheme: within 1 % of the reference on the stick-slip benchmark up
  /// to h = 14.3 ms (docs/simulation.md).
  trbdf2,
};

/// The integrators' names (simulate --integrator, SYSTEM.json).
inline constexpr std::array<Named<SystemIntegrator>, 3> kSystemIntegratorNames{{
    {SystemIntegrator::trbdf2, "trbdf2"},
    {SystemIntegrator::rosenbrock, "rosenbrock"},
    {SystemIntegrator::cvode, "cvode"},
}};
static_assert(names_every(kSystemIntegratorNames, SystemIntegrator::trbdf2));

/// The registered models a coupled system can carry: the bristle models, whose state has the
/// invariant bound M::state_bound(p) the scaled integration needs. A model joins by one entry.
using CoupledModels = ModelList<LuGreInfo, DahlInfo, ElastoPlasticInfo>;

/// The parameters of a coupled friction model (a variant of their Params, as ModelSpec).
using FrictionParams = ModelSpecOf<CoupledModels>;

struct StickSlipSpec {
  double m = 1.0;        ///< mass [kg], > 0
  double k = 2.0;        ///< spring stiffness [N/m], > 0
  double v_drive = 0.1;  ///< pulling speed of the spring end, or belt speed [m/s]
  bool belt = false;     ///< false: spring end pulled; true: mass on a moving belt
  double x0 = 0.0;       ///< initial position [m]
  double v0 = 0.0;       ///< initial velocity [m/s]
  double t_end = 20.0;   ///< end time [s], > 0
};

struct JointSpec {
  double I = 0.05;    ///< inertia about the axis [kg m^2], > 0
  double mgCx = 0.0;  ///< gravity term [N m] (04_* eq. 1)
  double mgCy = 0.0;  ///< gravity term [N m]
  /// Applied torque: a sampled record tau(t) [N m], linearly interpolated (held constant
  /// outside its range), if tau_t is non-empty; else tau(t) = tau_offset + tau_amp*sin(2 pi
  /// tau_freq t).
  std::vector<double> tau_t, tau;
  double tau_offset = 0.0, tau_amp = 1.0, tau_freq = 0.5;
  double q0 = 0.0;      ///< initial angle [rad]
  double qd0 = 0.0;     ///< initial angular velocity [rad/s]
  double t_end = 10.0;  ///< end time [s], > 0
};

/// The coupled systems of this header: the stick-slip benchmark (or its belt variant) and the
/// torque-driven rotary joint.
enum class SystemKind { stick_slip, joint };

/// "stick-slip" or "joint" (the names of SYSTEM.json files).
inline const char* system_name(SystemKind kind) {
  return kind == SystemKind::stick_slip ? "stick-slip" : "joint";
}

/// Name of an integrator in messages and on the command line: trbdf2, rosenbrock, cvode.
const char* integrator_name(SystemIntegrator i);

/// The integrator of a name of integrator_name, or nullopt.
std::optional<SystemIntegrator> parse_integrator(std::string_view name);

struct SimOptions {
  SystemIntegrator integrator = SystemIntegrator::trbdf2;  ///< recommended real-time scheme
  double h = 1e-3;         ///< fixed step (rosenbrock, trbdf2) [s]; cvode: max step if > 0
  double output_dt = 0.0;  ///< output sampling [s]; 0 = every step h (cvode: every h)
  double rtol = 1e-8;      ///< cvode relative tolerance
  double atol = 1e-10;     ///< cvode absolute tolerance (applied to scaled states)
  /// Called with the time [s] of every output sample once it is stored (from the integration
  /// loop, never from inside the ODE solver), or empty. An exception it throws stops the
  /// simulation and propagates unchanged (workflows::simulate_system reports progress and
  /// polls cancellation through it).
  std::function<void(double t)> on_output;
};

struct SystemTrajectory {
  std::vector<std::string> state_names;     ///< names of the friction states, e.g. {"z"}
  std::vector<double> t, x, v, F;           ///< time [s], position, velocity, friction force
  std::vector<std::vector<double>> states;  ///< states[i][k]: state i at sample k
  long steps = 0;                           ///< integrator steps taken
  long rhs_evals = 0;                       ///< right-hand-side evaluations
  /// trbdf2 only: implicit stages whose Newton iteration ran out of corrections (the last
  /// iterate was used). Non-zero means the step is near the scheme's limit for this problem.
  long unconverged_stages = 0;
};

/// Simulate the stick-slip / belt system. Throws std::invalid_argument naming the offending
/// parameter for impossible specifications (m <= 0, h <= 0, NaN, ...).
SystemTrajectory simulate_stick_slip(const StickSlipSpec& spec, const FrictionParams& friction,
                                     const SimOptions& opt);

/// Simulate the torque-driven rotary joint. Same error contract.
SystemTrajectory simulate_joint(const JointSpec& spec, const FrictionParams& friction,
                                const SimOptions& opt);

}  // namespace frictionlab::sim
