#include "frictionlab/io/estimator_export.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <variant>

#include "adaptive_c_code.hpp"
#include "estimator_impl_text.hpp"  // kEstimatorImplC: src/estimator/fl_estimator_impl.h
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/models/joint_lugre/as_lugre.hpp"
#include "json_fields.hpp"
#include "mujoco_text.hpp"
#include "text.hpp"

namespace frictionlab::io {
namespace {

using detail::fail_key;
using detail::member;
using nlohmann::json;

double number_member(const json& obj, const std::string& file, const std::string& key) {
  const json& v = member(obj, file, key);
  if (!v.is_number()) fail_key(file, key, "expected a number, got " + detail::type_of(v));
  return v.get<double>();
}

std::optional<Hold> parse_hold(const std::string& s) {
  if (s == "linear") return Hold::linear;
  if (s == "zoh") return Hold::zoh;
  return std::nullopt;
}

void check_version(const json& j, const std::string& file, const char* what) {
  const json& version = member(j, file, "version");
  if (!version.is_number_integer() || version.get<long>() != 1)
    fail_key(file, "version",
             "unsupported " + std::string(what) + " version " + version.dump() +
                 " (this frictionlab reads 1)");
}

/// The numeric "std_error" of each entry of a fit's "parameters", by its `key` ("field" of a
/// fit.json, "name" of a joint_fit.json); a joint fit's Fc as Fc_pos and Fc_neg, cv[0] as sigma2.
/// Entries without one (null, or no such member) are left out: the fit determined no error.
std::map<std::string, double> std_errors_of(const json& j, const char* key) {
  std::map<std::string, double> out;
  const auto params = j.find("parameters");
  if (params == j.end() || !params->is_array()) return out;
  for (const json& e : *params) {
    const auto name = e.find(key);
    const auto se = e.find("std_error");
    if (name == e.end() || !name->is_string() || se == e.end() || !se->is_number()) continue;
    const std::string n = name->get<std::string>();
    const double v = se->get<double>();
    if (n == "Fc") {
      out["Fc_pos"] = out["Fc_neg"] = v;
    } else {
      out[n == "cv[0]" ? "sigma2" : n] = v;
    }
  }
  return out;
}

FrictionSource from_fit(const json& j, const std::string& file) {
  check_version(j, file, "fit.json");
  FrictionSource s{file, "fit.json", {}, std::nullopt, std::nullopt, std::nullopt, {}, {}, {}};
  ModelFile mf = model_from_json(member(j, file, "model"), file, "model");
  s.spec = mf.spec;
  s.warnings = std::move(mf.warnings);
  if (const auto it = j.find("Km"); it != j.end() && !it->is_null()) {
    if (!it->is_number()) fail_key(file, "Km", "expected a number, got " + detail::type_of(*it));
    s.Km = it->get<double>();
  }
  s.std_errors = std_errors_of(j, "field");
  return s;
}

FrictionSource from_estimator(const json& j, const std::string& file) {
  check_version(j, file, "estimator file");
  for (const auto& [key, value] : j.items()) {
    (void)value;
    if (key != "format" && key != "version" && key != "source" && key != "Km" && key != "hold" &&
        key != "friction")
      fail_key(file, key, "unknown key (allowed: format, version, source, Km, hold, friction)");
  }
  FrictionSource s{file, "ESTIMATOR.json", {}, std::nullopt, std::nullopt, std::nullopt, {}, {},
                   {}};
  s.Km = number_member(j, file, "Km");
  const json& hold = member(j, file, "hold");
  if (!hold.is_string()) fail_key(file, "hold", "expected a string, got " + detail::type_of(hold));
  s.hold = parse_hold(hold.get<std::string>());
  if (!s.hold) fail_key(file, "hold", "expected \"linear\" or \"zoh\", got " + hold.dump());
  ModelFile mf = model_from_json(member(j, file, "friction"), file, "friction");
  s.spec = mf.spec;
  s.warnings = std::move(mf.warnings);
  return s;
}

std::string string_member(const json& obj, const std::string& file, const std::string& key) {
  const json& v = member(obj, file, key);
  if (!v.is_string()) fail_key(file, key, "expected a string, got " + detail::type_of(v));
  return v.get<std::string>();
}

/// Why a joint-lugre set has no lugre form, and the fit-joint option that avoids it.
std::string obstacle_text(JointLuGreObstacle o, const JointLuGre<double>::Params& p) {
  switch (o) {
    case JointLuGreObstacle::tanh_sign:
      return "it uses the smoothed sign tanh(K qd) with K = " + format_exact(p.K) +
             " s/rad (the paper's model B; lugre has the exact sign): fit with --K 0";
    case JointLuGreObstacle::stribeck_terms:
      return "its g(qd) is a sum of " + std::to_string(p.n_stribeck) +
             " Stribeck exponentials (lugre has one): fit with one --delta value";
    case JointLuGreObstacle::viscous_powers:
      return "its viscous series has powers of qd up to " + std::to_string(p.n_viscous) +
             " (lugre's viscous term is linear): fit with --viscous-powers 1";
    case JointLuGreObstacle::none:
      break;
  }
  return {};
}

/// A joint_fit.json of `fit-joint`: its joint model and friction (joint_friction_source).
FrictionSource from_joint_fit(const json& j, const std::string& file,
                              JointDependences dependences) {
  check_version(j, file, "joint_fit.json");
  JointFile jf = joint_from_json(member(j, file, "joint"), file);
  FrictionSource s =
      joint_friction_source(jf.model, file, string_member(j, file, "method"), dependences);
  s.warnings = std::move(jf.warnings);
  s.std_errors = std_errors_of(j, "name");
  return s;
}

/// The names of a robot_fit.json's "joints", for a message.
std::string joint_list(const json& joints) {
  std::string out;
  for (const json& n : joints) out += (out.empty() ? "" : ", ") + n.get<std::string>();
  return out;
}

/// The value of base parameter NAME of `params` if it is its own standard parameter; nullopt if
/// there is none; an error naming the grouping if it is one.
std::optional<double> own_parameter(const std::map<std::string, detail::RobotFitParameter>& params,
                                    const std::string& file, const std::string& name) {
  const auto it = params.find(name);
  if (it == params.end()) return std::nullopt;
  if (!it->second.own)
    detail::fail_file(file, "parameters: " + name,
                      "is the combination " + it->second.expression +
                          " on this record, not the joint's friction alone");
  return it->second.value;
}

/// The refusal of a joint whose Coulomb level depends on the load (its coefficients in words,
/// under `key` of `file`): no export target takes a load input; `instead` says what else the
/// user may do (or is empty).
[[noreturn]] void refuse_load_dependence(const std::string& file, const std::string& key,
                                         const std::string& coefficients,
                                         const std::string& instead = "") {
  detail::fail_file(file, key,
                    "this joint's Coulomb level depends on the load (" + coefficients +
                        ") and no export target takes a load input (the firmware estimator, the "
                        "LUGRE group and MuJoCo 2.2.2 model friction without one): export a fit "
                        "made without --load-dependent" +
                        instead);
}

/// Where a joint fit's load dependence or temperature law runs in MuJoCo after all.
constexpr const char* kInsideMujoco =
    ", or run it inside MuJoCo with frictionlab::mujoco (a MUJOCO.json entry naming this file; "
    "docs/mujoco.md)";

/// A linear robot fit's friction of `joint`: Fc_JOINT and Fv_JOINT as a coulomb-viscous model
/// (checked by the model's own rules), its offset as a warning.
void linear_robot_friction(const json& j, const std::string& file, const std::string& joint,
                           FrictionSource& s) {
  const auto params = detail::robot_fit_parameters(j, file);
  if (const auto mu = params.find("mu_" + joint); mu != params.end())
    refuse_load_dependence(file, "parameters: mu_" + joint,
                           "mu = " + format_exact(mu->second.value));
  const auto Fc = own_parameter(params, file, "Fc_" + joint);
  const auto Fv = own_parameter(params, file, "Fv_" + joint);
  if (!Fc && !Fv)
    detail::fail_file(file, "joint " + joint,
                      "the fit has no friction terms (Fc_" + joint + ", Fv_" + joint + ")");
  const json curve = {{"Fc", Fc.value_or(0.0)}, {"sigma2", Fv.value_or(0.0)}};
  ModelFile mf = model_from_json(json{{"model", "coulomb-viscous"}, {"params", curve}},
                                 file + ": joint " + joint);
  s.spec = mf.spec;
  s.warnings = std::move(mf.warnings);
  if (const auto offset = own_parameter(params, file, "offset_" + joint))
    s.warnings.push_back(file + ": joint " + joint + ": torque offset " + format_exact(*offset) +
                         " N m (a bias of the measured torque) is not friction: not exported");
}

/// A robot_fit.json of `fit-robot`: the friction of one of its joints (a registry model's
/// fit.json, or the linear terms as coulomb-viscous) and its identified drive gain as Km.
FrictionSource from_robot_fit(const json& j, const std::string& file, const std::string& joint) {
  check_version(j, file, "robot_fit.json");
  const json& joints = member(j, file, "joints");
  if (joint.empty())
    detail::fail_file(
        file, "joints",
        "a robot_fit.json holds the friction of " + std::to_string(joints.size()) +
            " joints: choose one with --joint (Python joint=): " + joint_list(joints));
  if (std::find(joints.begin(), joints.end(), joint) == joints.end())
    detail::fail_file(file, "joints",
                      "no joint '" + joint + "' (joints: " + joint_list(joints) + ")");
  FrictionSource s{file, "robot_fit.json", {}, std::nullopt, std::nullopt, std::nullopt, {}, {},
                   {}};
  const json& friction = member(j, file, "friction");
  if (friction.value("model", "") == "linear") {
    linear_robot_friction(j, file, joint, s);
  } else {
    const FrictionSource fit = from_fit(friction.at("joints").at(joint), file + ": joint " + joint);
    s.spec = fit.spec;
    s.warnings = fit.warnings;
  }
  if (const auto g = j.find("drive_gains"); g != j.end() && !g->is_null())
    for (const json& k : g->at("gains"))
      if (k.value("name", "") == "K_" + joint) s.Km = k.at("value").get<double>();
  return s;
}

}  // namespace

FrictionSource parse_friction_source(std::string_view text, const std::string& file,
                                     const std::string& joint, JointOption other,
                                     JointDependences dependences) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(
      j, file,
      {detail::JsonKind::fit, detail::JsonKind::joint_fit, detail::JsonKind::estimator,
       detail::JsonKind::model, detail::JsonKind::robot_fit});
  if (!j.is_object())
    throw InputError(file, 0, 0,
                     "expected a JSON object (fit.json, joint_fit.json, robot_fit.json, "
                     "ESTIMATOR.json or MODEL.json), got " +
                         detail::type_of(j));
  const auto fmt = j.find("format");
  if (!joint.empty() && other == JointOption::refused &&
      (fmt == j.end() || *fmt != "frictionlab-robot-fit"))
    throw InputError(file, 0, 0,
                     "--joint (Python joint=) selects a joint of a robot_fit.json; this file has "
                     "the friction of one joint");
  if (fmt == j.end()) {
    ModelFile mf = model_from_json(j, file);
    return FrictionSource{file,         "MODEL.json",           mf.spec,
                          std::nullopt, std::nullopt,           std::nullopt,
                          {},           std::move(mf.warnings), {}};
  }
  if (*fmt == "frictionlab-fit") return from_fit(j, file);
  if (*fmt == "frictionlab-joint-fit") return from_joint_fit(j, file, dependences);
  if (*fmt == "frictionlab-estimator") return from_estimator(j, file);
  if (*fmt == "frictionlab-robot-fit") return from_robot_fit(j, file, joint);
  fail_key(file, "format",
           "expected \"frictionlab-fit\" (fit.json), \"frictionlab-joint-fit\" (joint_fit.json), "
           "\"frictionlab-robot-fit\" (robot_fit.json) or \"frictionlab-estimator\" "
           "(ESTIMATOR.json), got " +
               fmt->dump());
}

