// LuGreBatch (models/lugre/batch.hpp) and workflows::simulate_batch against the scalar LuGre
// model on the same record: every set's force equals the scalar exact step with the velocity
// held (drive(), Method::exact, Hold::zoh; and workflows::simulate_model with hold zoh) to
// 1e-12 of the set's largest |F| in double, 1e-5 in float; random sets (symmetric and
// asymmetric curves, alpha 1, 2 and 1.37, both shapes, vd = 0 and > 0, sigma0 from 1e2 to
// 1e6), P = 1, 3, 64, 65 (odd sizes exercise the scalar tail after the SIMD packets), a record
// with reversals, zero-velocity samples and uneven steps; on every SIMD path this build and CPU
// have (workflows/batch_simd.hpp: portable, avx2, avx512; a path the CPU lacks is skipped with
// the reason). Errors, progress and cancellation of the workflow, and FRICTIONLAB_BATCH_SIMD.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre/batch.hpp"
#include "frictionlab/workflows/batch.hpp"
#include "frictionlab/workflows/batch_simd.hpp"
#include "frictionlab/workflows/simulate.hpp"

namespace frictionlab {
namespace {

struct Record {
  std::vector<double> t, v;
};

/// 3000 samples, steps of 0.5 to 1.5 ms, two sines (reversals), every 37th velocity exactly 0,
/// a burst of fast sliding (|v| up to 0.3 m/s, far beyond vs) in the middle.
Record test_record() {
  Record r;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> step(0.5e-3, 1.5e-3);
  double t = 0;
  for (int k = 0; k < 3000; ++k) {
    r.t.push_back(t);
    double v = 0.01 * std::sin(2.1 * t * 6.283) + 0.004 * std::sin(13.0 * t * 6.283);
    if (k >= 1400 && k < 1600) v += 0.3 * std::sin((k - 1400) * 3.14159 / 200.0);
    if (k % 37 == 0) v = 0;
    r.v.push_back(v);
    t += step(rng);
  }
  return r;
}

enum class AlphaMix { one, two, mixed };

/// Random valid sets: half asymmetric, alpha from `mix` (mixed: 1, 2 and 1.37 in turn), every
/// fifth set rational, every third with vd > 0 (unless `plain`).
std::vector<LuGre<double>::Params> random_sets(int P, AlphaMix mix, unsigned seed,
                                               bool plain = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const auto logu = [&](double lo, double hi) {
    return std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * u(rng));
  };
  std::vector<LuGre<double>::Params> out;
  for (int i = 0; i < P; ++i) {
    LuGre<double>::Params p;
    p.sigma0 = logu(1e2, 1e6);
    p.sigma1 = i % 7 == 3 ? 0.0 : logu(1e-2, 2 * std::sqrt(p.sigma0));
    p.sigma2 = i % 5 == 1 ? 0.0 : u(rng);
    const double Fc = 0.5 + 1.5 * u(rng), Fs = Fc * (1 + u(rng));
    const double vs = logu(1e-3, 5e-2);
    const double alpha = mix == AlphaMix::one   ? 1.0
                         : mix == AlphaMix::two ? 2.0
                                                : (i % 3 == 0   ? 1.0
                                                   : i % 3 == 1 ? 2.0
                                                                : 1.37);
    const auto shape = !plain && i % 5 == 4 ? StribeckShape::rational : StribeckShape::exponential;
    p.curve = StribeckCurve<double>::symmetric(Fc, Fs, vs, alpha, shape);
    if (i % 2 == 1) {
      p.curve.Fc_neg = Fc * (0.6 + 0.8 * u(rng));
      p.curve.Fs_neg = p.curve.Fc_neg * (1 + u(rng));
    }
    p.vd = !plain && i % 3 == 2 ? logu(1e-3, 1e-1) : 0.0;
    out.push_back(p);
  }
  return out;
}

/// The scalar reference: drive() with the exact step, v held (the loop of simulate_model).
template <class S>
std::vector<S> scalar_forces(const typename LuGre<S>::Params& p, const std::vector<S>& t,
                             const std::vector<S>& v) {
  std::vector<S> F(t.size());
  drive<LuGre<S>>(p, {}, t.data(), v.data(), static_cast<long>(t.size()), Method::exact, Hold::zoh,
                  S(0), [&](long k, S f, const auto&) { F[static_cast<std::size_t>(k)] = f; });
  return F;
}

/// Largest |F_batch - F_scalar| over the record, relative to the largest |F_scalar|.
template <class S>
double relative_error(const S* batch_row, const std::vector<S>& ref) {
  double err = 0, scale = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    err = std::max(err, std::abs(static_cast<double>(batch_row[k]) - static_cast<double>(ref[k])));
    scale = std::max(scale, std::abs(static_cast<double>(ref[k])));
  }
  return err / scale;
}

