"""The fleet report (frictionlab.fleet.report, docs/fleet.md) in a real headless Chromium.

A synthetic fleet (frictionlab.fleet.synthetic) with its default drifts and outlier, parameter
tables drawn from its truth with 1 % relative standard errors, and failed tasks carrying the
library's real messages for its corrupt records (frictionlab.fit on them). The page must load
with no console error, no exception and no network request (the downloads are data: links); its
screenshot is not blank; every plot is laid out at its size and drawn; the flagged joints come
first and are the injected drifts; the page prints to PDF. Its plots follow the layout contract
(layout.py: panels, series, legends) and pass the layout checks, on this fleet and on a crowded
one (30 robots, a dozen drifts in one plot, sessions hours apart) whose legends must group
robot joints and whose tick labels would collide if they were not thinned.

Needs the Python package (PYTHONPATH=build/python; the CTest registration sets it).
"""
import os
import pathlib

import pytest

import layout
from chromium import nonblank

# A build without the Python package (the sanitizer one) must not test another frictionlab that
# happens to be installed (an older one would draw an older page).
if os.environ.get("FRICTIONLAB_NO_PYTHON_PACKAGE") == "1":
    pytest.skip("this build has no Python package", allow_module_level=True)
fl = pytest.importorskip("frictionlab", reason="the frictionlab Python package is not on PYTHONPATH")
pytest.importorskip("frictionlab.fleet", reason="the frictionlab on the path has no frictionlab.fleet")
import pandas as pd  # noqa: E402

from frictionlab.fleet import analysis, report, synthetic  # noqa: E402


# The stroke of a series' line; a series without one is named with its markup, so that the
# comparison that fails shows what was drawn instead.
STROKE = """var stroke = g => { const p = g.querySelector('path');
    return p ? p.getAttribute('stroke') : 'no path in ' + g.outerHTML.slice(0, 600); };
"""


@pytest.fixture(scope="module")
def fleet_page(browser, tmp_path_factory):
    d = tmp_path_factory.mktemp("fleet")
    truth = synthetic.generate(d / "f", robots=8, sessions=4, seed=5, corrupt=2, seconds=0.5)
    rel = {(jt, name): 0.01 for jt, spec in synthetic.JOINT_TYPES.items() for name in spec["nominal"]}
    params = synthetic.truth_parameters(truth, rel, seed=5)
    tasks = params[["key", "robot", "joint", "joint_type", "session", "session_time"]].drop_duplicates()
    tasks = tasks.assign(status="done", error=None)
    failed = []
    for c in truth["corrupt"]:
        opts = {"problem": "friction", "model": truth["joint_types"][truth["joints"][c["joint"]]]["model"],
                "time": "t", "velocity": "v", "force": "F"}
        with pytest.raises(fl.Error) as err:
            fl.fit(str(d / "f" / c["file"]), **opts)
        failed.append({"key": f"{c['robot']}/{c['joint']}/{c['session']}", "robot": c["robot"],
                       "joint": c["joint"], "session": c["session"], "status": "failed",
                       "error": str(err.value)})
    tasks = pd.concat([tasks, pd.DataFrame(failed)], ignore_index=True)
    # each joint tested alone (no scatter pooled over the 8 joints of a type), so that the page
    # has undetermined parameters to lay out (pooled, this fleet decides every one)
    drift = analysis.drift(params, analysis.DriftRule(pool_min_joints=0))
    # the trends with the default rule (pooled): the injected steps are trends over 4 sessions too
    path = report.write_report(params, tasks, d / "fleet.html", title="Synthetic fleet", max_rows=20,
                               drift=drift, trend=analysis.trend(params))
    page = browser.open(pathlib.Path(path))
    return {"page": page, "truth": truth, "params": params, "tasks": tasks, "dir": d,
            "drift": drift}


def test_loads_clean_and_draws(fleet_page):
    page, d = fleet_page["page"], fleet_page["dir"]
    page.wait(0.2)
    assert page.errors == [] and page.console == []
    assert page.requests == page.data_requests  # only inline data: URLs, if any
    assert nonblank(page.screenshot(d / "fleet.png")) > 0.05
    boxes = page.evaluate("""Array.from(document.querySelectorAll('svg.plot')).map(s => {
        const r = s.getBoundingClientRect();
        return [s.dataset.plot, r.width, r.height, s.querySelectorAll('circle').length]; })""")
    pairs = set(zip(fleet_page["params"]["joint_type"], fleet_page["params"]["name"]))
    assert len(boxes) == 2 * len(pairs)
    assert all(w == 522 and h == 232 and n > 0 for _, w, h, n in boxes), boxes[:3]  # 520x230 + border


