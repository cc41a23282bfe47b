"""frictionlab.fit against the CLI's `fit` on the demo's sensorless record: the same fit.json
and model.json bit for bit (but the wall time), from a file, from arrays and from a DataFrame;
the result's attributes are fit.json's numbers; options and errors."""
import json
import math
import pathlib

import numpy as np
import pandas as pd
import pytest

import frictionlab as fl
from _cli import SENSORLESS, SENSORLESS_ARGS, in_dir, needs_cli, run_cli, same_json

pytestmark = needs_cli


@pytest.fixture(scope="module")
def cli_fit(demo):
    run_cli("fit", "--input", "sensorless_train.csv", "--validate", "sensorless_validation.csv",
            *SENSORLESS_ARGS, "--starts", "2", "--out", "cli", "--no-plots", cwd=demo)
    return (demo / "cli" / "fit.json").read_text(), (demo / "cli" / "model.json").read_text()


@pytest.fixture(scope="module")
def py_fit(demo, cli_fit):
    with in_dir(demo):
        return fl.fit("sensorless_train.csv", ["sensorless_validation.csv"], starts=2, **SENSORLESS)


def test_fit_json_equals_cli(cli_fit, py_fit):
    fit_json, model_json = cli_fit
    same_json(fit_json, py_fit.to_json())
    assert py_fit.model_json() == model_json
    assert json.loads(py_fit.model.to_json()) == json.loads(model_json)
    assert isinstance(py_fit.model, fl.LuGreParams)


def test_attributes_are_fit_json_numbers(cli_fit, py_fit):
    j = json.loads(cli_fit[0])
    r = py_fit.result
    assert [p.name for p in py_fit.parameters] == [p["name"] for p in j["parameters"]]
    for p, q in zip(py_fit.parameters, j["parameters"]):
        assert p.value == q["value"] and p.unit == q["unit"] and p.fixed == q["fixed"]
        if q["std_error"] is None:
            assert math.isnan(p.std_error)
        else:
            assert p.std_error == q["std_error"]
            assert [p.ci_low, p.ci_high] == q["ci95"]
    assert py_fit.aicc == j["aicc"] and py_fit.bic == j["bic"]
    assert r.training.rmse == j["training"]["rmse"]
    assert [v.name for v in py_fit.validation] == ["sensorless_validation.csv"]
    assert py_fit.validation[0].metrics.rmse == j["validation"][0]["metrics"]["rmse"]
    assert r.Km == j["Km"] and r.problem == "sensorless" and r.method == "lsq"
    c = py_fit.correlation
    assert c.shape == (len(j["parameters"]),) * 2
    np.testing.assert_array_equal(np.nan_to_num(c, nan=7.0),
                                  np.nan_to_num(np.array(j["correlation"], dtype=float), nan=7.0))
    assert isinstance(r.reliability.standard_errors, bool)
    # the series: prediction + residual = measured torque of the prepared record (views)
    np.testing.assert_allclose(py_fit.prediction + py_fit.residual, py_fit.training.force,
                               rtol=0, atol=1e-12)
    assert np.shares_memory(py_fit.prediction, py_fit.prediction)
    assert not py_fit.prediction.flags.writeable


def test_from_arrays_and_dataframe_give_the_same_fit(demo, py_fit):
    df = pd.read_csv(demo / "sensorless_train.csv", float_precision="round_trip")
    val = fl.Record.read(demo / "sensorless_validation.csv", current="current",
                         velocity="velocity", force="torque")
    rec = fl.Record(df["t"].to_numpy(), velocity=df["velocity"].to_numpy(),
                    force=df["torque"].to_numpy(), current=df["current"].to_numpy(),
                    source="sensorless_train.csv")
    np.testing.assert_array_equal(rec.t, fl.Record.read(demo / "sensorless_train.csv").t)
    a = fl.fit(rec, val, starts=2, problem="sensorless")
    b = fl.fit(df, val, starts=2, **SENSORLESS)
    ref = json.loads(py_fit.to_json())
    for f in (a, b):
        j = json.loads(f.to_json())
        assert [p["value"] for p in j["parameters"]] == [p["value"] for p in ref["parameters"]]
        assert j["training"] == ref["training"] and j["aicc"] == ref["aicc"]
    assert a.input == "sensorless_train.csv" and b.input == "training"


