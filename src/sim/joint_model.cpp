// frictionlab: simulation of an identified joint's equation of motion (equations and schemes:
// sim/joint_model.hpp, docs/joint-identification.md "Simulation").
#include "frictionlab/sim/joint_model.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/integrate/trbdf2.hpp"
#include "frictionlab/models/actuator_budgets.hpp"

namespace frictionlab::sim {
namespace {

using detail::Checker;

constexpr const char* kSys = "joint model";
constexpr int kDim = 3;
using Vec = Eigen::Matrix<double, kDim, 1>;
using Jet = RhsJet<kDim>;
using LG = JointLuGre<double>;

/// The sampled applied torque, linear between samples; the interval in use is set by the
/// driver before each step (the right-hand side is only evaluated inside it).
struct TorqueSegment {
  double t0 = 0, t1 = 1, tau0 = 0, tau1 = 0;

  template <class T>
  T operator()(const T& t) const {
    return T(tau0) + ((tau1 - tau0) / (t1 - t0)) * (t - t0);
  }
};

/// y = (q, qd, s), s = z / z_b (sim/joint_model.hpp).
struct LuGreJointRhs {
  const JointModel& m;
  LG::Params pd;
  JointLuGre<Jet>::Params pj;
  double zb;
  TorqueSegment tau;
  double kp = 0, kd = 0;  ///< feedback gains (JointSimOptions)

  template <class T>
  const typename JointLuGre<T>::Params& params() const {
    if constexpr (std::is_same_v<T, double>) {
      return pd;
    } else {
      static_assert(std::is_same_v<T, Jet>, "double or RhsJet<3> only");
      return pj;
    }
  }

  template <class T>
  void operator()(const T& t, const T* y, T* dy) const {
    using std::cos;
    using std::sin;
    const auto& p = params<T>();
    typename JointLuGre<T>::State st;
    st.z = y[2] * zb;
    const T F = JointLuGre<T>::force(p, st, y[1]);
    T rigid = T(m.structure.offset ? m.offset : 0.0);
    if (m.structure.gravity) rigid += m.mgCx * cos(y[0]) - m.mgCy * sin(y[0]);
    dy[0] = y[1];
    dy[1] = (tau(t) - kp * y[0] - kd * y[1] - rigid - F) / m.I;
    dy[2] = JointLuGre<T>::derivative(p, st, y[1]).z / zb;
  }
};

/// Number of equal steps that split an interval h so that none exceeds max_step.
long substeps(double h, double max_step) {
  if (!(max_step > 0)) return 1;
  const double n = std::ceil(h / max_step * (1 - 1e-12));
  return n < 1 ? 1 : static_cast<long>(n);
}

void check_inputs(std::span<const double> t, std::span<const double> tau, const JointState& x0,
                  const JointSimOptions& opt) {
  const Checker c{kSys};
  if (t.size() != tau.size())
    throw std::invalid_argument(std::string(kSys) + ": the time and torque samples differ in "
                                "number (" + std::to_string(t.size()) + " and " +
                                std::to_string(tau.size()) + ")");
  if (t.size() < 2)
    throw std::invalid_argument(std::string(kSys) + ": needs at least 2 samples (got " +
                                std::to_string(t.size()) + ")");
  for (std::size_t k = 0; k < t.size(); ++k) {
    c.finite("t[" + std::to_string(k) + "]", t[k]);
    c.finite("tau[" + std::to_string(k) + "]", tau[k]);
    if (k > 0 && !(t[k] > t[k - 1]))
      detail::bad(kSys, "t",
                  "must be strictly increasing (t[" + std::to_string(k) + "] = " + format_exact(t[k]) +
                      " after t[" + std::to_string(k - 1) + "] = " + format_exact(t[k - 1]) + ")");
  }
  c.finite("q0", x0.q);
  c.finite("qd0", x0.qd);
  c.finite("z0", x0.z);
  c.nonnegative("max_step", opt.max_step);
  c.nonnegative("kp", opt.kp);
  c.nonnegative("kd", opt.kd);
}

[[noreturn]] void not_finite(double t) {
  throw std::runtime_error(std::string(kSys) + ": state not finite after the step ending at t = " +
                           format_exact(t));
}

JointTrajectory simulate_lugre(const JointModel& m, const LG::Params& p,
                               std::span<const double> t, std::span<const double> tau,
                               const JointState& x0, const JointSimOptions& opt) {
  LuGreJointRhs rhs{m, p, cast_params<Jet>(p), LG::state_bound(p), {}, opt.kp, opt.kd};
  TrBdf2<kDim, LuGreJointRhs&> st(rhs, detail::kTrBdf2Newton);
  JointTrajectory out;
  const std::size_t n = t.size();
  out.t.assign(t.begin(), t.end());
  out.q.resize(n);
  out.qd.resize(n);
  out.z.resize(n);
  out.tau_f.resize(n);
  Vec y(x0.q, x0.qd, x0.z / rhs.zb);
  auto record = [&](std::size_t k) {
    out.q[k] = y[0];
    out.qd[k] = y[1];
    out.z[k] = y[2] * rhs.zb;
    out.tau_f[k] = LG::force(p, LG::State{out.z[k]}, y[1]);
  };
  record(0);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    rhs.tau = TorqueSegment{t[k], t[k + 1], tau[k], tau[k + 1]};
    const double h = t[k + 1] - t[k];
    const long ns = substeps(h, opt.max_step);
    const double hs = h / static_cast<double>(ns);
    for (long j = 0; j < ns; ++j) st.step(t[k] + static_cast<double>(j) * hs, y, hs);
    if (!y.allFinite()) not_finite(t[k + 1]);
    record(k + 1);
  }
  out.steps = st.steps();
  out.unconverged_stages = st.counters().unconverged;
  return out;
}

/// y = (q, qd) with a smooth static friction law (v_smooth > 0).
struct SmoothStaticJointRhs {
  using J2 = RhsJet<2>;
  const JointModel& m;
  StaticFriction<double>::Params pd;
  StaticFriction<J2>::Params pj;
  TorqueSegment tau;
  double kp = 0, kd = 0;  ///< feedback gains (JointSimOptions)

