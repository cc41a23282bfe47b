// The motion bandwidth (signal/spectrum.hpp), the joint's low-pass choice
// (identify/joint_data.hpp) and the verdict rules (workflows/verdict.hpp). Oracles: sums of
// sines of known frequencies (all their power lies at those frequencies), the documented rule
// (5 x the bandwidth, rounded to 1-2-5), and outcomes built by hand on each side of every
// documented threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "frictionlab/identify/joint_data.hpp"
#include "frictionlab/io/verdict_json.hpp"
#include "frictionlab/signal/spectrum.hpp"
#include "frictionlab/workflows/joint.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab {
namespace {

constexpr double kPi = std::numbers::pi;

std::vector<double> sines(double fs, double seconds,
                          const std::vector<std::pair<double, double>>& parts, double slope = 0) {
  std::vector<double> x(static_cast<std::size_t>(fs * seconds));
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double t = static_cast<double>(k) / fs;
    x[k] = slope * t;
    for (const auto& [a, f] : parts) x[k] += a * std::sin(2 * kPi * f * t);
  }
  return x;
}

TEST(PowerBandwidth, LiesAtTheHighestStrongSine) {
  // 0.5 Hz strong, 2 Hz weaker (4 % of the power): 99.9 % lies at 2 Hz, 90 % at 0.5 Hz.
  const auto x = sines(300, 20, {{1.0, 0.5}, {0.2, 2.0}});
  EXPECT_NEAR(signal::power_bandwidth(x, 300, 0.999), 2.0, 0.15);
  EXPECT_NEAR(signal::power_bandwidth(x, 300, 0.9), 0.5, 0.15);
}

TEST(PowerBandwidth, IgnoresADriftAndAcceptsAPrimeLength) {
  std::vector<double> x = sines(300, 20, {{1.0, 1.0}}, /*slope=*/0.3);
  x.resize(5999);  // a prime length: the FFT runs over 5832 = 2^3 3^6 samples
  EXPECT_NEAR(signal::power_bandwidth(x, 300, 0.999), 1.0, 0.15);
  EXPECT_EQ(signal::power_bandwidth(std::vector<double>(100, 2.0), 100, 0.99), 0.0);
}

TEST(PowerBandwidth, RefusesWhatHasNoSpectrum) {
  EXPECT_THROW(signal::power_bandwidth(std::vector<double>(4, 1.0), 100, 0.9),
               std::invalid_argument);
  EXPECT_THROW(signal::power_bandwidth(std::vector<double>(64, 1.0), 0, 0.9),
               std::invalid_argument);
  EXPECT_THROW(signal::power_bandwidth(std::vector<double>(64, 1.0), 100, 1.0),
               std::invalid_argument);
  std::vector<double> nan(64, 1.0);
  nan[3] = std::nan("");
  EXPECT_THROW(signal::power_bandwidth(nan, 100, 0.9), std::invalid_argument);
}

/// A joint record of a sine motion read by an encoder of 4096 counts per revolution (the
/// quantisation makes the raw acceleration noise) or exactly.
data::Record joint_record(double fs, double seconds, double f, bool encoder = true) {
  data::Record r;
  r.source = "rec.csv";
  r.position = sines(fs, seconds, {{0.8, f}});
  const double count = 2 * kPi / 4096;
  if (encoder)
    for (double& q : r.position) q = std::round(q / count) * count;
  for (std::size_t k = 0; k < r.position.size(); ++k) r.t.push_back(static_cast<double>(k) / fs);
  r.force.assign(r.t.size(), 0.0);
  return r;
}

