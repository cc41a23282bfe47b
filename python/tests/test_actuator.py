"""frictionlab.fit_actuator / eval_actuator against the CLI's `fit-actuator` / `eval-actuator`
on the XL330 logs (../shared/data/servo_xl330), with a small CMA-ES budget: summary.json, the
parameter files and the evaluation's JSON bit for bit (but the wall times)."""
import json
import pickle

import pytest

import frictionlab as fl
from _cli import SERVO, needs_cli, run_cli, same_json

pytestmark = [needs_cli, pytest.mark.skipif(not SERVO.is_dir(), reason="no ../shared/data")]
LOGS = SERVO / "logs"


def test_fit_actuator_equals_cli(tmp_path):
    run_cli("fit-actuator", "--logs", LOGS, "--models", "m1,m2", "--trials", "40", "--restarts",
            "0", "--threads", "1", "--validate", "kp=200", "--out", "cli", cwd=tmp_path)
    r = fl.fit_actuator(str(LOGS), models=["m1", "m2"], trials=40, restarts=0, threads=1,
                        validation="kp=200")
    same_json((tmp_path / "cli" / "summary.json").read_text(), r.to_json())
    for m in r.models:
        assert m.params_json() == (tmp_path / "cli" / f"{m.name}.json").read_text()
    j = json.loads(r.to_json())
    assert r.recommended == j["recommended"] and r.validated
    assert [m.train_mae for m in r.models] == [m["train_mae"] for m in j["models"]]
    # .parameters: the estimates (as FitOutcome.parameters), their number n_parameters
    m1 = r.models[0]
    assert m1.n_parameters == len(m1.parameters) == j["models"][0]["n_parameters"] == 6
    assert [(p.name, p.unit) for p in m1.parameters][:2] == [("kt", "N m/A"), ("R", "ohm")]
    assert [p.value for p in m1.parameters] == [p["value"] for p in j["models"][0]["parameters"]]
    assert m1.parameters[0].value == m1.params["kt"]
    # the verdict, as summary.json's; the per-log means beside the pooled errors
    assert r.verdict.grade == j["verdict"]["grade"] and r.verdict.line() == j["verdict"]["line"]
    assert r.train_log_mean == j["train_log_mean"] and r.validation_log_mean == j["validation_log_mean"]
    r.write(tmp_path / "py")
    assert (tmp_path / "py" / "m1.json").read_text() == (tmp_path / "cli" / "m1.json").read_text()
    # the report: the ranking, the recommended model's parameters, a time plot per log
    text = (tmp_path / "r.html").read_text() if r.report(tmp_path / "r.html") else ""
    assert text.count('class="timeplot"') == len(j["logs"]) and 'class="ranking"' in text
    assert f'data-model="{j["recommended"]}"' in text


def test_fit_actuator_temperature_law_equals_cli(tmp_path):
    """temperature_law= / temperature_viscous= are the CLI's --temperature-law /
    --temperature-viscous: the same summary.json and m1+T.json; .temperature is its check."""
    run_cli("fit-actuator", "--logs", LOGS, "--models", "m1", "--trials", "40", "--restarts", "0",
            "--threads", "1", "--validate", "kp=200", "--temperature-law", "exponential",
            "--temperature-viscous", "--out", "cli", cwd=tmp_path)
    r = fl.fit_actuator(str(LOGS), models="m1", trials=40, restarts=0, threads=1,
                        validation="kp=200", temperature_law="exponential",
                        temperature_viscous=True)
    same_json((tmp_path / "cli" / "summary.json").read_text(), r.to_json())
    assert [(m.name, m.temperature) for m in r.models] == [("m1", False), ("m1+T", True)]
    warm = r.models[1]
    assert warm.params_json() == (tmp_path / "cli" / "m1+T.json").read_text()
    assert [p.name for p in warm.parameters][-2:] == ["kT", "kT_v"]
    assert warm.params["temperature_law"] == "exponential"
    assert warm.train_mae <= r.models[0].train_mae  # the nested rule
    t = r.temperature
    assert t == json.loads(r.to_json())["temperature"] | {"kp_correlation": t["kp_correlation"]}
    assert t["law"] == "exponential" and t["viscous"] and not t["undetermined"] and t["confounded"]
    assert pickle.loads(pickle.dumps(r)).to_json() == r.to_json()  # the law and its check too
    assert fl.fit_actuator(str(LOGS), models="m1", trials=10, restarts=0, threads=1,
                           validation="kp=200").temperature is None
    with pytest.raises(ValueError, match="temperature_viscous needs temperature_law"):
        fl.fit_actuator(str(LOGS), models="m1", trials=10, temperature_viscous=True)
    with pytest.raises(ValueError, match="temperature_law"):
        fl.fit_actuator(str(LOGS), models="m1", trials=10, temperature_law="arrhenius")


