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
#include "report_parts.hpp"

namespace frictionlab::io {
namespace {

using namespace report;

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
table.robot-summary th { text-align: left; white-space: nowrap; padding-right: 2em; }
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
svg.plot { max-width: 100%; height: auto; display: block; }
.row { display: flex; flex-wrap: wrap; gap: 8px; } .row figure { flex: 0 1 auto; min-width: 0; }
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
  var W = 960, LEFT = 78, RIGHT = 16, TOP = 10, PH = 150, GAP = 26, BOTTOM = 44, LEGROW = 18;
  // The legend of a panel: its named series in rows above it (never over the data), entries left
  // to right, about 7 px per character of 12 px text; the row of each entry (-1: no name).
  function entryWidth(s) { return 30 + 7 * s.name.length + 14; }
  function legendRows(panel, width) {
    var rows = [], x = 0, row = 0;
    panel.series.forEach(function (s) {
      if (!s.name) { rows.push(-1); return; }
      var w = entryWidth(s);
      if (x > 0 && x + w > width) { row++; x = 0; }
      rows.push(row); x += w;
    });
    return rows;
  }
  function rowCount(rows) { return rows.reduce(function (m, r) { return Math.max(m, r + 1); }, 0); }
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
    var pw = W - LEFT - RIGHT, view = [tmin, tmax];
    var rows = data.panels.map(function (p) { return legendRows(p, pw); }), tops = [], H = TOP;
    rows.forEach(function (r) { H += LEGROW * rowCount(r); tops.push(H); H += PH + GAP; });
    H += BOTTOM - GAP;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("width", W);
    svg.setAttribute("font-family", "sans-serif");
    svg.setAttribute("font-size", 12);
    function draw() {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      var t0 = view[0], t1 = view[1];
      var i0 = Math.max(0, lowerBound(t, t0) - 1), i1 = Math.min(n, lowerBound(t, t1) + 1);
      var X = function (v) { return LEFT + (v - t0) / (t1 - t0) * pw; };
      el("rect", {x: 0, y: 0, width: W, height: H, fill: "white"}, svg);
      var xt = ticks(t0, t1, 8), xstep = xt.length > 1 ? xt[1] - xt[0] : (t1 - t0);
      data.panels.forEach(function (panel, pi) {
        var top = tops[pi], lo = Infinity, hi = -Infinity;
        panel.series.forEach(function (s) {
          for (var i = i0; i < i1; i++) { var y = s.y[i]; if (y === null) continue; if (y < lo) lo = y; if (y > hi) hi = y; }
        });
        var ydata = hi >= lo ? lo + " " + hi : null;
        if (!(hi > lo)) { lo = (isFinite(lo) ? lo : 0) - 1; hi = lo + 2; }
        var pad = 0.05 * (hi - lo); lo -= pad; hi += pad;
        var Y = function (v) { return top + PH - (v - lo) / (hi - lo) * PH; };
        // (the plot layout contract: tests/browser/layout.py)
        var g = el("g", {"class": "panel", "data-xrange": t0 + " " + t1, "data-yrange": lo + " " + hi}, svg);
        if (ydata !== null) g.setAttribute("data-ydata", ydata);
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
          el("text", {x: LEFT + pw / 2, y: top + PH + 36, "text-anchor": "middle", "font-size": 12}, g, data.xlabel);
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
              if (!seen[i]) { seen[i] = 1; pts.push([X(t[i]), Y(s.y[i])]); }
            });
          }
          // The samples just outside the view, moved along their segment onto the frame's edge:
          // the line ends at the frame (no geometry beyond it, clipped or not).
          function edge(p, q, xe) {
            if ((p[0] - xe) * (q[0] - xe) >= 0 || p[0] === q[0]) return p;
            return [xe, p[1] + (q[1] - p[1]) * (xe - p[0]) / (q[0] - p[0])];
          }
          for (var i = i0; i < i1; i++) {
            if (s.y[i] === null) continue;
            var c = Math.floor(X(t[i]));
            if (c !== col) { flush(); col = c; first = cmin = cmax = last = i; }
            else { last = i; if (s.y[i] < s.y[cmin]) cmin = i; if (s.y[i] > s.y[cmax]) cmax = i; }
          }
          flush();
          if (pts.length > 1) {
            if (pts[0][0] < LEFT) pts[0] = edge(pts[0], pts[1], LEFT);
            var m = pts.length - 1;
            if (pts[m][0] > LEFT + pw) pts[m] = edge(pts[m], pts[m - 1], LEFT + pw);
          }
          var line = {points: pts.map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" "), fill: "none", stroke: s.color || COLORS[si % COLORS.length],
                      "stroke-width": 1.2, "clip-path": "url(#" + clip + ")", "class": "series",
                      "data-name": s.name, "data-series": s.name};
          if (s.dash) line["stroke-dasharray"] = s.dash;
          el("polyline", line, g);
        });
        var legend = el("g", {"class": "legend"}, svg), lrow = 0, lx = LEFT;
        var ltop = top - LEGROW * rowCount(rows[pi]) - 2;
        panel.series.forEach(function (s, si) {
          var r = rows[pi][si];
          if (r < 0) return;
          if (r !== lrow) { lrow = r; lx = LEFT; }
          var yy = ltop + LEGROW * r + 13, entry = el("g", {"data-legend": s.name}, legend);
          var key = {x1: lx + 2, x2: lx + 22, y1: yy - 4, y2: yy - 4, stroke: s.color || COLORS[si % COLORS.length], "stroke-width": 2};
          if (s.dash) key["stroke-dasharray"] = s.dash;
          el("line", key, entry);
          el("text", {x: lx + 28, y: yy, "font-size": 12}, entry, s.name);
          lx += entryWidth(s);
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
  std::string s =
      "<div class=\"frictionlab-summary\"><style>"
      ".frictionlab-summary table{border-collapse:collapse;font-size:13px}"
      ".frictionlab-summary th,.frictionlab-summary td{padding:2px 8px;border-bottom:1px solid "
      "#d0d0d0;text-align:left}"
      ".frictionlab-summary td.num{text-align:right;font-variant-numeric:tabular-nums}"
      ".frictionlab-summary .verdict{padding:6px 10px;border-left:5px solid #009E73}"
      ".frictionlab-summary .verdict.warn{border-left-color:#D55E00}"
      ".frictionlab-summary .verdict.bad{border-left-color:#b00020}"
      ".frictionlab-summary .badge{font-size:11px;padding:0 5px;margin:1px;border:1px solid "
      "#D55E00;border-radius:7px}"
      ".frictionlab-summary .badge.fixed{border-color:#d0d0d0}"
      "</style>\n<p><b>" +
      esc(fit.value("model_name", std::string())) + "</b> (" +
      esc(fit.value("problem", std::string())) + ", " + esc(fit.value("method", std::string())) +
      ") on <code>" + esc(fit.value("input", std::string())) + "</code>: training RMSE " +
      show(fit.contains("training") ? fit.at("training").value("rmse", oj()) : oj()) + "</p>\n";
  s += fit_verdict(fit) + parameter_table(fit, source.name) + flags_section(fit) + "</div>\n";
  return s;
}

ReportSource read_report_source(const std::string& path) {
  const std::string text = read_text_file(path, "a result file");
  (void)detail::parse_json_text(text, path);  // syntax errors with line and column
  return {path, oj::parse(text)};
}

std::string report_css() { return kStyle; }

std::string report_html(const std::vector<ReportSource>& sources, const ReportOptions& options) {
  if (sources.empty()) throw std::invalid_argument("report_html: no result to report");
  std::string body, nav;
  int fits = 0, comparisons = 0;
  // The header's count: a fit-actuator section holds a fit per model, an evaluation none.
  int fitted = 0, evaluations = 0;
  // A navigation entry: a link to the section `id` made of the result file `name`.
  const auto nav_entry = [&](const std::string& id, const std::string& what,
                             const std::string& name) {
    nav += "<li><a href=\"#" + id + "\">" + what + " &mdash; " + esc(name) + "</a></li>\n";
  };
  // A result's section under the next id "fit-N"; returns the id.
  using Section = std::string (*)(const ReportSource&, const std::string&);
  const auto add_section = [&](Section section, const ReportSource& src) {
    std::string id = "fit-" + std::to_string(++fits);
    body += section(src, id);
    return id;
  };
  for (const auto& src : sources) {
    const std::string format =
        src.result.is_object() ? src.result.value("format", std::string()) : std::string();
    if (format == "frictionlab-compare") {
      const std::string cid = "comparison-" + std::to_string(++comparisons);
      const auto& rows = need(src.result, src.name, "rows");
      if (!rows.is_array()) bad(src.name, "key 'rows': expected an array");
      std::vector<std::string> ids;
      std::string sections;
      for (const auto& r : rows) {
        ids.push_back("fit-" + std::to_string(++fits));
        if (!r.contains("fit")) bad(src.name, "a row has no 'fit'");
        sections += fit_section({src.name + ": " + r.value("model", std::string()), r.at("fit")},
                                ids.back());
      }
      body += comparison_section(src, cid, ids) + sections;
      nav_entry(cid, "comparison", src.name);
    } else if (src.result.is_object() && !src.result.contains("format") &&
               src.result.contains("models") && src.result.contains("recommended")) {
      nav_entry(add_section(actuator_section, src), "actuator", src.name);
      fitted += static_cast<int>(src.result.at("models").size()) - 1;
    } else if (format == "frictionlab-actuator-eval") {
      nav_entry(add_section(actuator_eval_section, src), "actuator evaluation", src.name);
      ++evaluations;
      --fitted;
    } else if (format == "frictionlab-joint-eval") {
      nav_entry(add_section(joint_eval_section, src), "joint evaluation", src.name);
      ++evaluations;
      --fitted;
    } else if (format == "frictionlab-robot-fit") {
      nav_entry(add_section(robot_section, src), "arm", src.name);
    } else if (format == "frictionlab-joint-fit") {
      // The label is read after the section, which reports a malformed file first.
      const std::string id = add_section(joint_section, src);
      nav_entry(id, "joint (" + esc(src.result.value("method", std::string())) + ")", src.name);
    } else {
      const std::string id = add_section(fit_section, src);
      nav_entry(id,
                esc(src.result.is_object() ? src.result.value("model_name", std::string()) : ""),
                src.name);
    }
  }
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>" +
      esc(options.title) + "</title>\n<style>" + kStyle +
      "</style>\n</head>\n<body>\n<header>\n<h1>" + esc(options.title) + "</h1>\n<p>";
  if (!options.generator.empty()) s += "Made by " + esc(options.generator) + ". ";
  fitted += fits;
  s += std::to_string(fitted) + (fitted == 1 ? " fit" : " fits") +
       (evaluations > 0 ? ", " + std::to_string(evaluations) +
                              (evaluations == 1 ? " evaluation" : " evaluations")
                        : std::string()) +
       (comparisons > 0 ? ", " + std::to_string(comparisons) +
                              (comparisons == 1 ? " comparison" : " comparisons")
                        : std::string()) +
       ".</p>\n";
  if (!options.command.empty())
    s += "<p class=\"command\"><code>" + esc(options.command) + "</code></p>\n";
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