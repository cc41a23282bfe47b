// frictionlab io: robot descriptions from URDF and ROBOT.json (io/robot_description.hpp).
#include "frictionlab/io/robot_description.hpp"

#include <console_bridge/console.h>

#include <urdf_parser/urdf_parser.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {

namespace {

using robot::Inertial;
using robot::Joint;
using robot::JointType;

/// Collects urdfdom's console messages while one parse runs, so that they become the
/// InputError's text instead of lines on stderr.
class CapturedConsole : public console_bridge::OutputHandler {
 public:
  CapturedConsole() : previous_level_(console_bridge::getLogLevel()) {
    console_bridge::useOutputHandler(this);
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  }
  ~CapturedConsole() override {
    console_bridge::restorePreviousOutputHandler();
    console_bridge::setLogLevel(previous_level_);
  }
  CapturedConsole(const CapturedConsole&) = delete;
  CapturedConsole& operator=(const CapturedConsole&) = delete;
  void log(const std::string& text, console_bridge::LogLevel, const char*, int) override {
    if (!messages.empty()) messages += "; ";
    messages += text;
  }
  std::string messages;

 private:
  console_bridge::LogLevel previous_level_;
};

Eigen::Isometry3d to_isometry(const urdf::Pose& pose) {
  double x, y, z, w;
  pose.rotation.getQuaternion(x, y, z, w);
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
  t.translation() = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  return t;
}

/// The link's inertial in the link frame (massless without `<inertial>`).
Inertial link_inertial(const urdf::Link& link) {
  if (!link.inertial) return {};
  const urdf::Inertial& u = *link.inertial;
  Inertial in;
  in.mass = u.mass;
  in.inertia << u.ixx, u.ixy, u.ixz, u.ixy, u.iyy, u.iyz, u.ixz, u.iyz, u.izz;
  return robot::transform(in, to_isometry(u.origin));
}

/// Walks the URDF tree from the root: `owner` is the model joint whose frame the current link
/// is fixed to (-1: the base), `link_in_owner` the link frame in that joint's frame.
class UrdfTree {
 public:
  UrdfTree(const std::string& file, RobotDescription& out) : file_(file), out_(out) {}

  void visit(const urdf::Link& link, int owner, const Eigen::Isometry3d& link_in_owner) {
    if (owner >= 0) {
      Joint& j = out_.model.joints[static_cast<std::size_t>(owner)];
      j.inertial = robot::combine(j.inertial, robot::transform(link_inertial(link), link_in_owner));
    }
    for (const auto& child : link.child_joints) {
      const urdf::Joint& uj = *child;
      const auto next = find_link(uj.child_link_name);
      const Eigen::Isometry3d origin =
          link_in_owner * to_isometry(uj.parent_to_joint_origin_transform);
      if (uj.type == urdf::Joint::FIXED) {
        visit(*next, owner, origin);
        continue;
      }
      visit(*next, add_joint(uj, owner, origin), Eigen::Isometry3d::Identity());
    }
  }

 private:
  std::shared_ptr<urdf::Link> find_link(const std::string& name) const {
    auto it = links_.find(name);
    return it->second;
  }

  int add_joint(const urdf::Joint& uj, int owner, const Eigen::Isometry3d& origin) {
    if (uj.type == urdf::Joint::FLOATING || uj.type == urdf::Joint::PLANAR ||
        uj.type == urdf::Joint::UNKNOWN)
      throw InputError(file_, 0, 0,
                       "joint '" + uj.name + "' is " +
                           (uj.type == urdf::Joint::FLOATING ? "floating"
                            : uj.type == urdf::Joint::PLANAR ? "planar"
                                                             : "of an unknown type") +
                           ": only revolute, continuous, prismatic and fixed joints are supported");
    Joint j;
    j.name = uj.name;
    j.type = uj.type == urdf::Joint::PRISMATIC ? JointType::prismatic : JointType::revolute;
    j.parent = owner;
    j.origin = origin;
    j.link = uj.child_link_name;
    j.axis = Eigen::Vector3d(uj.axis.x, uj.axis.y, uj.axis.z);
    if (j.axis.norm() == 0)
      throw InputError(file_, 0, 0, "joint '" + uj.name + "': <axis> is the zero vector");
    j.axis.normalize();
    if (uj.limits) {
      if (uj.type != urdf::Joint::CONTINUOUS) {
        j.limits.lower = uj.limits->lower;
        j.limits.upper = uj.limits->upper;
      }
      if (uj.limits->velocity > 0) j.limits.velocity = uj.limits->velocity;
      if (uj.limits->effort > 0) j.limits.effort = uj.limits->effort;
    }
    out_.urdf_damping.push_back(uj.dynamics ? uj.dynamics->damping : 0.0);
    out_.urdf_friction.push_back(uj.dynamics ? uj.dynamics->friction : 0.0);
    out_.model.joints.push_back(j);
    return out_.model.dof() - 1;
  }

 public:
  std::map<std::string, std::shared_ptr<urdf::Link>> links_;

