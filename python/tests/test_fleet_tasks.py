"""A fleet task of each command gives what the library gives on the same files, its verdict
included: fit-actuator on the shared XL330 logs, fit-joint (idim, validated on the session's last
file) on the DFKI pendulum, fit and compare on the shipped LuGre record; an option the files
refuse is a failed task with the library's message, not an exception."""
import glob
import os

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.fleet import config, keys, tasks

SHARED = os.path.join(os.environ.get("FRICTIONLAB_SOURCE_DIR", "."), "..", "shared", "data")
pytestmark = pytest.mark.skipif(not os.path.isdir(SHARED), reason="no ../shared/data")


def _task(joint_type: dict, files):
    c = config.parse_config('{"format": "frictionlab-fleet", "version": 1, "joint_types": {"j": '
                            + __import__("json").dumps(joint_type) + "}}", "fleet.json")
    s = config.Session("r1", "j", "j", "s1", "s1", tuple(files))
    return tasks.identify(keys.make_task(s, c.joint_types["j"]).payload())


def test_fit_actuator_task_equals_the_library():
    logs = sorted(glob.glob(os.path.join(SHARED, "servo_xl330", "logs", "*.json")))[:4]
    opts = {"models": "m1", "trials": 80, "restarts": 0, "validation": "none"}
    r = _task({"command": "fit-actuator", "options": opts}, logs)
    assert r["status"] == "done", r["error"]
    direct = fl.fit_actuator(logs, threads=1, **opts)
    m = r["models"][0]
    assert m["model"] == "m1" and m["selected"] and m["train_rmse"] == direct.models[0].train_mae
    got = {p["name"]: (p["value"], p["unit"]) for p in m["parameters"]}
    assert got == {p.name: (p.value, p.unit) for p in direct.models[0].parameters}
    assert got["kt"][0] == direct.models[0].params["kt"] and got["R"] == (direct.models[0].params["R"], "ohm")
    assert m["verdict"] == direct.verdict.to_dict() and m["verdict"]["grade"] in ("good", "doubtful", "bad")


def test_fit_joint_task_equals_the_library():
    d = os.path.join(SHARED, "pendulum_dfki")
    files = [os.path.join(d, "sysid_data_measured.csv"), os.path.join(d, "gravcomp_data_measured.csv")]
    channels = {"time": "time", "position": "position", "force": "torque"}
    r = _task({"command": "fit-joint", "options": {"method": "idim", "resample_rate": 300.0,
                                                    **channels},
               "validation": "last-file"}, files)
    assert r["status"] == "done", r["error"]
    j = fl.fit_joint(fl.Record.read(files[0], **channels), fl.Record.read(files[1], **channels),
                     method="idim", resample_rate=300.0)
    m = r["models"][0]
    assert m["train_rmse"] == j.training.torque.rmse
    assert m["validation_rmse"] == j.validation[0].torque.rmse
    assert [(p["name"], p["value"]) for p in m["parameters"]] == \
        [(p.name, p.value) for p in j.parameters if not p.fixed]
    assert m["verdict"] == j.verdict.to_dict()
    assert [r["rule"] for r in m["verdict"]["reasons"]][-1:] == ["lowpass"]  # chosen for the user


def test_fit_and_compare_tasks_carry_the_verdicts(tmp_path):
    """fit: the model's verdict; compare: the recommended model carries the comparison's verdict,
    the others none (a record of the shipped LuGre set with noise)."""
    src = os.environ.get("FRICTIONLAB_SOURCE_DIR", ".")
    t = np.arange(0.0, 4.0, 0.002)
    v = 0.02 * np.sin(2 * np.pi * 0.5 * t) + 0.01 * np.sin(2 * np.pi * 1.7 * t)
    F = fl.simulate(os.path.join(src, "examples", "data", "lugre.json"), t, v).F
    F = F + np.random.default_rng(1).normal(0.0, 0.01, len(t))
    files = [str(tmp_path / "record.csv")]
    np.savetxt(files[0], np.column_stack([t, v, F]), delimiter=",", header="t,v,F", comments="")
    channels = {"time": "t", "velocity": "v", "force": "F"}
    r = _task({"command": "fit", "options": {"model": "coulomb-viscous", **channels}}, files)
    assert r["status"] == "done", r["error"]
    direct = fl.fit(fl.Record.read(files[0], **channels), model="coulomb-viscous", threads=1)
    assert r["models"][0]["verdict"] == direct.verdict.to_dict()
    r = _task({"command": "compare", "options": {"models": ["coulomb-viscous", "stribeck"],
                                                  **channels}}, files)
    assert r["status"] == "done", r["error"]
    c = fl.compare(fl.Record.read(files[0], **channels), models=["coulomb-viscous", "stribeck"],
                   threads=1)
    got = {m["model"]: m for m in r["models"]}
    assert got[c.rows[0].model]["verdict"] == c.verdict.to_dict() and got[c.rows[0].model]["selected"]
    assert got[c.rows[1].model]["verdict"] is None
    assert got[c.rows[1].model]["train_rmse"] == c.rows[1].fit.training.rmse


def test_a_wrong_option_is_a_failed_task():
    """An option only the files can refuse (a column they do not have) fails the task with the
    library's message; options of the wrong name, type or range are refused when the
    configuration is read (test_fleet_config.py)."""
    d = os.path.join(SHARED, "pendulum_dfki")
    r = _task({"command": "fit-joint", "options": {"method": "idim", "time": "time",
                                                    "position": "position", "force": "no_such"}},
              [os.path.join(d, "sysid_data_measured.csv")])
    assert r["status"] == "failed" and "no_such" in r["error"] and r["models"] == []
