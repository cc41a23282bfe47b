// frictionlab: simulation of an identified joint's equation of motion (equations and schemes:
// sim/joint_model.hpp, docs/joint-identification.md "Simulation").
#include "frictionlab/sim/joint_model.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/integrate/trbdf2.hpp"
#include "frictionlab/models/actuator_budgets.hpp"
#include "frictionlab/models/joint_lugre/temperature.hpp"
#include "frictionlab/models/stribeck/temperature.hpp"

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

/// The joint LuGre friction [N m] with bristle state z at velocity qd under the applied torque
/// tau with a load dependence (sim/joint_model.hpp, JointModel::load): the load-free force plus
/// the rise on the side of the motion (at rest on the side tau pushes towards) times the
/// bristles' elastic force relative to the level, rise * sigma0 z / g(qd).
template <class T>
T loaded_lugre_force(const typename JointLuGre<T>::Params& p, const LoadDependence<double>& load,
                     const T& z, const T& qd, const T& tau) {
  const bool positive = qd > T(0) || (qd == T(0) && tau > T(0));
  const T rise = load_rise(LoadDependence<T>{T(load.mu_drive), T(load.mu_back)}, tau, positive);
  return JointLuGre<T>::force(p, typename JointLuGre<T>::State{z}, qd) +
         rise * p.sigma0 * z / JointLuGre<T>::g(p, qd);
}

