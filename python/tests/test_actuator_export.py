"""The export of a fitted servo actuator from Python (export_actuator_mujoco, export_actuator_bam)
against the CLI's `export mujoco --kp` and `export bam` on the same parameter file: the same
texts, the same notes; the errors."""
import json
import pathlib
import subprocess

import pytest

import frictionlab as fl
from _cli import CLI, needs_cli, run_cli

pytestmark = needs_cli

M3 = {"kt": 0.38, "R": 3.4, "armature": 0.0019, "q_offset": 0.029, "friction_base": 0.0089,
      "load_friction_base": 0.12, "friction_viscous": 0.0044, "model": "m3", "actuator": "xl330"}


def test_actuator_exports_equal_cli(tmp_path):
    p = tmp_path / "m3.json"
    p.write_text(json.dumps(M3))
    out = run_cli("export", "mujoco", "--params", p, "--kp", "400", "--vin", "7", "--form",
                  "dcmotor", "--ctrlrange", "-2:2", "--joint", "elbow", cwd=tmp_path)
    f = fl.export_actuator_mujoco(p, kp=400, vin=7, form="dcmotor", ctrlrange=(-2, 2),
                                  joint="elbow")
    assert f.xml == out
    assert [n.split(" ")[0] for n in f.notes] == ["load-dependent", "q_offset"]
    assert fl.export_actuator_mujoco(p, kp=100).xml == run_cli(
        "export", "mujoco", "--params", p, "--kp", "100", cwd=tmp_path)
    b = fl.export_actuator_bam(p)
    assert b.text == run_cli("export", "bam", "--params", p, cwd=tmp_path)
    assert json.loads(b.text) == M3 and b.warnings == [] and b.notes == []


def test_actuator_export_errors(tmp_path):
    p = tmp_path / "m3.json"
    p.write_text(json.dumps(M3))
    with pytest.raises(ValueError, match="--kp is required"):
        fl.export_actuator_mujoco(p)
    with pytest.raises(ValueError, match="form"):
        fl.export_actuator_mujoco(p, kp=100, form="motor")
    with pytest.raises(ValueError, match="--ctrlrange"):
        fl.export_actuator_mujoco(p, kp=100, ctrlrange=(1, -1))
    with pytest.raises(fl.Error, match="no summary.json"):
        fl.export_actuator_bam(tmp_path)


SHARED = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data" / "servo_xl330"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/data/servo_xl330")


@needs_shared
def test_mujoco_replay_equals_the_cli_line(tmp_path):
    """mujoco_replay and `export mujoco --replay` run the same replay: the CLI's line is the
    summary; the export loses the load-dependent friction, frictionlab inside MuJoCo keeps it."""
    m6 = SHARED / "reference_params" / "m6.json"
    try:
        r = fl.mujoco_replay(m6, SHARED / "logs", kp=[400, 800])
    except RuntimeError as e:
        assert "built without MuJoCo" in str(e)
        pytest.skip("a build without MuJoCo")
    assert len(r["logs"]) == 8 and {l["kp"] for l in r["logs"]} == {400.0, 800.0}
    assert r["exported"] > 1.1 * r["own"] and abs(r["inside"] / r["own"] - 1) < 0.05
    assert r["exported"] == pytest.approx(sum(l["exported"] for l in r["logs"]) / 8, rel=1e-12)
    logs = sorted(l["file"] for l in r["logs"])
    p = subprocess.run([CLI, "export", "mujoco", "--params", str(m6), "--kp", "400", "--output",
                        str(tmp_path / "m6.xml"), "--replay", *logs], cwd=tmp_path,
                       capture_output=True, text=True)
    assert p.returncode == 0 and "frictionlab: " + r["summary"] + "\n" in p.stderr, p.stderr
    with pytest.raises(ValueError, match="unknown option 'kq'"):
        fl.mujoco_replay(m6, SHARED / "logs", kq=1)
    with pytest.raises(ValueError, match="timestep: must be > 0"):
        fl.mujoco_replay(m6, SHARED / "logs", timestep=0)
