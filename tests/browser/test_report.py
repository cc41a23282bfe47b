"""The identification report (docs/report.md) in a real headless Chromium.

Reports are made by the CLI (FRICTIONLAB_CLI) on the demo's records: `fit --report` for a rich
record (LuGre, sensorless), `fit --report` for a record built to be unidentifiable (a LuGre fit of
a record whose velocity never changes sign), and `frictionlab report` of both side by side.
Each page is opened from disk and must load with no console error, no exception and no network
request; its screenshot is not blank; the parameter table, the metrics and the flags equal
fit.json's; every plot is drawn; the zoom (sliders, brush, reset) changes the visible range; the
page prints to PDF.
"""
import json
import math
import os
import pathlib
import random
import subprocess

import pytest

import chromium
import layout

CLI = os.environ.get("FRICTIONLAB_CLI", "frictionlab")
PLOTS = ("time", "histogram", "acf", "friction-velocity")


def run(*args, cwd):
    r = subprocess.run([CLI, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    d = tmp_path_factory.mktemp("report")
    run("demo", "--out", "demo", cwd=d)
    run("fit", "--problem", "sensorless", "--model", "lugre", "--input", "demo/sensorless_train.csv",
        "--time", "t", "--velocity", "velocity", "--current", "current", "--force", "torque",
        "--validate", "demo/sensorless_validation.csv", "--out", "rich", "--report", "rich.html",
        cwd=d)
    # Velocity that never changes sign (0.05..0.55 rad/s), friction of a LuGre contact in steady
    # state plus noise: the pre-sliding parameters cannot be seen.
    lines = ["t,v,F"]
    rng = random.Random(5)
    for k in range(4001):
        t = k * 1e-3
        v = 0.3 + 0.25 * math.sin(2 * math.pi * 0.5 * t)
        F = 1.0 + 0.5 * math.exp(-(v / 0.1) ** 2) + 0.4 * v + rng.gauss(0, 0.01)
        lines.append(f"{t:.3f},{v!r},{F!r}")
    (d / "oneway.csv").write_text("\n".join(lines) + "\n")
    run("fit", "--model", "lugre", "--input", "oneway.csv", "--velocity", "v", "--force", "F",
        "--out", "oneway", "--report", "oneway.html", "--starts", "1", cwd=d)
    run("report", "rich/fit.json", "oneway/fit.json", "--output", "both.html", cwd=d)
    run("compare", "--problem", "sensorless", "--input", "demo/sensorless_train.csv", "--time", "t",
        "--velocity", "velocity", "--current", "current", "--force", "torque", "--validate",
        "demo/sensorless_validation.csv", "--models", "coulomb-viscous,stribeck,lugre",
        "--starts", "1", "--out", "cmp", "--report", "cmp.html", cwd=d)
    dfki = pathlib.Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", ".")).resolve().parent / "shared" / "data" / "pendulum_dfki"
    run("fit-joint", "--method", "sr3", "--input", dfki / "sysid_data_measured.csv", "--validate",
        dfki / "gravcomp_data_measured.csv", "--time", "time", "--position", "position",
        "--torque", "torque", "--resample", "300", "--lowpass", "5", "--out", "joint",
        "--report", "joint.html", cwd=d)
    run("report", "joint/joint_fit.json", "rich/fit.json", "--output", "mixed.html", cwd=d)
    src = pathlib.Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", ".")).resolve()
    run("eval-joint", "--joint", src / "examples" / "data" / "dfki_published_joint.json", "--input",
        dfki / "gravcomp_data_measured.csv", "--time", "time", "--position", "position",
        "--torque", "torque", "--resample", "300", "--lowpass", "5", "--out", "jev",
        "--report", "jev.html", cwd=d)
    servo = dfki.parent / "servo_xl330" / "logs"
    run("fit-actuator", "--logs", servo, "--models", "m1,m3", "--trials", "200", "--restarts", "0",
        "--validate", "none", "--out", "act", "--report", "act.html", cwd=d)
    run("eval-actuator", "--params", dfki.parent / "servo_xl330" / "reference_params", "--logs", servo,
        "--kp", "200", "--json", "aev.json", "--report", "aev.html", cwd=d)
    run("report", "aev.json", "--output", "aev_later.html", cwd=d)
    panda = dfki.parent / "robot_panda"
    run("fit-robot", "--robot", panda / "panda_dh.json", "--input", panda / "excitation_1.csv",
        "--resample", "1000", "--lowpass", "10", "--consistent", "--out", "arm", "--report",
        "robot.html", cwd=d)
    return d


def fit_json(d, name):
    return json.loads((d / name / "fit.json").read_text())


class Pages:
    """Each page opened in its own tab when first asked for, the previous one closed (a
    background tab is not rendered: screenshots and layout need the visible one)."""

    def __init__(self, browser, reports):
        self.browser, self.reports, self.page, self.name = browser, reports, None, None

    def __getitem__(self, name):
        if name != self.name:
            if self.page is not None:
                self.page.close()
            self.page, self.name = self.browser.open(self.reports / f"{name}.html"), name
        return self.page


@pytest.fixture
def pages(browser, reports):
    p = Pages(browser, reports)
    yield p
    if p.page is not None:
        p.page.close()


@pytest.mark.parametrize("name", ["rich", "oneway", "both", "cmp", "joint", "mixed", "act", "jev", "aev",
                                  "robot"])
def test_loads_clean_from_disk(pages, reports, name, tmp_path):
    page = pages[name]
    page.wait(0.3)
    assert page.errors == [], page.errors
    assert page.console_errors == [] and page.console == [], page.console
    assert page.requests == [], page.requests
    assert page.data_requests == []
    png = page.screenshot(tmp_path / f"{name}.png")
    assert chromium.nonblank(png) > 0.05
    # the page is self-contained: no URL to anything outside it in the markup
    html = (reports / f"{name}.html").read_text()
    for ref in ("http://", "https://", "src=", "<link", "@import", "url(http"):
        # (the SVG namespace name is an identifier, never fetched)
        assert ref not in html.replace("http://www.w3.org/2000/svg", ""), ref


@pytest.mark.parametrize("name", ["rich", "oneway", "both"])
def test_every_section_and_plot_is_there(pages, name):
    page = pages[name]
    n = 2 if name == "both" else 1
    info = page.evaluate("""Array.from(document.querySelectorAll('section.fit')).map(s => ({
        model: s.dataset.model,
        rows: s.querySelectorAll('table.parameters tbody tr').length,
        plots: Object.fromEntries(Array.from(s.querySelectorAll('svg.plot')).map(p => {
          const r = p.getBoundingClientRect();
          const marks = p.querySelectorAll('polyline, path, circle');
          let pts = 0;
          marks.forEach(m => { pts += (m.getAttribute('points') || m.getAttribute('d') || 'x').length; });
          return [p.dataset.plot, {w: r.width, h: r.height, marks: marks.length, pts: pts}];
        })),
        metrics: s.querySelectorAll('table.metrics tbody tr').length,
        verdict: s.querySelector('.verdict') ? s.querySelector('.verdict').textContent : null,
      }))""")
    assert len(info) == n
    for s in info:
        assert s["model"] == "lugre"
        assert s["rows"] >= 6 and s["verdict"]
        for kind in PLOTS:
            p = s["plots"][kind]
            assert p["w"] > 400 and p["h"] > 150, (kind, p)
            assert p["marks"] >= 1 and p["pts"] > 100, (kind, p)
        assert s["metrics"] >= 1


def test_numbers_equal_fit_json(pages, reports):
    for name, section in (("rich", 0), ("oneway", 0), ("both", 0), ("both", 1)):
        src = "rich" if section == 0 and name != "oneway" else "oneway"
        j = fit_json(reports, src)
        rows = pages[name].evaluate(f"""Array.from(document.querySelectorAll('section.fit')[{section}]
            .querySelectorAll('table.parameters tbody tr')).map(tr => ({{
              name: tr.dataset.name,
              value: tr.querySelector('td.value').dataset.value,
              se: tr.querySelector('td.std-error').dataset.value,
              lo: tr.querySelector('td.ci').dataset.low, hi: tr.querySelector('td.ci').dataset.high,
              hac: tr.querySelector('td.hac').dataset.value,
              text: tr.querySelector('td.value').textContent }}))""")
        assert [r["name"] for r in rows] == [p["name"] for p in j["parameters"]]
        for r, p in zip(rows, j["parameters"]):
            assert float(r["value"]) == p["value"], (r, p)   # the exact double, not a rounding
            assert abs(float(r["text"]) - p["value"]) <= 1e-5 * abs(p["value"])  # shown to 6 digits
            if p["fixed"]:
                assert r["se"] == "0" and r.get("lo") is None
            else:
                assert (float(r["se"]) if r["se"] else None) == p["std_error"]
                assert [float(r["lo"]), float(r["hi"])] == p["ci95"]
                assert (float(r["hac"]) if r["hac"] else None) == p["hac_std_error"]
        rmse = pages[name].evaluate(f"""Array.from(document.querySelectorAll('section.fit')[{section}]
            .querySelectorAll('table.metrics td.rmse')).map(td => +td.dataset.value)""")
        assert rmse == [j["training"]["rmse"]] + [v["metrics"]["rmse"] for v in j["validation"]]


def test_flags_equal_fit_json_and_name_the_reason(pages, reports):
    rich = fit_json(reports, "rich")
    oneway = fit_json(reports, "oneway")
    assert rich["identifiability"] == []
    assert pages["rich"].evaluate("document.querySelectorAll('ul.flags li').length") == 0
    assert pages["rich"].evaluate("!!document.querySelector('p.no-flags')")
    # fit.json's verdict heads the section: the rich record's fit is good, with no reason
    assert pages["rich"].evaluate("document.querySelector('.verdict').dataset.grade") == rich["verdict"]["grade"] == "good"
    assert pages["rich"].evaluate("document.querySelectorAll('.verdict li').length") == len(rich["verdict"]["reasons"])
    kinds = {(f["parameter"], f["kind"]) for f in oneway["identifiability"]}
    assert ("sigma0", "reversals") in kinds and ("sigma1", "reversals") in kinds, kinds
    items = pages["oneway"].evaluate("""Array.from(document.querySelectorAll('ul.flags li'))
        .map(li => [li.dataset.parameter, li.dataset.kind, li.textContent])""")
    assert [(p or None, k) for p, k, _ in items] == [(f["parameter"], f["kind"]) for f in oneway["identifiability"]]
    assert any("reversal" in text for _, k, text in items if k == "reversals")
    verdict = pages["oneway"].evaluate("document.querySelector('.verdict').className")
    assert "warn" in verdict and oneway["verdict"]["grade"] == "doubtful"
    assert "determined" in [r["rule"] for r in oneway["verdict"]["reasons"]]


def visible_range(page, section=1):
    return [float(x) for x in page.evaluate(
        f"document.querySelector('#fit-{section} svg.plot[data-plot=time]').getAttribute('data-range')").split()]


def test_zoom_sliders_brush_and_reset(pages):
    page = pages["rich"]
    t0, t1 = visible_range(page)
    assert (t0, t1) == (0.0, 20.0)
    page.set_value("#fit-1 .zoom-start", 500)
    assert visible_range(page) == pytest.approx([10.0, 20.0])
    page.set_value("#fit-1 .zoom-end", 600)
    assert visible_range(page) == pytest.approx([10.0, 12.0])
    # fewer samples are drawn, at their own resolution: the measured line's points lie inside
    drawn = page.evaluate("""(() => { const p = document.querySelector('#fit-1 svg.plot[data-plot=time] polyline.series');
        return p.getAttribute('points').trim().split(' ').length; })()""")
    assert drawn > 100
    page.click("#fit-1 .zoom-reset")
    assert visible_range(page) == [0.0, 20.0]
    # brush: drag from 25 % to 50 % of the plot area's width
    page.evaluate("""(() => {
        const svg = document.querySelector('#fit-1 svg.plot[data-plot=time]');
        const r = svg.getBoundingClientRect(), s = r.width / 960;
        const x = f => r.left + (78 + f * (960 - 78 - 16)) * s, y = r.top + 80 * s;
        svg.dispatchEvent(new MouseEvent('mousedown', {clientX: x(0.25), clientY: y, bubbles: true}));
        svg.dispatchEvent(new MouseEvent('mousemove', {clientX: x(0.5), clientY: y, bubbles: true}));
        window.dispatchEvent(new MouseEvent('mouseup', {clientX: x(0.5), clientY: y, bubbles: true}));
        return true; })()""")
    a, b = visible_range(page)
    assert a == pytest.approx(5.0, abs=0.05) and b == pytest.approx(10.0, abs=0.05)
    page.evaluate("""document.querySelector('#fit-1 svg.plot[data-plot=time]')
        .dispatchEvent(new MouseEvent('dblclick', {bubbles: true}))""")
    assert visible_range(page) == [0.0, 20.0]
    assert page.errors == [] and page.console_errors == []


def test_prints_to_pdf(pages, tmp_path):
    pdf = pages["both"].print_pdf(tmp_path / "both.pdf")
    data = pathlib.Path(pdf).read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]
    assert len(data) > 20000


def test_comparison_ranking_recommendation_and_model_sections(pages, reports):
    c = json.loads((reports / "cmp" / "compare.json").read_text())
    page = pages["cmp"]
    info = page.evaluate("""({
        ranking: Array.from(document.querySelectorAll('section.comparison table.ranking tbody tr'))
          .map(tr => [tr.dataset.model, +tr.children[3].dataset.value, +tr.children[4].dataset.value]),
        recommended: document.querySelector('section.comparison .recommendation').dataset.model,
        text: document.querySelector('section.comparison .recommendation').textContent,
        sections: Array.from(document.querySelectorAll('section.fit')).map(s => s.dataset.model),
        plots: document.querySelectorAll('section.fit svg.plot').length,
        links: Array.from(document.querySelectorAll('section.comparison a')).map(a => a.getAttribute('href')),
      })""")
    assert [r[0] for r in info["ranking"]] == [r["model"] for r in c["rows"]]
    assert [r[1] for r in info["ranking"]] == [r["training_rmse"] for r in c["rows"]]
    assert [r[2] for r in info["ranking"]] == [r["validation_rmse"] for r in c["rows"]]
    assert info["recommended"] == c["best"] == c["rows"][0]["model"] == "lugre"
    assert "lowest validation RMSE" in info["text"] and "AICc agrees" in info["text"]
    assert info["sections"] == [r["model"] for r in c["rows"]]
    assert info["plots"] == 4 * len(c["rows"])
    # every link of the ranking leads to its model's section
    for href, row in zip(info["links"], c["rows"]):
        assert page.evaluate(f"document.querySelector('{href}').dataset.model") == row["model"]
    # each model's parameter table equals its fit in compare.json
    for k, row in enumerate(c["rows"]):
        vals = page.evaluate(f"""Array.from(document.querySelectorAll('section.fit')[{k}]
            .querySelectorAll('table.parameters td.value')).map(td => +td.dataset.value)""")
        assert vals == [p["value"] for p in row["fit"]["parameters"]]


def test_joint_report(pages, reports):
    """fit-joint sr3 on the DFKI pendulum: the parameter table equals joint_fit.json, a time plot
    per record (training, validation) with position, velocity and torque, the sr3 lambda path,
    the errors; the zoom works on a joint plot; mixed with a fit in one page."""
    j = json.loads((reports / "joint" / "joint_fit.json").read_text())
    page = pages["joint"]
    info = page.evaluate("""({
        values: Array.from(document.querySelectorAll('table.parameters td.value')).map(td => +td.dataset.value),
        names: Array.from(document.querySelectorAll('table.parameters tbody tr')).map(tr => tr.dataset.name),
        timeplots: document.querySelectorAll('div.timeplot').length,
        panels: document.querySelectorAll('div.timeplot svg g.panel').length,
        sr3: document.querySelectorAll('svg.plot[data-plot="sr3-path"] circle, svg.plot[data-plot="sr3-path"] path').length,
        rmse: Array.from(document.querySelectorAll('table.metrics td.rmse')).map(td => +td.dataset.value),
        grade: document.querySelector('.verdict').dataset.grade,
        reasons: Array.from(document.querySelectorAll('.verdict li')).map(li => li.textContent),
        note: document.querySelector('.parameters-note').textContent,
      })""")
    assert info["names"] == [p["name"] for p in j["parameters"]]
    assert info["values"] == [p["value"] for p in j["parameters"]]
    assert info["timeplots"] == 1 + len(j["validation"]) == len(j["report"]["records"])
    assert info["panels"] == 3 * info["timeplots"]
    assert info["sr3"] >= 1
    assert info["rmse"] == [j["training"]["torque"]["rmse"]] + [v["torque"]["rmse"] for v in j["validation"]]
    assert "sigma0" in info["note"]  # the record does not determine sigma0 (sr3's warning)
    # the verdict of joint_fit.json at the top, one item per reason, what to try with each
    assert info["grade"] == j["verdict"]["grade"]
    assert len(info["reasons"]) == len(j["verdict"]["reasons"])
    assert all(r["text"] in li for r, li in zip(j["verdict"]["reasons"], info["reasons"]))
    page.set_value("#fit-1-time-1 .zoom-end", 500)
    a, b = [float(x) for x in page.evaluate(
        "document.querySelector('#fit-1-time-1 svg.plot').getAttribute('data-range')").split()]
    t = j["report"]["records"][1]["t"]
    assert a == t[0] and b == pytest.approx(t[0] + 0.5 * (t[-1] - t[0]))
    mixed = pages["mixed"]
    assert mixed.evaluate("Array.from(document.querySelectorAll('section.fit')).map(s => s.dataset.model)") == ["joint", "lugre"]


def test_actuator_report(pages, reports):
    """fit-actuator on the XL330 logs (two models, a short budget): the verdict first, the
    ranking equals summary.json, the recommendation is named with its reason, the recommended
    model's parameters equal its parameter file and carry their units, a time plot per log headed
    by its role in the fit and its error; the header counts the two fits."""
    j = json.loads((reports / "act" / "summary.json").read_text())
    params = json.loads((reports / "act" / (j["recommended"] + ".json")).read_text())
    page = pages["act"]
    info = page.evaluate("""({
        first: document.querySelector('section.actuator').children[1].className,
        grade: document.querySelector('section.actuator div.verdict').dataset.grade,
        header: document.querySelector('header p').textContent,
        ranking: Array.from(document.querySelectorAll('table.ranking tbody tr')).map(tr =>
          [tr.dataset.model, +tr.children[1].textContent, +tr.children[2].dataset.value]),
        recommended: document.querySelector('.recommendation').dataset.model,
        text: document.querySelector('.recommendation').textContent,
        params: Object.fromEntries(Array.from(document.querySelectorAll('table.parameters tbody tr'))
          .map(tr => [tr.dataset.name, +tr.querySelector('td.value').dataset.value])),
        units: Object.fromEntries(Array.from(document.querySelectorAll('table.parameters tbody tr'))
          .map(tr => [tr.dataset.name, tr.querySelector('td.unit').textContent])),
        headings: Array.from(document.querySelectorAll('section.actuator h3[data-role]')).map(h =>
          [h.dataset.role, h.textContent]),
        timeplots: document.querySelectorAll('div.timeplot').length,
      })""")
    assert info["first"].startswith("verdict ") and info["grade"] == j["verdict"]["grade"]
    assert "2 fits." in info["header"]
    assert info["ranking"] == [[m["model"], m["n_parameters"], m["train_mae"]] for m in j["models"]]
    assert info["recommended"] == j["recommended"] and j["reason"] in info["text"]
    assert info["params"] == {k: v for k, v in params.items() if isinstance(v, (int, float))}
    assert info["units"]["kt"] == "N m/A" and info["units"]["friction_viscous"] == "N m s/rad"
    assert info["timeplots"] == len(j["logs"]) == 16
    # --validate none: every log is a training log; each heading gives its error
    logs = j["report"]["logs"]
    assert [h[0] for h in info["headings"]] == [l["role"] for l in logs] == ["training"] * 16
    for (_, text), l in zip(info["headings"], logs):
        assert f"training, MAE {l['mae']:.5g} rad" in text, text


def test_joint_evaluation_report(pages, reports):
    """eval-joint of the owners' published DFKI model: the model's values, the errors and a time
    plot per record equal joint_eval.json's."""
    j = json.loads((reports / "jev" / "joint_eval.json").read_text())
    page = pages["jev"]
    info = page.evaluate("""({
        values: Object.fromEntries(Array.from(document.querySelectorAll('table.parameters tbody tr'))
          .map(tr => [tr.dataset.name, +tr.querySelector('td.value').dataset.value])),
        rmse: Array.from(document.querySelectorAll('table.metrics td.rmse')).map(td => +td.dataset.value),
        timeplots: document.querySelectorAll('div.timeplot').length,
      })""")
    joint = j["joint"]
    assert info["values"]["I"] == joint["I"] and info["values"]["mgCy"] == joint["mgCy"]
    for k, v in joint["friction"]["params"].items():
        if isinstance(v, (int, float)):
            assert info["values"][k] == v
    assert info["rmse"] == [r["torque"]["rmse"] for r in j["records"]]
    assert info["timeplots"] == len(j["records"]) == len(j["report"]["records"])


def test_actuator_evaluation_report(pages, reports):
    """eval-actuator of the reference package's six parameter files on the kp 200 logs: the
    per-log errors and the means equal aev.json's, the lowest of each log is marked, the best set
    is named, each log's plot has the measured position, every set and the goal; `frictionlab
    report aev.json` later makes the same page."""
    j = json.loads((reports / "aev.json").read_text())
    page = pages["aev"]
    info = page.evaluate("""({
        labels: Array.from(document.querySelectorAll('table.eval thead th[data-label]')).map(th => th.dataset.label),
        rows: Array.from(document.querySelectorAll('table.eval tbody tr[data-log]')).map(tr =>
          [tr.dataset.log, Array.from(tr.querySelectorAll('td[data-value]')).map(td => +td.dataset.value),
           Array.from(tr.querySelectorAll('td.lowest')).length]),
        means: Array.from(document.querySelectorAll('table.eval tr.mean td[data-value]')).map(td => +td.dataset.value),
        best: document.querySelector('section.actuator-eval .recommendation').dataset.model,
        grade: document.querySelector('section.actuator-eval div.verdict').dataset.grade,
        pooled: Array.from(document.querySelectorAll('table.eval tr.pooled td[data-value]')).map(td => +td.dataset.value),
        series: Array.from(document.querySelectorAll('div.timeplot svg')).map(svg =>
          Array.from(svg.querySelectorAll('polyline.series')).map(p => p.dataset.name)),
      })""")
    labels = [p["label"] for p in j["params"]]
    assert info["labels"] == labels == ["m1", "m2", "m3", "m4", "m5", "m6"]
    assert [r[0] for r in info["rows"]] == [l["log"] for l in j["logs"]]
    for i, (_, maes, lowest) in enumerate(info["rows"]):
        assert maes == [p["mae"][i] for p in j["params"]] and lowest >= 1
    assert info["means"] == [p["mean"] for p in j["params"]]
    assert info["pooled"] == [p["pooled"] for p in j["params"]]
    assert info["grade"] == j["verdict"]["grade"]
    assert info["best"] == j["best"] == min(j["params"], key=lambda p: p["mean"])["label"]
    assert len(info["series"]) == len(j["logs"]) == 4
    for names in info["series"]:
        assert names == ["measured", *labels, "goal"]
    strip = lambda text: [l for l in text.splitlines() if 'class="command"' not in l]
    assert strip((reports / "aev.html").read_text()) == strip((reports / "aev_later.html").read_text())


@pytest.mark.parametrize("name", ["rich", "oneway", "cmp", "joint", "act", "jev", "aev", "robot"])
def test_layout_of_every_plot(pages, name):
    """Every plot (the static SVGs and the script-drawn time plots) follows the layout contract
    (tests/browser/layout.py): no texts collide, nothing leaves the page, every series is in its
    legend, the axis ranges contain the data (counts from 0), no legend covers a curve; also after
    zooming into a narrow range (more digits per tick label)."""
    page = pages[name]
    assert page.evaluate("document.querySelectorAll('svg.plot text').length") > 20
    plots, panels = layout.plot_count(page)
    assert plots > 0 and panels >= plots
    assert layout.layout_problems(page) == []
    svg = "div.timeplot svg.plot[data-plot=time]"
    before = page.evaluate(f"document.querySelector('{svg}').getAttribute('data-range')")
    page.set_value("div.timeplot .zoom-start", 400)
    page.set_value("div.timeplot .zoom-end", 403)
    after = [float(x) for x in page.evaluate(f"document.querySelector('{svg}').getAttribute('data-range')").split()]
    lo, hi = map(float, before.split())
    assert after == pytest.approx([lo + 0.4 * (hi - lo), lo + 0.403 * (hi - lo)], rel=1e-6, abs=1e-9)
    assert layout.layout_problems(page) == []


def test_robot_report(pages, reports):
    """fit-robot's page: the verdict, the base parameters and per-joint errors equal
    robot_fit.json's, the poorly determined ones flagged, and a time plot panel per joint with
    the measured and the predicted torque."""
    fit = json.loads((reports / "arm" / "robot_fit.json").read_text())
    page = pages["robot"]
    info = page.evaluate("""(() => { const s = document.querySelector('section.robot');
        const rows = Array.from(s.querySelectorAll('table.robot-parameters tbody tr'));
        return {verdict: s.querySelector('.verdict').textContent,
                names: rows.map(r => r.dataset.name),
                values: rows.map(r => Number(r.querySelector('td.value').dataset.value)),
                flagged: rows.filter(r => r.classList.contains('flagged')).map(r => r.dataset.name),
                rms: Array.from(s.querySelectorAll('table.robot-errors td.rmse')).map(
                    td => Number(td.dataset.value)),
                panels: s.querySelectorAll('div.timeplot svg.plot g.panel').length,
                legends: Array.from(s.querySelectorAll('div.timeplot [data-legend]')).map(
                    l => l.dataset.legend)}; })()""")
    assert info["names"] == [p["name"] for p in fit["parameters"]]
    assert info["values"] == [p["value"] for p in fit["parameters"]]
    assert info["flagged"] == [p["name"] for p in fit["parameters"] if p["poorly_determined"]]
    assert info["rms"] == [fit["rms_error"][q] for q in fit["joints"]]
    assert info["panels"] == len(fit["joints"])
    assert {"measured", "predicted"} <= set(info["legends"])
    assert fit["verdict"]["grade"] in info["verdict"]


# Each fault breaks one check on the fit page; the check must see it (none passes vacuously).
FAULTS = {
    "text_overlaps": """(() => { const t = document.querySelectorAll('div.timeplot svg text');
        t[1].setAttribute('x', t[0].getAttribute('x')); t[1].setAttribute('y', t[0].getAttribute('y')); })()""",
    "outside_page": """(() => { document.querySelector('table.parameters').style.width = '3000px'; })()""",
    "missing_legends": """(() => { const p = document.querySelector('svg.plot[data-plot=histogram] g.panel');
        const s = p.querySelector('[data-series]').cloneNode(); s.setAttribute('data-series', '');
        p.appendChild(s); })()""",
    "bad_ranges": """(() => { const p = document.querySelector('svg.plot[data-plot=histogram] g.panel');
        const [lo, hi] = p.dataset.yrange.split(' ').map(Number);
        p.setAttribute('data-yrange', (-0.2 * hi) + ' ' + hi); })()""",
    "legend_covers_data": """(() => { const svg = document.querySelector('svg.plot[data-plot=histogram]');
        const g = svg.querySelector('g.legend'), s = svg.querySelector('g.panel [data-series]');
        const a = g.getBBox(), b = s.getBBox();
        g.setAttribute('transform', `translate(${b.x + b.width / 2 - a.x - a.width / 2}, ${b.y + b.height - a.y - a.height})`); })()""",
}


@pytest.mark.parametrize("check", sorted(layout.CHECKS))
def test_each_layout_check_sees_its_fault(pages, check):
    page = pages["rich"]
    assert layout.check(page, check) == []
    page.evaluate(FAULTS[check])
    found = layout.check(page, check)
    assert found != [], check
    if check == "bad_ranges":
        assert any("counts on a y axis starting at" in p for p in found), found
