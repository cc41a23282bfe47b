// The SR3 core (identify/sr3.hpp) against a plain implementation of its equations (reference
// 004 eq. 10 and the l0 prox, written here with Eigen's dense normal equations), iterate by
// iterate and at its fixed point; the Newton-Raphson search of a nonlinear library parameter
// (eq. 11-12) against finite differences and a known truth.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "frictionlab/identify/joint_sr3.hpp"
#include "frictionlab/identify/sr3.hpp"

namespace frictionlab::identify {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// 200 x 8 library whose columns differ in scale by up to 1e4, and y from 3 of them + noise.
struct Problem {
  MatrixXd theta;
  VectorXd y, xi_true;
};

Problem small_problem(unsigned seed = 3) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> N(0.0, 1.0);
  Problem p;
  const int n = 200, r = 8;
  p.theta.resize(n, r);
  const double scales[r] = {1.0, 1e2, 1e-2, 10.0, 1.0, 1e-1, 1e3, 1.0};
  for (int k = 0; k < n; ++k) {
    const double t = 0.05 * k;
    p.theta(k, 0) = std::sin(t);
    p.theta(k, 1) = std::cos(0.7 * t);
    p.theta(k, 2) = std::sin(1.3 * t) * std::cos(0.2 * t);
    p.theta(k, 3) = t / 10.0;
    p.theta(k, 4) = std::tanh(std::sin(0.4 * t) * 5);
    p.theta(k, 5) = N(rng);
    p.theta(k, 6) = std::sin(2.1 * t + 1.0);
    p.theta(k, 7) = std::cos(3.3 * t);
  }
  for (int j = 0; j < r; ++j) p.theta.col(j) *= scales[j];
  p.xi_true = VectorXd::Zero(r);
  p.xi_true(0) = 2.0;
  p.xi_true(1) = -0.03;  // contribution ~3 (scale 1e2)
  p.xi_true(4) = 0.8;
  p.y = p.theta * p.xi_true;
  for (int k = 0; k < n; ++k) p.y(k) += 0.01 * N(rng);
  return p;
}

/// The plain iteration: xi = (A + I/nu)^-1 (b + W/nu), W = xi where |xi| >= sqrt(2 nu lambda),
/// on the scaled problem (unit-norm columns, y / ||y||) or the raw one; returns raw iterates.
std::vector<std::pair<VectorXd, VectorXd>> plain_sr3(const MatrixXd& theta, const VectorXd& y,
                                                     double lambda, double nu, bool normalize,
                                                     int iterations) {
  const int r = static_cast<int>(theta.cols());
  VectorXd d = VectorXd::Ones(r);
  double ys = 1.0;
  if (normalize) {
    for (int j = 0; j < r; ++j) d(j) = theta.col(j).norm();
    ys = y.norm();
  }
  const MatrixXd ts = theta * d.cwiseInverse().asDiagonal();
  const VectorXd yy = y / ys;
  const MatrixXd M = ts.transpose() * ts + MatrixXd::Identity(r, r) / nu;
  const VectorXd b = ts.transpose() * yy;
  const double thr = std::sqrt(2 * nu * lambda);
  VectorXd W = VectorXd::Zero(r);
  std::vector<std::pair<VectorXd, VectorXd>> out;
  for (int k = 0; k < iterations; ++k) {
    const VectorXd xi = M.partialPivLu().solve(b + W / nu);
    for (int j = 0; j < r; ++j) W(j) = std::abs(xi(j)) >= thr ? xi(j) : 0.0;
    // raw coefficients: xi_raw = xi_s * ||y|| / ||theta_j||
    out.emplace_back((xi.array() * ys / d.array()).matrix(), (W.array() * ys / d.array()).matrix());
  }
  return out;
}

double rel_diff(const VectorXd& a, const VectorXd& b) {
  return (a - b).lpNorm<Eigen::Infinity>() / std::max(1e-300, b.lpNorm<Eigen::Infinity>());
}

TEST(Sr3Core, IteratesMatchThePlainEquations) {
  const Problem p = small_problem();
  for (const bool normalize : {true, false}) {
    SCOPED_TRACE(normalize ? "normalized" : "raw");
    Sr3Options o;
    o.normalize = normalize;
    o.nu = normalize ? 1.0 : 1e-2;
    o.lambda = normalize ? 2e-3 : 0.5;  // thresholds 0.063 of ||y|| / 0.1 raw
    o.accelerate = false;
    o.tolerance = 0;  // run all iterations
    o.max_iterations = 60;
    std::vector<Sr3Iterate> trace;
    const Sr3Result res = sr3(p.theta, p.y, o, &trace);
    const auto plain = plain_sr3(p.theta, p.y, o.lambda, o.nu, normalize, 60);
    ASSERT_EQ(trace.size(), plain.size());
    for (std::size_t k = 0; k < trace.size(); ++k) {
      EXPECT_LT(rel_diff(trace[k].xi, plain[k].first), 1e-9) << "iterate " << k;
      EXPECT_LT(rel_diff(trace[k].W, plain[k].second), 1e-9) << "iterate " << k;
      for (int j = 0; j < 8; ++j)  // the same support, exactly
        EXPECT_EQ(trace[k].W(j) == 0, plain[k].second(j) == 0) << "iterate " << k << " col " << j;
    }
    EXPECT_EQ(res.iterations, 60);
  }
}

