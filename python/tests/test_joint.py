"""frictionlab.fit_joint / eval_joint against the CLI's `fit-joint` / `eval-joint` on the DFKI
pendulum (../shared/data/pendulum_dfki): joint_fit.json and joint_eval.json bit for bit (but the
wall times)."""
import json
import subprocess

import pytest

import frictionlab as fl
from _cli import CLI, DFKI, SOURCE, needs_cli, run_cli, same_json

pytestmark = [needs_cli, pytest.mark.skipif(not DFKI.is_dir(), reason="no ../shared/data")]
REC = DFKI / "sysid_data_measured.csv"
CLI_ARGS = ["--input", REC, "--time", "time", "--position", "position", "--torque", "torque",
            "--resample", "300", "--no-plots"]


@pytest.fixture(scope="module")
def record():
    return fl.Record.read(REC, time="time", position="position", force="torque")


def test_fit_joint_idim_equals_cli(tmp_path, record):
    run_cli("fit-joint", *CLI_ARGS, "--method", "idim", "--out", "cli", cwd=tmp_path)
    r = fl.fit_joint(record, method="idim", resample_rate=300.0)
    cli_text = (tmp_path / "cli" / "joint_fit.json").read_text()
    # the input's name: the CLI's is the path it was given, the Record's source is the same
    same_json(cli_text, r.to_json())
    j = json.loads(cli_text)
    assert r.model == j["joint"] and r.method == "idim"
    assert [p.value for p in r.parameters] == [p["value"] for p in j["parameters"]]
    assert r.training.torque.rel == j["training"]["torque"]["rel"]
    assert len(r.training_data) == len(r.training.tau_pred)
    rel = j["reliability"]
    assert r.reliability.standard_errors == rel["standard_errors_reliable"]
    assert r.reliability.reasons == rel["reasons"] and r.reliability.hac_lags == rel["hac_lags"]
    # the report: the page fit-joint --report writes, a section with every parameter and a time
    # plot per record (the CLI's joint_fit.json report data, equal above)
    page = (tmp_path / "j.html")
    assert r.report(page) == str(page)
    text = page.read_text()
    assert text.count('<section class="fit joint"') == 1 and text.count('class="timeplot"') == 1
    for p in j["parameters"]:
        assert f'data-name="{p["name"]}"' in text


def test_fit_joint_oe_equals_cli(tmp_path, record):
    """oe runs Ceres on all cores, whose multi-threaded sums are not reproducible to the last
    bit from run to run (the CLI's own runs differ in the same way under load, by up to a few
    1e-6 relative after 3 iterations): the same structure, the parameters to 1e-4."""
    run_cli("fit-joint", *CLI_ARGS, "--method", "oe", "--init", "idim", "--iterations", "3",
            "--out", "cli", cwd=tmp_path)
    r = fl.fit_joint(record, method="oe", init="idim", max_iterations=3, resample_rate=300.0)
    j = json.loads((tmp_path / "cli" / "joint_fit.json").read_text())
    p = json.loads(r.to_json())
    assert list(p) == list(j) and p["method_details"].keys() == j["method_details"].keys()
    assert [q["name"] for q in p["parameters"]] == [q["name"] for q in j["parameters"]]
    for a, b in zip(p["parameters"], j["parameters"]):
        assert a["value"] == pytest.approx(b["value"], rel=1e-4, abs=1e-12)
    assert p["method_details"]["oe"]["iterations"] == j["method_details"]["oe"]["iterations"]
    rel = p["method_details"]["oe"]["reliability"]
    assert rel.keys() == j["method_details"]["oe"]["reliability"].keys()
    assert rel["ljung_box_p"] < 0.01 and not rel["standard_errors_reliable"]
    # the reported parameters' reliability: oe's if its result is kept, else the idim start's
    kept = p["method_details"]["oe"]["kept_start"]
    assert r.reliability is not None and \
        r.reliability.reasons == (p["reliability"]["reasons"] if kept else rel["reasons"])