def test_flagged_first_and_failures(fleet_page):
    page, truth = fleet_page["page"], fleet_page["truth"]
    order = page.evaluate("Array.from(document.querySelectorAll('body > section')).map(s => s.id)")
    assert order[:5] == ["flagged", "trends", "outliers", "failures", "history"]
    # a step tonight is also a trend over the 4 sessions: the injected drifts, flagged by the
    # per-night rule too (the last column)
    trends = page.evaluate("""Array.from(document.querySelectorAll('#trends tr.trend')).map(r =>
        [r.dataset.robot, r.dataset.joint, r.dataset.parameter, r.lastElementChild.textContent])""")
    assert sorted(map(tuple, trends)) == sorted((e["robot"], e["joint"], e["parameter"], "yes")
                                                for e in truth["drifts"])
    rows = page.evaluate("""Array.from(document.querySelectorAll(
        '#flagged tr.flagged')).map(r => [r.dataset.robot, r.dataset.joint, r.dataset.parameter])""")
    assert {tuple(r) for r in rows} == {(e["robot"], e["joint"], e["parameter"]) for e in truth["drifts"]}
    msgs = page.evaluate("Array.from(document.querySelectorAll('#failures td.msg')).map(t => t.textContent)")
    assert sorted(msgs) == sorted(fleet_page["tasks"].loc[fleet_page["tasks"]["status"] == "failed", "error"])
    # the drifted joints are drawn highlighted in the history plots
    hot = page.evaluate("""Array.from(document.querySelectorAll('#history g.flagged')).map(
        g => g.dataset.robot + '/' + g.dataset.joint)""")
    assert {f"{e['robot']}/{e['joint']}" for e in truth["drifts"]} <= set(hot)


def test_downloads_and_print(fleet_page):
    page, d = fleet_page["page"], fleet_page["dir"]
    links = page.evaluate("""Array.from(document.querySelectorAll('a.download')).map(
        a => [a.getAttribute('download'), a.href.slice(0, 30)])""")
    names = {n for n, _ in links}
    assert {"drift.csv", "drift.json", "trend.csv", "spread.csv", "spread.json", "tasks.csv",
            "parameters.json"} <= names
    assert all(h.startswith(("data:text/csv;base64,", "data:application/json;base64,")) for _, h in links)
    pdf = page.print_pdf(d / "fleet.pdf")
    data = pathlib.Path(pdf).read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]


def test_undetermined_after_the_flagged(fleet_page):
    """The parameters the baseline cannot decide are listed in their own section inside the
    flagged one, after the flagged table, with their reasons; the header counts the outcomes."""
    page, drift = fleet_page["page"], fleet_page["drift"]
    c = analysis.drift_counts(drift)
    und = analysis.undetermined(drift)
    info = page.evaluate("""(() => {
        const s = document.querySelector('#flagged > section#undetermined');
        const f = document.querySelector('#flagged table[data-table=drift-flagged]');
        const box = s ? s.getBoundingClientRect() : null;
        const rows = s ? Array.from(s.querySelectorAll('tr.undetermined')).map(r =>
            [r.dataset.robot, r.dataset.joint, r.dataset.parameter, r.lastElementChild.textContent,
             r.lastElementChild.title]) : null;
        return {rows: rows, after: !!(f && s && (f.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING)),
                height: box ? box.height : 0,
                summary: (document.querySelector('header #drift-summary') || {}).textContent}; })()""")
    assert info["after"] and info["height"] > 0
    assert c["undetermined"] > 0   # this fleet has some (2 corrupt records, 4 sessions)
    # each row's cause, its full reason in the cause's tooltip
    expect = [list(t) for t in zip(und["robot"], und["joint"], und["name"], und["cause"], und["reason"])][:20]
    assert info["rows"] == expect
    assert info["summary"] == (f"Drift of {c['parameters']} parameter(s): {c['drift']} flagged ({c['drift_joints']} "
                               f"robot joint(s)), {c['undetermined']} undetermined ({c['undetermined_joints']} "
                               f"robot joint(s): the baseline cannot decide), {c['no drift']} no drift.")


def test_nothing_wider_than_the_window(fleet_page):
    """No table pushes the page sideways in the 1366 px window: the tables a reader reads first
    (flagged, undetermined, trends) fit whole (their reason column was squeezed off the page by too many
    columns); the raw tables, which show every column, scroll sideways in their own box."""
    page = fleet_page["page"]
    fit = page.evaluate("""(() => {
        const w = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('table')).map(t => [t.dataset.table,
            t.getBoundingClientRect().right <= w + 1]); })()""")
    assert dict(fit)["drift-flagged"] and dict(fit)["drift-undetermined"] and dict(fit)["trend-flagged"], fit
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    boxes = page.evaluate("""Array.from(document.querySelectorAll('table')).map(
        t => getComputedStyle(t.parentElement).overflowX)""")
    assert set(boxes) == {"auto"}