/// Records the worst relative error of a test (the largest over its calls) as the test property
/// "worst_relative_error" (in the XML output of --gtest_output).
void record_worst(double e) {
  static std::string test;
  static double worst = 0;
  const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  if (name != test) test = name, worst = 0;
  worst = std::max(worst, e);
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", worst);
  ::testing::Test::RecordProperty("worst_relative_error", text);
}

using frictionlab::testing::message_of;
using workflows::BatchSimd;

template <class S>
void expect_batch_equals_scalar(const std::vector<LuGre<double>::Params>& sets, double tol,
                                BatchSimd simd = BatchSimd::portable) {
  const Record rec = test_record();
  const std::vector<S> t(rec.t.begin(), rec.t.end()), v(rec.v.begin(), rec.v.end());
  std::vector<typename LuGre<S>::Params> ps;
  for (const auto& p : sets) ps.push_back(cast_params<S>(p));
  LuGreBatch<S> batch(ps, workflows::lugre_batch_kernels<S>(simd));
  ASSERT_EQ(std::string(batch.simd()), workflows::batch_simd_name(simd));
  ASSERT_EQ(batch.size(), static_cast<Eigen::Index>(ps.size()));
  const long n = static_cast<long>(t.size());
  std::vector<S> F(ps.size() * t.size(), S(-12345));
  batch.simulate(t.data(), v.data(), n, F.data(), n);
  double worst = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const auto ref = scalar_forces<S>(ps[i], t, v);
    const double e = relative_error(F.data() + i * t.size(), ref);
    worst = std::max(worst, e);
    EXPECT_LE(e, tol) << "set " << i << " (sigma0 " << sets[i].sigma0 << ", alpha "
                      << sets[i].curve.alpha << ")";
    // The final state is the scalar model's state at the last sample.
    typename LuGre<S>::State x{};
    for (long k = 0; k + 1 < n; ++k) x = LuGre<S>::step(ps[i], x, v[k], t[k + 1] - t[k]);
    const double zb = static_cast<double>(batch.z()[static_cast<Eigen::Index>(i)]);
    EXPECT_LE(std::abs(zb - static_cast<double>(x.z)),
              tol * 10 * static_cast<double>(LuGre<S>::state_bound(ps[i])))
        << "set " << i;
  }
  record_worst(worst);
}

/// The accuracy tests run on every SIMD path; a path this build or CPU lacks is skipped.
class LuGreBatchPath : public ::testing::TestWithParam<BatchSimd> {
 protected:
  void SetUp() override {
    if (!workflows::batch_simd_available(GetParam()))
      GTEST_SKIP() << "SIMD path " << workflows::batch_simd_name(GetParam())
                   << " not available: not built (not x86-64, or the compiler lacks the flags) "
                      "or this CPU lacks the instructions";
  }
};

TEST_P(LuGreBatchPath, DoubleEqualsScalarForEveryAlphaPathAndSize) {
  for (int P : {1, 3, 64, 65})
    for (AlphaMix mix : {AlphaMix::one, AlphaMix::two, AlphaMix::mixed}) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", alpha mix " + std::to_string(int(mix)));
      expect_batch_equals_scalar<double>(random_sets(P, mix, 100u + unsigned(P)), 1e-12,
                                         GetParam());
    }
}

