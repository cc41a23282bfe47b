// frictionlab io: an arm fit as MJCF attributes and URDF <dynamics> (io/robot_export.hpp).
#include "frictionlab/io/robot_export.hpp"

#include <tinyxml.h>

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

struct RobotFitFile {
  std::string path, friction_model;
  std::vector<JointFriction> joints;
};

/// The fit's base parameters by name, each with its value and whether it stands alone (a
/// parameter grouped with others is not that parameter's value).
std::map<std::string, std::pair<double, bool>> base_parameters(const json& j,
                                                               const std::string& file) {
  std::map<std::string, std::pair<double, bool>> out;
  for (const json& p : detail::member(j, file, "parameters"))
    out[p.at("name").get<std::string>()] = {p.at("value").get<double>(), p.at("terms").size() == 1};
  return out;
}

/// A friction value that must be >= 0 in both formats: a negative estimate is written as 0
/// with a note (never silently).
double non_negative(double x, const std::string& name, JointFriction& f) {
  if (x >= 0) return x;
  f.notes.push_back(name + " = " + format_number(x, 4) +
                    " came out negative (physically inadmissible): written as 0");
  return 0;
}

void linear_friction(const std::map<std::string, std::pair<double, bool>>& p, JointFriction& f) {
  const auto value = [&](const std::string& name) {
    const auto it = p.find(name + "_" + f.joint);
    return it == p.end() ? 0.0 : non_negative(it->second.first, name + "_" + f.joint, f);
  };
  f.Fc = value("Fc");
  f.Fv = value("Fv");
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
void armature_and_offset(const std::map<std::string, std::pair<double, bool>>& p,
                         JointFriction& f) {
  if (const auto it = p.find("Ia_" + f.joint); it != p.end()) {
    if (it->second.second)
      f.armature = non_negative(it->second.first, "Ia_" + f.joint, f);
    else
      f.notes.push_back("Ia_" + f.joint +
                        " is grouped with link inertia in a base parameter: no armature written");
  }
  if (const auto it = p.find("offset_" + f.joint); it != p.end() && it->second.first != 0)
    f.notes.push_back("torque offset offset_" + f.joint + " = " +
                      format_number(it->second.first, 4) +
                      " N m left out (no such term in the format: a bias in the controller)");
}

RobotFitFile read_robot_fit(const std::string& path) {
  const json j = detail::parse_json_text(read_text_file(path, "a robot_fit.json file"), path);
  if (!j.is_object() || j.value("format", "") != "frictionlab-robot-fit")
    throw InputError(path, 0, 0,
                     "expected a robot_fit.json of frictionlab fit-robot (\"format\": "
                     "\"frictionlab-robot-fit\")");
  RobotFitFile out{path, "linear", {}};
  const json friction = j.value("friction", json{{"model", "linear"}});
  out.friction_model = friction.value("model", "linear");
  const auto params = base_parameters(j, path);
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
  return out;
}

/// Every joint's notes, each prefixed with its joint; and the one about the links.
std::vector<std::string> all_notes(const RobotFitFile& fit) {
  std::vector<std::string> notes{
      "link mass properties: the base parameters do not determine them; the model's own stay"};
  for (const auto& f : fit.joints)
    for (const auto& n : f.notes) notes.push_back("joint " + f.joint + ": " + n);
  return notes;
}

/// The comment the URDF export puts before <robot>: its source and what it leaves out. XML
/// comments may not contain "--".
std::string urdf_comment(const std::string& fit_path, const std::vector<std::string>& notes) {
  std::string text = " frictionlab export robot: each joint's <dynamics> from " + fit_path +
                     " (friction: Coulomb level [N m], damping: viscous [N m s/rad]).\n"
                     "     Not represented:\n";
  for (const auto& n : notes) text += "       - " + n + "\n";
  for (std::size_t k = text.find("--"); k != std::string::npos; k = text.find("--", k))
    text.replace(k, 2, "- -");
  return text + "  ";
}

}  // namespace

RobotExport export_robot_mujoco(const std::string& fit_path) {
  RobotFitFile fit = read_robot_fit(fit_path);
  std::string joints, actuators;
  for (auto& f : fit.joints) {
    detail::check_mjcf_name(f.joint);
    const bool lugre = f.spec && !std::holds_alternative<StaticSpec>(*f.spec);
    if (f.spec) {  // the single-joint export's mapping: its notes, and LuGre's actuator
      const MujocoFragment one = mujoco_fragment(*f.spec, {f.joint, 1.0}, fit_path);
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
          "     MuJoCo's dry friction (Coulomb Fc with exact sticking), damping its viscous\n"
          "     term Fv, armature the rotor inertia Ia.",
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
  std::map<std::string, TiXmlElement*> joints;
  for (TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint"))
    if (const char* name = e->Attribute("name")) joints[name] = e;
  for (auto& f : fit.joints) {
    const auto it = joints.find(f.joint);
    if (it == joints.end())
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
  RobotExport out{{}, all_notes(fit)};
  robot->Parent()->InsertBeforeChild(robot,
                                     TiXmlComment(urdf_comment(fit_path, out.notes).c_str()));
  TiXmlPrinter printer;
  printer.SetIndent("  ");
  doc.Accept(&printer);
  out.text = printer.Str();
  return out;
}

}  // namespace frictionlab::io
