// frictionlab identify: joint records -> JointData (identify/joint_data.hpp).
#include "frictionlab/identify/joint_data.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"
#include "frictionlab/signal/spectrum.hpp"

namespace frictionlab::identify {
namespace {

/// data::preprocess with its errors as FitError (RecordError: already source-prefixed).
data::Record run_pipeline(const data::Record& rec, const data::PreprocessOptions& o) {
  try {
    return data::preprocess(rec, o);
  } catch (const data::RecordError& e) {
    throw FitError(e.what());
  } catch (const std::runtime_error& e) {  // tvreg did not converge
    throw FitError(data::source_name(rec) + ": " + e.what());
  }
}

// The low-pass rule's constants (include/frictionlab/identify/joint_data.hpp, "The low-pass").
constexpr double kBandwidthFraction = 0.999;  // of the position's power [-]
constexpr double kCutoffPerBandwidth = 5;     // cutoff / motion bandwidth [-]
constexpr double kMaxCutoffPerRate = 0.2;     // above: no low-pass [-]
constexpr double kNoiseShare = 0.5;           // of the raw acceleration's power: above, filter [-]

/// The value of 1, 2 or 5 times a power of ten nearest to x > 0 on a logarithmic scale.
double round_125(double x) {
  const double decade = std::pow(10.0, std::floor(std::log10(x)));
  double best = decade;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (std::abs(std::log(m * decade / x)) < std::abs(std::log(best / x))) best = m * decade;
  return best;
}

/// (q[k+1] - 2 q[k] + q[k-1]) fs^2 [rad/s^2]: the raw acceleration.
std::vector<double> second_difference(const std::vector<double>& q, double fs) {
  std::vector<double> a;
  for (std::size_t k = 1; k + 1 < q.size(); ++k)
    a.push_back((q[k + 1] - 2 * q[k] + q[k - 1]) * fs * fs);
  return a;
}

}  // namespace

std::optional<JointLowpassChoice> choose_joint_lowpass(const data::Record& rec,
                                                       const JointPrepOptions& opt) {
  const data::PreprocessOptions& pp = opt.preprocess;
  if (!opt.choose_lowpass || pp.lowpass_cutoff > 0 ||
      pp.derivatives == data::DerivativesFrom::none || pp.diff.method == signal::DiffMethod::tvreg)
    return std::nullopt;
  const std::string src = data::source_name(rec);
  if (rec.position.size() != rec.t.size())
    throw FitError(src + ": the joint needs a position channel");
  if (rec.t.size() < 10)
    throw FitError(src + ": " + std::to_string(rec.t.size()) + " samples: too few");
  JointLowpassChoice c;
  c.source = rec.source;
  std::vector<double> q;
  try {
    if (pp.resample_rate > 0) {
      c.sample_rate_hz = pp.resample_rate;
      q = signal::resample_linear(rec.t, rec.position, pp.resample_rate);
    } else {
      c.sample_rate_hz = signal::sampling_stats(rec.t).sample_rate;
      q = rec.position;
    }
    c.bandwidth_hz = signal::power_bandwidth(q, c.sample_rate_hz, kBandwidthFraction);
    if (c.bandwidth_hz > 0) {
      c.candidate_hz = round_125(kCutoffPerBandwidth * c.bandwidth_hz);
      c.noise_share = signal::power_fraction_above(second_difference(q, c.sample_rate_hz),
                                                   c.sample_rate_hz, c.candidate_hz);
    }
  } catch (const std::invalid_argument& e) {
    throw FitError(src + ": choosing the low-pass: " + e.what());
  }
  const bool in_band = c.candidate_hz > 0 && c.candidate_hz <= kMaxCutoffPerRate * c.sample_rate_hz;
  c.noise_dominated = c.noise_share > kNoiseShare;
  c.cutoff_hz = in_band && c.noise_dominated ? c.candidate_hz : 0;
  return c;
}

JointData joint_data(const data::Record& rec, const JointPrepOptions& opt) {
  const std::string src = data::source_name(rec);
  auto fail = [&](const std::string& m) { throw FitError(src + ": " + m); };
  const data::PreprocessOptions& pp = opt.preprocess;
  const std::size_t n0 = rec.t.size();
  if (rec.position.size() != n0) fail("the joint needs a position channel");
  const std::vector<double>& raw_tau = opt.torque_from_command ? rec.current : rec.force;
  if (raw_tau.size() != n0)
    fail(opt.torque_from_command ? "the joint needs a command channel (with --gain)"
                                 : "the joint needs a torque channel");
  if (pp.derivatives == data::DerivativesFrom::none)
    fail("the joint needs derivatives (preprocess.derivatives: position or velocity)");
  const bool measured_velocity = pp.derivatives == data::DerivativesFrom::velocity;
  if (measured_velocity && rec.velocity.size() != n0)
    fail("derivatives from velocity need a velocity channel");
  if (!(opt.gain != 0) || !std::isfinite(opt.gain)) fail("gain must be finite and non-zero");
  if (!rec.temperature.empty() && rec.temperature.size() != n0)
    fail("the temperature channel has " + std::to_string(rec.temperature.size()) +
         " samples, 'time' has " + std::to_string(n0));
  try {
    data::check_temperature_channel(rec);
  } catch (const data::RecordError& e) {
    throw FitError(e.what());
  }

  data::Record r;
  r.source = rec.source;
  r.t = rec.t;
  r.position = rec.position;
  if (measured_velocity) r.velocity = rec.velocity;
  r.force = raw_tau;
  for (double& x : r.force) x *= opt.gain;
  r.temperature = rec.temperature;
  data::Record p = run_pipeline(r, pp);

  JointData d;
  d.source = rec.source;
  d.t = std::move(p.t);
  d.q = std::move(p.position);
  d.qd = std::move(p.velocity);
  d.qdd = std::move(p.acceleration);
  d.tau = std::move(p.force);
  d.temperature = std::move(p.temperature);
  if (d.t.size() < 3) fail("only " + std::to_string(d.t.size()) + " samples left");
  return d;
}

void attach_desired(JointData& d, const data::Record& desired, const JointPrepOptions& prep) {
  const std::string src = desired.source.empty() ? "desired record" : desired.source;
  if (desired.position.size() != desired.t.size() || desired.velocity.size() != desired.t.size())
    throw FitError(src + ": the desired record needs a position and a velocity channel");
  data::Record rec;
  rec.source = desired.source;
  rec.t = desired.t;
  rec.position = desired.position;
  rec.velocity = desired.velocity;
  rec.force = desired.force.empty() ? std::vector<double>(desired.t.size(), 0.0) : desired.force;
  data::PreprocessOptions p;
  p.resample_rate = prep.preprocess.resample_rate;
  p.lowpass_cutoff = prep.preprocess.lowpass_cutoff;
  p.lowpass_order = prep.preprocess.lowpass_order;
  p.uniform_tolerance = prep.preprocess.uniform_tolerance;
  const data::Record des = run_pipeline(rec, p);
  if (d.t.empty()) throw FitError((d.source.empty() ? "record" : d.source) + ": no samples");
  if (des.t.empty() || d.t.front() < des.t.front() - 1e-9 || d.t.back() > des.t.back() + 1e-9)
    throw FitError(src + ": the desired record covers t = " +
                   format_number(des.t.empty() ? 0.0 : des.t.front()) + " .. " +
                   format_number(des.t.empty() ? 0.0 : des.t.back()) + " s, the training record " +
                   format_number(d.t.front()) + " .. " + format_number(d.t.back()) +
                   " s: it must cover the training record");
  std::vector<double> tt = d.t;
  for (double& v : tt) v = std::clamp(v, des.t.front(), des.t.back());  // rounding only
  d.q_des = signal::interp_linear(des.t, des.position, tt);
  d.qd_des = signal::interp_linear(des.t, des.velocity, tt);
  d.tau_ff = signal::interp_linear(des.t, des.force, tt);
}

}  // namespace frictionlab::identify
