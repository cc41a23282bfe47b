// Tests of the CMA-ES (identify/cmaes.hpp): three updates against the `cmaes` Python package fed
// the same populations (tests/cmaes_reference.py -> cmaes_reference.inc), convergence on smooth
// and non-smooth test functions in the unit box, IPOP restarts on a multimodal function, and
// determinism (same seed, any number of threads); progress reports and cancellation.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "frictionlab/identify/cmaes.hpp"

namespace frictionlab::identify {
namespace {

#include "cmaes_reference.inc"

TEST(Cmaes, ThreeUpdatesEqualThePythonCmaesPackage) {
  std::vector<double> m0(kRefMean0, kRefMean0 + kRefN);
  Cmaes es(m0, kRefSigma0, 0, 7);
  ASSERT_EQ(es.population(), kRefLambda);
  for (int k = 0; k < kRefLambda; ++k) EXPECT_NEAR(es.weights()[k], kRefWeights[k], 1e-15);
  for (int g = 0; g < kRefGenerations; ++g) {
    std::vector<std::vector<double>> xs(kRefLambda, std::vector<double>(kRefN));
    std::vector<double> fs(kRefLambda);
    for (int k = 0; k < kRefLambda; ++k) {
      for (int j = 0; j < kRefN; ++j) xs[k][j] = kRefPopulations[(g * kRefLambda + k) * kRefN + j];
      fs[k] = kRefValues[g * kRefLambda + k];
    }
    es.tell(xs, fs);
    SCOPED_TRACE("generation " + std::to_string(g + 1));
    EXPECT_NEAR(es.sigma(), kRefSigmas[g], 1e-13 * kRefSigmas[g]);
    for (int j = 0; j < kRefN; ++j) {
      EXPECT_NEAR(es.mean()[j], kRefMeans[g * kRefN + j], 1e-13);
      EXPECT_NEAR(es.p_sigma()[j], kRefPSigma[g * kRefN + j], 1e-12);
      EXPECT_NEAR(es.p_c()[j], kRefPc[g * kRefN + j], 1e-12);
      for (int i = 0; i < kRefN; ++i)
        EXPECT_NEAR(es.covariance()(j, i), kRefCovariances[g * kRefN * kRefN + j * kRefN + i],
                    1e-12);
    }
  }
}

double ellipsoid(const std::vector<double>& x) {
  double s = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    const double d = x[j] - (0.2 + 0.1 * static_cast<double>(j));
    s += std::pow(10.0, 3.0 * static_cast<double>(j) / static_cast<double>(x.size() - 1)) * d * d;
  }
  return s;
}

TEST(Cmaes, ConvergesOnAnIllConditionedEllipsoid) {
  CmaesOptions o;
  o.max_evals = 6000;
  o.max_restarts = 0;
  o.tol_x = 1e-9;
  o.tol_f = 1e-16;
  const auto r = cmaes_minimize(ellipsoid, std::vector<double>(6, 0.5), o);
  EXPECT_LT(r.f, 1e-12);
  for (std::size_t j = 0; j < 6; ++j) EXPECT_NEAR(r.x[j], 0.2 + 0.1 * static_cast<double>(j), 1e-5);
}

TEST(Cmaes, MinimumOnTheBoundaryAndANonSmoothObjective) {
  // sum |x_j - c_j| with c_0 = -0.3 outside the box: the minimum is at x_0 = 0 (the boundary).
  auto f = [](const std::vector<double>& x) {
    return std::abs(x[0] + 0.3) + std::abs(x[1] - 0.7) + std::abs(x[2] - 0.1);
  };
  CmaesOptions o;
  o.max_evals = 4000;
  const auto r = cmaes_minimize(f, {0.5, 0.5, 0.5}, o);
  EXPECT_NEAR(r.f, 0.3, 1e-6);
  EXPECT_NEAR(r.x[0], 0.0, 1e-6);
  EXPECT_NEAR(r.x[1], 0.7, 1e-6);
  EXPECT_NEAR(r.x[2], 0.1, 1e-6);
}

TEST(Cmaes, IpopRestartsFindTheGlobalMinimumOfRastrigin) {
  // Rastrigin in [0,1]^4 mapped to [-5.12, 5.12]^4, global minimum 0 at the centre; a single
  // small-population run usually ends in a local minimum, restarts with larger populations find
  // the global one.
  auto f = [](const std::vector<double>& u) {
    double s = 10.0 * static_cast<double>(u.size());
    for (double v : u) {
      const double x = -5.12 + 10.24 * v;
      s += x * x - 10.0 * std::cos(2.0 * std::numbers::pi * x);
    }
    return s;
  };
  CmaesOptions o;
  o.max_evals = 60000;
  o.max_restarts = 9;
  o.sigma0 = 0.3;
  o.seed = 3;
  const auto r = cmaes_minimize(f, {0.9, 0.1, 0.8, 0.2}, o);
  EXPECT_LT(r.f, 1e-8);
  EXPECT_GT(r.runs, 1);
}

TEST(Cmaes, DeterministicForASeedWhateverTheThreads) {
  CmaesOptions o;
  o.max_evals = 1500;
  o.seed = 11;
  const std::vector<double> x0(6, 0.5);
  const auto a = cmaes_minimize(ellipsoid, x0, o);
  o.threads = 3;
  const auto b = cmaes_minimize(ellipsoid, x0, o);
  EXPECT_EQ(a.f, b.f);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.evals, b.evals);
  // threads that change from generation to generation (threads_now: 1, 2, 3, 1, ...)
  int generation = 0;
  o.threads_now = [&] { return 1 + generation++ % 3; };
  const auto d = cmaes_minimize(ellipsoid, x0, o);
  EXPECT_GT(generation, 10);
  EXPECT_EQ(a.f, d.f);
  EXPECT_EQ(a.x, d.x);
  EXPECT_EQ(a.evals, d.evals);
  o.threads_now = nullptr;
  o.seed = 12;
  const auto c = cmaes_minimize(ellipsoid, x0, o);
  EXPECT_NE(a.x, c.x);
  EXPECT_LE(a.evals, 1500);
}

