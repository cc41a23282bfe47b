// Tests of the servo identification (identify/servo_fit.hpp): the optimiser recovers the known
// parameters of a synthetic log set simulated by frictionlab itself; nested models embed
// exactly; warm starts make the training loss non-increasing along the model hierarchy; splits
// and the recommendation rule; the loss pools the logs' errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>
#include <string>

#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/sim/servo_actuators.hpp"
#include "servo_synthetic.hpp"

namespace frictionlab::identify {
namespace {

using servo_test::synthetic;
using servo_test::truth_m3;
using servo_test::xl330;

std::vector<data::ServoLog> synthetic_set(const sim::ServoParams& p) {
  return {synthetic(0, 100, p), synthetic(1, 100, p), synthetic(0, 400, p), synthetic(1, 800, p)};
}

TEST(ServoFit, RecoversTheParametersOfASyntheticLogSet) {
  const auto truth = truth_m3();
  const auto logs = synthetic_set(truth);
  EXPECT_EQ(servo_loss(xl330().constants, truth, logs, {}), 0.0);
  const ServoFitOptions o = servo_test::converging_fit(6000);
  const auto r = fit_servo_model(xl330(), xl330().constants, ActuatorModel::M3, logs, {}, o);
  EXPECT_LT(r.loss, 2e-6);  // rad: the logs swing over about 1 rad
  EXPECT_NEAR(r.params.kt, truth.kt, 0.01 * truth.kt);
  EXPECT_NEAR(r.params.R, truth.R, 0.01 * truth.R);
  EXPECT_NEAR(r.params.armature, truth.armature, 0.01 * truth.armature);
  EXPECT_NEAR(r.params.q_offset, truth.q_offset, 1e-4);
  EXPECT_NEAR(r.params.friction.Kc, truth.friction.Kc, 0.02 * truth.friction.Kc);
  EXPECT_NEAR(r.params.friction.Kv, truth.friction.Kv, 0.02 * truth.friction.Kv);
  EXPECT_NEAR(r.params.friction.Kl, truth.friction.Kl, 0.02 * truth.friction.Kl);
}

TEST(ServoFit, EmbeddingsReproduceTheSimplerModelExactly) {
  const auto logs =
      std::vector<data::ServoLog>{synthetic(0, 400, truth_m3()), synthetic(1, 100, truth_m3())};
  const auto& c = xl330().constants;
  sim::ServoParams defaults;
  defaults.friction.vs = 0.7;
  defaults.friction.alpha = 3.0;
  defaults.friction.Kmq = 0.004;  // must be overwritten by 0 when embedding M5 -> M6
  for (int from = 0; from < 6; ++from)
    for (int to = 0; to < 6; ++to) {
      const auto mf = static_cast<ActuatorModel>(from), mt = static_cast<ActuatorModel>(to);
      sim::ServoParams p = truth_m3();
      p.model = mf;
      auto& f = p.friction;
      f.Kcs = 0.01;
      f.vs = 0.3;
      f.alpha = 2.0;
      f.Kls = 0.05;
      f.Km = 0.1;
      f.Ke = 0.2;
      f.Kms = 0.03;
      f.Kes = 0.04;
      f.Kmq = 0.002;
      f.Keq = 0.003;
      if (!servo_model_contains(mt, mf)) {
        EXPECT_THROW(embed_servo_params(p, mt, defaults), FitError);
        continue;
      }
      const auto q = embed_servo_params(p, mt, defaults);
      EXPECT_EQ(q.model, mt);
      // the same budget up to rounding (Kl |tm - te| vs |Kl tm - Kl te|)
      EXPECT_NEAR(servo_loss(c, q, logs, {}), servo_loss(c, p, logs, {}), 1e-13)
          << "M" << from + 1 << " in M" << to + 1;
    }
  EXPECT_TRUE(servo_model_contains(ActuatorModel::M5, ActuatorModel::M3));
  EXPECT_FALSE(servo_model_contains(ActuatorModel::M3, ActuatorModel::M2));
  EXPECT_FALSE(servo_model_contains(ActuatorModel::M4, ActuatorModel::M5));
}

TEST(ServoFit, WarmStartsMakeTheTrainingLossNonIncreasingAlongTheHierarchy) {
  auto truth = truth_m3();
  truth.model = ActuatorModel::M4;
  truth.friction.Kcs = 0.01;
  truth.friction.vs = 0.2;
  truth.friction.alpha = 2.0;
  truth.friction.Kls = 0.1;
  auto logs = synthetic_set(truth);
  ServoFitOptions o;
  o.cmaes.max_evals = 400;
  o.cmaes.threads = 2;
  const auto sel =
      fit_and_select_servo_models({ActuatorModel::M1, ActuatorModel::M3, ActuatorModel::M4,
                                   ActuatorModel::M5, ActuatorModel::M6},
                                  xl330(), xl330().constants, logs, ServoValidation{}, o, 0.02);
  ASSERT_EQ(sel.models.size(), 5u);
  for (std::size_t i = 1; i < sel.models.size(); ++i)
    EXPECT_LE(sel.models[i].train_mae, sel.models[i - 1].train_mae * (1 + 1e-12))
        << "M" << static_cast<int>(sel.models[i].model) + 1;
  EXPECT_EQ(sel.models[0].parameters, 6);
  EXPECT_EQ(sel.models[4].parameters, 15);
  EXPECT_LT(sel.models[0].validation_mae, 0.0);  // no validation
  EXPECT_NE(sel.reason.find("without validation"), std::string::npos);
}

TEST(ServoFit, SplitsByKpLeaveKpOutAndKFold) {
  std::vector<data::ServoLog> logs(5);
  const double kps[] = {100, 200, 100, 400, 200};
  for (int i = 0; i < 5; ++i) {
    logs[i].kp = kps[i];
    logs[i].file = "log" + std::to_string(4 - i) + ".json";
  }
  ServoValidation v;
  v.kind = ServoValidation::Kind::kp;
  v.kp = 200;
  auto s = servo_splits(logs, v);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].validation.size(), 2u);
  EXPECT_EQ(s[0].train.size(), 3u);
  v.kp = 300;
  EXPECT_THROW(servo_splits(logs, v), FitError);
  v.kind = ServoValidation::Kind::leave_kp;
  s = servo_splits(logs, v);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].name, "kp=400");
  EXPECT_EQ(s[2].validation.size(), 1u);
  v.kind = ServoValidation::Kind::kfold;
  v.folds = 2;
  s = servo_splits(logs, v);
  ASSERT_EQ(s.size(), 2u);
  // files in name order log0..log4: fold 1 holds log0, log2, log4
  EXPECT_EQ(s[0].validation.size(), 3u);
  EXPECT_EQ(s[0].validation[0].file, "log0.json");
  EXPECT_EQ(s[1].validation.size(), 2u);
  v.folds = 6;
  EXPECT_THROW(servo_splits(logs, v), FitError);
}