FrictionSource joint_friction_source(const sim::JointModel& joint, const std::string& file,
                                     const std::string& method, JointDependences dependences) {
  FrictionSource s{file, "joint_fit.json", {}, std::nullopt, std::nullopt, std::nullopt, method, {},
                   {}};
  if (joint.load && dependences == JointDependences::refused)
    refuse_load_dependence(file, "joint: load",
                           "mu_drive = " + format_exact(joint.load->mu_drive) +
                               ", mu_back = " + format_exact(joint.load->mu_back),
                           kInsideMujoco);
  if (joint.temperature && dependences == JointDependences::refused)
    detail::fail_file(file, "joint: temperature",
                      "this joint's friction depends on the temperature (kT = " +
                          format_exact(joint.temperature->kT) +
                          " 1/K, kT_v = " + format_exact(joint.temperature->kT_v) +
                          " 1/K) and no export target takes a temperature input: export a fit made "
                          "without --temperature-law, or export a LuGre fit with `export c "
                          "--adaptive --temperature " +
                          file +
                          "` (Python temperature=), whose adaptive estimator starts from this "
                          "fit's kT and follows a warming joint's levels online" +
                          kInsideMujoco);
  s.spec = joint_friction_spec(joint);
  if (const auto* jl = std::get_if<JointLuGre<double>::Params>(&s.spec)) {
    const auto l = as_lugre<double>(*jl);
    if (l.obstacle != JointLuGreObstacle::none)
      detail::fail_file(file, "joint: friction",
                        "the joint-lugre model of this joint" +
                            (method.empty() ? std::string() : " fit (method " + method + ")") +
                            " has no lugre equivalent, which every export needs: " +
                            obstacle_text(l.obstacle, *jl));
    s.spec = l.params;
  }
  s.joint = joint;
  return s;
}

