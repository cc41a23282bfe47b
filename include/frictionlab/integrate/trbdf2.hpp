// frictionlab: fixed-step TR-BDF2, a one-step, two-stage, L-stable implicit scheme of order 2,
// for a small ODE y' = f(t, y) of fixed dimension N; stage equations solved by Newton's method
// with the Jacobian from forward-mode autodiff (ceres::Jet, as in rosenbrock.hpp).
//
// Scheme (R. E. Bank, W. M. Coughran, W. Fichtner, E. H. Grosse, D. J. Rose, R. K. Smith,
// "Transient simulation of silicon devices and circuits", IEEE Trans. CAD 4(4), 436-451, 1985;
// M. E. Hosea, L. F. Shampine, "Analysis and implementation of TR-BDF2", Appl. Numer. Math. 20,
// 21-37, 1996), one step of length h from (t_n, y_n), gamma = 2 - sqrt(2), d = gamma / 2:
//
//   trapezoidal stage to t_n + gamma h:
//     Y_g - d h f(t_n + gamma h, Y_g) = y_n + d h f(t_n, y_n)
//   BDF2 stage on (t_n, t_n + gamma h, t_n + h):
//     y_{n+1} - d h f(t_n + h, y_{n+1}) = (Y_g - (1 - gamma)^2 y_n) / (gamma (2 - gamma))
//
// (for this gamma the BDF2 coefficient (1 - gamma)/(2 - gamma) equals d, so both stages have the
// same iteration matrix I - d h J).
//
// Properties:
// - Order 2. Stability function (f = lambda y, z = h lambda):
//     R(z) = (1 + (sqrt(2) - 1) z) / (1 - d z)^2 = 1 + z + z^2/2 + O(z^3),
//   |R| <= 1 on the left half plane and R(inf) = 0: A- and L-stable (Hosea & Shampine, sec. 2).
//   Stiff components are damped in one step, no ringing.
// - Each stage is a nonlinear equation G(Y) = Y - d h f(t_s, Y) - B = 0, solved by Newton:
//   (I - d h J) dY = -G(Y), Y += dY, stopped when the weighted max norm of dY is <= 1
//   (newton.hpp) or after settings.max_iterations corrections (fixed budget: the last iterate
//   is kept and counted as unconverged). Predictors: Y_g = y_n; y_{n+1} = Y_g.
//   settings.jacobian selects when J is evaluated (newton.hpp):
//     each_iteration (full Newton, the default): J = df/dy(t_s, Y) from one Jet pass per
//       iteration, which also gives f(t_s, Y); one N x N LU per iteration;
//     each_stage: J at the predictor of each stage, then chord iterations with f in double;
//     each_step (simplified Newton): J = df/dy(t_n, y_n) once per step, one LU per step.
//   Only full Newton is robust on the stick-slip benchmark: the other two diverge (non-finite
//   state) at h >= 8.3 ms (measured: benchmarks/bench_stick_slip.cpp, docs/simulation.md).
// - Cost per step (full Newton): 1 double evaluation of f (at y_n), then per stage k Jet
//   evaluations and k LU factorisations, k = Newton corrections (<= max_iterations; 2 per stage
//   in the smooth regime at the default tolerance). No allocation (Eigen fixed-size objects,
//   Jets on the stack).
//
// The right-hand side is a functor as for Ros2 (rosenbrock.hpp):
//   template <class T> void operator()(const T& t, const T* y, T* dydt) const;
// valid for T = double and T = RhsJet<N> = ceres::Jet<double, N + 1>.
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <utility>

#include "frictionlab/integrate/newton.hpp"
#include "frictionlab/integrate/rosenbrock.hpp"

namespace frictionlab {

/// Fixed-step TR-BDF2 integrator for y' = rhs(t, y), y in R^N (see the header comment).
template <int N, class Rhs>
class TrBdf2 {
  static_assert(N > 0, "fixed, positive dimension");

 public:
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  static constexpr double kGamma = 2.0 - 1.41421356237309504880;  // 2 - sqrt(2)
  static constexpr double kD = kGamma / 2;                        // = (1 - gamma)/(2 - gamma)
  /// BDF2 stage right-hand side B = kC Y_g - kCn y_n.
  static constexpr double kC = 1.0 / (kGamma * (2.0 - kGamma));
  static constexpr double kCn = (1.0 - kGamma) * (1.0 - kGamma) * kC;
  static constexpr int kOrder = 2;

  explicit TrBdf2(Rhs rhs, NewtonSettings settings = {})
      : rhs_(std::forward<Rhs>(rhs)), set_(settings) {
    if (set_.max_iterations < 1) set_.max_iterations = 1;
  }

  /// Advance y from t to t + h in place.
  void step(double t, Vector& y, double h) {
    const double dh = kD * h;
    if (set_.jacobian != NewtonSettings::Jacobian::each_step) {
      rhs_(t, y.data(), fn_.data());
      ++cnt_.rhs_evals;
    } else {
      linearise<N>(rhs_, t, y, lin_);
      fn_ = lin_.f;
      ++cnt_.rhs_evals;
      ++cnt_.jac_evals;
      lu_.compute(Matrix::Identity() - dh * lin_.J);
    }
    // Trapezoidal stage.
    b_ = y + dh * fn_;
    yg_ = y;
    solve_stage(t + kGamma * h, dh, b_, yg_);
    // BDF2 stage.
    b_ = kC * yg_ - kCn * y;
    y1_ = yg_;
    solve_stage(t + h, dh, b_, y1_);
    y = y1_;
    ++cnt_.steps;
  }

  /// The trapezoidal stage Y_g at t + gamma h of the last step (forward sensitivities of the
  /// step, sim/joint_model.cpp, differentiate both stages).
  const Vector& last_stage() const noexcept { return yg_; }
  const NewtonCounters& counters() const noexcept { return cnt_; }
  long steps() const noexcept { return cnt_.steps; }
  long rhs_evals() const noexcept { return cnt_.rhs_evals; }
  const NewtonSettings& settings() const noexcept { return set_; }
  const Rhs& rhs() const noexcept { return rhs_; }

 private:
  /// Solve Y - ch f(ts, Y) = B for Y (Y holds the predictor on entry).
  void solve_stage(double ts, double ch, const Vector& B, Vector& Y) {
    for (int k = 0; k < set_.max_iterations; ++k) {
      if (set_.jacobian == NewtonSettings::Jacobian::each_iteration ||
          (k == 0 && set_.jacobian == NewtonSettings::Jacobian::each_stage)) {
        linearise<N>(rhs_, ts, Y, lin_);
        f_ = lin_.f;
        ++cnt_.jac_evals;
        lu_.compute(Matrix::Identity() - ch * lin_.J);
      } else {
        rhs_(ts, Y.data(), f_.data());
      }
      ++cnt_.rhs_evals;
      ++cnt_.iterations;
      dy_ = lu_.solve(B - Y + ch * f_);
      Y += dy_;
      if (weighted_max_norm(dy_, Y, set_.atol, set_.rtol) <= 1.0) return;
    }
    ++cnt_.unconverged;
  }

  Rhs rhs_;
  NewtonSettings set_;
  Linearisation<N> lin_{};
  Eigen::PartialPivLU<Matrix> lu_;
  Vector fn_{}, f_{}, b_{}, yg_{}, y1_{}, dy_{};
  NewtonCounters cnt_{};
};

}  // namespace frictionlab