/// y = (q, qd, s), s = z / z_b (sim/joint_model.hpp).
struct LuGreJointRhs {
  const JointModel& m;
  LG::Params pd;
  JointLuGre<Jet>::Params pj;
  double zb;
  TorqueSegment tau;
  double kp = 0, kd = 0;  ///< feedback gains (JointSimOptions)
  /// A temperature law (m.temperature) and the temperature, linear between samples like the
  /// torque: the levels at time t are scaled by the law at temp(t).
  const TemperatureDependence<double>* law = nullptr;
  TorqueSegment temp;
  /// A load dependence (m.load): the friction raised under the applied torque at the state,
  /// tau(t) - kp q - kd qd (loaded_lugre_force, at the temperature's levels).
  const LoadDependence<double>* load = nullptr;

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
    if (law == nullptr && load == nullptr) return evaluate(params<T>(), t, y, dy);
    typename JointLuGre<T>::Params p = params<T>();
    if (law != nullptr) {
      const T dT = temp(t) - law->T_ref;
      scale_levels(p, temperature_scale(law->law, T(law->kT), dT),
                   temperature_scale(law->law, T(law->kT_v), dT));
    }
    evaluate(p, t, y, dy);
  }

  template <class T>
  void evaluate(const typename JointLuGre<T>::Params& p, const T& t, const T* y, T* dy) const {
    using std::cos;
    using std::sin;
    typename JointLuGre<T>::State st;
    st.z = y[2] * zb;
    const T F = load == nullptr
                    ? JointLuGre<T>::force(p, st, y[1])
                    : loaded_lugre_force<T>(p, *load, st.z, y[1], tau(t) - kp * y[0] - kd * y[1]);
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

/// The samples of a channel `what` that must come one per time sample.
void check_channel(std::span<const double> t, std::span<const double> x, const char* what) {
  if (x.size() != t.size())
    throw std::invalid_argument(std::string(kSys) + ": the time and " + what +
                                " samples differ in number (" + std::to_string(t.size()) + " and " +
                                std::to_string(x.size()) + ")");
}

void check_inputs(std::span<const double> t, std::span<const double> tau, const JointState& x0,
                  const JointSimOptions& opt) {
  const Checker c{kSys};
  check_channel(t, tau, "torque");
  if (t.size() < 2)
    throw std::invalid_argument(std::string(kSys) + ": needs at least 2 samples (got " +
                                std::to_string(t.size()) + ")");
  for (std::size_t k = 0; k < t.size(); ++k) {
    c.finite("t[" + std::to_string(k) + "]", t[k]);
    c.finite("tau[" + std::to_string(k) + "]", tau[k]);
    if (k > 0 && !(t[k] > t[k - 1]))
      detail::bad(kSys, "t",
                  "must be strictly increasing (t[" + std::to_string(k) +
                      "] = " + format_exact(t[k]) + " after t[" + std::to_string(k - 1) +
                      "] = " + format_exact(t[k - 1]) + ")");
  }
  c.finite("q0", x0.q);
  c.finite("qd0", x0.qd);
  c.finite("z0", x0.z);
  c.nonnegative("max_step", opt.max_step);
  c.nonnegative("kp", opt.kp);
  c.nonnegative("kd", opt.kd);
}

/// The temperature samples of a temperature-dependent model: one per time sample, finite.
void check_temperature(std::span<const double> t, std::span<const double> temperature) {
  if (temperature.size() != t.size())
    throw std::invalid_argument(std::string(kSys) +
                                ": the friction depends on the temperature and needs one "
                                "temperature sample per time sample (got " +
                                std::to_string(temperature.size()) + " for " +
                                std::to_string(t.size()) + ")");
  const Checker c{kSys};
  for (std::size_t k = 0; k < t.size(); ++k)
    c.finite("temperature[" + std::to_string(k) + "]", temperature[k]);
}

[[noreturn]] void not_finite(double t) {
  throw std::runtime_error(std::string(kSys) +
                           ": state not finite after the step ending at t = " + format_exact(t));
}

/// A joint model's friction parameters p at temperature T [degC] under `law` (params_at,
/// checks.hpp), errors naming the joint model.
template <class P>
P friction_at_temperature(const P& p, const TemperatureDependence<double>& law, double T) {
  return detail::params_at(p, law, T, kSys);
}

/// A load dependence on joint LuGre friction: mu g_max / g_min < 1 for mu_drive and mu_back
/// (|sigma0 z| <= g_max and g >= g_min, so the elastic ratio e of loaded_lugre_force stays below
/// g_max / g_min): at mu |e| >= 1 a harder push could move the joint less, and the torque of a
/// measured motion would not be unique. std::invalid_argument naming the coefficient.
void check_lugre_load(const LG::Params& p, const LoadDependence<double>& load) {
  const double ratio = LG::g_max(p) / LG::g_min(p);
  for (const auto& [name, mu] : {std::pair{"mu_drive", load.mu_drive}, {"mu_back", load.mu_back}})
    if (!(mu * ratio < 1))
      detail::bad(kSys, name,
                  "must be < g_min / g_max = " + format_exact(1 / ratio) +
                      " for LuGre friction (got " + format_exact(mu) +
                      "): beyond it the load could raise the friction faster than the torque");
}

/// No sensitivities (simulate_lugre's plain form).
struct NoSensitivity {
  void start(double /*t*/, const Vec& /*y*/, const TorqueSegment& /*tau*/) {}
  template <class Stepper>
  void step(double /*t*/, const Stepper& /*st*/, const Vec& /*y1*/, double /*h*/,
            const TorqueSegment& /*tau*/) {}
  void record(std::size_t /*k*/) {}
};

/// TR-BDF2 on y = (q, qd, s) (header). A temperature law takes the levels at the temperature
/// (one sample per time sample, linear between them) at every stage.
template <class Sens = NoSensitivity>
JointTrajectory simulate_lugre(const JointModel& m, const LG::Params& p, std::span<const double> t,
                               std::span<const double> tau, const JointState& x0,
                               const JointSimOptions& opt, Sens&& sens = NoSensitivity{},
                               std::span<const double> temperature = {}) {
  LuGreJointRhs rhs{
      m, p, cast_params<Jet>(p), LG::state_bound(p), {}, opt.kp, opt.kd, nullptr, {}, nullptr};
  if (m.temperature) {
    rhs.law = &*m.temperature;
    for (double T : temperature) detail::check_scale_positive(kSys, *m.temperature, T);
  }
  if (m.load) rhs.load = &*m.load;
  const auto T_at = [&](std::size_t k) { return temperature.empty() ? 0.0 : temperature[k]; };
  // The friction at sample k with the state (q, qd, z): the levels at its temperature, under
  // its applied torque.
  const auto friction = [&](std::size_t k, double q, double qd, double z) {
    if (!m.temperature && !m.load) return LG::force(p, LG::State{z}, qd);
    LG::Params pk = m.temperature ? friction_at_temperature(p, *m.temperature, T_at(k)) : p;
    if (!m.load) return LG::force(pk, LG::State{z}, qd);
    return loaded_lugre_force<double>(pk, *m.load, z, qd, tau[k] - opt.kp * q - opt.kd * qd);
  };
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
    out.tau_f[k] = friction(k, y[0], y[1], out.z[k]);
    sens.record(k);
  };
  sens.start(t[0], y, TorqueSegment{t[0], t[1], tau[0], tau[1]});
  record(0);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    rhs.tau = TorqueSegment{t[k], t[k + 1], tau[k], tau[k + 1]};
    rhs.temp = TorqueSegment{t[k], t[k + 1], T_at(k), T_at(k + 1)};
    const double h = t[k + 1] - t[k];
    const long ns = substeps(h, opt.max_step);
    const double hs = h / static_cast<double>(ns);
    for (long j = 0; j < ns; ++j) {
      const double tj = t[k] + static_cast<double>(j) * hs;
      st.step(tj, y, hs);
      sens.step(tj, st, y, hs, rhs.tau);
    }
    if (!y.allFinite()) not_finite(t[k + 1]);
    record(k + 1);
  }
  out.steps = st.steps();
  out.unconverged_stages = st.counters().unconverged;
  return out;
}