TEST_P(LuGreBatchPath, DoubleEqualsScalarWithOneShapeAndNoVd) {
  // All exponential and all rational without vd: the kernels without the per-set selections.
  for (int P : {3, 64}) {
    auto sets = random_sets(P, AlphaMix::mixed, 5u, /*plain=*/true);
    expect_batch_equals_scalar<double>(sets, 1e-12, GetParam());
    for (auto& p : sets) p.curve.shape = StribeckShape::rational;
    expect_batch_equals_scalar<double>(sets, 1e-12, GetParam());
  }
}

TEST_P(LuGreBatchPath, FloatEqualsScalarFloat) {
  for (int P : {1, 3, 64, 65})
    for (AlphaMix mix : {AlphaMix::one, AlphaMix::two, AlphaMix::mixed}) {
      SCOPED_TRACE("P = " + std::to_string(P));
      expect_batch_equals_scalar<float>(random_sets(P, mix, 200u + unsigned(P)), 1e-5, GetParam());
    }
}

TEST_P(LuGreBatchPath, SampleByDoesWhatSimulateDoes) {
  const auto sets = random_sets(4, AlphaMix::mixed, 11);
  const Record rec = test_record();
  const long n = static_cast<long>(rec.t.size());
  auto a = workflows::make_lugre_batch<double>(sets, GetParam());
  auto b = a;  // a copy: the same path and state
  std::vector<double> Fa(sets.size() * rec.t.size()), Fb(Fa.size());
  a.simulate(rec.t.data(), rec.v.data(), n, Fa.data(), n);
  for (long k = 0; k < n; ++k)
    b.sample(rec.v[std::size_t(k)],
             k + 1 < n ? rec.t[std::size_t(k + 1)] - rec.t[std::size_t(k)] : 0.0, Fb.data() + k, n);
  EXPECT_EQ(Fa, Fb);
  for (Eigen::Index i = 0; i < a.size(); ++i) EXPECT_EQ(a.z()[i], b.z()[i]);
}

INSTANTIATE_TEST_SUITE_P(Simd, LuGreBatchPath,
                         ::testing::Values(BatchSimd::portable, BatchSimd::avx2, BatchSimd::avx512),
                         [](const ::testing::TestParamInfo<BatchSimd>& i) {
                           return std::string(workflows::batch_simd_name(i.param));
                         });

TEST(LuGreBatch, WidePathsAgreeWithThePortablePathToRounding) {
  // The same sets on every available path: the forces agree to rounding (Eigen's exp/log on
  // wider packets, FMA), far below the 1e-12 to the scalar model.
  const auto sets = random_sets(64, AlphaMix::mixed, 21);
  const Record rec = test_record();
  const long n = static_cast<long>(rec.t.size());
  std::vector<double> ref(sets.size() * rec.t.size());
  workflows::make_lugre_batch<double>(sets, BatchSimd::portable)
      .simulate(rec.t.data(), rec.v.data(), n, ref.data(), n);
  int wide = 0;
  for (BatchSimd s : {BatchSimd::avx2, BatchSimd::avx512}) {
    if (!workflows::batch_simd_available(s)) {
      std::printf("[   INFO   ] SIMD path %s not available here: not compared\n",
                  std::string(workflows::batch_simd_name(s)).c_str());
      continue;
    }
    ++wide;
    std::vector<double> F(ref.size());
    auto b = workflows::make_lugre_batch<double>(sets, s);
    EXPECT_EQ(b.simd_width(), s == BatchSimd::avx2 ? 4 : 8);
    b.simulate(rec.t.data(), rec.v.data(), n, F.data(), n);
    for (std::size_t i = 0; i < sets.size(); ++i)
      EXPECT_LE(relative_error(F.data() + i * rec.t.size(),
                               std::vector<double>(ref.begin() + long(i * rec.t.size()),
                                                   ref.begin() + long((i + 1) * rec.t.size()))),
                1e-13)
          << workflows::batch_simd_name(s) << ", set " << i;
  }
  if (wide == 0) GTEST_SKIP() << "no wide SIMD path on this build or CPU";
}

