// frictionlab: an identified robot joint, and its equation of motion simulated from a sampled
// applied torque (docs/joint-identification.md, "The joint model" and "Simulation").
//
// One revolute joint with the others locked (reference 004, Mahmoudkhani, Gorenstein & Ahmadi
// 2023, eq. 1), plus a constant torque offset (sensor or amplifier bias):
//
//   I*qdd + mgCx*cos(q) - mgCy*sin(q) + tau_f(qd, z) + offset = tau(t)              [N m]
//
// q [rad] from the joint's zero; (Cx, Cy) is the centre of mass in a frame at the joint whose x
// axis lies along the link (04_* sec. 2); the potential energy is mgCx sin q + mgCy cos q [J],
// so a pendulum hanging at q = 0 has mgCx = 0, mgCy = -m g c. A horizontal axis has no gravity
// terms (JointStructure::gravity = false). Friction tau_f: the joint LuGre model of reference
// 004 (models/joint_lugre.hpp; state z [rad]) or a static model (models/stribeck.hpp,
// StaticFriction: Coulomb + viscous, asymmetric Coulomb levels allowed).
//
// Simulation (simulate_joint_model): the applied torque is linearly interpolated between its
// samples; outputs at the sample times. Each sample interval is split into
// ceil(interval / max_step) equal steps.
//   - LuGre friction: fixed-step TR-BDF2 with full Newton (integrate/trbdf2.hpp; L-stable,
//     order 2) on y = (q, qd, s), s = z / z_b with z_b = JointLuGre::state_bound(p), as
//     sim/systems.hpp does for the other dynamic models. Stiffness: the bristles make the
//     joint a spring of stiffness sigma0 near standstill (frequency sqrt(sigma0/I)); L-stability
//     keeps any step stable, accuracy needs h well below sqrt(I/sigma0) when the joint sticks.
//   - Static friction: the sign is set-valued at qd = 0, and a smooth integrator chatters
//     there. The step is implicit Euler with the set-valued Coulomb law solved exactly
//     (Moreau's time-stepping; J. J. Moreau, "Unilateral contact and dry friction in finite
//     freedom dynamics", CISM 302, 1988): with b = I*qd_n + h*(tau(t_n+1) - tau_g(q_n) -
//     offset) [N m s] (gravity explicit), the Coulomb torque is the stopping torque b/h clipped
//     to the Coulomb level (models/actuator_budgets.hpp, clip_friction), which sticks exactly
//     (qd = 0) when |b| <= h*Fc, and the viscous term is implicit:
//       qd_n+1 = (b - h*clip(b/h, -Fc_neg, Fc_pos)) / (I + h*sigma2),  q_n+1 = q_n + h*qd_n+1.
//     First order; unconditionally stable; never reverses the velocity within a step. The
//     Coulomb level is g at the side of the motion (Fs = Fc for Coulomb + viscous; for a
//     Stribeck curve g is evaluated at qd_n, frozen over the step). A smoothed sign
//     (v_smooth > 0: tanh or atan, e.g. a published Fc*atan(k*qd) model) makes the law smooth
//     and stiff (slope g/v_smooth): TR-BDF2 on y = (q, qd) as for LuGre.
//
// Host side: allocates the outputs, throws std::invalid_argument naming the parameter
// ("joint model: parameter 'I' must be > 0 (got 0)") and std::runtime_error if the state
// becomes non-finite.
#pragma once

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/models/load_dependence.hpp"
#include "frictionlab/models/stribeck.hpp"
#include "frictionlab/models/temperature_dependence.hpp"

