// frictionlab io: the identification report (include/frictionlab/io/report_html.hpp).
#include "frictionlab/io/report_html.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using oj = nlohmann::ordered_json;

std::string esc(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

bool is_num(const oj& j) { return j.is_number(); }
double num(const oj& j) { return j.is_number() ? j.get<double>() : std::nan(""); }

/// A number for a person: 5 significant digits, "–" for null/NaN.
std::string show(const oj& j, int digits = 5) {
  if (!is_num(j) || !std::isfinite(num(j))) return "&ndash;";
  return esc(format_number(num(j), digits));
}

/// data-value="exact" (the JSON's double as shortest round-trip text) or "" for null.
std::string exact_attr(const oj& j) { return is_num(j) ? esc(format_exact(num(j))) : std::string(); }

std::vector<double> numbers(const oj& j) {
  std::vector<double> out;
  if (!j.is_array()) return out;
  out.reserve(j.size());
  for (const auto& x : j) out.push_back(num(x));
  return out;
}

[[noreturn]] void bad(const std::string& src, const std::string& what) {
  throw InputError(src, 0, 0, what);
}

const oj& need(const oj& j, const std::string& src, const std::string& key) {
  if (!j.is_object() || !j.contains(key)) bad(src, "key '" + key + "' is missing");
  return j.at(key);
}

/// Replace every occurrence of `from` in `s` by `to`.
void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

/// The "report" object of a result file (what its section draws); InputError naming the file and
/// the command to run again (`command`: "the fit", "fit-joint", ...) when it has none.
const oj& report_data(const oj& result, const std::string& src, const std::string& command) {
  if (!result.contains("report") || !result.at("report").is_object())
    bad(src, "has no report data (key 'report'): it was written by a frictionlab from before "
             "reports; run " + command + " again");
  return result.at("report");
}

/// The result's "warnings" as a list (nothing when there are none).
std::string warnings_list(const oj& result) {
  if (!result.contains("warnings") || result.at("warnings").empty()) return {};
  std::string s = "<ul class=\"warnings\">\n";
  for (const auto& w : result.at("warnings")) s += "<li>" + esc(w.get<std::string>()) + "</li>\n";
  return s + "</ul>\n";
}

/// An inline SVG from plot_svg, tagged for the page (class="plot" data-plot=KIND). Its element
/// ids (the clip paths) are prefixed with `uid`: ids are global to the HTML document, and a
/// clip-path url would otherwise resolve to another plot's clip rectangle.
std::string inline_svg(const Plot& p, const std::string& kind, const std::string& uid) {
  std::string s = render_svg(p);
  replace_all(s, "id=\"", "id=\"" + uid + "-");
  replace_all(s, "url(#", "url(#" + uid + "-");
  const auto at = s.find("<svg ");
  if (at != std::string::npos)
    s.insert(at + 5, "class=\"plot\" data-plot=\"" + kind + "\" role=\"img\" aria-label=\"" + esc(p.title) + "\" ");
  return s;
}

struct Units {
  std::string force, velocity;
};

/// The force and velocity units of a fit: those of its Coulomb (or other force) parameter in
/// fit.json ("N" or "Nm"; rotary also for the sensorless problem).
Units units_of(const oj& fit) {
  if (fit.value("problem", std::string()) == "sensorless") return {"N m", "rad/s"};
  if (fit.contains("parameters"))
    for (const auto& p : fit.at("parameters")) {
      const std::string f = p.value("field", std::string()), u = p.value("unit", std::string());
      if (f.rfind("Fc", 0) == 0 || f.rfind("Fs", 0) == 0 || f.rfind("Delta", 0) == 0) {
        if (u == "N") return {"N", "m/s"};
        if (u == "Nm" || u == "N m") return {"N m", "rad/s"};
      }
    }
  return {"N | N m", "m/s | rad/s"};
}

// ---------------------------------------------------------------- sections

std::string data_section(const oj& fit, const oj& rep, const Units& u) {
  const oj& d = fit.contains("data") ? fit.at("data") : oj::object();
  std::string s = "<h3>Inputs and data</h3>\n<table class=\"data-summary\">\n";
  const auto row = [&](const std::string& k, const std::string& v) {
    s += "<tr><th scope=\"row\">" + k + "</th><td>" + v + "</td></tr>\n";
  };
  row("training record", "<code>" + esc(fit.value("input", std::string())) + "</code>");
  std::string val;
  if (fit.contains("validation"))
    for (const auto& v : fit.at("validation"))
      val += (val.empty() ? "" : ", ") + ("<code>" + esc(v.value("file", std::string())) + "</code>");
  row("validation records", val.empty() ? "none" : val);
  row("problem, model, method",
      esc(fit.value("problem", std::string())) + ", <b>" + esc(fit.value("model_name", std::string())) +
          "</b>, " + esc(fit.value("method", std::string())));
  row("samples", show(d.value("samples", oj())) + " (" + show(d.value("samples_used", oj())) +
                     " after a warm-up of " + show(d.value("warmup_s", oj())) + " s)");
  row("duration, rate", show(d.value("duration_s", oj())) + " s at " + show(d.value("rate_hz", oj())) +
                            " Hz (largest interval " + show(d.value("dt_max_s", oj())) + " s)");
  row("velocity range", "[" + show(rep.value("v_min", oj())) + ", " + show(rep.value("v_max", oj())) +
                            "] " + esc(u.velocity));
  row("force range", "[" + show(rep.value("y_min", oj())) + ", " + show(rep.value("y_max", oj())) +
                         "] " + esc(u.force));
  row("velocity reversals", show(d.value("velocity_reversals", oj())));
  if (num(rep.value("near_zero_threshold", oj(0))) > 0)
    row("low-speed samples", show(rep.value("near_zero", oj())) + " (" +
                                 esc(format_number(100 * num(rep.value("near_zero_fraction", oj(0))), 3)) +
                                 " %) with |v| &lt; " + show(rep.value("near_zero_threshold", oj())) + " " +
                                 esc(u.velocity) + " (the smaller of 2 vs and 10 % of the largest speed)");
  row("run time", show(fit.value("run_time_s", oj())) + " s");
  s += "</table>\n";
  s += warnings_list(fit);
  return s;
}

std::string verdict(const oj& fit) {
  const auto& flags = fit.contains("identifiability") ? fit.at("identifiability") : oj::array();
  const auto& rel = fit.contains("reliability") ? fit.at("reliability") : oj::object();
  const bool reliable = rel.value("standard_errors_reliable", true);
  const bool converged = fit.contains("solver") ? fit.at("solver").value("converged", true) : true;
  std::vector<std::string> params;
  for (const auto& f : flags)
    if (f.contains("parameter") && f.at("parameter").is_string()) {
      const auto p = f.at("parameter").get<std::string>();
      if (std::find(params.begin(), params.end(), p) == params.end()) params.push_back(p);
    }
  std::string cls = "ok", text;
  if (flags.empty() && reliable && converged) {
    text = "The record determines every estimated parameter, and the standard errors can be trusted.";
  } else {
    cls = "warn";
    if (!params.empty()) {
      text = "The record does not determine ";
      for (std::size_t i = 0; i < params.size(); ++i)
        text += (i == 0 ? "" : i + 1 == params.size() ? " and " : ", ") + ("<b>" + esc(params[i]) + "</b>");
      text += " (see the flags below). ";
    } else if (!flags.empty()) {
      text = "Some combination of the parameters is not determined (see the flags below). ";
    }
    if (!reliable) text += "The white-noise standard errors are not reliable; read the HAC column. ";
    if (!converged) text += "The solver stopped without convergence. ";
  }
  return "<p class=\"verdict " + cls + "\"><b>Verdict:</b> " + text + "</p>\n";
}

std::string parameter_table(const oj& fit, const std::string& src) {
  const auto& ps = need(fit, src, "parameters");
  if (!ps.is_array()) bad(src, "key 'parameters': expected an array");
  const auto& flags = fit.contains("identifiability") ? fit.at("identifiability") : oj::array();
  std::string s =
      "<h3>Parameters</h3>\n<table class=\"parameters\">\n<thead><tr><th>parameter</th><th>value</th>"
      "<th>unit</th><th>std. error</th><th>95 % interval</th><th>HAC std. error</th><th>flags</th></tr>"
      "</thead>\n<tbody>\n";
  for (const auto& p : ps) {
    const std::string name = p.value("name", std::string());
    const bool fixed = p.value("fixed", false);
    std::string badges;
    if (fixed) badges += "<span class=\"badge fixed\">fixed</span>";
    if (p.value("at_bound", false)) badges += "<span class=\"badge flag\">at bound</span>";
    if (p.value("at_limit", false)) badges += "<span class=\"badge flag\">at search limit</span>";
    for (const auto& f : flags) {
      if (f.value("parameter", oj()) != oj(name)) continue;
      const std::string kind = f.value("kind", std::string());
      if (kind == "bound" || kind == "limit") continue;  // shown above
      badges += "<span class=\"badge flag\" title=\"" + esc(f.value("message", std::string())) + "\">" +
                esc(kind == "relative_error" ? "large error" : kind == "correlation" ? "correlated with " + f.value("other", std::string())
                    : kind == "near_zero" ? "little low-speed data" : kind == "reversals" ? "few reversals"
                    : kind == "no_std_error" ? "no std. error" : kind) + "</span>";
    }
    const oj& ci = p.contains("ci95") ? p.at("ci95") : oj::array();
    const oj lo = ci.is_array() && ci.size() == 2 ? ci[0] : oj(), hi = ci.is_array() && ci.size() == 2 ? ci[1] : oj();
    s += "<tr data-name=\"" + esc(name) + "\" data-field=\"" + esc(p.value("field", std::string())) +
         "\"" + (fixed ? " class=\"fixed\"" : "") + "><td class=\"name\">" + esc(name) + "</td>";
    s += "<td class=\"value num\" data-value=\"" + exact_attr(p.value("value", oj())) + "\">" +
         show(p.value("value", oj()), 6) + "</td>";
    s += "<td class=\"unit\">" + esc(p.value("unit", std::string())) + "</td>";
    if (fixed) {
      s += "<td class=\"std-error num\" data-value=\"0\">(fixed)</td><td class=\"ci\"></td><td class=\"hac num\"></td>";
    } else {
      s += "<td class=\"std-error num\" data-value=\"" + exact_attr(p.value("std_error", oj())) + "\">" +
           show(p.value("std_error", oj()), 3) + "</td>";
      s += "<td class=\"ci num\" data-low=\"" + exact_attr(lo) + "\" data-high=\"" + exact_attr(hi) + "\">" +
           (is_num(lo) || is_num(hi) ? "[" + show(lo) + ", " + show(hi) + "]" : std::string("&ndash;")) + "</td>";
      s += "<td class=\"hac num\" data-value=\"" + exact_attr(p.value("hac_std_error", oj())) + "\">" +
           show(p.value("hac_std_error", oj()), 3) + "</td>";
    }
    s += "<td class=\"flags\">" + badges + "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n";
  if (fit.contains("Km") && is_num(fit.at("Km")))
    s += "<p class=\"note\">Km is the motor torque constant; the friction parameters are in joint "
         "torque units.</p>\n";
  return s;
}

std::string flags_section(const oj& fit) {
  const auto& flags = fit.contains("identifiability") ? fit.at("identifiability") : oj::array();
  std::string s = "<h3>Identifiability</h3>\n";
  if (flags.empty()) {
    s += "<p class=\"no-flags\">No flags: no parameter at a bound, no relative standard error "
         "above 50 %, no correlation above 0.95, a well-conditioned information matrix and enough "
         "reversals and low-speed samples for the terms of this model.</p>\n";
  } else {
    s += "<ul class=\"flags\">\n";
    for (const auto& f : flags) {
      const oj par = f.value("parameter", oj());
      s += "<li data-parameter=\"" + (par.is_string() ? esc(par.get<std::string>()) : std::string()) +
           "\" data-kind=\"" + esc(f.value("kind", std::string())) + "\">" +
           esc(f.value("message", std::string())) + "</li>\n";
    }
    s += "</ul>\n";
  }
  const auto& rel = fit.contains("reliability") ? fit.at("reliability") : oj::object();
  if (!rel.empty()) {
    const bool ok = rel.value("standard_errors_reliable", true);
    s += "<p class=\"reliability " + std::string(ok ? "ok" : "warn") + "\">Residual whiteness: lag-1 "
         "autocorrelation " + show(rel.value("residual_acf1", oj()), 3) + ", Ljung-Box p = " +
         show(rel.value("ljung_box_p", oj()), 3) + " over " + show(rel.value("ljung_box_lags", oj())) +
         " lags; the HAC (Newey-West, " + show(rel.value("hac_lags", oj())) +
         " lags) standard errors are up to " + show(rel.value("hac_ratio_max", oj()), 3) +
         " times the white-noise ones. ";
    s += ok ? std::string("The white-noise standard errors are usable.")
            : std::string("<b>The white-noise standard errors are optimistic</b>:");
    s += "</p>\n";
    if (!ok && rel.contains("reasons")) {
      s += "<ul class=\"reasons\">\n";
      for (const auto& r : rel.at("reasons")) s += "<li>" + esc(r.get<std::string>()) + "</li>\n";
      s += "</ul>\n";
    }
  }
  return s;
}

std::string metrics_section(const oj& fit) {
  std::string s =
      "<h3>Errors</h3>\n<table class=\"metrics\">\n<thead><tr><th>record</th><th>samples</th><th>RMSE</th>"
      "<th>NRMSE</th><th>R&sup2;</th><th>max |residual|</th></tr></thead>\n<tbody>\n";
  const auto row = [&](const std::string& name, const oj& m, const std::string& kind) {
    s += "<tr data-record=\"" + kind + "\"><td>" + esc(name) + "</td><td class=\"num\">" + show(m.value("n", oj())) +
         "</td><td class=\"num rmse\" data-value=\"" + exact_attr(m.value("rmse", oj())) + "\">" +
         show(m.value("rmse", oj())) + "</td><td class=\"num\">" + show(m.value("nrmse", oj())) +
         "</td><td class=\"num\">" + show(m.value("r2", oj())) + "</td><td class=\"num\">" +
         show(m.value("max_abs_residual", oj())) + "</td></tr>\n";
  };
  if (fit.contains("training")) row("training", fit.at("training"), "training");
  if (fit.contains("validation"))
    for (const auto& v : fit.at("validation"))
      row(v.value("file", std::string()), v.value("metrics", oj::object()), "validation");
  s += "</tbody>\n</table>\n<p class=\"note\">AICc " + show(fit.value("aicc", oj()), 8) + ", BIC " +
       show(fit.value("bic", oj()), 8) + ", condition number " + show(fit.value("condition_number", oj()), 3) +
       (fit.contains("passive") ? std::string(", ") + (fit.at("passive").get<bool>() ? "passive" : "not passive") : "") +
       ".</p>\n";
  return s;
}

std::string correlation_section(const oj& fit) {
  const auto& ps = fit.at("parameters");
  const auto& c = fit.contains("correlation") ? fit.at("correlation") : oj::array();
  if (!c.is_array() || c.size() != ps.size() || ps.size() < 2) return {};
  std::string s = "<h3>Correlation of the parameters</h3>\n<table class=\"correlation\">\n<thead><tr><th></th>";
  for (const auto& p : ps) s += "<th>" + esc(p.value("name", std::string())) + "</th>";
  s += "</tr></thead>\n<tbody>\n";
  for (std::size_t a = 0; a < ps.size(); ++a) {
    s += "<tr><th scope=\"row\">" + esc(ps[a].value("name", std::string())) + "</th>";
    for (std::size_t b = 0; b < ps.size(); ++b) {
      const oj& x = c[a].is_array() && b < c[a].size() ? c[a][b] : oj();
      const double r = num(x);
      std::string style;
      if (std::isfinite(r) && a != b) {
        const double w = std::min(1.0, std::abs(r));
        // blue for positive, vermillion for negative (Okabe-Ito), opacity |r|
        style = std::string(" style=\"background: rgba(") + (r >= 0 ? "0,114,178," : "213,94,0,") +
                format_number(0.6 * w, 3) + ")\"";
      }
      s += "<td class=\"num" + std::string(std::isfinite(r) && a != b && std::abs(r) > 0.95 ? " high" : "") +
           "\"" + style + ">" + (std::isfinite(r) ? esc(format_fixed(r, 2)) : "&ndash;") + "</td>";
    }
    s += "</tr>\n";
  }
  s += "</tbody>\n</table>\n";
  return s;
}

std::string residual_plots(const oj& rep, const Units& u, const std::string& uid) {
  std::string s;
  // Histogram as a step outline with the normal density of the same mean and deviation.
  const auto edges = numbers(rep.value("hist_edges", oj()));
  const auto counts = numbers(rep.value("hist_counts", oj()));
  if (edges.size() >= 2 && counts.size() + 1 == edges.size()) {
    double total = 0;
    for (double c : counts) total += c;
    const double w = edges[1] - edges[0];
    Plot h;
    h.title = "Histogram of the residuals";
    h.xlabel = "residual [" + u.force + "]";
    h.width = 560;
    h.panel_height = 220;
    std::vector<double> y, dens;
    const double mu = num(rep.value("residual_mean", oj(0))), sd = num(rep.value("residual_std", oj(0)));
    for (std::size_t b = 0; b < counts.size(); ++b) {
      for (double x : {edges[b], edges[b + 1]}) {
        h.x.push_back(x);
        y.push_back(counts[b]);
        const double z = sd > 0 ? (x - mu) / sd : 0;
        dens.push_back(sd > 0 ? total * w * std::exp(-0.5 * z * z) / (sd * std::sqrt(2 * M_PI)) : 0);
      }
    }
    h.panels.push_back({"samples per bin", {{"residuals", y}, {"normal, same mean and deviation", dens}}});
    s += "<figure>" + inline_svg(h, "histogram", uid + "-histogram") + "</figure>\n";
  }
  const auto acf = numbers(rep.value("acf", oj()));
  if (acf.size() >= 2) {
    const double band = num(rep.value("acf_band", oj(0)));
    Plot a;
    a.title = "Autocorrelation of the residuals";
    a.xlabel = "lag [samples]";
    a.width = 560;
    a.panel_height = 220;
    // lags 1..L (lag 0 is 1 by definition and would flatten the scale)
    const std::vector<double> r(acf.begin() + 1, acf.end());
    std::vector<double> up(r.size(), band), lo(r.size(), -band);
    for (std::size_t l = 1; l < acf.size(); ++l) a.x.push_back(static_cast<double>(l));
    a.panels.push_back({"autocorrelation", {{"residuals", r, true}, {"white noise 95 % band", up}, {"", lo}}});
    s += "<figure>" + inline_svg(a, "acf", uid + "-acf") + "</figure>\n";
  }
  return s;
}

std::string friction_plot(const oj& rep, const Units& u, const std::string& uid) {
  const auto v = numbers(rep.value("fv_velocity", oj()));
  const auto m = numbers(rep.value("fv_measured", oj()));
  const auto c = numbers(rep.value("fv_static", oj()));
  if (v.size() < 2 || m.size() != v.size() || c.size() != v.size()) return {};
  Plot q;
  q.title = "Friction against velocity: data and the fitted static curve";
  q.xlabel = "velocity [" + u.velocity + "]";
  q.x = v;
  q.width = 900;
  q.panel_height = 320;
  q.panels.push_back({"friction [" + u.force + "]", {{"data", m, true}, {"static curve (steady state)", c}}});
  return "<h3>Friction against velocity</h3>\n<figure>" + inline_svg(q, "friction-velocity", uid + "-fv") + "</figure>\n";
}

std::string time_plot_box(const oj& data, const std::string& id);

/// The time plot: a placeholder SVG the script draws into, its data as JSON, the zoom controls.
std::string time_plot(const oj& rep, const Units& u, const std::string& id) {
  oj data;
  data["t"] = rep.value("t", oj::array());
  data["xlabel"] = "time [s]";
  data["panels"] = oj::array();
  data["panels"].push_back({{"label", "force [" + u.force + "]"},
                            {"series", {{{"name", "measured"}, {"y", rep.value("measured", oj::array())}},
                                        {{"name", "predicted"}, {"y", rep.value("predicted", oj::array())}}}}});
  data["panels"].push_back({{"label", "residual [" + u.force + "]"},
                            {"series", {{{"name", "measured - predicted"}, {"y", rep.value("residual", oj::array())}}}}});
  data["panels"].push_back({{"label", "velocity [" + u.velocity + "]"},
                            {"series", {{{"name", "velocity"}, {"y", rep.value("velocity", oj::array())}}}}});
  return "<h3>Measured and predicted</h3>\n" + time_plot_box(data, id);
}

/// A zoomable time plot: its data {"t", "xlabel", "panels": [{"label", "series": [{"name",
/// "y"}]}]} as JSON for the page's script, the SVG it draws into, the zoom controls.
std::string time_plot_box(const oj& data, const std::string& id) {
  std::string text = data.dump();
  // Inside <script>: no "</script>" can end it early ('<' only occurs inside strings in JSON).
  std::string safe;
  for (char ch : text) safe += ch == '<' ? std::string("\\u003c") : std::string(1, ch);
  return "<div class=\"timeplot\" id=\"" + id + "\">\n"
         "<div class=\"controls\"><label>from <input type=\"range\" class=\"zoom-start\" min=\"0\" "
         "max=\"1000\" value=\"0\" aria-label=\"start of the visible range\"></label> <label>to "
         "<input type=\"range\" class=\"zoom-end\" min=\"0\" max=\"1000\" value=\"1000\" "
         "aria-label=\"end of the visible range\"></label> <button type=\"button\" "
         "class=\"zoom-reset\">show all</button> <span class=\"range-label\"></span> <span "
         "class=\"hint\">drag across the plot to zoom; double-click to show all</span></div>\n"
         "<svg class=\"plot\" data-plot=\"time\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 960 600\" "
         "role=\"img\" aria-label=\"measured and predicted against time\"></svg>\n"
         "<script type=\"application/json\" class=\"plot-data\">" + safe + "</script>\n</div>\n";
}

std::string fit_section(const ReportSource& src, const std::string& id) {
  const oj& fit = src.result;
  const std::string where = src.name;
  if (!fit.is_object()) bad(where, "expected a JSON object");
  const std::string format = fit.value("format", std::string());
  if (format != "frictionlab-fit") {
    const detail::JsonKind kind = detail::json_kind(fit);
    if (kind == detail::JsonKind::actuator_eval)  // (its own format is drawn by actuator_eval_section)
      bad(where, "an eval-actuator --json file of the old format (label-keyed, no report data): "
                 "run eval-actuator again");
    bad(where, "not a result `frictionlab report` draws: this is " + detail::describe(kind) +
                   "; the results are fit.json, compare.json, joint_fit.json, joint_eval.json, "
                   "fit-actuator's summary.json and eval-actuator's --json file");
  }
  const oj& rep = report_data(fit, where, "the fit");
  const Units u = units_of(fit);
  std::string s = "<section class=\"fit\" id=\"" + id + "\" data-model=\"" +
                  esc(fit.value("model_name", std::string())) + "\" data-source=\"" + esc(where) + "\">\n";
  s += "<h2>" + esc(fit.value("model_name", std::string())) + " <small>" +
       esc(fit.value("problem", std::string())) + " problem, " + esc(fit.value("method", std::string())) +
       ", <code>" + esc(fit.value("input", std::string())) + "</code> &mdash; " + esc(where) + "</small></h2>\n";
  s += verdict(fit);
  s += parameter_table(fit, where);
  s += flags_section(fit);
  s += time_plot(rep, u, id + "-time");
  s += "<h3>Residuals</h3>\n<div class=\"row\">" + residual_plots(rep, u, id) + "</div>\n";
  s += friction_plot(rep, u, id);
  s += metrics_section(fit);
  s += data_section(fit, rep, u);
  s += correlation_section(fit);
  s += "</section>\n";
  return s;
}

/// compare.json: the ranking table, the recommendation and why.
std::string comparison_section(const ReportSource& src, const std::string& id,
                               const std::vector<std::string>& model_ids) {
  const oj& c = src.result;
  const auto& rows = need(c, src.name, "rows");
  if (!rows.is_array() || rows.empty()) bad(src.name, "key 'rows': expected a non-empty array");
  const std::string crit = c.value("criterion", std::string("aicc")) == "bic" ? "BIC" : "AICc";
  const bool by_val = c.value("ranked_by", std::string()) == "validation_rmse";
  std::string s = "<section class=\"comparison\" id=\"" + id + "\" data-source=\"" + esc(src.name) +
                  "\">\n<h2>Comparison <small>" + std::to_string(rows.size()) + " models, " +
                  esc(c.value("problem", std::string())) + " problem, <code>" +
                  esc(c.value("input", std::string())) + "</code> &mdash; " + esc(src.name) + "</small></h2>\n";
  // Recommendation and why.
  const oj& best = rows[0];
  const std::string best_model = best.value("model", std::string());
  const oj bbc = c.value("best_by_criterion", oj());
  // "best" is null when no model has a finite ranking error: none is recommended
  const bool has_best = !c.contains("best") || c.at("best").is_string();
  std::string why = "<b>" + esc(best_model) + "</b> has the lowest " +
                    (by_val ? "validation" : "training (no validation record)") + " RMSE, " +
                    show(best.value(by_val ? "validation_rmse" : "training_rmse", oj())) + ". ";
  if (!has_best)
    why = "none: no model has a finite " + std::string(by_val ? "validation" : "training") + " RMSE. ";
  else if (c.value("criterion_agrees", false))
    why += crit + " agrees: it is also the best trade-off of fit and parameter count. ";
  else if (bbc.is_string())
    why += crit + " prefers <b>" + esc(bbc.get<std::string>()) + "</b> (" + esc(best_model) + ": delta " + crit +
           " " + show(best.value("delta", oj())) + "): the extra parameters of the better-fitting model "
           "buy less than " + crit + " charges for them; choose it if the validation error matters less than simplicity. ";
  const oj& bf = best.contains("fit") ? best.at("fit") : oj::object();
  const auto& flags = bf.contains("identifiability") ? bf.at("identifiability") : oj::array();
  if (!has_best) {
    // nothing to say about the parameters of a model that is not recommended
  } else if (!flags.empty())
    why += "But the record does not determine all of its parameters: see its flags below.";
  else if (bf.contains("reliability") && !bf.at("reliability").value("standard_errors_reliable", true))
    why += "Its parameters are determined, but its white-noise standard errors are optimistic (see below).";
  else if (!bf.empty())
    why += "The record determines all of its parameters.";
  s += "<p class=\"verdict recommendation " + std::string(flags.empty() && has_best ? "ok" : "warn") +
       "\" data-model=\"" + esc(has_best ? best_model : std::string()) + "\"><b>Recommended:</b> " + why +
       "</p>\n";
  s += "<table class=\"ranking\">\n<thead><tr><th>rank</th><th>model</th><th>p</th><th>training RMSE</th>"
       "<th>validation RMSE</th><th>AICc</th><th>BIC</th><th>delta " + crit + "</th><th>flags</th></tr></thead>\n<tbody>\n";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const oj& r = rows[k];
    const oj& f = r.contains("fit") ? r.at("fit") : oj::object();
    const std::size_t nflags = f.contains("identifiability") ? f.at("identifiability").size() : 0;
    const std::string model = r.value("model", std::string());
    s += "<tr data-model=\"" + esc(model) + "\"><td class=\"num\">" + show(r.value("rank", oj())) +
         "</td><td>" + (k < model_ids.size() ? "<a href=\"#" + model_ids[k] + "\">" + esc(model) + "</a>" : esc(model)) +
         "</td><td class=\"num\">" + show(r.value("p", oj())) +
         "</td><td class=\"num\" data-value=\"" + exact_attr(r.value("training_rmse", oj())) + "\">" +
         show(r.value("training_rmse", oj())) + "</td><td class=\"num\" data-value=\"" +
         exact_attr(r.value("validation_rmse", oj())) + "\">" + show(r.value("validation_rmse", oj())) +
         "</td><td class=\"num\">" + show(r.value("aicc", oj()), 8) + "</td><td class=\"num\">" +
         show(r.value("bic", oj()), 8) + "</td><td class=\"num\">" + show(r.value("delta", oj()), 4) +
         "</td><td>" + (nflags > 0 ? "<span class=\"badge flag\">" + std::to_string(nflags) + " flag" +
                                         (nflags == 1 ? "" : "s") + "</span>" : std::string()) + "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n<p class=\"note\">Ranked by " + std::string(by_val ? "validation" : "training") +
       " RMSE; delta " + crit + " is the difference to the smallest " + crit + " (below 2: no real "
       "difference; above 10: strong evidence against the model). Each model's section follows.</p>\n</section>\n";
  return s;
}

/// The errors of a joint model per record (joint_fit.json's training and validation, or
/// joint_eval.json's records): relative error and RMSE of torque, position and velocity.
std::string joint_errors_table(const oj& training, const oj& others) {
  std::string s = "<h3>Errors</h3>\n<table class=\"metrics\">\n<thead><tr><th>record</th><th>torque rel.</th>"
                  "<th>torque RMSE [N m]</th><th>position rel.</th><th>position RMSE [rad]</th><th>velocity rel.</th>"
                  "<th>velocity RMSE [rad/s]</th></tr></thead>\n<tbody>\n";
  const auto row = [&](const std::string& name, const oj& e, const std::string& kind) {
    const auto ch = [&](const char* c, const char* k) { return e.contains(c) ? e.at(c).value(k, oj()) : oj(); };
    s += "<tr data-record=\"" + kind + "\"><td>" + esc(name) + "</td><td class=\"num\">" + show(ch("torque", "rel")) +
         "</td><td class=\"num rmse\" data-value=\"" + exact_attr(ch("torque", "rmse")) + "\">" + show(ch("torque", "rmse")) +
         "</td><td class=\"num\">" + show(ch("position", "rel")) + "</td><td class=\"num\">" + show(ch("position", "rmse")) +
         "</td><td class=\"num\">" + show(ch("velocity", "rel")) + "</td><td class=\"num\">" + show(ch("velocity", "rmse")) +
         "</td></tr>\n";
  };
  if (training.is_object()) row("training", training, "training");
  for (const auto& v : others) row(v.value("file", std::string()), v, training.is_object() ? "validation" : "record");
  s += "</tbody>\n</table>\n<p class=\"note\">rel.: ||prediction - measured|| / ||measured||; the "
       "torque is the inverse model's along the measured motion, position and velocity are simulated "
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
                              {"series", {{{"name", "measured"}, {"y", r.value("q", oj::array())}},
                                          {{"name", "simulated"}, {"y", r.value("q_sim", oj::array())}}}}});
    data["panels"].push_back({{"label", "velocity [rad/s]"},
                              {"series", {{{"name", "measured"}, {"y", r.value("qd", oj::array())}},
                                          {{"name", "simulated"}, {"y", r.value("qd_sim", oj::array())}}}}});
    data["panels"].push_back({{"label", "torque [N m]"},
                              {"series", {{{"name", "applied"}, {"y", r.value("tau", oj::array())}},
                                          {{"name", "inverse model"}, {"y", r.value("tau_pred", oj::array())}}}}});
    s += "<h3>" + (k == 0 ? first : rest) + " <code>" + esc(r.value("file", std::string())) +
         "</code>: measured and simulated</h3>\n" + time_plot_box(data, id + "-time-" + std::to_string(k));
    ++k;
  }
  return s;
}

