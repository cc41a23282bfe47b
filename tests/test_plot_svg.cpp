// SVG plot writer (io/plot_svg.hpp): nice ticks, per-pixel min/max decimation keeps the envelope
// (single-sample spikes survive) and the file small, gaps at non-finite values, escaping, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "frictionlab/io/plot_svg.hpp"

namespace frictionlab::io {
namespace {

std::vector<double> close_to(std::vector<double> v) {
  for (auto& x : v) x = std::round(x * 1e9) / 1e9;
  return v;
}

TEST(PlotSvg, NiceTicks) {
  EXPECT_EQ(close_to(nice_ticks(0, 1, 6, true)), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1}));
  EXPECT_EQ(close_to(nice_ticks(-0.0051, 0.0051, 6, true)),
            close_to({-0.006, -0.004, -0.002, 0, 0.002, 0.004, 0.006}));
  EXPECT_EQ(close_to(nice_ticks(0, 20, 8, false)),
            (std::vector<double>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20}));
  // Inside the range without `extend`.
  for (double t : nice_ticks(0.13, 1.97, 8, false)) {
    EXPECT_GE(t, 0.13);
    EXPECT_LE(t, 1.97);
  }
}

// All path points (x, y) of an SVG document: the "M x y" / "L x y" commands of every d="...".
// (Parsed by hand: std::regex trips a GCC 12 -Wmaybe-uninitialized false positive under ASan.)
std::vector<std::pair<double, double>> path_points(const std::string& svg, int* paths = nullptr) {
  std::vector<std::pair<double, double>> pts;
  int count = 0;
  for (std::size_t pos = svg.find(" d=\""); pos != std::string::npos;
       pos = svg.find(" d=\"", pos + 1)) {
    ++count;
    const std::size_t begin = pos + 4, end = svg.find('"', begin);
    std::istringstream in(svg.substr(begin, end - begin));
    char cmd = 0;
    double x = 0, y = 0;
    while (in >> cmd >> x >> y) {
      EXPECT_TRUE(cmd == 'M' || cmd == 'L') << cmd;
      pts.emplace_back(x, y);
    }
  }
  if (paths) *paths = count;
  return pts;
}

TEST(PlotSvg, DecimationKeepsSpikesAndTheFileSmall) {
  const std::size_t n = 1000000;
  Plot plot;
  plot.x.resize(n);
  std::vector<double> y(n, 0.0), z(n);
  for (std::size_t i = 0; i < n; ++i) {
    plot.x[i] = static_cast<double>(i) * 1e-5;
    z[i] = std::sin(static_cast<double>(i) * 1e-3);
  }
  y[500000] = 1;  // single-sample spikes
  y[700001] = -1;
  plot.panels.push_back({"y", {{"spikes", y}, {"sine", z}}});
  const std::string svg = render_svg(plot);
  EXPECT_LT(svg.size(), 200000u) << "decimation should keep the file small";
  const auto pts = path_points(svg);
  double ymin = 1e9, ymax = -1e9;
  for (const auto& p : pts) {
    ymin = std::min(ymin, p.second);
    ymax = std::max(ymax, p.second);
  }
  // Panel: top 40 px plus one legend row of 18 px, height 200 px; the range [-1, 1] plus 3 %
  // headroom rounds out to [-1.5, 1.5] ... whatever the ticks, both spikes must reach beyond
  // 80 % of the way to the frame from the zero line.
  const double zero_px = 40 + 18 + 100;  // symmetric axis: zero in the middle
  EXPECT_LT(ymin, zero_px - 0.6 * 100);
  EXPECT_GT(ymax, zero_px + 0.6 * 100);
  // Without decimation there would be 2e6 points; with it at most 4 per pixel column per series.
  EXPECT_LT(pts.size(), 2u * 4u * 900u);
}

TEST(PlotSvg, NonFiniteValuesBreakTheLine) {
  Plot plot;
  plot.x = {0, 1, 2, 3, 4};
  plot.panels.push_back({"y", {{"a", {0, 1, std::numeric_limits<double>::quiet_NaN(), 1, 0}}}});
  const std::string svg = render_svg(plot);
  int paths = 0;
  const auto pts = path_points(svg, &paths);
  EXPECT_EQ(paths, 1);
  EXPECT_EQ(pts.size(), 4u);
  EXPECT_NE(svg.find(" M"), std::string::npos);  // a second sub-path after the gap
}

