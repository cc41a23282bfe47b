// frictionlab: SVG line plots (include/frictionlab/io/plot_svg.hpp).
#include "frictionlab/io/plot_svg.hpp"

#include <algorithm>
#include <cctype>
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

/// The abscissa of a series: its own, else the plot's.
const std::vector<double>& xs_of(const Plot& plot, const PlotSeries& ser) {
  return ser.x.empty() ? plot.x : ser.x;
}

/// Estimated width of one character of the plot's text [px]: 0.6 em, generous for sans-serif
/// (Liberation Sans averages about 0.55 em), so that labels placed by it do not touch.
double char_px(const Plot& plot) { return 0.6 * plot.font_size; }

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

/// A legend entry: the series it names, its colour, its key (dots or a line, dashed or not) and
/// its note.
struct LegendEntry {
  std::string name;
  std::string color;
  bool points;
  bool dashed;
  std::string note;
};

/// The colour of every series of a panel: its own, else a continuing series its predecessor's,
/// else the palette's next.
std::vector<std::string> series_colors(const PlotPanel& panel) {
  std::vector<std::string> c(panel.series.size());
  int next = 0;
  for (std::size_t si = 0; si < c.size(); ++si) {
    const auto& ser = panel.series[si];
    if (!ser.color.empty())
      c[si] = ser.color;
    else if (ser.continues && si > 0)
      c[si] = c[si - 1];
    else
      c[si] = kColors[next++ % kNumColors];
  }
  return c;
}

/// The name a series is drawn and listed under: a continuing series its predecessor's.
std::vector<std::string> series_names(const PlotPanel& panel) {
  std::vector<std::string> n(panel.series.size());
  for (std::size_t si = 0; si < n.size(); ++si)
    n[si] = panel.series[si].continues && si > 0 ? n[si - 1] : panel.series[si].name;
  return n;
}

/// One entry per distinct name, in the order of first appearance, with that series' key.
std::vector<LegendEntry> legend_entries(const PlotPanel& panel) {
  const auto colors = series_colors(panel);
  std::vector<LegendEntry> out;
  for (std::size_t si = 0; si < panel.series.size(); ++si) {
    const auto& ser = panel.series[si];
    if (ser.name.empty() || (ser.continues && si > 0)) continue;
    if (std::any_of(out.begin(), out.end(), [&](const auto& e) { return e.name == ser.name; }))
      continue;
    out.push_back({ser.name, colors[si], ser.points, ser.dashed, ser.note});
  }
  return out;
}

/// The text of an entry in a legend row: the name, its note after a colon.
std::string row_text(const LegendEntry& e) {
  return e.note.empty() ? e.name : e.name + ": " + e.note;
}

/// A legend entry's width in a row [px]: the key, the text at about 7/12 em per character (12 px
/// sans-serif is narrower on average) and a margin.
double entry_width(const LegendEntry& e, int font_size) {
  return 30 + 7.0 * font_size / 12.0 * static_cast<double>(row_text(e).size()) + 14;
}