def test_fit_joint_oe_jacobian_option_equals_cli(tmp_path, record):
    """`jacobian=` is the CLI's --oe-jacobian: oe from sr3 (LuGre friction, where the Jacobian by
    forward sensitivities is the default) with each choice gives the CLI's parameters; the two
    Jacobians take the same first steps (parameters within 1e-3 after 2 iterations)."""
    values = {}
    for jac in ("sensitivities", "central_differences"):
        out = f"cli_{jac}"
        run_cli("fit-joint", *CLI_ARGS, "--method", "oe", "--init", "sr3", "--iterations", "2",
                "--oe-jacobian", jac, "--out", out, cwd=tmp_path)
        r = fl.fit_joint(record, method="oe", init="sr3", max_iterations=2, jacobian=jac,
                         resample_rate=300.0)
        j = json.loads((tmp_path / out / "joint_fit.json").read_text())
        p = json.loads(r.to_json())
        for a, b in zip(p["parameters"], j["parameters"]):
            assert a["value"] == pytest.approx(b["value"], rel=1e-4, abs=1e-12), (jac, a["name"])
        values[jac] = [q["value"] for q in p["method_details"]["oe"]["parameters"]] \
            if "parameters" in p["method_details"]["oe"] else [q["value"] for q in p["parameters"]]
    assert values["sensitivities"] == pytest.approx(values["central_differences"], rel=1e-3, abs=1e-9)
    with pytest.raises(fl.Error, match="jacobian"):
        fl.fit_joint(record, method="oe", init="sr3", jacobian="forward", resample_rate=300.0)


def test_eval_joint_equals_cli(tmp_path, record):
    run_cli("fit-joint", *CLI_ARGS, "--method", "idim", "--out", "fit", cwd=tmp_path)
    joint = tmp_path / "fit" / "joint_fit.json"
    run_cli("eval-joint", "--joint", joint, "--input", REC, "--time", "time", "--position",
            "position", "--torque", "torque", "--resample", "300", "--no-plots", "--out", "ev",
            cwd=tmp_path)
    e = fl.eval_joint(str(joint), [record], resample_rate=300.0)
    same_json((tmp_path / "ev" / "joint_eval.json").read_text(), e.to_json())
    # .warnings is joint_eval.json's; the record's uneven steps (up to 12 %) are what the
    # resampling removes: not warned about (a step longer than resampling bridges is:
    # tests/test_workflow_joint.cpp)
    assert json.loads(e.to_json())["warnings"] == list(e.warnings)
    assert not any("the sample step varies" in w for w in e.warnings), e.warnings
    text = (tmp_path / "e.html").read_text() if e.report(tmp_path / "e.html") else ""
    assert text.count('<section class="fit joint-eval"') == 1 and text.count('class="timeplot"') == 1
    # the model as a dict and as the fit's result give the same errors
    r = fl.fit_joint(record, resample_rate=300.0)
    e2 = fl.eval_joint(r, record, resample_rate=300.0)
    e3 = fl.eval_joint(r.model, record, resample_rate=300.0)
    assert e2.evaluations[0].torque.rel == e3.evaluations[0].torque.rel == \
        e.evaluations[0].torque.rel


def test_fit_joint_errors(record):
    with pytest.raises(fl.Error, match="uniform sampling"):
        fl.fit_joint(record)  # the record is not uniformly sampled: the library says resample
    with pytest.raises(fl.Error, match="oe"):
        fl.fit_joint(record, method="oe", resample_rate=300.0)  # no start
    with pytest.raises(fl.Error, match="diff must be savgol, central or tvreg, got 'x'"):
        fl.fit_joint(record, diff="x")


