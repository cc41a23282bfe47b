// Synthetic joint records for the sr3 tests and benchmark: a revolute joint (04_* eq. 1 with an
// offset) with JointLuGre friction (any number of Stribeck exponentials, sign or tanh), tracking
// a reference under PD control with model-based feedforward, like a robot joint during an
// identification run (the measured torque is the controller's output):
//
//   tau   = Kp (q_ref - q) + Kd (qd_ref - qd) + I qdd_ref + mgCx cos(q_ref) - mgCy sin(q_ref) +
//   offset I qdd = tau - mgCx cos(q) + mgCy sin(q) - offset - tau_f(qd, z) zdot  =
//   JointLuGre::derivative (eq. 3)
//
// The reference is the paper's kind of excitation (04_* sec. 5): back-and-forth moves at
// constant target velocities (a list of speeds, each move out and back), with smooth ramps
// (velocity v (1 - cos(pi t / t_ramp)) / 2, so qd_ref passes through zero at every reversal).
// Integrated with fixed-step TR-BDF2 (integrate/trbdf2.hpp, full Newton, L-stable) at step h
// on the state (q, qd, z / z_scale), z_scale = g_max / sigma0, sampled every 1/rate s. The
// measurements: q + N(0, noise_q), tau + N(0, noise_tau); qd and qdd from the noisy q by
// Savitzky-Golay (signal/differentiate.hpp), or the exact simulated values.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "frictionlab/identify/joint.hpp"
#include "frictionlab/integrate/trbdf2.hpp"
#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/signal/differentiate.hpp"

namespace frictionlab::testing {

struct SyntheticJoint {
  double I = 0.05;      ///< [kg m^2]
  double mgCx = 0.3;    ///< [N m]
  double mgCy = -2.0;   ///< [N m]  (tau_g = mgCx cos q - mgCy sin q)
  double offset = 0.1;  ///< [N m]
  JointLuGre<double>::Params friction = default_friction();

  static JointLuGre<double>::Params default_friction() {
    return {.sigma0 = 2e3,
            .sigma1 = 3.0,
            .Fc = 0.3,
            .n_viscous = 1,
            .cv = {0.1},
            .n_stribeck = 1,
            .Fs = {0.2},
            .delta = {2.0},
            .Omega_s = 0.05,
            .K = 0};
  }
};

struct SyntheticOptions {
  double duration = 0;      ///< [s]; 0: the end of the moves plus 0.2 s
  double rate = 1000;       ///< sample rate [Hz]
  double h = 1e-4;          ///< integration step [s]
  double noise_q = 1e-5;    ///< position noise std [rad]
  double noise_tau = 0.01;  ///< torque noise std [N m]
  unsigned seed = 1;
  bool exact_derivatives = false;  ///< qd, qdd from the simulation instead of Savitzky-Golay
  int sg_window = 31;
  int sg_order = 3;
  double Kp = 200;  ///< [N m/rad]
  double Kd = 6;    ///< [N m s/rad]
  /// Target speeds of the moves [rad/s]; each gives a move out and one back.
  std::vector<double> speeds = {0.02, 0.05, 0.1, 0.3, 1.0, 2.0};
  double move_time = 2.0;   ///< duration of the constant-speed part of a move, at most [s]
  double max_travel = 2.0;  ///< largest travel of a move [rad]
  double ramp_time = 0.25;  ///< acceleration and deceleration time [s]
};

/// The reference of SyntheticOptions: the moves, then rest; duration() is where it ends.
class MoveProfile {
 public:
  explicit MoveProfile(const SyntheticOptions& o);
  double duration() const { return t_end_; }
  void eval(double t, double& q, double& qd, double& qdd) const;