// ---- a temperature fit for the adaptive estimator's start --------------------------------------

namespace {

/// The entry of `parameters` named `name` in a joint_fit.json; nullptr if none.
const json* fit_parameter(const json& j, const std::string& name) {
  const auto params = j.find("parameters");
  if (params == j.end() || !params->is_array()) return nullptr;
  for (const json& e : *params)
    if (e.is_object() && e.value("name", "") == name) return &e;
  return nullptr;
}

/// The finite standard error [1/K] of the slope `name`; nullopt if the fit has none.
std::optional<double> slope_std_error(const json& j, const std::string& name) {
  const json* e = fit_parameter(j, name);
  if (e == nullptr) return std::nullopt;
  const auto se = e->find("std_error");
  if (se == e->end() || !se->is_number() || !std::isfinite(se->get<double>())) return std::nullopt;
  return se->get<double>();
}

/// kT's standard error [1/K]; InputError naming "parameters: kT" if it was held at 0 as
/// undetermined or has no finite standard error: nothing to start the adaptation from.
double kT_std_error(const json& j, const std::string& file) {
  const json* e = fit_parameter(j, "kT");
  if (e != nullptr && e->value("undetermined", false))
    detail::fail_file(file, "parameters: kT",
                      "undetermined (held at 0: the record's temperature hardly varies): record "
                      "a run from a cold start until warm and fit again");
  const auto se = slope_std_error(j, "kT");
  if (!se)
    detail::fail_file(file, "parameters: kT",
                      "no finite std_error, which the adaptive estimator's initial variance of kT "
                      "needs");
  return *se;
}

}  // namespace

