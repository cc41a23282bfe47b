// frictionlab: advancing a velocity-driven friction model over one sample step.
//
// A model type M (see models/*.hpp) provides
//   M::Scalar, M::Params, M::State, M::kNumStates,
//   M::step(p, x, v, h)            exact (or unconditionally stable) update, v held over h,
//   M::force(p, x, v), M::steady_force(p, v), M::derivative(p, x, v),
// and, when its state is continuous (LuGre, Dahl, elasto-plastic), M::to_array/M::from_array,
// which enable the comparison schemes forward Euler and RK4. Optional: M::step_implicit_euler.
//
// `advance` picks the input velocity for the step from the hold mode (docs/integration.md):
//   zoh:    v(t) = v0 on [t, t+h)
//   linear: v(t) linear from v0 to v1; models with M::step_linear (LuGre) use their own
//           second-order update for that input, other exact schemes use the mid-step value
//           (v0+v1)/2 (exponential midpoint rule); RK4 evaluates the interpolant at its stages.
#pragma once

#include <array>
#include <cmath>

#include "frictionlab/models/common.hpp"

namespace frictionlab {

template <class M>
concept HasArrayState = requires(const typename M::State& x, typename M::Scalar* out) {
  M::to_array(x, out);
  M::from_array(out);
};

template <class M>
concept HasLinearStep = requires(const typename M::Params& p, const typename M::State& x,
                                 typename M::Scalar s) {
  M::step_linear(p, x, s, s, s);
};

/// Models whose velocity-dependent terms can be computed once for a held step and the force at
/// its start (LuGre::at: g(v) once instead of twice); the result is the same, bit for bit.
template <class M>
concept HasAtVelocity = requires(const typename M::Params& p, typename M::Scalar v) {
  M::at(p, v);
};

/// Models whose linear-input step can take those terms at both of its ends (LuGre::step_linear
/// with two AtVelocity): a simulation computes them once per sample for the force there and for
/// the two steps that share the sample.
template <class M>
concept HasLinearAt = HasAtVelocity<M> &&
    requires(const typename M::Params& p, const typename M::State& x, typename M::Scalar h) {
  M::step_linear(p, x, M::at(p, h), M::at(p, h), h);
};

template <class M>
concept HasImplicitEuler = requires(const typename M::Params& p, const typename M::State& x,
                                    typename M::Scalar s) {
  M::step_implicit_euler(p, x, s, s);
};

/// Whether model M supports Method m (exact is always supported).
template <class M>
constexpr bool supports(Method m) noexcept {
  switch (m) {
    case Method::exact:
      return true;
    case Method::implicit_euler:
      return HasImplicitEuler<M>;
    case Method::forward_euler:
    case Method::rk4:
      return HasArrayState<M>;
  }
  return false;
}

namespace detail {

template <class M, class S>
typename M::State axpy(const typename M::State& x, const S& a, const typename M::State& d) {
  std::array<S, M::kNumStates> xa{}, da{};
  M::to_array(x, xa.data());
  M::to_array(d, da.data());
  for (int i = 0; i < M::kNumStates; ++i) xa[i] += a * da[i];
  return M::from_array(xa.data());
}

}  // namespace detail

/// Advance the state of model M from t to t+h, given the input velocity v0 at t and v1 at t+h.
/// If M does not support `method`, the exact step is used (callers check `supports<M>` first to
/// report an error instead).
template <class M, class S>
typename M::State advance(const typename M::Params& p, const typename M::State& x, const S& v0,
                          const S& v1, const S& h, Method method, Hold hold) noexcept {
  const S vm = hold == Hold::zoh ? v0 : (v0 + v1) / S(2);
  if (method == Method::implicit_euler) {
    if constexpr (HasImplicitEuler<M>) return M::step_implicit_euler(p, x, vm, h);
  }
  if constexpr (HasArrayState<M>) {
    if (method == Method::forward_euler) {
      // Forward Euler with the input held at v0: the scheme of the reference MATLAB and
      // firmware codes. Stable only for h < 2 / (sigma0 |v| / g(v)) in LuGre.
      return detail::axpy<M>(x, h, M::derivative(p, x, v0));
    }
    if (method == Method::rk4) {
      const S va = v0;
      const S& vb = vm;
      const S vc = hold == Hold::zoh ? v0 : v1;
      const auto k1 = M::derivative(p, x, va);
      const auto k2 = M::derivative(p, detail::axpy<M>(x, h / S(2), k1), vb);
      const auto k3 = M::derivative(p, detail::axpy<M>(x, h / S(2), k2), vb);
      const auto k4 = M::derivative(p, detail::axpy<M>(x, h, k3), vc);
      std::array<S, M::kNumStates> xa{}, a1{}, a2{}, a3{}, a4{};
      M::to_array(x, xa.data());
      M::to_array(k1, a1.data());
      M::to_array(k2, a2.data());
      M::to_array(k3, a3.data());
      M::to_array(k4, a4.data());
      for (int i = 0; i < M::kNumStates; ++i)
        xa[i] += h / S(6) * (a1[i] + S(2) * a2[i] + S(2) * a3[i] + a4[i]);
      return M::from_array(xa.data());
    }
  }
  if constexpr (HasLinearStep<M>) {
    if (hold == Hold::linear) return M::step_linear(p, x, v0, v1, h);
  }
  return M::step(p, x, vm, h);
}

/// Drive model M with a sampled velocity record (t[k], v[k]), k = 0..n-1, calling
/// sink(k, F_k, x_k) at every sample, where x_k is the state at t[k] and F_k = force(x_k, v[k]).
/// If max_substep > 0, every sample interval is split into ceil(h / max_substep) equal substeps
/// with the input interpolated according to `hold`. No allocation.
template <class M, class S, class Sink>
typename M::State drive(const typename M::Params& p, typename M::State x, const S* t, const S* v,
                        long n, Method method, Hold hold, S max_substep, Sink&& sink) {
  using std::ceil;
  if constexpr (HasLinearAt<M>) {
    // The exact linear-input step without substeps: the velocity terms once per sample.
    if (method == Method::exact && hold == Hold::linear && !(max_substep > S(0)) && n > 0) {
      auto w = M::at(p, v[0]);
      for (long k = 0;; ++k) {
        sink(k, M::force(p, x, w), x);
        if (k + 1 >= n) break;
        const auto w1 = M::at(p, v[k + 1]);
        x = M::step_linear(p, x, w, w1, t[k + 1] - t[k]);
        w = w1;
      }
      return x;
    }
  }
  for (long k = 0; k < n; ++k) {
    if constexpr (HasAtVelocity<M>) {
      // The exact held step without substeps: the force and the step share the velocity terms.
      if (method == Method::exact && hold == Hold::zoh &&
          !(max_substep > S(0) && k + 1 < n && t[k + 1] - t[k] > max_substep)) {
        const auto w = M::at(p, v[k]);
        sink(k, M::force(p, x, w), x);
        if (k + 1 == n) break;
        x = M::step(p, x, w, t[k + 1] - t[k]);
        continue;
      }
    }
    sink(k, M::force(p, x, v[k]), x);
    if (k + 1 == n) break;
    const S h = t[k + 1] - t[k];
    long m = 1;
    if (max_substep > S(0) && h > max_substep)
      m = static_cast<long>(ceil(double_value(h / max_substep)));
    const S hs = h / S(m);
    for (long j = 0; j < m; ++j) {
      // Input at the substep ends (ZOH keeps v[k] on the whole interval).
      const S w0 = hold == Hold::zoh ? v[k] : v[k] + (v[k + 1] - v[k]) * S(j) / S(m);
      const S w1 = hold == Hold::zoh ? v[k] : v[k] + (v[k + 1] - v[k]) * S(j + 1) / S(m);
      x = advance<M>(p, x, w0, w1, hs, method, hold);
    }
  }
  return x;
}

}  // namespace frictionlab
