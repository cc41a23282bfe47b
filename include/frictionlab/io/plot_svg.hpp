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
#pragma once

#include <string>
#include <vector>

namespace frictionlab::io {

struct PlotSeries {
  std::string name;       ///< legend entry; empty: not in the legend
  std::vector<double> y;  ///< one value per x
  bool points = false;    ///< draw dots at the samples instead of a line (scatter data)
  /// Drawn in the colour of the series before it and listed under that one's legend entry (its
  /// name is ignored): e.g. the lower edge of a band.
  bool continues = false;
};

struct PlotPanel {
  std::string ylabel;
  std::vector<PlotSeries> series;
  bool counts = false;  ///< the y values are counts (a histogram): the axis starts at 0
};

struct Plot {
  std::string title;
  std::string xlabel;
  std::vector<double> x;  ///< shared abscissa, finite, non-decreasing
  std::vector<PlotPanel> panels;
  int width = 900;         ///< total width [px]
  int panel_height = 200;  ///< height of each panel's plotting area [px]
};

/// Tick positions at nice numbers covering [lo, hi] with about `target` ticks. With
/// `extend`, the first and last tick enclose [lo, hi]; otherwise all ticks lie inside it.
std::vector<double> nice_ticks(double lo, double hi, int target, bool extend);

/// The SVG document. std::invalid_argument if a series' length differs from x's, x is empty,
/// or there is no panel.
std::string render_svg(const Plot& plot);

/// Write render_svg(plot) to `path`, or to the standard output if `path` is "-"
/// (io::write_text_output; io::InputError if it cannot be written).
void write_svg(const std::string& path, const Plot& plot);

}  // namespace frictionlab::io