TEST(LuGreBatch, TheEnvironmentCapsThePath) {
  const char* old = std::getenv("FRICTIONLAB_BATCH_SIMD");
  const std::string saved = old != nullptr ? old : "";
  const auto widest = [] {
    for (BatchSimd s : {BatchSimd::avx512, BatchSimd::avx2})
      if (workflows::batch_simd_available(s)) return s;
    return BatchSimd::portable;
  }();
  ::unsetenv("FRICTIONLAB_BATCH_SIMD");
  EXPECT_EQ(workflows::batch_simd(), widest);
  ::setenv("FRICTIONLAB_BATCH_SIMD", "portable", 1);
  EXPECT_EQ(workflows::batch_simd(), BatchSimd::portable);
  EXPECT_EQ(
      std::string(workflows::make_lugre_batch<double>(random_sets(3, AlphaMix::two, 1)).simd()),
      "portable");
  ::setenv("FRICTIONLAB_BATCH_SIMD", "avx2", 1);
  EXPECT_EQ(workflows::batch_simd(), workflows::batch_simd_available(BatchSimd::avx2)
                                         ? BatchSimd::avx2
                                         : BatchSimd::portable);
  ::setenv("FRICTIONLAB_BATCH_SIMD", "sse9", 1);
  const auto m = message_of<std::invalid_argument>([] { workflows::batch_simd(); });
  EXPECT_NE(m.find("FRICTIONLAB_BATCH_SIMD = 'sse9': must be portable, avx2 or avx512"),
            std::string::npos)
      << m;
  if (old != nullptr)
    ::setenv("FRICTIONLAB_BATCH_SIMD", saved.c_str(), 1);
  else
    ::unsetenv("FRICTIONLAB_BATCH_SIMD");
  if (!workflows::batch_simd_available(BatchSimd::avx512)) {
    EXPECT_NE(message_of<std::invalid_argument>([] {
                workflows::lugre_batch_kernels<double>(BatchSimd::avx512);
              }).find("'avx512' is not available"),
              std::string::npos);
  }
}

TEST(LuGreBatch, FastPathsAreChosenOnlyWhenEverySetAllowsThem) {
  using B = LuGreBatch<double>;
  EXPECT_EQ(B(random_sets(5, AlphaMix::one, 1)).alpha_kind(), 1);
  EXPECT_EQ(B(random_sets(5, AlphaMix::two, 1)).alpha_kind(), 2);
  EXPECT_EQ(B(random_sets(5, AlphaMix::mixed, 1)).alpha_kind(), 0);
}

TEST(LuGreBatch, TheComparisonSeesAOneInABillionChange) {
  // The tolerance of the tests above is meaningful: sigma0 changed by 1e-9 (relative) in the
  // batch moves the forces by far more than 1e-12.
  auto sets = random_sets(3, AlphaMix::mixed, 9);
  const Record rec = test_record();
  auto moved = sets;
  for (auto& p : moved) p.sigma0 *= 1 + 1e-9;
  LuGreBatch<double> batch(moved);
  const long n = static_cast<long>(rec.t.size());
  std::vector<double> F(sets.size() * rec.t.size());
  batch.simulate(rec.t.data(), rec.v.data(), n, F.data(), n);
  for (std::size_t i = 0; i < sets.size(); ++i)
    EXPECT_GT(
        relative_error(F.data() + i * rec.t.size(), scalar_forces<double>(sets[i], rec.t, rec.v)),
        1e-11)
        << "set " << i;
}

// ---------------------------------------------------------------- workflows::simulate_batch

