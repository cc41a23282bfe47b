// frictionlab: a small dependency-free SVG line-plot writer (docs/file-formats.md, "Plots").
//
// One or more panels stacked vertically share the x axis; each panel has a y label, one or more
// named series (their legend in a row above the panel, never over the data) and axis ticks at
// "nice" numbers (1, 2, 5 x 10^k). The SVG follows the plot layout contract of the report pages
// (tests/browser/layout.py): each panel is a g.panel with data-xrange, data-yrange, data-ydata
// (and data-ykind="count" for counts), each drawn series carries data-series="NAME", and each
// legend entry data-legend="NAME" inside a g.legend. Long series are decimated per pixel column to
// the first, smallest, largest and last point of the column (in sample order), so a 1e6-point
// record draws the same envelope as the full data in a file of a few hundred kB at most. Non-finite
// values break the line.
//
// Sparse data (a parameter per session, an estimate per robot) can also be drawn as one series per
// item: each with its own abscissa, colour, interval bars, markers, tooltip and attributes for the
// page's DOM, series sharing a name sharing one legend entry, the legend as a column right of the
// panels, and x ticks at given positions with given labels (thinned so that no two overlap).
// The Python package binds all of it (frictionlab.Plot, docs/python.md "Plots"): the fleet page
// draws its plots here.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace frictionlab::io {

struct PlotSeries {
  std::string name;       ///< legend entry; empty: not in the legend
  std::vector<double> y;  ///< one value per x
  bool points = false;    ///< draw dots at the samples instead of a line (scatter data)
  /// Drawn in the colour of the series before it and listed under that one's legend entry (its
  /// name is ignored): e.g. the lower edge of a band.
  bool continues = false;
  /// Its own abscissa (finite, one per y value); empty: the plot's x.
  std::vector<double> x{};
  /// Interval bars: a vertical bar from lo[i] to hi[i] at each sample (both empty: none; NaN at
  /// a sample: no bar there).
  std::vector<double> lo{}, hi{};
  std::string color{};    ///< "#rrggbb"; empty: the palette's next colour
  bool markers = false;   ///< a dot (an SVG circle) at each sample; with `points`: dots only
  bool dashed = false;    ///< a dashed line
  bool bold = false;      ///< highlighted: a thicker line, larger dots
  std::string note{};     ///< a second legend line in the series' colour (what the colour means)
  std::string tooltip{};  ///< the drawn series' title (shown on hover)
  /// Extra attributes of the drawn series' element (names of letters, digits and '-'; values
  /// escaped), e.g. {"data-robot", "r001"}, {"class", "flagged"}.
  std::vector<std::pair<std::string, std::string>> attributes{};
};

struct PlotPanel {
  std::string ylabel;
  std::vector<PlotSeries> series;
  bool counts = false;  ///< the y values are counts (a histogram): the axis starts at 0
};

/// Space around the panels [px]: left of them (tick labels and the y label), right, above the
/// first (the title, a legend above the panel apart), between two, below the last (x ticks and
/// the x label).
struct PlotMargins {
  double left = 90, right = 20, top = 40, gap = 30, bottom = 50;
};

struct Plot {
  std::string title;
  std::string xlabel;
  std::vector<double> x;  ///< shared abscissa, finite, non-decreasing
  std::vector<PlotPanel> panels;
  int width = 900;         ///< total width [px]
  int panel_height = 200;  ///< height of each panel's plotting area [px]
  /// x ticks at these positions (inside the x range); empty: nice numbers.
  std::vector<double> xticks{};
  /// The labels of `xticks` (same length; empty: the numbers). Labels that would overlap their
  /// left neighbour's are left out, as are repeats of it.
  std::vector<std::string> xtick_labels{};
  PlotMargins margins{};
  int font_size = 12;    ///< [px]; text widths are estimated from it
  int legend_width = 0;  ///< > 0: the legend is a column this wide right of the panels [px]
  /// Extra attributes of the svg element (as PlotSeries::attributes), e.g. {"class", "plot"}.
  std::vector<std::pair<std::string, std::string>> attributes{};
  /// Prefix of the element ids (clip paths): ids are global to an HTML page holding many plots.
  std::string id_prefix{};
};

/// Tick positions at nice numbers covering [lo, hi] with about `target` ticks. With
/// `extend`, the first and last tick enclose [lo, hi]; otherwise all ticks lie inside it.
std::vector<double> nice_ticks(double lo, double hi, int target, bool extend);

/// The SVG document. std::invalid_argument if a series' length differs from its x's (or its
/// bars' from its y's), x is empty, there is no panel, or an attribute name is not a name.
std::string render_svg(const Plot& plot);

/// Write render_svg(plot) to `path`, or to the standard output if `path` is "-"
/// (io::write_text_output; io::InputError if it cannot be written).
void write_svg(const std::string& path, const Plot& plot);

/// `text` with the markup special characters (& < > " ') escaped, for HTML and SVG text and
/// attribute values: the one escaping of every page and plot.
std::string escape_markup(const std::string& text);

}  // namespace frictionlab::io
