// frictionlab (private): RAII wrapper over SUNDIALS CVODE 6.x (see cvode.hpp).
#include "cvode.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"

namespace frictionlab::sim::detail {

namespace {

/// CVODE's name for a return flag (CVodeGetReturnFlagName mallocs the string).
std::string flag_name(long flag, bool linear_solver = false) {
  char* s = linear_solver ? CVodeGetLinReturnFlagName(flag) : CVodeGetReturnFlagName(flag);
  if (s == nullptr) return "flag " + std::to_string(flag);
  std::string out(s);
  std::free(s);  // NOLINT(cppcoreguidelines-no-malloc): allocated by SUNDIALS with malloc
  return out;
}

}  // namespace

struct Cvode::Impl {
  OdeSystem sys{};
  SUNContext sunctx = nullptr;
  N_Vector y = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  void* mem = nullptr;
  std::string last_message;  ///< last error message CVODE reported (captured, not printed)

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    // Reverse order of creation; every handle may be null after a failed constructor.
    if (mem != nullptr) CVodeFree(&mem);
    if (LS != nullptr) SUNLinSolFree(LS);
    if (A != nullptr) SUNMatDestroy(A);
    if (y != nullptr) N_VDestroy(y);
    if (sunctx != nullptr) SUNContext_Free(&sunctx);
  }

  [[noreturn]] void fail(const char* call, const std::string& flag) const {
    std::ostringstream os;
    os << "cvode: " << call << " failed with " << flag;
    if (!last_message.empty()) os << ": " << last_message;
    throw std::runtime_error(os.str());
  }
  void check(int flag, const char* call) const {
    if (flag < 0) fail(call, flag_name(flag));
  }
  void check_ls(int flag, const char* call) const {
    if (flag < 0) fail(call, flag_name(flag, true));
  }

  static int rhs_cb(realtype t, N_Vector yv, N_Vector ydot, void* user) noexcept {
    const auto* self = static_cast<const Impl*>(user);
    const double* yp = N_VGetArrayPointer(yv);
    double* fp = N_VGetArrayPointer(ydot);
    self->sys.rhs(self->sys.ctx, t, yp, fp);
    for (int i = 0; i < self->sys.n; ++i)
      if (!std::isfinite(fp[i])) return 1;  // recoverable: CVODE retries with a smaller step
    return 0;
  }

  static int jac_cb(realtype t, N_Vector yv, N_Vector /*fy*/, SUNMatrix J, void* user,
                    N_Vector /*tmp1*/, N_Vector /*tmp2*/, N_Vector /*tmp3*/) noexcept {
    const auto* self = static_cast<const Impl*>(user);
    double* jp = SUNDenseMatrix_Data(J);  // column-major, leading dimension n
    self->sys.jac(self->sys.ctx, t, N_VGetArrayPointer(yv), jp);
    const long n2 = static_cast<long>(self->sys.n) * self->sys.n;
    for (long i = 0; i < n2; ++i)
      if (!std::isfinite(jp[i])) return 1;  // recoverable
    return 0;
  }

  static void err_cb(int code, const char* module, const char* function, char* msg,
                     void* user) noexcept {
    auto* self = static_cast<Impl*>(user);
    if (code == CV_WARNING) return;  // warnings (e.g. t + h == t) are not failures
    try {
      self->last_message = std::string(module ? module : "") + "::" + (function ? function : "") +
                           ": " + (msg ? msg : "");
    } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; keep going without message
    }
  }
};