/// A result's "verdict" object (io/verdict_json.hpp): the grade with its reasons and what to try,
/// coloured by grade (good: ok, doubtful: warn, bad: bad); notes (grade good) listed after.
std::string verdict_block(const oj& v) {
  if (!v.is_object()) return "";
  const std::string grade = v.value("grade", std::string("good"));
  const std::string cls = grade == "bad" ? "bad" : grade == "doubtful" ? "warn" : "ok";
  std::string s = "<div class=\"verdict " + cls + "\" data-grade=\"" + esc(grade) + "\"><b>Verdict: " +
                  esc(grade) + ".</b>";
  std::string items;
  for (const auto& r : v.value("reasons", oj::array())) {
    const std::string g = r.value("grade", std::string());
    const std::string hint = r.value("hint", std::string());
    items += "<li class=\"" + esc(g == "good" ? std::string("note") : g) + "\">" +
             (g == "good" ? std::string("Note: ") : "") + esc(r.value("text", std::string())) +
             (hint.empty() ? "" : " <span class=\"hint\">Try: " + esc(hint) + ".</span>") + "</li>";
  }
  if (!items.empty()) s += "<ul class=\"reasons\">" + items + "</ul>";
  return s + "</div>\n";
}

/// joint_eval.json (eval-joint): the joint model's values, the errors and a time plot per record.
std::string joint_eval_section(const ReportSource& src, const std::string& id) {
  const oj& j = src.result;
  const oj& rep = report_data(j, src.name, "eval-joint");
  std::string s = "<section class=\"fit joint-eval\" id=\"" + id + "\" data-model=\"joint\" data-source=\"" +
                  esc(src.name) + "\">\n<h2>joint <small>eval-joint of <code>" +
                  esc(j.value("joint_file", std::string())) + "</code> &mdash; " + esc(src.name) + "</small></h2>\n";
  s += verdict_block(j.value("verdict", oj()));
  // The model's values (no estimation here: no standard errors).
  s += "<h3>The joint model</h3>\n<table class=\"parameters\">\n<thead><tr><th>parameter</th><th>value</th></tr></thead>\n<tbody>\n";
  const oj& joint = j.value("joint", oj::object());
  const auto add = [&](const std::string& name, const oj& v) {
    if (v.is_number())
      s += "<tr data-name=\"" + esc(name) + "\"><td class=\"name\">" + esc(name) +
           "</td><td class=\"value num\" data-value=\"" + exact_attr(v) + "\">" + show(v, 6) + "</td></tr>\n";
    else if (v.is_array())
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string n = name + "[" + std::to_string(i) + "]";
        if (v[i].is_number())
          s += "<tr data-name=\"" + esc(n) + "\"><td class=\"name\">" + esc(n) +
               "</td><td class=\"value num\" data-value=\"" + exact_attr(v[i]) + "\">" + show(v[i], 6) + "</td></tr>\n";
      }
  };
  for (const auto& [k, v] : joint.items()) add(k, v);
  if (joint.contains("friction") && joint.at("friction").is_object()) {
    const oj& fr = joint.at("friction");
    const oj params = fr.value("params", oj::object());  // (a named copy: items() does not own it)
    for (const auto& [k, v] : params.items()) add(k, v);
    s += "</tbody>\n</table>\n<p class=\"note\">friction model " + esc(fr.value("model", std::string())) + "</p>\n";
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
  std::string s = "<section class=\"fit joint\" id=\"" + id + "\" data-model=\"joint\" data-method=\"" +
                  esc(method) + "\" data-source=\"" + esc(where) + "\">\n<h2>joint <small>fit-joint " +
                  esc(method) + ", <code>" + esc(j.value("input", std::string())) + "</code> &mdash; " +
                  esc(where) + "</small></h2>\n";
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
    text += rel.is_object() ? ", and the standard errors can be trusted." : " (this method reports no standard errors).";
  } else {
    if (!doubtful.empty()) {
      text = "The record does not determine ";
      for (std::size_t i = 0; i < doubtful.size(); ++i)
        text += (i == 0 ? "" : i + 1 == doubtful.size() ? " and " : ", ") + ("<b>" + esc(doubtful[i]) + "</b>");
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
    const auto cut = f.find("<p class=\"no-flags\">");  // joint fits have no identifiability flags yet
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
      p.panels.push_back({"training torque error [-]", {{"all lambda", err, true}, {"chosen", chosen_err, true}}});
      s += "<h3>sr3: lambda path and model sizes</h3>\n<figure>" + inline_svg(p, "sr3-path", id + "-sr3") +
           "</figure>\n<p class=\"note\">Chosen lambda " + esc(format_number(chosen_lambda)) +
           " (the smallest AIC on the validation data among the admissible models).</p>\n";
    }
  }
  s += "</section>\n";
  return s;
}