def test_write_gives_the_cli_files(tmp_path, cli_fit, py_fit):
    files = py_fit.write(tmp_path / "out", plots=False)
    assert [p.split("/")[-1] for p in files] == ["fit.json", "model.json"]
    same_json(cli_fit[0], (tmp_path / "out" / "fit.json").read_text())


def test_options_and_errors(demo):
    rec = fl.Record.read(demo / "sensorless_train.csv", current="current", velocity="velocity",
                         force="torque")
    with pytest.raises(fl.Error, match="fit: unknown option 'start'"):
        fl.fit(rec, start=2)
    with pytest.raises(fl.Error, match=r"option 'starts': expected an int, got str"):
        fl.fit(rec, starts="2")
    # an int outside the option's C++ type names the range, not "expected an int, got int"
    with pytest.raises(fl.Error, match=r"option 'seed': must be an integer between 0 and "
                                       r"4294967295, got -1$"):
        fl.fit(rec, seed=-1)
    with pytest.raises(fl.Error, match=r"option 'starts': must be an integer between "
                                       r"-2147483648 and 2147483647, got 1000000000000$"):
        fl.fit(rec, starts=10**12)
    with pytest.raises(fl.Error, match="problem must be friction or sensorless, got 'x'"):
        fl.fit(rec, problem="x")
    with pytest.raises(fl.Error, match="lugre-asym"):  # the library lists the model names
        fl.fit(rec, model="lugree")
    short = fl.Record(rec.t[:5], velocity=rec.velocity[:5], force=rec.force[:5])
    with pytest.raises(fl.Error, match="training: .*5 samples|5 samples"):
        fl.fit(short)
    with pytest.raises(fl.Error, match="no column 'v'"):
        fl.fit(demo / "sensorless_train.csv", velocity="v")


def test_progress_callback_and_tqdm(demo, capsys):
    rec = fl.Record.read(demo / "sensorless_train.csv", current="current", velocity="velocity",
                         force="torque")
    seen = []
    fl.fit(rec, problem="sensorless", starts=1, progress=lambda m, f: seen.append((m, f)))
    assert seen and all(isinstance(m, str) and isinstance(f, float) for m, f in seen)
    assert any("lsq start 1/1" in m for m, _ in seen)
    fl.fit(rec, problem="sensorless", starts=1, progress=True)
    assert "fit done" in capsys.readouterr().err
    with pytest.raises(fl.Error, match="progress: expected None, True or a callable"):
        fl.fit(rec, progress=3)


def test_covariance_of_a_linear_model_is_the_least_squares_covariance():
    """coulomb-viscous is linear in (Fc, sigma2): its covariance is s^2 (X^T X)^-1 of the ordinary
    least-squares problem F = Fc sign(v) + sigma2 v, computed here with NumPy (independent of Ceres
    and of the log parameterisation, whose delta-method map is exact for this model)."""
    rng = np.random.default_rng(7)
    t = np.arange(4000) * 1e-3
    v = 0.2 * np.sin(2 * np.pi * 0.7 * t) + 0.05 * np.sin(2 * np.pi * 3.1 * t)
    F = 0.3 * np.sign(v) + 0.8 * v + 0.02 * rng.standard_normal(t.size)
    f = fl.fit(fl.Record(t, velocity=v, force=F, source="linear"), model="coulomb-viscous",
               problem="friction")
    names = [p.name for p in f.parameters]
    X = np.column_stack([np.sign(v), v])
    beta, ssr, *_ = np.linalg.lstsq(X, F, rcond=None)
    s2 = ssr[0] / (t.size - 2)
    ols = s2 * np.linalg.inv(X.T @ X)
    i, j = names.index("Fc"), names.index("sigma2")
    C = f.covariance
    np.testing.assert_allclose([f.parameters[i].value, f.parameters[j].value], beta, rtol=1e-6)
    np.testing.assert_allclose(C[np.ix_([i, j], [i, j])], ols, rtol=1e-4)
    np.testing.assert_allclose(np.sqrt(np.diag(C)[[i, j]]),
                               [f.parameters[i].std_error, f.parameters[j].std_error], rtol=1e-12)
    np.testing.assert_array_equal(C, C.T)


