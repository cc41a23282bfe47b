"""export_c(..., adaptive=True, temperature=...) from Python against the CLI's `export c --adaptive
--temperature` (docs/estimator.md, "Online adaptation"): the same texts, the start the rule gives
(kT, T_ref, the kT bit in adapt), a joint fit given as a dict, and the errors of every entry
point (the option named, the file and the key)."""
import json
import math
import re

import pytest

import frictionlab as fl
from _cli import SOURCE, needs_cli, run_cli

pytestmark = needs_cli

DATA = SOURCE / "examples" / "data"
PARAMS = DATA / "sensorless_fit.json"


@pytest.fixture(scope="module")
def warm_fit(tmp_path_factory):
    """fit-joint idim with the linear temperature law on examples/data/joint_warming.csv."""
    d = tmp_path_factory.mktemp("warm")
    run_cli("fit-joint", "--method", "idim", "--input", DATA / "joint_warming.csv", "--time", "t",
            "--position", "q", "--torque", "tau", "--temperature", "temp", "--temperature-law",
            "linear", "--no-plots", "--out", "fit", cwd=d)
    return d / "fit" / "joint_fit.json"


def baked(source, pattern):
    """The last match of `pattern` (one group) in the exported NAME.c (the library's own
    default options come first in the text)."""
    return re.findall(pattern, source)[-1]


def test_export_c_temperature_equals_cli(warm_fit, tmp_path):
    run_cli("export", "c", "--params", PARAMS, "--adaptive", "--temperature", warm_fit,
            "--temperature-ref", "30", "--name", "warm", "--precision", "double", "--out", "c",
            cwd=tmp_path)
    c = fl.export_c(PARAMS, adaptive=True, temperature=warm_fit, temperature_ref=30.0,
                    name="warm", single_precision=False)
    assert c.header == (tmp_path / "c" / "warm.h").read_text()
    assert c.source == (tmp_path / "c" / "warm.c").read_text()
    law = json.loads(warm_fit.read_text())["joint"]["temperature"]
    kT = law["kT"] / (1 + law["kT"] * (30 - law["T_ref"]))  # the slope at 30 degC
    assert math.isclose(float(baked(c.source, r"a->theta\[WARM_ADAPT_KT\] = ([^;]+);")), kT,
                        rel_tol=1e-15)
    assert baked(c.source, r"o->T_ref = ([^;]+);") == "30.0"
    assert "o->adapt = 0x3eu;" in c.source
    notes = "\n".join(c.adaptive_notes)
    assert "T_ref = 30 degC (--temperature-ref" in notes
    assert "kT_v = " in notes and "is not carried" in notes


def test_export_c_temperature_from_a_dict(warm_fit):
    by_path = fl.export_c(PARAMS, adaptive=True, temperature=warm_fit)
    by_dict = fl.export_c(PARAMS, adaptive=True, temperature=json.loads(warm_fit.read_text()))
    kt = r"a->theta\[JOINT_ESTIMATOR_ADAPT_KT\] = ([^;]+);"
    assert baked(by_dict.source, kt) == baked(by_path.source, kt)
    assert by_dict.header.replace("<dict>", str(warm_fit)) == by_path.header


def test_export_c_temperature_errors(warm_fit):
    with pytest.raises(fl.Error, match=r"--temperature \(Python temperature=\).*adaptive=True"):
        fl.export_c(PARAMS, temperature=warm_fit)
    with pytest.raises(fl.Error, match=r"temperature_ref=.*finite temperature \[degC\], got nan"):
        fl.export_c(PARAMS, adaptive=True, temperature=warm_fit, temperature_ref=float("nan"))
    with pytest.raises(fl.Error, match=r"temperature_ref=.*give --temperature too"):
        fl.export_c(PARAMS, adaptive=True, temperature_ref=30.0)
    with pytest.raises(fl.Error, match=r"sensorless_fit.json: key 'format'"):
        fl.export_c(PARAMS, adaptive=True, temperature=PARAMS)
    no_law = json.loads(warm_fit.read_text())
    del no_law["joint"]["temperature"]
    with pytest.raises(fl.Error, match=r"<dict>: joint: temperature: missing"):
        fl.export_c(PARAMS, adaptive=True, temperature=no_law)
    with pytest.raises(fl.Error, match=r"joint: temperature: its linear law's scale"):
        fl.export_c(PARAMS, adaptive=True, temperature=warm_fit, temperature_ref=150.0)