TEST(JointLowpass, FiveTimesTheBandwidthRoundedToOneTwoFive) {
  identify::JointPrepOptions prep;
  const auto c = identify::choose_joint_lowpass(joint_record(300, 20, 1.0), prep);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->bandwidth_hz, 1.0, 0.1);
  EXPECT_EQ(c->cutoff_hz, 5.0);  // 5 x 1 Hz
  EXPECT_EQ(c->candidate_hz, 5.0);
  EXPECT_GT(c->noise_share, 0.9);
  EXPECT_TRUE(c->noise_dominated);
  EXPECT_NEAR(c->sample_rate_hz, 300.0, 1e-6);
  EXPECT_EQ(c->source, "rec.csv");
  const auto c2 = identify::choose_joint_lowpass(joint_record(300, 20, 0.4), prep);
  ASSERT_TRUE(c2);
  EXPECT_EQ(c2->cutoff_hz, 2.0);  // 5 x 0.4 Hz = 2 Hz
}

TEST(JointLowpass, NoneForAnExactRecord) {
  // Without noise the raw acceleration's power lies at 1 Hz: a filter would only add its edges.
  const auto c = identify::choose_joint_lowpass(joint_record(300, 20, 1.0, false), {});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->candidate_hz, 5.0);
  EXPECT_LT(c->noise_share, 0.01);
  EXPECT_FALSE(c->noise_dominated);
  EXPECT_EQ(c->cutoff_hz, 0.0);
}

TEST(JointLowpass, NoneWhereTheMotionFillsTheBand) {
  // 5 x 10 Hz = 50 Hz > 0.2 x 100 Hz: a low-pass would cut the motion.
  const auto c = identify::choose_joint_lowpass(joint_record(100, 20, 10.0), {});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->cutoff_hz, 0.0);
}

TEST(JointLowpass, NoChoiceWhereTheUserChoseOrTvregSmooths) {
  const data::Record r = joint_record(300, 20, 1.0);
  identify::JointPrepOptions given;
  given.preprocess.lowpass_cutoff = 7;
  EXPECT_FALSE(identify::choose_joint_lowpass(r, given));
  identify::JointPrepOptions off;
  off.choose_lowpass = false;
  EXPECT_FALSE(identify::choose_joint_lowpass(r, off));
  identify::JointPrepOptions tv;
  tv.preprocess.diff.method = signal::DiffMethod::tvreg;
  EXPECT_FALSE(identify::choose_joint_lowpass(r, tv));
}

TEST(JointLowpass, ResamplesFirstWhenAsked) {
  identify::JointPrepOptions prep;
  prep.preprocess.resample_rate = 200;
  const auto c = identify::choose_joint_lowpass(joint_record(1000, 20, 1.0), prep);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->sample_rate_hz, 200.0);
  EXPECT_EQ(c->cutoff_hz, 5.0);
}

identify::JointEvaluation eval(const std::string& src, double torque, double position) {
  identify::JointEvaluation e;
  e.source = src;
  e.torque.rel = torque;
  e.position.rel = position;
  e.velocity.rel = position;
  return e;
}

identify::ParameterEstimate estimate(const std::string& name, double value, double lo, double hi) {
  identify::ParameterEstimate p;
  p.name = p.field = name;
  p.value = value;
  p.std_error = (hi - lo) / 4;
  p.ci_low = lo;
  p.ci_high = hi;
  return p;
}

workflows::FitJointOutcome good_fit() {
  workflows::FitJointOutcome s;
  s.model.I = 0.1;
  s.training = eval("train.csv", 0.2, 0.05);
  s.parameters = {estimate("I", 0.1, 0.09, 0.11)};
  return s;
}

std::vector<std::string> rules(const workflows::Verdict& v) {
  std::vector<std::string> r;
  for (const auto& x : v.reasons) r.push_back(x.rule);
  return r;
}

TEST(JointVerdict, GoodWithoutReasons) {
  const auto v = workflows::joint_fit_verdict(good_fit());
  EXPECT_EQ(v.grade, workflows::Grade::good);
  EXPECT_TRUE(v.reasons.empty());
  EXPECT_EQ(v.line(), "good");
}

