// frictionlab: SVG line plots (include/frictionlab/io/plot_svg.hpp).
#include "frictionlab/io/plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/output.hpp"

namespace frictionlab::io {
namespace {

// Okabe & Ito's colour-blind-safe palette (blue, vermillion, bluish green, orange, reddish
// purple, sky blue, black; its yellow is too light on white and left out).
constexpr const char* kColors[] = {"#0072B2", "#D55E00", "#009E73", "#E69F00",
                                   "#CC79A7", "#56B4E9", "#000000"};
constexpr int kNumColors = 7;

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

std::string px(double a) { return format_fixed(a, 1); }

std::string tick_label(double v, double step) {
  if (std::abs(v) < std::abs(step) * 1e-9) v = 0;
  return format_number(v);
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

/// A legend entry: the series it names, its colour and whether it is drawn as dots.
struct LegendEntry {
  std::string name;
  const char* color;
  bool points;
};

/// The colour of every series of a panel: the palette in order, a continuing series its
/// predecessor's.
std::vector<const char*> series_colors(const PlotPanel& panel) {
  std::vector<const char*> c(panel.series.size());
  int next = 0;
  for (std::size_t si = 0; si < c.size(); ++si)
    c[si] = panel.series[si].continues && si > 0 ? c[si - 1] : kColors[next++ % kNumColors];
  return c;
}

/// The name a series is drawn and listed under: a continuing series its predecessor's.
std::vector<std::string> series_names(const PlotPanel& panel) {
  std::vector<std::string> n(panel.series.size());
  for (std::size_t si = 0; si < n.size(); ++si)
    n[si] = panel.series[si].continues && si > 0 ? n[si - 1] : panel.series[si].name;
  return n;
}

std::vector<LegendEntry> legend_entries(const PlotPanel& panel) {
  const auto colors = series_colors(panel);
  std::vector<LegendEntry> out;
  for (std::size_t si = 0; si < panel.series.size(); ++si)
    if (!panel.series[si].name.empty() && !(panel.series[si].continues && si > 0))
      out.push_back({panel.series[si].name, colors[si], panel.series[si].points});
  return out;
}

/// A legend entry's width [px]: the key, the text at about 7 px per character (12 px sans-serif
/// is narrower on average) and a margin.
double entry_width(const LegendEntry& e) {
  return 30 + 7.0 * static_cast<double>(e.name.size()) + 14;
}

/// The legend's rows above a panel: entries left to right from the plotting area's left edge,
/// wrapped at its width. Returns the row of each entry.
std::vector<int> legend_rows(const std::vector<LegendEntry>& entries, double width) {
  std::vector<int> rows;
  double x = 0;
  int row = 0;
  for (const auto& e : entries) {
    const double w = entry_width(e);
    if (x > 0 && x + w > width) {
      ++row;
      x = 0;
    }
    rows.push_back(row);
    x += w;
  }
  return rows;
}

int row_count(const std::vector<int>& rows) { return rows.empty() ? 0 : rows.back() + 1; }

constexpr double kLegendRow = 18;  // height of a legend row [px]

std::string legend_svg(const std::vector<LegendEntry>& entries, const std::vector<int>& rows,
                       double top) {
  if (entries.empty()) return {};
  std::string s = "<g class=\"legend\">\n";
  double x = kLeft;
  int row = 0;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (rows[k] != row) {
      row = rows[k];
      x = kLeft;
    }
    const double yy = top + kLegendRow * row + 13;
    const auto& e = entries[k];
    s += "<g data-legend=\"" + escape(e.name) + "\">";
    s += e.points
             ? "<circle cx=\"" + px(x + 12) + "\" cy=\"" + px(yy - 4) + "\" r=\"2.5\" fill=\"" +
                   e.color + "\"/>"
             : "<line x1=\"" + px(x + 2) + "\" y1=\"" + px(yy - 4) + "\" x2=\"" + px(x + 22) +
                   "\" y2=\"" + px(yy - 4) + "\" stroke=\"" + e.color + "\" stroke-width=\"2\"/>";
    s += "<text x=\"" + px(x + 28) + "\" y=\"" + px(yy) + "\">" + escape(e.name) + "</text></g>\n";
    x += entry_width(e);
  }
  return s + "</g>\n";
}

/// The y axis of a panel: its data's finite range, 3 % headroom so that lines at the extremes stay
/// visible inside the frame, ticks enclosing it; counts start at 0.
struct YAxis {
  Range data;
  std::vector<double> ticks;
};

YAxis y_axis(const PlotPanel& panel, int target) {
  YAxis a;
  for (const auto& ser : panel.series)
    for (double v : ser.y) a.data.add(v);
  Range yr = a.data;
  widen(yr);
  const double pad = 0.03 * (yr.hi - yr.lo);
  if (std::isfinite(pad)) {
    yr.lo -= pad;
    yr.hi += pad;
  }
  if (panel.counts && (!a.data.any || a.data.lo >= 0)) yr.lo = std::max(yr.lo, 0.0);
  a.ticks = nice_ticks(yr.lo, yr.hi, target, true);
  return a;
}

/// The path of one series ("M x y L x y ...", dots as zero-length round-capped segments).
template <class FX, class FY>
std::string series_path(const Plot& plot, const PlotSeries& ser, double x0, double x1, double pw,
                        const FX& X, const FY& Y) {
  const auto idx = decimate(plot.x, ser.y, x0, x1, static_cast<int>(pw));
  std::string d;
  bool pen = false;
  for (std::size_t i : idx) {
    const double xv = plot.x[i], yv = ser.y[i];
    if (!std::isfinite(xv) || !std::isfinite(yv)) {
      pen = false;
      continue;
    }
    d += ser.points ? (d.empty() ? "M" : " M") : pen ? " L" : (d.empty() ? "M" : " M");
    d += px(X(xv));
    d += ' ';
    d += px(Y(yv));
    if (ser.points) d += " l0 0";
    pen = !ser.points;
  }
  return d;
}

std::string pair_attr(double a, double b) {
  return format_number(a, 9) + " " + format_number(b, 9);
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

namespace {

void check_plot(const Plot& plot) {
  if (plot.x.empty()) throw std::invalid_argument("render_svg: no x values");
  if (plot.panels.empty()) throw std::invalid_argument("render_svg: no panels");
  for (const auto& p : plot.panels)
    for (const auto& s : p.series)
      if (s.y.size() != plot.x.size())
        throw std::invalid_argument("render_svg: series '" + s.name + "' has " +
                                    std::to_string(s.y.size()) + " values for " +
                                    std::to_string(plot.x.size()) + " x values");
}

/// Everything a panel draws: its g.panel (grid, frame, ticks, labels, series), then its legend.
struct PanelFrame {
  double top, H, pw, x0, x1;
  const std::vector<double>& xticks;
  bool last;
};

std::string panel_svg(const Plot& plot, const PlotPanel& panel, std::size_t pi,
                      const PanelFrame& f) {
  const double top = f.top, H = f.H, pw = f.pw, x0 = f.x0, x1 = f.x1;
  auto X = [&](double v) { return kLeft + (v - x0) / (x1 - x0) * pw; };
  const YAxis ya = y_axis(panel, 6);
  const auto& yticks = ya.ticks;
  const double y0 = yticks.front(), y1 = yticks.back();
  const double ystep = yticks.size() > 1 ? yticks[1] - yticks[0] : y1 - y0;
  auto Y = [&](double v) { return top + H - (v - y0) / (y1 - y0) * H; };
  const double xstep = f.xticks.size() > 1 ? f.xticks[1] - f.xticks[0] : x1 - x0;

  std::string s = "<g class=\"panel\" data-xrange=\"" + pair_attr(x0, x1) + "\" data-yrange=\"" +
                  pair_attr(y0, y1) + "\"";
  if (ya.data.any) s += " data-ydata=\"" + pair_attr(ya.data.lo, ya.data.hi) + "\"";
  if (panel.counts) s += " data-ykind=\"count\"";
  s += ">\n";
  const std::string clip = "clip" + std::to_string(pi);
  s += "<clipPath id=\"" + clip + "\"><rect x=\"" + px(kLeft) + "\" y=\"" + px(top) +
       "\" width=\"" + px(pw) + "\" height=\"" + px(H) + "\"/></clipPath>\n";
  s += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (double v : yticks)
    s += "<line x1=\"" + px(kLeft) + "\" y1=\"" + px(Y(v)) + "\" x2=\"" + px(kLeft + pw) +
         "\" y2=\"" + px(Y(v)) + "\"/>\n";
  for (double v : f.xticks)
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
  if (f.last) {
    s += "<g text-anchor=\"middle\">\n";
    for (double v : f.xticks)
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
  const auto colors = series_colors(panel);
  const auto names = series_names(panel);
  for (std::size_t si = 0; si < panel.series.size(); ++si) {
    const auto& ser = panel.series[si];
    const std::string d = series_path(plot, ser, x0, x1, pw, X, Y);
    if (d.empty()) continue;
    // (appended piece by piece: the path of a long series is large)
    s += "<path data-series=\"" + escape(names[si]) + "\" clip-path=\"url(#" + clip + ")\" d=\"";
    s += d;
    s += "\" fill=\"none\" stroke=\"";
    s += colors[si];
    s += ser.points ? "\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>\n"
                    : "\" stroke-width=\"1.2\"/>\n";
  }
  return s + "</g>\n";
}

}  // namespace

std::string render_svg(const Plot& plot) {
  check_plot(plot);
  const double W = plot.width, H = plot.panel_height;
  const double pw = W - kLeft - kRight;
  // The legend rows above each panel.
  std::vector<std::vector<LegendEntry>> legends;
  std::vector<std::vector<int>> rows;
  double legend_h = 0;
  for (const auto& p : plot.panels) {
    legends.push_back(legend_entries(p));
    rows.push_back(legend_rows(legends.back(), pw));
    legend_h += kLegendRow * row_count(rows.back());
  }
  const double np = static_cast<double>(plot.panels.size());
  const double total_h = kTop + legend_h + np * H + (np - 1) * kGap + kBottom;

  Range xr;
  for (double v : plot.x) xr.add(v);
  widen(xr);
  // about one x tick per 90 px (a label of up to 8 characters fits)
  const auto xticks = nice_ticks(xr.lo, xr.hi, std::clamp(static_cast<int>(pw / 90), 3, 8), false);

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(W) + "\" height=\"" + px(total_h) +
       "\" viewBox=\"0 0 " + px(W) + " " + px(total_h) +
       "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!plot.title.empty())
    s += "<text x=\"" + px(W / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" +
         escape(plot.title) + "</text>\n";
  double top = kTop;
  for (std::size_t pi = 0; pi < plot.panels.size(); ++pi) {
    s += legend_svg(legends[pi], rows[pi], top - 2);
    top += kLegendRow * row_count(rows[pi]);
    s += panel_svg(plot, plot.panels[pi], pi,
                   {top, H, pw, xr.lo, xr.hi, xticks, pi + 1 == plot.panels.size()});
    top += H + kGap;
  }
  s += "</svg>\n";
  return s;
}

void write_svg(const std::string& path, const Plot& plot) {
  write_text_output(path, render_svg(plot));
}

}  // namespace frictionlab::io
