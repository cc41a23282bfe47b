// frictionlab: a small dependency-free SVG line-plot writer (docs/file-formats.md, "Plots").
//
// One or more panels stacked vertically share the x axis; each panel has a y label, one or more
// named series (legend in the panel's top-right corner) and axis ticks at "nice" numbers
// (1, 2, 5 x 10^k). Long series are decimated per pixel column to the first, smallest, largest and
// last point of the column (in sample order), so a 1e6-point record draws the same envelope as
// the full data in a file of a few hundred kB at most. Non-finite values break the line.
#pragma once

#include <string>
#include <vector>

namespace frictionlab::io {

struct PlotSeries {
  std::string name;       ///< legend entry; empty: not in the legend
  std::vector<double> y;  ///< one value per x
  bool points = false;    ///< draw dots at the samples instead of a line (scatter data)
};

struct PlotPanel {
  std::string ylabel;
  std::vector<PlotSeries> series;
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