def test_report_is_the_clis_page_and_the_notebook_summary(cli_fit, py_fit, tmp_path, demo):
    """report() writes the page `fit --report` writes (the same io::report_html of the same
    fit.json; only the header line naming the generator and command differs); _repr_html_ is the
    summary a notebook shows; identifiability lists the flags of fit.json."""
    path = py_fit.report(tmp_path / "r.html", title="t")
    text = pathlib.Path(path).read_text()
    assert text.startswith("<!DOCTYPE html>") and "<title>t</title>" in text
    assert 'class="parameters"' in text and 'data-plot="time"' in text
    j = json.loads(py_fit.to_json())
    for p in j["parameters"]:
        if p["value"] is not None:
            assert f'data-name="{p["name"]}"' in text
    assert py_fit.report_html(title="t") == text
    s = py_fit._repr_html_()
    assert 'class="parameters"' in s and "<script" not in s and "Verdict" in s
    assert [f.kind for f in py_fit.result.identifiability] == [f["kind"] for f in j["identifiability"]]
    assert json.loads(cli_fit[0])["identifiability"] == j["identifiability"]
    with pytest.raises(fl.Error, match="cannot write"):
        py_fit.report(tmp_path / "missing" / "r.html")
    # not a path: named, not dereferenced (path_argument)
    with pytest.raises(fl.Error, match=r"path: expected a path \(str or os.PathLike\), got int"):
        py_fit.report(3)
    with pytest.raises(fl.Error, match="dir: expected a path"):
        py_fit.write(None)
    assert not (tmp_path / "missing").exists()


def test_compare_report_has_the_ranking_and_every_model(demo, tmp_path):
    with in_dir(demo):
        c = fl.compare("sensorless_train.csv", models="coulomb-viscous,lugre", starts=1,
                       **SENSORLESS)
    text = pathlib.Path(c.report(tmp_path / "c.html")).read_text()
    assert text.count('<section class="fit"') == 2 and 'class="ranking"' in text
    assert f'class="recommendation" data-model="{c.rows[0].model}"' in text
    # the comparison's verdict at the top of its section, and in compare.json
    assert c.verdict.grade in ("good", "doubtful", "bad")
    assert json.loads(c.to_json())["verdict"]["line"] == c.verdict.line()
    assert f'<div class="verdict' in text and f'data-grade="{c.verdict.grade}"' in text


def test_verdict_of_a_fit_in_python_json_and_the_cli(cli_fit, py_fit, demo):
    # the demo's sensorless LuGre fit explains its validation record (e = 0.0085): good
    v = py_fit.verdict
    assert v.grade == "good" and v.line() == "good" and str(v) == "good"
    assert [r.rule for r in v.reasons] == []
    j = json.loads(cli_fit[0])
    assert j["verdict"] == {"grade": "good", "line": "good", "reasons": []}
    # a Stribeck curve on the friction of a joint whose torque is mostly gravity and inertia:
    # the model explains little of it
    t = np.arange(3000) / 300
    v = np.cos(2 * np.pi * 0.5 * t)
    tau = 3 * np.sin(np.pi * t) + 0.2 * np.sign(v) + 0.05 * v
    bad = fl.fit(fl.Record(t, velocity=v, force=tau, source="gravity.csv"), model="coulomb-viscous")
    assert bad.verdict.grade == "bad"
    assert [(r.rule, r.grade) for r in bad.verdict.reasons][:1] == [("error", "bad")]
    assert bad.verdict.reasons[0].text.startswith("the model explains little of the force on the "
                                                  "training record: RMSE / RMS = ")
    assert "validation" in [r.rule for r in bad.verdict.reasons]  # the note: no validation record
    assert json.loads(bad.to_json())["verdict"]["line"] == bad.verdict.line()
    out = run_cli("fit", "--input", "sensorless_train.csv", *SENSORLESS_ARGS, "--starts", "1",
                  "--out", "cli_verdict", "--no-plots", cwd=demo)
    assert "\n  verdict: good\n  note: no validation record: the error is the training error, which " \
           "the fit minimised (--validate RECORD)\n" in out
    # reference 000's names with the field export json uses, in the console and the report; the
    # sensorless channel is a torque on the plots
    assert "  Kw (sigma2) " in out and "  S0 (sigma0) " in out
    page = py_fit.report_html()
    assert '<td class="name">Kw <span class="field">(= sigma2)</span></td>' in page
    assert '<td class="name">Km</td>' in page  # its own field: nothing to map
    assert '"label":"torque [N m]"' in page and '"label":"force [' not in page
    assert "<th scope=\"row\">torque range</th>" in page


def _friction_record(t, source):
    k = np.arange(len(t))
    v = 0.1 * np.sin(np.pi * k / 100)
    f = 0.3 * np.sign(v) + 0.4 * v + 0.01 * np.sin(7.3 * k)
    return fl.Record(np.asarray(t, dtype=float), velocity=v, force=f, source=source)


