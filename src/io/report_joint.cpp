// frictionlab io: the report's sections of a joint fit (joint_fit.json) and a joint evaluation
// (joint_eval.json).
#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "report_parts.hpp"

namespace frictionlab::io::report {
namespace {

/// The errors of a joint model per record (joint_fit.json's training and validation, or
/// joint_eval.json's records): relative error and RMSE of torque, position and velocity.
std::string joint_errors_table(const oj& training, const oj& others) {
  std::string s =
      "<h3>Errors</h3>\n<table class=\"metrics\">\n<thead><tr><th>record</th><th>torque rel.</th>"
      "<th>torque RMSE [N m]</th><th>position rel.</th><th>position RMSE [rad]</th><th>velocity "
      "rel.</th>"
      "<th>velocity RMSE [rad/s]</th></tr></thead>\n<tbody>\n";
  const auto row = [&](const std::string& name, const oj& e, const std::string& kind) {
    const auto ch = [&](const char* c, const char* k) {
      return e.contains(c) ? e.at(c).value(k, oj()) : oj();
    };
    s += "<tr data-record=\"" + kind + "\"><td>" + esc(name) + "</td><td class=\"num\">" +
         show(ch("torque", "rel")) + "</td><td class=\"num rmse\" data-value=\"" +
         exact_attr(ch("torque", "rmse")) + "\">" + show(ch("torque", "rmse")) +
         "</td><td class=\"num\">" + show(ch("position", "rel")) + "</td><td class=\"num\">" +
         show(ch("position", "rmse")) + "</td><td class=\"num\">" + show(ch("velocity", "rel")) +
         "</td><td class=\"num\">" + show(ch("velocity", "rmse")) + "</td></tr>\n";
  };
  if (training.is_object()) row("training", training, "training");
  for (const auto& v : others)
    row(v.value("file", std::string()), v, training.is_object() ? "validation" : "record");
  s += "</tbody>\n</table>\n<p class=\"note\">rel.: ||prediction - measured|| / ||measured||; the "
       "torque is the inverse model's along the measured motion, position and velocity are "
       "simulated "
       "from the applied torque.</p>\n";
  return s;
}

/// A zoomable time plot per record of a joint report: position, velocity (measured against
/// simulated) and torque (applied against the inverse model's). The first record is headed
/// `first`, the others `rest`.
std::string joint_time_plots(const oj& rep, const std::string& id, const std::string& first,
                             const std::string& rest) {
  std::string s;
  int k = 0;
  for (const auto& r : rep.value("records", oj::array())) {
    oj data;
    data["t"] = r.value("t", oj::array());
    data["xlabel"] = "time [s]";
    data["panels"] = oj::array();
    data["panels"].push_back({{"label", "position [rad]"},
                              {"series",
                               {{{"name", "measured"}, {"y", r.value("q", oj::array())}},
                                {{"name", "simulated"}, {"y", r.value("q_sim", oj::array())}}}}});
    data["panels"].push_back({{"label", "velocity [rad/s]"},
                              {"series",
                               {{{"name", "measured"}, {"y", r.value("qd", oj::array())}},
                                {{"name", "simulated"}, {"y", r.value("qd_sim", oj::array())}}}}});
    data["panels"].push_back(
        {{"label", "torque [N m]"},
         {"series",
          {{{"name", "applied"}, {"y", r.value("tau", oj::array())}},
           {{"name", "inverse model"}, {"y", r.value("tau_pred", oj::array())}}}}});
    s += "<h3>" + (k == 0 ? first : rest) + " <code>" + esc(r.value("file", std::string())) +
         "</code>: measured and simulated</h3>\n" +
         time_plot_box(data, id + "-time-" + std::to_string(k));
    ++k;
  }
  return s;
}

}  // namespace

/// joint_eval.json (eval-joint): the joint model's values, the errors and a time plot per record.
std::string joint_eval_section(const ReportSource& src, const std::string& id) {
  const oj& j = src.result;
  const oj& rep = report_data(j, src.name, "eval-joint");
  std::string s = "<section class=\"fit joint-eval\" id=\"" + id +
                  "\" data-model=\"joint\" data-source=\"" + esc(src.name) +
                  "\">\n<h2>joint <small>eval-joint of <code>" +
                  esc(j.value("joint_file", std::string())) + "</code> &mdash; " + esc(src.name) +
                  "</small></h2>\n";
  s += verdict_block(j.value("verdict", oj()));
  // The model's values (no estimation here: no standard errors).
  s += "<h3>The joint model</h3>\n<table "
       "class=\"parameters\">\n<thead><tr><th>parameter</th><th>value</th></tr></thead>\n<tbody>\n";
  const oj& joint = j.value("joint", oj::object());
  const auto add = [&](const std::string& name, const oj& v) {
    if (v.is_number())
      s += "<tr data-name=\"" + esc(name) + "\"><td class=\"name\">" + esc(name) +
           "</td><td class=\"value num\" data-value=\"" + exact_attr(v) + "\">" + show(v, 6) +
           "</td></tr>\n";
    else if (v.is_array())
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string n = name + "[" + std::to_string(i) + "]";
        if (v[i].is_number())
          s += "<tr data-name=\"" + esc(n) + "\"><td class=\"name\">" + esc(n) +
               "</td><td class=\"value num\" data-value=\"" + exact_attr(v[i]) + "\">" +
               show(v[i], 6) + "</td></tr>\n";
      }
  };
  for (const auto& [k, v] : joint.items()) add(k, v);
  if (joint.contains("friction") && joint.at("friction").is_object()) {
    const oj& fr = joint.at("friction");
    const oj params = fr.value("params", oj::object());  // (a named copy: items() does not own it)
    for (const auto& [k, v] : params.items()) add(k, v);
    s += "</tbody>\n</table>\n<p class=\"note\">friction model " +
         esc(fr.value("model", std::string())) + "</p>\n";
  } else {
    s += "</tbody>\n</table>\n";
  }
  s += joint_errors_table(oj(), j.value("records", oj::array()));
  s += joint_time_plots(rep, id, "Record", "Record");
  s += "</section>\n";
  return s;
}

