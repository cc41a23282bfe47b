// frictionlab io: export of a fitted servo actuator (include/frictionlab/io/actuator_export.hpp).
#include "frictionlab/io/actuator_export.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "json_fields.hpp"
#include "mujoco_text.hpp"

namespace frictionlab::io {
namespace {

using detail::json;
using detail::JsonKind;

/// The parameter file a summary.json recommends: models[i].params_file of the model named by
/// "recommended", beside the summary.
std::string recommended_params_file(const json& summary, const std::string& file) {
  const json& rec = detail::member(summary, file, "recommended");
  if (rec.is_null())
    detail::fail_key(file, "recommended",
                     "none: no fitted model has a finite error (its \"reason\" says why)");
  if (!rec.is_string())
    detail::fail_key(file, "recommended", "expected a string, got " + detail::type_of(rec));
  const std::string name = rec.get<std::string>();
  const json& models = detail::member(summary, file, "models");
  if (!models.is_array())
    detail::fail_key(file, "models", "expected an array, got " + detail::type_of(models));
  for (const json& m : models) {
    if (!m.is_object() || !m.contains("model") || m.at("model") != name) continue;
    if (!m.contains("params_file") || !m.at("params_file").is_string())
      detail::fail_key(file, "models",
                       "the recommended model '" + name + "' has no \"params_file\" string");
    return detail::path_beside(file, m.at("params_file").get<std::string>());
  }
  detail::fail_key(file, "recommended", "'" + name + "' is not one of the models of \"models\"");
}

bool positive_finite(double x) { return std::isfinite(x) && x > 0; }

/// "name = value" list of the non-zero coefficients among `keys` (BAM keys, written with their
/// symbols), e.g. "Kl = 0.12, Kls = 0.07"; empty when all are zero.
std::string nonzero_list(const sim::ServoParams& p, std::initializer_list<const char*> keys,
                         const char* unit = "") {
  std::string out;
  for (const char* k : keys) {
    const double x = sim::servo_param(p, k);
    if (x == 0) continue;
    out += (out.empty() ? "" : ", ") + std::string(sim::servo_param_symbol(k)) + " = " +
           format_exact(x) + unit;
  }
  return out;
}

}  // namespace

bool is_actuator_source(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return true;
  try {
    const json j = detail::parse_json_text(read_text_file(path), path);
    const JsonKind k = detail::json_kind(j);
    return k == JsonKind::servo_params || k == JsonKind::actuator_summary;
  } catch (const InputError&) {
    return false;
  }
}

ActuatorSource read_actuator_source(const std::string& path) {
  std::error_code ec;
  std::string file = path;
  if (std::filesystem::is_directory(path, ec)) {
    file = (std::filesystem::path(path) / "summary.json").string();
    if (!std::filesystem::is_regular_file(file, ec))
      throw InputError(path, 0, 0,
                       "no summary.json in this directory (fit-actuator writes one into --out); "
                       "name a parameter file (m1.json .. m6.json) instead");
  }
  const json j =
      detail::parse_json_text(read_text_file(file, "a parameter file or summary.json"), file);
  ActuatorSource s;
  if (detail::json_kind(j) == JsonKind::actuator_summary) {
    s.named_by = file;
    s.file = recommended_params_file(j, file);
  } else {
    detail::require_kind(j, file, {JsonKind::servo_params, JsonKind::actuator_summary});
    s.file = file;
  }
  s.setup = read_servo_params(s.file);
  return s;
}

std::pair<double, double> parse_ctrlrange(const std::string& text) {
  const auto colon = text.find(':', 1);  // (a leading '-' or ':' is not the separator)
  std::optional<double> lo, hi;
  if (colon != std::string::npos) {
    lo = parse_number(std::string_view(text).substr(0, colon));
    hi = parse_number(std::string_view(text).substr(colon + 1));
  }
  if (!lo || !hi || !(*lo < *hi))
    throw std::invalid_argument("--ctrlrange: expected LO:HI with LO < HI [rad], got '" + text +
                                "'");
  return {*lo, *hi};
}

ActuatorMujocoValues actuator_mujoco_values(const sim::ServoSetup& s, double kp, double vin) {
  if (!positive_finite(kp))
    throw std::invalid_argument("--kp must be > 0 (the firmware's kp register value), got " +
                                format_exact(kp));
  if (!positive_finite(vin))
    throw std::invalid_argument("--vin must be > 0 [V], got " + format_exact(vin));
  const sim::ServoConstants& c = s.actuator.constants;
  const sim::ServoParams& p = s.params;
  ActuatorMujocoValues v;
  v.armature = p.armature;
  v.frictionloss = p.friction.Kc;
  v.viscous = p.friction.Kv;
  v.vin = vin;
  if (c.drive == sim::ServoDrive::voltage) {
    const double per_volt = p.kt / p.R;  // stall torque per volt [Nm/V]
    v.back_emf = p.kt * p.kt / p.R;
    v.torque_gain = per_volt * vin * kp * c.error_gain;
    v.stall_torque = per_volt * vin * c.max_pwm;
    v.vmax = vin * c.max_pwm;
    v.saturation_current = c.max_current;
  } else {
    v.back_emf = 0;
    v.torque_gain = p.kt * kp * c.error_gain;
    v.stall_torque = p.kt * p.current_limit;
    v.vmax = vin;
    v.saturation_current = p.current_limit;
  }
  return v;
}

namespace {

/// The note on a fit's temperature law (docs/actuators.md, "Temperature-dependent friction"):
/// `who` ("MuJoCo's frictionloss and damping are") has none, so the friction at T_ref is kept.
std::string temperature_note(const TemperatureDependence<double>& t, const std::string& who) {
  return "the friction's " + std::string(temperature_law_name(t.law)) +
         " temperature law (kT = " + format_exact(t.kT) + " 1/K, kT_v = " + format_exact(t.kT_v) +
         " 1/K): " + who + " independent of the temperature; the friction exported is that at " +
         "T_ref = " + format_exact(t.T_ref) + " degC";
}

/// A firmware law beyond P (pd or pid) with its gains, as the export notes name it:
/// "law 'pid', kd_gain = 0.01 s, ki_gain = 2 1/s".
std::string law_gains(const sim::ServoConstants& c) {
  return std::string("law '") + (c.law == sim::ServoLaw::pd ? "pd" : "pid") +
         "', kd_gain = " + format_exact(c.kd_gain) + " s" +
         (c.law == sim::ServoLaw::pid ? ", ki_gain = " + format_exact(c.ki_gain) + " 1/s"
                                      : std::string());
}

}  // namespace

std::vector<std::string> actuator_mujoco_notes(const sim::ServoSetup& s,
                                               const ActuatorMujocoValues& v,
                                               ActuatorMujocoForm form) {
  const sim::ServoConstants& c = s.actuator.constants;
  const sim::ServoParams& p = s.params;
  const auto& f = p.friction;
  const ActuatorModel m = p.model;
  const double S = v.stall_torque;
  std::vector<std::string> notes;
  const std::string frictionloss_is =
      "MuJoCo's frictionloss is one constant level (Kc) that does not depend on the speed or "
      "the transmitted torque";

  if (sim::model_has_stribeck(m) && f.Kcs != 0)
    notes.push_back("Stribeck term Kcs exp(-|v/vs|^alpha) (Kcs = " + format_exact(f.Kcs) +
                    " Nm, vs = " + format_exact(f.vs) + " rad/s, alpha = " + format_exact(f.alpha) +
                    "): " + frictionloss_is + "; up to " + format_number(f.Kcs) +
                    " Nm of extra friction at rest is lost (the dcmotor's LuGre friction has a "
                    "Stribeck curve, but also bristle dynamics whose stiffness the M1..M6 fits do "
                    "not identify)");
  if (m == ActuatorModel::M3 || m == ActuatorModel::M4) {
    const std::string list = nonzero_list(p, {"load_friction_base", "load_friction_stribeck"});
    if (!list.empty())
      notes.push_back("load-dependent friction Kl |tau_m - tau_e|" +
                      std::string(m == ActuatorModel::M4 ? " + s(v) Kls |tau_m - tau_e|" : "") +
                      " (" + list + "): " + frictionloss_is + "; lost, up to " +
                      format_number((f.Kl + (m == ActuatorModel::M4 ? f.Kls : 0.0)) * S) +
                      " Nm at the stall torque " + format_number(S) + " Nm without load");
  }
  if (m == ActuatorModel::M5 || m == ActuatorModel::M6) {
    const std::string list =
        nonzero_list(p, {"load_friction_motor", "load_friction_external",
                         "load_friction_motor_stribeck", "load_friction_external_stribeck"});
    if (!list.empty())
      notes.push_back(
          "load-dependent friction |Km tau_m - Ke tau_e| + s(v) |Kms tau_m - Kes "
          "tau_e| (" +
          list + "): " + frictionloss_is + "; lost, " + format_number((f.Km + f.Kms) * S) +
          " Nm at the stall torque " + format_number(S) + " Nm without load");
    const std::string quad =
        m == ActuatorModel::M6
            ? nonzero_list(p, {"load_friction_motor_quad", "load_friction_external_quad"}, " 1/Nm")
            : std::string();
    if (!quad.empty())
      notes.push_back("quadratic load friction s(v) (Kmq tau_m^2 or Keq tau_e^2) (" + quad +
                      "): " + frictionloss_is + "; lost, up to " +
                      format_number(std::max(f.Kmq, f.Keq) * S * S) +
                      " Nm for torques up to the stall torque " + format_number(S) + " Nm");
  }
  if (p.temperature)
    notes.push_back(temperature_note(*p.temperature, "MuJoCo's frictionloss and damping are"));
  if (p.q_offset != 0)
    notes.push_back("q_offset = " + format_exact(p.q_offset) +
                    " rad: the fit's test-bench zero error (it shifts the bench's gravity torque), "
                    "not a property of the servo; not exported");

  const bool position = form == ActuatorMujocoForm::position;
  if (c.drive == sim::ServoDrive::voltage && c.max_current > 0) {
    if (position)
      notes.push_back("the firmware's current-limit window |(V - kt qd)/R| <= max_current = " +
                      format_exact(c.max_current) +
                      " A: the position actuator clamps the torque kp (ctrl - q) only; motor "
                      "torques beyond kt max_current = " +
                      format_number(p.kt * c.max_current) +
                      " Nm are not limited (the dcmotor form has this limit)");
    else
      notes.push_back(
          "the current-limit window: the firmware clamps the current before the PWM "
          "limit, MuJoCo's dcmotor after it; they differ only where the two windows "
          "do not overlap, |qd| > (vin max_pwm + R max_current)/kt = " +
          format_number((v.vmax + p.R * c.max_current) / p.kt) + " rad/s");
  }
  if (c.law != sim::ServoLaw::p)
    notes.push_back(std::string("the firmware's ") +
                    (c.law == sim::ServoLaw::pd ? "derivative" : "derivative and integral") +
                    " terms (" + law_gains(c) +
                    "): the exported actuator is the proportional loop at --kp only");
  if (c.deadband > 0)
    notes.push_back("the firmware's deadband |e| < " + format_exact(c.deadband) +
                    " rad (no output): MuJoCo's position actuator has none");
  if (c.period > 0)
    notes.push_back("the firmware's control period " + format_exact(c.period) +
                    " s (output held between updates): MuJoCo computes the actuator force at "
                    "every one of its own time steps");
  if (c.drive == sim::ServoDrive::current && position)
    notes.push_back(
        "the supply-voltage window of a current drive, |R i + kt qd| <= vin: the "
        "position actuator clamps at the current limit only; the current available "
        "falls below current_limit = " +
        format_exact(p.current_limit) + " A from |qd| > (vin - R current_limit)/kt = " +
        format_number(std::max(0.0, (v.vin - p.R * p.current_limit) / p.kt)) +
        " rad/s (the dcmotor form has this window)");
  return notes;
}

MujocoExport export_actuator_mujoco(const ActuatorSource& source, const ActuatorMujocoOptions& o,
                                    const workflows::Progress& progress) {
  progress.check();
  detail::check_mjcf_name(o.joint);
  if (!o.kp)
    throw std::invalid_argument(
        "--kp is required for an actuator: the firmware's kp register value the model is to run "
        "at (the logs' \"kp\"), which sets the position gain kt/R vin kp error_gain");
  const sim::ServoSetup& s = source.setup;
  const double vin = o.vin ? *o.vin : s.actuator.constants.vin;
  if (!o.vin && !(s.actuator.constants.vin > 0))
    throw std::invalid_argument("--vin is required: " + source.file + " (actuator '" +
                                s.actuator.name + "') gives no supply voltage");
  if (o.ctrlrange && !(std::isfinite(o.ctrlrange->first) && std::isfinite(o.ctrlrange->second) &&
                       o.ctrlrange->first < o.ctrlrange->second))
    throw std::invalid_argument("--ctrlrange: expected LO < HI [rad], got " +
                                format_exact(o.ctrlrange->first) + ", " +
                                format_exact(o.ctrlrange->second));
  const ActuatorMujocoValues v = actuator_mujoco_values(s, *o.kp, vin);
  progress.say("export mujoco: actuator " + source.file + " on joint " + o.joint);
  MujocoExport out;
  out.notes = actuator_mujoco_notes(s, v, o.form);

  const bool voltage = s.actuator.constants.drive == sim::ServoDrive::voltage;
  const bool position = o.form == ActuatorMujocoForm::position;
  const std::string& j = o.joint;
  const std::string at =
      "kp = " + format_exact(*o.kp) + " (register value), vin = " + format_exact(vin) + " V";
  std::string intro = "Merge the attributes into joint '" + j +
                      "' and paste the actuator into the model's\n"
                      "     <actuator> section: the " +
                      std::string(voltage ? "voltage" : "current") + "-driven servo '" +
                      s.actuator.name + "', model " +
                      std::string(sim::actuator_model_name(s.params.model)) +
                      ", under its firmware's P loop at\n     " + at +
                      ". frictionloss is the Coulomb friction Kc (MuJoCo's dry-friction\n"
                      "     constraint), armature the rotor inertia at the joint. ";
  if (position) {
    intro +=
        voltage
            ? "The position actuator's force is\n     kt/R vin kp error_gain (ctrl - q), clamped "
              "at the "
              "stall torque kt/R vin max_pwm; the joint's\n     damping is Kv plus the back-EMF "
              "kt^2/R, "
              "which the PWM clamp does not limit."
            : "The position actuator's force is\n     kt kp error_gain (ctrl - q), clamped at kt "
              "current_limit; damping is Kv.";
  } else {
    intro +=
        "The dcmotor is the motor (resistance R, motorconst kt,\n     no inductance) with its "
        "position controller in torque space: " +
        std::string(voltage ? "kd = kt^2/R cancels the\n     controller's back-EMF "
                              "compensation, so the drive voltage is the firmware's\n     vin kp "
                              "error_gain (ctrl - q), clamped at Vmax = vin max_pwm."
                            : "the torque kt kp error_gain (ctrl - q),\n     its voltage "
                              "clamped at Vmax = vin, the current at current_limit.") +
        " Damping is Kv.\n     Needs MuJoCo's dcmotor actuator with the input signatures "
        "(MuJoCo 3.12 or later).";
  }

  const double damping = position ? v.viscous + v.back_emf : v.viscous;
  std::string body = "<joint name=\"" + j + "\" armature=\"" + format_exact(v.armature) +
                     "\" damping=\"" + format_exact(damping) + "\" frictionloss=\"" +
                     format_exact(v.frictionloss) + "\"/>\n<actuator>\n";
  const std::string ctrl = o.ctrlrange ? " ctrlrange=\"" + format_exact(o.ctrlrange->first) + " " +
                                             format_exact(o.ctrlrange->second) + "\""
                                       : std::string();
  if (position) {
    body += "  <position name=\"" + j + "_servo\" joint=\"" + j + "\" kp=\"" +
            format_exact(v.torque_gain) + "\" forcelimited=\"true\" forcerange=\"" +
            format_exact(-v.stall_torque) + " " + format_exact(v.stall_torque) + "\"" + ctrl +
            "/>\n";
  } else {
    const double kt = s.params.kt;
    body +=
        "  <dcmotor name=\"" + j + "_servo\" joint=\"" + j + "\" resistance=\"" +
        format_exact(s.params.R) + "\" motorconst=\"" + format_exact(kt) + " " + format_exact(kt) +
        "\" input=\"pos\"\n           controller=\"" + format_exact(v.torque_gain) + " 0 " +
        format_exact(v.back_emf) + " 0 0 " + format_exact(v.vmax) + "\"" +
        (v.saturation_current > 0 ? " saturation=\"0 " + format_exact(v.saturation_current) + " 0\""
                                  : std::string()) +
        ctrl + "/>\n";
  }
  body += "</actuator>\n";
  const std::string name =
      source.named_by.empty() ? source.file : source.file + ", recommended by " + source.named_by;
  out.xml = detail::mujoco_comment(name,
                                   "actuator " + s.actuator.name + ", " +
                                       std::string(sim::actuator_model_name(s.params.model)) +
                                       ", " + (position ? "position" : "dcmotor") + " form",
                                   intro, out.notes) +
            body;
  return out;
}

std::vector<std::string> actuator_bam_notes(const sim::ServoSetup& s) {
  const sim::ServoActuator& a = s.actuator;
  const sim::ServoConstants& c = a.constants;
  const bool voltage = c.drive == sim::ServoDrive::voltage;
  // The actuators BAM itself knows by name (docs/actuators.md, "Actuator families":
  // bam/xl330/actuator.py, bam/dynamixel/actuator.py, bam/actuator.py, bam/feetech/actuator.py).
  static constexpr std::string_view kBam[] = {"mx106",      "mx64",  "sts3215",
                                              "xc330m288t", "xl320", "xl330"};
  const bool bam_name = std::find(std::begin(kBam), std::end(kBam), a.name) != std::end(kBam);
  std::string bam_list;
  for (auto n : kBam) bam_list += (bam_list.empty() ? "" : ", ") + std::string(n);
  const std::string constants =
      std::string("drive ") + (voltage ? "voltage" : "current") +
      ", error_gain = " + format_exact(c.error_gain) + (voltage ? " 1/rad" : " A/rad") +
      (voltage ? ", max_pwm = " + format_exact(c.max_pwm) : std::string()) +
      (voltage && c.max_current > 0 ? ", max_current = " + format_exact(c.max_current) + " A"
                                    : std::string()) +
      (c.vin > 0 ? ", vin = " + format_exact(c.vin) + " V" : std::string());
  std::vector<std::string> notes;
  if (a.name == "generic") {
    notes.push_back(
        "actuator 'generic': BAM has no such actuator and does not read the keys "
        "drive, error_gain, max_pwm, max_current, vin (frictionlab's) that carry its "
        "constants (" +
        constants + "); give BAM a family it knows in \"actuator\" (" + bam_list + ")");
  } else if (a.origin != "built in") {
    notes.push_back("actuator '" + a.name + "' described by an ACTUATOR.json (" + a.origin +
                    "): BAM does not read \"actuator_description\" (frictionlab's key), so its "
                    "constants (" +
                    constants + ") are lost; " +
                    (bam_name ? "BAM uses its own family '" + a.name + "' instead"
                              : "BAM has no actuator of this name (BAM's: " + bam_list + ")"));
  } else if (!bam_name) {
    notes.push_back("actuator '" + a.name +
                    "': frictionlab's built-in description; BAM has no "
                    "actuator of this name (BAM's: " +
                    bam_list +
                    ") and the file does not carry "
                    "its constants (" +
                    constants + ")");
  }
  if (c.law != sim::ServoLaw::p)
    notes.push_back(
        std::string("the firmware's ") +
        (c.law == sim::ServoLaw::pd ? "derivative term" : "derivative and integral terms") + " (" +
        law_gains(c) +
        "): BAM's firmware model is the P loop only and does not use the logs' kd, ki");
  if (c.deadband > 0) {
    std::string counts;
    if (a.counts_per_turn > 0) {
      const double n =
          c.deadband * static_cast<double>(a.counts_per_turn) / (2.0 * std::numbers::pi);
      counts = " (" + format_number(n) + " encoder count" + (format_number(n) == "1" ? ")" : "s)");
    }
    notes.push_back("the firmware's deadband |e| < " + format_exact(c.deadband) + " rad" + counts +
                    ", no output inside it: BAM's firmware model has none");
  }
  if (c.period > 0)
    notes.push_back("the firmware's control period " + format_exact(c.period) +
                    " s (output held between updates): BAM computes the control at every "
                    "simulation step");
  if (s.params.temperature)
    notes.push_back(temperature_note(*s.params.temperature, "BAM's friction models are"));
  return notes;
}

ExportText export_actuator_bam(const ActuatorSource& source, const workflows::Progress& progress) {
  progress.check();
  progress.say("export bam: parameter file of " + source.file);
  ExportText r;
  sim::ServoSetup bam = source.setup;
  bam.params.temperature.reset();  // BAM reads no temperature law: the levels at T_ref
  r.text = servo_params_json(bam);
  r.notes = actuator_bam_notes(source.setup);
  return r;
}

}  // namespace frictionlab::io
