// frictionlab Python module: the library's SVG plots and page pieces (io/plot_svg.hpp,
// io/report_html.hpp): a plot description (Plot, PlotPanel, PlotSeries), render_svg,
// nice_ticks, escape_markup and report_css. The fleet page (frictionlab.fleet.report) draws its
// plots with them. docs/python.md, "Plots".
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/io/report_html.hpp"

namespace frictionlab::python {
namespace {

using Attributes = std::vector<std::pair<std::string, std::string>>;

/// A dict (in its order) of attribute name -> value.
Attributes to_attributes(const py::dict& d) {
  Attributes out;
  for (const auto& [k, v] : d) out.emplace_back(py::str(k), py::str(v));
  return out;
}

py::dict to_dict(const Attributes& a) {
  py::dict d;
  for (const auto& [k, v] : a) d[py::str(k)] = v;
  return d;
}

/// The `attributes` property of a plot element (PlotSeries, Plot): the extra attributes of its
/// SVG element as a dict, in their order.
template <class T>
void def_attributes(py::class_<T>& cls) {
  cls.def_property(
      "attributes", [](const T& x) { return to_dict(x.attributes); },
      [](T& x, const py::dict& d) { x.attributes = to_attributes(d); });
}

void bind_series(py::module_& m) {
  using io::PlotSeries;
  py::class_<PlotSeries> series(m, "PlotSeries", R"doc(
One series of a plot panel (C++ io::PlotSeries): a legend name, y values (one per x: the series'
own x, else the plot's), drawn as a line, as dots (points), or a line with dots (markers);
interval bars lo..hi at each sample; its colour (empty: the palette's next), dashed, bold
(highlighted); a note (a second legend line in its colour); a tooltip; extra attributes of its
element (data-*, class) for the page's DOM. Series sharing a name share one legend entry.
)doc");
  series
      .def(py::init([](std::string name, std::vector<double> y, std::vector<double> x,
                       std::vector<double> lo, std::vector<double> hi, std::string color,
                       bool points, bool markers, bool dashed, bool bold, bool continues,
                       std::string note, std::string tooltip, const py::dict& attributes) {
             PlotSeries s;
             s.name = std::move(name);
             s.y = std::move(y);
             s.x = std::move(x);
             s.lo = std::move(lo);
             s.hi = std::move(hi);
             s.color = std::move(color);
             s.points = points;
             s.markers = markers;
             s.dashed = dashed;
             s.bold = bold;
             s.continues = continues;
             s.note = std::move(note);
             s.tooltip = std::move(tooltip);
             s.attributes = to_attributes(attributes);
             return s;
           }),
           py::arg("name") = "", py::arg("y") = std::vector<double>{}, py::kw_only(),
           py::arg("x") = std::vector<double>{}, py::arg("lo") = std::vector<double>{},
           py::arg("hi") = std::vector<double>{}, py::arg("color") = "", py::arg("points") = false,
           py::arg("markers") = false, py::arg("dashed") = false, py::arg("bold") = false,
           py::arg("continues") = false, py::arg("note") = "", py::arg("tooltip") = "",
           py::arg("attributes") = py::dict())
      .def_readwrite("name", &PlotSeries::name)
      .def_readwrite("y", &PlotSeries::y)
      .def_readwrite("x", &PlotSeries::x)
      .def_readwrite("lo", &PlotSeries::lo)
      .def_readwrite("hi", &PlotSeries::hi)
      .def_readwrite("color", &PlotSeries::color)
      .def_readwrite("points", &PlotSeries::points)
      .def_readwrite("markers", &PlotSeries::markers)
      .def_readwrite("dashed", &PlotSeries::dashed)
      .def_readwrite("bold", &PlotSeries::bold)
      .def_readwrite("continues", &PlotSeries::continues)
      .def_readwrite("note", &PlotSeries::note)
      .def_readwrite("tooltip", &PlotSeries::tooltip);
  def_attributes(series);
}

void bind_panel_and_margins(py::module_& m) {
  using io::PlotMargins;
  using io::PlotPanel;
  py::class_<PlotPanel>(m, "PlotPanel",
                        "A panel of a plot (C++ io::PlotPanel): its y label, its series, and "
                        "counts=True for counts (the y axis starts at 0).")
      .def(py::init([](std::string ylabel, std::vector<io::PlotSeries> series, bool counts) {
             return PlotPanel{std::move(ylabel), std::move(series), counts};
           }),
           py::arg("ylabel") = "", py::arg("series") = std::vector<io::PlotSeries>{}, py::kw_only(),
           py::arg("counts") = false)
      .def_readwrite("ylabel", &PlotPanel::ylabel)
      .def_readwrite("series", &PlotPanel::series)
      .def_readwrite("counts", &PlotPanel::counts);
  py::class_<PlotMargins>(m, "PlotMargins",
                          "Space around the panels [px] (C++ io::PlotMargins): left (tick "
                          "labels, y label), right, top (title), gap (between panels), bottom "
                          "(x ticks, x label).")
      .def(py::init([](double left, double right, double top, double gap, double bottom) {
             return PlotMargins{left, right, top, gap, bottom};
           }),
           py::kw_only(), py::arg("left") = 90.0, py::arg("right") = 20.0, py::arg("top") = 40.0,
           py::arg("gap") = 30.0, py::arg("bottom") = 50.0)
      .def_readwrite("left", &PlotMargins::left)
      .def_readwrite("right", &PlotMargins::right)
      .def_readwrite("top", &PlotMargins::top)
      .def_readwrite("gap", &PlotMargins::gap)
      .def_readwrite("bottom", &PlotMargins::bottom);
}

void bind_plot(py::module_& m) {
  using io::Plot;
  using io::PlotMargins;
  using io::PlotPanel;
  py::class_<Plot> plot(m, "Plot", R"doc(
A plot description (C++ io::Plot) for render_svg: panels stacked vertically sharing the x axis
(x: the shared abscissa, or the x range when every series has its own), a title and x label,
the size (width, panel_height [px]), x ticks at given positions with labels (thinned so that
none overlap; empty: nice numbers), margins, font_size [px], legend_width (> 0: the legend is a
column right of the panels, else rows above each), attributes of the svg element, and
id_prefix (unique per page: ids are global to an HTML page).
)doc");
  plot.def(py::init([](std::vector<PlotPanel> panels, std::vector<double> x, std::string title,
                       std::string xlabel, int width, int panel_height, std::vector<double> xticks,
                       std::vector<std::string> xtick_labels, PlotMargins margins, int font_size,
                       int legend_width, const py::dict& attributes, std::string id_prefix) {
             Plot p;
             p.panels = std::move(panels);
             p.x = std::move(x);
             p.title = std::move(title);
             p.xlabel = std::move(xlabel);
             p.width = width;
             p.panel_height = panel_height;
             p.xticks = std::move(xticks);
             p.xtick_labels = std::move(xtick_labels);
             p.margins = margins;
             p.font_size = font_size;
             p.legend_width = legend_width;
             p.attributes = to_attributes(attributes);
             p.id_prefix = std::move(id_prefix);
             return p;
           }),
           py::arg("panels") = std::vector<PlotPanel>{}, py::arg("x") = std::vector<double>{},
           py::kw_only(), py::arg("title") = "", py::arg("xlabel") = "", py::arg("width") = 900,
           py::arg("panel_height") = 200, py::arg("xticks") = std::vector<double>{},
           py::arg("xtick_labels") = std::vector<std::string>{}, py::arg("margins") = PlotMargins{},
           py::arg("font_size") = 12, py::arg("legend_width") = 0,
           py::arg("attributes") = py::dict(), py::arg("id_prefix") = "")
      .def_readwrite("panels", &Plot::panels)
      .def_readwrite("x", &Plot::x)
      .def_readwrite("title", &Plot::title)
      .def_readwrite("xlabel", &Plot::xlabel)
      .def_readwrite("width", &Plot::width)
      .def_readwrite("panel_height", &Plot::panel_height)
      .def_readwrite("xticks", &Plot::xticks)
      .def_readwrite("xtick_labels", &Plot::xtick_labels)
      .def_readwrite("margins", &Plot::margins)
      .def_readwrite("font_size", &Plot::font_size)
      .def_readwrite("legend_width", &Plot::legend_width)
      .def_readwrite("id_prefix", &Plot::id_prefix);
  def_attributes(plot);
}

}  // namespace

void bind_plots(py::module_& m) {
  bind_series(m);
  bind_panel_and_margins(m);
  bind_plot(m);
  m.def("render_svg", &io::render_svg, py::arg("plot"),
        "The plot as an SVG document (C++ io::render_svg; docs/file-formats.md, \"Plots\"). "
        "frictionlab.Error (a ValueError) if a series' length differs from its x's, x is empty "
        "or there is no panel.");
  m.def("nice_ticks", &io::nice_ticks, py::arg("lo"), py::arg("hi"), py::arg("target") = 6,
        py::arg("extend") = true,
        "Tick positions at nice numbers (1, 2, 5 x 10^k) covering [lo, hi] with about `target` "
        "ticks; with `extend` the first and last enclose [lo, hi], else all lie inside it (the "
        "rule of every plot's axes).");
  m.def("escape_markup", &io::escape_markup, py::arg("text"),
        "`text` with & < > \" ' escaped for HTML and SVG text and attribute values.");
  m.def("report_css", &io::report_css,
        "The identification report's stylesheet (CSS text), shared by every HTML page.");
}

}  // namespace frictionlab::python
