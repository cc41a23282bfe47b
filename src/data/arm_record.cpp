// frictionlab data: arm records and their preprocessing (data/arm_record.hpp).
#include "frictionlab/data/arm_record.hpp"

#include <cmath>

#include "frictionlab/data/checks.hpp"

namespace frictionlab::data {

namespace {

/// Every per-joint channel group has dof columns of t.size() finite values.
void check_channel(const ArmRecord& r, const std::vector<std::vector<double>>& c,
                   const std::string& name) {
  if (c.empty()) return;
  if (c.size() != r.q.size())
    throw RecordError(
        r.source, 0, name,
        "has " + std::to_string(c.size()) + " joints, position has " + std::to_string(r.q.size()));
  for (std::size_t j = 0; j < c.size(); ++j) {
    const std::string channel = name + " of joint '" + r.joints[j] + "'";
    if (c[j].size() != r.t.size())
      throw RecordError(r.source, 0, channel,
                        "has " + std::to_string(c[j].size()) + " samples, time has " +
                            std::to_string(r.t.size()));
    for (std::size_t k = 0; k < c[j].size(); ++k)
      if (!std::isfinite(c[j][k])) throw RecordError(r.source, k + 1, channel, "is not finite");
  }
}

/// Joint j of the record as a one-joint Record for data::preprocess.
Record joint_record(const ArmRecord& r, std::size_t j) {
  Record one;
  one.source = r.source + " (joint '" + r.joints[j] + "')";
  one.t = r.t;
  one.position = r.q[j];
  if (r.has_velocity()) one.velocity = r.qd[j];
  if (r.has_torque())
    one.force = r.tau[j];
  else
    one.current = r.current[j];
  return one;
}

}  // namespace

void check_arm_record(const ArmRecord& r) {
  if (r.q.empty()) throw RecordError(r.source, 0, "position", "the record has no joint");
  if (r.joints.size() != r.q.size())
    throw RecordError(r.source, 0, "position",
                      std::to_string(r.joints.size()) + " joint names for " +
                          std::to_string(r.q.size()) + " position channels");
  if (r.tau.empty() == r.current.empty())
    throw RecordError(r.source, 0, "force",
                      r.tau.empty() ? "the record has neither joint torques nor motor currents"
                                    : "the record has both joint torques and motor currents: "
                                      "choose one");
  if (r.t.size() < 3) throw RecordError(r.source, 0, "time", "fewer than 3 samples");
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    if (!std::isfinite(r.t[k])) throw RecordError(r.source, k + 1, "time", "is not finite");
    if (k > 0 && !(r.t[k] > r.t[k - 1]))
      throw RecordError(r.source, k + 1, "time", "is not strictly increasing");
  }
  check_channel(r, r.q, "position");
  check_channel(r, r.qd, "velocity");
  check_channel(r, r.tau, "torque");
  check_channel(r, r.current, "current");
}

ArmRecord currents_to_torques(ArmRecord record, const std::vector<double>& gains) {
  if (record.current.empty())
    throw RecordError(record.source, 0, "current", "the record has no motor currents");
  if (gains.size() != record.current.size())
    throw RecordError(record.source, 0, "current",
                      std::to_string(gains.size()) + " drive gains for " +
                          std::to_string(record.current.size()) + " joints");
  for (std::size_t j = 0; j < gains.size(); ++j) {
    if (!(gains[j] > 0) || !std::isfinite(gains[j]))
      throw RecordError(
          record.source, 0, "current",
          "the drive gain of joint '" + record.joints[j] + "' must be a positive number of N m/A");
    for (double& x : record.current[j]) x *= gains[j];
  }
  record.tau = std::move(record.current);
  record.current.clear();
  return record;
}

ArmSamples preprocess_arm(const ArmRecord& record, PreprocessOptions options) {
  check_arm_record(record);
  options.derivatives =
      record.has_velocity() ? DerivativesFrom::velocity : DerivativesFrom::position;
  ArmSamples out;
  out.effort_is_current = !record.has_torque();
  for (std::size_t j = 0; j < record.q.size(); ++j) {
    Record p = preprocess(joint_record(record, j), options);
    if (j == 0) out.t = std::move(p.t);
    out.q.push_back(std::move(p.position));
    out.qd.push_back(std::move(p.velocity));
    out.qdd.push_back(std::move(p.acceleration));
    out.effort.push_back(out.effort_is_current ? std::move(p.current) : std::move(p.force));
  }
  return out;
}

}  // namespace frictionlab::data