TemperatureFit parse_temperature_fit(std::string_view text, const std::string& file) {
  const json j = detail::parse_json_text(text, file);
  const std::string what = "a joint_fit.json of fit-joint with --temperature-law";
  if (!j.is_object())
    throw InputError(file, 0, 0, "expected " + what + ", got " + detail::type_of(j));
  const auto fmt = j.find("format");
  if (fmt == j.end() || *fmt != "frictionlab-joint-fit") {
    // the file's kind when it is another of frictionlab's documents (a fit.json, ...)
    const detail::JsonKind kind = detail::json_kind(j);
    fail_key(file, "format",
             "expected \"frictionlab-joint-fit\" (" + what + "), got " +
                 (fmt == j.end() ? std::string("none") : fmt->dump()) +
                 (kind == detail::JsonKind::unknown ? "" : ": this is " + detail::describe(kind)));
  }
  check_version(j, file, "joint_fit.json");
  const json& joint = member(j, file, "joint");
  if (!joint.is_object() || !joint.contains("temperature"))
    detail::fail_file(file, "joint: temperature",
                      "missing: this joint fit has no temperature law (fit-joint --method idim "
                      "--temperature COLUMN --temperature-law linear|exponential fits one)");
  const JointFile jf = joint_from_json(joint, file);
  return TemperatureFit{file, *jf.model.temperature, kT_std_error(j, file),
                        slope_std_error(j, "kT_v")};
}

