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
#include "frictionlab/estimator/adaptive_estimator.h"
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

// The exported adaptive estimator (export c --adaptive of an ESTIMATOR.json: no standard
// errors, so the C API's default start) is the C API's adaptive estimator, output for output and
// parameter for parameter, on the recorded motion with a reference torque.
template <class T, class Gen, class Options, class Api, class ApiOptions, class ApiParams,
          class GenInit, class GenStep, class GenDefaults, class ApiInit, class ApiStep,
          class ApiDefaults>
void compare_adaptive(GenDefaults gen_defaults, GenInit gen_init, GenStep gen_step,
                      ApiDefaults api_defaults, ApiInit api_init, ApiStep api_step) {
  const auto p = test::joint_params();
  const auto rec = test::pendulum_record(p.Km);
  const auto c = estimator::to_c_params<ApiParams>(p);
  Options go;
  gen_defaults(&go);
  Gen g;
  ASSERT_EQ(gen_init(&g, &go), 0);
  ApiOptions ao;
  api_defaults(&ao);
  Api a;
  ASSERT_EQ(api_init(&a, &c, &ao), 0);
  long updates = 0;
  for (std::size_t k = 1; k < rec.t.size(); ++k) {
    const T dt = T(rec.t[k] - rec.t[k - 1]);
    const T tau_ref = T(0.9 * p.Km * rec.i[k]);  // a joint with less friction than the fit's
    const auto ro = gen_step(&g, T(rec.i[k]), T(rec.v[k]), dt, T(30), tau_ref, 1);
    const auto ra = api_step(&a, T(rec.i[k]), T(rec.v[k]), dt, T(30), tau_ref, 1);
    ASSERT_EQ(ro.torque, ra.torque) << k;
    ASSERT_EQ(ro.updated, ra.updated) << k;
    updates += ro.updated;
  }
  EXPECT_GT(updates, 1000);
  for (int j = 0; j < 6; ++j) EXPECT_EQ(g.theta[j], a.theta[j]) << j;
}

TEST(EstimatorExportC, AdaptiveIsTheCApisAdaptiveEstimator) {
  compare_adaptive<float, joint_f32_adaptive, joint_f32_adaptive_options, fl_adaptive_f32,
                   fl_adaptive_options_f32, fl_estimator_params_f32>(
      joint_f32_adaptive_default_options, joint_f32_adaptive_init, joint_f32_adaptive_step,
      fl_adaptive_f32_default_options, fl_adaptive_f32_init, fl_adaptive_f32_step);
  compare_adaptive<double, joint_f64_adaptive, joint_f64_adaptive_options, fl_adaptive_f64,
                   fl_adaptive_options_f64, fl_estimator_params_f64>(
      joint_f64_adaptive_default_options, joint_f64_adaptive_init, joint_f64_adaptive_step,
      fl_adaptive_f64_default_options, fl_adaptive_f64_init, fl_adaptive_f64_step);
}

TEST(EstimatorExportC, AdaptiveStartsFromTheFitsStandardErrors) {
  // sensorless_fit.json has standard errors: kappa's variance is (se(Fc)/Fc)^2
  const auto src = io::read_friction_source(std::string(FRICTIONLAB_SOURCE_DIR) +
                                            "/examples/data/sensorless_fit.json");
  const auto p = io::estimator_params(src, {});
  const io::AdaptiveStart a = io::adaptive_start(src, p);
  const double r = src.std_errors.at("Fc_pos") / p.friction.curve.Fc_pos;
  EXPECT_DOUBLE_EQ(a.P0[1], r * r);
  EXPECT_DOUBLE_EQ(a.P0[3], src.std_errors.at("sigma2") * src.std_errors.at("sigma2"));
  // an ESTIMATOR.json has none: the C API's defaults, and a note says so
  const auto est = io::read_friction_source(std::string(FRICTIONLAB_SOURCE_DIR) +
                                            "/examples/data/joint_estimator.json");
  const io::AdaptiveStart d = io::adaptive_start(est, io::estimator_params(est, {}));
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  for (int j = 0; j < 6; ++j) EXPECT_EQ(d.P0[static_cast<std::size_t>(j)], o.P0[j]) << j;
  EXPECT_NE(d.notes[1].find("has no standard error of Fc_pos"), std::string::npos) << d.notes[1];
}

}  // namespace
}  // namespace frictionlab