def test_a_velocity_column_needs_derivatives_velocity():
    """A velocity column without derivatives='velocity' would be ignored (qd, qdd from the
    position): refused as the CLI refuses --velocity without --use-velocity, before reading."""
    msg = ("velocity='velocity' is read only with derivatives='velocity' (qd = the measured "
           "velocity, qdd its derivative); without it qd and qdd come from the position: add "
           "derivatives='velocity', or drop velocity")
    args = dict(time="time", position="position", force="torque", velocity="velocity",
                resample_rate=300.0)
    with pytest.raises(fl.Error) as e:
        fl.fit_joint(REC, method="idim", **args)
    assert str(e.value) == msg
    with pytest.raises(fl.Error) as e:
        fl.eval_joint(SOURCE / "examples/data/dfki_published_joint.json", REC, **args)
    assert str(e.value) == msg
    fit = fl.fit_joint(REC, method="idim", derivatives="velocity", lowpass_cutoff=5.0, **args)
    assert fit.training.torque.rel < 1  # read: qd is the measured velocity


def test_the_documented_idim_fit_gets_its_low_pass_and_a_verdict(tmp_path, record):
    """The DFKI record at 300 Hz without lowpass_cutoff: the low-pass is chosen (5 Hz, the
    owners' cutoff) and the fit is the one with lowpass_cutoff=5 (inertia 0.165 kg m^2, not the
    0.0032 of an unfiltered acceleration); with lowpass_cutoff=0 the verdict says bad and
    names the torque rule and --lowpass."""
    chosen = fl.fit_joint(record, method="idim", resample_rate=300.0)
    given = fl.fit_joint(record, method="idim", resample_rate=300.0, lowpass_cutoff=5.0)
    assert chosen.lowpass.cutoff_hz == 5.0 and chosen.lowpass.noise_dominated
    assert given.lowpass is None
    assert [p.value for p in chosen.parameters] == [p.value for p in given.parameters]
    assert chosen.verdict.grade == "good" and str(chosen.verdict) == "good"
    # idim holds Fv (-0.00158 N m s/rad) at its bound 0: a note of the verdict, not a warning
    assert [r.rule for r in chosen.verdict.reasons] == ["bound", "lowpass"]
    held = chosen.verdict.reasons[0]
    assert held.grade == "good" and held.text.startswith("idim: Fv = -0.00158")
    assert held.text.endswith("held at its bound 0 and the others solved again")
    assert not any("held at its bound" in w for w in chosen.warnings)
    none = fl.fit_joint(record, method="idim", resample_rate=300.0, lowpass_cutoff=0.0)
    inertia = {p.name: p.value for p in none.parameters}["I"]
    assert inertia < 0.01 and none.lowpass is None
    assert none.verdict.grade == "bad" and none.verdict.reasons[0].rule == "torque"
    assert "--lowpass" in none.verdict.line()
    j = json.loads(none.to_json())
    assert j["verdict"]["grade"] == "bad" and j["verdict"]["line"] == none.verdict.line()
    assert none.verdict.to_dict() == j["verdict"]  # the result file's object
    assert json.loads(chosen.to_json())["lowpass"]["cutoff_hz"] == 5.0
    # the CLI prints the same verdict line
    out = run_cli("fit-joint", *CLI_ARGS, "--method", "idim", "--lowpass", "0", "--out", "c",
                  cwd=tmp_path)
    assert f"verdict: {none.verdict.line()}" in out


