// frictionlab io: MUJOCO.json (include/frictionlab/io/mujoco_friction.hpp).
#include "frictionlab/io/mujoco_friction.hpp"

#include <cmath>
#include <set>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using detail::json;

constexpr const char* kFormat = "frictionlab-mujoco";

/// The top level: format, version and the "joints" array.
const json& joints_of(const json& j, const std::string& file) {
  detail::require_kind(j, file, {detail::JsonKind::mujoco_friction});
  if (!j.is_object()) throw InputError(file, 0, 0, "expected a JSON object");
  detail::JsonFields top(&j, file, "", "a MUJOCO.json", {"format", "version", "joints"});
  if (top.string("format", "") != kFormat)
    detail::fail_key(file, "format", std::string("expected \"") + kFormat + "\"");
  const json& version = detail::member(j, file, "version");
  if (!version.is_number_integer() || version.get<long>() != 1)
    detail::fail_key(file, "version", "unsupported version " + version.dump() + " (this is 1)");
  const json& joints = detail::member(j, file, "joints");
  if (!joints.is_array() || joints.empty())
    detail::fail_key(file, "joints", "expected a non-empty array of joints");
  return joints;
}

/// Read the file an entry names; a problem in it is reported after the entry that named it.
template <class Read>
auto read_named(const std::string& joint, const char* key, const std::string& path,
                const std::string& file, long line, Read read) {
  try {
    return read(detail::path_beside(file, path));
  } catch (const InputError& e) {
    throw InputError(file, line, 0,
                     "joint " + quote_text(joint) + ": \"" + key + "\": " + e.what());
  }
}

/// The entry's "temperature" [degC] for a parameter file `file` whose friction has the law
/// `law` (nullptr: none): required with a law and at a temperature where its scales are
/// positive, refused without one.
std::optional<double> entry_temperature(const detail::JsonFields& f, const std::string& file,
                                        const TemperatureDependence<double>* law) {
  if (!f.has("temperature")) {
    if (law != nullptr)
      f.fail("temperature", "missing: " + file +
                                " has a temperature law (T_ref = " + format_number(law->T_ref) +
                                " degC); give the joint's temperature at the start [degC] "
                                "(flmj_set_temperature changes it)");
    return std::nullopt;
  }
  if (law == nullptr)
    f.fail("temperature", file +
                              " has no temperature law, so the joint's temperature would not be "
                              "used: remove the key");
  const double T = f.number("temperature", 0.0);
  if (!std::isfinite(T) || !temperature_scale_positive(*law, T))
    f.fail("temperature", "the law of " + file + " (T_ref = " + format_number(law->T_ref) +
                              " degC) has no positive scale at this temperature [degC]");
  return T;
}

/// A servo entry: its actuator, goal actuator and firmware gains.
MujocoServoJoint servo_joint(const detail::JsonFields& f, const std::string& joint, long line) {
  MujocoServoJoint s;
  s.line = line;
  s.joint = joint;
  s.goal = f.string("goal", "");
  if (s.goal.empty()) f.fail("goal", "missing: the MJCF actuator whose ctrl is the goal position");
  s.kp = f.number("kp", 0.0);
  if (!(s.kp > 0.0)) f.fail("kp", "missing or not > 0: the firmware's kp register value");
  s.kd = f.number("kd", 0.0);
  s.ki = f.number("ki", 0.0);
  if (s.kd < 0.0) f.fail("kd", "must be >= 0");
  if (s.ki < 0.0) f.fail("ki", "must be >= 0");
  if (f.has("vin")) {
    s.vin = f.number("vin", 0.0);
    if (!(*s.vin > 0.0)) f.fail("vin", "must be > 0 [V]");
  }
  s.source = read_named(joint, "servo", f.string("servo", ""), f.file(), line,
                        [](const std::string& p) { return read_actuator_source(p); });
  const auto& law = s.source.setup.params.temperature;
  s.temperature = entry_temperature(f, s.source.file, law ? &*law : nullptr);
  return s;
}

/// A friction entry: its model (a joint fit's load dependence and temperature law kept) and,
/// with a temperature law, the joint's temperature at the start.
MujocoFrictionJoint friction_joint(const detail::JsonFields& f, const std::string& joint,
                                   long line) {
  MujocoFrictionJoint out{joint,
                          read_named(joint, "friction", f.string("friction", ""), f.file(), line,
                                     [](const std::string& p) {
                                       return read_friction_source(p, "", JointOption::refused,
                                                                   JointDependences::kept);
                                     }),
                          line, std::nullopt};
  const auto& model = out.source.joint;  // a joint fit's joint model, or none
  out.temperature = entry_temperature(f, out.source.file,
                                      model && model->temperature ? &*model->temperature : nullptr);
  return out;
}

/// One entry of "joints" into `out`: a servo or a friction model; returns its joint's name.
std::string read_entry(const json& entry, const std::string& file, long line, MujocoFriction& out) {
  if (!entry.is_object())
    throw InputError(file, line, 0, "a joint: expected an object, got " + detail::type_of(entry));
  const bool servo = entry.contains("servo");
  detail::JsonFields f(&entry, file, "line " + std::to_string(line),
                       servo ? "a servo joint" : "a friction joint",
                       servo ? std::vector<std::string>{"joint", "servo", "goal", "kp", "kd", "ki",
                                                        "vin", "temperature"}
                             : std::vector<std::string>{"joint", "friction", "temperature"});
  std::string joint = f.string("joint", "");
  if (joint.empty()) f.fail("joint", "missing: the name of an MJCF joint");
  if (servo) {
    if (f.string("servo", "").empty()) f.fail("servo", "empty: a parameter file of `fit-actuator`");
    out.servos.push_back(servo_joint(f, joint, line));
    return joint;
  }
  const std::string model = f.string("friction", "");
  if (model.empty())
    f.fail("friction",
           "missing: a joint takes \"servo\" (a fit-actuator parameter file) or \"friction\" (a "
           "fit.json, joint_fit.json, ESTIMATOR.json or MODEL.json)");
  out.frictions.push_back(friction_joint(f, joint, line));
  return joint;
}

}  // namespace

MujocoFriction parse_mujoco_friction(std::string_view text, const std::string& file) {
  const json j = detail::parse_json_text(text, file);
  const json& joints = joints_of(j, file);
  const detail::JsonKeyLines lines(text);
  MujocoFriction out;
  out.file = file;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const long line = lines.line("/joints/" + std::to_string(i) + "/joint");
    const std::string joint = read_entry(joints[i], file, line, out);
    if (!seen.insert(joint).second)
      throw InputError(file, line, 0, "joint " + quote_text(joint) + " is named twice");
  }
  return out;
}

MujocoFriction read_mujoco_friction(const std::string& path) {
  return parse_mujoco_friction(read_text_file(path, "a MUJOCO.json"), path);
}

}  // namespace frictionlab::io
