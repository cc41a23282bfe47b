// frictionlab identify: joint records -> JointData (identify/joint_data.hpp).
#include "frictionlab/identify/joint_data.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/identify/options.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::identify {
namespace {

std::string num(double x) { return signal::format_number(x); }

}  // namespace

JointData joint_data(const data::Record& rec, const JointPrepOptions& opt) {
  const std::string src = rec.source.empty() ? "record" : rec.source;
  auto fail = [&](const std::string& m) { throw FitError(src + ": " + m); };
  const std::size_t n0 = rec.t.size();
  if (rec.position.size() != n0) fail("the joint needs a position channel");
  const std::vector<double>& raw_tau = opt.torque_from_command ? rec.current : rec.force;
  if (raw_tau.size() != n0)
    fail(opt.torque_from_command ? "the joint needs a command channel (with --gain)"
                                 : "the joint needs a torque channel");
  if (opt.use_measured_velocity && rec.velocity.size() != n0)
    fail("use_measured_velocity needs a velocity channel");
  if (!(opt.gain != 0) || !std::isfinite(opt.gain)) fail("gain must be finite and non-zero");
  if (opt.decimate < 1) fail("decimate must be >= 1, got " + std::to_string(opt.decimate));
  if (!(opt.trim_s >= 0)) fail("trim must be >= 0 s, got " + num(opt.trim_s));

  JointData d;
  d.source = rec.source;
  d.t = rec.t;
  d.q = rec.position;
  std::vector<double> v = opt.use_measured_velocity ? rec.velocity : std::vector<double>{};
  d.tau = raw_tau;
  for (double& x : d.tau) x *= opt.gain;

  try {
    if (opt.resample_rate > 0) {
      const auto tg = signal::uniform_grid(d.t.front(), d.t.back(), opt.resample_rate);
      d.q = signal::interp_linear(d.t, d.q, tg);
      d.tau = signal::interp_linear(d.t, d.tau, tg);
      if (!v.empty()) v = signal::interp_linear(d.t, v, tg);
      d.t = tg;
    }
    const signal::SamplingStats st = signal::require_uniform(
        d.t, 0.01, "the record");
    const double fs = 1.0 / st.dt_mean;
    if (opt.lowpass_hz > 0) {
      if (opt.decimate > 1 && !(opt.lowpass_hz < 0.5 * fs / opt.decimate))
        fail("the low-pass cut-off " + num(opt.lowpass_hz) +
             " Hz must be below the Nyquist frequency after decimation by " +
             std::to_string(opt.decimate) + " (" + num(0.5 * fs / opt.decimate) + " Hz)");
      d.q = signal::lowpass_filtfilt(d.q, fs, opt.lowpass_hz, opt.lowpass_order);
      d.tau = signal::lowpass_filtfilt(d.tau, fs, opt.lowpass_hz, opt.lowpass_order);
      if (!v.empty()) v = signal::lowpass_filtfilt(v, fs, opt.lowpass_hz, opt.lowpass_order);
    }
    signal::DiffOptions dop;
    if (opt.diff == JointDiff::central) {
      dop.method = signal::DiffMethod::central;
    } else {
      dop.method = signal::DiffMethod::savgol;
      int w = static_cast<int>(std::lround(opt.diff_window_s * fs));
      if (w % 2 == 0) ++w;
      if (w < 5) w = 5;
      dop.window = w;
      dop.polyorder = 3;
    }
    if (v.empty()) {
      const auto der = signal::differentiate(d.t, d.q, dop);
      d.qd = der.first;
      d.qdd = der.second;
    } else {
      d.qd = v;
      d.qdd = signal::differentiate(d.t, v, dop).first;
    }
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }

  // Decimation and trimming: keep samples k = i0, i0 + decimate, ... within the trimmed span.
  const double t_lo = d.t.front() + opt.trim_s, t_hi = d.t.back() - opt.trim_s;
  JointData out;
  out.source = d.source;
  for (std::size_t k = 0; k < d.t.size(); k += static_cast<std::size_t>(opt.decimate)) {
    if (d.t[k] < t_lo || d.t[k] > t_hi) continue;
    out.t.push_back(d.t[k]);
    out.q.push_back(d.q[k]);
    out.qd.push_back(d.qd[k]);
    out.qdd.push_back(d.qdd[k]);
    out.tau.push_back(d.tau[k]);
  }
  if (out.t.size() < 3)
    fail("only " + std::to_string(out.t.size()) + " samples left after decimation and trimming");
  return out;
}

}  // namespace frictionlab::identify