Cvode::Cvode(const OdeSystem& sys, double t0, const double* y0, const CvodeSettings& s)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  if (sys.n <= 0 || sys.rhs == nullptr || sys.jac == nullptr)
    throw std::invalid_argument("cvode: incomplete OdeSystem");
  m.sys = sys;
  if (SUNContext_Create(nullptr, &m.sunctx) != 0 || m.sunctx == nullptr)
    throw std::runtime_error("cvode: SUNContext_Create failed");
  m.y = N_VNew_Serial(sys.n, m.sunctx);
  if (m.y == nullptr) throw std::runtime_error("cvode: N_VNew_Serial returned NULL");
  double* yp = N_VGetArrayPointer(m.y);
  for (int i = 0; i < sys.n; ++i) yp[i] = y0[i];
  m.A = SUNDenseMatrix(sys.n, sys.n, m.sunctx);
  if (m.A == nullptr) throw std::runtime_error("cvode: SUNDenseMatrix returned NULL");
  m.LS = SUNLinSol_Dense(m.y, m.A, m.sunctx);
  if (m.LS == nullptr) throw std::runtime_error("cvode: SUNLinSol_Dense returned NULL");
  m.mem = CVodeCreate(CV_BDF, m.sunctx);
  if (m.mem == nullptr) throw std::runtime_error("cvode: CVodeCreate returned NULL");
  // Capture messages first so that every later failure carries CVODE's explanation.
  m.check(CVodeSetErrHandlerFn(m.mem, &Impl::err_cb, &m), "CVodeSetErrHandlerFn");
  m.check(CVodeInit(m.mem, &Impl::rhs_cb, t0, m.y), "CVodeInit");
  m.check(CVodeSetUserData(m.mem, &m), "CVodeSetUserData");
  m.check(CVodeSStolerances(m.mem, s.rtol, s.atol), "CVodeSStolerances");
  // The default nonlinear solver of CVODE >= 4 is SUNNonlinSol_Newton; it uses this linear solver.
  m.check_ls(CVodeSetLinearSolver(m.mem, m.LS, m.A), "CVodeSetLinearSolver");
  m.check_ls(CVodeSetJacFn(m.mem, &Impl::jac_cb), "CVodeSetJacFn");
  m.check(CVodeSetMaxNumSteps(m.mem, s.max_steps_per_call), "CVodeSetMaxNumSteps");
  if (s.max_step > 0) m.check(CVodeSetMaxStep(m.mem, s.max_step), "CVodeSetMaxStep");
  if (std::isfinite(s.t_stop)) m.check(CVodeSetStopTime(m.mem, s.t_stop), "CVodeSetStopTime");
}

Cvode::~Cvode() = default;

void Cvode::advance_to(double tout, double* y) {
  Impl& m = *impl_;
  realtype tret = 0;
  m.last_message.clear();
  const int flag = CVode(m.mem, tout, m.y, &tret, CV_NORMAL);
  if (flag < 0) {
    const std::string call = "CVode(tout = " + format_exact(tout) + ")";
    m.fail(call.c_str(), flag_name(flag));
  }
  const double* yp = N_VGetArrayPointer(m.y);
  for (int i = 0; i < m.sys.n; ++i) y[i] = yp[i];
}

CvodeStats Cvode::stats() const {
  const Impl& m = *impl_;
  // One counter: CVODE's getter, named in a failure; `linear_solver` for a getter of the linear
  // solver interface (its flags have their own names).
  const auto count = [&m](int (*get)(void*, long*), const char* call, bool linear_solver = false) {
    long v = 0;
    const int flag = get(m.mem, &v);
    if (linear_solver)
      m.check_ls(flag, call);
    else
      m.check(flag, call);
    return v;
  };
  CvodeStats st;
  st.steps = count(CVodeGetNumSteps, "CVodeGetNumSteps");
  st.rhs_evals = count(CVodeGetNumRhsEvals, "CVodeGetNumRhsEvals");
  st.jac_evals = count(CVodeGetNumJacEvals, "CVodeGetNumJacEvals", true);
  st.error_test_fails = count(CVodeGetNumErrTestFails, "CVodeGetNumErrTestFails");
  st.nonlin_iters = count(CVodeGetNumNonlinSolvIters, "CVodeGetNumNonlinSolvIters");
  st.nonlin_conv_fails = count(CVodeGetNumNonlinSolvConvFails, "CVodeGetNumNonlinSolvConvFails");
  return st;
}

}  // namespace frictionlab::sim::detail