TEST(Sr3Core, FixedPointSatisfiesEquationsAndFindsTheSupport) {
  const Problem p = small_problem();
  Sr3Options o;
  o.lambda = 2e-3;
  o.nu = 1.0;
  std::vector<Sr3Iterate> trace;
  const Sr3Result res = sr3(p.theta, p.y, o, &trace);
  ASSERT_TRUE(res.converged);
  // Support = the true one.
  for (int j = 0; j < 8; ++j) EXPECT_EQ(res.active[j], p.xi_true(j) != 0) << "column " << j;
  // Fixed point of eq. 10 + prox, checked on the scaled problem written out here.
  VectorXd d(8);
  for (int j = 0; j < 8; ++j) d(j) = p.theta.col(j).norm();
  const double ys = p.y.norm();
  const MatrixXd ts = p.theta * d.cwiseInverse().asDiagonal();
  const VectorXd xs = (res.xi_relaxed.array() * d.array() / ys).matrix();
  const VectorXd ws = (res.W.array() * d.array() / ys).matrix();
  const MatrixXd M = ts.transpose() * ts + MatrixXd::Identity(8, 8) / o.nu;
  const VectorXd resid = M * xs - (ts.transpose() * (p.y / ys) + ws / o.nu);
  EXPECT_LT(resid.lpNorm<Eigen::Infinity>(), 1e-10);
  const double thr = std::sqrt(2 * o.nu * o.lambda);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(ws(j), std::abs(xs(j)) >= thr ? xs(j) : 0.0);
  // The accelerated run ends where the plain iteration ends.
  Sr3Options slow = o;
  slow.accelerate = false;
  slow.max_iterations = 200000;
  slow.tolerance = 1e-14;
  const Sr3Result ref = sr3(p.theta, p.y, slow);
  EXPECT_LT(rel_diff(res.xi_relaxed, ref.xi_relaxed), 1e-9);
  EXPECT_LT(rel_diff(res.W, ref.W), 1e-9);
  EXPECT_TRUE(trace.back().jump);
  // Debiasing = least squares on the support (independent: Householder QR of the 3 columns).
  MatrixXd sub(p.theta.rows(), 3);
  sub << p.theta.col(0), p.theta.col(1), p.theta.col(4);
  const VectorXd c = sub.householderQr().solve(p.y);
  EXPECT_NEAR(res.xi(0), c(0), 1e-10 * std::abs(c(0)));
  EXPECT_NEAR(res.xi(1), c(1), 1e-10 * std::abs(c(1)));
  EXPECT_NEAR(res.xi(4), c(2), 1e-10 * std::abs(c(2)));
  EXPECT_EQ(res.xi(2), 0.0);
  EXPECT_NEAR(res.rss, (sub * c - p.y).squaredNorm(), 1e-10 * res.rss);
  // And close to the truth (noise 0.01).
  EXPECT_NEAR(res.xi(0), 2.0, 1e-2);
  EXPECT_NEAR(res.xi(4), 0.8, 1e-2);
}

TEST(Sr3Core, LambdaZeroIsLeastSquaresAndProtectedColumnsStay) {
  const Problem p = small_problem();
  Sr3Options o;
  const Sr3Result ls = sr3(p.theta, p.y, o);
  const VectorXd c = p.theta.householderQr().solve(p.y);
  EXPECT_LT(rel_diff(ls.xi, c), 1e-9);
  EXPECT_EQ(ls.num_active(), 8);
  // A huge lambda drops everything but the protected columns.
  o.lambda = 10;
  o.protect.assign(8, false);
  o.protect[3] = true;
  const Sr3Result one = sr3(p.theta, p.y, o);
  EXPECT_EQ(one.num_active(), 1);
  EXPECT_TRUE(one.active[3]);
  EXPECT_NEAR(one.xi(3), p.theta.col(3).dot(p.y) / p.theta.col(3).squaredNorm(), 1e-12);
}

TEST(Sr3Core, DegenerateColumnIsLeftOut) {
  Problem p = small_problem();
  p.theta.col(2).setZero();
  Sr3Options o;
  o.lambda = 2e-3;
  const Sr3Result res = sr3(p.theta, p.y, o);
  EXPECT_TRUE(res.degenerate[2]);
  EXPECT_FALSE(res.active[2]);
  EXPECT_EQ(res.xi(2), 0.0);
  EXPECT_TRUE(res.xi.allFinite());
}