/// The model's parameters as ceres::Jet<double, W> seeded for differentiation: the parameter
/// at position c of joint_sensitivity_parameters has the dual part `first + c` (rigid body too,
/// zero derivatives where they do not enter).
template <int W>
struct SeededJoint {
  using J = ceres::Jet<double, W>;
  J I, mgCx, mgCy, offset;
  typename JointLuGre<J>::Params p;
  int count = 0;  ///< parameters seeded

  SeededJoint(const JointModel& m, const LG::Params& pd, int first)
      : I(m.I), mgCx(m.mgCx), mgCy(m.mgCy), offset(m.offset), p(cast_params<J>(pd)) {
    int c = first;
    for_each_lugre_joint_parameter(m.structure, *this, p, [&c](const JointParameterInfo& in, J& x) {
      if (!in.structural) x = J(x.a, c++);
    });
    count = c - first;
  }
};

/// Forward sensitivities S = dy/dtheta of the TR-BDF2 steps of simulate_lugre (y = (q, qd, s),
/// theta = the model's parameters, then q0 and qd0). A stage solves
/// G(Y, theta) = Y - dh f(t_s, Y, theta) - B(theta) = 0; differentiating the solution,
///   (I - dh f_y(Y)) S_Y = dB/dtheta + dh f_theta(Y),
/// with dB/dtheta = S_n + dh (f_y S_n + f_theta) at (t_n, y_n) for the trapezoidal stage and
/// kC S_g - kCn S_n for the BDF2 stage (integrate/trbdf2.hpp). f_y and f_theta at a point come
/// from one Jet pass with the 3 states and the parameters as dual parts (W >= 3 + P); those at
/// (t_n, y_n) are the previous step's at its end (they do not depend on the applied torque but
/// through df/dI, which takes the torque at the same time from the neighbouring interval).
template <int W>
class LuGreJointSensitivity {
 public:
  using J = ceres::Jet<double, W>;
  /// Sensitivity columns: P <= W - 3 parameters and (q0, qd0); fixed size (unused columns stay
  /// zero) so that the 3 x 3 products and solves unroll.
  static constexpr int kCols = W - 1;
  using Mat = Eigen::Matrix<double, kDim, kCols>;

