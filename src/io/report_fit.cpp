// frictionlab io: the report's sections of a fit (fit.json) and a comparison (compare.json).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "json_fields.hpp"
#include "report_parts.hpp"

namespace frictionlab::io::report {
namespace {

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
      val +=
          (val.empty() ? "" : ", ") + ("<code>" + esc(v.value("file", std::string())) + "</code>");
  row("validation records", val.empty() ? "none" : val);
  row("problem, model, method", esc(fit.value("problem", std::string())) + ", <b>" +
                                    esc(fit.value("model_name", std::string())) + "</b>, " +
                                    esc(fit.value("method", std::string())));
  row("samples", show(d.value("samples", oj())) + " (" + show(d.value("samples_used", oj())) +
                     " after a warm-up of " + show(d.value("warmup_s", oj())) + " s)");
  row("duration, rate", show(d.value("duration_s", oj())) + " s at " +
                            show(d.value("rate_hz", oj())) + " Hz (largest interval " +
                            show(d.value("dt_max_s", oj())) + " s)");
  row("velocity range", "[" + show(rep.value("v_min", oj())) + ", " +
                            show(rep.value("v_max", oj())) + "] " + esc(u.velocity));
  row(fit.value("problem", std::string()) == "sensorless" ? "torque range" : "force range",
      "[" + show(rep.value("y_min", oj())) + ", " + show(rep.value("y_max", oj())) + "] " +
          esc(u.force));
  row("velocity reversals", show(d.value("velocity_reversals", oj())));
  if (num(rep.value("near_zero_threshold", oj(0))) > 0)
    row("low-speed samples",
        show(rep.value("near_zero", oj())) + " (" +
            esc(format_number(100 * num(rep.value("near_zero_fraction", oj(0))), 3)) +
            " %) with |v| &lt; " + show(rep.value("near_zero_threshold", oj())) + " " +
            esc(u.velocity) + " (the smaller of 2 vs and 10 % of the largest speed)");
  row("run time", show(fit.value("run_time_s", oj())) + " s");
  s += "</table>\n";
  s += warnings_list(fit);
  return s;
}

}  // namespace

std::string fit_verdict(const oj& fit) { return verdict_block(fit.value("verdict", oj())); }

namespace {

/// " (= sigma2)" where a parameter's name (reference 000's Kw, Vth, S0, S1 of the sensorless
/// problem) is not its field, the name `export json`, Python's attributes and MODEL.json use.
std::string same_as(const oj& p) {
  const std::string name = p.value("name", std::string()), field = p.value("field", std::string());
  return field.empty() || field == name ? std::string()
                                        : " <span class=\"field\">(= " + esc(field) + ")</span>";
}

}  // namespace

