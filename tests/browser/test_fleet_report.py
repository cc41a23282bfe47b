"""The fleet report (frictionlab.fleet.report, docs/fleet.md) in a real headless Chromium.

A synthetic fleet (frictionlab.fleet.synthetic) with its default drifts and outlier, parameter
tables drawn from its truth with 1 % relative standard errors, and failed tasks carrying the
library's real messages for its corrupt records (frictionlab.fit on them). The page must load
with no console error, no exception and no network request (the downloads are data: links); its
screenshot is not blank; every plot is laid out at its size and drawn; the flagged joints come
first and are the injected drifts; the page prints to PDF.

Needs the Python package (PYTHONPATH=build/python; the CTest registration sets it).
"""
import pathlib

import pytest

from chromium import nonblank

fl = pytest.importorskip("frictionlab", reason="the frictionlab Python package is not on PYTHONPATH")
pytest.importorskip("frictionlab.fleet", reason="this build has no Python package (an installed "
                    "frictionlab without frictionlab.fleet is on the path)")
import pandas as pd  # noqa: E402

from frictionlab.fleet import analysis, report, synthetic  # noqa: E402


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
    path = report.write_report(params, tasks, d / "fleet.html", title="Synthetic fleet", max_rows=20)
    page = browser.open(pathlib.Path(path))
    return {"page": page, "truth": truth, "params": params, "tasks": tasks, "dir": d,
            "drift": analysis.drift(params)}


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
    assert order[:4] == ["flagged", "outliers", "failures", "history"]
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
    assert {"drift.csv", "drift.json", "spread.csv", "spread.json", "tasks.csv", "parameters.json"} <= names
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
        const rows = s ? Array.from(s.querySelectorAll('tr.undetermined')).map(r =>
            [r.dataset.robot, r.dataset.joint, r.dataset.parameter, r.lastElementChild.textContent]) : null;
        const box = s ? s.getBoundingClientRect() : null;
        return {rows: rows, after: !!(f && s && (f.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING)),
                height: box ? box.height : 0,
                summary: (document.querySelector('header #drift-summary') || {}).textContent}; })()""")
    assert info["after"] and info["height"] > 0
    assert c["undetermined"] > 0   # this fleet has some (2 corrupt records, 4 sessions)
    expect = [[r, j, n, why] for r, j, n, why in zip(und["robot"], und["joint"], und["name"], und["reason"])][:20]
    assert info["rows"] == expect
    assert info["summary"] == (f"Drift of {c['parameters']} parameter(s): {c['drift']} flagged ({c['drift_joints']} "
                               f"robot joint(s)), {c['undetermined']} undetermined ({c['undetermined_joints']} "
                               f"robot joint(s): the baseline cannot decide), {c['no drift']} no drift.")


def test_nothing_wider_than_the_window(fleet_page):
    """No table pushes the page sideways in the 1366 px window: the tables a reader reads first
    (flagged, undetermined) fit whole (their reason column was squeezed off the page by too many
    columns); the raw tables, which show every column, scroll sideways in their own box."""
    page = fleet_page["page"]
    fit = page.evaluate("""(() => {
        const w = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('table')).map(t => [t.dataset.table,
            t.getBoundingClientRect().right <= w + 1]); })()""")
    assert dict(fit)["drift-flagged"] and dict(fit)["drift-undetermined"], fit
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    boxes = page.evaluate("""Array.from(document.querySelectorAll('table')).map(
        t => getComputedStyle(t.parentElement).overflowX)""")
    assert set(boxes) == {"auto"}
