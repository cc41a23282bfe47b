// workflows::run_demo against what its parts document: the LuGre state bound max(Fc, Fs)/sigma0
// (closed form) kept by the exact step and left by forward Euler at 10 ms; the stick-slip peak
// spring elongation near Fs/k (breakaway); the identification recovering its true parameters
// within a few standard errors and a validation RMSE at the noise level; progress and cancel.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "frictionlab/workflows/demo.hpp"

namespace frictionlab {
namespace {

TEST(WorkflowDemo, EveryPartAgainstItsDocumentedTruth) {
  int reports = 0;
  workflows::Progress progress;
  progress.report = [&](const workflows::ProgressEvent&) { ++reports; };
  const workflows::DemoOutcome r = workflows::run_demo(progress);
  EXPECT_GE(reports, 3);

  // (a)
  const auto& a = r.step_size;
  EXPECT_DOUBLE_EQ(a.state_bound, 1.5 / 1e5);
  ASSERT_EQ(a.t.size(), 201u);  // 2 s at 10 ms
  ASSERT_EQ(a.runs.size(), 4u);
  const auto& exact = a.runs[0];
  EXPECT_LT(exact.non_finite, 0);
  EXPECT_LT(exact.left_bound, 0);
  EXPECT_LE(exact.max_z_over_bound, 1.0);
  EXPECT_LT(exact.max_error, a.runs[1].max_error);  // exact step beats implicit Euler
  const auto& euler10 = a.runs[2];
  EXPECT_GE(euler10.left_bound, 0);  // unstable at 10 ms
  EXPECT_GT(euler10.max_z_over_bound, 1.0);
  EXPECT_LT(a.runs[3].left_bound, 0);  // stable at 0.1 ms
  for (const auto& c : a.runs) {
    if (c.non_finite >= 0) continue;
    ASSERT_EQ(c.F.size(), a.t.size());
    for (std::size_t k = 0; k < a.t.size(); ++k) ASSERT_DOUBLE_EQ(c.error[k], c.F[k] - a.F_ref[k]);
  }

  // (b)
  const auto& b = r.stick_slip;
  ASSERT_EQ(b.runs.size(), 3u);
  EXPECT_TRUE(b.runs.back().reference);
  EXPECT_EQ(b.runs.back().max_dx, 0.0);
  const double Fs = 1.5;
  EXPECT_NEAR(b.peak_elongation, Fs / b.spec.k, 0.02 * Fs / b.spec.k);
  for (const auto& run : b.runs) EXPECT_LT(run.max_dx, 0.01 * b.peak_elongation) << run.name;

  // (c)
  const auto& c = r.identification;
  ASSERT_EQ(c.parameters.size(), 7u);
  for (const auto& p : c.parameters) {
    EXPECT_LT(std::abs(p.estimate - p.truth), 4 * p.std_error) << p.name;
    EXPECT_DOUBLE_EQ(p.z, (p.estimate - p.truth) / p.std_error);
  }
  EXPECT_NEAR(c.validation_metrics.rmse, c.train_options.noise_std,
              0.1 * c.train_options.noise_std);
}

TEST(WorkflowDemo, Cancels) {
  workflows::Progress cancel;
  int polls = 0;
  cancel.cancel = [&] { return ++polls > 2; };  // during (a)
  EXPECT_THROW((void)workflows::run_demo(cancel), workflows::Cancelled);
  EXPECT_EQ(polls, 3);
}

}  // namespace
}  // namespace frictionlab
