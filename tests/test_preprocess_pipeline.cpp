// The one record preprocessing pipeline (data/preprocess.hpp): its output equals the stages
// composed by hand from the signal primitives (resample.hpp, butterworth.hpp, differentiate.hpp,
// reintegrate.hpp, tvreg.hpp, decimate.hpp) on synthetic records, exactly; the joint path
// (identify::joint_data) is the pipeline's channels; the option checks. The inverse-model setting
// (anti-alias decimation keeps tau = 2 qdd) is tested in test_tvreg.cpp
// (Decimate.InverseModelSignalsOfASmoothMotion).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/identify/joint_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/decimate.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/reintegrate.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"
#include "frictionlab/signal/tvreg.hpp"

namespace {

using namespace frictionlab;

/// A 3 s motion on a jittered grid (steps 1.6 to 2.4 ms): position, measured velocity (with an
/// offset, so that it differs from d position / dt), force, current; deterministic "noise".
data::Record motion() {
  data::Record r;
  r.source = "synthetic";
  double t = 0;
  for (int k = 0; t < 3.0; ++k) {
    const double n = 1e-4 * std::sin(12345.678 * k);
    r.t.push_back(t);
    r.position.push_back(std::sin(2.1 * t) + 0.3 * std::sin(5.3 * t) + n);
    r.velocity.push_back(2.1 * std::cos(2.1 * t) + 1.59 * std::cos(5.3 * t) + 0.01 + n);
    r.force.push_back(0.8 * std::sin(2.1 * t) + 0.2 * std::tanh(30 * std::cos(2.1 * t)) + 10 * n);
    r.current.push_back(0.5 * std::cos(3.7 * t));
    t += 2e-3 * (1.0 + 0.2 * std::sin(7.0 * k));
  }
  return r;
}

/// x at t_0, t_k, t_2k, ... within [t_lo, t_hi] (the selection of stages 6-7, by hand).
std::vector<double> every_kth_within(const std::vector<double>& t, const std::vector<double>& x,
                                     std::size_t k, double t_lo, double t_hi) {
  std::vector<double> y;
  for (std::size_t i = 0; i < t.size(); i += k)
    if (t[i] >= t_lo && t[i] <= t_hi) y.push_back(x[i]);
  return y;
}

TEST(Pipeline, EveryStageEqualsThePrimitivesComposedByHand) {
  const data::Record r = motion();
  data::PreprocessOptions o;
  o.resample_rate = 400;
  o.lowpass_cutoff = 25;
  o.lowpass_order = 3;
  o.derivatives = data::DerivativesFrom::position;
  o.diff_window_s = 0.031;  // 12.4 samples -> 12 -> 13 (odd)
  o.reintegrate = true;
  o.tv_force_alpha = 1e-4;
  o.decimate = 3;
  o.trim_s = 0.1;
  const data::Record p = data::preprocess(r, o);

  // By hand: 1. resample
  const std::vector<double> t = signal::uniform_grid(r.t.front(), r.t.back(), 400);
  auto rs = [&](const std::vector<double>& x) { return signal::interp_linear(r.t, x, t); };
  // 2. low-pass, fs from the mean step
  const double fs = 1.0 / signal::sampling_stats(t).dt_mean;
  auto lp = [&](const std::vector<double>& x) { return signal::lowpass_filtfilt(x, fs, 25, 3); };
  std::vector<double> q = lp(rs(r.position)), f = lp(rs(r.force)), c = lp(rs(r.current));
  // 3. derivatives by savgol over 13 samples (0.031 s at 400 Hz, made odd), cubic
  signal::DiffOptions d;
  d.window = 13;
  const signal::Derivatives der = signal::differentiate(t, q, d);
  // 4. re-integration; 5. TV de-noising of the force (order 1)
  const signal::Reintegrated ri = signal::reintegrate(t, der.second, q);
  signal::TVRegOptions to;
  to.alpha = 1e-4;
  to.order = 1;
  f = signal::tvreg(t, f, to).smoothed;
  // 6-7. every 3rd sample within [t_0 + 0.1, t_end - 0.1]
  const double lo = t.front() + 0.1, hi = t.back() - 0.1;
  auto sel = [&](const std::vector<double>& x) { return every_kth_within(t, x, 3, lo, hi); };

  EXPECT_EQ(p.source, "synthetic");
  ASSERT_GT(p.t.size(), 300u);
  EXPECT_EQ(p.t, sel(t));
  EXPECT_EQ(p.position, sel(ri.position));
  EXPECT_EQ(p.velocity, sel(ri.velocity));  // the measured velocity is replaced
  EXPECT_EQ(p.acceleration, sel(der.second));
  EXPECT_EQ(p.force, sel(f));
  EXPECT_EQ(p.current, sel(c));
  EXPECT_GE(p.t.front(), lo);
  EXPECT_LE(p.t.back(), hi);
}

TEST(Pipeline, MeasuredVelocityAndAntiAliasDecimationEqualThePrimitives) {
  // A uniform record (no resampling): low-pass, acceleration by central differences of the
  // measured velocity, then signal::decimate on every channel.
  data::Record r = motion();
  const std::vector<double> tu = signal::uniform_grid(0, r.t.back(), 500);
  for (auto* c : {&r.position, &r.velocity, &r.force, &r.current})
    *c = signal::interp_linear(r.t, *c, tu);
  r.t = tu;
  data::PreprocessOptions o;
  o.lowpass_cutoff = 40;
  o.derivatives = data::DerivativesFrom::velocity;
  o.diff.method = signal::DiffMethod::central;
  o.decimate = 4;
  o.decimate_filter = data::DecimateFilter::antialias;
  o.decimate_order = 6;
  o.decimate_cutoff_ratio = 0.7;
  const data::Record p = data::preprocess(r, o);

  const double fs = 1.0 / signal::sampling_stats(tu).dt_mean;
  auto lp = [&](const std::vector<double>& x) { return signal::lowpass_filtfilt(x, fs, 40, 4); };
  auto dec = [&](const std::vector<double>& x) { return signal::decimate(x, 4, fs, 6, 0.7); };
  const std::vector<double> v = lp(r.velocity);
  signal::DiffOptions d;
  d.method = signal::DiffMethod::central;
  const std::vector<double> a = signal::differentiate(tu, v, d).first;
  std::vector<double> t4;
  for (std::size_t i = 0; i < tu.size(); i += 4) t4.push_back(tu[i]);
  EXPECT_EQ(p.t, t4);
  EXPECT_EQ(p.position, dec(lp(r.position)));
  EXPECT_EQ(p.velocity, dec(v));  // measured, filtered
  EXPECT_EQ(p.acceleration, dec(a));
  EXPECT_EQ(p.force, dec(lp(r.force)));
  EXPECT_EQ(p.current, dec(lp(r.current)));
}

TEST(Pipeline, JointDataIsThePipelinesChannels) {
  // identify::joint_data = tau picked (gain * command), the pipeline, channels copied.
  const data::Record r = motion();
  identify::JointPrepOptions jo;
  jo.torque_from_command = true;
  jo.gain = 2.5;
  jo.preprocess.resample_rate = 300;
  jo.preprocess.lowpass_cutoff = 5;
  jo.preprocess.decimate = 2;
  jo.preprocess.trim_s = 0.2;
  const identify::JointData j = identify::joint_data(r, jo);

  data::Record in;
  in.source = r.source;
  in.t = r.t;
  in.position = r.position;
  for (double x : r.current) in.force.push_back(2.5 * x);
  const data::Record p = data::preprocess(in, jo.preprocess);
  EXPECT_EQ(j.source, "synthetic");
  EXPECT_EQ(j.t, p.t);
  EXPECT_EQ(j.q, p.position);
  EXPECT_EQ(j.qd, p.velocity);
  EXPECT_EQ(j.qdd, p.acceleration);
  EXPECT_EQ(j.tau, p.force);
  // The joint defaults: derivatives from position by savgol over 0.02 s (7 samples at 300 Hz).
  const std::vector<double> tg = signal::uniform_grid(r.t.front(), r.t.back(), 300);
  const std::vector<double> q =
      signal::lowpass_filtfilt(signal::interp_linear(r.t, r.position, tg), 300, 5, 4);
  signal::DiffOptions d;
  d.window = 7;
  const signal::Derivatives der = signal::differentiate(tg, q, d);
  const double lo = tg.front() + 0.2, hi = tg.back() - 0.2;
  EXPECT_EQ(j.qd, every_kth_within(tg, der.first, 2, lo, hi));
  EXPECT_EQ(j.qdd, every_kth_within(tg, der.second, 2, lo, hi));

  // Errors name the record: no torque channel; no derivatives.
  identify::JointPrepOptions bad = jo;
  bad.torque_from_command = false;
  data::Record no_torque = r;
  no_torque.force.clear();
  try {
    (void)identify::joint_data(no_torque, bad);
    ADD_FAILURE() << "no error";
  } catch (const identify::FitError& e) {
    EXPECT_EQ(std::string(e.what()), "synthetic: the joint needs a torque channel");
  }
  bad = jo;
  bad.preprocess.derivatives = data::DerivativesFrom::none;
  EXPECT_THROW((void)identify::joint_data(r, bad), identify::FitError);
  bad = jo;
  bad.preprocess.lowpass_cutoff = 80;  // above the Nyquist frequency after decimation by 2
  try {
    (void)identify::joint_data(r, bad);
    ADD_FAILURE() << "no error";
  } catch (const identify::FitError& e) {
    EXPECT_EQ(std::string(e.what()),
              "synthetic: low-pass filtering: the low-pass cut-off 80 Hz must be below the "
              "Nyquist frequency after decimation by 2 (75 Hz)");
  }
}

std::string message(const data::Record& r, const data::PreprocessOptions& o) {
  try {
    (void)data::preprocess(r, o);
  } catch (const data::RecordError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Pipeline, OptionChecksAndTheIdentity) {
  data::Record r = motion();
  // No stage: the record unchanged (even on a jittered grid).
  const data::Record same = data::preprocess(r, {});
  EXPECT_EQ(same.t, r.t);
  EXPECT_EQ(same.velocity, r.velocity);
  EXPECT_TRUE(same.acceleration.empty());
  // Plain decimation: the low-pass must lie below the new Nyquist frequency (400 / 6 Hz).
  data::PreprocessOptions o{.resample_rate = 400, .lowpass_cutoff = 70, .decimate = 3};
  EXPECT_EQ(message(r, o),
            "synthetic: low-pass filtering: the low-pass cut-off 70 Hz must be below "
            "the Nyquist frequency after decimation by 3 (66.6667 Hz)");
  o.decimate_filter = data::DecimateFilter::antialias;  // its own filter: no such condition
  EXPECT_EQ(data::preprocess(r, o).t.size(),
            (signal::uniform_grid(0, r.t.back(), 400).size() + 2) / 3);
  // Stages 2-7 need a uniform grid, named at the first stage that runs.
  EXPECT_NE(
      message(r, {.trim_s = 0.1}).find("synthetic: trimming: trimming needs uniform sampling"),
      std::string::npos);
  EXPECT_EQ(message(r, {.resample_rate = 400,
                        .derivatives = data::DerivativesFrom::velocity,
                        .reintegrate = true}),
            "synthetic: options: reintegrate needs derivatives from position (it integrates their "
            "acceleration)");
  EXPECT_NE(message(r, {.resample_rate = 400, .trim_s = 1.5})
                .find("synthetic: trimming: only 0 samples left after decimation and trimming"),
            std::string::npos);
  EXPECT_EQ(message(r, {.decimate = 0}), "synthetic: options: decimate must be >= 1, got 0");
  r.current.pop_back();
  EXPECT_EQ(message(r, {.resample_rate = 400}),
            "synthetic: channels: channel 'current' has " + std::to_string(r.t.size() - 1) +
                " samples, 'time' has " + std::to_string(r.t.size()));
}

/// 1000 samples at 100 Hz with a pause of `gap` s between samples 500 and 501 (1-based).
data::Record record_with_gap(double gap) {
  data::Record r;
  r.source = "gap.csv";
  for (int k = 0; k < 1000; ++k) {
    const double t = 0.01 * k + (k >= 500 ? gap - 0.01 : 0.0);
    r.t.push_back(t);
    r.velocity.push_back(std::sin(3.0 * t));
    r.force.push_back(0.4 * std::sin(3.0 * t));
  }
  return r;
}

TEST(Pipeline, ResamplingRefusesAGap) {
  // A 1000 s pause in a 100 Hz record: interpolation would invent 99 % of the resampled record.
  const data::Record r = record_with_gap(1000);
  try {
    (void)data::preprocess(r, {.resample_rate = 100});
    FAIL() << "no error";
  } catch (const data::RecordError& e) {
    EXPECT_EQ(e.sample(), 501u);
    EXPECT_EQ(e.channel(), "time");
    EXPECT_EQ(std::string(e.what()),
              "gap.csv: sample 501: resampling: a gap of 1000 s from t = 4.99 s to t = 1004.99 s "
              "is longer than 10 times the median step 0.01 s: interpolation would invent the "
              "data inside it; split the record at the gap, or allow it explicitly (max gap in "
              "seconds: --max-gap, resample_max_gap)");
  }
  // An explicit limit above the gap allows it (the data inside it linear, as documented) ...
  const data::Record allowed =
      data::preprocess(r, {.resample_rate = 100, .resample_max_gap = 1000.5});
  EXPECT_EQ(allowed.t.size(), signal::uniform_grid(r.t.front(), r.t.back(), 100).size());
  // ... one below it refuses it, naming the limit.
  EXPECT_NE(message(r, {.resample_rate = 100, .resample_max_gap = 2})
                .find("is longer than the largest gap allowed, 2 s:"),
            std::string::npos);
  // The default limit is 10 median steps: 9.5 steps are bridged, 10.5 are not.
  const data::Record short_gap = record_with_gap(0.095);
  EXPECT_EQ(data::preprocess(short_gap, {.resample_rate = 100}).t.size(),
            signal::uniform_grid(short_gap.t.front(), short_gap.t.back(), 100).size());
  EXPECT_NE(message(record_with_gap(0.105), {.resample_rate = 100})
                .find("sample 501: resampling: a gap of 0.105 s"),
            std::string::npos);
  // Without resampling a gap is no error (nothing is interpolated); a limit must be >= 0.
  EXPECT_EQ(data::preprocess(r, {}).t, r.t);
  EXPECT_EQ(message(r, {.resample_rate = 100, .resample_max_gap = -1}),
            "gap.csv: options: resample_max_gap must be >= 0 s (0: 10 median steps), got -1");
}

// describe(): the stages in the pipeline's order, as --verbose prints them.
TEST(PreprocessPipeline, DescribeNamesTheStagesInOrder) {
  EXPECT_EQ(data::describe({}), "none");
  data::PreprocessOptions o;
  o.resample_rate = 300;
  o.lowpass_cutoff = 5;
  o.derivatives = data::DerivativesFrom::position;
  o.decimate = 2;
  o.decimate_filter = data::DecimateFilter::antialias;
  o.trim_s = 0.5;
  EXPECT_EQ(data::describe(o),
            "resample to 300 Hz, low-pass 5 Hz (Butterworth order 4, zero-phase), velocity and "
            "acceleration from position (Savitzky-Golay), keep every 2-th sample (anti-alias "
            "filter), trim 0.5 s at each end");
  o = {};
  o.derivatives = data::DerivativesFrom::velocity;
  o.diff.method = signal::DiffMethod::central;
  EXPECT_EQ(data::describe(o), "acceleration from velocity (central differences)");
}

}  // namespace