 private:
  std::string file_;
  RobotDescription& out_;
};

void require_valid(const RobotDescription& d) {
  const auto errors = robot::check(d.model);
  if (errors.empty()) return;
  std::string msg = errors.front();
  if (errors.size() > 1) msg += " (and " + std::to_string(errors.size() - 1) + " more)";
  throw InputError(d.file, 0, 0, msg);
}

bool ends_with(std::string s, std::string_view suffix) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

RobotDescription parse_urdf(std::string_view text, const std::string& file) {
  urdf::ModelInterfaceSharedPtr model;
  std::string messages;
  {
    static std::mutex console_mutex;  // console_bridge's handler is process-wide
    const std::lock_guard<std::mutex> lock(console_mutex);
    CapturedConsole console;
    model = urdf::parseURDF(std::string(text));
    messages = console.messages;
  }
  if (!model)
    throw InputError(file, 0, 0,
                     "not a valid URDF" + (messages.empty() ? std::string() : ": " + messages));
  RobotDescription out;
  out.file = file;
  out.model.name = model->getName();
  const auto root = model->getRoot();
  if (!root) throw InputError(file, 0, 0, "the URDF has no root link");
  out.model.base = root->name;
  UrdfTree tree(file, out);
  for (const auto& [name, link] : model->links_) tree.links_[name] = link;
  tree.visit(*root, -1, Eigen::Isometry3d::Identity());
  if (out.model.dof() == 0) throw InputError(file, 0, 0, "the URDF has no moving joint");
  require_valid(out);
  return out;
}

RobotDescription read_urdf(const std::string& path) {
  return parse_urdf(read_text_file(path, "a URDF robot description"), path);
}

namespace {

robot::DhRow dh_row(const detail::json& j, const std::string& file, std::size_t k) {
  const std::string context = "rows[" + std::to_string(k) + "]";
  const detail::JsonFields f(
      &j, file, context, "a DH row",
      {"frame", "joint", "a", "d", "alpha", "alpha_expr", "theta", "theta_offset", "type"});
  robot::DhRow r;
  r.joint = f.string("joint", "");
  r.a = f.number("a", 0);
  r.d = f.number("d", 0);
  r.alpha = f.number("alpha", 0);
  if (f.has("theta") && f.has("theta_offset"))
    f.fail("theta", "give either 'theta' or 'theta_offset', not both");
  r.theta = f.has("theta") ? f.number("theta", 0) : f.number("theta_offset", 0);
  const std::string type = f.string("type", r.joint.rfind("fixed", 0) == 0 ? "fixed" : "revolute");
  if (type == "fixed")
    r.fixed = true;
  else if (type == "prismatic")
    r.type = JointType::prismatic;
  else if (type != "revolute")
    f.fail("type", "expected \"revolute\", \"prismatic\" or \"fixed\", got \"" + type + "\"");
  return r;
}

/// Joint limits from "joint_limits": arrays of one value per joint (not per row).
void read_limits(const detail::json& j, const std::string& file, robot::RobotModel& m) {
  const detail::JsonFields f(&j, file, "joint_limits", "joint limits",
                             {"q_min", "q_max", "dq_max", "ddq_max", "effort_max"});
  const auto per_joint = [&](const std::string& key, auto&& set) {
    if (!f.has(key)) return;
    const std::vector<double> v = f.numbers(key);
    if (static_cast<int>(v.size()) != m.dof())
      f.fail(key, "has " + std::to_string(v.size()) + " values for " + std::to_string(m.dof()) +
                      " joints");
    for (int i = 0; i < m.dof(); ++i)
      set(m.joints[static_cast<std::size_t>(i)].limits, v[static_cast<std::size_t>(i)]);
  };
  per_joint("q_min", [](robot::JointLimits& l, double x) { l.lower = x; });
  per_joint("q_max", [](robot::JointLimits& l, double x) { l.upper = x; });
  per_joint("dq_max", [](robot::JointLimits& l, double x) { l.velocity = x; });
  per_joint("ddq_max", [](robot::JointLimits& l, double x) { l.acceleration = x; });
  per_joint("effort_max", [](robot::JointLimits& l, double x) { l.effort = x; });
}

}  // namespace

RobotDescription parse_robot_json(std::string_view text, const std::string& file) {
  const detail::json j = detail::parse_json_text(text, file);
  if (!j.is_object()) throw InputError(file, 0, 0, "expected a JSON object with \"rows\"");
  if (!j.contains("rows") || !j["rows"].is_array() || j["rows"].empty())
    throw InputError(file, 0, 0, "missing key 'rows' (a non-empty array of DH rows)");
  const std::string convention = j.value("convention", std::string());
  robot::DhConvention conv;
  if (convention.rfind("modified", 0) == 0)
    conv = robot::DhConvention::modified;
  else if (convention.rfind("standard", 0) == 0)
    conv = robot::DhConvention::standard;
  else
    throw InputError::parameter(file, "convention",
                                "expected a string beginning with \"modified\" (Craig) or "
                                "\"standard\" (Denavit-Hartenberg)");
  std::vector<robot::DhRow> rows;
  for (std::size_t k = 0; k < j["rows"].size(); ++k) rows.push_back(dh_row(j["rows"][k], file, k));
  RobotDescription out;
  out.file = file;
  out.model = robot::from_dh(rows, conv);
  out.model.name = j.value("robot", std::string());
  if (j.contains("joint_limits")) read_limits(j["joint_limits"], file, out.model);
  if (j.contains("gravity")) {
    const detail::JsonFields g(&j["gravity"], file, "gravity", "gravity", {"g0", "direction"});
    out.model.gravity = Eigen::Vector3d(0, 0, -g.number("g0", 9.80665));
  }
  out.urdf_damping.assign(static_cast<std::size_t>(out.model.dof()), 0.0);
  out.urdf_friction = out.urdf_damping;
  require_valid(out);
  return out;
}

RobotDescription read_robot_json(const std::string& path) {
  return parse_robot_json(read_text_file(path, "a ROBOT.json description"), path);
}

RobotDescription read_robot(const std::string& path) {
  if (ends_with(path, ".urdf") || ends_with(path, ".xml")) return read_urdf(path);
  if (ends_with(path, ".json")) return read_robot_json(path);
  throw InputError(path, 0, 0,
                   "unknown robot description type: expected a .urdf (or .xml) or a .json file");
}

}  // namespace frictionlab::io
