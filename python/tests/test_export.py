"""The estimator's export from Python (export_json, export_c, export_mujoco, export_xml,
export_estimator_params) against the CLI's `export` on the same fit.json: the same texts."""
import json

import pytest

import frictionlab as fl
from _cli import DFKI, demo_records, needs_cli, run_cli

pytestmark = needs_cli


@pytest.fixture(scope="module")
def fit_json(tmp_path_factory):
    d = demo_records(tmp_path_factory)
    return d / "fit.json"  # the demo's sensorless lugre fit


def test_export_json_c_mujoco_xml_equal_cli(fit_json, tmp_path):
    run_cli("export", "json", "--params", fit_json, "--output", "e.json", cwd=tmp_path)
    assert fl.export_json(fit_json).text == (tmp_path / "e.json").read_text()
    run_cli("export", "json", "--params", fit_json, "--km", "2.5", "--hold", "zoh", "--output",
            "k.json", cwd=tmp_path)
    assert fl.export_json(fit_json, Km=2.5, hold="zoh").text == (tmp_path / "k.json").read_text()
    assert fl.export_estimator_params(fit_json, Km=2.5, hold="zoh") == \
        json.loads((tmp_path / "k.json").read_text())
    run_cli("export", "c", "--params", fit_json, "--name", "est", "--precision", "double",
            "--out", "c", cwd=tmp_path)
    c = fl.export_c(fit_json, name="est", single_precision=False)
    assert (c.header_file, c.source_file) == ("est.h", "est.c")
    assert c.header == (tmp_path / "c" / "est.h").read_text()
    assert c.source == (tmp_path / "c" / "est.c").read_text()
    c.write(tmp_path / "pyc")
    assert (tmp_path / "pyc" / "est.c").read_text() == c.source
    run_cli("export", "mujoco", "--params", fit_json, "--joint", "j1", "--gear", "6",
            "--output", "m.xml", cwd=tmp_path)
    assert fl.export_mujoco(fit_json, joint="j1", gear=6.0).xml == (tmp_path / "m.xml").read_text()
    run_cli("export", "xml", "--params", fit_json, "--output", "g.xml", cwd=tmp_path)
    assert fl.export_xml(fit_json).text == (tmp_path / "g.xml").read_text()


def test_export_from_a_dict(fit_json):
    text = fit_json.read_text()
    a = fl.export_json(json.loads(text), label=str(fit_json)).text
    assert a == fl.export_json(fit_json).text
    model = json.loads(text)["model"]
    with pytest.raises(fl.Error, match="Km"):
        fl.export_json(model)  # a MODEL.json has no Km
    assert json.loads(fl.export_json(model, Km=2.0).text)["Km"] == 2.0


def test_export_errors(fit_json):
    with pytest.raises(fl.Error, match="C identifier"):
        fl.export_c(fit_json, name="1abc")
    with pytest.raises(fl.Error, match="hold must be linear or zoh, got 'x'"):
        fl.export_json(fit_json, hold="x")
    with pytest.raises(fl.Error, match="cannot open|No such file"):
        fl.export_json("/nonexistent/fit.json")


# ---- a joint fit shipped like a fit (docs/joint-identification.md, "Shipping a joint fit") ----

@pytest.mark.skipif(not DFKI.is_dir(), reason="no ../shared/data")
def test_joint_fit_export_equals_cli(tmp_path):
    """Every export of a fit-joint result from Python (the FitJointOutcome, and the
    joint_fit.json path) gives the CLI's texts; the lugre set is the joint's friction; the notes
    name the inertia, gravity and offset."""
    rec = DFKI / "sysid_data_measured.csv"
    run_cli("fit-joint", "--input", rec, "--time", "time", "--position", "position", "--torque",
            "torque", "--resample", "300", "--lowpass", "5", "--method", "sr3",
            "--viscous-powers", "1", "--delta", "1", "--no-plots", "--out", "jf", cwd=tmp_path)
    jf = tmp_path / "jf" / "joint_fit.json"
    joint = json.loads(jf.read_text())["joint"]
    r = fl.fit_joint(fl.Record.read(rec, time="time", position="position", force="torque"),
                     method="sr3", n_viscous=1, delta=[1.0], resample_rate=300.0,
                     lowpass_cutoff=5.0)
    fr = joint["friction"]["params"]
    run_cli("export", "json", "--params", jf, "--km", "0.5", "--output", "e.json", cwd=tmp_path)
    e = fl.export_json(jf, Km=0.5)
    assert e.text == (tmp_path / "e.json").read_text()
    assert [n.split(" ")[0] for n in e.notes] == ["inertia", "gravity", "torque"]
    assert e.notes[0].startswith(f"inertia I = {joint['I']!r} kg m^2")
    p = json.loads(e.text)["friction"]["params"]
    assert (p["sigma0"], p["sigma1"], p["Fc"]) == (fr["sigma0"], fr["sigma1"], fr["Fc"])
    # the FitJointOutcome exports the same friction (the text differs only in the source label)
    eo = fl.export_json(r, Km=0.5)
    assert json.loads(eo.text)["friction"] == json.loads(e.text)["friction"]
    assert json.loads(eo.text)["source"] == "joint_fit.json"
    run_cli("export", "c", "--params", jf, "--km", "0.5", "--name", "pend", "--out", "c",
            cwd=tmp_path)
    c = fl.export_c(jf, Km=0.5, name="pend")
    assert c.header == (tmp_path / "c" / "pend.h").read_text()
    assert c.source == (tmp_path / "c" / "pend.c").read_text()
    assert c.notes == e.notes
    run_cli("export", "mujoco", "--params", jf, "--joint", "pend", "--output", "m.xml",
            cwd=tmp_path)
    m = fl.export_mujoco(jf, joint="pend")
    assert m.xml == (tmp_path / "m.xml").read_text()
    assert m.notes[0].startswith("inertia I = ") and "no armature is written" in m.notes[0]
    run_cli("export", "xml", "--params", jf, "--km", "0.5", "--output", "g.xml", cwd=tmp_path)
    x = fl.export_xml(jf, Km=0.5)
    assert x.text == (tmp_path / "g.xml").read_text()
    assert len(x.notes) == 3
    with pytest.raises(fl.Error, match="the LUGRE group needs Km"):
        fl.export_xml(jf)