TEST(Cmaes, ReportsEveryGenerationAndStopsWhenCancelled) {
  CmaesOptions o;
  o.max_evals = 1500;
  o.max_restarts = 0;
  const std::vector<double> x0(4, 0.5);
  const auto quiet = cmaes_minimize(ellipsoid, x0, o);
  std::vector<ProgressEvent> seen;
  std::vector<std::string> messages;
  o.progress.report = [&](const ProgressEvent& e) {
    seen.push_back(e);
    messages.emplace_back(e.message);
  };
  const auto r = cmaes_minimize(ellipsoid, x0, o);
  EXPECT_EQ(r.x, quiet.x);  // reporting changes nothing
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(r.generations));
  for (std::size_t k = 1; k < seen.size(); ++k) {
    EXPECT_GT(seen[k].evaluations, seen[k - 1].evaluations);
    EXPECT_LE(seen[k].best, seen[k - 1].best);
  }
  EXPECT_EQ(seen.back().evaluations, r.evals);
  EXPECT_EQ(seen.back().best, r.f);
  EXPECT_EQ(seen.back().fraction, static_cast<double>(r.evals) / 1500.0);
  EXPECT_EQ(
      messages.back().rfind("CMA-ES run 1: " + std::to_string(r.evals) + " evaluations, best ", 0),
      0u)
      << messages.back();
  // Polled once per generation: the third poll stops it, after three generations.
  int polls = 0;
  long evals = 0;
  o.progress.report = {};
  o.progress.cancel = [&] { return ++polls == 3; };
  auto counted = [&](const std::vector<double>& x) {
    ++evals;
    return ellipsoid(x);
  };
  EXPECT_THROW(cmaes_minimize(counted, x0, o), Cancelled);
  EXPECT_EQ(polls, 3);
  EXPECT_EQ(evals, 1 + 3 * static_cast<long>(seen.front().evaluations - 1));
}

TEST(Cmaes, RejectsBadInput) {
  EXPECT_THROW(Cmaes({}, 0.1, 0, 1), std::invalid_argument);
  EXPECT_THROW(Cmaes({0.5}, 0.0, 0, 1), std::invalid_argument);
  EXPECT_THROW(cmaes_minimize(ellipsoid, {0.5, 1.5}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace frictionlab::identify
