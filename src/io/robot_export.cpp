// frictionlab io: an arm fit as MJCF attributes and URDF <dynamics> (io/robot_export.hpp).
#include "frictionlab/io/robot_export.hpp"

#include <tinyxml.h>

#include <array>
#include <map>
#include <optional>
#include <variant>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/models/registry.hpp"
#include "json_fields.hpp"
#include "mujoco_text.hpp"

namespace frictionlab::io {

namespace {

using detail::json;

/// One joint's friction as both formats hold it, and what they cannot.
struct JointFriction {
  std::string joint;
  std::optional<ModelSpec> spec;   ///< the registry model of a --friction fit (else linear)
  double Fc = 0, Fv = 0;           ///< Coulomb level [N m] and viscous coefficient [N m s/rad]
  std::optional<double> armature;  ///< Ia [kg m^2] where it is a base parameter of its own
  std::vector<std::string> notes;
};

/// A link's mass properties in its joint's frame (robot_fit.json's "consistent" "links").
struct LinkInertial {
  double mass = 0;                  ///< [kg]
  std::array<double, 3> com{};      ///< centre of mass [m]
  std::array<double, 9> inertia{};  ///< about the centre of mass, row-major [kg m^2]
};

struct RobotFitFile {
  std::string path, friction_model;
  std::vector<JointFriction> joints;
  /// With --consistent: per joint name its moving link's inertials, and the standard parameters
  /// no base parameter contains (their values are the prior's).
  std::map<std::string, LinkInertial> links;
  std::vector<std::string> undetermined;
};

/// The "consistent" object's links and undetermined parameters (nothing when it is null).
void read_consistent(const json& j, const std::string& path, RobotFitFile& out) {
  const auto c = j.find("consistent");
  if (c == j.end() || c->is_null()) return;
  try {
    for (const auto& [joint, l] : c->at("links").items()) {
      LinkInertial b;
      b.mass = l.at("mass").get<double>();
      for (std::size_t k = 0; k < 3; ++k) {
        b.com[k] = l.at("com").at(k).get<double>();
        for (std::size_t m = 0; m < 3; ++m)
          b.inertia[3 * k + m] = l.at("inertia").at(k).at(m).get<double>();
      }
      out.links[joint] = b;
    }
    out.undetermined = c->value("undetermined", std::vector<std::string>{});
  } catch (const json::exception& e) {
    detail::fail_key(path, "consistent", std::string("malformed: ") + e.what());
  }
}

/// A friction value that must be >= 0 in both formats: a negative estimate is written as 0
/// with a note (never silently).
double non_negative(double x, const std::string& name, JointFriction& f) {
  if (x >= 0) return x;
  f.notes.push_back(name + " = " + format_number(x, 4) +
                    " came out negative (physically inadmissible): written as 0");
  return 0;
}

/// Fc and Fv of a linear fit: each the joint's own estimate; one the record only determines in a
/// combination with other parameters is not the joint's friction and is written as 0 with a note
/// (as `export c --joint` refuses it).
void linear_friction(const std::map<std::string, detail::RobotFitParameter>& p, JointFriction& f) {
  const auto value = [&](const std::string& name) {
    const std::string key = name + "_" + f.joint;
    const auto it = p.find(key);
    if (it == p.end()) return 0.0;
    if (!it->second.own) {
      f.notes.push_back(key + " is the combination " + it->second.expression +
                        " on this record, not the joint's friction alone: written as 0");
      return 0.0;
    }
    return non_negative(it->second.value, key, f);
  };
  f.Fc = value("Fc");
  f.Fv = value("Fv");
  if (const auto it = p.find("mu_" + f.joint); it != p.end())
    f.notes.push_back("mu_" + f.joint + " = " + format_number(it->second.value, 4) +
                      ": the Coulomb level's rise with the load is not representable; "
                      "frictionloss is the level at zero load, Fc_" +
                      f.joint);
}

void model_friction(const json& fit, const std::string& file, JointFriction& f) {
  const json& joint = detail::member(detail::member(fit, file, "joints"), file, f.joint);
  f.spec = model_from_json(detail::member(joint, file, "model"), file,
                           "friction.joints." + f.joint + ".model")
               .spec;
  if (const auto* s = std::get_if<StaticSpec>(&*f.spec)) {
    f.Fc = (s->params.curve.Fc_pos + s->params.curve.Fc_neg) / 2;
    f.Fv = s->params.sigma2;
  }
}

/// The joint's armature and offset, from the base parameters.
void armature_and_offset(const std::map<std::string, detail::RobotFitParameter>& p,
                         JointFriction& f) {
  if (const auto it = p.find("Ia_" + f.joint); it != p.end()) {
    if (it->second.own)
      f.armature = non_negative(it->second.value, "Ia_" + f.joint, f);
    else
      f.notes.push_back("Ia_" + f.joint +
                        " is grouped with link inertia in a base parameter: no armature written");
  }
  if (const auto it = p.find("offset_" + f.joint); it != p.end() && it->second.value != 0)
    f.notes.push_back("torque offset offset_" + f.joint + " = " +
                      format_number(it->second.value, 4) +
                      " N m left out (no such term in the format: a bias in the controller)");
}

RobotFitFile read_robot_fit(const std::string& path) {
  const json j = detail::parse_json_text(read_text_file(path, "a robot_fit.json file"), path);
  if (!j.is_object() || j.value("format", "") != "frictionlab-robot-fit")
    throw InputError(path, 0, 0,
                     "expected a robot_fit.json of frictionlab fit-robot (\"format\": "
                     "\"frictionlab-robot-fit\")");
  RobotFitFile out;
  out.path = path;
  out.friction_model = "linear";
  const json friction = j.value("friction", json{{"model", "linear"}});
  out.friction_model = friction.value("model", "linear");
  const auto params = detail::robot_fit_parameters(j, path);
  for (const json& name : detail::member(j, path, "joints")) {
    JointFriction f;
    f.joint = name.get<std::string>();
    if (out.friction_model == "linear")
      linear_friction(params, f);
    else
      model_friction(friction, path, f);
    armature_and_offset(params, f);
    out.joints.push_back(std::move(f));
  }
  read_consistent(j, path, out);
  return out;
}

/// "a, b, c": every name (an export's comment lists them all).
std::string all_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// Every joint's notes, each prefixed with its joint; and the one about the links (`inertials`:
/// the export wrote the consistent set).
std::vector<std::string> all_notes(const RobotFitFile& fit, bool inertials = false) {
  std::vector<std::string> notes;
  if (!inertials)
    notes.push_back(fit.links.empty() ? "link mass properties: the base parameters do not "
                                        "determine them; the model's own stay (fit-robot "
                                        "--consistent gives a set the export writes into a URDF)"
                                      : "link mass properties: the fit's consistent set is not "
                                        "written (export robot --urdf writes it)");
  else if (!fit.undetermined.empty())
    notes.push_back(
        "link mass properties: the values of the standard parameters no record "
        "determines are the prior's, not measured (" +
        std::to_string(fit.undetermined.size()) + "): " + all_names(fit.undetermined));
  for (const auto& f : fit.joints)
    for (const auto& n : f.notes) notes.push_back("joint " + f.joint + ": " + n);
  return notes;
}

/// The comment the URDF export puts before <robot>: its source and what it leaves out. XML
/// comments may not contain "--".
std::string urdf_comment(const std::string& fit_path, const std::vector<std::string>& notes,
                         bool inertials) {
  std::string text = " frictionlab export robot: each joint's <dynamics>" +
                     std::string(inertials ? " and each moving link's <inertial>" : "") + " from " +
                     fit_path +
                     " (friction: Coulomb level [N m], damping: viscous [N m s/rad]).\n"
                     "     Not represented:\n";
  for (const auto& n : notes) text += "       - " + n + "\n";
  for (std::size_t k = text.find("--"); k != std::string::npos; k = text.find("--", k))
    text.replace(k, 2, "- -");
  return text + "  ";
}

/// The <link> and <joint> elements of a URDF's <robot> by name.
struct UrdfElements {
  std::map<std::string, TiXmlElement*> links, joints;
};

UrdfElements urdf_elements(TiXmlElement* robot) {
  UrdfElements u;
  for (TiXmlElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link"))
    if (const char* name = e->Attribute("name")) u.links[name] = e;
  for (TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint"))
    if (const char* name = e->Attribute("name")) u.joints[name] = e;
  return u;
}

/// The link named by a joint's <parent> or <child> ("" if absent).
std::string joint_link(const TiXmlElement* joint, const char* which) {
  const TiXmlElement* e = joint->FirstChildElement(which);
  const char* name = e ? e->Attribute("link") : nullptr;
  return name ? name : "";
}

/// Replace a link's <inertial> by b (origin at the centre of mass, axes of the link frame).
void set_inertial(TiXmlElement* link, const LinkInertial& b) {
  if (TiXmlElement* old = link->FirstChildElement("inertial")) link->RemoveChild(old);
  TiXmlElement inertial("inertial");
  TiXmlElement origin("origin");
  origin.SetAttribute(
      "xyz", format_exact(b.com[0]) + " " + format_exact(b.com[1]) + " " + format_exact(b.com[2]));
  origin.SetAttribute("rpy", "0 0 0");
  inertial.InsertEndChild(origin);
  TiXmlElement mass("mass");
  mass.SetAttribute("value", format_exact(b.mass));
  inertial.InsertEndChild(mass);
  TiXmlElement I("inertia");
  const std::array<std::pair<const char*, int>, 6> entries{
      {{"ixx", 0}, {"ixy", 1}, {"ixz", 2}, {"iyy", 4}, {"iyz", 5}, {"izz", 8}}};
  for (const auto& [name, k] : entries)
    I.SetAttribute(name, format_exact(b.inertia[static_cast<std::size_t>(k)]));
  inertial.InsertEndChild(I);
  link->InsertEndChild(inertial);
}

/// Remove the <inertial> of every link fixed (through fixed joints) to `link`: fit-robot merged
/// their mass into the moving link's, which set_inertial wrote. The links' names, for the notes.
std::vector<std::string> clear_fixed_children(const UrdfElements& u, const std::string& link) {
  std::vector<std::string> cleared;
  for (const auto& [name, joint] : u.joints) {
    const char* type = joint->Attribute("type");
    if (!type || std::string(type) != "fixed" || joint_link(joint, "parent") != link) continue;
    const std::string child = joint_link(joint, "child");
    const auto it = u.links.find(child);
    if (it == u.links.end()) continue;
    if (TiXmlElement* old = it->second->FirstChildElement("inertial")) {
      it->second->RemoveChild(old);
      cleared.push_back(child);
    }
    for (auto& c : clear_fixed_children(u, child)) cleared.push_back(std::move(c));
  }
  return cleared;
}

/// Each fit joint's moving link gets its consistent <inertial>; notes for the fixed links.
void write_inertials(const RobotFitFile& fit, const UrdfElements& u, const std::string& urdf_path,
                     std::vector<std::string>& notes) {
  for (const auto& [joint, b] : fit.links) {
    const auto j = u.joints.find(joint);
    const std::string link = j == u.joints.end() ? "" : joint_link(j->second, "child");
    const auto l = u.links.find(link);
    if (l == u.links.end())
      throw InputError(urdf_path, 0, 0, "no child link of joint '" + joint + "' of " + fit.path);
    set_inertial(l->second, b);
    for (const auto& child : clear_fixed_children(u, link))
      notes.push_back("link " + child + ": its <inertial> removed, its mass is in link " + link +
                      "'s (fit-robot merges links fixed to a moving link)");
  }
}

}  // namespace

RobotExport export_robot_mujoco(const std::string& fit_path) {
  RobotFitFile fit = read_robot_fit(fit_path);
  std::string joints, actuators;
  for (auto& f : fit.joints) {
    detail::check_mjcf_name(f.joint);
    const bool lugre = f.spec && !std::holds_alternative<StaticSpec>(*f.spec);
    if (f.spec) {  // the single-joint export's mapping: its notes, and LuGre's actuator
      const MujocoFragment one = mujoco_fragment(*f.spec, {f.joint, 1.0, std::nullopt}, fit_path);
      f.notes.insert(f.notes.end(), one.notes.begin(), one.notes.end());
      if (lugre) actuators += one.xml;
    }
    std::string attrs;
    if (!lugre && f.Fc > 0) attrs += " frictionloss=\"" + format_exact(f.Fc) + "\"";
    if (!lugre && f.Fv > 0) attrs += " damping=\"" + format_exact(f.Fv) + "\"";
    if (f.armature) attrs += " armature=\"" + format_exact(*f.armature) + "\"";
    joints += "<joint name=\"" + f.joint + "\"" + attrs + "/>\n";
  }
  RobotExport out;
  out.notes = all_notes(fit);
  out.text =
      detail::mujoco_comment(
          fit_path,
          std::to_string(fit.joints.size()) + " joints, " + fit.friction_model + " friction",
          "Merge each joint's attributes into the joint of that name. frictionloss is\n"
          "     MuJoCo's dry friction (a soft constraint: Coulomb Fc, sticking up to a small "
          "creep;\n"
          "     docs/mujoco.md), damping its viscous term Fv, armature the rotor inertia Ia.",
          out.notes) +
      joints + actuators;
  return out;
}

RobotExport export_robot_urdf(const std::string& fit_path, const std::string& urdf_path) {
  RobotFitFile fit = read_robot_fit(fit_path);
  TiXmlDocument doc;
  doc.Parse(read_text_file(urdf_path, "a URDF file").c_str());
  if (doc.Error())
    throw InputError(urdf_path, doc.ErrorRow(), doc.ErrorCol(),
                     std::string("not a URDF: ") + doc.ErrorDesc());
  TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) throw InputError(urdf_path, 0, 0, "not a URDF: no <robot> element");
  const UrdfElements u = urdf_elements(robot);
  for (auto& f : fit.joints) {
    const auto it = u.joints.find(f.joint);
    if (it == u.joints.end())
      throw InputError(urdf_path, 0, 0, "no joint '" + f.joint + "' of " + fit_path);
    TiXmlElement* dyn = it->second->FirstChildElement("dynamics");
    if (!dyn) dyn = it->second->InsertEndChild(TiXmlElement("dynamics"))->ToElement();
    dyn->SetAttribute("damping", format_exact(f.Fv));
    dyn->SetAttribute("friction", format_exact(f.Fc));
    if (f.spec && std::holds_alternative<StaticSpec>(*f.spec))
      f.notes.push_back("the " + model_name(*f.spec) +
                        " curve as its Coulomb level (friction) and viscous term (damping)");
    else if (f.spec)
      f.notes.push_back("the " + model_name(*f.spec) +
                        " model as its steady Coulomb level and "
                        "viscous term: its dynamics (presliding, memory) are left out");
    if (f.armature)
      f.notes.push_back("armature Ia_" + f.joint + " = " + format_number(*f.armature, 4) +
                        " kg m^2 left out (URDF has no rotor inertia)");
  }
  const bool inertials = !fit.links.empty();
  RobotExport out{{}, all_notes(fit, inertials)};
  write_inertials(fit, u, urdf_path, out.notes);
  robot->Parent()->InsertBeforeChild(
      robot, TiXmlComment(urdf_comment(fit_path, out.notes, inertials).c_str()));
  TiXmlPrinter printer;
  printer.SetIndent("  ");
  doc.Accept(&printer);
  out.text = printer.Str();
  return out;
}

}  // namespace frictionlab::io
