// frictionlab (private): a thin RAII wrapper over SUNDIALS CVODE for small dense ODE systems.
//
// Method: CVODE's variable-order (1..5), variable-step BDF with Newton iterations on a dense
// SUNMatrix solved by SUNLinSol_Dense (Hindmarsh et al., "SUNDIALS: Suite of nonlinear and
// differential/algebraic equation solvers", ACM TOMS 31(3), 2005; CVODE user guide v6.4.1). The
// Jacobian is analytic: computed by the same ceres::Jet forward-mode pass as the Rosenbrock
// scheme (integrate/rosenbrock.hpp, `linearise`), so no finite differences are involved.
// Error control: CVODE's weighted RMS norm with weights 1/(rtol |y_i| + atol) per component.
//
// Every SUNDIALS return flag is checked; a failure throws std::runtime_error naming the call,
// the flag (e.g. CV_TOO_MUCH_WORK) and CVODE's own message (which is captured, not printed).
#pragma once

#include <limits>
#include <memory>

#include "frictionlab/integrate/rosenbrock.hpp"

namespace frictionlab::sim::detail {

/// A type-erased ODE y' = f(t, y) of dimension n with its Jacobian (C callbacks cannot be
/// templates). The callbacks must not throw; they may return non-finite values, which make
/// CVODE retry with a smaller step.
struct OdeSystem {
  int n = 0;
  const void* ctx = nullptr;
  void (*rhs)(const void* ctx, double t, const double* y, double* ydot) = nullptr;
  /// df/dy at (t, y), column-major n x n (element (i, j) at jac[j*n + i]).
  void (*jac)(const void* ctx, double t, const double* y, double* jac) = nullptr;
};

struct CvodeSettings {
  double rtol = 1e-8;   ///< relative tolerance, > 0
  double atol = 1e-10;  ///< absolute tolerance (same for every component), > 0
  double max_step = 0;  ///< largest step [units of t]; 0 = unlimited
  double t_stop = std::numeric_limits<double>::infinity();  ///< never step past this time
  long max_steps_per_call = 5'000'000;  ///< CVodeSetMaxNumSteps (per advance_to call)
};

struct CvodeStats {
  long steps = 0;              ///< CVodeGetNumSteps
  long rhs_evals = 0;          ///< CVodeGetNumRhsEvals (double evaluations of f)
  long jac_evals = 0;          ///< CVodeGetNumJacEvals (Jet evaluations of f)
  long error_test_fails = 0;   ///< CVodeGetNumErrTestFails
  long nonlin_iters = 0;       ///< CVodeGetNumNonlinSolvIters
  long nonlin_conv_fails = 0;  ///< CVodeGetNumNonlinSolvConvFails
};

class Cvode {
 public:
  /// Set up CVODE (BDF, Newton, dense) for `sys` from y(t0) = y0 (n values).
  Cvode(const OdeSystem& sys, double t0, const double* y0, const CvodeSettings& settings);
  ~Cvode();
  Cvode(const Cvode&) = delete;
  Cvode& operator=(const Cvode&) = delete;
  Cvode(Cvode&&) = delete;
  Cvode& operator=(Cvode&&) = delete;

  /// Integrate to tout (> the current output time, <= t_stop) and write y(tout) (CVODE's
  /// interpolant, CV_NORMAL mode) into y (n values).
  void advance_to(double tout, double* y);

  CvodeStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// OdeSystem callbacks for a functor `Rhs` of dimension N written for the Rosenbrock scheme
/// (template <class T> void operator()(const T& t, const T* y, T* dydt) const); the Jacobian
/// comes from `linearise` (ceres::Jet). `rhs` must outlive the returned object.
template <int N, class Rhs>
OdeSystem make_ode_system(const Rhs& rhs) {
  OdeSystem s;
  s.n = N;
  s.ctx = &rhs;
  s.rhs = [](const void* c, double t, const double* y, double* ydot) {
    (*static_cast<const Rhs*>(c))(t, y, ydot);
  };
  s.jac = [](const void* c, double t, const double* y, double* jac) {
    Linearisation<N> lin;
    const Eigen::Matrix<double, N, 1> yv = Eigen::Map<const Eigen::Matrix<double, N, 1>>(y);
    linearise<N>(*static_cast<const Rhs*>(c), t, yv, lin);
    Eigen::Map<Eigen::Matrix<double, N, N>> out(jac);  // both column-major
    out = lin.J;
  };
  return s;
}

}  // namespace frictionlab::sim::detail