TemperatureFit read_temperature_fit(const std::string& path) {
  return parse_temperature_fit(
      read_text_file(path, "a joint_fit.json fitted with a temperature law"), path);
}

void check_temperature_seed(bool adaptive, bool temperature,
                            std::optional<double> temperature_ref) {
  if (temperature && !adaptive)
    throw std::invalid_argument(
        "--temperature (Python temperature=) seeds the adaptive estimator's kT: it needs "
        "--adaptive (adaptive=True)");
  if (temperature_ref && !temperature)
    throw std::invalid_argument(
        "--temperature-ref (Python temperature_ref=) is the temperature of the --params levels "
        "for a --temperature fit (temperature=): give --temperature too");
  if (temperature_ref && !std::isfinite(*temperature_ref))
    throw std::invalid_argument(
        "--temperature-ref (Python temperature_ref=) must be a finite temperature [degC], got " +
        format_number(*temperature_ref));
}

FrictionSource read_friction_source(const std::string& path, const std::string& joint,
                                    JointOption other, JointDependences dependences) {
  return parse_friction_source(
      read_text_file(
          path, "a fit.json, joint_fit.json, robot_fit.json, ESTIMATOR.json or MODEL.json file"),
      path, joint, other, dependences);
}

std::vector<std::string> joint_fit_notes(const FrictionSource& s, ExportTarget target) {
  std::vector<std::string> notes;
  const bool mj = target == ExportTarget::mujoco;
  // What the target does with the joint's rigid-body terms (the friction is the export itself).
  const std::string left = target == ExportTarget::estimator
                               ? "the estimator subtracts the friction only, its torque Km i - F "
                                 "still contains "
                               : "the LUGRE group holds the friction only, without ";
  if (s.kind == "robot_fit.json" && !mj)
    notes.push_back(
        "the arm's rigid-body torques (inertia, gravity and coupling: the fit's base "
        "parameters): " +
        left + "them");
  if (!s.joint) return notes;
  const sim::JointModel& m = *s.joint;
  notes.push_back(
      "inertia I = " + format_exact(m.I) + " kg m^2 (link and rotor about the axis): " +
      (mj ? std::string("MuJoCo takes the link's inertia from the bodies and adds the joint's "
                        "armature, which is the rotor's reflected inertia alone; the joint fit "
                        "does not separate the two, so no armature is written (set armature = I "
                        "minus the model's own inertia about the axis)")
          : left + "I qdd"));
  if (m.structure.gravity) {
    const double mgc = std::hypot(m.mgCx, m.mgCy);
    notes.push_back(
        "gravity mgCx = " + format_exact(m.mgCx) + ", mgCy = " + format_exact(m.mgCy) +
        " N m (m g c = " + format_number(mgc) + " N m): " +
        (mj ? std::string("MuJoCo computes gravity from the bodies' masses and centres of mass; "
                          "not written (compare the model's m g c with this)")
            : left + "mgCx cos(q) - mgCy sin(q)"));
  }
  if (m.structure.offset)
    notes.push_back(
        "torque offset " + format_exact(m.offset) + " N m (a bias of the recorded torque): " +
        (mj ? std::string("not a torque on the joint; not written") : left + "the offset"));
  return notes;
}