/// The legend's rows above a panel: entries left to right from the plotting area's left edge,
/// wrapped at its width. Returns the row of each entry.
std::vector<int> legend_rows(const std::vector<LegendEntry>& entries, double width, int font_size) {
  std::vector<int> rows;
  double x = 0;
  int row = 0;
  for (const auto& e : entries) {
    const double w = entry_width(e, font_size);
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

constexpr double kLegendRow = 18;  // height of a legend row above a panel [px]

/// The key of a legend entry from (x, y) to (x + 20, y): a dot in its middle or a line.
std::string legend_key(const LegendEntry& e, double x, double y) {
  if (e.points)
    return "<circle cx=\"" + px(x + 10) + "\" cy=\"" + px(y) + "\" r=\"2.5\" fill=\"" + e.color +
           "\"/>";
  return "<line x1=\"" + px(x) + "\" y1=\"" + px(y) + "\" x2=\"" + px(x + 20) + "\" y2=\"" + px(y) +
         "\" stroke=\"" + e.color + "\" stroke-width=\"2\"" +
         (e.dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>";
}

std::string legend_svg(const Plot& plot, const std::vector<LegendEntry>& entries,
                       const std::vector<int>& rows, double top) {
  if (entries.empty()) return {};
  std::string s = "<g class=\"legend\">\n";
  double x = plot.margins.left;
  int row = 0;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (rows[k] != row) {
      row = rows[k];
      x = plot.margins.left;
    }
    const double yy = top + kLegendRow * row + 13;
    const auto& e = entries[k];
    s += "<g data-legend=\"" + escape_markup(e.name) + "\">" + legend_key(e, x + 2, yy - 4);
    s += "<text x=\"" + px(x + 28) + "\" y=\"" + px(yy) + "\">" + escape_markup(row_text(e)) +
         "</text></g>\n";
    x += entry_width(e, plot.font_size);
  }
  return s + "</g>\n";
}

/// Height of a row of the legend column [px].
double column_row(const Plot& plot) { return std::round(1.3 * plot.font_size); }

/// The legend column's height [px]: a row per entry, two for an entry with a note.
double legend_column_height(const Plot& plot, const std::vector<LegendEntry>& entries) {
  double h = 0;
  for (const auto& e : entries) h += column_row(plot) * (e.note.empty() ? 1 : 2);
  return h;
}

/// The legend as a column from (x0, top): one row per entry, its note in a second row in its
/// colour; names too long for the column shortened with an ellipsis (the whole in its title).
std::string legend_column_svg(const Plot& plot, const std::vector<LegendEntry>& entries, double x0,
                              double top) {
  if (entries.empty()) return {};
  const auto room =
      static_cast<std::size_t>(std::max(4.0, (plot.legend_width - 24) / char_px(plot)));
  auto shorten = [&](const std::string& t) {
    return t.size() <= room ? t : t.substr(0, room - 1) + "\u2026";
  };
  const double row = column_row(plot), text_dy = 0.35 * plot.font_size;
  std::string s = "<g class=\"legend\">\n";
  double y = top + row / 2;
  for (const auto& e : entries) {
    s += "<g data-legend=\"" + escape_markup(e.name) + "\"><title>" + escape_markup(row_text(e)) +
         "</title>" + legend_key(e, x0, y);
    s += "<text x=\"" + px(x0 + 24) + "\" y=\"" + px(y + text_dy) + "\">" +
         escape_markup(shorten(e.name)) + "</text>";
    if (!e.note.empty())
      s += "<text x=\"" + px(x0 + 24) + "\" y=\"" + px(y + row + text_dy) +
           "\" style=\"fill:" + e.color + "\" font-style=\"italic\">" +
           escape_markup(shorten(e.note)) + "</text>";
    s += "</g>\n";
    y += row * (e.note.empty() ? 1 : 2);
  }
  return s + "</g>\n";
}

/// The y axis of a panel: its data's finite range (interval bars included), 3 % headroom so that
/// lines at the extremes stay visible inside the frame, ticks enclosing it; counts start at 0.
struct YAxis {
  Range data;
  std::vector<double> ticks;
};

YAxis y_axis(const PlotPanel& panel, int target) {
  YAxis a;
  for (const auto& ser : panel.series) {
    for (double v : ser.y) a.data.add(v);
    for (double v : ser.lo) a.data.add(v);
    for (double v : ser.hi) a.data.add(v);
  }
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
std::string series_path(const std::vector<double>& xs, const PlotSeries& ser, double x0, double x1,
                        double pw, const FX& X, const FY& Y) {
  const auto idx = decimate(xs, ser.y, x0, x1, static_cast<int>(pw));
  std::string d;
  bool pen = false;
  for (std::size_t i : idx) {
    const double xv = xs[i], yv = ser.y[i];
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

/// ` name="value"` for each attribute.
std::string attributes_text(const std::vector<std::pair<std::string, std::string>>& attrs) {
  std::string s;
  for (const auto& [name, value] : attrs) s += " " + name + "=\"" + escape_markup(value) + "\"";
  return s;
}

bool is_attribute_name(const std::string& n) {
  return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
  });
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

std::string escape_markup(const std::string& text) {
  std::string o;
  o.reserve(text.size());
  for (char c : text) {
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
      case '\'':
        o += "&#39;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

namespace {

void check_attributes(const std::vector<std::pair<std::string, std::string>>& attrs) {
  for (const auto& a : attrs)
    if (!is_attribute_name(a.first))
      throw std::invalid_argument("render_svg: '" + a.first + "' is not an attribute name");
}

void check_plot(const Plot& plot) {
  if (plot.x.empty()) throw std::invalid_argument("render_svg: no x values");
  if (plot.panels.empty()) throw std::invalid_argument("render_svg: no panels");
  check_attributes(plot.attributes);
  for (const auto& p : plot.panels)
    for (const auto& s : p.series) {
      const auto& xs = xs_of(plot, s);
      if (s.y.size() != xs.size())
        throw std::invalid_argument("render_svg: series '" + s.name + "' has " +
                                    std::to_string(s.y.size()) + " values for " +
                                    std::to_string(xs.size()) + " x values");
      if (s.lo.size() != s.hi.size() || (!s.lo.empty() && s.lo.size() != s.y.size()))
        throw std::invalid_argument("render_svg: series '" + s.name +
                                    "': its interval bars (lo, hi) need one value per y value");
      check_attributes(s.attributes);
    }
}

/// The x axis: the finite range of the plot's and every series' abscissae, its ticks with their
/// labels (the given ones or nice numbers), those whose label would overlap its left neighbour's
/// (or repeat it) left out.
struct XAxis {
  Range range;
  std::vector<double> ticks;
  std::vector<std::string> labels;
};

XAxis x_axis(const Plot& plot, double pw) {
  XAxis a;
  for (double v : plot.x) a.range.add(v);
  for (const auto& p : plot.panels)
    for (const auto& s : p.series)
      for (double v : s.x) a.range.add(v);
  widen(a.range);
  std::vector<double> ticks = plot.xticks;
  std::vector<std::string> labels = plot.xtick_labels;
  if (ticks.empty())  // about one x tick per 90 px (a label of up to 8 characters fits)
    ticks = nice_ticks(a.range.lo, a.range.hi, std::clamp(static_cast<int>(pw / 90), 3, 8), false);
  if (labels.size() != ticks.size()) {
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : a.range.hi - a.range.lo;
    labels.clear();
    for (double v : ticks) labels.push_back(tick_label(v, step));
  }
  const double scale = pw / (a.range.hi - a.range.lo), gap = 8;
  double end = -1e300;
  for (std::size_t k = 0; k < ticks.size(); ++k) {
    const double at = (ticks[k] - a.range.lo) * scale;
    const double half = char_px(plot) * static_cast<double>(labels[k].size()) / 2;
    if (at - half < end + gap || (!a.labels.empty() && labels[k] == a.labels.back())) continue;
    a.ticks.push_back(ticks[k]);
    a.labels.push_back(labels[k]);
    end = at + half;
  }
  return a;
}

/// Where a panel is drawn: its plotting area and the axes' ranges.
struct PanelFrame {
  double top, H, pw, x0, x1;
  const XAxis& xaxis;
  bool last;
};

/// A panel's grid, frame, tick labels, x label (under the last panel) and y label.
template <class FX, class FY>
std::string axes_svg(const Plot& plot, const PlotPanel& panel, const PanelFrame& f,
                     const std::vector<double>& yticks, const FX& X, const FY& Y) {
  const double L = plot.margins.left, top = f.top, H = f.H, pw = f.pw;
  const double ystep = yticks.size() > 1 ? yticks[1] - yticks[0] : yticks.back() - yticks[0];
  std::string s = "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (double v : yticks)
    s += "<line x1=\"" + px(L) + "\" y1=\"" + px(Y(v)) + "\" x2=\"" + px(L + pw) + "\" y2=\"" +
         px(Y(v)) + "\"/>\n";
  for (double v : f.xaxis.ticks)
    s += "<line x1=\"" + px(X(v)) + "\" y1=\"" + px(top) + "\" x2=\"" + px(X(v)) + "\" y2=\"" +
         px(top + H) + "\"/>\n";
  s += "</g>\n";
  s += "<rect x=\"" + px(L) + "\" y=\"" + px(top) + "\" width=\"" + px(pw) + "\" height=\"" +
       px(H) + "\" fill=\"none\" stroke=\"black\"/>\n";
  s += "<g text-anchor=\"end\">\n";
  for (double v : yticks)
    s += "<text x=\"" + px(L - 6) + "\" y=\"" + px(Y(v) + 4) + "\">" +
         escape_markup(tick_label(v, ystep)) + "</text>\n";
  s += "</g>\n";
  if (f.last) {
    // x tick labels' baselines one em and 6 px below the frame: clear of the lowest y tick's
    // label (its baseline 4 px below the frame) where the first x label reaches left of the frame
    s += "<g text-anchor=\"middle\">\n";
    for (std::size_t k = 0; k < f.xaxis.ticks.size(); ++k)
      s += "<text x=\"" + px(X(f.xaxis.ticks[k])) + "\" y=\"" + px(top + H + 6 + plot.font_size) +
           "\">" + escape_markup(f.xaxis.labels[k]) + "</text>\n";
    s += "</g>\n";
    if (!plot.xlabel.empty())
      s += "<text x=\"" + px(L + pw / 2) + "\" y=\"" + px(top + H + plot.margins.bottom - 12) +
           "\" text-anchor=\"middle\">" + escape_markup(plot.xlabel) + "</text>\n";
  }
  const double ly = top + H / 2;
  if (!panel.ylabel.empty())
    s += "<text x=\"14\" y=\"" + px(ly) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         px(ly) + ")\">" + escape_markup(panel.ylabel) + "</text>\n";
  return s;
}

/// Whether a series is drawn as a group (its line, bars and dots under one element) rather than
/// a single path.
bool grouped(const PlotSeries& ser) {
  return ser.markers || !ser.lo.empty() || !ser.attributes.empty() || !ser.tooltip.empty();
}

/// One series: a path, or a group of its line, interval bars and dots.
template <class FX, class FY>
std::string series_svg(const Plot& plot, const PlotSeries& ser, const std::string& name,
                       const std::string& color, const std::string& clip, const PanelFrame& f,
                       const FX& X, const FY& Y) {
  const auto& xs = xs_of(plot, ser);
  const std::string stroke = "\" fill=\"none\" stroke=\"" + color + "\"" +
                             (ser.dashed ? " stroke-dasharray=\"4 3\"" : "") + " stroke-width=\"";
  const std::string width = ser.points ? (ser.bold ? "3.5" : "2.5") : (ser.bold ? "2" : "1.2");
  const std::string caps = ser.points ? "\" stroke-linecap=\"round\"/>\n" : "\"/>\n";
  const std::string tag = "data-series=\"" + escape_markup(name) + "\"";
  const std::string clip_attr = " clip-path=\"url(#" + clip + ")\"";
  std::string d;
  if (!(ser.points && ser.markers)) d = series_path(xs, ser, f.x0, f.x1, f.pw, X, Y);
  if (!grouped(ser)) {
    if (d.empty()) return {};
    // (appended piece by piece: the path of a long series is large)
    std::string s = "<path " + tag + clip_attr + " d=\"";
    s += d;
    return s + stroke + width + caps;
  }
  std::string s = "<g " + tag + attributes_text(ser.attributes) + ">";
  if (!ser.tooltip.empty()) s += "<title>" + escape_markup(ser.tooltip) + "</title>";
  if (!d.empty()) s += "<path" + clip_attr + " d=\"" + d + stroke + width + caps;
  std::string bars;
  for (std::size_t i = 0; i < ser.lo.size(); ++i)
    if (std::isfinite(xs[i]) && std::isfinite(ser.lo[i]) && std::isfinite(ser.hi[i]))
      bars += (bars.empty() ? "M" : " M") + px(X(xs[i])) + " " + px(Y(ser.lo[i])) + " V" +
              px(Y(ser.hi[i]));
  if (!bars.empty())
    s += "<path" + clip_attr + " d=\"" + bars + "\" fill=\"none\" stroke=\"" + color +
         "\" stroke-width=\"1\"/>";
  if (ser.markers)
    for (std::size_t i = 0; i < ser.y.size(); ++i)
      if (std::isfinite(xs[i]) && std::isfinite(ser.y[i]))
        s += "<circle cx=\"" + px(X(xs[i])) + "\" cy=\"" + px(Y(ser.y[i])) + "\" r=\"" +
             (ser.bold ? "3" : "2.2") + "\" fill=\"" + color + "\"/>";
  return s + "</g>\n";
}

/// Everything a panel draws: its g.panel (grid, frame, ticks, labels, series).
std::string panel_svg(const Plot& plot, const PlotPanel& panel, std::size_t pi,
                      const PanelFrame& f) {
  const double L = plot.margins.left, top = f.top, H = f.H, pw = f.pw, x0 = f.x0, x1 = f.x1;
  auto X = [&](double v) { return L + (v - x0) / (x1 - x0) * pw; };
  const YAxis ya = y_axis(panel, 6);
  const double y0 = ya.ticks.front(), y1 = ya.ticks.back();
  auto Y = [&](double v) { return top + H - (v - y0) / (y1 - y0) * H; };

  std::string s = "<g class=\"panel\" data-xrange=\"" + pair_attr(x0, x1) + "\" data-yrange=\"" +
                  pair_attr(y0, y1) + "\"";
  if (ya.data.any) s += " data-ydata=\"" + pair_attr(ya.data.lo, ya.data.hi) + "\"";
  if (panel.counts) s += " data-ykind=\"count\"";
  s += ">\n";
  const std::string clip = plot.id_prefix + "clip" + std::to_string(pi);
  s += "<clipPath id=\"" + clip + "\"><rect x=\"" + px(L) + "\" y=\"" + px(top) + "\" width=\"" +
       px(pw) + "\" height=\"" + px(H) + "\"/></clipPath>\n";
  s += axes_svg(plot, panel, f, ya.ticks, X, Y);
  const auto colors = series_colors(panel);
  const auto names = series_names(panel);
  for (std::size_t si = 0; si < panel.series.size(); ++si)
    s += series_svg(plot, panel.series[si], names[si], colors[si], clip, f, X, Y);
  return s + "</g>\n";
}

}  // namespace

std::string render_svg(const Plot& plot) {
  check_plot(plot);
  const auto& m = plot.margins;
  const double W = plot.width, H = plot.panel_height;
  const bool column = plot.legend_width > 0;
  const double pw = W - m.left - m.right - (column ? plot.legend_width : 0);
  // The legend rows above each panel, or the column right of them.
  std::vector<std::vector<LegendEntry>> legends;
  std::vector<std::vector<int>> rows;
  double legend_h = 0, column_h = 0;
  for (const auto& p : plot.panels) {
    legends.push_back(legend_entries(p));
    rows.push_back(column ? std::vector<int>{} : legend_rows(legends.back(), pw, plot.font_size));
    legend_h += kLegendRow * row_count(rows.back());
    column_h += legend_column_height(plot, legends.back());
  }
  const double np = static_cast<double>(plot.panels.size());
  const double panels_h = m.top + legend_h + np * H + (np - 1) * m.gap + m.bottom;
  const double total_h = column ? std::max(panels_h, m.top + column_h + 8) : panels_h;
  const XAxis xaxis = x_axis(plot, pw);

  std::string s;
  s += "<svg " + (plot.attributes.empty() ? "" : attributes_text(plot.attributes).substr(1) + " ");
  s += "xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(W) + "\" height=\"" + px(total_h) +
       "\" viewBox=\"0 0 " + px(W) + " " + px(total_h) +
       "\" font-family=\"sans-serif\" font-size=\"" + std::to_string(plot.font_size) + "\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!plot.title.empty())
    s += "<text x=\"" + px(W / 2) + "\" y=\"" + px(m.top - 16) +
         "\" text-anchor=\"middle\" font-size=\"" + std::to_string(plot.font_size + 3) + "\">" +
         escape_markup(plot.title) + "</text>\n";
  double top = m.top, column_top = m.top;
  for (std::size_t pi = 0; pi < plot.panels.size(); ++pi) {
    if (column) {
      s += legend_column_svg(plot, legends[pi], m.left + pw + 10, column_top);
      column_top += legend_column_height(plot, legends[pi]);
    } else {
      s += legend_svg(plot, legends[pi], rows[pi], top - 2);
      top += kLegendRow * row_count(rows[pi]);
    }
    s += panel_svg(
        plot, plot.panels[pi], pi,
        {top, H, pw, xaxis.range.lo, xaxis.range.hi, xaxis, pi + 1 == plot.panels.size()});
    top += H + m.gap;
  }
  s += "</svg>\n";
  return s;
}

void write_svg(const std::string& path, const Plot& plot) {
  write_text_output(path, render_svg(plot));
}

}  // namespace frictionlab::io