def _crowded_fleet(d):
    """30 robots, 4 sessions 2.4 h apart (one day: the time axis needs hours), 12 strong drifts
    (Fc x 1.4) and 2 smaller ones (Fc x 1.12: both flagged borderline, +12-14 %; the second's own
    baseline scatters, and the scatter pooled over the shoulders decides it) on the shoulders, 3
    sigma2 outliers on elbows."""
    drifts = ([{"robot": f"r{i:03d}", "joint": "shoulder", "parameter": "Fc", "from_session": -1,
                "factor": 1.4} for i in range(12)]
              + [{"robot": f"r{i:03d}", "joint": "shoulder", "parameter": "Fc", "from_session": -1,
                  "factor": 1.12} for i in (12, 13)])
    outliers = [{"robot": f"r{i:03d}", "joint": "elbow", "parameter": "sigma2", "factor": 2.0}
                for i in (20, 21, 22)]
    truth = synthetic.generate(d / "f", robots=30, sessions=4, seed=7, seconds=0.5, drifts=drifts,
                               outliers=outliers, interval_days=0.1, write_records=False)
    rel = {(jt, name): 0.01 for jt, spec in synthetic.JOINT_TYPES.items() for name in spec["nominal"]}
    params = synthetic.truth_parameters(truth, rel, seed=7)
    tasks = params[["key", "robot", "joint", "joint_type", "session", "session_time"]].drop_duplicates()
    return params, tasks.assign(status="done", error=None)


@pytest.fixture(scope="module")
def crowded_page(browser, tmp_path_factory):
    d = tmp_path_factory.mktemp("crowded")
    params, tasks = _crowded_fleet(d)
    path = report.write_report(params, tasks, d / "crowded.html", title="Crowded fleet", max_rows=20)
    return {"page": browser.open(pathlib.Path(path)), "params": params, "dir": d,
            "drift": analysis.drift(params)}


@pytest.mark.parametrize("which", ["fleet_page", "crowded_page"])
def test_layout(which, request):
    """The layout checks every page shares (no overlapping labels, nothing beyond the window,
    a legend entry for every series, axis ranges that hold the data, no legend over the data),
    on plots that follow the contract (their panels counted, so the checks cannot pass empty)."""
    page = request.getfixturevalue(which)["page"]
    assert layout.layout_problems(page) == []
    plots, panels = layout.plot_count(page)
    assert plots > 0 and panels == plots


def test_history_legend_names_every_robot_joint(fleet_page):
    """With 8 robots each history plot names every robot joint in its legend, in the colour of
    its line; a robot joint has the same colour in every plot of its joint type."""
    page = fleet_page["page"]
    plots = page.evaluate(STROKE + """Array.from(document.querySelectorAll('svg[data-plot=history]')).map(s => ({
        jt: s.dataset.jointType, p: s.dataset.parameter,
        series: Array.from(s.querySelectorAll('g.panel > [data-series]')).map(g =>
            [g.dataset.series, stroke(g)]),
        legend: Array.from(s.querySelectorAll('g.legend [data-legend]')).map(g =>
            [g.dataset.legend, (g.querySelector('line') || g.querySelector('circle')).getAttribute(
             g.querySelector('line') ? 'stroke' : 'fill')])}))""")
    params = fleet_page["params"]
    colour = {}
    for pl in plots:
        joints = params[params["joint_type"] == pl["jt"]][["robot", "joint"]].drop_duplicates()
        assert sorted(n for n, _ in pl["series"]) == sorted(f"{r}/{j}" for r, j in joints.to_numpy())
        assert sorted(pl["series"]) == sorted(pl["legend"]), pl["p"]
        for n, c in pl["series"]:
            if c not in (report._STRONG, report._BORDERLINE, report._OUTLIER):
                assert colour.setdefault((pl["jt"], n), c) == c, (pl["jt"], pl["p"], n)


