// frictionlab identify: joint records -> JointData (identify/joint_data.hpp).
#include "frictionlab/identify/joint_data.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/reintegrate.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::identify {
namespace {

std::string num(double x) { return format_number(x); }

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
  if (opt.diff == JointDiff::tvreg && (!(opt.tv_alpha > 0) || !std::isfinite(opt.tv_alpha)))
    fail("the tvreg differentiator needs a weight tv_alpha > 0 (--tv-alpha), got " +
         num(opt.tv_alpha));
  if (opt.diff == JointDiff::tvreg && opt.tv_order != 1 && opt.tv_order != 2)
    fail("tv_order must be 1 or 2, got " + std::to_string(opt.tv_order));
  if (opt.diff == JointDiff::tvreg && opt.tv_order == 1 &&
      (!(opt.tv_second_alpha > 0) || !std::isfinite(opt.tv_second_alpha)))
    fail("tvreg of order 1 needs tv_second_alpha > 0 (--tv-alpha2: the weight of the second "
         "TVRegDiff, of qd, which gives qdd), got " + num(opt.tv_second_alpha));
  if (!(opt.tv_torque_alpha >= 0) || !std::isfinite(opt.tv_torque_alpha))
    fail("tv_torque_alpha must be finite and >= 0, got " + num(opt.tv_torque_alpha));
  if (opt.reintegrate && opt.use_measured_velocity)
    fail("reintegrate and use_measured_velocity exclude each other (both define qd)");

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
    } else if (opt.diff == JointDiff::tvreg) {
      dop.method = signal::DiffMethod::tvreg;
      dop.tv.alpha = opt.tv_alpha;
      dop.tv.order = opt.tv_order;
      dop.tv_second_alpha = opt.tv_second_alpha;  // order 1: TVRegDiff of qd gives qdd
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
    if (opt.reintegrate) {
      const auto ri = signal::reintegrate(d.t, d.qdd, d.q);
      d.q = ri.position;
      d.qd = ri.velocity;
    }
    if (opt.tv_torque_alpha > 0) {
      signal::TVRegOptions to;
      to.alpha = opt.tv_torque_alpha;
      to.order = 1;
      d.tau = signal::tvreg(d.t, d.tau, to).smoothed;
    }
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  } catch (const std::runtime_error& e) {  // tvreg did not converge
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

void attach_desired(JointData& d, const data::Record& desired, const JointPrepOptions& prep) {
  data::Record rec = desired;
  if (rec.force.empty()) rec.force.assign(rec.t.size(), 0.0);
  JointPrepOptions p;
  p.resample_rate = prep.resample_rate;
  p.lowpass_hz = prep.lowpass_hz;
  p.lowpass_order = prep.lowpass_order;
  p.use_measured_velocity = true;
  const JointData des = joint_data(rec, p);
  if (d.t.empty()) throw FitError((d.source.empty() ? "record" : d.source) + ": no samples");
  if (d.t.front() < des.t.front() - 1e-9 || d.t.back() > des.t.back() + 1e-9)
    throw FitError((desired.source.empty() ? "desired record" : desired.source) +
                   ": the desired record covers t = " + num(des.t.front()) + " .. " +
                   num(des.t.back()) + " s, the training record " + num(d.t.front()) + " .. " +
                   num(d.t.back()) + " s: it must cover the training record");
  std::vector<double> tt = d.t;
  for (double& v : tt) v = std::clamp(v, des.t.front(), des.t.back());  // rounding only
  d.q_des = signal::interp_linear(des.t, des.q, tt);
  d.qd_des = signal::interp_linear(des.t, des.qd, tt);
  d.tau_ff = signal::interp_linear(des.t, des.tau, tt);
}

}  // namespace frictionlab::identify