estimator::EstimatorParams<double> estimator_params(const FrictionSource& s,
                                                    const EstimatorOverrides& o,
                                                    std::vector<std::string>* warnings) {
  const auto* lugre = std::get_if<LuGre<double>::Params>(&s.spec);
  if (!lugre)
    throw InputError(s.file, 0, 0,
                     "the estimator needs a lugre model, got '" + model_name(s.spec) + "' (" +
                         s.kind +
                         (s.joint ? ", method " + s.method +
                                        "; fit-joint --method sr3 or oe --init sr3 fits a LuGre "
                                        "friction)"
                                  : std::string(")")));
  estimator::EstimatorParams<double> p;
  p.friction = *lugre;
  if (o.Km) {
    p.Km = *o.Km;
  } else if (s.Km) {
    p.Km = *s.Km;
  } else {
    throw InputError(s.file, 0, 0,
                     "no Km in this " + s.kind +
                         " (only a --problem sensorless fit.json and an "
                         "ESTIMATOR.json have one): give the torque constant with --km");
  }
  p.hold = o.hold ? *o.hold : (s.hold ? *s.hold : Hold::linear);
  // The model was checked when read; what is left are Km and the hold.
  const auto issues = estimator::check(p);
  std::string errors, first;
  for (const auto& i : issues) {
    if (i.warning) continue;
    const std::string d = InputError::parameter_detail(i.param, i.message);
    if (first.empty()) {
      first = i.param;
      errors = d;
    } else {
      errors += "\n" + InputError::format(s.file, 0, 0, d);
    }
  }
  if (!first.empty()) throw InputError(s.file, 0, 0, errors).with_param(first);
  if (warnings) {
    for (const auto& w : s.warnings) warnings->push_back(w);
    for (const auto& i : issues)
      if (i.warning && i.param == "Km")
        warnings->push_back(s.file + ": parameter 'Km': " + i.message);
  }
  return p;
}

estimator::EstimatorParams<double> read_estimator_params(const std::string& path) {
  return estimator_params(read_friction_source(path), {});
}

nlohmann::ordered_json estimator_to_json(const estimator::EstimatorParams<double>& p,
                                         const std::string& source) {
  nlohmann::ordered_json j;
  j["format"] = "frictionlab-estimator";
  j["version"] = 1;
  j["source"] = source;
  j["Km"] = p.Km;
  j["hold"] = hold_name(p.hold);
  j["friction"] = to_json(ModelSpec{p.friction});
  return j;
}

std::string estimator_json_text(const estimator::EstimatorParams<double>& p,
                                const std::string& source) {
  return estimator_to_json(p, source).dump(2) + "\n";
}

// ---- C code -------------------------------------------------------------------------------------

bool is_c_identifier(const std::string& name) {
  static const std::array<const char*, 44> keywords = {
      "auto",           "break",        "case",     "char",    "const",    "continue",
      "default",        "do",           "double",   "else",    "enum",     "extern",
      "float",          "for",          "goto",     "if",      "inline",   "int",
      "long",           "register",     "restrict", "return",  "short",    "signed",
      "sizeof",         "static",       "struct",   "switch",  "typedef",  "union",
      "unsigned",       "void",         "volatile", "while",   "_Bool",    "_Complex",
      "_Imaginary",     "_Alignas",     "_Alignof", "_Atomic", "_Generic", "_Noreturn",
      "_Static_assert", "_Thread_local"};
  if (name.empty()) return false;
  const auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!alpha(name[0])) return false;
  for (char c : name)
    if (!alpha(c) && !digit(c)) return false;
  return std::none_of(keywords.begin(), keywords.end(), [&](const char* k) { return name == k; });
}

