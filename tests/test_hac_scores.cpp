// The Newey-West (HAC) covariance from per-sample scores (identify/statistics.hpp:
// sample_scores, hac_covariance_scores, hac_covariance), which lsq, idim and oe share. Oracles
// computed here by other routes: the Eicker-Huber-White sandwich A (sum_k g_k g_k^T) A m/(m - p)
// for L = 0, the double sum sum_{k,j} (1 - |k - j|/(L + 1)) g_k g_j^T over |k - j| <= L for
// L > 0, and the sample-grouped score as the sum of the sample's rows J_row^T r_row.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "statistics.hpp"

namespace frictionlab::identify::detail {
namespace {

struct Problem {
  Eigen::MatrixXd J;
  std::vector<double> r;
};

/// m x p Jacobian and AR(1)-coloured residuals (rho 0.8), fixed seed.
Problem random_problem(long m, long p, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  Problem P{Eigen::MatrixXd(m, p), std::vector<double>(static_cast<std::size_t>(m))};
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < p; ++j) P.J(i, j) = n(rng) + (j == 0 ? 1.0 : 0.0);
  double e = 0;
  for (auto& x : P.r) x = e = 0.8 * e + n(rng);
  return P;
}

double max_rel_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

TEST(HacScores, LagZeroIsTheWhiteSandwich) {
  const long m = 200, p = 4;
  const Problem P = random_problem(m, p, 1);
  const Eigen::MatrixXd A = (P.J.transpose() * P.J).inverse();
  Eigen::MatrixXd meat = Eigen::MatrixXd::Zero(p, p);
  for (long k = 0; k < m; ++k) {
    const Eigen::VectorXd g = P.J.row(k).transpose() * P.r[static_cast<std::size_t>(k)];
    meat += g * g.transpose();
  }
  const Eigen::MatrixXd white =
      A * meat * A * (static_cast<double>(m) / static_cast<double>(m - p));
  EXPECT_LT(max_rel_diff(hac_covariance(P.J, P.r, A, 0), white), 1e-12);
  // A rectangular A (the parameters of interest; the others nuisance) gives the matching block.
  const Eigen::MatrixXd top = A.topRows(2);
  const Eigen::MatrixXd block = hac_covariance_scores(
      sample_scores(P.J, P.r, 1), top, 0, static_cast<double>(m) / static_cast<double>(m - p));
  EXPECT_LT(max_rel_diff(block, white.topLeftCorner(2, 2)), 1e-12);
}

TEST(HacScores, BartlettLagsAreTheWeightedDoubleSum) {
  const long m = 150, p = 3, L = 7;
  const Problem P = random_problem(m, p, 2);
  const Eigen::MatrixXd A = (P.J.transpose() * P.J).inverse();
  Eigen::MatrixXd meat = Eigen::MatrixXd::Zero(p, p);
  for (long k = 0; k < m; ++k)
    for (long j = 0; j < m; ++j) {
      const long d = std::labs(k - j);
      if (d > L) continue;
      const double w = 1.0 - static_cast<double>(d) / static_cast<double>(L + 1);
      meat += w * (P.J.row(k).transpose() * P.r[static_cast<std::size_t>(k)]) *
              (P.J.row(j) * P.r[static_cast<std::size_t>(j)]);
    }
  const Eigen::MatrixXd nw = A * meat * A * (static_cast<double>(m) / static_cast<double>(m - p));
  EXPECT_LT(max_rel_diff(hac_covariance(P.J, P.r, A, L), nw), 1e-12);
  // Positive residual autocorrelation makes the HAC variance of the mean-like column larger.
  EXPECT_GT(nw(0, 0), hac_covariance(P.J, P.r, A, 0)(0, 0));
}

// Long records and long bandwidths (the window-sum evaluation: blocks, re-summed windows, a
// bandwidth longer than the record) against the weighted double sum, as above.
TEST(HacScores, LongBandwidthsAreTheWeightedDoubleSum) {
  for (const auto& [m, L] : {std::pair<long, long>{9000, 1500}, std::pair<long, long>{60, 200},
                             std::pair<long, long>{5000, 1}}) {
    const long p = 2;
    const Problem P = random_problem(m, p, 7);
    const Eigen::MatrixXd A = (P.J.transpose() * P.J).inverse();
    // sum_{k,j} w(|k-j|) g_k g_j^T through the lagged sums of the scores (an O(m L) oracle).
    Eigen::MatrixXd g(m, p);
    for (long k = 0; k < m; ++k) g.row(k) = P.J.row(k) * P.r[static_cast<std::size_t>(k)];
    Eigen::MatrixXd meat = g.transpose() * g;
    for (long l = 1; l <= L && l < m; ++l) {
      const double w = 1.0 - static_cast<double>(l) / static_cast<double>(L + 1);
      Eigen::MatrixXd Gl = Eigen::MatrixXd::Zero(p, p);
      for (long k = l; k < m; ++k) Gl += g.row(k).transpose() * g.row(k - l);
      meat += w * (Gl + Gl.transpose());
    }
    const Eigen::MatrixXd nw = A * meat * A * (static_cast<double>(m) / static_cast<double>(m - p));
    EXPECT_LT(max_rel_diff(hac_covariance(P.J, P.r, A, L), nw), 1e-10) << m << " " << L;
  }
}

TEST(HacScores, SampleScoreSumsTheInterleavedChannels) {
  const long samples = 50, nch = 3, p = 4;
  const Problem P = random_problem(samples * nch, p, 3);
  const Eigen::MatrixXd g = sample_scores(P.J, P.r, nch);
  ASSERT_EQ(g.rows(), samples);
  ASSERT_EQ(g.cols(), p);
  for (long k = 0; k < samples; ++k)
    for (long j = 0; j < p; ++j) {
      double sum = 0;
      for (long c = 0; c < nch; ++c)
        sum += P.J(k * nch + c, j) * P.r[static_cast<std::size_t>(k * nch + c)];
      EXPECT_NEAR(g(k, j), sum, 1e-14 * (1 + std::abs(sum)));
    }
  // Grouping changes the lag structure: with L = 0 the grouped meat is sum_k g_k g_k^T over the
  // samples, which differs from the per-row one by the within-sample cross products.
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(p, p);
  const Eigen::MatrixXd grouped = hac_covariance_scores(g, I, 0, 1.0);
  EXPECT_LT(max_rel_diff(grouped, g.transpose() * g), 1e-12);
  EXPECT_THROW(sample_scores(P.J.topRows(samples * nch - 1),
                             std::vector<double>(P.r.begin(), P.r.end() - 1), nch),
               std::invalid_argument);
}

}  // namespace
}  // namespace frictionlab::identify::detail