  template <class T>
  void operator()(const T& t, const T* y, T* dy) const {
    using std::cos;
    using std::sin;
    T F;
    if constexpr (std::is_same_v<T, double>) {
      F = StaticFriction<double>::steady_force(pd, y[1]);
    } else {
      static_assert(std::is_same_v<T, J2>, "double or RhsJet<2> only");
      F = StaticFriction<J2>::steady_force(pj, y[1]);
    }
    T rigid = T(m.structure.offset ? m.offset : 0.0);
    if (m.structure.gravity) rigid += m.mgCx * cos(y[0]) - m.mgCy * sin(y[0]);
    dy[0] = y[1];
    dy[1] = (tau(t) - kp * y[0] - kd * y[1] - rigid - F) / m.I;
  }
};

JointTrajectory simulate_smooth_static(const JointModel& m,
                                       const StaticFriction<double>::Params& p,
                                       std::span<const double> t, std::span<const double> tau,
                                       const JointState& x0, const JointSimOptions& opt) {
  using J2 = RhsJet<2>;
  StaticFriction<J2>::Params pj;
  pj.curve = StribeckCurve<J2>{J2(p.curve.Fc_pos), J2(p.curve.Fc_neg), J2(p.curve.Fs_pos),
                               J2(p.curve.Fs_neg), J2(p.curve.vs),     J2(p.curve.alpha),
                               p.curve.shape};
  pj.sigma2 = J2(p.sigma2);
  pj.v_smooth = J2(p.v_smooth);
  pj.smoothing = p.smoothing;
  SmoothStaticJointRhs rhs{m, p, pj, {}, opt.kp, opt.kd};
  TrBdf2<2, SmoothStaticJointRhs&> st(rhs, detail::kTrBdf2Newton);
  JointTrajectory out;
  const std::size_t n = t.size();
  out.t.assign(t.begin(), t.end());
  out.q.resize(n);
  out.qd.resize(n);
  out.z.assign(n, 0.0);
  out.tau_f.resize(n);
  Eigen::Vector2d y(x0.q, x0.qd);
  auto record = [&](std::size_t k) {
    out.q[k] = y[0];
    out.qd[k] = y[1];
    out.tau_f[k] = StaticFriction<double>::steady_force(p, y[1]);
  };
  record(0);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    rhs.tau = TorqueSegment{t[k], t[k + 1], tau[k], tau[k + 1]};
    const double h = t[k + 1] - t[k];
    const long ns = substeps(h, opt.max_step);
    const double hs = h / static_cast<double>(ns);
    for (long j = 0; j < ns; ++j) st.step(t[k] + static_cast<double>(j) * hs, y, hs);
    if (!y.allFinite()) not_finite(t[k + 1]);
    record(k + 1);
  }
  out.steps = st.steps();
  out.unconverged_stages = st.counters().unconverged;
  return out;
}

