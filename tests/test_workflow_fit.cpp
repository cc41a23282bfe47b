// workflows::fit and workflows::prepare_record on synthetic records (identify/synthetic.hpp):
// the outcome equals the library calls it stands for on the same data (data::preprocess,
// data::check_record, identify::fit, identify::evaluate, identify::predict,
// identify::steady_force), the truth of noise-free data is recovered, the series of the plots
// are consistent (residual, friction against velocity sorted, Km*current - torque), and
// Progress reports and cancels (inside identify::fit too: FitOptions::cancel is polled at every
// start, candidate start point and solver iteration).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "lugre_test_record.hpp"

namespace frictionlab::workflows {
namespace {

// Coulomb-viscous truth: Fc = 1.2, sigma2 = 0.4.
constexpr double kFc = 1.2, kSigma2 = 0.4;

data::Record friction_record(double noise, unsigned seed, double duration) {
  identify::SyntheticOptions so;
  so.noise_std = noise;
  so.seed = seed;
  so.excitation.duration = duration;
  StaticFriction<double>::Params truth;
  truth.curve = StribeckCurve<double>::symmetric(kFc, kFc, 1.0, 2.0);
  truth.sigma2 = kSigma2;
  return identify::synthetic_friction_record(StaticSpec{StaticKind::coulomb_viscous, truth}, so);
}

double value(const identify::FitResult& r, const std::string& name) {
  for (const auto& p : r.parameters)
    if (p.name == name) return p.value;
  throw std::runtime_error("no parameter " + name);
}

FitOptions cv_options() {
  FitOptions o;
  o.fit.model = identify::parse_model("coulomb-viscous");
  return o;
}

TEST(WorkflowFit, EqualsTheLibraryCallsAndRecoversTheTruth) {
  const data::Record train = friction_record(0.0, 1, 6);
  const data::Record val = friction_record(0.02, 2, 4);
  const FitOptions o = cv_options();
  const FitOutcome f = fit({"train.csv", train}, {{"val.csv", val}}, o);

  // Noise-free training data: the truth (closed form of the synthetic record).
  EXPECT_NEAR(value(f.result, "Fc"), kFc, 1e-12);
  EXPECT_NEAR(value(f.result, "sigma2"), kSigma2, 1e-12);

  // The lower-level calls on the same data give the same numbers.
  const identify::FitResult direct = identify::fit(train, o.fit);
  ASSERT_EQ(f.result.parameters.size(), direct.parameters.size());
  for (std::size_t k = 0; k < direct.parameters.size(); ++k)
    EXPECT_EQ(f.result.parameters[k].value, direct.parameters[k].value);
  EXPECT_EQ(f.result.aicc, direct.aicc);
  ASSERT_EQ(f.validation.size(), 1u);
  EXPECT_EQ(f.validation[0].name, "val.csv");
  const identify::Metrics m = identify::evaluate(direct, val);
  EXPECT_EQ(f.validation[0].metrics.rmse, m.rmse);
  EXPECT_EQ(f.validation[0].metrics.n, m.n);
  // Validation noise 0.02: the model is the truth, the RMSE is the noise level.
  EXPECT_NEAR(f.validation[0].metrics.rmse, 0.02, 0.002);
  EXPECT_EQ(f.input, "train.csv");

  // Plot series: prediction, residual, the friction sorted by velocity. The prediction is the
  // fit's own (y - its residuals at the optimum): the simulation's to rounding.
  const std::vector<double> simulated = identify::predict(direct, train);
  ASSERT_EQ(f.prediction.size(), simulated.size());
  for (std::size_t k = 0; k < simulated.size(); ++k)
    EXPECT_NEAR(f.prediction[k], simulated[k], 1e-12 * (1 + std::abs(simulated[k])));
  ASSERT_EQ(f.residual.size(), train.size());
  for (std::size_t k = 0; k < train.size(); ++k)
    EXPECT_EQ(f.residual[k], train.force[k] - f.prediction[k]);
  ASSERT_EQ(f.friction.velocity.size(), train.size());
  EXPECT_TRUE(std::is_sorted(f.friction.velocity.begin(), f.friction.velocity.end()));
  std::vector<double> v = train.velocity, fm = train.force, fv = f.friction.measured;
  std::sort(v.begin(), v.end());
  EXPECT_EQ(v, f.friction.velocity);
  std::sort(fm.begin(), fm.end());
  std::sort(fv.begin(), fv.end());
  EXPECT_EQ(fm, fv);  // the same samples, reordered
  for (std::size_t k = 0; k < v.size(); ++k)
    EXPECT_EQ(f.friction.static_curve[k], identify::steady_force(direct, v[k]));
}

TEST(WorkflowFit, AtOptimumIsCalledOnceWithTheFinalValues) {
  // identify::fit's at_optimum (what workflows::fit starts the prediction from): called once,
  // before the statistics, with the values the result ends with; the result is that of fit().
  const data::Record train = friction_record(0.01, 3, 6);
  const FitOptions o = cv_options();
  int calls = 0;
  identify::FitResult seen;
  std::vector<double> handed;
  const identify::FitResult r = identify::fit(
      train, o.fit, [&](const identify::FitResult& at, std::span<const double> prediction) {
        ++calls;
        seen = at;
        handed.assign(prediction.begin(), prediction.end());
      });
  EXPECT_EQ(calls, 1);
  // No warm-up, no robust loss: the prediction from the residuals, the simulation's to rounding.
  const std::vector<double> simulated = identify::predict(r, train);
  ASSERT_EQ(handed.size(), simulated.size());
  for (std::size_t k = 0; k < simulated.size(); ++k)
    EXPECT_NEAR(handed[k], simulated[k], 1e-12 * (1 + std::abs(simulated[k])));
  // With a warm-up (or a robust loss) the residuals do not cover every sample: none handed.
  identify::FitOptions warm = o.fit;
  warm.warmup_s = 0.5;
  std::size_t warm_size = 99;
  identify::fit(train, warm, [&](const identify::FitResult&, std::span<const double> prediction) {
    warm_size = prediction.size();
  });
  EXPECT_EQ(warm_size, 0u);
  identify::FitOptions robust = o.fit;
  robust.lsq.loss = identify::LossKind::huber;
  std::size_t robust_size = 99;
  identify::fit(train, robust, [&](const identify::FitResult&, std::span<const double> prediction) {
    robust_size = prediction.size();
  });
  EXPECT_EQ(robust_size, 0u);
  const identify::FitResult plain = identify::fit(train, o.fit);
  ASSERT_EQ(seen.parameters.size(), r.parameters.size());
  for (std::size_t k = 0; k < r.parameters.size(); ++k) {
    EXPECT_EQ(seen.parameters[k].value, r.parameters[k].value);
    EXPECT_EQ(r.parameters[k].value, plain.parameters[k].value);
    EXPECT_EQ(r.parameters[k].std_error, plain.parameters[k].std_error);
    if (!r.parameters[k].fixed) {
      EXPECT_TRUE(std::isnan(seen.parameters[k].std_error));  // not yet
    }
  }
  EXPECT_EQ(identify::predict(seen, train), identify::predict(r, train));
  EXPECT_EQ(seen.training.rmse, r.training.rmse);
}

TEST(WorkflowFit, SensorlessFrictionIsKmCurrentMinusTorque) {
  // reference 000's documented truth (docs/identification.md): S0 500, S1 0.5, Kw 0.5,
  // Fc 1, Fs 1.5, Vth 0.1; Km 2.
  const LuGre<double>::Params truth{500, 0.5, 0.5,
                                    StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0), 0};
  identify::SyntheticOptions so;
  so.excitation.duration = 4;
  const data::Record rec = identify::synthetic_sensorless_record(truth, 2.0, so);
  FitOptions o;
  o.fit.problem = identify::ProblemKind::sensorless;
  o.fit.model = identify::parse_model("coulomb-viscous");
  o.fit.rotary = true;
  const FitOutcome f = fit({"s", rec}, {}, o);
  ASSERT_TRUE(f.result.Km.has_value());
  const double km = *f.result.Km;
  // Sum over the samples is independent of the order.
  double want = 0, got = 0, want_sim = 0, got_sim = 0;
  for (std::size_t k = 0; k < rec.size(); ++k) {
    want += km * rec.current[k] - rec.force[k];
    want_sim += km * rec.current[k] - f.prediction[k];
    got += f.friction.measured[k];
    got_sim += f.friction.simulated[k];
  }
  EXPECT_NEAR(got, want, 1e-9 * std::abs(want) + 1e-9);
  EXPECT_NEAR(got_sim, want_sim, 1e-9 * std::abs(want_sim) + 1e-9);
  EXPECT_GT(km, 0.0);
}

TEST(WorkflowFit, PrepareRecordIsPreprocessThenCheck) {
  data::Record rec = friction_record(0.0, 1, 4);
  data::PreprocessOptions pp;
  pp.resample_rate = 500;
  const PreparedRecord p = prepare_record(rec, pp, identify::ProblemKind::friction);
  const data::Record want = data::preprocess(rec, pp);
  EXPECT_EQ(p.record.t, want.t);
  EXPECT_EQ(p.record.force, want.force);
  data::CheckOptions co;
  co.need_velocity = co.need_force = true;
  EXPECT_EQ(p.warnings, data::check_record(want, co).warnings);

  // Without preprocessing the record is kept; the sensorless problem needs the current.
  const PreparedRecord same = prepare_record(rec, {}, identify::ProblemKind::friction);
  EXPECT_EQ(same.record.t, rec.t);
  EXPECT_THROW(prepare_record(rec, {}, identify::ProblemKind::sensorless), data::RecordError);

  // A jittered time base: check_record's warning is the outcome's first warning.
  for (std::size_t k = 1; k + 1 < rec.t.size(); k += 2) rec.t[k] += 0.3 * (rec.t[k + 1] - rec.t[k]);
  const PreparedRecord jit = prepare_record(rec, {}, identify::ProblemKind::friction);
  ASSERT_FALSE(jit.warnings.empty());
  const FitOutcome f = fit({"j", rec}, {}, cv_options());
  ASSERT_FALSE(f.warnings.empty());
  EXPECT_EQ(f.warnings.front(), jit.warnings.front());
}

TEST(WorkflowFit, ReportsAndCancels) {
  const data::Record train = friction_record(0.0, 1, 4);
  std::vector<std::string> messages;
  Progress p;
  p.report = [&](const ProgressEvent& e) { messages.emplace_back(e.message); };
  (void)fit({"t", train}, {}, cv_options(), p);
  EXPECT_FALSE(messages.empty());  // identify's messages are forwarded

  for (int cancel_at : {1, 2, 3}) {
    int polls = 0;
    Progress c;
    c.cancel = [&] { return ++polls >= cancel_at; };
    EXPECT_THROW((void)fit({"t", train}, {{"v", train}}, cv_options(), c), Cancelled)
        << "cancelled at poll " << cancel_at;
    EXPECT_EQ(polls, cancel_at);
  }
}

TEST(WorkflowFit, CancelInsideTheIdentification) {
  // identify::fit polls its hook at every start, candidate and solver iteration: a hook that
  // turns true at its 20th poll (well inside the fit of 6 starts) stops it with Cancelled.
  const data::Record rec = testing::lugre_test_record();
  identify::FitOptions fo;
  fo.model = identify::parse_model("lugre");
  fo.lsq.starts = 6;
  fo.lsq.threads = 1;
  int polls = 0;
  fo.progress.cancel = [&] { return ++polls >= 20; };
  EXPECT_THROW((void)identify::fit(rec, fo), identify::Cancelled);
  EXPECT_EQ(polls, 20);
  // A hook that never fires: the result of the fit without one.
  const int at_20 = polls;
  polls = 0;
  fo.progress.cancel = [&] { return ++polls < 0; };
  const identify::FitResult with = identify::fit(rec, fo);
  fo.progress.cancel = {};
  const identify::FitResult without = identify::fit(rec, fo);
  EXPECT_GT(polls, at_20);  // polled throughout, at least once per solver iteration
  int iterations = 0;
  for (const auto& st : with.starts) iterations += st.iterations;
  EXPECT_GE(polls, iterations);
  ASSERT_EQ(with.parameters.size(), without.parameters.size());
  for (std::size_t i = 0; i < with.parameters.size(); ++i)
    EXPECT_EQ(with.parameters[i].value, without.parameters[i].value) << with.parameters[i].name;
  // workflows::Cancelled is the same type
  Progress p;
  p.cancel = [n = 0]() mutable { return ++n >= 30; };
  FitOptions o;
  o.fit = fo;
  EXPECT_THROW((void)fit({"r", rec}, {}, o, p), Cancelled);
}

TEST(WorkflowFit, ErrorsPassThrough) {
  data::Record rec = friction_record(0.0, 1, 4);
  FitOptions o = cv_options();
  o.fit.method = identify::FitMethod::grid;  // grid is LuGre only: identify::fit refuses
  EXPECT_THROW((void)fit({"t", rec}, {}, o), identify::FitError);
  EXPECT_THROW((void)identify::fit(rec, o.fit), identify::FitError);
  data::Record bad = rec;
  bad.force.pop_back();  // channel lengths differ: the record check refuses
  EXPECT_THROW((void)fit({"t", bad}, {}, cv_options()), data::RecordError);
  EXPECT_THROW((void)fit({"t", rec}, {{"v", bad}}, cv_options()), data::RecordError);
}

}  // namespace
}  // namespace frictionlab::workflows