TEST(ServoFit, CrossValidationFitsRunConcurrentlyWithTheSameResultsForAnyThreadCount) {
  // leave-kp-out over kp 100, 400, 800: three splits and the refit on all logs, four runs per
  // model, run concurrently when there are several threads
  auto truth = truth_m3();
  truth.friction.Kc *= 1.3;  // not exactly representable by M1: a non-zero loss to minimise
  const auto logs = synthetic_set(truth);
  const std::vector<ActuatorModel> models{ActuatorModel::M1, ActuatorModel::M2, ActuatorModel::M3,
                                          ActuatorModel::M4};
  ServoValidation v;
  v.kind = ServoValidation::Kind::leave_kp;
  ServoFitOptions o;
  o.cmaes.max_evals = 300;
  o.cmaes.seed = 11;
  std::vector<ServoSelection> sel;
  for (int threads : {1, 2, 3, 8}) {
    o.cmaes.threads = threads;
    std::vector<std::string> lines;
    Progress progress;
    progress.report = [&](const ProgressEvent& e) { lines.emplace_back(e.message); };
    sel.push_back(fit_and_select_servo_models(models, xl330(), xl330().constants, logs, v, o, 0.02,
                                              progress));
    // every fit announced itself and reported its result
    for (const char* run : {"[kp=100]", "[kp=400]", "[kp=800]", "[all logs]"})
      for (const char* m : {"m1 ", "m2 ", "m3 ", "m4 "}) {
        const std::string what = std::string(m) + run;
        EXPECT_EQ(
            std::count_if(lines.begin(), lines.end(),
                          [&](const std::string& l) { return l.rfind("fitting " + what, 0) == 0; }),
            1)
            << what << ", " << threads << " thread(s)";
      }
  }
  for (std::size_t t = 1; t < sel.size(); ++t) {
    ASSERT_EQ(sel[t].models.size(), sel[0].models.size());
    EXPECT_EQ(sel[t].recommended, sel[0].recommended);
    EXPECT_EQ(sel[t].reason, sel[0].reason);
    for (std::size_t i = 0; i < sel[0].models.size(); ++i) {
      const auto &a = sel[0].models[i], &b = sel[t].models[i];
      EXPECT_EQ(a.train_mae, b.train_mae);
      EXPECT_EQ(a.validation_mae, b.validation_mae);
      EXPECT_EQ(a.evals, b.evals);
      EXPECT_EQ(a.fit.loss, b.fit.loss);
      for (auto key : sim::servo_param_keys(a.model, sim::ServoDrive::voltage))
        EXPECT_EQ(sim::servo_param(a.fit.params, key), sim::servo_param(b.fit.params, key)) << key;
    }
  }
  // M1 (no warm start) by hand: the delivered fit is fit_servo_model on all logs, the validation
  // MAE the entry-weighted mean of each split's fit on its held-out logs
  o.cmaes.threads = 1;
  const auto all = fit_servo_model(xl330(), xl330().constants, ActuatorModel::M1, logs, {}, o);
  EXPECT_EQ(sel[1].models[0].fit.loss, all.loss);
  EXPECT_EQ(sel[1].models[0].train_mae, servo_loss(xl330().constants, all.params, logs, {}));
  double err = 0.0;
  std::size_t n = 0;
  for (const auto& split : servo_splits(logs, v)) {
    const auto f =
        fit_servo_model(xl330(), xl330().constants, ActuatorModel::M1, split.train, {}, o);
    for (const auto& l : split.validation) {
      const auto e = servo_log_error(xl330().constants, f.params, l);
      err += e.position_mae * static_cast<double>(e.samples);
      n += e.samples;
    }
  }
  EXPECT_EQ(sel[1].models[0].validation_mae, err / static_cast<double>(n));
  EXPECT_GT(sel[1].models[0].validation_mae, 0.0);
}