TEST(JointVerdict, TorqueErrorThresholds) {
  auto s = good_fit();
  s.training.torque.rel = 0.44;
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::good);
  s.training.torque.rel = 0.46;
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::doubtful);
  s.training.torque.rel = 0.93;  // an acceleration that is noise
  const auto v = workflows::joint_fit_verdict(s);
  EXPECT_EQ(v.grade, workflows::Grade::bad);
  EXPECT_EQ(rules(v), std::vector<std::string>{"torque"});
  EXPECT_NE(v.line().find("--lowpass"), std::string::npos);
  s.training.torque.rel = std::nan("");
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::bad);
}

TEST(JointVerdict, ValidationRecordsDecideTheTorqueRule) {
  auto s = good_fit();
  s.training.torque.rel = 0.5;  // the training record's error: not what decides
  s.validation = {eval("val.csv", 0.2, 0.05)};
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::good);
}

TEST(JointVerdict, ASimulationThatLeavesTheRecord) {
  auto s = good_fit();
  s.validation = {eval("val.csv", 0.11, 1.14)};  // explains the torque, drifts: doubtful
  auto v = workflows::joint_fit_verdict(s);
  EXPECT_EQ(v.grade, workflows::Grade::doubtful);
  EXPECT_EQ(rules(v), std::vector<std::string>{"leaves"});
  EXPECT_NE(v.reasons[0].hint.find("--horizon"), std::string::npos);
  s.validation = {eval("val.csv", 0.8, 44.6)};  // the published model on the DFKI record
  v = workflows::joint_fit_verdict(s);
  EXPECT_EQ(v.grade, workflows::Grade::bad);
  s.validation = {eval("val.csv", 0.2, 0.29)};
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::good);
  s.validation = {eval("val.csv", 0.2, 0.31)};
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::doubtful);
}

TEST(JointVerdict, GeneralisationAndParameters) {
  auto s = good_fit();
  s.training.torque.rel = 0.1;
  s.validation = {eval("val.csv", 0.35, 0.05)};
  EXPECT_EQ(rules(workflows::joint_fit_verdict(s)), std::vector<std::string>{"generalises"});
  s = good_fit();
  s.parameters = {estimate("I", -0.01, -0.02, 0.0)};
  EXPECT_EQ(workflows::joint_fit_verdict(s).grade, workflows::Grade::bad);
  s.parameters = {estimate("I", 0.01, -0.02, 0.04)};
  auto v = workflows::joint_fit_verdict(s);
  EXPECT_EQ(rules(v), std::vector<std::string>{"determined"});
  EXPECT_EQ(v.grade, workflows::Grade::doubtful);
}

TEST(JointVerdict, WorstFirstNotesLastAndTheJson) {
  auto s = good_fit();
  s.lowpass = identify::JointLowpassChoice{.cutoff_hz = 5,
                                           .candidate_hz = 5,
                                           .bandwidth_hz = 1.03,
                                           .noise_share = 0.99,
                                           .noise_dominated = true,
                                           .sample_rate_hz = 300,
                                           .source = "train.csv"};
  s.training.unconverged_stages = 3;
  s.training.torque.rel = 0.9;
  const auto v = workflows::joint_fit_verdict(s);
  EXPECT_EQ(rules(v), (std::vector<std::string>{"torque", "simulation", "lowpass"}));
  EXPECT_EQ(v.line().rfind("bad: ", 0), 0u);
  EXPECT_NE(v.line().find("; doubtful: "), std::string::npos);
  EXPECT_EQ(v.line().find("low-passed"), std::string::npos);  // notes are not in the line
  const auto j = io::verdict_to_json(v);
  EXPECT_EQ(j.at("grade"), "bad");
  EXPECT_EQ(j.at("reasons").size(), 3u);
  EXPECT_EQ(j.at("reasons")[2].at("grade"), "good");
  EXPECT_EQ(j.at("line"), v.line());
}

}  // namespace
}  // namespace frictionlab
