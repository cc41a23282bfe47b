"""The fleet page draws its plots with the library (frictionlab.render_svg, C++ io::render_svg):
every plot of the page is text the library rendered, its axes carry the library's nice-number
ticks (io::nice_ticks: the same values as the C++ rule for the data's range), and the bound plot
pieces behave as their C++ tests say (tests/test_plot_svg.cpp)."""
import re

import pytest

import frictionlab as fl
from frictionlab.fleet import report, synthetic


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A fleet page (6 robots, 8 sessions: the time axes take nice-number ticks, not the
    sessions) with every render_svg call recorded."""
    d = tmp_path_factory.mktemp("fleet")
    truth = synthetic.generate(d / "f", robots=6, sessions=8, seed=3, seconds=0.5,
                               write_records=False)
    rel = {(jt, n): 0.01 for jt, spec in synthetic.JOINT_TYPES.items() for n in spec["nominal"]}
    params = synthetic.truth_parameters(truth, rel, seed=3)
    tasks = params[["key", "robot", "joint", "joint_type", "session", "session_time"]]
    rendered = []
    mp = pytest.MonkeyPatch()
    mp.setattr(fl, "render_svg", lambda plot: rendered.append(fl._frictionlab.render_svg(plot))
               or rendered[-1])
    try:
        text = report.report_html(params, tasks.drop_duplicates().assign(status="done"))
    finally:
        mp.undo()
    return text, rendered


def test_every_plot_is_rendered_by_the_library(page):
    text, rendered = page
    svgs = re.findall(r"<svg .*?</svg>\n", text, flags=re.S)
    assert len(svgs) > 0 and len(svgs) == len(rendered)
    assert all(s in rendered for s in svgs)
    # the library's layout contract, with the page's attributes on each svg
    assert all(s.startswith('<svg class="plot" data-plot="') and '<g class="panel"' in s for s in svgs)


def _nums(attr: str) -> list[float]:
    return [float(v) for v in attr.split()]


def test_the_axes_carry_the_library_ticks(page):
    """Each panel's y range is the first and last of io::nice_ticks over its data with 3 %
    headroom (6 ticks, enclosing), and the time axes of 8 sessions tick where
    io::nice_ticks(x0, x1, 6, inside) puts them."""
    text, _ = page
    panels = re.findall(r'<g class="panel" data-xrange="([^"]+)" data-yrange="([^"]+)" '
                        r'data-ydata="([^"]+)"', text)
    assert len(panels) > 0
    for _, yrange, ydata in panels:
        lo, hi = _nums(ydata)
        pad = 0.03 * (hi - lo)
        ticks = fl.nice_ticks(lo - pad, hi + pad, 6, True)
        assert _nums(yrange) == pytest.approx([ticks[0], ticks[-1]], rel=1e-8)
    # a history plot's x ticks: its grid lines stand at the nice ticks of its x range
    hist = re.search(r'<svg class="plot" data-plot="history".*?</svg>', text, flags=re.S).group(0)
    x0, x1 = _nums(re.search(r'data-xrange="([^"]+)"', hist).group(1))
    left, width = (float(v) for v in re.search(
        r'<clipPath id="[^"]+"><rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', hist).groups())
    grid = re.search(r'<g stroke="#dddddd" stroke-width="1">(.*?)</g>', hist, flags=re.S).group(1)
    xs = sorted({float(a) for a, b in re.findall(r'x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"', grid)
                 if a == b})
    expect = [left + (t - x0) / (x1 - x0) * width for t in fl.nice_ticks(x0, x1, 6, False)]
    assert len(xs) >= 2 and all(min(abs(x - e) for e in expect) < 0.06 for x in xs)


def test_bound_plot_pieces():
    assert fl.nice_ticks(0, 1, 6, True) == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1])
    assert fl.nice_ticks(0, 20, 8, False) == pytest.approx(list(range(0, 21, 2)))
    assert fl.nice_ticks(-0.0051, 0.0051, 6, True) == pytest.approx([-0.006, -0.004, -0.002, 0, 0.002, 0.004, 0.006])
    assert fl.escape_markup("a<b & \"c\" 'd'") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;"
    assert "svg.plot" in fl.report_css()
    series = [fl.PlotSeries("r1/j", [1.0, 2.0], x=[0.0, 1.0], lo=[0.5, 1.5], hi=[1.5, 2.5],
                            color="#c62828", markers=True, note="strong drift",
                            attributes={"data-robot": "r1"}),
              fl.PlotSeries("r1/j", [3.0], x=[2.0], color="#c62828", markers=True)]
    svg = fl.render_svg(fl.Plot([fl.PlotPanel("F", series)], [0.0, 2.0], legend_width=120,
                                xticks=[0.0, 0.05, 1.0], xtick_labels=["start", "early", "end"]))
    assert svg.count('data-legend="r1/j"') == 1           # one entry for a shared name
    assert svg.count('data-robot="r1"') == 1 and svg.count("<circle") == 3   # the key: a line
    assert "strong drift" in svg and ">early<" not in svg  # too close to "start": left out
    with pytest.raises(fl.Error, match="values for"):
        fl.render_svg(fl.Plot([fl.PlotPanel("F", [fl.PlotSeries("a", [1.0])])], [0.0, 1.0]))