std::string parameter_table(const oj& fit, const std::string& src) {
  const auto& ps = need(fit, src, "parameters");
  if (!ps.is_array()) bad(src, "key 'parameters': expected an array");
  const auto& flags = fit.contains("identifiability") ? fit.at("identifiability") : oj::array();
  std::string s =
      "<h3>Parameters</h3>\n<table "
      "class=\"parameters\">\n<thead><tr><th>parameter</th><th>value</th>"
      "<th>unit</th><th>std. error</th><th>95 % interval</th><th>HAC std. "
      "error</th><th>flags</th></tr>"
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
      badges += "<span class=\"badge flag\" title=\"" + esc(f.value("message", std::string())) +
                "\">" +
                esc(kind == "relative_error" ? "large error"
                    : kind == "correlation"  ? "correlated with " + f.value("other", std::string())
                    : kind == "near_zero"    ? "little low-speed data"
                    : kind == "reversals"    ? "few reversals"
                    : kind == "no_std_error" ? "no std. error"
                                             : kind) +
                "</span>";
    }
    const oj& ci = p.contains("ci95") ? p.at("ci95") : oj::array();
    const oj lo = ci.is_array() && ci.size() == 2 ? ci[0] : oj(),
             hi = ci.is_array() && ci.size() == 2 ? ci[1] : oj();
    s += "<tr data-name=\"" + esc(name) + "\" data-field=\"" +
         esc(p.value("field", std::string())) + "\"" + (fixed ? " class=\"fixed\"" : "") +
         "><td class=\"name\">" + esc(name) + same_as(p) + "</td>";
    s += "<td class=\"value num\" data-value=\"" + exact_attr(p.value("value", oj())) + "\">" +
         show(p.value("value", oj()), 6) + "</td>";
    s += "<td class=\"unit\">" + esc(p.value("unit", std::string())) + "</td>";
    if (fixed) {
      s += "<td class=\"std-error num\" data-value=\"0\">(fixed)</td><td class=\"ci\"></td><td "
           "class=\"hac num\"></td>";
    } else {
      s += "<td class=\"std-error num\" data-value=\"" + exact_attr(p.value("std_error", oj())) +
           "\">" + show(p.value("std_error", oj()), 3) + "</td>";
      s += "<td class=\"ci num\" data-low=\"" + exact_attr(lo) + "\" data-high=\"" +
           exact_attr(hi) + "\">" +
           (is_num(lo) || is_num(hi) ? "[" + show(lo) + ", " + show(hi) + "]"
                                     : std::string("&ndash;")) +
           "</td>";
      s += "<td class=\"hac num\" data-value=\"" + exact_attr(p.value("hac_std_error", oj())) +
           "\">" + show(p.value("hac_std_error", oj()), 3) + "</td>";
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
      s += "<li data-parameter=\"" +
           (par.is_string() ? esc(par.get<std::string>()) : std::string()) + "\" data-kind=\"" +
           esc(f.value("kind", std::string())) + "\">" + esc(f.value("message", std::string())) +
           "</li>\n";
    }
    s += "</ul>\n";
  }
  const auto& rel = fit.contains("reliability") ? fit.at("reliability") : oj::object();
  if (!rel.empty()) {
    const bool ok = rel.value("standard_errors_reliable", true);
    s += "<p class=\"reliability " + std::string(ok ? "ok" : "warn") +
         "\">Residual whiteness: lag-1 "
         "autocorrelation " +
         show(rel.value("residual_acf1", oj()), 3) +
         ", Ljung-Box p = " + show(rel.value("ljung_box_p", oj()), 3) + " over " +
         show(rel.value("ljung_box_lags", oj())) + " lags; the HAC (Newey-West, " +
         show(rel.value("hac_lags", oj())) + " lags) standard errors are up to " +
         show(rel.value("hac_ratio_max", oj()), 3) + " times the white-noise ones. ";
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

namespace {

std::string metrics_section(const oj& fit) {
  std::string s =
      "<h3>Errors</h3>\n<table "
      "class=\"metrics\">\n<thead><tr><th>record</th><th>samples</th><th>RMSE</th>"
      "<th>NRMSE</th><th>R&sup2;</th><th>max |residual|</th></tr></thead>\n<tbody>\n";
  const auto row = [&](const std::string& name, const oj& m, const std::string& kind) {
    s += "<tr data-record=\"" + kind + "\"><td>" + esc(name) + "</td><td class=\"num\">" +
         show(m.value("n", oj())) + "</td><td class=\"num rmse\" data-value=\"" +
         exact_attr(m.value("rmse", oj())) + "\">" + show(m.value("rmse", oj())) +
         "</td><td class=\"num\">" + show(m.value("nrmse", oj())) + "</td><td class=\"num\">" +
         show(m.value("r2", oj())) + "</td><td class=\"num\">" +
         show(m.value("max_abs_residual", oj())) + "</td></tr>\n";
  };
  if (fit.contains("training")) row("training", fit.at("training"), "training");
  if (fit.contains("validation"))
    for (const auto& v : fit.at("validation"))
      row(v.value("file", std::string()), v.value("metrics", oj::object()), "validation");
  s += "</tbody>\n</table>\n<p class=\"note\">AICc " + show(fit.value("aicc", oj()), 8) + ", BIC " +
       show(fit.value("bic", oj()), 8) + ", condition number " +
       show(fit.value("condition_number", oj()), 3) +
       (fit.contains("passive")
            ? std::string(", ") + (fit.at("passive").get<bool>() ? "passive" : "not passive")
            : "") +
       ".</p>\n";
  return s;
}

std::string correlation_section(const oj& fit) {
  const auto& ps = fit.at("parameters");
  const auto& c = fit.contains("correlation") ? fit.at("correlation") : oj::array();
  if (!c.is_array() || c.size() != ps.size() || ps.size() < 2) return {};
  std::string s =
      "<h3>Correlation of the parameters</h3>\n<table class=\"correlation\">\n<thead><tr><th></th>";
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
      s += "<td class=\"num" +
           std::string(std::isfinite(r) && a != b && std::abs(r) > 0.95 ? " high" : "") + "\"" +
           style + ">" + (std::isfinite(r) ? esc(format_fixed(r, 2)) : "&ndash;") + "</td>";
    }
    s += "</tr>\n";
  }
  s += "</tbody>\n</table>\n";
  return s;
}