 private:
  struct Move {
    double t0, v, tc, q0;  // start, signed speed, constant part, start position
  };
  std::vector<Move> moves_;
  double tr_ = 0.25, t_end_ = 0, q_end_ = 0;
};

struct SyntheticRecord {
  identify::JointData data;  ///< the "measured" record
  std::vector<double> qd_true, qdd_true, z_true, tau_true;
};

inline MoveProfile::MoveProfile(const SyntheticOptions& o) : tr_(o.ramp_time) {
  double t = 0.2, q = 0;  // start at rest for 0.2 s
  for (const double v : o.speeds) {
    const double travel = std::min(o.max_travel, v * (o.move_time + tr_));
    const double tc = travel / v - tr_;
    for (const double sgn : {1.0, -1.0}) {
      moves_.push_back({t, sgn * v, tc, q});
      t += tc + 2 * tr_;
      q += sgn * travel;
    }
  }
  t_end_ = t;
  q_end_ = q;
}

inline void MoveProfile::eval(double t, double& q, double& qd, double& qdd) const {
  for (const Move& m : moves_) {
    const double T = m.tc + 2 * tr_;
    if (t < m.t0 || t >= m.t0 + T) continue;
    const double s = t - m.t0;
    const double w = M_PI / tr_;
    if (s < tr_) {  // ramp up: qd = v (1 - cos(w s)) / 2
      qd = m.v * 0.5 * (1 - std::cos(w * s));
      qdd = m.v * 0.5 * w * std::sin(w * s);
      q = m.q0 + m.v * 0.5 * (s - std::sin(w * s) / w);
    } else if (s < tr_ + m.tc) {
      qd = m.v;
      qdd = 0;
      q = m.q0 + m.v * 0.5 * tr_ + m.v * (s - tr_);
    } else {  // ramp down: qd = v (1 + cos(w u)) / 2, u = s - tr - tc
      const double u = s - tr_ - m.tc;
      qd = m.v * 0.5 * (1 + std::cos(w * u));
      qdd = -m.v * 0.5 * w * std::sin(w * u);
      q = m.q0 + m.v * 0.5 * tr_ + m.v * m.tc + m.v * 0.5 * (u + std::sin(w * u) / w);
    }
    return;
  }
  q = t < moves_.front().t0 ? 0.0 : q_end_;
  qd = 0;
  qdd = 0;
}

namespace detail {

struct PdJointRhs {
  SyntheticJoint j;
  SyntheticOptions o;
  MoveProfile ref;
  double z_scale = 1;

  /// The controller's torque; the reference is evaluated in double (TR-BDF2 uses df/dy only).
  template <class T>
  T torque(const T& t, const T& q, const T& qd) const {
    double qr, qdr, qddr;
    ref.eval(double_value(t), qr, qdr, qddr);
    return o.Kp * (qr - q) + o.Kd * (qdr - qd) +
           (j.I * qddr + j.mgCx * std::cos(qr) - j.mgCy * std::sin(qr) + j.offset);
  }

  template <class T>
  void operator()(const T& t, const T* y, T* f) const {
    using std::cos;
    using std::sin;
    using M = JointLuGre<T>;
    const typename M::Params p = cast_params<T>(j.friction);
    const T q = y[0], qd = y[1], z = y[2] * z_scale;
    const T zdot = M::derivative(p, typename M::State{z}, qd).z;
    const T tf = p.sigma0 * z + p.sigma1 * zdot + M::viscous(p, qd);
    const T tau = torque(t, q, qd);
    f[0] = qd;
    f[1] = (tau - j.mgCx * cos(q) + j.mgCy * sin(q) - j.offset - tf) / j.I;
    f[2] = zdot / z_scale;
  }
};

}  // namespace detail

inline SyntheticRecord simulate_pd_joint(const SyntheticJoint& j, const SyntheticOptions& o) {
  using M = JointLuGre<double>;
  detail::PdJointRhs rhs{j, o, MoveProfile(o), M::state_bound(j.friction)};
  const int sub = static_cast<int>(std::lround(1.0 / (o.rate * o.h)));
  if (sub < 1 || std::abs(sub * o.h * o.rate - 1.0) > 1e-9)
    throw std::invalid_argument("simulate_pd_joint: 1/rate must be a multiple of h");
  NewtonSettings ns;
  ns.atol = 1e-12;
  ns.rtol = 1e-10;
  ns.max_iterations = 20;
  TrBdf2<3, detail::PdJointRhs> integ(rhs, ns);
  Eigen::Vector3d y(0.0, 0.0, 0.0);  // at rest, relaxed bristles
  const double duration = o.duration > 0 ? o.duration : rhs.ref.duration() + 0.2;
  const long n = std::lround(duration * o.rate) + 1;
  SyntheticRecord rec;
  auto& d = rec.data;
  d.source = "synthetic-joint";
  std::mt19937 rng(o.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (long k = 0; k < n; ++k) {
    const double t = static_cast<double>(k) / o.rate;
    double f[3];
    rhs(t, y.data(), f);
    const double tau = rhs.torque(t, y[0], y[1]);
    d.t.push_back(t);
    d.q.push_back(y[0] + o.noise_q * normal(rng));
    d.tau.push_back(tau + o.noise_tau * normal(rng));
    rec.qd_true.push_back(y[1]);
    rec.qdd_true.push_back(f[1]);
    rec.z_true.push_back(y[2] * rhs.z_scale);
    rec.tau_true.push_back(tau);
    if (k + 1 < n)
      for (int s = 0; s < sub; ++s) integ.step(t + s * o.h, y, o.h);
  }
  if (o.exact_derivatives) {
    d.qd = rec.qd_true;
    d.qdd = rec.qdd_true;
  } else {
    signal::DiffOptions dopt;
    dopt.window = o.sg_window;
    dopt.polyorder = o.sg_order;
    const signal::Derivatives der = signal::differentiate(d.t, d.q, dopt);
    d.qd = der.first;
    d.qdd = der.second;
  }
  return rec;
}

}  // namespace frictionlab::testing