  LuGreJointSensitivity(const JointModel& m, const LG::Params& p, std::span<const double> dz0,
                        double z0, const JointSimOptions& opt, JointSensitivity& out, std::size_t n)
      : m_(m),
        sj_(m, p, kDim),
        zb_(JointLuGre<J>::state_bound(sj_.p)),
        kp_(opt.kp),
        kd_(opt.kd),
        out_(out) {
    P_ = sj_.count;
    C_ = P_ + 2;
    S_.setZero();
    fth_n_.setZero();
    fth_.setZero();
    // s0 = z0 / z_b: ds0 = dz0 / z_b - z0 dz_b / z_b^2.
    const double zb = zb_.a;
    for (int c = 0; c < P_; ++c)
      S_(2, c) = dz0[static_cast<std::size_t>(c)] / zb - z0 * zb_.v[kDim + c] / (zb * zb);
    S_(0, P_) = 1;
    S_(1, P_ + 1) = 1;
    out_.columns = C_;
    out_.dq.assign(n * static_cast<std::size_t>(C_), 0.0);
    out_.dqd.assign(n * static_cast<std::size_t>(C_), 0.0);
  }

  void start(double t, const Vec& y, const TorqueSegment& tau) {
    linearise(tau(t), y, fy_n_, fth_n_);
  }

  template <class Stepper>
  void step(double t, const Stepper& st, const Vec& y1, double h, const TorqueSegment& tau) {
    using T = std::decay_t<Stepper>;
    const double dh = T::kD * h;
    // Trapezoidal stage at t + gamma h. (3 x 3 matrices: the closed-form inverse and
    // coefficient-wise products, which unroll, instead of an LU and Eigen's blocked GEMM.)
    rhs_ = S_ + dh * (fy_n_.lazyProduct(S_) + fth_n_);
    linearise(tau(t + T::kGamma * h), st.last_stage(), fy_, fth_);
    rhs_ += dh * fth_;
    inv_ = (Eigen::Matrix3d::Identity() - dh * fy_).inverse();
    Sg_ = inv_.lazyProduct(rhs_);
    // BDF2 stage at t + h.
    rhs_ = T::kC * Sg_ - T::kCn * S_;
    linearise(tau(t + h), y1, fy_n_, fth_n_);
    rhs_ += dh * fth_n_;
    inv_ = (Eigen::Matrix3d::Identity() - dh * fy_n_).inverse();
    S_ = inv_.lazyProduct(rhs_);
  }

  void record(std::size_t k) {
    const auto row = k * static_cast<std::size_t>(C_);
    for (int c = 0; c < C_; ++c) {
      out_.dq[row + static_cast<std::size_t>(c)] = S_(0, c);
      out_.dqd[row + static_cast<std::size_t>(c)] = S_(1, c);
    }
  }

 private:
  /// f_y and f_theta at (y, with the applied torque tau) by one Jet pass (the right-hand side
  /// of LuGreJointRhs with the parameters as Jets).
  void linearise(double tau, const Vec& y, Eigen::Matrix3d& fy, Mat& fth) const {
    using std::cos;
    using std::sin;
    const J q(y[0], 0), qd(y[1], 1), s(y[2], 2);
    typename JointLuGre<J>::State st;
    st.z = s * zb_;
    const J F = JointLuGre<J>::force(sj_.p, st, qd);
    J rigid = m_.structure.offset ? sj_.offset : J(0.0);
    if (m_.structure.gravity) rigid += sj_.mgCx * cos(q) - sj_.mgCy * sin(q);
    std::array<J, kDim> f;
    f[0] = qd;
    f[1] = (J(tau) - kp_ * q - kd_ * qd - rigid - F) / sj_.I;
    f[2] = JointLuGre<J>::derivative(sj_.p, st, qd).z / zb_;
    for (int i = 0; i < kDim; ++i) {
      for (int j = 0; j < kDim; ++j) fy(i, j) = f[static_cast<std::size_t>(i)].v[j];
      for (int c = 0; c < P_; ++c) fth(i, c) = f[static_cast<std::size_t>(i)].v[kDim + c];
    }
  }

