// frictionlab: fixed-step ROS2, a two-stage L-stable Rosenbrock method of order 2, for a small
// ODE y' = f(t, y) of fixed dimension N, with the Jacobian from forward-mode autodiff.
//
// Scheme (J. G. Verwer, E. J. Spee, J. G. Blom, W. Hundsdorfer, "A second-order Rosenbrock
// method applied to photochemical dispersion problems", SIAM J. Sci. Comput. 20(4), 1456-1480,
// 1999; W. Hundsdorfer, J. G. Verwer, "Numerical Solution of Time-Dependent
// Advection-Diffusion-Reaction Equations", Springer 2003), one step of length h from (t_n, y_n):
//
//   W    = I - gamma h J,           J = df/dy(t_n, y_n),  f_t = df/dt(t_n, y_n)
//   W k1 = f(t_n, y_n)             + gamma h f_t
//   W k2 = f(t_n + h, y_n + h k1) - 2 k1 - gamma h f_t
//   y_{n+1} = y_n + (3/2) h k1 + (1/2) h k2,                        gamma = 1 + 1/sqrt(2).
//
// The f_t terms are those of the autonomous scheme applied to the augmented system
// (y, t)' = (f(t, y), 1) with its exact Jacobian [[J, f_t], [0, 0]]: the t-components of the
// stages are k1_t = 1 and k2_t = 1 - 2 = -1, so the stage times are t_n and t_n + h.
//
// Properties (units: those of the problem; h in the units of t):
// - Order 2 for any matrix in place of J (a W-method; expanding the stages gives
//   y_{n+1} = y_n + h f + h^2/2 f' f + O(h^3) independently of J). f_t is nevertheless computed
//   (in the same autodiff pass as J, at no extra evaluation): for stiff forced problems it keeps
//   the order; without it y' = -1e8 (y - cos t) is integrated with order 1 (measured in
//   tests/test_coupled_systems.cpp, Ros2.TimeDerivativeKeepsStiffOrderTwo).
// - Stability function R(z) = (1 + (1 - 2 gamma) z + (gamma^2 - 2 gamma + 1/2) z^2) /
//   (1 - gamma z)^2 = 1 + z + z^2/2 + O(z^3). With gamma = 1 + 1/sqrt(2) the z^2 coefficient of
//   the numerator vanishes, so R(inf) = 0: A-stable and L-stable (stiff components are damped
//   in one step, no ringing).
// - Linearly implicit: one linear solve per stage, no Newton iteration, hence a fixed cost per
//   step (real-time use). The price: the step is exact only for linear problems; when f is
//   strongly nonlinear on the scale of one step (a friction law crossing its Stribeck region
//   within a step), the map can have spurious near-fixed points (docs/simulation.md).
// - Cost per step: one evaluation of f in ceres::Jet<double, N + 1> (gives f, J and f_t), one in
//   double, one LU factorisation (partial pivoting) of the N x N matrix W and two solves. No
//   allocation: every matrix and vector is an Eigen fixed-size object, the Jets live on the stack.
//
// The right-hand side is a functor with a member template, valid for T = double and
// T = ceres::Jet<double, N + 1> (write it like a Ceres cost functor: call math functions
// unqualified after `using std::...`):
//   template <class T> void operator()(const T& t, const T* y, T* dydt) const;
#pragma once

#include <ceres/jet.h>

#include <Eigen/Core>
#include <Eigen/LU>
#include <array>
#include <cmath>
#include <utility>

namespace frictionlab {

/// The Jet type used to differentiate an N-dimensional right-hand side: N slots for y, one for t.
template <int N>
using RhsJet = ceres::Jet<double, N + 1>;

/// f(t, y), its Jacobian df/dy and its time derivative df/dt at one point.
template <int N>
struct Linearisation {
  Eigen::Matrix<double, N, 1> f;
  Eigen::Matrix<double, N, N> J;  ///< J(i, j) = d f_i / d y_j (column-major)
  Eigen::Matrix<double, N, 1> ft;
};

/// Evaluate f, df/dy and df/dt at (t, y) with one forward-mode autodiff pass (no allocation).
template <int N, class Rhs>
void linearise(const Rhs& rhs, double t, const Eigen::Matrix<double, N, 1>& y,
               Linearisation<N>& out) {
  using J = RhsJet<N>;
  std::array<J, N> yj, fj;
  for (int i = 0; i < N; ++i) yj[i] = J(y[i], i);
  const J tj(t, N);
  rhs(tj, yj.data(), fj.data());
  for (int i = 0; i < N; ++i) {
    out.f[i] = fj[i].a;
    for (int j = 0; j < N; ++j) out.J(i, j) = fj[i].v[j];
    out.ft[i] = fj[i].v[N];
  }
}

/// Evaluate f(t, y) in double.
template <int N, class Rhs>
Eigen::Matrix<double, N, 1> evaluate(const Rhs& rhs, double t,
                                     const Eigen::Matrix<double, N, 1>& y) {
  Eigen::Matrix<double, N, 1> f;
  rhs(t, y.data(), f.data());
  return f;
}

/// Fixed-step ROS2 integrator for y' = rhs(t, y), y in R^N (see the header comment).
template <int N, class Rhs>
class Ros2 {
  static_assert(N > 0, "fixed, positive dimension");

 public:
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  static constexpr double kGamma = 1.0 + 0.70710678118654752440;  // 1 + 1/sqrt(2)
  static constexpr int kOrder = 2;

  explicit Ros2(Rhs rhs) : rhs_(std::move(rhs)) {}

  /// Advance y from t to t + h in place.
  void step(double t, Vector& y, double h) {
    linearise<N>(rhs_, t, y, lin_);
    const double gh = kGamma * h;
    lu_.compute(Matrix::Identity() - gh * lin_.J);
    const Vector k1 = lu_.solve(lin_.f + gh * lin_.ft);
    y2_ = y + h * k1;
    rhs_(t + h, y2_.data(), f2_.data());
    const Vector k2 = lu_.solve(f2_ - 2.0 * k1 - gh * lin_.ft);
    y += (1.5 * h) * k1 + (0.5 * h) * k2;
    ++steps_;
    rhs_evals_ += 2;
  }

  /// Steps taken so far.
  long steps() const noexcept { return steps_; }
  /// Right-hand-side evaluations so far: 2 per step, one of them in Jets (which also yields J).
  long rhs_evals() const noexcept { return rhs_evals_; }
  const Rhs& rhs() const noexcept { return rhs_; }

 private:
  Rhs rhs_;
  Linearisation<N> lin_{};
  Eigen::PartialPivLU<Matrix> lu_;
  Vector y2_{}, f2_{};
  long steps_ = 0, rhs_evals_ = 0;
};

}  // namespace frictionlab