TEST(ServoFit, AnErrorOfOneConcurrentFitOrOfTheProgressSinkStopsTheOthers) {
  const auto logs = synthetic_set(truth_m3());
  ServoValidation v;
  v.kind = ServoValidation::Kind::leave_kp;
  ServoFitOptions o;
  o.cmaes.max_evals = 100000;  // long fits: only a stop ends them soon
  o.cmaes.max_restarts = 1000;
  o.cmaes.threads = 2;
  // the progress sink throws (as a cancellation does): the exception comes out, nothing hangs
  struct Stop {};
  int lines = 0;
  Progress sink;
  sink.report = [&](const ProgressEvent&) {
    if (++lines == 5) throw Stop{};
  };
  EXPECT_THROW(fit_and_select_servo_models({ActuatorModel::M1, ActuatorModel::M3}, xl330(),
                                           xl330().constants, logs, v, o, 0.02, sink),
               Stop);
  EXPECT_EQ(lines, 5);
  // a cancellation (here after the fifth line; polled by the fits' threads too) stops every
  // fit with Cancelled, and no line comes after it
  std::atomic<int> said{0};
  Progress cancel;
  cancel.report = [&](const ProgressEvent&) { ++said; };
  cancel.cancel = [&] { return said >= 5; };
  EXPECT_THROW(fit_and_select_servo_models({ActuatorModel::M1, ActuatorModel::M3}, xl330(),
                                           xl330().constants, logs, v, o, 0.02, cancel),
               Cancelled);
  EXPECT_EQ(said, 5);
  // a fit that fails (a velocity term without logged speeds) fails the call with its message
  auto no_speed = logs;
  no_speed[2].speed.clear();
  o.loss.velocity_weight = 0.1;
  try {
    fit_and_select_servo_models({ActuatorModel::M1, ActuatorModel::M3}, xl330(), xl330().constants,
                                no_speed, v, o, 0.02);
    ADD_FAILURE() << "no FitError";
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find("a velocity term needs the logged 'speed'"),
              std::string::npos)
        << e.what();
  }
}

TEST(ServoFit, LossPoolsTheLogsAndAddsTheVelocityTerm) {
  const auto truth = truth_m3();
  auto logs = std::vector<data::ServoLog>{synthetic(0, 100, truth), synthetic(1, 400, truth)};
  logs[1].position.resize(200);  // a shorter log weighs less in the pooled mean
  logs[1].speed.resize(200);
  logs[1].goal_position.resize(200);
  logs[1].torque_enable.resize(200);
  logs[1].timestamp.resize(200);
  auto p = truth;
  p.friction.Kc *= 1.5;
  const auto& c = xl330().constants;
  const auto e0 = servo_log_error(c, p, logs[0]), e1 = servo_log_error(c, p, logs[1]);
  EXPECT_GT(e0.position_mae, 0.0);
  EXPECT_NEAR(servo_loss(c, p, logs, {}), (400 * e0.position_mae + 200 * e1.position_mae) / 600.0,
              1e-15);
  ServoLossOptions lv;
  lv.velocity_weight = 0.1;
  EXPECT_NEAR(servo_loss(c, p, logs, lv),
              (400 * (e0.position_mae + 0.1 * e0.velocity_mae) +
               200 * (e1.position_mae + 0.1 * e1.velocity_mae)) /
                  600.0,
              1e-15);
  logs[0].speed.clear();
  EXPECT_THROW(servo_loss(c, p, logs, lv), FitError);
  logs[0].dt = 0;
  EXPECT_THROW(servo_loss(c, p, logs, {}), FitError);
}

TEST(ServoFit, BoundsOverridesAndTheirErrors) {
  const auto b = servo_bounds(xl330(), sim::ServoDrive::voltage, ActuatorModel::M2,
                              {{"alpha", 1.0, 3.0}, {"load_friction_base", 0.0, 0.1}});
  ASSERT_EQ(b.size(), 9u);
  EXPECT_EQ(b[0].key, "kt");
  EXPECT_EQ(b[0].lo, 0.3);
  for (const auto& x : b) {
    if (x.key == "alpha") {
      EXPECT_EQ(x.hi, 3.0);
    }
  }
  EXPECT_THROW(
      servo_bounds(xl330(), sim::ServoDrive::voltage, ActuatorModel::M2, {{"alpha", 3.0, 1.0}}),
      FitError);
}

}  // namespace
}  // namespace frictionlab::identify
