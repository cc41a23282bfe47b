// workflows::compare and parse_model_list: each row equals identify::fit / identify::evaluate
// of its model on the same data, the ranking follows the documented rule (an invariant over the
// rows), the criterion's deltas and best model are those of the rows' own criteria, a clear
// winner wins (Stribeck data against a Coulomb model), and Progress reports and cancels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/workflows/compare.hpp"

namespace frictionlab::workflows {
namespace {

data::Record stribeck_record(double noise, unsigned seed, double duration) {
  StaticFriction<double>::Params p;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 2.0);
  p.sigma2 = 0.5;
  identify::SyntheticOptions so;
  so.noise_std = noise;
  so.seed = seed;
  so.excitation.duration = duration;
  return identify::synthetic_friction_record(StaticSpec{StaticKind::stribeck, p}, so);
}

std::string message(const std::string& list) {
  try {
    (void)parse_model_list(list);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(WorkflowCompare, ParseModelList) {
  const auto m = parse_model_list(" coulomb , stribeck-asym,gms:4");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(identify::model_name(m[0]), "coulomb");
  EXPECT_EQ(identify::model_name(m[1]), "stribeck-asym");
  EXPECT_EQ(identify::model_name(m[2]), "gms:4");
  EXPECT_EQ(message("lugre,,stribeck"), "empty model name in 'lugre,,stribeck'");
  EXPECT_EQ(message("lugre,stribeck,lugre"), "model 'lugre' is listed twice");
  EXPECT_EQ(message("lugre"), "give at least two models to compare, got 'lugre'");
  EXPECT_EQ(message("stribeck,foo").rfind("unknown model 'foo'; known: coulomb,", 0), 0u)
      << message("stribeck,foo");
  EXPECT_EQ(parse_criterion("bic"), Criterion::bic);
  EXPECT_EQ(criterion_key(parse_criterion("aicc")), "aicc");
  EXPECT_THROW((void)parse_criterion("aic"), std::invalid_argument);
}

double round9(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.8e", x);
  return std::strtod(b, nullptr);
}

TEST(WorkflowCompare, RowsAreTheFitsRankedByTheRule) {
  const data::Record train = stribeck_record(0.01, 1, 6);
  const std::vector<NamedRecord> val = {{"a", stribeck_record(0.01, 2, 4)},
                                        {"b", stribeck_record(0.02, 3, 4)}};
  CompareOptions o;
  o.models = parse_model_list("coulomb,stribeck,coulomb-viscous");
  o.criterion = Criterion::bic;
  const CompareOutcome c = compare({"train", train}, val, o);
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_TRUE(c.ranked_by_validation);
  EXPECT_EQ(c.validation_names, (std::vector<std::string>{"a", "b"}));
  // The data are Stribeck's: the Stribeck model is best, and its validation RMSE is the noise.
  EXPECT_EQ(c.rows[0].model, "stribeck");
  EXPECT_NEAR(c.rows[0].validation_rmse, (0.01 + 0.02) / 2, 0.003);

  double best_crit = std::numeric_limits<double>::infinity();
  for (const auto& r : c.rows) {
    identify::FitOptions fo = o.fit;
    fo.model = identify::parse_model(r.model);
    const identify::FitResult direct = identify::fit(train, fo);
    EXPECT_EQ(r.fit.bic, direct.bic) << r.model;
    EXPECT_EQ(r.criterion, direct.bic) << r.model;
    EXPECT_EQ(r.fit.training.rmse, direct.training.rmse) << r.model;
    ASSERT_EQ(r.validation.size(), 2u);
    double sum = 0;
    for (std::size_t k = 0; k < val.size(); ++k) {
      const double rmse = identify::evaluate(direct, val[k].record).rmse;
      EXPECT_EQ(r.validation[k].name, val[k].name);
      EXPECT_EQ(r.validation[k].metrics.rmse, rmse);
      sum += rmse;
    }
    EXPECT_DOUBLE_EQ(r.validation_rmse, sum / 2);
    EXPECT_EQ(r.score, r.validation_rmse);
    best_crit = std::min(best_crit, r.criterion);
  }
  for (std::size_t k = 0; k + 1 < c.rows.size(); ++k) {
    const auto &a = c.rows[k], &b = c.rows[k + 1];
    const double sa = round9(a.score), sb = round9(b.score);
    EXPECT_TRUE(sa < sb || (sa == sb && a.fit.num_estimated <= b.fit.num_estimated))
        << a.model << " before " << b.model;
  }
  for (std::size_t k = 0; k < c.rows.size(); ++k) {
    EXPECT_EQ(c.rows[k].delta, c.rows[k].criterion - best_crit);
    if (c.rows[k].criterion == best_crit) {
      EXPECT_EQ(c.best_by_criterion, static_cast<int>(k));
    }
  }
  EXPECT_EQ(c.criterion_agrees, c.best_by_criterion == 0);
}

TEST(WorkflowCompare, WithoutValidationRanksByTrainingRmse) {
  const data::Record train = stribeck_record(0.01, 1, 4);
  CompareOptions o;
  o.models = parse_model_list("coulomb-viscous,coulomb");
  const CompareOutcome c = compare({"train", train}, {}, o);
  EXPECT_FALSE(c.ranked_by_validation);
  ASSERT_EQ(c.rows.size(), 2u);
  for (const auto& r : c.rows) {
    EXPECT_TRUE(std::isnan(r.validation_rmse));
    EXPECT_EQ(r.score, r.fit.training.rmse);
    EXPECT_EQ(r.criterion, r.fit.aicc);
  }
  // Ranked by the training RMSE (the two differ well beyond 9 digits here).
  EXPECT_LT(c.rows[0].score, c.rows[1].score);
  EXPECT_NE(round9(c.rows[0].score), round9(c.rows[1].score));
}

TEST(WorkflowCompare, ReportsCancelsAndNamesTheModelOfAFitError) {
  const data::Record train = stribeck_record(0.01, 1, 4);
  CompareOptions o;
  o.models = parse_model_list("coulomb,viscous");
  std::vector<std::string> messages;
  Progress p;
  p.report = [&](const ProgressEvent& e) { messages.emplace_back(e.message); };
  (void)compare({"t", train}, {}, o, p);
  EXPECT_NE(std::find(messages.begin(), messages.end(), "compare: model 1/2: coulomb"),
            messages.end());
  EXPECT_NE(std::find(messages.begin(), messages.end(), "compare: model 2/2: viscous"),
            messages.end());

  for (int cancel_at : {1, 2, 3}) {
    int polls = 0;
    Progress c;
    c.cancel = [&] { return ++polls >= cancel_at; };
    EXPECT_THROW((void)compare({"t", train}, {}, o, c), Cancelled);
    EXPECT_EQ(polls, cancel_at);
  }

  CompareOptions one;
  one.models = {identify::parse_model("coulomb")};
  EXPECT_THROW((void)compare({"t", train}, {}, one), std::invalid_argument);

  CompareOptions bad;  // an alpha that identify::fit refuses, on the second model
  bad.models = parse_model_list("coulomb,stribeck");
  bad.models[1].alpha = -1.0;
  try {
    (void)compare({"t", train}, {}, bad);
    ADD_FAILURE() << "no FitError";
  } catch (const identify::FitError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("model 'stribeck': alpha must be", 0), 0u) << e.what();
  }
}

CompareRow row(const std::string& model, double score, int p, double criterion) {
  CompareRow r;
  r.model = model;
  r.score = score;
  r.fit.num_estimated = p;
  r.criterion = criterion;
  return r;
}

TEST(WorkflowCompare, NonFiniteErrorsRankLastAndAreNeverTheBest) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = HUGE_VAL;
  CompareOutcome c;
  // NaN compares false with everything: a plain "<" would leave it first
  c.rows = {row("nan", nan, 2, -50.0), row("inf", inf, 1, 10.0), row("b", 0.2, 3, 5.0),
            row("a", 0.1, 4, 1.0)};
  rank_compare_rows(c);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0].model, "a");
  EXPECT_EQ(c.rows[1].model, "b");
  // the non-finite ones last, among themselves by parameter count
  EXPECT_EQ(c.rows[2].model, "inf");
  EXPECT_EQ(c.rows[3].model, "nan");
  EXPECT_TRUE(c.has_best);
  // every error non-finite: no best, and the criterion cannot agree with a ranking that has none
  c.rows = {row("x", nan, 2, 3.0), row("y", inf, 1, 4.0)};
  rank_compare_rows(c);
  EXPECT_FALSE(c.has_best);
  EXPECT_FALSE(c.criterion_agrees);
  EXPECT_EQ(c.rows[0].model, "y");
}

}  // namespace
}  // namespace frictionlab::workflows
