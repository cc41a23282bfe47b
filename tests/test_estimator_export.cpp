// `frictionlab export c`, compiled on the host: the code generated at build time from
// examples/data/joint_estimator.json (tests/estimator.cmake) reproduces the library estimator,
// built from the same file, on a recorded input, in float and double, in both input modes.
// The same for the code generated from a joint_fit.json (fit-joint --method sr3 on a synthetic
// record, exported with --km 0.5), which must also reproduce the joint fit's own friction model
// (JointLuGre, read back with io::read_joint_file: a model implementation independent of the
// LuGre one the estimator steps).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "estimator_fixtures.hpp"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/models/joint_lugre.hpp"
#include "joint_f32.h"
#include "joint_f64.h"
#include "joint_fit_f32.h"
#include "joint_fit_f64.h"

namespace frictionlab {
namespace {

const std::string kParams =
    std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/joint_estimator.json";

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
using Gen32 = Gen<float, joint_f32_state, joint_f32_reset, joint_f32_step,
                  joint_f32_step_displacement, joint_f32_check, double(JOINT_F32_Z_MAX)>;
using Gen64 = Gen<double, joint_f64_state, joint_f64_reset, joint_f64_step,
                  joint_f64_step_displacement, joint_f64_check, double(JOINT_F64_Z_MAX)>;
using JointGen32 =
    Gen<float, joint_fit_f32_state, joint_fit_f32_reset, joint_fit_f32_step,
        joint_fit_f32_step_displacement, joint_fit_f32_check, double(JOINT_FIT_F32_Z_MAX)>;
using JointGen64 =
    Gen<double, joint_fit_f64_state, joint_fit_f64_reset, joint_fit_f64_step,
        joint_fit_f64_step_displacement, joint_fit_f64_check, double(JOINT_FIT_F64_Z_MAX)>;

const std::string kJointFit = FRICTIONLAB_JOINT_FIT_JSON;
constexpr double kJointKm = 0.5;  // the --km of the export (tests/estimator.cmake)

/// The estimator parameters of the joint fit as every export reads them.
estimator::EstimatorParams<double> joint_fit_params() {
  io::EstimatorOverrides o;
  o.Km = kJointKm;
  return io::estimator_params(io::read_friction_source(kJointFit), o);
}

template <class G>
void compare(bool displacement, double tol,
             const estimator::EstimatorParams<double>& p = io::read_estimator_params(kParams)) {
  using S = typename G::S;
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
    const auto a = displacement
                       ? est.step_displacement(i, static_cast<S>(rec.x[k] - rec.x[k - 1]), dt, u)
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

TEST(EstimatorExportC, JointFitDoubleReproducesTheEstimator) {
  compare<JointGen64>(false, 1e-12, joint_fit_params());
  compare<JointGen64>(true, 1e-12, joint_fit_params());
}

TEST(EstimatorExportC, JointFitFloatReproducesTheEstimator) {
  compare<JointGen32>(false, 1e-5, joint_fit_params());
  compare<JointGen32>(true, 1e-5, joint_fit_params());
}

// The generated code against the joint fit's own model: JointLuGre stepped with the linearly
// interpolated velocity over the actual elapsed time (the estimator's default hold), its force
// at the end of each step, torque = Km i - F. Relative to the largest friction along the record
// (measured: 1.5e-15 in double, 1.3e-6 in float).
template <class G>
void compare_with_joint_model(double tol) {
  using S = typename G::S;
  using JL = JointLuGre<double>;
  const JL::Params jl = std::get<JL::Params>(io::read_joint_file(kJointFit).model.friction);
  // The fit has the terms the mapping turns into lugre's (one Stribeck term, linear viscous).
  ASSERT_EQ(jl.n_stribeck, 1);
  ASSERT_EQ(jl.n_viscous, 1);
  ASSERT_GT(jl.Fs[0], 0.0);
  const auto rec = test::pendulum_record(kJointKm);
  G g;
  g.reset(S(0), static_cast<S>(rec.v[0]));
  JL::State z{0};
  double max_dF = 0, max_F = 0;
  for (std::size_t k = 1; k < rec.t.size(); ++k) {
    const double dt = rec.t[k] - rec.t[k - 1];
    z = JL::step_linear(jl, z, rec.v[k - 1], rec.v[k], dt);
    const double F = JL::force(jl, z, rec.v[k]);
    const auto b =
        g.step(static_cast<S>(rec.i[k]), static_cast<S>(rec.v[k]), static_cast<S>(dt), S(0));
    ASSERT_EQ(b.ok, 1);
    max_F = std::max(max_F, std::abs(F));
    max_dF = std::max({max_dF, std::abs(F - static_cast<double>(b.friction)),
                       std::abs(kJointKm * rec.i[k] - F - static_cast<double>(b.torque))});
  }
  EXPECT_LE(max_dF, tol * max_F) << "largest friction " << max_F;
}

TEST(EstimatorExportC, JointFitDoubleIsTheJointModel) {
  compare_with_joint_model<JointGen64>(1e-12);
}

TEST(EstimatorExportC, JointFitFloatIsTheJointModel) { compare_with_joint_model<JointGen32>(1e-5); }

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
