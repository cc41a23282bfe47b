// fit_joint_sr3 (identify/joint_sr3.hpp), the joint identification algorithm of reference 004:
//  - step 1's AIC selection picks the true library terms on a static-friction problem;
//  - the whole algorithm recovers a synthetic joint (inertia, gravity, offset, LuGre) simulated
//    under PD control, with exact derivatives and with noisy position differentiated by
//    Savitzky-Golay; the tolerances and the weak identifiability of sigma1 are measured here;
//  - model B (tanh) end to end;
//  - unusable input gives FitError with a message naming the problem.
// Measured numbers: docs/joint-identification.md, section "sr3".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/joint_sr3.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/models/validation.hpp"
#include "joint_sr3_synthetic.hpp"

namespace frictionlab::identify {
namespace {

using Lu = JointLuGre<double>;

// ---- a static-friction problem: data from a known subset of the step-1 library ----

struct StaticTruth {
  double I = 0.05, mgCx = 0.3, mgCy = -2.0, offset = 0.1;
  double Fc = 0.3, Fs = 0.25, Omega_s = 0.1;  // delta = 1
  double cv1 = 0.1, cv3 = 0.05;
  double friction(double v) const {
    const double s = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
    return s * (Fc + Fs * std::exp(-std::abs(v / Omega_s))) + cv1 * v + cv3 * v * v * v;
  }
};

/// qd = 1.5 sin(2 pi 0.13 t) + 0.5 sin(2 pi 0.71 t + 1) (q, qdd analytic), 500 Hz, torque =
/// the truth + N(0, noise).
JointData static_record(const StaticTruth& tr, double duration, double noise, unsigned seed,
                        double phase = 0) {
  JointData d;
  d.source = "static-" + std::to_string(seed);
  std::mt19937 rng(seed);
  std::normal_distribution<double> N(0.0, 1.0);
  const double w1 = 2 * M_PI * 0.13, w2 = 2 * M_PI * 0.71;
  for (int k = 0; k <= static_cast<int>(duration * 500); ++k) {
    const double t = k / 500.0;
    const double qd = 1.5 * std::sin(w1 * t + phase) + 0.5 * std::sin(w2 * t + 1);
    const double q = 0.5 - 1.5 / w1 * std::cos(w1 * t + phase) - 0.5 / w2 * std::cos(w2 * t + 1);
    const double qdd = 1.5 * w1 * std::cos(w1 * t + phase) + 0.5 * w2 * std::cos(w2 * t + 1);
    d.t.push_back(t);
    d.q.push_back(q);
    d.qd.push_back(qd);
    d.qdd.push_back(qdd);
    d.tau.push_back(tr.I * qdd + tr.mgCx * std::cos(q) - tr.mgCy * std::sin(q) + tr.offset +
                    tr.friction(qd) + noise * N(rng));
  }
  return d;
}

/// The lambda scan, printed when a test fails.
void print_scan(const JointSr3Result& r) {
  std::printf("lambda scan (chosen %zu):\n", r.chosen);
  for (const auto& row : r.scan) {
    std::printf("  thr %.3g k %d Om %.4g err %.5f rss %.5g aic %.5g adm %d conv %d :",
                row.threshold, row.n_active, row.Omega_s, row.train_rel_error, row.validation_rss,
                row.aic, static_cast<int>(row.admissible), static_cast<int>(row.converged));
    for (std::size_t j = 0; j < row.active.size(); ++j)
      if (row.active[j]) std::printf(" %s", r.candidates[j].c_str());
    std::printf("\n");
  }
}

JointSr3Options fast_options() {
  JointSr3Options o;
  o.sigma0_init = {1e3};
  return o;
}

TEST(JointSr3Selection, AicPicksTheTrueTermsOfAStaticProblem) {
  const StaticTruth truth;
  const JointData train = static_record(truth, 12, 0.005, 1);
  const JointData val = static_record(truth, 8, 0.005, 2, 0.7);
  const JointSr3Result res =
      fit_joint_sr3(std::span(&train, 1), std::span(&val, 1), fast_options());
  const std::vector<std::string> expected = {
      "qdd", "cos(q)", "sin(q)", "1", "qd", "qd^3", "sgn(qd)", "sgn(qd)*exp(-|qd/Omega_s|^1)"};
  EXPECT_EQ(res.active, expected);
  if (res.active != expected) print_scan(res);
  EXPECT_FALSE(res.held_out);
  // The chosen row has the smallest AIC; rows that miss a true term score worse.
  const JointSr3ScanRow& c = res.scan[res.chosen];
  EXPECT_EQ(c.aic_r, 0.0);
  EXPECT_EQ(c.n_active, 8);
  int worse_smaller = 0;
  for (const auto& row : res.scan) {
    if (!row.admissible || !std::isfinite(row.aic)) continue;
    EXPECT_GE(row.aic, c.aic);
    if (row.n_active < 8) {
      EXPECT_GT(row.aic, c.aic + 10);
      ++worse_smaller;
    }
  }
  EXPECT_GT(worse_smaller, 0);  // the scan reached sparser models
  // The static model: noise 0.005 N m on ~1.5 N m torques, exact q, qd, qdd.
  const JointModel& s = res.static_model;
  const auto& p = std::get<Lu::Params>(s.friction);
  EXPECT_NEAR(s.I, truth.I, 1e-3 * truth.I);
  EXPECT_NEAR(s.mgCx, truth.mgCx, 2e-3);
  EXPECT_NEAR(s.mgCy, truth.mgCy, 2e-3);
  EXPECT_NEAR(s.offset, truth.offset, 2e-3);
  EXPECT_NEAR(p.Fc, truth.Fc, 2e-3);
  ASSERT_EQ(p.n_stribeck, 1);
  EXPECT_EQ(p.delta[0], 1.0);
  EXPECT_NEAR(p.Fs[0], truth.Fs, 3e-3);
  EXPECT_NEAR(p.Omega_s, truth.Omega_s, 0.02 * truth.Omega_s);
  EXPECT_NEAR(p.cv[0], truth.cv1, 2e-3);
  EXPECT_NEAR(p.cv[2], truth.cv3, 1e-3);
  EXPECT_EQ(p.cv[1], 0.0);
  EXPECT_TRUE(std::isnan(p.sigma0));  // step 1 does not identify the bristles
  // Without validation data: held-out blocks, the same terms, and a warning.
  const JointSr3Result ho = fit_joint_sr3(std::span(&train, 1), {}, fast_options());
  EXPECT_TRUE(ho.held_out);
  EXPECT_EQ(ho.active, expected);
  ASSERT_FALSE(ho.warnings.empty());
  EXPECT_NE(ho.warnings.front().find("no validation data"), std::string::npos);
  if (HasFailure()) {
    print_scan(res);
    print_scan(ho);
  }
}

// ---- a synthetic joint (tests/joint_sr3_synthetic.hpp): PD tracking of constant-velocity
// moves at 0.02 .. 2 rad/s, 1 kHz, LuGre model A truth sigma0 = 2000, sigma1 = 3, Fc = 0.3,
// Fs = 0.2 (delta 2), Omega_s = 0.05, cv = 0.1; I = 0.05, mgCx = 0.3, mgCy = -2, offset 0.1 ----

struct JointCase {
  testing::SyntheticRecord rec;
  JointSr3Result res;
  double truth_error = 0;  ///< the true model's torque error on the same record / ||tau||
};

double torque_error(const JointModel& m, const JointData& d) {
  const std::vector<double> p = inverse_torque(m, d);
  double e2 = 0, t2 = 0;
  for (std::size_t k = 0; k < d.size(); ++k) {
    e2 += (d.tau[k] - p[k]) * (d.tau[k] - p[k]);
    t2 += d.tau[k] * d.tau[k];
  }
  return std::sqrt(e2 / t2);
}

JointModel truth_model(const testing::SyntheticJoint& j) {
  JointModel m;
  m.I = j.I;
  m.mgCx = j.mgCx;
  m.mgCy = j.mgCy;
  m.offset = j.offset;
  m.friction = j.friction;
  return m;
}

JointCase run_joint_case(const testing::SyntheticJoint& j, const testing::SyntheticOptions& so,
                         JointSr3Options o) {
  JointCase c;
  c.rec = testing::simulate_pd_joint(j, so);
  c.res = fit_joint_sr3(std::span(&c.rec.data, 1), {}, o);
  c.truth_error = torque_error(truth_model(j), c.rec.data);
  return c;
}

/// max |tau_ss identified - tau_ss true| over |qd| in [0.01, 2] rad/s (the sliding range the
/// record covers; below 0.01 rad/s the curve is not excited, see static_velocity_floor).
double steady_curve_error(const JointModel& m, const Lu::Params& truth) {
  double worst = 0;
  for (double v = 0.01; v <= 2.0; v *= 1.02)
    worst = std::max(worst, std::abs(steady_friction(m, v) - Lu::steady_force(truth, v)));
  return worst;
}

void report(const char* name, const JointCase& c, const testing::SyntheticJoint& j) {
  const auto& p = std::get<Lu::Params>(c.res.model.friction);
  std::printf("%s: %.2f s, torque error %.4f (truth model %.4f), static %.4f\n", name,
              c.res.seconds, c.res.rel_error, c.truth_error, c.res.static_rel_error);
  std::printf(
      "  I %.5f (%+.2f %%) mgCx %.4f (%+.2f %%) mgCy %.4f (%+.2f %%) offset %.4f (%+.2f %%)\n",
      c.res.model.I, 100 * (c.res.model.I / j.I - 1), c.res.model.mgCx,
      100 * (c.res.model.mgCx / j.mgCx - 1), c.res.model.mgCy,
      100 * (c.res.model.mgCy / j.mgCy - 1), c.res.model.offset,
      100 * (c.res.model.offset / j.offset - 1));
  std::printf(
      "  sigma0 %.1f (%+.1f %%) sigma1 %.3f (%+.1f %%) Fc %.4f (%+.2f %%) cv1 %.4f Omega_s %.4f"
      " steady-curve max error %.4f N m\n",
      p.sigma0, 100 * (p.sigma0 / j.friction.sigma0 - 1), p.sigma1,
      100 * (p.sigma1 / j.friction.sigma1 - 1), p.Fc, 100 * (p.Fc / j.friction.Fc - 1), p.cv[0],
      p.Omega_s, steady_curve_error(c.res.model, j.friction));
  std::printf("  active:");
  for (const auto& a : c.res.active) std::printf(" %s", a.c_str());
  std::printf("\n");
}

/// Relative change of the training torque error when one bristle parameter of the identified
/// model is scaled: how much the data constrain it.
double error_sensitivity(const JointCase& c, double Lu::Params::*field, double factor) {
  JointModel m = c.res.model;
  auto& p = std::get<Lu::Params>(m.friction);
  p.*field *= factor;
  return torque_error(m, c.rec.data) / c.res.rel_error - 1;
}

testing::SyntheticOptions joint_record_options() {
  testing::SyntheticOptions so;
  so.move_time = 1.0;  // 14 s record
  so.h = 2e-4;
  return so;
}

JointSr3Options joint_options() {
  JointSr3Options o;
  o.sigma0_init = {1e3, 1e4};
  return o;
}

TEST(JointSr3Synthetic, RecoversTheJointWithExactDerivatives) {
  // Exact qd, qdd from the simulation, torque noise 0.005 N m (0.5 % of the torque RMS): what
  // the algorithm itself achieves.
  const testing::SyntheticJoint j;
  testing::SyntheticOptions so = joint_record_options();
  so.exact_derivatives = true;
  so.noise_q = 0;
  so.noise_tau = 0.005;
  const JointCase c = run_joint_case(j, so, joint_options());
  report("exact derivatives", c, j);
  const JointModel& m = c.res.model;
  const auto& p = std::get<Lu::Params>(m.friction);
  EXPECT_TRUE(check(p).empty());
  EXPECT_NEAR(m.I, j.I, 0.01 * j.I);
  EXPECT_NEAR(m.mgCy, j.mgCy, 0.005 * std::abs(j.mgCy));
  // cos(q) and the constant are correlated over q in [0, 2] rad (correlation of the columns
  // 0.9): their sum is sharp, the split less so.
  EXPECT_NEAR(m.mgCx, j.mgCx, 0.05 * j.mgCx);
  EXPECT_NEAR(m.offset, j.offset, 0.1 * j.offset);
  EXPECT_NEAR(m.mgCx + m.offset, j.mgCx + j.offset, 0.01 * (j.mgCx + j.offset));
  EXPECT_NEAR(p.Fc, j.friction.Fc, 0.03 * j.friction.Fc);
  EXPECT_NEAR(p.cv[0], j.friction.cv[0], 0.05 * j.friction.cv[0]);
  EXPECT_LT(steady_curve_error(m, j.friction), 0.03);  // 10 % of Fc, the Stribeck hump included
  EXPECT_NEAR(p.sigma0, j.friction.sigma0, 0.1 * j.friction.sigma0);
  EXPECT_NEAR(p.sigma1, j.friction.sigma1, 0.2 * j.friction.sigma1);
  // Step 1 selects the delta = 4 exponential for the delta = 2 truth (measured: max 0.023 N m
  // apart on the steady curve): the final torque error is ~1.5 x the truth's.
  EXPECT_LT(c.res.rel_error, 1.7 * c.truth_error);
  // The history is the paper's figure 9 table: the kept start's last row has xi_u close to 1.
  double xi_u_last = 0;
  for (const auto& h : c.res.history)
    if (h.start == static_cast<int>(c.res.chosen_start) && h.accepted) xi_u_last = h.xi_u;
  EXPECT_NEAR(xi_u_last, 1.0, 1e-3);
  EXPECT_TRUE(c.res.starts[c.res.chosen_start].converged);
}

TEST(JointSr3Synthetic, NoisyPositionDifferentiatedBySavitzkyGolay) {
  // Position noise 1e-5 rad (a 19-bit encoder), torque noise 0.01 N m, qd and qdd by
  // Savitzky-Golay (31 samples, cubic) from the noisy position: the differentiation smooths the
  // presliding transients at reversals (they last a few ms), which is where sigma0 and sigma1
  // act; the true model itself has a torque error of ~1.1 % on these derivatives.
  const testing::SyntheticJoint j;
  const JointCase c = run_joint_case(j, joint_record_options(), joint_options());
  report("Savitzky-Golay", c, j);
  const JointModel& m = c.res.model;
  const auto& p = std::get<Lu::Params>(m.friction);
  EXPECT_TRUE(check(p).empty());
  EXPECT_NEAR(m.I, j.I, 0.02 * j.I);
  EXPECT_NEAR(m.mgCy, j.mgCy, 0.01 * std::abs(j.mgCy));
  EXPECT_NEAR(m.mgCx + m.offset, j.mgCx + j.offset, 0.02 * (j.mgCx + j.offset));
  EXPECT_NEAR(p.Fc, j.friction.Fc, 0.03 * j.friction.Fc);
  EXPECT_LT(steady_curve_error(m, j.friction), 0.03);
  EXPECT_NEAR(p.sigma0, j.friction.sigma0, 0.25 * j.friction.sigma0);
  // sigma1 is weakly identifiable from these data: doubling it raises the torque error by ~7 %,
  // halving it by ~2 % (measured and printed here), against ~200 % for sigma0; no tighter bound
  // than a factor ~1.6 on sigma1 is meaningful.
  const double s1_up = error_sensitivity(c, &Lu::Params::sigma1, 2.0);
  const double s1_down = error_sensitivity(c, &Lu::Params::sigma1, 0.5);
  const double s0_up = error_sensitivity(c, &Lu::Params::sigma0, 2.0);
  const double s0_down = error_sensitivity(c, &Lu::Params::sigma0, 0.5);
  std::printf(
      "  torque error change: sigma1 x2 %+.2f %%, x0.5 %+.2f %%; sigma0 x2 %+.2f %%, "
      "x0.5 %+.2f %%\n",
      100 * s1_up, 100 * s1_down, 100 * s0_up, 100 * s0_down);
  EXPECT_GT(p.sigma1, j.friction.sigma1 / 1.6);
  EXPECT_LT(p.sigma1, j.friction.sigma1 * 1.6);
  EXPECT_LT(s1_up, 0.15);  // weak: a factor 2 in sigma1 costs little
  EXPECT_LT(s1_down, 0.05);
  EXPECT_GT(s0_up, 10 * s1_up);  // sigma0 is far better determined
  EXPECT_GT(s0_down, 10 * s1_down);
  EXPECT_LT(c.res.rel_error, 1.2 * c.truth_error);
}

TEST(JointSr3Synthetic, ModelBTanh) {
  // The truth and the identification use tanh(150 qd) in place of sgn (the paper's model B).
  testing::SyntheticJoint j;
  j.friction.K = 150;
  JointSr3Options o = joint_options();
  o.K = 150;
  const JointCase c = run_joint_case(j, joint_record_options(), o);
  report("model B", c, j);
  const auto& p = std::get<Lu::Params>(c.res.model.friction);
  EXPECT_EQ(p.K, 150.0);
  EXPECT_EQ(c.res.active[4], "qd");
  EXPECT_NE(std::find(c.res.active.begin(), c.res.active.end(), "tanh(150*qd)"),
            c.res.active.end());
  EXPECT_NEAR(p.Fc, j.friction.Fc, 0.05 * j.friction.Fc);
  EXPECT_LT(steady_curve_error(c.res.model, j.friction), 0.03);
  EXPECT_NEAR(p.sigma0, j.friction.sigma0, 0.25 * j.friction.sigma0);
  // sigma1 is not asserted: with tanh the presliding damping is even less visible (measured:
  // 1.2 for the true 3, printed above).
  EXPECT_LT(c.res.rel_error, 1.2 * c.truth_error);
  // Model B's static fit has no discontinuity at qd = 0: far smaller step-1 error than model A.
  EXPECT_LT(c.res.static_rel_error, 0.08);
}

// ---- error paths ----

std::string fit_error(const std::vector<JointData>& train, const std::vector<JointData>& val,
                      const JointSr3Options& o = fast_options()) {
  try {
    fit_joint_sr3(train, val, o);
  } catch (const FitError& e) {
    return e.what();
  }
  return "";
}

void expect_contains(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: '" << msg << "' lacks '" << part << "'";
}

/// The first n samples of d (the channels static_record fills).
JointData first_samples(JointData d, std::size_t n) {
  for (auto* c : {&d.t, &d.q, &d.qd, &d.qdd, &d.tau}) c->resize(n);
  return d;
}

TEST(JointSr3Errors, UnusableInput) {
  const StaticTruth truth;
  const JointData good = static_record(truth, 4, 0.005, 1);
  expect_contains(fit_error({}, {}), "no training data");
  {
    const JointData d = first_samples(good, 12);
    expect_contains(fit_error({d}, {}), "static-1: too few samples: 12 (need at least 20");
  }
  {
    const JointData d = first_samples(good, 100);
    expect_contains(fit_error({d}, {}), "too few training samples: 100 for 12 candidate functions");
  }
  {
    JointData d = good;
    d.qdd.pop_back();
    expect_contains(fit_error({d}, {}),
                    "static-1: channel 'qdd' has 2000 samples, the time "
                    "channel 2001");
  }
  {
    JointData d = good;
    d.tau[57] = std::numeric_limits<double>::quiet_NaN();
    expect_contains(fit_error({d}, {}),
                    "static-1: non-finite value (nan) in channel 'tau' at "
                    "sample 57 (0-based), t = 0.114 s");
  }
  {
    JointData d = good;
    d.t[300] = d.t[299];
    expect_contains(fit_error({d}, {}), "static-1: time not strictly increasing at sample 300");
  }
  {
    JointData d = good;  // always moving forward: no reversal
    for (double& v : d.qd) v = 0.5 + 0.4 * std::sin(v);
    expect_contains(fit_error({d}, {}), "no velocity reversal in the training data");
  }
  {
    JointData v = good;
    v.source = "";
    v.q[3] = std::numeric_limits<double>::infinity();
    expect_contains(fit_error({good}, {v}),
                    "validation record 1: non-finite value (inf) in "
                    "channel 'q' at sample 3");
  }
  {
    JointData d = good;
    for (double& x : d.tau) x = 0;
    expect_contains(fit_error({d}, {}), "the training torque is zero everywhere");
  }
}

TEST(JointSr3Errors, InvalidOptions) {
  const StaticTruth truth;
  const JointData good = static_record(truth, 4, 0.005, 1);
  JointSr3Options o = fast_options();
  o.n_viscous = 9;
  expect_contains(fit_error({good}, {}, o), "n_viscous must be between 0 and 8, got 9");
  o = fast_options();
  o.delta = {1.0, -0.5};
  expect_contains(fit_error({good}, {}, o), "every delta must be finite and > 0, got -0.5");
  o = fast_options();
  o.delta.clear();
  expect_contains(fit_error({good}, {}, o), "delta needs 1 to 16 exponents, got 0");
  o = fast_options();
  o.K = -1;
  expect_contains(fit_error({good}, {}, o), "K must be finite and >= 0, got -1");
  o = fast_options();
  o.sigma0_init = {1e3, 0};
  expect_contains(fit_error({good}, {}, o), "every sigma0_init must be finite and > 0, got 0");
  o = fast_options();
  o.lambda = {1e-3, std::nan("")};
  expect_contains(fit_error({good}, {}, o), "every lambda must be finite and >= 0, got nan");
  o = fast_options();
  o.sr3.nu = 0;
  expect_contains(fit_error({good}, {}, o), "sr3.nu must be finite and > 0");
}

}  // namespace
}  // namespace frictionlab::identify