def test_resample_rate_refuses_a_gap_unless_allowed():
    # 1000 samples at 100 Hz with a 1000 s pause between samples 500 and 501 (1-based)
    k = np.arange(1000)
    rec = _friction_record(np.round(k / 100 + np.where(k >= 500, 1000 - 0.01, 0), 2), "gap.csv")
    with pytest.raises(fl.Error, match=r"gap.csv: sample 501: resampling: a gap of 1000 s from "
                                       r"t = 4.99 s to t = 1004.99 s is longer than 10 times the "
                                       r"median step 0.01 s.*split the record at the gap"):
        fl.fit(rec, model="coulomb-viscous", resample_rate=100.0)
    f = fl.fit(rec, model="coulomb-viscous", resample_rate=100.0, resample_max_gap=2000.0)
    j = json.loads(f.to_json())
    assert j["data"]["dt_max_s"] == pytest.approx(1000)  # the record's gap, not the grid's step
    assert any(w.startswith("gap.csv: the sample step varies") for w in f.warnings)
    assert j["warnings"] == list(f.warnings)


def test_warnings_of_the_records_are_in_the_outcome_and_its_json():
    ms = _friction_record(10.0 * np.arange(1000), "ms.csv")  # 10 s at 100 Hz, in milliseconds
    f = fl.fit(ms, [ms], model="coulomb-viscous")
    assert any(w.startswith("ms.csv: the time column looks like milliseconds") for w in f.warnings)
    assert json.loads(f.to_json())["warnings"] == list(f.warnings)
    # a validation record that is the training record: the verdict's note, not a warning
    same = ("validation record ms.csv is the training record ms.csv (the same file): its "
            "metrics measure the fit on its own data, not a validation")
    assert not any("is the training record" in w for w in f.warnings)
    notes = [(r.grade, r.rule, r.text, r.hint) for r in f.verdict.reasons]
    assert ("good", "validation", same, "--validate a record the fit has not seen") in notes
    assert f.validation[0].same_as_training == "the same file"


def test_tqdm_progress_has_a_bar_only_with_fractions():
    """progress=True's line: no bar while the workflow cannot say how far it is (fraction < 0,
    as fit and fit_actuator report), so no bar stuck at 0 %; a bar from the first fraction on;
    messages cut to one width instead of growing the line."""
    import io

    from frictionlab._progress import MESSAGE_WIDTH, TqdmProgress

    out = io.StringIO()
    p = TqdmProgress(file=out, mininterval=0)
    p("lsq start 1/3: " + "x" * 200, -1.0)
    p("lsq start 2/3", -1.0)
    unknown = out.getvalue()
    assert "%" not in unknown and "lsq start 2/3" in unknown
    assert "x" * (MESSAGE_WIDTH + 1) not in unknown and "..." in unknown
    p("scan", 0.5)
    p.close()
    assert "50%" in out.getvalue()


def test_hold_zoh_fits_a_held_record_and_the_reasons_name_it():
    # examples/data/sine_velocity_1khz.csv (1 Hz, 5 mm/s, 1 kHz) driving the default LuGre
    # set with its velocity held between samples: hold='zoh' recovers the set, the default
    # linear hold is biased and its reliability reasons say to try hold='zoh'.
    t = np.arange(2001) / 1000.0
    v = 0.005 * np.sin(2 * np.pi * t)
    with pytest.warns(UserWarning, match="not passive"):  # the set of Canudas de Wit et al.
        truth = fl.LuGreParams()
    rec = fl.Record(t, velocity=v, force=fl.simulate(truth, t, v, hold="zoh").F, source="held")

    def sigma1(outcome):
        return next(p.value for p in outcome.parameters if p.name == "sigma1")

    held = fl.fit(rec, hold="zoh")
    assert held.result.hold == "zoh"
    assert json.loads(held.to_json())["hold"] == "zoh"
    assert sigma1(held) == pytest.approx(truth.sigma1, rel=1e-4)
    assert not any("--hold" in r for r in held.result.reliability.reasons)
    linear = fl.fit(rec)
    assert linear.result.hold == "linear"
    assert abs(sigma1(linear) / truth.sigma1 - 1) > 0.1
    assert any("--hold zoh (Python hold='zoh')" in r for r in linear.result.reliability.reasons)
    with pytest.raises(fl.Error, match="hold"):
        fl.fit(rec, hold="cubic")