namespace frictionlab::sim {

/// Which terms of the equation of motion besides inertia and friction the model has.
struct JointStructure {
  bool gravity = true;  ///< mgCx*cos(q) - mgCy*sin(q)
  bool offset = true;   ///< constant torque offset
};

/// An identified joint (the equation in the header).
struct JointModel {
  JointStructure structure{};
  double I = 0;       ///< inertia about the axis, rotor included [kg m^2]
  double mgCx = 0;    ///< gravity term [N m]
  double mgCy = 0;    ///< gravity term [N m]
  double offset = 0;  ///< torque offset [N m]
  /// Friction: the paper's LuGre, or a static model (Coulomb + viscous, asymmetric Coulomb
  /// levels allowed).
  std::variant<JointLuGre<double>::Params, StaticFriction<double>::Params> friction =
      JointLuGre<double>::Params{};
  /// Load-dependent Coulomb level (models/load_dependence.hpp; the load is the applied torque
  /// tau): static friction with the exact sign (v_smooth = 0), or LuGre, whose bristles' elastic
  /// force sigma0 z is scaled by 1 + rise / g(qd) (rise on the side of the motion, at rest on
  /// the side the torque pushes towards), so that the sliding level is g + rise and z stays the
  /// load-free bristle state (docs/models.md, "Load-dependent joint friction"). None: load-free.
  std::optional<LoadDependence<double>> load;
  /// Temperature-dependent levels (models/temperature_dependence.hpp) at the record's
  /// temperature: static friction's Coulomb and Stribeck levels scaled by level_scale and sigma2
  /// by viscous_scale; LuGre's Fc and Fs[i] by level_scale and cv[i] by viscous_scale (sigma0,
  /// sigma1 unchanged). Static friction with the exact sign or LuGre. None: the levels do not
  /// depend on the temperature. A model with it needs a temperature for every sample it is
  /// evaluated or simulated at.
  std::optional<TemperatureDependence<double>> temperature;
};

/// One entry of a joint's parameter table: what identify::joint_parameters reports of it and
/// what the sensitivities differentiate (the table itself: for_each_rigid_joint_parameter and
/// for_each_lugre_joint_parameter below, its only home; identify/joint_parameters.hpp adds
/// the static friction's entries).
struct JointParameterInfo {
  std::string name;             ///< "I", "mgCx", "sigma0", "Fs[0]", "cv[1]", ...
  std::string unit;             ///< "kg m^2", "N m", ... ("-" for dimensionless)
  bool rigid_body = false;      ///< I, mgCx, mgCy or offset
  bool structural = false;      ///< LuGre's delta[i] and K: chosen, never estimated
  bool positive = false;        ///< must be > 0 (sim::check_joint_model)
  bool stribeck_level = false;  ///< a LuGre Stribeck level Fs[i]
};

/// f(info, value) for the rigid-body parameters of `r` (any type with members I, mgCx, mgCy and
/// offset, of any scalar), in the table's order: I [kg m^2]; mgCx, mgCy [N m] (with gravity
/// terms); offset [N m] (with an offset).
template <class R, class F>
void for_each_rigid_joint_parameter(const JointStructure& st, R& r, F&& f) {
  f(JointParameterInfo{"I", "kg m^2", true, false, true, false}, r.I);
  if (st.gravity) {
    f(JointParameterInfo{"mgCx", "N m", true, false, false, false}, r.mgCx);
    f(JointParameterInfo{"mgCy", "N m", true, false, false, false}, r.mgCy);
  }
  if (st.offset) f(JointParameterInfo{"offset", "N m", true, false, false, false}, r.offset);
}

/// The rigid-body parameters of `r`, then the LuGre parameters of `p` (JointLuGre<T>::Params of
/// any scalar T): sigma0 [N m/rad], sigma1 [N m s/rad], Fc [N m], Fs[i] [N m] (i < n_stribeck),
/// Omega_s [rad/s] (with Stribeck terms), cv[i] [N m (s/rad)^(i+1)] (i < n_viscous), delta[i]
/// [-] (i < n_stribeck, structural), K [s/rad] (structural). The order depends on the
/// structure and the numbers of terms only.
template <class R, class P, class F>
void for_each_lugre_joint_parameter(const JointStructure& st, R& r, P& p, F&& f) {
  for_each_rigid_joint_parameter(st, r, f);
  const auto element = [](const char* name, std::size_t i) {
    return std::string(name) + "[" + std::to_string(i) + "]";
  };
  f(JointParameterInfo{"sigma0", "N m/rad", false, false, true, false}, p.sigma0);
  f(JointParameterInfo{"sigma1", "N m s/rad", false, false, true, false}, p.sigma1);
  f(JointParameterInfo{"Fc", "N m", false, false, true, false}, p.Fc);
  const auto ns = static_cast<std::size_t>(p.n_stribeck),
             nv = static_cast<std::size_t>(p.n_viscous);
  for (std::size_t i = 0; i < ns; ++i)
    f(JointParameterInfo{element("Fs", i), "N m", false, false, false, true}, p.Fs[i]);
  if (ns > 0) f(JointParameterInfo{"Omega_s", "rad/s", false, false, true, false}, p.Omega_s);
  for (std::size_t i = 0; i < nv; ++i)
    f(JointParameterInfo{element("cv", i), "N m (s/rad)^" + std::to_string(i + 1), false, false,
                         false, false},
      p.cv[i]);
  for (std::size_t i = 0; i < ns; ++i)
    f(JointParameterInfo{element("delta", i), "-", false, true, false, false}, p.delta[i]);
  f(JointParameterInfo{"K", "s/rad", false, true, false, false}, p.K);
}

/// The gravity torque mgCx*cos(q) - mgCy*sin(q) [N m] (0 without gravity terms).
inline double gravity_torque(const JointModel& m, double q) noexcept {
  return m.structure.gravity ? m.mgCx * std::cos(q) - m.mgCy * std::sin(q) : 0.0;
}

/// The rigid-body part I*qdd + tau_g(q) + offset [N m] (terms the structure leaves out are 0).
inline double rigid_body_torque(const JointModel& m, double q, double qdd) noexcept {
  return m.I * qdd + gravity_torque(m, q) + (m.structure.offset ? m.offset : 0.0);
}

/// Whether the friction has a state (LuGre).
inline bool is_dynamic(const JointModel& m) noexcept {
  return std::holds_alternative<JointLuGre<double>::Params>(m.friction);
}

/// The model's steady-state friction curve tau_ss(qd) [N m] (zdot = 0 for LuGre).
inline double steady_friction(const JointModel& m, double qd) noexcept {
  // get_if rather than std::visit, which may throw bad_variant_access.
  if (const auto* p = std::get_if<JointLuGre<double>::Params>(&m.friction))
    return JointLuGre<double>::steady_force(*p, qd);
  return StaticFriction<double>::steady_force(
      *std::get_if<StaticFriction<double>::Params>(&m.friction), qd);
}

/// Friction torque tau_f(qd, z) [N m] of the load-free model (z is ignored by static
/// friction; a load dependence is not included: applied_torque below).
inline double friction_torque(const JointModel& m, double qd, double z) noexcept {
  if (const auto* p = std::get_if<JointLuGre<double>::Params>(&m.friction))
    return JointLuGre<double>::force(*p, JointLuGre<double>::State{z}, qd);
  return StaticFriction<double>::force(*std::get_if<StaticFriction<double>::Params>(&m.friction),
                                       StaticFriction<double>::State{}, qd);
}

/// The model at temperature T [degC]: its levels scaled as JointModel::temperature says and no
/// temperature dependence left (std::invalid_argument where a linear law's scale is not
/// positive at T). `m` itself when it has none.
JointModel at_temperature(const JointModel& m, double T);

/// applied_torque below for LuGre friction with a load dependence: with B the load-free torque
/// (rigid body and load-free friction) and e = sigma0 z / g(qd), tau = B + mu e |tau| (mu of the
/// side of tau), so tau = B / (1 - mu e) where B >= 0 and B / (1 + mu e) otherwise; unique
/// because mu |e| < 1 (check_joint_model).
double loaded_lugre_torque(const JointModel& m, double q, double qd, double qdd, double z);

/// The applied torque that moves the joint along (q, qd, qdd) with bristle state z [N m]: the
/// rigid-body torque plus friction, with a load dependence solved for the torque it carries
/// (models/load_dependence.hpp, applied_torque; LuGre: loaded_lugre_torque). What the
/// identification predicts from measured motion: the measured torque is never an input of its
/// own prediction.
inline double applied_torque(const JointModel& m, double q, double qd, double qdd, double z) {
  if (m.load && is_dynamic(m)) return loaded_lugre_torque(m, q, qd, qdd, z);
  const double r = rigid_body_torque(m, q, qdd) + friction_torque(m, qd, z);
  return m.load ? frictionlab::applied_torque(*m.load, r, qd) : r;
}

/// The bristle state z driven by a sampled velocity linearly interpolated between its samples
/// (JointLuGre::step_linear: second order, bounded for any step), from z0 at t[0]: z[k] at
/// t[k]. All zeros for static friction. Used by the identification (the paper's step 3) and for
/// torque predictions from measured motion. A temperature law needs `temperature` [degC] at t;
/// each interval takes the levels at its mean temperature. (A load dependence does not move z.)
std::vector<double> bristle_state(const JointModel& m, std::span<const double> t,
                                  std::span<const double> qd, double z0 = 0.0,
                                  std::span<const double> temperature = {});

/// The applied torque along a measured motion and the bristle state under it.
struct JointInverse {
  std::vector<double> tau;  ///< applied_torque at every sample [N m]
  std::vector<double> z;    ///< the bristle state [rad] (zeros for static friction)
};

/// The applied torque that moves the joint along the motion (q, qd, qdd) sampled at t, from
/// z = 0 at t[0]: applied_torque at every sample with the model at the sample's temperature
/// (`temperature` [degC], needed with a law) and z from bristle_state.
JointInverse inverse_dynamics(const JointModel& m, std::span<const double> t,
                              std::span<const double> q, std::span<const double> qd,
                              std::span<const double> qdd,
                              std::span<const double> temperature = {});

/// Initial state of a simulation.
struct JointState {
  double q = 0;   ///< [rad]
  double qd = 0;  ///< [rad/s]
  double z = 0;   ///< bristle deflection [rad] (LuGre only)
};

struct JointSimOptions {
  /// Largest internal step [s]; each sample interval is split into ceil(interval / max_step)
  /// equal steps. 0: one step per sample interval.
  double max_step = 1e-3;
  /// Linear state feedback (a joint under a PD position controller): the applied torque is
  ///   tau = u(t) - kp q - kd qd,   u(t) = the sampled input (linear between samples),
  /// e.g. u = tau_ff + kp q_des + kd qd_des for tau = tau_ff + kp (q_des - q) + kd (qd_des - qd).
  /// kp [N m/rad], kd [N m s/rad] >= 0; 0, 0: open loop (u is the applied torque). In the
  /// Moreau step the feedback is implicit like the viscous term; TR-BDF2 includes it in its
  /// Newton Jacobian.
  double kp = 0, kd = 0;
};

/// A simulated trajectory at the input's sample times.
struct JointTrajectory {
  std::vector<double> t, q, qd, z, tau_f;  ///< [s], [rad], [rad/s], [rad], [N m]
  long steps = 0;                          ///< internal steps
  long unconverged_stages = 0;             ///< TR-BDF2 stages out of Newton corrections
};

/// Simulate the joint driven by the applied torque tau sampled at t (linear between samples),
/// from x0 at t[0] (see the header). A temperature dependence (JointModel::temperature) needs
/// `temperature` [degC] sampled at t (linear between samples; each Moreau step takes the levels
/// at its end, each TR-BDF2 stage of LuGre at its own time); a model without one ignores it. A load
/// dependence (JointModel::load) sets the Coulomb levels of each Moreau step from the applied
/// torque at its end, u(t_n+1) - kp q_n - kd qd_n (the feedback explicit in the load only). t
/// strictly increasing, at least 2 samples, all finite; model parameters valid
/// (models/validation.hpp) with I > 0.
JointTrajectory simulate_joint_model(const JointModel& m, std::span<const double> t,
                                     std::span<const double> tau, const JointState& x0,
                                     const JointSimOptions& opt = {},
                                     std::span<const double> temperature = {});

/// Forward sensitivities of a simulation (simulate_joint_model_sensitivity): the derivatives of
/// the simulated q and qd at every sample with respect to the model's parameters and the
/// initial state.
struct JointSensitivity {
  /// The columns: joint_sensitivity_parameters(m), then "q0" and "qd0".
  std::vector<std::string> names;
  int columns = 0;
  /// d q(t_k) / d column c at [k * columns + c]; likewise d qd(t_k) / d column c [rad/s per unit].
  std::vector<double> dq, dqd;
};

/// The parameters a LuGre joint's sensitivities are taken with respect to: the entries of
/// for_each_lugre_joint_parameter that are not structural, in its order (I, mgCx and mgCy,
/// offset, sigma0, sigma1, Fc, Fs[i], Omega_s, cv[i]). Empty for static friction.
std::vector<std::string> joint_sensitivity_parameters(const JointModel& m);

/// d z(t_k) / d theta of bristle_state(m, t, qd) from z0 = 0, at [k * P + c] for the P
/// parameters of joint_sensitivity_parameters (zero for the rigid body's), by forward-mode
/// differentiation (ceres::Jet) of every step. LuGre friction without a temperature law or a load
/// dependence only (std::invalid_argument otherwise).
std::vector<double> bristle_state_sensitivity(const JointModel& m, std::span<const double> t,
                                              std::span<const double> qd);

/// simulate_joint_model (LuGre friction) with forward sensitivities: the trajectory is the same
/// bit for bit, and `out` receives dq and dqd with respect to the parameters and (q0, qd0).
/// dz0[c] = d z0 / d theta_c (P entries; e.g. from bristle_state_sensitivity). Each TR-BDF2
/// stage G(Y, theta) = 0 is differentiated at its solution (implicit function theorem:
/// (I - d h f_y) S_Y = dB/dtheta + d h f_theta), with f_y and f_theta from one ceres::Jet pass
/// of the right-hand side at each stage: the derivative of the converged steps, exact up to
/// the Newton tolerance (docs/joint-identification.md, "oe"). Throws like simulate_joint_model,
/// and std::invalid_argument for static friction, a temperature law, a load dependence or a dz0
/// of the wrong size.
JointTrajectory simulate_joint_model_sensitivity(const JointModel& m, std::span<const double> t,
                                                 std::span<const double> tau, const JointState& x0,
                                                 std::span<const double> dz0,
                                                 const JointSimOptions& opt, JointSensitivity& out);

/// Throws std::invalid_argument naming the first invalid parameter of `m` ("joint model:
/// parameter 'I' must be > 0 (got 0)", "joint model: friction parameter 'sigma0' ...").
void check_joint_model(const JointModel& m);

}  // namespace frictionlab::sim
