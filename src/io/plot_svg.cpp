// frictionlab: SVG line plots (include/frictionlab/io/plot_svg.hpp).
#include "frictionlab/io/plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/output.hpp"

namespace frictionlab::io {
namespace {

// Okabe & Ito's colour-blind-safe palette (blue, vermillion, bluish green, orange, reddish
// purple, sky blue, black; its yellow is too light on white and left out).
constexpr const char* kColors[] = {"#0072B2", "#D55E00", "#009E73", "#E69F00",
                                   "#CC79A7", "#56B4E9", "#000000"};
constexpr int kNumColors = 8;

constexpr double kLeft = 90, kRight = 20, kTop = 40, kGap = 30, kBottom = 50;

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

std::string px(double a) { return fmt("%.1f", a); }

std::string tick_label(double v, double step) {
  if (std::abs(v) < std::abs(step) * 1e-9) v = 0;
  return fmt("%.6g", v);
}

// Nice step for a span divided into about n intervals: 1, 2, 5 x 10^k, the nearest to
// span/n (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990).
double nice_step(double span, int n) {
  const double raw = span / std::max(1, n);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / mag;
  const double m = r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10;
  return m * mag;
}

struct Range {
  double lo = 0, hi = 0;
  bool any = false;
  void add(double v) {
    if (!std::isfinite(v)) return;
    if (!any) {
      lo = hi = v;
      any = true;
    } else {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
};

// Widen a degenerate or empty range.
void widen(Range& r) {
  if (!r.any) {
    r.lo = -1;
    r.hi = 1;
    r.any = true;
  } else if (!(r.hi > r.lo)) {
    const double d = r.lo == 0 ? 1 : std::abs(r.lo) * 0.1;
    r.lo -= d;
    r.hi += d;
  }
}

// Indices of the points drawn for y: all points when they fit, else per pixel column the first,
// smallest, largest and last point (in sample order). Non-finite points are kept (they break
// the line).
std::vector<std::size_t> decimate(const std::vector<double>& x, const std::vector<double>& y,
                                  double x0, double x1, int columns) {
  std::vector<std::size_t> idx;
  const std::size_t n = y.size();
  if (n <= 4 * static_cast<std::size_t>(columns)) {
    idx.resize(n);
    for (std::size_t i = 0; i < n; ++i) idx[i] = i;
    return idx;
  }
  const double scale = columns / (x1 - x0);
  std::size_t i = 0;
  while (i < n) {
    if (!std::isfinite(y[i])) {
      idx.push_back(i++);
      continue;
    }
    const long col = static_cast<long>(std::floor((x[i] - x0) * scale));
    std::size_t first = i, last = i, imin = i, imax = i;
    while (i < n && std::isfinite(y[i]) &&
           static_cast<long>(std::floor((x[i] - x0) * scale)) == col) {
      if (y[i] < y[imin]) imin = i;
      if (y[i] > y[imax]) imax = i;
      last = i++;
    }
    std::size_t pts[4] = {first, std::min(imin, imax), std::max(imin, imax), last};
    for (std::size_t p : pts)
      if (idx.empty() || idx.back() != p) idx.push_back(p);
  }
  return idx;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target, bool extend) {
  std::vector<double> t;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) return {lo, hi};
  const double span = hi - lo;
  if (!std::isfinite(span)) return {lo, hi};
  const double step = nice_step(span, std::max(1, target - 1));
  const double a = extend ? std::floor(lo / step) : std::ceil(lo / step);
  const double b = extend ? std::ceil(hi / step) : std::floor(hi / step);
  for (double k = a; k <= b + 0.5; k += 1) t.push_back(k * step);
  return t;
}

std::string render_svg(const Plot& plot) {
  if (plot.x.empty()) throw std::invalid_argument("render_svg: no x values");
  if (plot.panels.empty()) throw std::invalid_argument("render_svg: no panels");
  for (const auto& p : plot.panels)
    for (const auto& s : p.series)
      if (s.y.size() != plot.x.size())
        throw std::invalid_argument("render_svg: series '" + s.name + "' has " +
                                    std::to_string(s.y.size()) + " values for " +
                                    std::to_string(plot.x.size()) + " x values");
  const double W = plot.width, H = plot.panel_height;
  const double pw = W - kLeft - kRight;
  const double np = static_cast<double>(plot.panels.size());
  const double total_h = kTop + np * H + (np - 1) * kGap + kBottom;

  Range xr;
  for (double v : plot.x) xr.add(v);
  widen(xr);
  const double x0 = xr.lo, x1 = xr.hi;
  auto X = [&](double v) { return kLeft + (v - x0) / (x1 - x0) * pw; };
  const auto xticks = nice_ticks(x0, x1, 8, false);
  const double xstep = xticks.size() > 1 ? xticks[1] - xticks[0] : x1 - x0;

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(W) + "\" height=\"" + px(total_h) +
       "\" viewBox=\"0 0 " + px(W) + " " + px(total_h) +
       "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!plot.title.empty())
    s += "<text x=\"" + px(W / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" +
         escape(plot.title) + "</text>\n";

  for (std::size_t pi = 0; pi < plot.panels.size(); ++pi) {
    const auto& panel = plot.panels[pi];
    const double top = kTop + static_cast<double>(pi) * (H + kGap);
    Range yr;
    for (const auto& ser : panel.series)
      for (double v : ser.y) yr.add(v);
    widen(yr);
    // 3 % headroom so that lines at the extremes stay visible inside the frame.
    const double pad = 0.03 * (yr.hi - yr.lo);
    if (std::isfinite(pad)) {
      yr.lo -= pad;
      yr.hi += pad;
    }
    const auto yticks = nice_ticks(yr.lo, yr.hi, 6, true);
    const double y0 = yticks.front(), y1 = yticks.back();
    const double ystep = yticks.size() > 1 ? yticks[1] - yticks[0] : y1 - y0;
    auto Y = [&](double v) { return top + H - (v - y0) / (y1 - y0) * H; };

    const std::string clip = "clip" + std::to_string(pi);
    s += "<clipPath id=\"" + clip + "\"><rect x=\"" + px(kLeft) + "\" y=\"" + px(top) +
         "\" width=\"" + px(pw) + "\" height=\"" + px(H) + "\"/></clipPath>\n";
    // Grid and ticks.
    s += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
    for (double v : yticks)
      s += "<line x1=\"" + px(kLeft) + "\" y1=\"" + px(Y(v)) + "\" x2=\"" + px(kLeft + pw) +
           "\" y2=\"" + px(Y(v)) + "\"/>\n";
    for (double v : xticks)
      s += "<line x1=\"" + px(X(v)) + "\" y1=\"" + px(top) + "\" x2=\"" + px(X(v)) + "\" y2=\"" +
           px(top + H) + "\"/>\n";
    s += "</g>\n";
    s += "<rect x=\"" + px(kLeft) + "\" y=\"" + px(top) + "\" width=\"" + px(pw) + "\" height=\"" +
         px(H) + "\" fill=\"none\" stroke=\"black\"/>\n";
    s += "<g text-anchor=\"end\">\n";
    for (double v : yticks)
      s += "<text x=\"" + px(kLeft - 6) + "\" y=\"" + px(Y(v) + 4) + "\">" +
           escape(tick_label(v, ystep)) + "</text>\n";
    s += "</g>\n";
    if (pi + 1 == plot.panels.size()) {
      s += "<g text-anchor=\"middle\">\n";
      for (double v : xticks)
        s += "<text x=\"" + px(X(v)) + "\" y=\"" + px(top + H + 16) + "\">" +
             escape(tick_label(v, xstep)) + "</text>\n";
      s += "</g>\n";
      if (!plot.xlabel.empty())
        s += "<text x=\"" + px(kLeft + pw / 2) + "\" y=\"" + px(top + H + 38) +
             "\" text-anchor=\"middle\">" + escape(plot.xlabel) + "</text>\n";
    }
    const double ly = top + H / 2;
    s += "<text x=\"14\" y=\"" + px(ly) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         px(ly) + ")\">" + escape(panel.ylabel) + "</text>\n";

    // Series.
    for (std::size_t si = 0; si < panel.series.size(); ++si) {
      const auto& ser = panel.series[si];
      const char* color = kColors[si % kNumColors];
      const auto idx = decimate(plot.x, ser.y, x0, x1, static_cast<int>(pw));
      std::string d;
      bool pen = false;
      for (std::size_t i : idx) {
        const double xv = plot.x[i], yv = ser.y[i];
        if (!std::isfinite(xv) || !std::isfinite(yv)) {
          pen = false;
          continue;
        }
        if (ser.points) {  // a zero-length segment with a round cap is a dot
          d += d.empty() ? "M" : " M";
          d += px(X(xv));
          d += ' ';
          d += px(Y(yv));
          d += " l0 0";
          continue;
        }
        d += pen ? " L" : (d.empty() ? "M" : " M");
        d += px(X(xv));
        d += ' ';
        d += px(Y(yv));
        pen = true;
      }
      if (!d.empty()) {
        s += "<path clip-path=\"url(#";
        s += clip;
        s += ")\" d=\"";
        s += d;
        s += "\" fill=\"none\" stroke=\"";
        s += color;
        s += ser.points ? "\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>\n"
                        : "\" stroke-width=\"1.2\"/>\n";
      }
    }
    // Legend (top right).
    // (a series with an empty name is left out of it)
    std::size_t named = 0, longest = 0;
    for (const auto& ser : panel.series)
      if (!ser.name.empty()) ++named, longest = std::max(longest, ser.name.size());
    if (named > 0) {
      const double lw = 36 + 7.0 * static_cast<double>(longest);
      const double lh = 6 + 16.0 * static_cast<double>(named);
      const double lx = kLeft + pw - lw - 6, ly0 = top + 6;
      s += "<rect x=\"" + px(lx) + "\" y=\"" + px(ly0) + "\" width=\"" + px(lw) + "\" height=\"" +
           px(lh) + "\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#999999\"/>\n";
      std::size_t row = 0;
      for (std::size_t si = 0; si < panel.series.size(); ++si) {
        if (panel.series[si].name.empty()) continue;
        const double yy = ly0 + 14 + 16.0 * static_cast<double>(row++);
        s += "<line x1=\"" + px(lx + 6) + "\" y1=\"" + px(yy - 4) + "\" x2=\"" + px(lx + 26) +
             "\" y2=\"" + px(yy - 4) + "\" stroke=\"" + kColors[si % kNumColors] +
             "\" stroke-width=\"2\"/>\n";
        s += "<text x=\"" + px(lx + 30) + "\" y=\"" + px(yy) + "\">" +
             escape(panel.series[si].name) + "</text>\n";
      }
    }
  }
  s += "</svg>\n";
  return s;
}

void write_svg(const std::string& path, const Plot& plot) {
  write_text_output(path, render_svg(plot));
}

}  // namespace frictionlab::io