def test_colours_by_severity(crowded_page):
    """A strong drift is drawn red, a borderline one amber, a fleet outlier purple, each named
    with its meaning in the legend while it holds them; the rest of a crowded plot is grouped
    ("+N strong", "N others"), and the flagged table's rows carry the severity."""
    page, drift = crowded_page["page"], crowded_page["drift"]
    fl_ = drift[drift["flagged"] & (drift["name"] == "Fc") & (drift["joint"] == "shoulder")]
    strong = {f"{r}/{j}" for r, j in fl_.loc[fl_["severity"] == "strong", ["robot", "joint"]].to_numpy()}
    border = {f"{r}/{j}" for r, j in fl_.loc[fl_["severity"] == "borderline", ["robot", "joint"]].to_numpy()}
    assert len(strong) == 12 and border == {"r012/shoulder", "r013/shoulder"}
    info = page.evaluate(STROKE + """(() => {
        const s = document.querySelector('svg[data-plot=history][data-joint-type=shoulder][data-parameter=Fc]');
        return {
          joints: Array.from(s.querySelectorAll('g.panel g[data-robot]')).map(g =>
            [g.dataset.robot + '/' + g.dataset.joint, stroke(g)]),
          legend: Array.from(s.querySelectorAll('g.legend [data-legend]')).map(g =>
            [g.dataset.legend, Array.from(g.querySelectorAll('text')).map(t => t.textContent)]),
          rows: Array.from(document.querySelectorAll('#flagged tr.flagged[data-parameter=Fc][data-joint=shoulder]')).map(r =>
            [r.dataset.robot + '/' + r.dataset.joint, r.classList.contains('strong'),
             r.classList.contains('borderline')])}; })()""")
    stroke = dict(info["joints"])
    assert {stroke[k] for k in strong} == {report._STRONG}
    assert {stroke[k] for k in border} == {report._BORDERLINE}
    assert {c for k, c in stroke.items() if k not in strong | border} == {report._GREY}
    legend = dict(info["legend"])
    named_strong = [k for k in legend if k in strong]
    assert len(named_strong) == 4 and all(legend[k][1] == "strong drift" for k in named_strong)
    assert legend["+8 strong"] == ["+8 strong", "strong drift"]
    assert legend["+2 borderline"] == ["+2 borderline", "borderline drift"]
    assert legend["16 others"] == ["16 others"]
    assert sorted(info["rows"]) == sorted([[k, True, False] for k in strong] + [[k, False, True] for k in border])
    outl = page.evaluate("""Array.from(document.querySelectorAll(
        'svg[data-plot=spread][data-joint-type=elbow][data-parameter=sigma2] g.outlier circle')).map(c =>
        [c.parentElement.dataset.robot, c.getAttribute('fill')])""")
    assert sorted(outl) == [["r020", report._OUTLIER], ["r021", report._OUTLIER], ["r022", report._OUTLIER]]
    legend = page.evaluate("""Array.from(document.querySelectorAll(
        'svg[data-plot=spread][data-joint-type=elbow][data-parameter=sigma2] [data-legend]')).map(g => g.dataset.legend)""")
    assert legend == ["27 robot joints", "median", "outlier limits", "r020/elbow", "r021/elbow", "r022/elbow"]


def test_percent_and_glossary(fleet_page):
    """relative and detectable read in percent on the page (the downloads keep the fraction);
    every column header of the reader's tables says what it means, and a glossary follows."""
    page, drift = fleet_page["page"], fleet_page["drift"]
    info = page.evaluate("""(() => {
        const t = document.querySelector('table[data-table=drift-flagged]');
        const heads = Array.from(t.querySelectorAll('th')).map(h => [h.textContent, h.title]);
        const rel = heads.findIndex(h => h[0] === 'relative');
        return {heads: heads, rel: Array.from(t.querySelectorAll('tbody tr')).map(r => r.children[rel].textContent),
                glossary: t.parentElement.nextElementSibling.textContent}; })()""")
    assert all(title for _, title in info["heads"]), info["heads"]
    fl_ = drift[drift["flagged"]].sort_values("severity", key=lambda s: s.map({"strong": 0, "borderline": 1}),
                                                kind="mergesort")
    assert info["rel"] == [f"{100 * v:+.1f} %" for v in fl_["relative"]]
    assert "relative: change / |baseline|, in percent" in info["glossary"]


def test_rows_stay_short(fleet_page):
    """Every row of every table, the folded raw tables unfolded too, is at most two text lines
    high (long reasons were a 200 px column of text): short causes, reasons and JSON as
    tooltips, long text cut on one line in the raw tables; unfolded, the layout still holds."""
    page = fleet_page["page"]
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    try:
        tall = page.evaluate("""Array.from(document.querySelectorAll('table')).map(t => [t.dataset.table,
            Math.max(0, ...Array.from(t.querySelectorAll('tbody tr')).map(r => r.getBoundingClientRect().height))])""")
        assert {n for n, _ in tall} >= {"drift-flagged", "drift-undetermined", "drift", "tasks"}
        assert [(n, h) for n, h in tall if h > 45] == []
        assert layout.check(page, "outside_page") == []
    finally:
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