// Two plots side by side in the page's 952 px column, each drawn at its own size (one font size).
constexpr int kRowPlotWidth = 470;

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
    h.width = kRowPlotWidth;
    h.panel_height = 220;
    std::vector<double> y, dens;
    const double mu = num(rep.value("residual_mean", oj(0))),
                 sd = num(rep.value("residual_std", oj(0)));
    for (std::size_t b = 0; b < counts.size(); ++b) {
      for (double x : {edges[b], edges[b + 1]}) {
        h.x.push_back(x);
        y.push_back(counts[b]);
        const double z = sd > 0 ? (x - mu) / sd : 0;
        dens.push_back(sd > 0 ? total * w * std::exp(-0.5 * z * z) / (sd * std::sqrt(2 * M_PI))
                              : 0);
      }
    }
    h.panels.push_back(
        {"samples per bin", {{"residuals", y}, {"normal, same mean and deviation", dens}}, true});
    s += "<figure>" + inline_svg(h, "histogram", uid + "-histogram") + "</figure>\n";
  }
  const auto acf = numbers(rep.value("acf", oj()));
  if (acf.size() >= 2) {
    const double band = num(rep.value("acf_band", oj(0)));
    Plot a;
    a.title = "Autocorrelation of the residuals";
    a.xlabel = "lag [samples]";
    a.width = kRowPlotWidth;
    a.panel_height = 220;
    // lags 1..L (lag 0 is 1 by definition and would flatten the scale)
    const std::vector<double> r(acf.begin() + 1, acf.end());
    std::vector<double> up(r.size(), band), lo(r.size(), -band);
    for (std::size_t l = 1; l < acf.size(); ++l) a.x.push_back(static_cast<double>(l));
    a.panels.push_back(
        {"autocorrelation",
         {{"residuals", r, true}, {"white noise 95 % band", up}, {"", lo, false, true}}});
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
  q.panels.push_back(
      {"friction [" + u.force + "]", {{"data", m, true}, {"static curve (steady state)", c}}});
  return "<h3>Friction against velocity</h3>\n<figure>" +
         inline_svg(q, "friction-velocity", uid + "-fv") + "</figure>\n";
}

/// The time plot: a placeholder SVG the script draws into, its data as JSON, the zoom controls.
std::string time_plot(const oj& rep, const Units& u, const std::string& id, bool torque) {
  oj data;
  data["t"] = rep.value("t", oj::array());
  data["xlabel"] = "time [s]";
  data["panels"] = oj::array();
  // the sensorless problem's channel is the joint torque
  data["panels"].push_back(
      {{"label", (torque ? "torque [" : "force [") + u.force + "]"},
       {"series",
        {{{"name", "measured"}, {"y", rep.value("measured", oj::array())}},
         {{"name", "predicted"}, {"y", rep.value("predicted", oj::array())}}}}});
  data["panels"].push_back(
      {{"label", "residual [" + u.force + "]"},
       {"series",
        {{{"name", "measured - predicted"}, {"y", rep.value("residual", oj::array())}}}}});
  data["panels"].push_back(
      {{"label", "velocity [" + u.velocity + "]"},
       {"series", {{{"name", "velocity"}, {"y", rep.value("velocity", oj::array())}}}}});
  return "<h3>Measured and predicted</h3>\n" + time_plot_box(data, id);
}

}  // namespace