def test_eval_actuator_equals_cli(tmp_path):
    params = SERVO / "reference_params" / "m1.json"
    run_cli("eval-actuator", "--logs", LOGS, "--params", params, "--kp", "200", "--json",
            "ev.json", cwd=tmp_path)
    e = fl.eval_actuator(LOGS, params, kp=[200])
    assert e.to_json() == (tmp_path / "ev.json").read_text()
    assert len(e.logs) == len(e.params[0].mae) and e.params[0].label == "m1"
    assert e.logs[0].kp == 200
    # both measures: the mean of the per-log MAEs and the MAE pooled over entries; the verdict
    j = json.loads(e.to_json())
    assert e.params[0].mean == j["params"][0]["mean"] and e.params[0].pooled == j["params"][0]["pooled"]
    assert e.params[0].pooled == pytest.approx(
        sum(m * l.samples for m, l in zip(e.params[0].mae, e.logs)) / sum(l.samples for l in e.logs))
    assert e.verdict.grade == j["verdict"]["grade"] == "good"
    # write() is the CLI's file; report() the page `eval-actuator --report` writes
    assert e.write(tmp_path / "py.json") == str(tmp_path / "py.json")
    assert (tmp_path / "py.json").read_text() == (tmp_path / "ev.json").read_text()
    run_cli("eval-actuator", "--logs", LOGS, "--params", SERVO / "reference_params", "--kp", "200",
            "--report", "ev.html", cwd=tmp_path)
    all6 = fl.eval_actuator(LOGS, SERVO / "reference_params", kp=[200])
    assert all6.best == min(all6.params, key=lambda c: c.mean).label
    all6.report(tmp_path / "py.html")
    strip = lambda p: [l for l in p.read_text().splitlines() if "class=\"command\"" not in l
                       and "Made by" not in l]
    assert strip(tmp_path / "py.html") == strip(tmp_path / "ev.html")


def test_actuator_errors():
    with pytest.raises(fl.Error, match=r"--models: unknown model 'm9' \(m1 .. m6\)"):
        fl.fit_actuator(LOGS, models="m9")
    with pytest.raises(fl.Error, match="no log left after the selection"):
        fl.fit_actuator(LOGS, kp=[12345], trials=10)
    with pytest.raises(fl.Error, match="fit_actuator: unknown option 'trails'"):
        fl.fit_actuator(LOGS, trails=10)


def test_actuator_magnitude_limits(tmp_path):
    # a search range or a parameter beyond its plausible range is refused before any work
    # (docs/file-formats.md, "Magnitude limits")
    with pytest.raises(fl.Error, match=r"--range kt: \|1e\+300\| is beyond the limit"):
        fl.fit_actuator(LOGS, ranges={"kt": (1, 1e300)}, trials=10)
    params = json.loads((SERVO / "reference_params" / "m1.json").read_text())
    params["kt"] = 1e300
    (tmp_path / "m1.json").write_text(json.dumps(params))
    with pytest.raises(fl.Error, match=r"m1.json: parameter 'kt': \|1e\+300\| is beyond"):
        fl.eval_actuator(LOGS, tmp_path / "m1.json", kp=[200])


def test_actuator_descriptions_and_check_equal_the_cli(tmp_path):
    names = fl.builtin_actuator_names()
    assert "sts3215" in names and "xl330" in names
    assert json.loads(fl.actuator_json("sts3215"))["control"]["error_gain"]["value"] == 0.166
    (tmp_path / "servo.json").write_text(fl.actuator_json("xl330"))
    assert json.loads(fl.actuator_json(str(tmp_path / "servo.json")))["name"] == "xl330"
    chk = fl.check_actuator("xl330", LOGS, kp=[200], threads=1)
    assert chk.warnings == 0 and len(chk.logs) == 4
    assert chk.fitted_mae < chk.nominal_mae
    out = run_cli("actuator", "check", "xl330", LOGS, "--kp", "200", "--threads", "1", cwd=tmp_path)
    assert f"{chk.fitted_mae:.5f}" in out and "no inconsistency found in 4 log(s)" in out
    with pytest.raises(Exception, match="unknown actuator 'sts9999'"):
        fl.check_actuator("sts9999", LOGS)