namespace {

using detail::c_literal;

using detail::replace_all;  // text.hpp

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

// The generated header. @N@ name, @NU@ NAME, @T@ scalar type, @ZMAX@ bound, @SRC@ source,
// @PARAMS@ the parameter list as comment lines.
constexpr const char* kHeader =
    R"(/* @N@.h: the sensorless torque estimator of one joint, generated by `frictionlab export c`
 * from @SRC@ (docs/estimator.md). Do not edit: regenerate from the parameter file.
 *
 *   tau = Km*i - F,  F = sigma0*z + sigma1(v)*dz/dt + sigma2*v,  dz/dt = v - sigma0*|v|/g(v)*z
 *
 * with the parameters baked into @N@.c:
@PARAMS@ *
 * z is advanced exactly over the actual elapsed time (stable for any sigma0 and period). Every
 * function is allocation-free; the state is two @T@s owned by the caller (one per joint).
 * Units: Nm, rad, rad/s, A, s (as the parameter file). Link with libm.
 *
 *   @N@_state s;
 *   @N@_reset(&s, 0, v0);                               // at start-up, from the velocity now
 *   @N@_output o = @N@_step(&s, i, v, dt, 0);          // every cycle
 *   if (o.ok) use(o.torque);
 */
#ifndef @NU@_H
#define @NU@_H

#ifdef __cplusplus
extern "C" {
#endif

/* Invariant bound on |z| [rad]: max(Fc, Fs) / sigma0. */
#define @NU@_Z_MAX @ZMAX@

typedef struct @N@_state {
  @T@ z;      /* bristle deflection [rad] */
  @T@ v_prev; /* velocity of the previous cycle [rad/s] */
} @N@_state;

typedef struct @N@_output {
  @T@ friction; /* F [Nm] */
  @T@ torque;   /* Km*i - F [Nm] */
  @T@ z;        /* bristle deflection after the step [rad] */
  int ok;       /* 0: an input was not finite or dt < 0; state unchanged, outputs 0 */
} @N@_output;

/* Set z (projected onto [-@NU@_Z_MAX, @NU@_Z_MAX]) and the velocity the next step starts from. */
void @N@_reset(@N@_state* s, @T@ z, @T@ v_prev);

/* One cycle: current [A], velocity [rad/s] measured now, dt [s] since the previous cycle (>= 0),
 * correction [rad/s] added to dz/dt (observer innovation; 0: none). */
@N@_output @N@_step(@N@_state* s, @T@ current, @T@ velocity, @T@ dt, @T@ correction);

/* One cycle with the position increment dx [rad] since the previous cycle: z advances over |dx|. */
@N@_output @N@_step_displacement(@N@_state* s, @T@ current, @T@ dx, @T@ dt, @T@ correction);

/* 0 if the baked parameters pass the checks of fl_estimator_*_init (they did when exported),
 * else the FL_ESTIMATOR_BAD_* code of the first invalid one. */
int @N@_check(void);
@ADAPTIVE_DECL@
#ifdef __cplusplus
}
#endif

#endif /* @NU@_H */
)";

constexpr const char* kSourceHead =
    R"(/* @N@.c: generated by `frictionlab export c` from @SRC@ (see @N@.h). Do not edit. */
#include "@N@.h"

#define FL_REAL @T@
#define FL_LIT(x) @LIT@
#define FL_EXP exp@S@
#define FL_EXPM1 expm1@S@
#define FL_POW pow@S@
#define FL_FABS fabs@S@
#define FL_CEIL ceil@S@
#define FL_PARAMS @N@_params_t

@PARAMS_TYPE_SOURCE@/* ---- the estimator's C implementation (frictionlab src/estimator/fl_estimator_impl.h) ---- */
)";

constexpr const char* kSourceTail = R"(
/* ---- the parameters of @SRC@ ---- */
static const @N@_params_t @N@_params = {
@VALUES@};

void @N@_reset(@N@_state* s, @T@ z, @T@ v_prev) {
  s->z = fl_clamp(z, -@NU@_Z_MAX, @NU@_Z_MAX);
  s->v_prev = v_prev;
}

@N@_output @N@_step(@N@_state* s, @T@ current, @T@ velocity, @T@ dt, @T@ correction) {
  @N@_output o;
  o.ok = fl_cycle_velocity(&@N@_params, @NU@_Z_MAX, &s->z, &s->v_prev, current, velocity, dt,
                           correction, &o.friction, &o.torque);
  o.z = s->z;
  return o;
}

@N@_output @N@_step_displacement(@N@_state* s, @T@ current, @T@ dx, @T@ dt, @T@ correction) {
  @N@_output o;
  o.ok = fl_cycle_displacement(&@N@_params, @NU@_Z_MAX, &s->z, &s->v_prev, current, dx, dt,
                               correction, &o.friction, &o.torque);
  o.z = s->z;
  return o;
}

int @N@_check(void) { return fl_check(&@N@_params); }
@ADAPTIVE_CODE@)";

/// The baked parameters' type: in the source, or in the header where the adaptive estimator's
/// state (which holds a copy) needs it.
constexpr const char* kParamsType = R"(typedef struct @N@_params_t {
  @T@ Km, sigma0, sigma1, sigma2, Fc_pos, Fc_neg, Fs_pos, Fs_neg, vs, alpha, vd;
  int shape; /* 0 exponential, 1 rational */
  int hold;  /* 0 zoh, 1 linear */
} @N@_params_t;

)";

}  // namespace