def test_mujoco_replay_joint_equals_the_cli_line(tmp_path, record):
    """mujoco_replay_joint and `eval-joint --mujoco` run the same replay: the CLI's line is the
    summary; on the DFKI records a joint fit's exported joint form and frictionlab's friction
    inside MuJoCo follow the records as frictionlab's own simulation does."""
    r = fl.fit_joint(record, method="idim", resample_rate=300.0, lowpass_cutoff=5.0)
    try:
        m = fl.mujoco_replay_joint(r, [record], resample_rate=300.0, lowpass_cutoff=5.0,
                                   horizon_s=1.0)
    except RuntimeError as e:
        assert "built without MuJoCo" in str(e)
        pytest.skip("a build without MuJoCo")
    assert m["horizon_s"] == 1.0 and m["max_step"] == 1e-3 and len(m["records"]) == 1
    assert abs(m["exported"] / m["own"] - 1) < 0.05 and abs(m["inside"] / m["own"] - 1) < 0.02
    joint = tmp_path / "joint.json"
    joint.write_text(json.dumps({"joint": r.model}))
    p = subprocess.run([CLI, "eval-joint", "--joint", str(joint), "--input", str(REC), "--time",
                        "time", "--position", "position", "--torque", "torque", "--resample",
                        "300", "--lowpass", "5", "--horizon", "1", "--mujoco", "--no-plots",
                        "--out", "ev"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0 and "frictionlab: " + m["summary"] + "\n" in p.stderr, p.stderr
    with pytest.raises(ValueError, match="unknown option"):
        fl.mujoco_replay_joint(r, [record], horizon=1.0)


def test_mujoco_replay_joint_runs_a_load_dependence_inside_mujoco(tmp_path):
    """A load-dependent LuGre joint (examples/data/joint_lugre_pendulum.json with the load of
    joint_lugre_load.py, mu = 0.15) replayed on its record: frictionlab's friction inside MuJoCo
    carries the load and stays near frictionlab's own simulation; the exported joint form,
    load-free, cannot follow the record (docs/mujoco.md, "Load and temperature inside MuJoCo")."""
    data = SOURCE / "examples" / "data"
    joint = json.loads((data / "joint_lugre_pendulum.json").read_text())["joint"]
    joint["load"] = {"mu_drive": 0.15, "mu_back": 0.15}
    record = fl.Record.read(data / "joint_lugre_load.csv", time="t", position="q", force="tau")
    try:
        m = fl.mujoco_replay_joint({"joint": joint}, [record])
    except RuntimeError as e:
        assert "built without MuJoCo" in str(e)
        pytest.skip("a build without MuJoCo")
    assert "without the load dependence" in m["summary"]
    assert m["inside"] < 0.005 and m["exported"] > 50 * m["inside"], m["summary"]


def test_fit_joint_load_dependent_equals_cli(tmp_path, record):
    """load_dependent=True is the CLI's --load-dependent: the same joint_fit.json, with the
    joint's "load" and mu reported (on the DFKI record the data push mu below 0, so it is held
    at its bound and the load-free fit results: a bound flag in the verdict)."""
    run_cli("fit-joint", *CLI_ARGS, "--method", "idim", "--load-dependent", "--out", "cli",
            cwd=tmp_path)
    r = fl.fit_joint(record, method="idim", load_dependent=True, resample_rate=300.0)
    cli_text = (tmp_path / "cli" / "joint_fit.json").read_text()
    same_json(cli_text, r.to_json())
    j = json.loads(cli_text)
    assert r.model["load"] == {"mu_drive": 0.0, "mu_back": 0.0} == j["joint"]["load"]
    mu = [p for p in r.parameters if p.name == "mu"][0]
    assert mu.value == 0.0 and mu.at_bound
    assert any(x["rule"] == "bound" and "mu = " in x["text"] for x in j["verdict"]["reasons"])
    with pytest.raises(ValueError, match="load_dependent"):
        fl.fit_joint(record, method="sr3", load_dependent=True)


def test_fit_joint_temperature_equals_cli(tmp_path):
    """temperature_law="linear" with a record's temperature is the CLI's --temperature-law: the
    same joint_fit.json (examples/data/joint_warming.csv, the documented warming joint), kT and
    kT_v near the generator's truth, and eval_joint needs the record's temperature."""
    csv = SOURCE / "examples" / "data" / "joint_warming.csv"
    args = ["--input", csv, "--time", "t", "--position", "q", "--torque", "tau", "--no-plots"]
    run_cli("fit-joint", *args, "--temperature", "temp", "--temperature-law", "linear",
            "--temperature-ref", "35", "--out", "cli", cwd=tmp_path)
    warm = fl.Record.read(csv, time="t", position="q", force="tau", temperature="temp")
    assert warm.temperature[0] == 25.0 and warm.temperature[-1] == 45.0
    r = fl.fit_joint(warm, method="idim", temperature_law="linear", temperature_ref=35.0)
    same_json((tmp_path / "cli" / "joint_fit.json").read_text(), r.to_json())
    p = {q.name: q for q in r.parameters}
    assert p["kT"].ci_low < -0.012 < p["kT"].ci_high and p["kT"].unit == "1/K"
    assert p["kT_v"].ci_low < -0.02 < p["kT_v"].ci_high
    assert r.model["temperature"] == {"law": "linear", "T_ref": 35.0, "kT": p["kT"].value,
                                      "kT_v": p["kT_v"].value}
    assert fl.eval_joint(r, warm).evaluations[0].torque.rel == r.training.torque.rel
    cold = fl.Record.read(csv, time="t", position="q", force="tau")
    with pytest.raises(fl.Error, match="temperature"):
        fl.eval_joint(r, cold)
    with pytest.raises(ValueError, match="temperature_law.*--init sr3"):
        fl.fit_joint(warm, method="sr3", temperature_law="linear")
    oe = fl.fit_joint(warm, method="oe", init="idim", temperature_law="linear",
                      temperature_ref=35.0, segment_s=0.0, max_step=2e-4)
    q = {x.name: x for x in oe.parameters}
    assert not q["kT"].fixed and abs(q["kT"].value + 0.012) < 0.02 * 0.012
    assert oe.model["temperature"]["kT"] == q["kT"].value
    with pytest.raises(ValueError, match="temperature_law"):
        fl.fit_joint(warm, method="idim", temperature_law="quadratic")


def test_fit_joint_lugre_temperature_equals_cli(tmp_path):
    """oe with temperature_law from a joint LuGre JOINT.json is the CLI's `--method oe --init
    FILE --temperature-law` (examples/data/joint_lugre_warming.csv, the documented warming LuGre
    joint): the same joint_fit.json, kT and kT_v near the generator's truth, and a start without
    a law keeps its friction model."""
    data = SOURCE / "examples" / "data"
    csv, start = data / "joint_lugre_warming.csv", data / "joint_lugre_pendulum.json"
    run_cli("fit-joint", "--input", csv, "--time", "t", "--position", "q", "--torque", "tau",
            "--no-plots", "--method", "oe", "--init", start, "--temperature", "temp",
            "--temperature-law", "linear", "--out", "cli", cwd=tmp_path)
    warm = fl.Record.read(csv, time="t", position="q", force="tau", temperature="temp")
    r = fl.fit_joint(warm, method="oe", init=str(start), temperature_law="linear")
    same_json((tmp_path / "cli" / "joint_fit.json").read_text(), r.to_json())
    p = {q.name: q for q in r.parameters}
    assert abs(p["kT"].value + 0.012) < 0.01 * 0.012
    assert abs(p["kT_v"].value + 0.02) < 0.01 * 0.02
    assert r.model["friction"]["model"] == "joint-lugre"
    assert r.model["temperature"]["kT"] == p["kT"].value


def test_fit_joint_lugre_load_equals_cli(tmp_path):
    """oe with load_dependent=True from a joint LuGre JOINT.json is the CLI's `--method oe --init
    FILE --load-dependent` (examples/data/joint_lugre_load.csv, documented): the same
    joint_fit.json and mu near the generator's 0.15."""
    data = SOURCE / "examples" / "data"
    csv, start = data / "joint_lugre_load.csv", data / "joint_lugre_pendulum.json"
    run_cli("fit-joint", "--input", csv, "--time", "t", "--position", "q", "--torque", "tau",
            "--no-plots", "--method", "oe", "--init", start, "--load-dependent", "--out", "cli",
            cwd=tmp_path)
    rec = fl.Record.read(csv, time="t", position="q", force="tau")
    r = fl.fit_joint(rec, method="oe", init=str(start), load_dependent=True)
    same_json((tmp_path / "cli" / "joint_fit.json").read_text(), r.to_json())
    mu = [q for q in r.parameters if q.name == "mu"][0]
    assert abs(mu.value - 0.15) < 0.01 * 0.15 and mu.ci_low < 0.15 < mu.ci_high
    assert r.model["load"] == {"mu_drive": mu.value, "mu_back": mu.value}
