// The C API (estimator/torque_estimator.h, a C implementation of its own: src/estimator/) against
// the C++ estimator on the recorded input, in float and double, in every input mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "estimator_fixtures.hpp"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/estimator/torque_estimator.h"
#include "frictionlab/estimator/torque_estimator.hpp"

namespace frictionlab {
namespace {

using estimator::EstimatorParams;
using estimator::ParamError;

using estimator::to_c_params;

// The C functions of one precision, so that the comparison is written once.
template <class Scalar, class Params, class Estimator, auto Init, auto SetParams, auto Reset,
          auto Step, auto StepDisplacement>
struct CApi {
  using S = Scalar;
  using P = Params;
  Estimator e{};
  int init(const P& p) { return Init(&e, &p); }
  int set_params(const P& p) { return SetParams(&e, &p); }
  void reset(S z, S v) { Reset(&e, z, v); }
  auto step(S i, S v, S dt, S u) { return Step(&e, i, v, dt, u); }
  auto disp(S i, S dx, S dt, S u) { return StepDisplacement(&e, i, dx, dt, u); }
};
using CApi32 = CApi<float, fl_estimator_params_f32, fl_estimator_f32, fl_estimator_f32_init,
                    fl_estimator_f32_set_params, fl_estimator_f32_reset, fl_estimator_f32_step,
                    fl_estimator_f32_step_displacement>;
using CApi64 = CApi<double, fl_estimator_params_f64, fl_estimator_f64, fl_estimator_f64_init,
                    fl_estimator_f64_set_params, fl_estimator_f64_reset, fl_estimator_f64_step,
                    fl_estimator_f64_step_displacement>;

// Run both over the record; `mode` 0: velocity, 1: displacement; a correction on a stretch of
// samples; the relative tolerance is a few units of rounding of S.
template <class Api>
void compare(const EstimatorParams<double>& pd, int mode, double tol) {
  using S = typename Api::S;
  const auto rec = test::pendulum_record(pd.Km);
  const auto p = estimator::convert<S>(pd);
  auto cpp = estimator::make_estimator<S>(pd);
  Api c;
  ASSERT_EQ(c.init(to_c_params<typename Api::P>(p)), FL_ESTIMATOR_OK);
  EXPECT_EQ(static_cast<double>(c.e.z_max), static_cast<double>(cpp.state_bound()));
  cpp.reset(S(0), static_cast<S>(rec.v[0]));
  c.reset(S(0), static_cast<S>(rec.v[0]));
  const double Fs = std::max(pd.friction.curve.Fs_pos, pd.friction.curve.Fs_neg);
  double max_dF = 0, max_dz = 0;
  for (std::size_t k = 1; k < rec.t.size(); ++k) {
    const S dt = static_cast<S>(rec.t[k] - rec.t[k - 1]);
    const S i = static_cast<S>(rec.i[k]);
    const S u = (k > 5000 && k < 6000) ? S(1e-4) : S(0);
    typename estimator::TorqueEstimator<S>::Output a;
    if (mode == 0) {
      const S v = static_cast<S>(rec.v[k]);
      a = cpp.step(i, v, dt, u);
      const auto b = c.step(i, v, dt, u);
      ASSERT_EQ(a.ok, b.ok != 0);
      max_dF = std::max(max_dF, std::abs(static_cast<double>(a.friction) - b.friction));
      max_dF = std::max(max_dF, std::abs(static_cast<double>(a.torque) - b.torque));
      max_dz = std::max(max_dz, std::abs(static_cast<double>(a.z) - b.z));
    } else {
      const S dx = static_cast<S>(rec.x[k] - rec.x[k - 1]);
      a = cpp.step_displacement(i, dx, dt, u);
      const auto b = c.disp(i, dx, dt, u);
      ASSERT_EQ(a.ok, b.ok != 0);
      max_dF = std::max(max_dF, std::abs(static_cast<double>(a.friction) - b.friction));
      max_dz = std::max(max_dz, std::abs(static_cast<double>(a.z) - b.z));
    }
    ASSERT_TRUE(a.ok);
  }
  EXPECT_LE(max_dF, tol * Fs);
  EXPECT_LE(max_dz, tol * static_cast<double>(cpp.state_bound()));
}

constexpr double kTol64 = 1e-12, kTol32 = 1e-5;

// Both modes for the joint parameters with and without velocity-dependent damping, each hold.
template <class Api>
void compare_all(double tol) {
  for (auto p : {test::joint_params(Hold::linear), test::joint_params(Hold::zoh),
                 test::joint_params_vd(Hold::linear), test::joint_params_vd(Hold::zoh)}) {
    compare<Api>(p, 0, tol);
    compare<Api>(p, 1, tol);
  }
}

TEST(EstimatorC, DoubleEqualsCpp) { compare_all<CApi64>(kTol64); }

TEST(EstimatorC, FloatEqualsCpp) { compare_all<CApi32>(kTol32); }

TEST(EstimatorC, ErrorCodesAreTheCppOnes) {
  static_assert(FL_ESTIMATOR_OK == static_cast<int>(ParamError::ok));
  static_assert(FL_ESTIMATOR_BAD_KM == static_cast<int>(ParamError::Km));
  static_assert(FL_ESTIMATOR_BAD_SIGMA0 == static_cast<int>(ParamError::sigma0));
  static_assert(FL_ESTIMATOR_BAD_FS_NEG == static_cast<int>(ParamError::Fs_neg));
  static_assert(FL_ESTIMATOR_BAD_SHAPE == static_cast<int>(ParamError::shape));
  static_assert(FL_ESTIMATOR_BAD_HOLD == static_cast<int>(ParamError::hold));
  static_assert(FL_HOLD_ZOH == static_cast<int>(Hold::zoh));
  static_assert(FL_HOLD_LINEAR == static_cast<int>(Hold::linear));
  static_assert(FL_STRIBECK_RATIONAL == static_cast<int>(StribeckShape::rational));
  for (int code = 0; code <= FL_ESTIMATOR_BAD_HOLD; ++code)
    EXPECT_STREQ(fl_estimator_param_name(code), param_name(static_cast<ParamError>(code)));
  EXPECT_STREQ(fl_estimator_param_name(99), "unknown");

  const auto base =
      to_c_params<fl_estimator_params_f32>(estimator::convert<float>(test::joint_params()));
  CApi32 c;
  ASSERT_EQ(c.init(base), FL_ESTIMATOR_OK);
  auto bad = base;
  bad.Fs_neg = -1;
  EXPECT_EQ(c.init(bad), FL_ESTIMATOR_BAD_FS_NEG);
  EXPECT_EQ(c.set_params(bad), FL_ESTIMATOR_BAD_FS_NEG);
  bad = base;
  bad.shape = 5;
  EXPECT_EQ(c.set_params(bad), FL_ESTIMATOR_BAD_SHAPE);
  bad = base;
  bad.hold = -1;
  EXPECT_EQ(c.set_params(bad), FL_ESTIMATOR_BAD_HOLD);
  bad = base;
  bad.sigma0 = std::numeric_limits<float>::infinity();
  EXPECT_EQ(c.set_params(bad), FL_ESTIMATOR_BAD_SIGMA0);
  EXPECT_EQ(c.e.params.sigma0, base.sigma0);  // refused: the old set stays
}

// set_params and reset behave as the C++ ones (bumpless sigma0*z, projection on the bound).
TEST(EstimatorC, SetParamsAndResetAsCpp) {
  const auto pd = test::joint_params();
  auto cpp = estimator::make_estimator<double>(pd);
  CApi64 c;
  ASSERT_EQ(c.init(to_c_params<fl_estimator_params_f64>(pd)), FL_ESTIMATOR_OK);
  for (int k = 0; k < 5; ++k) {
    cpp.step(0, 0.002, 1e-3);
    c.step(0, 0.002, 1e-3, 0);
  }
  auto q = pd;
  q.friction.sigma0 = 3e4;
  ASSERT_EQ(cpp.set_params(q), ParamError::ok);
  ASSERT_EQ(c.set_params(to_c_params<fl_estimator_params_f64>(q)), FL_ESTIMATOR_OK);
  EXPECT_EQ(c.e.z, cpp.state().z);
  EXPECT_EQ(c.e.v_prev, cpp.state().v_prev);
  cpp.reset(1.0, 0.25);
  c.reset(1.0, 0.25);
  EXPECT_EQ(c.e.z, cpp.state().z);
  EXPECT_EQ(c.e.v_prev, 0.25);
  const auto o = c.step(0, std::numeric_limits<double>::quiet_NaN(), 1e-3, 0);
  EXPECT_EQ(o.ok, 0);
  EXPECT_EQ(c.e.z, cpp.state().z);
}

}  // namespace
}  // namespace frictionlab