JointTrajectory simulate_static(const JointModel& m, const StaticFriction<double>::Params& p,
                                std::span<const double> t, std::span<const double> tau,
                                const JointState& x0, const JointSimOptions& opt) {
  if (p.v_smooth > 0) return simulate_smooth_static(m, p, t, tau, x0, opt);
  const double offset = m.structure.offset ? m.offset : 0.0;
  JointTrajectory out;
  const std::size_t n = t.size();
  out.t.assign(t.begin(), t.end());
  out.q.resize(n);
  out.qd.resize(n);
  out.z.assign(n, 0.0);
  out.tau_f.resize(n);
  double q = x0.q, qd = x0.qd, Ff = StaticFriction<double>::steady_force(p, qd);
  out.q[0] = q;
  out.qd[0] = qd;
  out.tau_f[0] = Ff;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const TorqueSegment seg{t[k], t[k + 1], tau[k], tau[k + 1]};
    const double h = t[k + 1] - t[k];
    const long ns = substeps(h, opt.max_step);
    const double hs = h / static_cast<double>(ns);
    for (long j = 0; j < ns; ++j) {
      const double t1 = t[k] + static_cast<double>(j + 1) * hs;
      // Moreau step (header): Coulomb level of the current side, frozen over the step; the
      // feedback -kp q - kd qd implicit like the viscous term (q+ = q + hs qd+).
      const double b = m.I * qd + hs * (seg(t1) - opt.kp * q - gravity_torque(m, q) - offset);
      const double Fc_pos = stribeck_g_side(p.curve, qd, true);
      const double Fc_neg = stribeck_g_side(p.curve, qd, false);
      const double stop = b / hs;  // torque that brings the joint to rest in this step
      const double coulomb = stop > 0 ? clip_friction(stop, Fc_pos) : clip_friction(stop, Fc_neg);
      qd = (b - hs * coulomb) / (m.I + hs * (p.sigma2 + opt.kd) + hs * hs * opt.kp);
      q += hs * qd;
      Ff = coulomb + p.sigma2 * qd;
      ++out.steps;
    }
    if (!std::isfinite(q) || !std::isfinite(qd)) not_finite(t[k + 1]);
    out.q[k + 1] = q;
    out.qd[k + 1] = qd;
    out.tau_f[k + 1] = Ff;
  }
  return out;
}

}  // namespace

void check_joint_model(const JointModel& m) {
  const Checker c{kSys};
  c.positive("I", m.I);
  c.finite("mgCx", m.mgCx);
  c.finite("mgCy", m.mgCy);
  c.finite("offset", m.offset);
  std::visit([](const auto& p) { detail::check_friction(kSys, p); }, m.friction);
}

std::vector<double> bristle_state(const JointModel& m, std::span<const double> t,
                                  std::span<const double> qd, double z0) {
  std::vector<double> z(t.size(), 0.0);
  const auto* p = std::get_if<LG::Params>(&m.friction);
  if (p == nullptr || t.empty()) return z;
  if (qd.size() != t.size())
    throw std::invalid_argument(std::string(kSys) + ": the time and velocity samples differ in "
                                "number (" + std::to_string(t.size()) + " and " +
                                std::to_string(qd.size()) + ")");
  LG::State x{z0};
  z[0] = z0;
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    x = LG::step_linear(*p, x, qd[k], qd[k + 1], t[k + 1] - t[k]);
    z[k + 1] = x.z;
  }
  return z;
}

JointTrajectory simulate_joint_model(const JointModel& m, std::span<const double> t,
                                     std::span<const double> tau, const JointState& x0,
                                     const JointSimOptions& opt) {
  check_joint_model(m);
  check_inputs(t, tau, x0, opt);
  if (const auto* p = std::get_if<LG::Params>(&m.friction))
    return simulate_lugre(m, *p, t, tau, x0, opt);
  return simulate_static(m, std::get<StaticFriction<double>::Params>(m.friction), t, tau, x0,
                         opt);
}

}  // namespace frictionlab::sim