CCode estimator_c_code(const estimator::EstimatorParams<double>& p, const std::string& name,
                       bool single, const std::string& source,
                       const std::vector<std::string>& notes, const AdaptiveStart* adaptive) {
  if (!is_c_identifier(name))
    throw std::invalid_argument("'" + name +
                                "' is not a C identifier (letters, digits and _, "
                                "not starting with a digit, not a keyword)");
  if (has_errors(estimator::check(p)))
    throw std::invalid_argument(estimator::error_text(estimator::check(p)));
  // The bound as the target computes it (same rounding as fl_bound / LuGre::state_bound).
  double zmax = 0;
  if (single)
    zmax = static_cast<double>(estimator::make_estimator<float>(p).state_bound());
  else
    zmax = estimator::make_estimator<double>(p).state_bound();
  const auto& f = p.friction;
  const auto& c = f.curve;
  struct Row {
    const char* field;
    double value;
    const char* doc;
  };
  const Row rows[] = {
      {"Km", p.Km, "torque constant [Nm/A]"},
      {"sigma0", f.sigma0, "bristle stiffness [Nm/rad] (S0)"},
      {"sigma1", f.sigma1, "bristle damping [Nm s/rad] (S1)"},
      {"sigma2", f.sigma2, "viscous coefficient [Nm s/rad] (Kw)"},
      {"Fc_pos", c.Fc_pos, "Coulomb level, v > 0 [Nm]"},
      {"Fc_neg", c.Fc_neg, "Coulomb level, v < 0 [Nm]"},
      {"Fs_pos", c.Fs_pos, "static level, v > 0 [Nm]"},
      {"Fs_neg", c.Fs_neg, "static level, v < 0 [Nm]"},
      {"vs", c.vs, "Stribeck velocity [rad/s] (Vth)"},
      {"alpha", c.alpha, "Stribeck exponent [-]"},
      {"vd", f.vd, "damping decay velocity [rad/s] (0: constant sigma1)"},
  };
  std::string params, values;
  for (const Row& r : rows) {
    params += " *   " + std::string(r.field) + " = " + format_exact(r.value) + "  " + r.doc + "\n";
    values += "    " + c_literal(r.value, single) + ", /* " + r.field + " */\n";
  }
  const bool rational = c.shape == StribeckShape::rational;
  params += std::string(" *   shape = ") +
            (rational ? "rational 1/(1 + r^alpha)" : "exponential exp(-r^alpha)") +
            ", hold = " + hold_name(p.hold) +
            (p.hold == Hold::linear ? " (velocity linear between cycles)\n"
                                    : " (velocity held between cycles)\n");
  values += std::string("    ") + (rational ? "1" : "0") + ", /* shape */\n";
  values += std::string("    ") + (p.hold == Hold::linear ? "1" : "0") + "  /* hold */\n";
  params += std::string(" *   precision: ") + (single ? "float" : "double") + "\n";
  if (!notes.empty()) {
    params += " *\n * Not represented (" + source + " holds more than the friction):\n";
    // A note is one line of the comment; "*/" cannot occur in it (values and fixed words).
    for (const auto& n : notes) params += " *   - " + n + "\n";
  }

  auto fill = [&](std::string s) {
    replace_all(s, "@PARAMS@", params);
    replace_all(s, "@VALUES@", values);
    replace_all(s, "@SRC@", source);
    replace_all(s, "@NU@", upper(name));
    replace_all(s, "@N@", name);
    replace_all(s, "@T@", single ? "float" : "double");
    replace_all(s, "@S@", single ? "f" : "");
    replace_all(s, "@LIT@", single ? "x##f" : "x");
    replace_all(s, "@ZMAX@", c_literal(zmax, single));
    return s;
  };
  const detail::AdaptiveCCode ad =
      adaptive != nullptr ? detail::adaptive_c_code(*adaptive, single) : detail::AdaptiveCCode{};
  const std::string params_type = fill(kParamsType);
  CCode out;
  out.header = fill(kHeader);
  replace_all(out.header, "@ADAPTIVE_DECL@",
              adaptive != nullptr ? "\n" + params_type + fill(ad.declarations) : "");
  out.source = fill(kSourceHead) + kEstimatorImplC + fill(kSourceTail);
  replace_all(out.source, "@PARAMS_TYPE_SOURCE@", adaptive != nullptr ? "" : params_type);
  replace_all(out.source, "@ADAPTIVE_CODE@", adaptive != nullptr ? fill(ad.code) : "");
  return out;
}

}  // namespace frictionlab::io
