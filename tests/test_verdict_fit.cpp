// The verdict rules of a friction-model fit and of a comparison (workflows/verdict.hpp, "Fit
// rules"): outcomes built by hand on each side of every documented threshold, and one real fit
// of a noise-free LuGre record.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "frictionlab/io/verdict_json.hpp"
#include "frictionlab/workflows/compare.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab {
namespace {

using workflows::Grade;

identify::Metrics metrics(double rmse, double rms) {
  identify::Metrics m;
  m.n = 1000;
  m.rmse = rmse;
  m.rms = rms;
  return m;
}

/// A converged fit with a training error e = rmse / rms and no flag.
workflows::FitOutcome outcome(double e_train, std::vector<double> e_validation = {0.1}) {
  workflows::FitOutcome f;
  f.result.converged = true;
  f.result.training = metrics(e_train, 1.0);
  for (std::size_t k = 0; k < e_validation.size(); ++k)
    f.validation.push_back({"val" + std::to_string(k) + ".csv", metrics(e_validation[k], 1.0)});
  return f;
}

std::vector<std::string> rules(const workflows::Verdict& v) {
  std::vector<std::string> out;
  for (const auto& r : v.reasons) out.push_back(r.rule + ":" + workflows::grade_name(r.grade));
  return out;
}

TEST(FitVerdict, GoodWithoutReasons) {
  const auto v = workflows::fit_verdict(outcome(0.1));
  EXPECT_EQ(v.grade, Grade::good);
  EXPECT_TRUE(v.reasons.empty());
  EXPECT_EQ(v.line(), "good");
}

TEST(FitVerdict, ErrorThresholdsOnTheValidationRecords) {
  EXPECT_EQ(workflows::fit_verdict(outcome(0.2, {0.35})).grade, Grade::good);
  EXPECT_EQ(rules(workflows::fit_verdict(outcome(0.3, {0.36}))),
            (std::vector<std::string>{"error:doubtful"}));
  const auto bad = workflows::fit_verdict(outcome(0.5, {0.71}));
  EXPECT_EQ(bad.grade, Grade::bad);
  EXPECT_EQ(
      bad.reasons[0].text,
      "the model explains little of the force on val0.csv: RMSE / RMS = 0.71 (RMSE 0.71, RMS 1)");
  // the training error does not decide when there is a validation record
  EXPECT_EQ(workflows::fit_verdict(outcome(0.9, {0.3})).grade, Grade::good);
  // a channel that is all zero: no relative error, bad
  auto zero = outcome(0.1, {});
  zero.result.training.rms = 0;
  EXPECT_EQ(workflows::fit_verdict(zero).grade, Grade::bad);
}

TEST(FitVerdict, WithoutValidationTheTrainingRecordDecidesAndANoteSaysSo) {
  const auto v = workflows::fit_verdict(outcome(0.4, {}));
  EXPECT_EQ(rules(v), (std::vector<std::string>{"error:doubtful", "validation:good"}));
  EXPECT_NE(v.reasons[0].text.find("on the training record"), std::string::npos);
  EXPECT_EQ(v.reasons[1].hint, "--validate RECORD");
  EXPECT_EQ(v.line().find("no validation record"), std::string::npos);  // notes are not in the line
}

TEST(FitVerdict, Generalisation) {
  // 0.21 > 2 x 0.1 and > 0.2: doubtful; 0.19 is below the floor; 0.3 is not 2 x 0.16
  EXPECT_EQ(rules(workflows::fit_verdict(outcome(0.1, {0.21}))),
            (std::vector<std::string>{"generalises:doubtful"}));
  EXPECT_EQ(workflows::fit_verdict(outcome(0.05, {0.19})).grade, Grade::good);
  EXPECT_EQ(workflows::fit_verdict(outcome(0.16, {0.3})).grade, Grade::good);
}

TEST(FitVerdict, ResidualsParametersSolverAndPassivity) {
  auto f = outcome(0.1);
  f.result.reliability.whiteness = {20, 500, 1e-9, 0.8};
  f.result.reliability.outliers = 3;
  f.result.converged = false;
  f.result.starts.resize(1);
  f.result.termination = "maximum iterations";
  f.result.passive = false;
  identify::ParameterEstimate sigma2, sigma0, vs;
  sigma2.name = "sigma2";
  sigma2.at_bound = true;
  sigma0.name = "sigma0";
  sigma0.at_limit = true;
  vs.name = "vs";
  f.result.parameters = {sigma2, sigma0, vs};
  f.result.identifiability = {{"vs", "relative_error", "", 0.8, "vs: 80 %"},
                              {"vs", "correlation", "Fs", 0.99, "vs and Fs"},
                              {"sigma0", "limit", "", NAN, "at limit"},
                              {"", "reversals", "", 1, "one reversal"}};
  const auto v = workflows::fit_verdict(f);
  EXPECT_EQ(v.grade, Grade::doubtful);
  EXPECT_EQ(rules(v),
            (std::vector<std::string>{"outliers:doubtful", "bound:doubtful", "determined:doubtful",
                                      "determined:doubtful", "solver:doubtful", "whiteness:good",
                                      "bound:good", "passive:good"}));
  EXPECT_EQ(v.reasons[3].text, "the record does not determine vs (the identifiability flags)");
  EXPECT_EQ(v.reasons[2].text, "one reversal");
  EXPECT_EQ(v.reasons[4].text, "the solver stopped without convergence: maximum iterations");
  // residuals at rounding level: their colour is not worth a note
  f.result.training.rmse = 1e-12;
  EXPECT_EQ(rules(workflows::fit_verdict(f))[5], "bound:good");
}

TEST(FitVerdict, ANoteWhenTheBestOptimumCameFromTheNestedModel) {
  auto f = outcome(0.1);
  f.result.model_name = "lugre-asym";
  f.result.nested_model = "lugre";
  f.result.starts = {{4, 2.0, 10, true, "initial guess"},
                     {3, 1.0, 5, true, "optimum of nested model lugre"}};
  auto v = workflows::fit_verdict(f);
  EXPECT_EQ(rules(v), (std::vector<std::string>{"nested:good"}));
  EXPECT_EQ(v.reasons[0].text,
            "the best optimum was reached from the nested model lugre's optimum, not from "
            "the data-driven starts: lugre-asym improves on lugre only by what its extra "
            "parameters add");
  f.result.starts[0].final_cost = 0.5;  // the data-driven start is the best: nothing to say
  EXPECT_TRUE(workflows::fit_verdict(f).reasons.empty());
}

workflows::CompareRow row(const std::string& model, double score, double criterion) {
  workflows::CompareRow r;
  r.model = model;
  r.fit = outcome(score).result;
  r.validation = outcome(score).validation;
  r.score = score;
  r.criterion = criterion;
  return r;
}

TEST(CompareVerdict, TheRecommendedModelsReasonsAndTheRanking) {
  workflows::CompareOutcome c;
  c.rows = {row("lugre", 0.1, -100), row("stribeck", 0.2, -99), row("coulomb", 0.3, -50)};
  workflows::rank_compare_rows(c);
  auto v = workflows::compare_verdict(c);
  EXPECT_EQ(rules(v), (std::vector<std::string>{"ranking:doubtful"}));
  EXPECT_EQ(v.reasons[0].text,
            "the ranking is not decided: the AICc of lugre and stribeck differ by 1 at most "
            "(< 2: the record does not tell them apart)");
  c.rows[1].criterion = -97;  // 3 apart: decided
  EXPECT_EQ(workflows::compare_verdict(c).grade, Grade::good);
  c.rows[0].validation[0].metrics = metrics(0.5, 1.0);
  v = workflows::compare_verdict(c);
  EXPECT_EQ(v.reasons[0].rule, "error");
  EXPECT_EQ(v.reasons[0].text.rfind("lugre (recommended): the model explains only part", 0), 0u)
      << v.reasons[0].text;
}

TEST(CompareVerdict, NoFiniteErrorIsBad) {
  workflows::CompareOutcome c;
  c.rows = {row("lugre", NAN, NAN), row("stribeck", NAN, NAN)};
  workflows::rank_compare_rows(c);
  const auto v = workflows::compare_verdict(c);
  EXPECT_EQ(v.grade, Grade::bad);
  EXPECT_EQ(v.reasons[0].rule, "best");
  EXPECT_EQ(io::verdict_to_json(v)["grade"], "bad");
}

}  // namespace
}  // namespace frictionlab