/// Sets FRICTIONLAB_BATCH_SIMD for the scope (unset: nullptr).
class ScopedSimdEnv {
 public:
  explicit ScopedSimdEnv(const char* value) {
    if (const char* o = std::getenv("FRICTIONLAB_BATCH_SIMD")) had_ = true, old_ = o;
    if (value != nullptr)
      ::setenv("FRICTIONLAB_BATCH_SIMD", value, 1);
    else
      ::unsetenv("FRICTIONLAB_BATCH_SIMD");
  }
  ~ScopedSimdEnv() {
    if (had_)
      ::setenv("FRICTIONLAB_BATCH_SIMD", old_.c_str(), 1);
    else
      ::unsetenv("FRICTIONLAB_BATCH_SIMD");
  }
  ScopedSimdEnv(const ScopedSimdEnv&) = delete;
  ScopedSimdEnv& operator=(const ScopedSimdEnv&) = delete;

 private:
  bool had_ = false;
  std::string old_;
};

class WorkflowSimulateBatchPath : public ::testing::TestWithParam<const char*> {};

TEST_P(WorkflowSimulateBatchPath, RowsEqualSimulateModelWithZoh) {
  // The widest path (FRICTIONLAB_BATCH_SIMD unset) and the portable one forced.
  const ScopedSimdEnv env(GetParam());
  std::printf("[   INFO   ] simulate_batch takes the %s path\n",
              std::string(workflows::batch_simd_name(workflows::batch_simd())).c_str());
  const auto sets = random_sets(65, AlphaMix::mixed, 3);
  const Record rec = test_record();
  const auto r = workflows::simulate_batch(sets, rec.t, rec.v);
  ASSERT_EQ(r.sets, sets.size());
  ASSERT_EQ(r.samples, rec.t.size());
  ASSERT_EQ(r.F.size(), sets.size() * rec.t.size());
  ASSERT_EQ(r.z_final.size(), sets.size());
  workflows::SimulateModelOptions o;
  o.hold = Hold::zoh;
  workflows::ModelInputView in;
  in.t = rec.t;
  in.v = rec.v;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const auto s = workflows::simulate_model(ModelSpec{sets[i]}, in, o);
    EXPECT_LE(relative_error(r.F.data() + i * r.samples, s.F), 1e-12) << "set " << i;
    EXPECT_NEAR(r.z_final[i], s.states[0].back(), 1e-11 * LuGre<double>::state_bound(sets[i]))
        << "set " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Simd, WorkflowSimulateBatchPath,
                         ::testing::Values(static_cast<const char*>(nullptr), "portable"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           return std::string(i.param == nullptr ? "widest" : i.param);
                         });

TEST(WorkflowSimulateBatch, ParameterWarningsNameTheSet) {
  auto sets = random_sets(3, AlphaMix::two, 4, true);
  for (auto& p : sets) p.sigma1 = 0, p.sigma2 = 1;  // passive: no warning
  sets[1].sigma1 = 1e3;  // sigma2 < sigma1 (Fs - Fc) / Fc: not passive (a warning)
  sets[1].sigma2 = 0;
  const Record rec = test_record();
  const auto r = workflows::simulate_batch(sets, rec.t, rec.v);
  ASSERT_EQ(r.warnings.size(), 2u);  // set 1 is asymmetric: one warning per side
  for (const auto& w : r.warnings)
    EXPECT_EQ(w.rfind("parameter set 1: parameter 'sigma1': the map v -> F is not passive", 0), 0u)
        << w;
}

