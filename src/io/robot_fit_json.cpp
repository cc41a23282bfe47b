// frictionlab io: robot_fit.json (io/robot_fit_json.hpp).
#include "frictionlab/io/robot_fit_json.hpp"

#include <cmath>

#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/verdict_json.hpp"

namespace frictionlab::io {

namespace {

nlohmann::ordered_json per_joint(const std::vector<std::string>& joints,
                                 const std::vector<double>& values) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (std::size_t j = 0; j < joints.size() && j < values.size(); ++j) o[joints[j]] = values[j];
  return o;
}

nlohmann::ordered_json parameter_json(const identify::RobotParameter& p) {
  nlohmann::ordered_json terms = nlohmann::ordered_json::array();
  for (const auto& [name, c] : p.terms) terms.push_back({name, c});
  return {{"name", p.name},
          {"expression", p.expression},
          {"terms", terms},
          {"unit", p.unit},
          {"value", p.value},
          {"std_error", p.std_error},
          {"relative_std_error_percent", finite_or_null(p.relative_std_error_percent)},
          {"poorly_determined", p.poorly_determined}};
}

/// "friction": the model per joint; with one of the registry, each joint's fit.json object.
nlohmann::ordered_json friction_json(const workflows::FitRobotOutcome& o) {
  nlohmann::ordered_json f = {{"model", o.friction_model}};
  const identify::RobotFitResult& r = o.result;
  if (r.load_rounds > 0)
    f["load_dependent"] = {
        {"rounds", r.load_rounds}, {"converged", r.load_converged}, {"notes", r.load_notes}};
  if (!o.friction) return f;
  f["rounds"] = o.friction->rounds;
  f["converged"] = o.friction->converged;
  f["linear_relative_error_percent"] = o.friction->linear_relative_error_percent;
  f["joints"] = nlohmann::ordered_json::object();
  for (std::size_t j = 0; j < o.joints.size(); ++j)
    f["joints"][o.joints[j]] = fit_to_json(o.friction->friction[j], "joint " + o.joints[j], {});
  return f;
}

/// "drive_gains": null, or the gains identified with a loaded record (fit_robot_gains).
nlohmann::ordered_json gains_json(const workflows::FitRobotOutcome& o) {
  if (o.drive_gains.empty()) return nullptr;
  nlohmann::ordered_json g = {{"loaded_record", o.loaded_source},
                              {"payload_mass", o.payload_mass},
                              {"gains", nlohmann::ordered_json::array()},
                              {"least_squares", nlohmann::ordered_json::array()},
                              {"payload", nlohmann::ordered_json::array()}};
  for (const auto& k : o.drive_gains) g["gains"].push_back(parameter_json(k));
  for (const auto& k : o.least_squares_gains) g["least_squares"].push_back(parameter_json(k));
  for (const auto& p : o.payload) g["payload"].push_back(parameter_json(p));
  return g;
}

/// "consistent": null, or the consistent inertials per joint's link and their figures.
nlohmann::ordered_json consistent_json(const workflows::FitRobotOutcome& o) {
  if (!o.consistent) return nullptr;
  const identify::ConsistentResult& c = *o.consistent;
  nlohmann::ordered_json links = nlohmann::ordered_json::object();
  for (std::size_t j = 0; j < o.joints.size() && j < c.links.size(); ++j) {
    const robot::Inertial& b = c.links[j];
    nlohmann::ordered_json I = nlohmann::ordered_json::array();
    for (int r = 0; r < 3; ++r) I.push_back({b.inertia(r, 0), b.inertia(r, 1), b.inertia(r, 2)});
    links[o.joints[j]] = {
        {"mass", b.mass}, {"com", {b.com.x(), b.com.y(), b.com.z()}}, {"inertia", I}};
  }
  return {
      {"distance", c.distance},   {"relative_error_percent", o.consistent_relative_error_percent},
      {"converged", c.converged}, {"undetermined", c.undetermined},
      {"base", c.base},           {"links", links}};
}

/// "report": the training record's measured and predicted torque per joint, in the form of the
/// report's zoomable time plot ({"t", "xlabel", "panels": [{"label", "series"}]}).
nlohmann::ordered_json report_json(const workflows::FitRobotOutcome& o) {
  nlohmann::ordered_json panels = nlohmann::ordered_json::array();
  for (std::size_t j = 0; j < o.joints.size() && j < o.report_measured.size(); ++j)
    panels.push_back({{"label", o.joints[j] + " torque [N m]"},
                      {"series",
                       {{{"name", "measured"}, {"y", o.report_measured[j]}},
                        {{"name", "predicted"}, {"y", o.report_predicted[j]}}}}});
  return {{"t", o.report_t}, {"xlabel", "time [s]"}, {"panels", panels}};
}

}  // namespace

nlohmann::ordered_json robot_fit_to_json(const workflows::FitRobotOutcome& o,
                                         const std::string& robot_file,
                                         const std::string& record_file) {
  const identify::RobotFitResult& r = o.result;
  nlohmann::ordered_json j;
  j["format"] = "frictionlab-robot-fit";
  j["version"] = 1;
  j["robot"] = robot_file;
  j["record"] = record_file;
  j["joints"] = o.joints;
  j["samples"] = r.samples;
  j["preprocessing"] = o.preprocessing;
  j["lowpass_hz"] = o.lowpass_hz;
  j["standard_parameters"] = r.standard_parameters;
  j["rank"] = r.rank;
  j["condition_number"] = finite_or_null(r.condition_number);
  j["relative_error_percent"] = r.relative_error_percent;
  j["rms_error"] = per_joint(o.joints, r.rms_error);
  j["sigma"] = per_joint(o.joints, r.sigma);
  j["parameters"] = nlohmann::ordered_json::array();
  for (const auto& p : r.parameters) j["parameters"].push_back(parameter_json(p));
  j["friction"] = friction_json(o);
  j["drive_gains"] = gains_json(o);
  j["consistent"] = consistent_json(o);
  j["validation"] = nlohmann::ordered_json::array();
  for (const auto& v : o.validation)
    j["validation"].push_back({{"record", v.source},
                               {"samples", v.prediction.samples},
                               {"relative_error_percent", v.prediction.relative_error_percent},
                               {"rms_error", per_joint(o.joints, v.prediction.rms_error)}});
  j["flags"] = r.flags;
  j["verdict"] = verdict_to_json(o.verdict);
  j["seconds"] = o.seconds;
  j["report"] = report_json(o);
  return j;
}

}  // namespace frictionlab::io
