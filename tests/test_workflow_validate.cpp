// workflows/validate.hpp: the ranges of the workflows' numeric options. Every default options
// struct is valid; every out-of-range value is refused naming the option the way the Python
// keyword spells it, by validate() and by the workflow itself before any work; the "not given"
// values (starts 0, threads 0, ...) pass validate() but not check_option (a value a user gives).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "expect_message.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/workflows/validate.hpp"
#include "lugre_test_record.hpp"

namespace frictionlab::workflows {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The message of what `f` throws as OptionError, or "no error".
std::string option_error(const std::function<void()>& f) {
  return testing::message_or_no_error<OptionError>(f);
}

TEST(WorkflowValidate, DefaultsAreValid) {
  EXPECT_NO_THROW(validate(FitOptions{}));
  EXPECT_NO_THROW(validate(CompareOptions{}));
  EXPECT_NO_THROW(validate(SimulateModelOptions{}));
  EXPECT_NO_THROW(validate(FitJointOptions{}));
  EXPECT_NO_THROW(validate(EvalJointOptions{}));
  EXPECT_NO_THROW(validate(FitActuatorOptions{}));
  EXPECT_NO_THROW(validate(ActuatorCheckOptions{}));
}

TEST(WorkflowValidate, RangesInWords) {
  EXPECT_EQ(describe(option_rule("starts")), "an integer >= 1");
  EXPECT_EQ(describe(option_rule("spread")), "a number >= 1");
  EXPECT_EQ(describe(option_rule("loss_scale")), "a number > 0");
  EXPECT_EQ(describe(option_rule("n_viscous")), "an integer between 0 and 8");
  EXPECT_EQ(find_option_rule("seed"), nullptr);
  EXPECT_THROW((void)option_rule("no such option"), std::logic_error);
}

TEST(WorkflowValidate, FitOptionsOutOfRangeNameTheOption) {
  const auto fit_with = [](const std::function<void(FitOptions&)>& set) {
    FitOptions o;
    set(o);
    return option_error([&] { validate(o); });
  };
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.lsq.spread = kNaN; }),
            "spread=nan: must be a number >= 1");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.lsq.spread = 0.5; }),
            "spread=0.5: must be a number >= 1");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.lsq.starts = -1; }),
            "starts=-1: must be an integer >= 1");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.lsq.threads = -3; }),
            "threads=-3: must be an integer >= 1");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.lsq.loss_scale = -1; }),
            "loss_scale=-1: must be a number > 0");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.lsq.max_iterations = -5; }),
            "max_iterations=-5: must be an integer >= 1");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.fit.warmup_s = kInf; }),
            "warmup_s=inf: must be a number >= 0");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.preprocess.resample_rate = -100; }),
            "resample_rate=-100: must be a number > 0");
  EXPECT_EQ(fit_with([](FitOptions& o) { o.preprocess.lowpass_cutoff = kNaN; }),
            "lowpass_cutoff=nan: must be a number > 0");
  // the "not given" values pass (automatic starts, every core, from the residuals)
  EXPECT_EQ(fit_with([](FitOptions& o) {
              o.fit.lsq.starts = 0;
              o.fit.lsq.threads = 0;
            }),
            "no error");
  EXPECT_EQ(option_error([] { check_option("starts", 0); }), "starts=0: must be an integer >= 1");
  EXPECT_EQ(option_error([] { check_option("threads", 0); }), "threads=0: must be an integer >= 1");
  EXPECT_EQ(option_error([] { check_option("starts", 2.5); }),
            "starts=2.5: must be an integer >= 1");
  EXPECT_EQ(option_error([] { check_option("starts", 1e10); }),
            "starts=1e+10: must be an integer >= 1");
  EXPECT_NO_THROW(check_option("starts", 400));
}

TEST(WorkflowValidate, OtherStructs) {
  CompareOptions c;
  c.fit.lsq.threads = -3;
  EXPECT_EQ(option_error([&] { validate(c); }), "threads=-3: must be an integer >= 1");
  SimulateModelOptions s;
  s.max_substep = -1;
  EXPECT_EQ(option_error([&] { validate(s); }), "max_substep=-1: must be a number > 0");
  FitJointOptions j;
  j.oe.max_iterations = 0;
  EXPECT_EQ(option_error([&] { validate(j); }), "max_iterations=0: must be an integer >= 1");
  j = {};
  j.sr3.n_viscous = 9;
  EXPECT_EQ(option_error([&] { validate(j); }), "n_viscous=9: must be an integer between 0 and 8");
  EvalJointOptions e;
  e.eval.max_step = 0;
  EXPECT_EQ(option_error([&] { validate(e); }), "max_step=0: must be a number > 0");
  FitActuatorOptions a;
  a.trials = 0;
  EXPECT_EQ(option_error([&] { validate(a); }), "trials=0: must be an integer >= 1");
  a = {};
  a.sigma0 = -0.1;
  EXPECT_EQ(option_error([&] { validate(a); }), "sigma0=-0.1: must be a number > 0");
  ActuatorCheckOptions k;
  k.threads = -1;
  EXPECT_EQ(option_error([&] { validate(k); }), "threads=-1: must be an integer >= 1");
}

TEST(WorkflowValidate, TheWorkflowChecksBeforeAnyWork) {
  const data::Record rec = testing::lugre_test_record();
  FitOptions o;
  o.fit.lsq.starts = -1;
  int polls = 0;
  Progress p;
  p.cancel = [&] { return ++polls < 0; };
  EXPECT_EQ(option_error([&] {
              (void)fit({"r", rec}, {}, o, p);
            }),
            "starts=-1: must be an integer >= 1");
  EXPECT_EQ(polls, 0);
  SimulateModelOptions s;
  s.max_substep = kNaN;
  EXPECT_EQ(option_error([&] {
              (void)simulate_model(ModelSpec{LuGre<double>::Params{}}, ModelInputView{}, s);
            }),
            "max_substep=nan: must be a number > 0");
}

}  // namespace
}  // namespace frictionlab::workflows