  const JointModel& m_;
  SeededJoint<W> sj_;
  J zb_;
  double kp_, kd_;
  JointSensitivity& out_;
  int P_ = 0, C_ = 0;
  Mat S_, Sg_, rhs_, fth_n_, fth_;
  Eigen::Matrix3d fy_n_, fy_, inv_;
};

/// Calls f.template operator()<W>() with the narrowest Jet width W that holds `duals` dual
/// parts (the widest joint model has 32 parameters; 3 states on top).
template <class F>
decltype(auto) with_jet_width(int duals, F&& f) {
  if (duals <= 12) return f.template operator()<12>();
  if (duals <= 16) return f.template operator()<16>();
  if (duals <= 24) return f.template operator()<24>();
  if (duals <= 36) return f.template operator()<36>();
  throw std::invalid_argument(std::string(kSys) + ": too many parameters to differentiate (" +
                              std::to_string(duals) + " dual parts)");
}

/// The trajectory of a joint with static friction over the times t: t copied, q, qd and
/// tau_f sized, z = 0 (no state).
JointTrajectory static_trajectory(std::span<const double> t) {
  JointTrajectory out;
  out.t.assign(t.begin(), t.end());
  out.q.resize(t.size());
  out.qd.resize(t.size());
  out.z.assign(t.size(), 0.0);
  out.tau_f.resize(t.size());
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

JointTrajectory simulate_smooth_static(const JointModel& m, const StaticFriction<double>::Params& p,
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
  JointTrajectory out = static_trajectory(t);
  const std::size_t n = t.size();
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

JointTrajectory simulate_static(const JointModel& m, const StaticFriction<double>::Params& p0,
                                std::span<const double> t, std::span<const double> tau,
                                std::span<const double> temperature, const JointState& x0,
                                const JointSimOptions& opt) {
  if (p0.v_smooth > 0) return simulate_smooth_static(m, p0, t, tau, x0, opt);
  const double offset = m.structure.offset ? m.offset : 0.0;
  // The friction at the step's end temperature (linear between samples); p0 without one.
  const auto friction_at = [&](const TorqueSegment& T, double t1) {
    return m.temperature ? friction_at_temperature(p0, *m.temperature, T(t1)) : p0;
  };
  JointTrajectory out = static_trajectory(t);
  const std::size_t n = t.size();
  const auto T_at = [&](std::size_t k) { return temperature.empty() ? 0.0 : temperature[k]; };
  double q = x0.q, qd = x0.qd;
  double Ff = StaticFriction<double>::steady_force(friction_at({0, 1, T_at(0), T_at(0)}, 0), qd);
  out.q[0] = q;
  out.qd[0] = qd;
  out.tau_f[0] = Ff;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const TorqueSegment seg{t[k], t[k + 1], tau[k], tau[k + 1]};
    const TorqueSegment temp{t[k], t[k + 1], T_at(k), T_at(k + 1)};
    const double h = t[k + 1] - t[k];
    const long ns = substeps(h, opt.max_step);
    const double hs = h / static_cast<double>(ns);
    for (long j = 0; j < ns; ++j) {
      const double t1 = t[k] + static_cast<double>(j + 1) * hs;
      const StaticFriction<double>::Params p = friction_at(temp, t1);
      // Moreau step (header): Coulomb level of the current side, frozen over the step; the
      // feedback -kp q - kd qd implicit like the viscous term (q+ = q + hs qd+).
      const double applied = seg(t1) - opt.kp * q;
      const double b = m.I * qd + hs * (applied - gravity_torque(m, q) - offset);
      double Fc_pos = stribeck_g_side(p.curve, qd, true);
      double Fc_neg = stribeck_g_side(p.curve, qd, false);
      if (m.load) {  // the levels under the step's load (header: feedback explicit)
        Fc_pos += load_rise(*m.load, applied - opt.kd * qd, true);
        Fc_neg += load_rise(*m.load, applied - opt.kd * qd, false);
      }
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
  if (m.load) {
    c.nonnegative("mu_drive", m.load->mu_drive);
    if (!(m.load->mu_drive < 1))
      detail::bad(kSys, "mu_drive",
                  "must be < 1 (got " + format_exact(m.load->mu_drive) +
                      "): at 1 the friction grows as fast as the torque and no torque drives "
                      "the joint");
    c.nonnegative("mu_back", m.load->mu_back);
    if (const auto* lg = std::get_if<LG::Params>(&m.friction)) check_lugre_load(*lg, *m.load);
    const auto* p = std::get_if<StaticFriction<double>::Params>(&m.friction);
    if (p != nullptr && p->v_smooth > 0)
      throw std::invalid_argument(std::string(kSys) +
                                  ": a load-dependent Coulomb level (mu_drive, mu_back) needs "
                                  "static friction with the exact sign (v_smooth = 0) or LuGre "
                                  "friction");
  }
  if (m.temperature) {
    c.finite("T_ref", m.temperature->T_ref);
    c.finite("kT", m.temperature->kT);
    c.finite("kT_v", m.temperature->kT_v);
    const auto* p = std::get_if<StaticFriction<double>::Params>(&m.friction);
    if (p != nullptr && p->v_smooth > 0)
      throw std::invalid_argument(std::string(kSys) +
                                  ": temperature-dependent levels (kT, kT_v) need static friction "
                                  "with the exact sign (v_smooth = 0) or LuGre friction");
  }
}

JointModel at_temperature(const JointModel& m, double T) {
  if (!m.temperature) return m;
  JointModel out = m;
  out.temperature.reset();
  if (auto* p = std::get_if<LG::Params>(&out.friction))
    *p = friction_at_temperature(*p, *m.temperature, T);
  else
    *std::get_if<StaticFriction<double>::Params>(&out.friction) = friction_at_temperature(
        std::get<StaticFriction<double>::Params>(m.friction), *m.temperature, T);
  return out;
}

std::vector<double> bristle_state(const JointModel& m, std::span<const double> t,
                                  std::span<const double> qd, double z0,
                                  std::span<const double> temperature) {
  std::vector<double> z(t.size(), 0.0);
  const auto* p = std::get_if<LG::Params>(&m.friction);
  if (p == nullptr || t.empty()) return z;
  check_channel(t, qd, "velocity");
  if (m.temperature) check_temperature(t, temperature);
  LG::State x{z0};
  z[0] = z0;
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    const double h = t[k + 1] - t[k];
    if (m.temperature)  // the levels at the interval's mean temperature (second order)
      x = LG::step_linear(
          friction_at_temperature(*p, *m.temperature, (temperature[k] + temperature[k + 1]) / 2), x,
          qd[k], qd[k + 1], h);
    else
      x = LG::step_linear(*p, x, qd[k], qd[k + 1], h);
    z[k + 1] = x.z;
  }
  return z;
}

JointInverse inverse_dynamics(const JointModel& m, std::span<const double> t,
                              std::span<const double> q, std::span<const double> qd,
                              std::span<const double> qdd, std::span<const double> temperature) {
  check_channel(t, q, "position");
  check_channel(t, qd, "velocity");
  check_channel(t, qdd, "acceleration");
  if (m.temperature) check_temperature(t, temperature);
  JointInverse out;
  out.z = bristle_state(m, t, qd, 0.0, temperature);
  out.tau.resize(t.size());
  for (std::size_t k = 0; k < t.size(); ++k)
    out.tau[k] = m.temperature ? applied_torque(at_temperature(m, temperature[k]), q[k], qd[k],
                                                qdd[k], out.z[k])
                               : applied_torque(m, q[k], qd[k], qdd[k], out.z[k]);
  return out;
}

double loaded_lugre_torque(const JointModel& m, double q, double qd, double qdd, double z) {
  // tau = B + mu e |tau| with B the load-free torque and e = sigma0 z / g(qd) (the header): one
  // linear equation per sign of tau, of which the sign of B picks the consistent one.
  const auto& p = std::get<LG::Params>(m.friction);
  const double B = rigid_body_torque(m, q, qdd) + LG::force(p, LG::State{z}, qd);
  const double e = p.sigma0 * z / LG::g(p, qd);
  const bool push_forward = B >= 0;  // the sign of tau
  const bool positive = qd > 0 || (qd == 0 && push_forward);
  const double mu =
      is_driving(push_forward ? 1.0 : -1.0, positive) ? m.load->mu_drive : m.load->mu_back;
  return push_forward ? B / (1 - mu * e) : B / (1 + mu * e);
}

std::vector<std::string> joint_sensitivity_parameters(const JointModel& m) {
  const auto* p = std::get_if<LG::Params>(&m.friction);
  if (p == nullptr) return {};
  std::vector<std::string> out;
  for_each_lugre_joint_parameter(m.structure, m, *p,
                                 [&out](const JointParameterInfo& in, const double&) {
                                   if (!in.structural) out.push_back(in.name);
                                 });
  return out;
}

std::vector<double> bristle_state_sensitivity(const JointModel& m, std::span<const double> t,
                                              std::span<const double> qd) {
  const auto* p = std::get_if<LG::Params>(&m.friction);
  if (p == nullptr || m.temperature || m.load)
    throw std::invalid_argument(std::string(kSys) +
                                ": sensitivities need LuGre friction without a temperature law or "
                                "a load dependence");
  check_channel(t, qd, "velocity");
  const auto P = static_cast<int>(joint_sensitivity_parameters(m).size());
  return with_jet_width(P, [&]<int W>() {
    using J = ceres::Jet<double, W>;
    const SeededJoint<W> sj(m, *p, 0);
    std::vector<double> dz(t.size() * static_cast<std::size_t>(P), 0.0);
    typename JointLuGre<J>::State x{J(0.0)};
    for (std::size_t k = 0; k + 1 < t.size(); ++k) {
      x = JointLuGre<J>::step_linear(sj.p, x, J(qd[k]), J(qd[k + 1]), J(t[k + 1] - t[k]));
      for (int c = 0; c < P; ++c)
        dz[(k + 1) * static_cast<std::size_t>(P) + static_cast<std::size_t>(c)] = x.z.v[c];
    }
    return dz;
  });
}

JointTrajectory simulate_joint_model_sensitivity(const JointModel& m, std::span<const double> t,
                                                 std::span<const double> tau, const JointState& x0,
                                                 std::span<const double> dz0,
                                                 const JointSimOptions& opt,
                                                 JointSensitivity& out) {
  check_joint_model(m);
  check_inputs(t, tau, x0, opt);
  const auto* p = std::get_if<LG::Params>(&m.friction);
  if (p == nullptr || m.temperature || m.load)
    throw std::invalid_argument(std::string(kSys) +
                                ": sensitivities need LuGre friction without a temperature law or "
                                "a load dependence");
  out.names = joint_sensitivity_parameters(m);
  const auto P = static_cast<int>(out.names.size());
  if (dz0.size() != static_cast<std::size_t>(P))
    throw std::invalid_argument(std::string(kSys) + ": dz0 has " + std::to_string(dz0.size()) +
                                " entries for " + std::to_string(P) + " parameters");
  out.names.emplace_back("q0");
  out.names.emplace_back("qd0");
  return with_jet_width(kDim + P, [&]<int W>() {
    return simulate_lugre(m, *p, t, tau, x0, opt,
                          LuGreJointSensitivity<W>(m, *p, dz0, x0.z, opt, out, t.size()));
  });
}

JointTrajectory simulate_joint_model(const JointModel& m, std::span<const double> t,
                                     std::span<const double> tau, const JointState& x0,
                                     const JointSimOptions& opt,
                                     std::span<const double> temperature) {
  check_joint_model(m);
  check_inputs(t, tau, x0, opt);
  if (m.temperature) check_temperature(t, temperature);
  if (const auto* p = std::get_if<LG::Params>(&m.friction))
    return simulate_lugre(m, *p, t, tau, x0, opt, NoSensitivity{}, temperature);
  return simulate_static(m, std::get<StaticFriction<double>::Params>(m.friction), t, tau,
                         temperature, x0, opt);
}

}  // namespace frictionlab::sim