TEST(Sr3Core, BadArguments) {
  const Problem p = small_problem();
  Sr3Options o;
  EXPECT_THROW(sr3(p.theta, p.y.head(10), o), std::invalid_argument);
  o.nu = 0;
  EXPECT_THROW(sr3(p.theta, p.y, o), std::invalid_argument);
  o.nu = 1;
  o.lambda = -1;
  EXPECT_THROW(sr3(p.theta, p.y, o), std::invalid_argument);
  o.lambda = 0;
  o.protect.assign(3, true);
  EXPECT_THROW(sr3(p.theta, p.y, o), std::invalid_argument);
  o.protect.clear();
  VectorXd y = p.y;
  y(5) = std::nan("");
  EXPECT_THROW(sr3(p.theta, y, o), std::invalid_argument);
}

// ---- the joint library's nonlinear parameter (alpha = ln Omega_s) ----

struct StribeckData {
  std::vector<double> qd;
  MatrixXd fixed;
  VectorXd mult;
};

StribeckData stribeck_data() {
  StribeckData d;
  const int n = 400;
  d.fixed.resize(n, 2);
  d.mult.resize(n);
  for (int k = 0; k < n; ++k) {
    const double v = 0.6 * std::sin(0.031 * k) + 0.05 * std::sin(0.17 * k);
    d.qd.push_back(k == 7 ? 0.0 : v);  // one sample exactly at rest
    const double s = d.qd.back() > 0 ? 1.0 : (d.qd.back() < 0 ? -1.0 : 0.0);
    d.fixed(k, 0) = d.qd.back();  // viscous
    d.fixed(k, 1) = s;            // Coulomb
    d.mult(k) = s;
  }
  return d;
}

TEST(JointStribeckLibrary, DerivativesMatchFiniteDifferences) {
  const StribeckData d = stribeck_data();
  const JointStribeckLibrary lib(d.fixed, d.qd, d.mult, {0.5, 1.0, 2.5}, 1e-4, 10.0);
  VectorXd xi(5);
  xi << 0.1, 0.3, 0.2, -0.05, 0.12;
  for (const double om : {0.01, 0.05, 0.3}) {
    const VectorXd a = VectorXd::Constant(1, std::log(om));
    VectorXd v, vp, vm, dp, dm;
    MatrixXd d1, d2, d1p, d1m;
    lib.apply(a, xi, v, &d1, &d2);
    const double h = 1e-5;
    lib.apply(a + VectorXd::Constant(1, h), xi, vp, &d1p, nullptr);
    lib.apply(a - VectorXd::Constant(1, h), xi, vm, &d1m, nullptr);
    const VectorXd fd1 = (vp - vm) / (2 * h);
    const VectorXd fd2 = (d1p.col(0) - d1m.col(0)) / (2 * h);
    EXPECT_LT((d1.col(0) - fd1).lpNorm<Eigen::Infinity>(),
              1e-7 * (1 + fd1.lpNorm<Eigen::Infinity>()));
    EXPECT_LT((d2.col(0) - fd2).lpNorm<Eigen::Infinity>(),
              1e-6 * (1 + fd2.lpNorm<Eigen::Infinity>()));
    // apply's value is Theta(alpha) xi with Theta from evaluate.
    MatrixXd th;
    lib.evaluate(a, th, false);
    EXPECT_LT((th * xi - v).lpNorm<Eigen::Infinity>(), 1e-12);
    EXPECT_EQ(th(7, 2), 0.0);  // sgn(0) * exp(0) = 0 at rest
  }
}

TEST(Sr3Core, NewtonRecoversOmegaS) {
  // Exact data from [qd, sgn, sgn*exp(-|qd/0.07|)]: the Newton search of alpha = ln Omega_s
  // alternating with the xi/W iteration ends at the truth from starts 7x below and 3x above.
  const StribeckData d = stribeck_data();
  const JointStribeckLibrary lib(d.fixed, d.qd, d.mult, {1.0}, 1e-4, 10.0);
  const double om_true = 0.07;
  VectorXd xi_true(3);
  xi_true << 0.2, 0.3, 0.25;
  VectorXd y;
  lib.apply(VectorXd::Constant(1, std::log(om_true)), xi_true, y, nullptr, nullptr);
  for (const double om0 : {0.01, 0.2}) {
    for (const double lambda : {0.0, 1e-6}) {
      Sr3Options o;
      o.lambda = lambda;
      o.alpha_tolerance = 1e-12;
      o.max_alpha_rounds = 200;
      Sr3Start st;
      st.alpha = VectorXd::Constant(1, std::log(om0));
      const Sr3Result res = sr3(lib, y, o, st);
      EXPECT_TRUE(res.converged);
      EXPECT_NEAR(std::exp(res.alpha(0)), om_true, 1e-7 * om_true) << "start " << om0;
      EXPECT_LT(rel_diff(res.xi, xi_true), 1e-7) << "start " << om0;
      EXPECT_LT(res.rss, 1e-14 * y.squaredNorm());
    }
  }
}

}  // namespace
}  // namespace frictionlab::identify
