// `frictionlab export c`, compiled on the host: the code generated at build time from
// examples/data/joint_estimator.json (tests/estimator.cmake) reproduces the library estimator,
// built from the same file, on a recorded input, in float and double, in both input modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "estimator_fixtures.hpp"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "joint_f32.h"
#include "joint_f64.h"

namespace frictionlab {
namespace {

const std::string kParams = std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/joint_estimator.json";

// The generated C functions of one precision, so that the comparison is written once.
template <class Scalar, class State, auto Reset, auto Step, auto StepDisplacement, auto Check,
          double ZMax>
struct Gen {
  using S = Scalar;
  State s{};
  void reset(S z, S v) { Reset(&s, z, v); }
  auto step(S i, S v, S dt, S u) { return Step(&s, i, v, dt, u); }
  auto disp(S i, S dx, S dt, S u) { return StepDisplacement(&s, i, dx, dt, u); }
  static int check() { return Check(); }
  static double zmax() { return ZMax; }
};
using Gen32 = Gen<float, joint_f32_state, joint_f32_reset, joint_f32_step, joint_f32_step_displacement,
                  joint_f32_check, double(JOINT_F32_Z_MAX)>;
using Gen64 = Gen<double, joint_f64_state, joint_f64_reset, joint_f64_step, joint_f64_step_displacement,
                  joint_f64_check, double(JOINT_F64_Z_MAX)>;

template <class G>
void compare(bool displacement, double tol) {
  using S = typename G::S;
  const auto p = io::read_estimator_params(kParams);
  const auto rec = test::pendulum_record(p.Km);
  auto est = estimator::make_estimator<S>(p);
  EXPECT_EQ(G::check(), 0);
  EXPECT_EQ(G::zmax(), static_cast<double>(est.state_bound()));
  G g;
  est.reset(S(0), static_cast<S>(rec.v[0]));
  g.reset(S(0), static_cast<S>(rec.v[0]));
  double max_dF = 0, max_dz = 0;
  for (std::size_t k = 1; k < rec.t.size(); ++k) {
    const S dt = static_cast<S>(rec.t[k] - rec.t[k - 1]), i = static_cast<S>(rec.i[k]);
    const S u = (k > 20000 && k < 20500) ? S(2e-4) : S(0);
    const auto a = displacement ? est.step_displacement(i, static_cast<S>(rec.x[k] - rec.x[k - 1]), dt, u)
                                : est.step(i, static_cast<S>(rec.v[k]), dt, u);
    const auto b = displacement ? g.disp(i, static_cast<S>(rec.x[k] - rec.x[k - 1]), dt, u)
                                : g.step(i, static_cast<S>(rec.v[k]), dt, u);
    ASSERT_TRUE(a.ok);
    ASSERT_EQ(b.ok, 1);
    max_dF = std::max({max_dF, std::abs(static_cast<double>(a.friction) - b.friction),
                       std::abs(static_cast<double>(a.torque) - b.torque)});
    max_dz = std::max(max_dz, std::abs(static_cast<double>(a.z) - b.z));
  }
  EXPECT_LE(max_dF, tol * p.friction.curve.Fs_pos);
  EXPECT_LE(max_dz, tol * static_cast<double>(est.state_bound()));
}

TEST(EstimatorExportC, DoubleReproducesTheEstimator) {
  compare<Gen64>(false, 1e-12);
  compare<Gen64>(true, 1e-12);
}

TEST(EstimatorExportC, FloatReproducesTheEstimator) {
  compare<Gen32>(false, 1e-5);
  compare<Gen32>(true, 1e-5);
}

// Bad input leaves the state unchanged, as in the library.
TEST(EstimatorExportC, NonFiniteInput) {
  joint_f32_state s{};
  joint_f32_reset(&s, 1.0f, 0.1f);  // projected onto the bound
  EXPECT_EQ(s.z, static_cast<float>(JOINT_F32_Z_MAX));
  const auto o = joint_f32_step(&s, 1.0f, std::nanf(""), 1e-3f, 0.0f);
  EXPECT_EQ(o.ok, 0);
  EXPECT_EQ(s.z, static_cast<float>(JOINT_F32_Z_MAX));
  EXPECT_EQ(s.v_prev, 0.1f);
}

}  // namespace
}  // namespace frictionlab
