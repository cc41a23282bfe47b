// frictionlab io: MUJOCO.json (include/frictionlab/io/mujoco_friction.hpp).
#include "frictionlab/io/mujoco_friction.hpp"

#include <filesystem>
#include <set>

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

/// One entry of "joints", its parameter file resolved against the MUJOCO.json's folder.
MujocoServoJoint servo_joint(const json& entry, const std::string& file, long line) {
  if (!entry.is_object())
    throw InputError(file, line, 0, "a joint: expected an object, got " + detail::type_of(entry));
  detail::JsonFields f(&entry, file, "line " + std::to_string(line), "a joint",
                       {"joint", "servo", "goal", "kp", "kd", "ki", "vin"});
  MujocoServoJoint s;
  s.line = line;
  s.joint = f.string("joint", "");
  if (s.joint.empty()) f.fail("joint", "missing: the name of an MJCF joint");
  s.goal = f.string("goal", "");
  if (s.goal.empty()) f.fail("goal", "missing: the MJCF actuator whose ctrl is the goal position");
  const std::string params = f.string("servo", "");
  if (params.empty()) f.fail("servo", "missing: a parameter file of `fit-actuator`");
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
  const std::filesystem::path path(params);
  const std::string resolved =
      path.is_absolute() ? params : (std::filesystem::path(file).parent_path() / path).string();
  try {
    s.source = read_actuator_source(resolved);
  } catch (const InputError& e) {
    // the entry that named the parameter file, then the parameter file's own message
    throw InputError(file, line, 0, "joint " + quote_text(s.joint) + ": \"servo\": " + e.what());
  }
  return s;
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
    MujocoServoJoint s = servo_joint(joints[i], file, line);
    if (!seen.insert(s.joint).second)
      throw InputError(file, line, 0, "joint " + quote_text(s.joint) + " is named twice");
    out.servos.push_back(std::move(s));
  }
  return out;
}

MujocoFriction read_mujoco_friction(const std::string& path) {
  return parse_mujoco_friction(read_text_file(path, "a MUJOCO.json"), path);
}

}  // namespace frictionlab::io
