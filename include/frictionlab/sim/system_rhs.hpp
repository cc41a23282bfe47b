// frictionlab: the right-hand sides of the coupled systems of systems.hpp, as public templates
// (the integrators of systems.cpp use them; so can other schemes, e.g. the candidates of
// benchmarks/bench_stick_slip.cpp). Equations and the scaling of the friction state:
// docs/simulation.md.
//
// State y = (x, v, s) [m, m/s, -] (joint: q [rad], qd [rad/s], s), s = z / z_b with z_b the
// friction model's invariant bound M::state_bound(p) [m] (LuGre, elasto-plastic: max g / sigma0;
// Dahl: Fc / sigma0), so that |s| <= 1 on the invariant set:
//   stick-slip:  x' = v,  v' = (k (v_drive t - x) - F(v, z)) / m,           s' = z'(v, z) / z_b
//   belt:        x' = v,  v' = (-k x - F(v - v_drive, z)) / m,             s' = z'(v - v_drive, z)
//   / z_b joint:       q' = qd, qd' = (tau(t) - mgCx cos q + mgCy sin q - tau_f(qd, z)) / I,
//                s' = z'(qd, z) / z_b                                       (04_* eq. 1)
// with F = M::force(p, {z}, v) and z' = M::derivative(p, {z}, v).z, z = z_b s.
//
// Header-only, std and models only: the scalar types (double, a ceres::Jet for exact Jacobians)
// are template arguments chosen by the caller.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <tuple>
#include <vector>

#include "frictionlab/models/common.hpp"

namespace frictionlab::sim {

/// A single-state friction model family M (LuGre, Dahl, ElastoPlastic) with its parameters held
/// in each scalar type of Scalars (cast once, with the model's cast_params), evaluated on the
/// scaled state s = z / z_b.
template <template <class> class M, class... Scalars>
struct ScaledFriction {
  std::tuple<typename M<Scalars>::Params...> params_by_scalar;
  double zb;  ///< state scale z_b = M::state_bound(p) [m or rad]

  explicit ScaledFriction(const typename M<double>::Params& p)
      : params_by_scalar(cast_params<Scalars>(p)...), zb(M<double>::state_bound(p)) {}

  /// The parameters in scalar type T (one of Scalars).
  template <class T>
  const typename M<T>::Params& params() const {
    return std::get<typename M<T>::Params>(params_by_scalar);
  }

  /// Friction force F [N or N m] and ds/dt [1/s] at relative velocity vr and scaled state s.
  template <class T>
  void eval(const T& s, const T& vr, T& F, T& sdot) const {
    const auto& p = params<T>();
    typename M<T>::State st;
    st.z = s * zb;
    F = M<T>::force(p, st, vr);
    sdot = M<T>::derivative(p, st, vr).z / zb;
  }
};

/// The stick-slip benchmark (spring end pulled at v_drive) or, with belt = true, the mass on a
/// belt moving at v_drive. Fr: a ScaledFriction (or a type with the same eval).
template <class Fr>
struct StickSlipRhs {
  Fr fr;
  double m;        ///< mass [kg]
  double k;        ///< spring stiffness [N/m]
  double v_drive;  ///< pulling or belt speed [m/s]
  bool belt;

  template <class T>
  void operator()(const T& t, const T* y, T* dy) const {
    const T vr = belt ? T(y[1] - v_drive) : y[1];
    T F, sdot;
    fr.eval(y[2], vr, F, sdot);
    const T spring = belt ? T(-k * y[0]) : T(k * (v_drive * t - y[0]));
    dy[0] = y[1];
    dy[1] = (spring - F) / m;
    dy[2] = sdot;
  }
  /// The velocity the friction sees [m/s].
  template <class Vec>
  double relative_velocity(const Vec& y) const {
    return belt ? y[1] - v_drive : y[1];
  }
};

/// Applied joint torque tau(t) [N m]: a record (t, tau), linearly interpolated and held constant
/// outside its range, if t is non-empty; else offset + amp sin(2 pi freq t).
struct TorqueInput {
  std::vector<double> t, tau;
  double offset = 0, amp = 0, freq = 0;

  template <class T>
  T operator()(const T& time) const {
    using std::sin;
    if (t.empty()) return T(offset) + amp * sin((2.0 * std::numbers::pi * freq) * time);
    const double td = double_value(time);
    if (!(td > t.front())) return T(tau.front());
    if (!(td < t.back())) return T(tau.back());
    const auto i =
        static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), td) - t.begin()) - 1;
    const double slope = (tau[i + 1] - tau[i]) / (t[i + 1] - t[i]);
    return T(tau[i]) + slope * (time - t[i]);
  }
};

/// One rotary joint with gravity driven by an applied torque (04_* eq. 1).
template <class Fr, class Torque = TorqueInput>
struct JointRhs {
  Fr fr;
  double I;     ///< inertia [kg m^2]
  double mgCx;  ///< gravity term [N m]
  double mgCy;  ///< gravity term [N m]
  Torque tau;

  template <class T>
  void operator()(const T& t, const T* y, T* dy) const {
    using std::cos;
    using std::sin;
    T F, sdot;
    fr.eval(y[2], y[1], F, sdot);
    dy[0] = y[1];
    dy[1] = (tau(t) - mgCx * cos(y[0]) + mgCy * sin(y[0]) - F) / I;
    dy[2] = sdot;
  }
  template <class Vec>
  static double relative_velocity(const Vec& y) {
    return y[1];
  }
};

}  // namespace frictionlab::sim
