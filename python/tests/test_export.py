"""The estimator's export from Python (export_json, export_c, export_mujoco, export_xml,
export_estimator_params) against the CLI's `export` on the same fit.json: the same texts."""
import json

import pytest

import frictionlab as fl
from _cli import demo_records, needs_cli, run_cli

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
