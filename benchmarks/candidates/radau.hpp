// frictionlab: fixed-step two-stage Radau IIA, a fully implicit collocation scheme of order 3
// (L-stable), for a small ODE y' = f(t, y) of fixed dimension N; the stage equations are solved
// by Newton's method with the Jacobian from forward-mode autodiff (ceres::Jet, as in
// rosenbrock.hpp).
//
// Scheme (B. L. Ehle 1969; E. Hairer, G. Wanner, "Solving Ordinary Differential Equations II",
// 2nd ed., Springer 1996, sec. IV.5, table 5.5), one step of length h from (t_n, y_n), stage
// increments Z_i = Y_i - y_n:
//
//   Z_1 = h (5/12 f(t_n + h/3, y_n + Z_1) - 1/12 f(t_n + h, y_n + Z_2))
//   Z_2 = h ( 3/4 f(t_n + h/3, y_n + Z_1) + 1/4  f(t_n + h, y_n + Z_2))
//   y_{n+1} = y_n + Z_2                                   (stiffly accurate: b = last row of A)
//
// Properties:
// - Order 3 (stage order 2). Stability function R(z) = (1 + z/3) / (1 - 2z/3 + z^2/6):
//   A-stable and R(inf) = 0, hence L-stable.
// - Newton on the 2N-dimensional system G(Z) = Z - h (A x I) F(Z) = 0:
//     [I - h a_11 J_1, -h a_12 J_2; -h a_21 J_1, I - h a_22 J_2] dZ = -G(Z),  Z += dZ,
//   stopped when the weighted max norm of dZ (relative to Y = y_n + Z) is <= 1 (newton.hpp) or
//   after settings.max_iterations corrections (fixed budget: the last iterate is kept and the
//   step counted as unconverged). Predictor Z = 0.
//   Full Newton (settings.jacobian = each_iteration or each_stage): J_i = df/dy(t_n + c_i h,
//   y_n + Z_i) from one Jet pass per stage and iteration (which also gives f there), one 2N x 2N
//   LU per iteration. Simplified Newton (each_step): J_1 = J_2 = df/dy(t_n, y_n) once per step,
//   one LU per step, f in double per iteration.
// - No allocation (Eigen fixed-size objects, Jets on the stack).
// Status: a measured candidate (docs/simulation.md, "Choosing the real-time scheme"), not used by
// sim::SystemIntegrator: within 1 % on the stick-slip benchmark up to 9.1 ms only, and it stalls
// at 50 ms; the recommended fixed-step scheme is TR-BDF2 (trbdf2.hpp).
//
// The right-hand side is a functor as for Ros2 (rosenbrock.hpp):
//   template <class T> void operator()(const T& t, const T* y, T* dydt) const;
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <utility>

#include "frictionlab/integrate/newton.hpp"
#include "frictionlab/integrate/rosenbrock.hpp"

namespace frictionlab {

/// Fixed-step two-stage Radau IIA integrator for y' = rhs(t, y), y in R^N.
template <int N, class Rhs>
class Radau2 {
  static_assert(N > 0, "fixed, positive dimension");

 public:
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  using Vector2 = Eigen::Matrix<double, 2 * N, 1>;
  using Matrix2 = Eigen::Matrix<double, 2 * N, 2 * N>;
  static constexpr double kA11 = 5.0 / 12, kA12 = -1.0 / 12, kA21 = 3.0 / 4, kA22 = 1.0 / 4;
  static constexpr double kC1 = 1.0 / 3;
  static constexpr int kOrder = 3;

  explicit Radau2(Rhs rhs, NewtonSettings settings = {}) : rhs_(std::move(rhs)), set_(settings) {
    if (set_.max_iterations < 1) set_.max_iterations = 1;
  }

  /// Advance y from t to t + h in place.
  void step(double t, Vector& y, double h) {
    const double t1 = t + kC1 * h, t2 = t + h;
    const bool full = set_.jacobian != NewtonSettings::Jacobian::each_step;
    if (!full) {
      linearise<N>(rhs_, t, y, lin1_);
      ++cnt_.rhs_evals;
      ++cnt_.jac_evals;
      build_matrix(h, lin1_.J, lin1_.J);
    }
    z_.setZero();
    bool converged = false;
    for (int k = 0; k < set_.max_iterations && !converged; ++k) {
      y1_ = y + z_.template head<N>();
      y2_ = y + z_.template tail<N>();
      if (full) {
        linearise<N>(rhs_, t1, y1_, lin1_);
        linearise<N>(rhs_, t2, y2_, lin2_);
        f1_ = lin1_.f;
        f2_ = lin2_.f;
        cnt_.jac_evals += 2;
        build_matrix(h, lin1_.J, lin2_.J);
      } else {
        rhs_(t1, y1_.data(), f1_.data());
        rhs_(t2, y2_.data(), f2_.data());
      }
      cnt_.rhs_evals += 2;
      ++cnt_.iterations;
      g_.template head<N>() = h * (kA11 * f1_ + kA12 * f2_) - z_.template head<N>();
      g_.template tail<N>() = h * (kA21 * f1_ + kA22 * f2_) - z_.template tail<N>();
      dz_ = lu_.solve(g_);
      z_ += dz_;
      yy_.template head<N>() = y + z_.template head<N>();
      yy_.template tail<N>() = y + z_.template tail<N>();
      converged = weighted_max_norm(dz_, yy_, set_.atol, set_.rtol) <= 1.0;
    }
    if (!converged) ++cnt_.unconverged;
    y += z_.template tail<N>();
    ++cnt_.steps;
  }

  const NewtonCounters& counters() const noexcept { return cnt_; }
  long steps() const noexcept { return cnt_.steps; }
  long rhs_evals() const noexcept { return cnt_.rhs_evals; }
  const NewtonSettings& settings() const noexcept { return set_; }
  const Rhs& rhs() const noexcept { return rhs_; }

 private:
  void build_matrix(double h, const Matrix& J1, const Matrix& J2) {
    m_.template topLeftCorner<N, N>() = Matrix::Identity() - (h * kA11) * J1;
    m_.template topRightCorner<N, N>() = -(h * kA12) * J2;
    m_.template bottomLeftCorner<N, N>() = -(h * kA21) * J1;
    m_.template bottomRightCorner<N, N>() = Matrix::Identity() - (h * kA22) * J2;
    lu_.compute(m_);
  }

  Rhs rhs_;
  NewtonSettings set_;
  Linearisation<N> lin1_{}, lin2_{};
  Matrix2 m_{};
  Eigen::PartialPivLU<Matrix2> lu_;
  Vector y1_{}, y2_{}, f1_{}, f2_{};
  Vector2 z_{}, g_{}, dz_{}, yy_{};
  NewtonCounters cnt_{};
};

}  // namespace frictionlab