/// joint_fit.json: the joint model's parameters, reliability, errors, a time plot per record
/// (position, velocity, torque: measured against simulated), the sr3 lambda path.
std::string joint_section(const ReportSource& src, const std::string& id) {
  const oj& j = src.result;
  const std::string where = src.name;
  const oj& rep = report_data(j, where, "fit-joint");
  const std::string method = j.value("method", std::string());
  std::string s = "<section class=\"fit joint\" id=\"" + id +
                  "\" data-model=\"joint\" data-method=\"" + esc(method) + "\" data-source=\"" +
                  esc(where) + "\">\n<h2>joint <small>fit-joint " + esc(method) + ", <code>" +
                  esc(j.value("input", std::string())) + "</code> &mdash; " + esc(where) +
                  "</small></h2>\n";
  // Verdict from the parameters' flags, the reliability and the warnings.
  std::vector<std::string> doubtful;
  for (const auto& p : need(j, where, "parameters"))
    if (!p.value("fixed", false) && (p.value("at_limit", false) || p.value("undetermined", false)))
      doubtful.push_back(p.value("name", std::string()));
  const oj rel = j.value("reliability", oj());
  const bool reliable = !rel.is_object() || rel.value("standard_errors_reliable", true);
  std::string text;
  if (doubtful.empty() && reliable) {
    text = "No parameter is at a search limit or undetermined";
    text += rel.is_object() ? ", and the standard errors can be trusted."
                            : " (this method reports no standard errors).";
  } else {
    if (!doubtful.empty()) {
      text = "The record does not determine ";
      for (std::size_t i = 0; i < doubtful.size(); ++i)
        text += (i == 0                     ? ""
                 : i + 1 == doubtful.size() ? " and "
                                            : ", ") +
                ("<b>" + esc(doubtful[i]) + "</b>");
      text += ". ";
    }
    if (!reliable) text += "The white-noise standard errors are not reliable; read the HAC column.";
  }
  s += verdict_block(j.value("verdict", oj()));
  s += "<p class=\"note parameters-note\">" + text + "</p>\n";
  s += parameter_table(j, where);
  if (rel.is_object()) {
    oj wrapper = oj::object();
    wrapper["reliability"] = rel;
    wrapper["identifiability"] = oj::array();
    std::string f = flags_section(wrapper);
    const auto cut =
        f.find("<p class=\"no-flags\">");  // joint fits have no identifiability flags yet
    if (cut != std::string::npos) f.erase(cut, f.find("</p>", cut) + 5 - cut);
    s += f;
  }
  s += warnings_list(j);
  s += joint_errors_table(j.value("training", oj()), j.value("validation", oj::array()));
  s += joint_time_plots(rep, id, "Training record", "Validation record");
  // sr3's lambda path.
  const oj& scan = rep.value("sr3_scan", oj::array());
  if (scan.is_array() && !scan.empty()) {
    Plot p;
    p.title = "sr3: the lambda path (model size and training error)";
    p.xlabel = "log10 lambda";
    p.width = 900;
    p.panel_height = 160;
    std::vector<double> active, err, chosen_err;
    double chosen_lambda = std::nan("");
    for (const auto& r : scan) {
      const double l = num(r.value("lambda", oj()));
      if (!(l > 0)) continue;
      p.x.push_back(std::log10(l));
      active.push_back(num(r.value("n_active", oj())));
      err.push_back(num(r.value("train_rel_error", oj())));
      const bool ch = r.value("chosen", false);
      chosen_err.push_back(ch ? err.back() : std::nan(""));
      if (ch) chosen_lambda = l;
    }
    if (p.x.size() >= 2) {
      p.panels.push_back({"active terms", {{"model size", active, true}}});
      p.panels.push_back(
          {"training torque error [-]", {{"all lambda", err, true}, {"chosen", chosen_err, true}}});
      s += "<h3>sr3: lambda path and model sizes</h3>\n<figure>" +
           inline_svg(p, "sr3-path", id + "-sr3") + "</figure>\n<p class=\"note\">Chosen lambda " +
           esc(format_number(chosen_lambda)) +
           " (the smallest AIC on the validation data among the admissible models).</p>\n";
    }
  }
  s += "</section>\n";
  return s;
}

}  // namespace frictionlab::io::report
