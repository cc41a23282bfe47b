// frictionlab io: the report's sections of an actuator fit (fit-actuator's summary.json) and an
// actuator evaluation (eval-actuator's result).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "report_parts.hpp"

namespace frictionlab::io::report {
namespace {

/// A servo log re-simulated: its heading (`info`: "log", "kp", "trajectory") and a zoomable plot
/// of the position `series` (the report's series: "t", "position", "goal_position"): measured,
/// then `simulated` ({"name", "y"} each), then the goal dashed in grey.
std::string servo_log_plot(const oj& info, const oj& series, const oj& simulated,
                           const std::string& id) {
  oj panel = oj::array();
  panel.push_back({{"name", "measured"}, {"y", series.value("position", oj::array())}});
  for (const auto& s : simulated) panel.push_back(s);
  panel.push_back({{"name", "goal"},
                   {"color", "#777777"},
                   {"dash", "5 4"},
                   {"y", series.value("goal_position", oj::array())}});
  oj data;
  data["t"] = series.value("t", oj::array());
  data["xlabel"] = "time [s]";
  data["panels"] = oj::array();
  data["panels"].push_back({{"label", "position [rad]"}, {"series", std::move(panel)}});
  std::string role;  // fit-actuator's logs: the role in the recommended model's fit and its error
  if (series.contains("role"))
    role = ", <span class=\"role\">" + esc(series.value("role", std::string())) + "</span>, MAE " +
           show(series.value("mae", oj())) + " rad (" +
           show(oj(100.0 * series.value("mae", 0.0) / series.value("range", 1.0)), 3) +
           " % of its " + show(series.value("range", oj()), 3) + " rad range)";
  return "<h3 data-role=\"" + esc(series.value("role", std::string())) + "\">Log <code>" +
         esc(info.value("log", std::string())) + "</code> <small>kp " +
         show(info.value("kp", oj())) + ", " + esc(info.value("trajectory", std::string())) + role +
         "</small></h3>\n" + time_plot_box(data, id);
}

/// A model row's parameter count: "n_parameters", or "parameters" when a number (files written
/// before the estimates took that key).
oj parameter_count(const oj& m) {
  if (m.contains("n_parameters")) return m.at("n_parameters");
  const oj p = m.value("parameters", oj());
  return p.is_number() ? p : oj(p.is_array() ? p.size() : 0);
}

/// The recommended model's parameters: its estimates with their units and range-end flags
/// (files written before the estimates: the parameter file's numbers, without units).
std::string recommended_parameters(const oj& models, const oj& rep, const std::string& rec) {
  oj estimates = oj::array();
  std::vector<std::string> at_bound;
  for (const auto& m : models)
    if (m.value("model", std::string()) == rec) {
      if (m.value("parameters", oj()).is_array()) estimates = m.at("parameters");
      for (const auto& b : m.value("at_bound", oj::array()))
        at_bound.push_back(b.get<std::string>());
    }
  if (estimates.empty() && rep.contains("params") && rep.at("params").is_object())
    for (const auto& [key, v] : rep.at("params").items())
      if (v.is_number()) estimates.push_back({{"name", key}, {"unit", ""}, {"value", v}});
  if (estimates.empty()) return "";
  std::string s =
      "<h3>Parameters of " + esc(rec) +
      "</h3>\n<table class=\"parameters\">\n<thead><tr>"
      "<th>parameter</th><th>value</th><th>unit</th><th>flags</th></tr></thead>\n<tbody>\n";
  for (const auto& e : estimates) {
    const std::string key = e.value("name", std::string());
    const bool edge = std::find(at_bound.begin(), at_bound.end(), key) != at_bound.end();
    s += "<tr data-name=\"" + esc(key) + "\"><td class=\"name\">" + esc(key) +
         "</td><td class=\"value num\" data-value=\"" + exact_attr(e.value("value", oj())) + "\">" +
         show(e.value("value", oj()), 6) + "</td><td class=\"unit\">" +
         esc(e.value("unit", std::string())) + "</td><td class=\"flags\">" +
         (edge ? "<span class=\"badge flag\">at the end of its range</span>" : "") + "</td></tr>\n";
  }
  return s + "</tbody>\n</table>\n";
}

}  // namespace

/// fit-actuator's summary.json: the models ranked by their errors, the recommendation and why,
/// the recommended model's parameters, every log re-simulated with it.
std::string actuator_section(const ReportSource& src, const std::string& id) {
  const oj& j = src.result;
  const std::string where = src.name;
  const oj& rep = report_data(j, where, "fit-actuator");
  const auto& models = need(j, where, "models");
  // null when no model has a finite error
  const std::string rec = j.contains("recommended") && j.at("recommended").is_string()
                              ? j.at("recommended").get<std::string>()
                              : std::string();
  const bool validated = j.value("validation", std::string()) != "none";
  std::string s = "<section class=\"fit actuator\" id=\"" + id + "\" data-model=\"" + esc(rec) +
                  "\" data-source=\"" + esc(where) + "\">\n<h2>actuator " +
                  esc(j.value("actuator", std::string())) + " <small>fit-actuator, " +
                  std::to_string(j.value("logs", oj::array()).size()) + " logs, validation " +
                  esc(j.value("validation", std::string())) + " &mdash; " + esc(where) +
                  "</small></h2>\n";
  s += verdict_block(j.value("verdict", oj()));
  bool rec_at_bound = false;
  for (const auto& m : models)
    if (m.value("model", std::string()) == rec && !m.value("at_bound", oj::array()).empty())
      rec_at_bound = true;
  s += "<p class=\"verdict recommendation " +
       std::string(rec_at_bound || rec.empty() ? "warn" : "ok") + "\" data-model=\"" + esc(rec) +
       "\"><b>Recommended: " + esc(rec.empty() ? "none" : rec) + ".</b> " +
       esc(j.value("reason", std::string())) +
       (rec_at_bound ? " Some of its parameters ended at the end of their search range (below)."
                     : "") +
       "</p>\n";
  s += "<table class=\"ranking\">\n<thead><tr><th>model</th><th>parameters</th><th>train MAE "
       "[rad]</th>"
       "<th>validation MAE [rad]</th><th>evaluations</th><th>time [s]</th><th>at the end of its "
       "range</th></tr></thead>\n<tbody>\n";
  for (const auto& m : models) {
    const std::string name = m.value("model", std::string());
    std::string bounds;
    for (const auto& b : m.value("at_bound", oj::array()))
      bounds += (bounds.empty() ? "" : ", ") + esc(b.get<std::string>());
    s += "<tr data-model=\"" + esc(name) + "\"" + (name == rec ? " class=\"recommended\"" : "") +
         "><td>" + esc(name) + "</td><td class=\"num\">" + show(parameter_count(m)) +
         "</td><td class=\"num\" data-value=\"" + exact_attr(m.value("train_mae", oj())) + "\">" +
         show(m.value("train_mae", oj())) + "</td><td class=\"num\" data-value=\"" +
         exact_attr(m.value("validation_mae", oj())) + "\">" +
         (validated ? show(m.value("validation_mae", oj())) : "&ndash;") +
         "</td><td class=\"num\">" + show(m.value("evaluations", oj())) +
         "</td><td class=\"num\">" + show(m.value("seconds", oj()), 3) + "</td><td>" +
         (bounds.empty() ? std::string() : "<span class=\"badge flag\">" + bounds + "</span>") +
         "</td></tr>\n";
  }
  s +=
      "</tbody>\n</table>\n<p class=\"note\">MAE: mean absolute position error of the closed-loop "
      "re-simulation of each log, pooled over all entries of the logs (eval-actuator's mean is the "
      "mean of the per-log MAEs: " +
      show(j.value("train_log_mean", oj())) + " rad on the training logs" +
      (is_num(j.value("validation_log_mean", oj()))
           ? ", " + show(j.value("validation_log_mean", oj())) + " rad on the validation logs"
           : std::string()) +
      " for " + esc(rec) +
      "; docs/actuators.md). "
      "Time: the sum of the wall times of the model's fits. CMA-ES reports no "
      "standard errors: a parameter at the end of its search range is the sign of one the logs do "
      "not "
      "determine.</p>\n";
  s += recommended_parameters(models, rep, rec);
  s += warnings_list(j);
  int k = 0;
  for (const auto& l : rep.value("logs", oj::array())) {
    const oj simulated = oj::array(
        {{{"name", "simulated (" + rec + ")"}, {"y", l.value("simulated", oj::array())}}});
    s += servo_log_plot(l, l, simulated, id + "-time-" + std::to_string(k++));
  }
  s += "</section>\n";
  return s;
}

/// eval-actuator's result: the per-log errors of every parameter set (the lowest per log marked),
/// their means with the best named, every log re-simulated with every set.
std::string actuator_eval_section(const ReportSource& src, const std::string& id) {
  const oj& j = src.result;
  const std::string where = src.name;
  const oj& rep = report_data(j, where, "eval-actuator");
  const oj& logs = need(j, where, "logs");
  const oj& params = need(j, where, "params");
  if (!logs.is_array() || !params.is_array() || params.empty())
    bad(where, "keys 'logs' and 'params': expected arrays, 'params' not empty");
  // null when no parameter set has a finite mean error
  const std::string best = j.contains("best") && j.at("best").is_string()
                               ? j.at("best").get<std::string>()
                               : std::string();
  std::string s = "<section class=\"fit actuator-eval\" id=\"" + id + "\" data-model=\"" +
                  esc(best) + "\" data-source=\"" + esc(where) +
                  "\">\n<h2>actuator evaluation <small>eval-actuator, " +
                  std::to_string(params.size()) +
                  (params.size() == 1 ? " parameter set, " : " parameter sets, ") +
                  std::to_string(logs.size()) + " logs &mdash; " + esc(where) + "</small></h2>\n";
  s += verdict_block(j.value("verdict", oj()));
  s += "<p class=\"verdict recommendation " + std::string(best.empty() ? "warn" : "ok") +
       "\" data-model=\"" + esc(best) +
       "\"><b>Lowest mean error: " + esc(best.empty() ? "none (no set has a finite error)" : best) +
       ".</b> The mean absolute position error of the closed-loop re-simulation, averaged over the "
       "logs; "
       "the lowest of each log is in bold.</p>\n";
  s += "<table class=\"ranking eval\">\n<thead><tr><th>log</th><th>kp</th><th>trajectory</th>";
  for (const auto& p : params)
    s += "<th data-label=\"" + esc(p.value("label", std::string())) + "\">" +
         esc(p.value("label", std::string())) + " [rad]</th>";
  s += "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const oj& l = logs[i];
    double lowest = std::numeric_limits<double>::infinity();
    for (const auto& p : params) {
      const oj& mae = p.value("mae", oj::array());
      if (i < mae.size() && is_num(mae[i])) lowest = std::min(lowest, num(mae[i]));
    }
    s += "<tr data-log=\"" + esc(l.value("log", std::string())) + "\"><td><code>" +
         esc(l.value("log", std::string())) + "</code></td><td class=\"num\">" +
         show(l.value("kp", oj())) + "</td><td>" + esc(l.value("trajectory", std::string())) +
         "</td>";
    for (const auto& p : params) {
      const oj& mae = p.value("mae", oj::array());
      const oj v = i < mae.size() ? mae[i] : oj();
      const bool low = is_num(v) && num(v) == lowest;
      s += "<td class=\"num" + std::string(low ? " lowest" : "") + "\" data-value=\"" +
           exact_attr(v) + "\">" + (low ? "<b>" + show(v) + "</b>" : show(v)) + "</td>";
    }
    s += "</tr>\n";
  }
  s += "<tr class=\"mean\"><td colspan=\"3\"><b>mean</b></td>";
  for (const auto& p : params) {
    const bool is_best = p.value("label", std::string()) == best;
    s += "<td class=\"num mean" + std::string(is_best ? " lowest" : "") + "\" data-value=\"" +
         exact_attr(p.value("mean", oj())) + "\">" +
         (is_best ? "<b>" + show(p.value("mean", oj())) + "</b>" : show(p.value("mean", oj()))) +
         "</td>";
  }
  s += "</tr>\n";
  if (params[0].contains("pooled")) {
    s += "<tr class=\"pooled\"><td colspan=\"3\">pooled over all entries</td>";
    for (const auto& p : params)
      s += "<td class=\"num\" data-value=\"" + exact_attr(p.value("pooled", oj())) + "\">" +
           show(p.value("pooled", oj())) + "</td>";
    s += "</tr>\n";
  }
  s += "</tbody>\n</table>\n<p class=\"note\">mean: the mean of the per-log MAEs; pooled: the mean "
       "over "
       "all entries of the logs (fit-actuator's measure). Parameter files: ";
  for (std::size_t k = 0; k < params.size(); ++k)
    s += (k ? ", " : "") + esc(params[k].value("label", std::string())) + " = <code>" +
         esc(params[k].value("file", std::string())) + "</code>";
  s += ". No parameter is estimated here: the errors say how well each set reproduces these logs "
       "(docs/actuators.md).</p>\n";
  const oj& series = rep.value("logs", oj::array());
  for (std::size_t i = 0; i < series.size() && i < logs.size(); ++i) {
    const oj& r = series[i];
    const oj sim = r.value("simulated", oj::array());  // (a named copy: value() returns one)
    oj simulated = oj::array();
    for (std::size_t k = 0; k < sim.size() && k < params.size(); ++k)
      simulated.push_back({{"name", params[k].value("label", std::string())}, {"y", sim[k]}});
    s += servo_log_plot(logs[i], r, simulated, id + "-time-" + std::to_string(i));
  }
  s += "</section>\n";
  return s;
}

}  // namespace frictionlab::io::report
