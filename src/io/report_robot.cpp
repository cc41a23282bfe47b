// frictionlab io: the report's section of an arm fit (robot_fit.json of fit-robot).
#include <string>

#include "report_parts.hpp"

namespace frictionlab::io::report {
namespace {

/// The figures of the fit: samples, base parameters, condition number, torque error, and the
/// nearest consistent set's error where there is one.
std::string robot_summary(const oj& j) {
  std::string s = "<table class=\"robot-summary\">\n<tbody>\n";
  const auto row = [&](const std::string& name, const std::string& value, bool number = true) {
    s += "<tr><th>" + name + "</th><td" + (number ? " class=\"num\"" : "") + ">" + value +
         "</td></tr>\n";
  };
  row("samples", show(j.value("samples", oj())));
  row("base parameters",
      show(j.value("rank", oj())) + " of " + show(j.value("standard_parameters", oj())));
  row("condition number", show(j.value("condition_number", oj())));
  row("torque error [%]", show(j.value("relative_error_percent", oj())));
  row("preprocessing", esc(j.value("preprocessing", std::string())), false);
  row("friction", esc(j.value("friction", oj::object()).value("model", std::string("linear"))),
      false);
  const oj c = j.value("consistent", oj());
  if (c.is_object())
    row("physically consistent: torque error [%]", show(c.value("relative_error_percent", oj())));
  return s + "</tbody>\n</table>\n";
}

/// Per joint the RMS error and residual scatter, and each validation record's.
std::string robot_errors(const oj& j) {
  std::string s =
      "<h3>Errors per joint</h3>\n<table class=\"metrics robot-errors\">\n<thead><tr><th>joint</th>"
      "<th>RMS [N m]</th><th>sigma [N m]</th></tr></thead>\n<tbody>\n";
  const oj rms = j.value("rms_error", oj::object()), sigma = j.value("sigma", oj::object());
  for (const auto& name : j.value("joints", oj::array())) {
    const std::string q = name.get<std::string>();
    s += "<tr data-joint=\"" + esc(q) + "\"><td>" + esc(q) +
         "</td><td class=\"num rmse\" data-value=\"" + exact_attr(rms.value(q, oj())) + "\">" +
         show(rms.value(q, oj())) + "</td><td class=\"num\">" + show(sigma.value(q, oj())) +
         "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n";
  for (const auto& v : j.value("validation", oj::array()))
    s += "<p class=\"note\">validation <code>" + esc(v.value("record", std::string())) +
         "</code>: torque error " + show(v.value("relative_error_percent", oj())) + " %</p>\n";
  return s;
}

/// The base parameters: value, standard error, relative standard error, unit, what each stands
/// for; the poorly determined ones flagged.
std::string robot_parameters(const oj& j, const std::string& where) {
  std::string s =
      "<h3>Base parameters</h3>\n<table class=\"parameters robot-parameters\">\n<thead><tr>"
      "<th>parameter</th><th>value</th><th>std. error</th><th>%sigma</th><th>unit</th>"
      "<th>stands for</th><th>flags</th></tr></thead>\n<tbody>\n";
  for (const auto& p : need(j, where, "parameters")) {
    const std::string name = p.value("name", std::string());
    const bool poor = p.value("poorly_determined", false);
    s += "<tr data-name=\"" + esc(name) + "\"" + (poor ? " class=\"flagged\"" : "") +
         "><td class=\"name\">" + esc(name) + "</td><td class=\"value num\" data-value=\"" +
         exact_attr(p.value("value", oj())) + "\">" + show(p.value("value", oj()), 6) +
         "</td><td class=\"num\">" + show(p.value("std_error", oj()), 3) +
         "</td><td class=\"num\">" + show(p.value("relative_std_error_percent", oj()), 3) +
         "</td><td class=\"unit\">" + esc(p.value("unit", std::string())) +
         "</td><td class=\"expression\">" + esc(p.value("expression", std::string())) +
         "</td><td>" + (poor ? "<span class=\"badge flag\">poorly determined</span>" : "") +
         "</td></tr>\n";
  }
  return s + "</tbody>\n</table>\n";
}

}  // namespace

/// robot_fit.json (fit-robot): the verdict, the figures, per joint errors, the base parameters
/// with their flags, and per joint the measured against the predicted torque.
std::string robot_section(const ReportSource& src, const std::string& id) {
  const oj& j = src.result;
  const oj& rep = report_data(j, src.name, "fit-robot");
  std::string s = "<section class=\"fit robot\" id=\"" + id + "\" data-source=\"" + esc(src.name) +
                  "\">\n<h2>arm <small>fit-robot, <code>" + esc(j.value("record", std::string())) +
                  "</code> &mdash; " + esc(src.name) + "</small></h2>\n";
  s += verdict_block(j.value("verdict", oj()));
  s += robot_summary(j);
  const oj flags = j.value("flags", oj::array());
  if (!flags.empty()) {
    s += "<ul class=\"flags\">\n";
    for (const auto& f : flags) s += "<li>" + esc(f.get<std::string>()) + "</li>\n";
    s += "</ul>\n";
  }
  s += robot_errors(j);
  s += robot_parameters(j, src.name);
  s += "<h3>Training record: measured and predicted torque per joint</h3>\n" +
       time_plot_box(rep, id + "-time-0");
  return s + "</section>\n";
}

}  // namespace frictionlab::io::report