TEST(PlotSvg, EscapesTextAndChecksSizes) {
  Plot plot;
  plot.title = "a<b & \"c\"";
  plot.x = {0, 1};
  plot.panels.push_back({"F [N]", {{"x<y", {0, 1}}}});
  const std::string svg = render_svg(plot);
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find("x&lt;y"), std::string::npos);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");

  plot.panels[0].series[0].y = {0};
  EXPECT_THROW((void)render_svg(plot), std::invalid_argument);
  EXPECT_THROW((void)render_svg(Plot{}), std::invalid_argument);
}

TEST(PlotSvg, ConstantAndEmptyPanels) {
  Plot plot;
  plot.x = {0, 1, 2};
  plot.panels.push_back({"const", {{"c", {5, 5, 5}}}});
  plot.panels.push_back({"nan", {{"n", {std::nan(""), std::nan(""), std::nan("")}}}});
  EXPECT_NO_THROW((void)render_svg(plot));
}

/// The value of attribute `name` in the first element at or after `from` that has it.
std::string attr(const std::string& svg, const std::string& name, std::size_t from = 0) {
  const std::size_t a = svg.find(" " + name + "=\"", from);
  if (a == std::string::npos) return {};
  const std::size_t b = a + name.size() + 3;
  return svg.substr(b, svg.find('"', b) - b);
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(PlotSvg, TheLayoutContractOfThePanelsSeriesAndLegends) {
  // tests/browser/layout.py: g.panel with its ranges, data-series per series, data-legend entries
  Plot plot;
  plot.x = {0, 1, 2, 3};
  plot.panels.push_back({"count", {{"residuals", {0, 10, 30, 5}}}, true});
  plot.panels.push_back({"acf",
                         {{"r", {0.5, -0.2, 0.1, 0}, true},
                          {"band", {0.3, 0.3, 0.3, 0.3}},
                          {"", {-0.3, -0.3, -0.3, -0.3}, false, true}}});
  const std::string svg = render_svg(plot);
  EXPECT_EQ(count(svg, "<g class=\"panel\""), 2u);
  EXPECT_EQ(attr(svg, "data-xrange"), "0 3");
  EXPECT_EQ(attr(svg, "data-ydata"), "0 30");
  EXPECT_EQ(attr(svg, "data-ykind"), "count");
  // counts: the axis starts at 0, not below (the 3 % headroom only above)
  EXPECT_EQ(attr(svg, "data-yrange"), "0 35");
  const std::size_t second = svg.find("<g class=\"panel\"", svg.find("<g class=\"panel\"") + 1);
  EXPECT_EQ(attr(svg, "data-ykind", second), "");
  EXPECT_EQ(attr(svg, "data-ydata", second), "-0.3 0.5");
  // the band's lower edge: the upper edge's colour and name, one legend entry
  EXPECT_EQ(count(svg, "data-series=\"band\""), 2u);
  EXPECT_EQ(count(svg, "data-legend=\"band\""), 1u);
  const std::size_t band = svg.find("data-series=\"band\"");
  EXPECT_EQ(attr(svg, "stroke", band),
            attr(svg, "stroke", svg.find("data-series=\"band\"", band + 1)));
  EXPECT_EQ(attr(svg, "stroke", band), "#D55E00");
  // every legend is above its panel: its entries' text ends before the panel's frame starts
  const std::size_t legend = svg.find("<g class=\"legend\">");
  ASSERT_NE(legend, std::string::npos);
  const double text_y = std::stod(attr(svg, "y", svg.find("<text", legend)));
  const double frame_y = std::stod(attr(svg, "y", svg.find("<rect", svg.find("<clipPath"))));
  EXPECT_LT(text_y + 4, frame_y);
}

TEST(PlotSvg, EightSeriesCycleTheSevenColours) {
  Plot plot;
  plot.x = {0, 1};
  plot.panels.push_back({"y", {}});
  for (int k = 0; k < 8; ++k) {
    // (appended, not "s" + to_string(k): gcc 12 warns -Wrestrict on that, GCC bug 105329)
    std::string name = "s";
    name += std::to_string(k);
    plot.panels[0].series.push_back({name, {0.0, 1.0 * k}});
  }
  const std::string svg = render_svg(plot);
  EXPECT_EQ(attr(svg, "stroke", svg.find("data-series=\"s7\"")), "#0072B2");
}

TEST(PlotSvg, SparseSeriesWithTheirOwnXBarsColoursAndAttributes) {
  // one series per item (the fleet page's robot joints): own abscissae, interval bars, dots,
  // a given colour, the page's attributes; two series of one name share a legend entry
  Plot plot;
  plot.x = {0, 10};
  plot.id_prefix = "p1-";
  plot.attributes = {{"class", "plot"}, {"data-kind", "a\"b"}};
  PlotSeries a{"grouped", {1, 2}};
  a.x = {1, 2};
  a.lo = {0.5, std::nan("")};
  a.hi = {1.5, 2.5};
  a.color = "#123456";
  a.markers = true;
  a.attributes = {{"data-robot", "r1"}};
  a.tooltip = "r1 <j>";
  PlotSeries b{"grouped", {3}};
  b.x = {9};
  b.color = "#123456";
  b.markers = true;
  plot.panels.push_back({"y", {a, b}});
  const std::string svg = render_svg(plot);
  EXPECT_EQ(svg.rfind("<svg class=\"plot\" data-kind=\"a&quot;b\" xmlns=", 0), 0u);
  EXPECT_EQ(count(svg, "data-legend=\"grouped\""), 1u);
  EXPECT_EQ(count(svg, "data-series=\"grouped\""), 2u);
  EXPECT_EQ(count(svg, "<circle"), 3u + 0u);  // the dots (the legend key of a line is a line)
  EXPECT_EQ(count(svg, " V"), 1u);            // one bar: the second sample's lo is NaN
  EXPECT_NE(svg.find("<g data-series=\"grouped\" data-robot=\"r1\"><title>r1 &lt;j&gt;</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("id=\"p1-clip0\""), std::string::npos);
  EXPECT_NE(svg.find("url(#p1-clip0)"), std::string::npos);
  EXPECT_EQ(attr(svg, "fill", svg.find("<circle")), "#123456");
  // the range holds the bars: 0.5 .. 3
  EXPECT_EQ(attr(svg, "data-ydata"), "0.5 3");
  EXPECT_EQ(attr(svg, "data-xrange"), "0 10");

  plot.panels[0].series[0].attributes = {{"on click", "x"}};
  EXPECT_THROW((void)render_svg(plot), std::invalid_argument);
  plot.panels[0].series[0].attributes.clear();
  plot.panels[0].series[0].hi = {1};
  EXPECT_THROW((void)render_svg(plot), std::invalid_argument);
}

TEST(PlotSvg, LegendColumnAndGivenTicksThinnedSoThatNoLabelsOverlap) {
  Plot plot;
  plot.x = {0, 100};
  plot.width = 520;
  plot.legend_width = 124;
  plot.font_size = 10;
  plot.xticks = {0, 1, 50, 100};
  plot.xtick_labels = {"first", "second", "first", "last"};
  PlotSeries s{"a very long robot joint name", {1, 2}};
  s.note = "strong drift";
  plot.panels.push_back({"y", {s, {"b", {2, 1}}}});
  const std::string svg = render_svg(plot);
  // the legend is a column right of the plotting area (which ends at 520 - 90 - 20 - 124 + 90)
  const std::size_t legend = svg.find("<g class=\"legend\">");
  ASSERT_NE(legend, std::string::npos);
  EXPECT_GT(std::stod(attr(svg, "x", svg.find("<text", legend))), 376.0);
  // the name shortened to the column (the whole in its title), the note on a second line
  EXPECT_NE(svg.find("<title>a very long robot joint name: strong drift</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("a very long rob\u2026</text>"), std::string::npos);
  EXPECT_NE(svg.find("strong drift</text>"), std::string::npos);
  // "second" would overlap "first" (3 px apart): left out; the next "first" repeats the label
  // kept before it: left out; "last" kept
  EXPECT_EQ(count(svg, ">second</text>"), 0u);
  EXPECT_EQ(count(svg, ">first</text>"), 1u);
  EXPECT_EQ(count(svg, ">last</text>"), 1u);
}

}  // namespace
}  // namespace frictionlab::io