TEST(WorkflowSimulateBatch, ErrorsNameTheSetTheFieldOrTheSample) {
  const auto sets = random_sets(3, AlphaMix::two, 4);
  const Record rec = test_record();
  using workflows::simulate_batch;
  EXPECT_NE(message_of<std::invalid_argument>([&] {
              simulate_batch({}, rec.t, rec.v);
            }).find("no parameter set"),
            std::string::npos);
  auto bad = sets;
  bad[2].sigma0 = -1;
  auto m = message_of<std::invalid_argument>([&] { simulate_batch(bad, rec.t, rec.v); });
  EXPECT_NE(m.find("parameter set 2: parameter 'sigma0'"), std::string::npos) << m;
  bad = sets;
  bad[1].curve.alpha = 0;
  m = message_of<std::invalid_argument>([&] { simulate_batch(bad, rec.t, rec.v); });
  EXPECT_NE(m.find("parameter set 1: parameter 'alpha'"), std::string::npos) << m;
  bad = sets;
  bad[0].curve.Fc_neg = std::nan("");
  m = message_of<std::invalid_argument>([&] { simulate_batch(bad, rec.t, rec.v); });
  EXPECT_NE(m.find("parameter set 0: parameter 'Fc_neg'"), std::string::npos) << m;

  std::vector<double> t = rec.t, v = rec.v;
  v.pop_back();
  m = message_of<std::invalid_argument>([&] { simulate_batch(sets, t, v); });
  EXPECT_NE(m.find("3000 times but 2999 velocities"), std::string::npos) << m;
  m = message_of<std::invalid_argument>(
      [&] { simulate_batch(sets, std::vector<double>{0.0}, std::vector<double>{1.0}); });
  EXPECT_NE(m.find("at least 2 samples"), std::string::npos) << m;
  v = rec.v;
  v[5] = std::nan("");
  m = message_of<std::invalid_argument>([&] { simulate_batch(sets, rec.t, v); });
  EXPECT_NE(m.find("sample 5: v = nan is not a number"), std::string::npos) << m;
  v = rec.v;
  v[6] = 1e300;
  m = message_of<std::invalid_argument>([&] { simulate_batch(sets, rec.t, v); });
  EXPECT_NE(m.find("sample 6: v = 1e+300 is beyond the limit"), std::string::npos) << m;
  t = rec.t;
  t[4] = std::numeric_limits<double>::infinity();
  m = message_of<std::invalid_argument>([&] { simulate_batch(sets, t, rec.v); });
  EXPECT_NE(m.find("sample 4: t = inf"), std::string::npos) << m;
  t = rec.t;
  t[3] = t[2];
  m = message_of<std::invalid_argument>([&] { simulate_batch(sets, t, rec.v); });
  EXPECT_NE(m.find("sample 3: t = "), std::string::npos) << m;
  EXPECT_NE(m.find("strictly increasing"), std::string::npos) << m;
}

TEST(WorkflowSimulateBatch, ReportsProgressAndCancels) {
  const auto sets = random_sets(2, AlphaMix::two, 4);
  // 20 000 samples: more than one block of 8192, so there are reports between blocks.
  std::vector<double> t, v;
  for (int k = 0; k < 20000; ++k) {
    t.push_back(k * 1e-3);
    v.push_back(0.01 * std::sin(k * 1e-3 * 6.283));
  }
  std::vector<double> fractions;
  workflows::Progress pr;
  pr.report = [&](const workflows::ProgressEvent& e) { fractions.push_back(e.fraction); };
  const auto r = workflows::simulate_batch(sets, t, v, pr);
  ASSERT_GE(fractions.size(), 4u);
  EXPECT_EQ(fractions.front(), 0.0);
  EXPECT_EQ(fractions.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  // The blocks join without a seam: the same forces as one simulate() call (on the same path).
  auto b = workflows::make_lugre_batch<double>(sets);
  std::vector<double> F(r.F.size());
  b.simulate(t.data(), v.data(), 20000, F.data(), 20000);
  EXPECT_EQ(F, r.F);

  int polls = 0;
  workflows::Progress stop;
  stop.cancel = [&] { return ++polls >= 2; };  // stop at the first block boundary
  EXPECT_THROW(workflows::simulate_batch(sets, t, v, stop), workflows::Cancelled);
  EXPECT_EQ(polls, 2);
}

}  // namespace
}  // namespace frictionlab
