// frictionlab identify: validation of an identified joint (identify/joint_validate.hpp).
#include "frictionlab/identify/joint_validate.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/identify/segments.hpp"

namespace frictionlab::identify {

ChannelError channel_error(const std::vector<double>& y, const std::vector<double>& p) {
  ChannelError e;
  double se = 0, sy = 0;
  for (std::size_t k = 0; k < y.size(); ++k) {
    const double d = p[k] - y[k];
    se += d * d;
    sy += y[k] * y[k];
    e.max_abs = std::max(e.max_abs, std::abs(d));
  }
  e.rel = sy > 0 ? std::sqrt(se / sy) : std::sqrt(se);
  e.rmse = y.empty() ? 0 : std::sqrt(se / static_cast<double>(y.size()));
  return e;
}

namespace {

/// A temperature-dependent model needs the record's temperature (FitError naming the record).
void require_temperature(const JointModel& m, const JointData& d) {
  if (m.temperature && !d.has_temperature())
    throw FitError((d.source.empty() ? std::string("record") : d.source) +
                   ": the joint's friction depends on the temperature and the record has no "
                   "temperature channel (--temperature COLUMN; Python temperature=)");
}

/// The applied torque along d and the bristle state under it (sim::inverse_dynamics).
sim::JointInverse inverse_of(const JointModel& m, const JointData& d) {
  return sim::inverse_dynamics(m, d.t, d.q, d.qd, d.qdd, d.temperature);
}

}  // namespace

std::vector<double> inverse_torque(const JointModel& m, const JointData& d) {
  require_temperature(m, d);
  return inverse_of(m, d).tau;
}

std::size_t horizon_end(const JointData& d, std::size_t k0, double horizon_s) {
  if (!(horizon_s > 0)) return d.size() - 1;
  std::size_t k1 = k0 + 1;
  while (k1 + 1 < d.size() && d.t[k1] - d.t[k0] < horizon_s) ++k1;
  return k1;
}

JointEvaluation evaluate_joint(const JointModel& m, const JointData& d,
                               const JointEvalOptions& opt) {
  check_joint_data(std::span<const JointData>(&d, 1), 2);
  if (!(opt.horizon_s >= 0) || !std::isfinite(opt.horizon_s))
    throw FitError("validation: horizon must be a finite number >= 0 s");
  sim::check_joint_model(m);
  require_temperature(m, d);
  JointEvaluation ev;
  ev.source = d.source;
  const std::size_t n = d.size();
  sim::JointInverse inv = inverse_of(m, d);
  const std::vector<double>& z = inv.z;  // also the restart states (horizon_s)
  ev.tau_pred = std::move(inv.tau);
  ev.torque = channel_error(d.tau, ev.tau_pred);

  ev.q_sim.resize(n);
  ev.qd_sim.resize(n);
  std::size_t k0 = 0;
  while (k0 + 1 < n) {
    const std::size_t k1 = horizon_end(d, k0, opt.horizon_s);
    const std::size_t len = k1 - k0 + 1;
    const double z0 = opt.horizon_s > 0 ? z[k0] : 0.0;
    const auto temperature =
        d.has_temperature() ? std::span(d.temperature).subspan(k0, len) : std::span<const double>();
    const auto tr = sim::simulate_joint_model(m, std::span(d.t).subspan(k0, len),
                                              std::span(d.tau).subspan(k0, len),
                                              {d.q[k0], d.qd[k0], z0}, {opt.max_step}, temperature);
    for (std::size_t j = 0; j < len; ++j) {
      ev.q_sim[k0 + j] = tr.q[j];
      ev.qd_sim[k0 + j] = tr.qd[j];
    }
    ev.unconverged_stages += tr.unconverged_stages;
    k0 = k1;
  }
  ev.position = channel_error(d.q, ev.q_sim);
  ev.velocity = channel_error(d.qd, ev.qd_sim);
  return ev;
}

namespace {

/// The model's steady friction on a constant-velocity segment: at its mean velocity, or for a
/// load- or temperature-dependent model the mean over its averaged samples of the steady
/// friction at the sample's temperature, under the load the model predicts there (the applied
/// torque that moves the joint steadily against its rigid-body torque, minus that torque).
double segment_model_friction(const JointModel& m, const JointData& d, const Segment& s) {
  if (!m.load && !m.temperature) return sim::steady_friction(m, s.v_mean);
  double sum = 0;
  const auto k0 = static_cast<std::size_t>(s.first_averaged), k1 = static_cast<std::size_t>(s.end);
  for (std::size_t k = k0; k < k1; ++k) {
    const JointModel mk = m.temperature ? sim::at_temperature(m, d.temperature[k]) : m;
    const double rigid = sim::rigid_body_torque(m, d.q[k], d.qdd[k]);
    const double r = rigid + sim::steady_friction(mk, s.v_mean);
    sum += (m.load ? applied_torque(*m.load, r, s.v_mean) : r) - rigid;
  }
  return sum / static_cast<double>(k1 - k0);
}

}  // namespace

std::vector<StaticCurvePoint> static_curve_check(const JointModel& m, const JointData& d,
                                                 const SegmentOptions& seg) {
  check_joint_data(std::span<const JointData>(&d, 1), 2);
  require_temperature(m, d);
  std::vector<double> friction(d.size());
  for (std::size_t k = 0; k < d.size(); ++k)
    friction[k] = d.tau[k] - sim::rigid_body_torque(m, d.q[k], d.qdd[k]);
  std::vector<StaticCurvePoint> out;
  for (const Segment& s : find_constant_velocity_segments(d.t, d.qd, friction, {}, seg)) {
    StaticCurvePoint p;
    p.qd = s.v_mean;
    p.measured = s.y_mean;
    p.model = segment_model_friction(m, d, s);
    p.duration =
        d.t[static_cast<std::size_t>(s.end - 1)] - d.t[static_cast<std::size_t>(s.first_averaged)];
    out.push_back(p);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.qd < b.qd; });
  return out;
}

}  // namespace frictionlab::identify