std::string fit_section(const ReportSource& src, const std::string& id) {
  const oj& fit = src.result;
  const std::string where = src.name;
  if (!fit.is_object()) bad(where, "expected a JSON object");
  const std::string format = fit.value("format", std::string());
  if (format != "frictionlab-fit") {
    const io::detail::JsonKind kind = io::detail::json_kind(fit);
    if (kind ==
        io::detail::JsonKind::actuator_eval)  // (its own format is drawn by actuator_eval_section)
      bad(where,
          "an eval-actuator --json file of the old format (label-keyed, no report data): "
          "run eval-actuator again");
    bad(where, "not a result `frictionlab report` draws: this is " + io::detail::describe(kind) +
                   "; the results are fit.json, compare.json, joint_fit.json, joint_eval.json, "
                   "fit-actuator's summary.json and eval-actuator's --json file");
  }
  const oj& rep = report_data(fit, where, "the fit");
  const Units u = units_of(fit);
  std::string s = "<section class=\"fit\" id=\"" + id + "\" data-model=\"" +
                  esc(fit.value("model_name", std::string())) + "\" data-source=\"" + esc(where) +
                  "\">\n";
  s += "<h2>" + esc(fit.value("model_name", std::string())) + " <small>" +
       esc(fit.value("problem", std::string())) + " problem, " +
       esc(fit.value("method", std::string())) + ", <code>" +
       esc(fit.value("input", std::string())) + "</code> &mdash; " + esc(where) + "</small></h2>\n";
  s += fit_verdict(fit);
  s += parameter_table(fit, where);
  s += flags_section(fit);
  s += time_plot(rep, u, id + "-time", fit.value("problem", std::string()) == "sensorless");
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
                  esc(c.value("input", std::string())) + "</code> &mdash; " + esc(src.name) +
                  "</small></h2>\n";
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
    why = "none: no model has a finite " + std::string(by_val ? "validation" : "training") +
          " RMSE. ";
  else if (c.value("criterion_agrees", false))
    why += crit + " agrees: it is also the best trade-off of fit and parameter count. ";
  else if (bbc.is_string())
    why += crit + " prefers <b>" + esc(bbc.get<std::string>()) + "</b> (" + esc(best_model) +
           ": delta " + crit + " " + show(best.value("delta", oj())) +
           "): the extra parameters of the better-fitting model "
           "buy less than " +
           crit +
           " charges for them; choose it if the validation error matters less than simplicity. ";
  s += verdict_block(c.value("verdict", oj()));
  s += "<p class=\"recommendation\" data-model=\"" + esc(has_best ? best_model : std::string()) +
       "\"><b>Recommended:</b> " + why + "</p>\n";
  s += "<table class=\"ranking\">\n<thead><tr><th>rank</th><th>model</th><th>p</th><th>training "
       "RMSE</th>"
       "<th>validation RMSE</th><th>AICc</th><th>BIC</th><th>delta " +
       crit + "</th><th>flags</th></tr></thead>\n<tbody>\n";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const oj& r = rows[k];
    const oj& f = r.contains("fit") ? r.at("fit") : oj::object();
    const std::size_t nflags = f.contains("identifiability") ? f.at("identifiability").size() : 0;
    const std::string model = r.value("model", std::string());
    s += "<tr data-model=\"" + esc(model) + "\"><td class=\"num\">" + show(r.value("rank", oj())) +
         "</td><td>" +
         (k < model_ids.size() ? "<a href=\"#" + model_ids[k] + "\">" + esc(model) + "</a>"
                               : esc(model)) +
         "</td><td class=\"num\">" + show(r.value("p", oj())) +
         "</td><td class=\"num\" data-value=\"" + exact_attr(r.value("training_rmse", oj())) +
         "\">" + show(r.value("training_rmse", oj())) + "</td><td class=\"num\" data-value=\"" +
         exact_attr(r.value("validation_rmse", oj())) + "\">" +
         show(r.value("validation_rmse", oj())) + "</td><td class=\"num\">" +
         show(r.value("aicc", oj()), 8) + "</td><td class=\"num\">" +
         show(r.value("bic", oj()), 8) + "</td><td class=\"num\">" +
         show(r.value("delta", oj()), 4) + "</td><td>" +
         (nflags > 0 ? "<span class=\"badge flag\">" + std::to_string(nflags) + " flag" +
                           (nflags == 1 ? "" : "s") + "</span>"
                     : std::string()) +
         "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n<p class=\"note\">Ranked by " +
       std::string(by_val ? "validation" : "training") + " RMSE; delta " + crit +
       " is the difference to the smallest " + crit +
       " (below 2: no real "
       "difference; above 10: strong evidence against the model). Each model's section "
       "follows.</p>\n</section>\n";
  return s;
}

}  // namespace frictionlab::io::report