/// A servo log re-simulated: its heading (`info`: "log", "kp", "trajectory") and a zoomable plot
/// of the position `series` (the report's series: "t", "position", "goal_position"): measured,
/// then `simulated` ({"name", "y"} each), then the goal dashed in grey.
std::string servo_log_plot(const oj& info, const oj& series, const oj& simulated, const std::string& id) {
  oj panel = oj::array();
  panel.push_back({{"name", "measured"}, {"y", series.value("position", oj::array())}});
  for (const auto& s : simulated) panel.push_back(s);
  panel.push_back({{"name", "goal"}, {"color", "#777777"}, {"dash", "5 4"},
                   {"y", series.value("goal_position", oj::array())}});
  oj data;
  data["t"] = series.value("t", oj::array());
  data["xlabel"] = "time [s]";
  data["panels"] = oj::array();
  data["panels"].push_back({{"label", "position [rad]"}, {"series", std::move(panel)}});
  return "<h3>Log <code>" + esc(info.value("log", std::string())) + "</code> <small>kp " +
         show(info.value("kp", oj())) + ", " + esc(info.value("trajectory", std::string())) +
         "</small></h3>\n" + time_plot_box(data, id);
}

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
                  "\" data-source=\"" + esc(where) + "\">\n<h2>actuator " + esc(j.value("actuator", std::string())) +
                  " <small>fit-actuator, " + std::to_string(j.value("logs", oj::array()).size()) +
                  " logs, validation " + esc(j.value("validation", std::string())) + " &mdash; " + esc(where) +
                  "</small></h2>\n";
  bool rec_at_bound = false;
  for (const auto& m : models)
    if (m.value("model", std::string()) == rec && !m.value("at_bound", oj::array()).empty()) rec_at_bound = true;
  s += "<p class=\"verdict recommendation " + std::string(rec_at_bound || rec.empty() ? "warn" : "ok") +
       "\" data-model=\"" + esc(rec) + "\"><b>Recommended: " + esc(rec.empty() ? "none" : rec) + ".</b> " +
       esc(j.value("reason", std::string())) +
       (rec_at_bound ? " Some of its parameters ended at the end of their search range (below)." : "") + "</p>\n";
  s += "<table class=\"ranking\">\n<thead><tr><th>model</th><th>parameters</th><th>train MAE [rad]</th>"
       "<th>validation MAE [rad]</th><th>evaluations</th><th>time [s]</th><th>at the end of its range</th></tr></thead>\n<tbody>\n";
  for (const auto& m : models) {
    const std::string name = m.value("model", std::string());
    std::string bounds;
    for (const auto& b : m.value("at_bound", oj::array())) bounds += (bounds.empty() ? "" : ", ") + esc(b.get<std::string>());
    s += "<tr data-model=\"" + esc(name) + "\"" + (name == rec ? " class=\"recommended\"" : "") + "><td>" +
         esc(name) + "</td><td class=\"num\">" + show(m.value("parameters", oj())) +
         "</td><td class=\"num\" data-value=\"" + exact_attr(m.value("train_mae", oj())) + "\">" +
         show(m.value("train_mae", oj())) + "</td><td class=\"num\" data-value=\"" +
         exact_attr(m.value("validation_mae", oj())) + "\">" + (validated ? show(m.value("validation_mae", oj())) : "&ndash;") +
         "</td><td class=\"num\">" + show(m.value("evaluations", oj())) + "</td><td class=\"num\">" +
         show(m.value("seconds", oj()), 3) + "</td><td>" +
         (bounds.empty() ? std::string() : "<span class=\"badge flag\">" + bounds + "</span>") + "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n<p class=\"note\">MAE: mean absolute position error of the closed-loop "
       "re-simulation of each log, pooled over the logs (docs/actuators.md). CMA-ES reports no "
       "standard errors: a parameter at the end of its search range is the sign of one the logs do not "
       "determine.</p>\n";
  // The recommended model's parameters.
  if (rep.contains("params") && rep.at("params").is_object()) {
    s += "<h3>Parameters of " + esc(rec) + "</h3>\n<table class=\"parameters\">\n<thead><tr><th>parameter</th>"
         "<th>value</th><th>flags</th></tr></thead>\n<tbody>\n";
    std::vector<std::string> at_bound;
    for (const auto& m : models)
      if (m.value("model", std::string()) == rec)
        for (const auto& b : m.value("at_bound", oj::array())) at_bound.push_back(b.get<std::string>());
    for (const auto& [key, v] : rep.at("params").items()) {
      if (!v.is_number()) continue;
      const bool edge = std::find(at_bound.begin(), at_bound.end(), key) != at_bound.end();
      s += "<tr data-name=\"" + esc(key) + "\"><td class=\"name\">" + esc(key) + "</td><td class=\"value num\" data-value=\"" +
           exact_attr(v) + "\">" + show(v, 6) + "</td><td class=\"flags\">" +
           (edge ? "<span class=\"badge flag\">at the end of its range</span>" : "") + "</td></tr>\n";
    }
    s += "</tbody>\n</table>\n";
  }
  s += warnings_list(j);
  int k = 0;
  for (const auto& l : rep.value("logs", oj::array())) {
    const oj simulated = oj::array({{{"name", "simulated (" + rec + ")"}, {"y", l.value("simulated", oj::array())}}});
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
  const std::string best =
      j.contains("best") && j.at("best").is_string() ? j.at("best").get<std::string>() : std::string();
  std::string s = "<section class=\"fit actuator-eval\" id=\"" + id + "\" data-model=\"" + esc(best) +
                  "\" data-source=\"" + esc(where) + "\">\n<h2>actuator evaluation <small>eval-actuator, " +
                  std::to_string(params.size()) + (params.size() == 1 ? " parameter set, " : " parameter sets, ") +
                  std::to_string(logs.size()) + " logs &mdash; " + esc(where) + "</small></h2>\n";
  s += "<p class=\"verdict " + std::string(best.empty() ? "warn" : "ok") + "\" data-model=\"" + esc(best) +
       "\"><b>Lowest mean error: " + esc(best.empty() ? "none (no set has a finite error)" : best) +
       ".</b> The mean absolute position error of the closed-loop re-simulation, averaged over the logs; "
       "the lowest of each log is in bold.</p>\n";
  s += "<table class=\"ranking eval\">\n<thead><tr><th>log</th><th>kp</th><th>trajectory</th>";
  for (const auto& p : params) s += "<th data-label=\"" + esc(p.value("label", std::string())) + "\">" +
                                    esc(p.value("label", std::string())) + " [rad]</th>";
  s += "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const oj& l = logs[i];
    double lowest = std::numeric_limits<double>::infinity();
    for (const auto& p : params) {
      const oj& mae = p.value("mae", oj::array());
      if (i < mae.size() && is_num(mae[i])) lowest = std::min(lowest, num(mae[i]));
    }
    s += "<tr data-log=\"" + esc(l.value("log", std::string())) + "\"><td><code>" + esc(l.value("log", std::string())) +
         "</code></td><td class=\"num\">" + show(l.value("kp", oj())) + "</td><td>" +
         esc(l.value("trajectory", std::string())) + "</td>";
    for (const auto& p : params) {
      const oj& mae = p.value("mae", oj::array());
      const oj v = i < mae.size() ? mae[i] : oj();
      const bool low = is_num(v) && num(v) == lowest;
      s += "<td class=\"num" + std::string(low ? " lowest" : "") + "\" data-value=\"" + exact_attr(v) + "\">" +
           (low ? "<b>" + show(v) + "</b>" : show(v)) + "</td>";
    }
    s += "</tr>\n";
  }
  s += "<tr class=\"mean\"><td colspan=\"3\"><b>mean</b></td>";
  for (const auto& p : params) {
    const bool is_best = p.value("label", std::string()) == best;
    s += "<td class=\"num mean" + std::string(is_best ? " lowest" : "") + "\" data-value=\"" +
         exact_attr(p.value("mean", oj())) + "\">" + (is_best ? "<b>" + show(p.value("mean", oj())) + "</b>" : show(p.value("mean", oj()))) +
         "</td>";
  }
  s += "</tr>\n</tbody>\n</table>\n<p class=\"note\">Parameter files: ";
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

constexpr const char* kStyle = R"css(
:root { --fg: #1a1a1a; --muted: #555; --line: #d0d0d0; --ok: #009E73; --warn: #D55E00; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", sans-serif;
       color: var(--fg); margin: 0 auto; max-width: 1000px; padding: 16px 24px 48px; line-height: 1.4;
       font-size: 15px; background: #fff; }
header { border-bottom: 2px solid var(--fg); margin-bottom: 12px; }
header h1 { font-size: 24px; margin: 8px 0 4px; }
header p { margin: 2px 0 8px; color: var(--muted); }
nav ul { margin: 4px 0 12px; padding-left: 20px; }
section.fit { border-top: 1px solid var(--line); padding-top: 8px; margin-top: 16px; }
h2 { font-size: 20px; margin: 8px 0; } h2 small { font-weight: normal; color: var(--muted); font-size: 14px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
table { border-collapse: collapse; margin: 4px 0 8px; font-size: 14px; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { border-bottom: 2px solid var(--fg); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.fixed td { color: var(--muted); }
code { font-size: 13px; }
.verdict { padding: 8px 12px; border-left: 5px solid var(--ok); background: #eef8f4; }
.verdict.warn { border-left-color: var(--warn); background: #fdf1ea; }
.verdict.bad { border-left-color: #b00020; background: #fbe9ec; }
.verdict ul.reasons { margin: 4px 0 0; padding-left: 20px; }
.verdict li.bad::marker { color: #b00020; }
.verdict li.doubtful::marker { color: var(--warn); }
.verdict .hint { color: var(--muted); }
.reliability.warn { color: #8a3a00; }
.badge { display: inline-block; font-size: 12px; padding: 0 6px; margin: 1px 2px; border-radius: 8px;
         border: 1px solid var(--line); white-space: nowrap; }
.badge.flag { border-color: var(--warn); color: #8a3a00; background: #fdf1ea; }
.badge.fixed { color: var(--muted); }
ul.flags li, ul.reasons li, ul.warnings li { margin: 2px 0; }
ul.flags li::marker { color: var(--warn); }
.note { color: var(--muted); font-size: 13px; }
figure { margin: 4px 0; }
svg.plot { width: 100%; height: auto; display: block; }
.row { display: flex; flex-wrap: wrap; gap: 8px; } .row figure { flex: 1 1 440px; min-width: 0; }
.controls { font-size: 13px; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.controls input[type=range] { width: 220px; vertical-align: middle; }
.controls .hint { color: var(--muted); }
table.correlation td.high { font-weight: bold; outline: 2px solid var(--warn); }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  .controls, nav { display: none; }
  section.fit { break-before: page; border: none; }
  section.fit:first-of-type { break-before: auto; }
  figure, table, .timeplot { break-inside: avoid; }
  .verdict { background: none; }
}
)css";

// The time plot: drawn from its JSON by this script (no library), with a zoom by two range
// sliders, a brush (drag across the plot area) and a reset (button or double-click).
constexpr const char* kScript = R"js(
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var COLORS = ["#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000"];
  var W = 960, LEFT = 78, RIGHT = 16, TOP = 10, PH = 150, GAP = 26, BOTTOM = 44;
  function el(tag, attrs, parent, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function ticks(lo, hi, n) {
    var span = hi - lo;
    if (!(span > 0)) return [lo];
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    var step = (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p, out = [];
    for (var v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }
  function fmt(v, step) {
    var d = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    return Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-4 && v !== 0) ? v.toExponential(1) : v.toFixed(Math.min(d, 8));
  }
  function lowerBound(a, x) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function setup(box) {
    var data = JSON.parse(box.querySelector("script.plot-data").textContent);
    var svg = box.querySelector("svg.plot"), t = data.t, n = t.length;
    var start = box.querySelector(".zoom-start"), end = box.querySelector(".zoom-end");
    var label = box.querySelector(".range-label");
    var tmin = t[0], tmax = t[n - 1], np = data.panels.length;
    var H = TOP + np * PH + (np - 1) * GAP + BOTTOM;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var pw = W - LEFT - RIGHT, view = [tmin, tmax];
    function draw() {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      var t0 = view[0], t1 = view[1];
      var i0 = Math.max(0, lowerBound(t, t0) - 1), i1 = Math.min(n, lowerBound(t, t1) + 1);
      var X = function (v) { return LEFT + (v - t0) / (t1 - t0) * pw; };
      el("rect", {x: 0, y: 0, width: W, height: H, fill: "white"}, svg);
      var xt = ticks(t0, t1, 8), xstep = xt.length > 1 ? xt[1] - xt[0] : (t1 - t0);
      data.panels.forEach(function (panel, pi) {
        var top = TOP + pi * (PH + GAP), lo = Infinity, hi = -Infinity;
        panel.series.forEach(function (s) {
          for (var i = i0; i < i1; i++) { var y = s.y[i]; if (y === null) continue; if (y < lo) lo = y; if (y > hi) hi = y; }
        });
        if (!(hi > lo)) { lo = (isFinite(lo) ? lo : 0) - 1; hi = lo + 2; }
        var pad = 0.05 * (hi - lo); lo -= pad; hi += pad;
        var Y = function (v) { return top + PH - (v - lo) / (hi - lo) * PH; };
        var g = el("g", {"class": "panel"}, svg);
        var yt = ticks(lo, hi, 5), ystep = yt.length > 1 ? yt[1] - yt[0] : (hi - lo);
        var grid = el("g", {stroke: "#e4e4e4", "stroke-width": 1}, g);
        xt.forEach(function (v) { el("line", {x1: X(v), x2: X(v), y1: top, y2: top + PH}, grid); });
        yt.forEach(function (v) { if (v >= lo && v <= hi) el("line", {x1: LEFT, x2: LEFT + pw, y1: Y(v), y2: Y(v)}, grid); });
        el("rect", {x: LEFT, y: top, width: pw, height: PH, fill: "none", stroke: "#333"}, g);
        yt.forEach(function (v) {
          if (v >= lo && v <= hi) el("text", {x: LEFT - 6, y: Y(v) + 4, "text-anchor": "end", "font-size": 12}, g, fmt(v, ystep));
        });
        el("text", {x: 14, y: top + PH / 2, "text-anchor": "middle", "font-size": 12,
                    transform: "rotate(-90 14 " + (top + PH / 2) + ")"}, g, panel.label);
        if (pi === np - 1) {
          xt.forEach(function (v) { el("text", {x: X(v), y: top + PH + 16, "text-anchor": "middle", "font-size": 12}, g, fmt(v, xstep)); });
          el("text", {x: LEFT + pw / 2, y: top + PH + 36, "text-anchor": "middle", "font-size": 13}, g, data.xlabel);
        }
        var clip = "clip-" + box.id + "-" + pi;
        var cp = el("clipPath", {id: clip}, g);
        el("rect", {x: LEFT, y: top, width: pw, height: PH}, cp);
        panel.series.forEach(function (s, si) {
          // per pixel column: first, min, max, last (the envelope of every sample)
          var pts = [], col = -1, cmin, cmax, first, last;
          function flush() {
            if (col < 0) return;
            var seen = {};
            [first, cmin, cmax, last].sort(function (a, b) { return a - b; }).forEach(function (i) {
              if (!seen[i]) { seen[i] = 1; pts.push(X(t[i]).toFixed(1) + "," + Y(s.y[i]).toFixed(1)); }
            });
          }
          for (var i = i0; i < i1; i++) {
            if (s.y[i] === null) continue;
            var c = Math.floor(X(t[i]));
            if (c !== col) { flush(); col = c; first = cmin = cmax = last = i; }
            else { last = i; if (s.y[i] < s.y[cmin]) cmin = i; if (s.y[i] > s.y[cmax]) cmax = i; }
          }
          flush();
          var line = {points: pts.join(" "), fill: "none", stroke: s.color || COLORS[si % COLORS.length],
                      "stroke-width": 1.2, "clip-path": "url(#" + clip + ")", "class": "series",
                      "data-name": s.name};
          if (s.dash) line["stroke-dasharray"] = s.dash;
          el("polyline", line, g);
        });
        var lw = 0; panel.series.forEach(function (s) { lw = Math.max(lw, s.name.length); });
        var lx = LEFT + pw - 12 - lw * 7 - 26, ly = top + 8;
        el("rect", {x: lx - 6, y: ly - 4, width: lw * 7 + 38, height: panel.series.length * 16 + 6,
                    fill: "white", "fill-opacity": 0.85, stroke: "#999"}, g);
        panel.series.forEach(function (s, si) {
          var yy = ly + 8 + si * 16;
          var key = {x1: lx, x2: lx + 20, y1: yy, y2: yy, stroke: s.color || COLORS[si % COLORS.length], "stroke-width": 2};
          if (s.dash) key["stroke-dasharray"] = s.dash;
          el("line", key, g);
          el("text", {x: lx + 26, y: yy + 4, "font-size": 12}, g, s.name);
        });
      });
      var brush = el("rect", {"class": "brush", x: LEFT, y: TOP, width: 0, height: H - TOP - BOTTOM,
                              fill: "#0072B2", "fill-opacity": 0.15, visibility: "hidden"}, svg);
      svg.setAttribute("data-range", t0 + " " + t1);
      label.textContent = "showing " + fmt(t0, xstep / 10) + " s to " + fmt(t1, xstep / 10) + " s";
      svg.__brush = brush;
    }
    function frac(v) { return Math.round((v - tmin) / (tmax - tmin) * 1000); }
    function setView(a, b) {
      if (!(b > a)) return;
      view = [Math.max(tmin, a), Math.min(tmax, b)];
      start.value = frac(view[0]); end.value = frac(view[1]);
      draw();
    }
    function fromSliders() {
      var a = +start.value, b = +end.value;
      if (b <= a) { if (this === start) a = b - 1; else b = a + 1; }
      setView(tmin + (tmax - tmin) * Math.max(0, a) / 1000, tmin + (tmax - tmin) * Math.min(1000, b) / 1000);
    }
    start.addEventListener("input", fromSliders);
    end.addEventListener("input", fromSliders);
    box.querySelector(".zoom-reset").addEventListener("click", function () { setView(tmin, tmax); });
    svg.addEventListener("dblclick", function () { setView(tmin, tmax); });
    var drag = null;
    function svgX(ev) {
      var r = svg.getBoundingClientRect();
      return (ev.clientX - r.left) / r.width * W;
    }
    svg.addEventListener("mousedown", function (ev) { drag = svgX(ev); ev.preventDefault(); });
    svg.addEventListener("mousemove", function (ev) {
      if (drag === null) return;
      var x = svgX(ev), b = svg.__brush;
      b.setAttribute("x", Math.min(drag, x)); b.setAttribute("width", Math.abs(x - drag));
      b.setAttribute("visibility", "visible");
    });
    window.addEventListener("mouseup", function (ev) {
      if (drag === null) return;
      var x = svgX(ev), a = Math.min(drag, x), b = Math.max(drag, x);
      drag = null;
      if (b - a < 4) { svg.__brush.setAttribute("visibility", "hidden"); return; }
      var T = function (px) { return view[0] + (Math.min(Math.max(px, LEFT), LEFT + pw) - LEFT) / pw * (view[1] - view[0]); };
      setView(T(a), T(b));
    });
    draw();
  }
  Array.prototype.forEach.call(document.querySelectorAll("div.timeplot"), setup);
})();
)js";

}  // namespace

std::string report_summary_html(const ReportSource& source) {
  const oj& fit = source.result;
  if (!fit.is_object() || fit.value("format", std::string()) != "frictionlab-fit")
    bad(source.name, "not a fit.json (\"format\": \"frictionlab-fit\" is missing)");
  std::string s = "<div class=\"frictionlab-summary\"><style>"
                  ".frictionlab-summary table{border-collapse:collapse;font-size:13px}"
                  ".frictionlab-summary th,.frictionlab-summary td{padding:2px 8px;border-bottom:1px solid #d0d0d0;text-align:left}"
                  ".frictionlab-summary td.num{text-align:right;font-variant-numeric:tabular-nums}"
                  ".frictionlab-summary .verdict{padding:6px 10px;border-left:5px solid #009E73}"
                  ".frictionlab-summary .verdict.warn{border-left-color:#D55E00}"
                  ".frictionlab-summary .badge{font-size:11px;padding:0 5px;margin:1px;border:1px solid #D55E00;border-radius:7px}"
                  ".frictionlab-summary .badge.fixed{border-color:#d0d0d0}"
                  "</style>\n<p><b>" + esc(fit.value("model_name", std::string())) + "</b> (" +
                  esc(fit.value("problem", std::string())) + ", " + esc(fit.value("method", std::string())) +
                  ") on <code>" + esc(fit.value("input", std::string())) + "</code>: training RMSE " +
                  show(fit.contains("training") ? fit.at("training").value("rmse", oj()) : oj()) + "</p>\n";
  s += verdict(fit) + parameter_table(fit, source.name) + flags_section(fit) + "</div>\n";
  return s;
}

ReportSource read_report_source(const std::string& path) {
  const std::string text = read_text_file(path, "a result file");
  (void)detail::parse_json_text(text, path);  // syntax errors with line and column
  return {path, oj::parse(text)};
}

std::string report_html(const std::vector<ReportSource>& sources, const ReportOptions& options) {
  if (sources.empty()) throw std::invalid_argument("report_html: no result to report");
  std::string body, nav;
  int fits = 0, comparisons = 0;
  for (const auto& src : sources) {
    if (src.result.is_object() && src.result.value("format", std::string()) == "frictionlab-compare") {
      const std::string cid = "comparison-" + std::to_string(++comparisons);
      const auto& rows = need(src.result, src.name, "rows");
      if (!rows.is_array()) bad(src.name, "key 'rows': expected an array");
      std::vector<std::string> ids;
      std::string sections;
      for (const auto& r : rows) {
        ids.push_back("fit-" + std::to_string(++fits));
        if (!r.contains("fit")) bad(src.name, "a row has no 'fit'");
        sections += fit_section({src.name + ": " + r.value("model", std::string()), r.at("fit")}, ids.back());
      }
      body += comparison_section(src, cid, ids) + sections;
      nav += "<li><a href=\"#" + cid + "\">comparison &mdash; " + esc(src.name) + "</a></li>\n";
    } else if (src.result.is_object() && !src.result.contains("format") && src.result.contains("models") &&
               src.result.contains("recommended")) {
      const std::string id = "fit-" + std::to_string(++fits);
      body += actuator_section(src, id);
      nav += "<li><a href=\"#" + id + "\">actuator &mdash; " + esc(src.name) + "</a></li>\n";
    } else if (src.result.is_object() && src.result.value("format", std::string()) == "frictionlab-actuator-eval") {
      const std::string id = "fit-" + std::to_string(++fits);
      body += actuator_eval_section(src, id);
      nav += "<li><a href=\"#" + id + "\">actuator evaluation &mdash; " + esc(src.name) + "</a></li>\n";
    } else if (src.result.is_object() && src.result.value("format", std::string()) == "frictionlab-joint-eval") {
      const std::string id = "fit-" + std::to_string(++fits);
      body += joint_eval_section(src, id);
      nav += "<li><a href=\"#" + id + "\">joint evaluation &mdash; " + esc(src.name) + "</a></li>\n";
    } else if (src.result.is_object() && src.result.value("format", std::string()) == "frictionlab-joint-fit") {
      const std::string id = "fit-" + std::to_string(++fits);
      body += joint_section(src, id);
      nav += "<li><a href=\"#" + id + "\">joint (" + esc(src.result.value("method", std::string())) + ") &mdash; " +
             esc(src.name) + "</a></li>\n";
    } else {
      const std::string id = "fit-" + std::to_string(++fits);
      body += fit_section(src, id);
      nav += "<li><a href=\"#" + id + "\">" + esc(src.result.is_object() ? src.result.value("model_name", std::string()) : std::string()) +
             " &mdash; " + esc(src.name) + "</a></li>\n";
    }
  }
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                  "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>" +
                  esc(options.title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<header>\n<h1>" +
                  esc(options.title) + "</h1>\n<p>";
  if (!options.generator.empty()) s += "Made by " + esc(options.generator) + ". ";
  s += std::to_string(fits) + (fits == 1 ? " fit" : " fits") +
       (comparisons > 0 ? ", " + std::to_string(comparisons) + (comparisons == 1 ? " comparison" : " comparisons") : std::string()) +
       ".</p>\n";
  if (!options.command.empty()) s += "<p class=\"command\"><code>" + esc(options.command) + "</code></p>\n";
  s += "</header>\n";
  if (fits + comparisons > 1) s += "<nav><ul>\n" + nav + "</ul></nav>\n";
  s += body;
  s += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return s;
}

void write_report(const std::string& path, const std::vector<ReportSource>& sources,
                  const ReportOptions& options) {
  std::vector<NamedPath> inputs;
  inputs.reserve(sources.size());
  for (const auto& src : sources) inputs.push_back({"result", src.name});
  check_outputs_not_inputs(inputs, {{"--output", path}});
  write_text_output(path, report_html(sources, options));
}

}  // namespace frictionlab::io
