"""A fleet task of each command gives what the library gives on the same files: fit-actuator on the
shared XL330 logs, fit-joint (idim, validated on the session's last file) on the DFKI pendulum;
an option the files refuse is a failed task with the library's message, not an exception."""
import glob
import os

import pytest

import frictionlab as fl
from frictionlab.fleet import config, tasks

SHARED = os.path.join(os.environ.get("FRICTIONLAB_SOURCE_DIR", "."), "..", "shared", "data")
pytestmark = pytest.mark.skipif(not os.path.isdir(SHARED), reason="no ../shared/data")


def _task(joint_type: dict, files):
    c = config.parse_config('{"format": "frictionlab-fleet", "version": 1, "joint_types": {"j": '
                            + __import__("json").dumps(joint_type) + "}}", "fleet.json")
    s = config.Session("r1", "j", "j", "s1", "s1", tuple(files))
    return tasks.identify(tasks.make_task(s, c.joint_types["j"]).payload())


def test_fit_actuator_task_equals_the_library():
    logs = sorted(glob.glob(os.path.join(SHARED, "servo_xl330", "logs", "*.json")))[:4]
    opts = {"models": "m1", "trials": 80, "restarts": 0, "validation": "none"}
    r = _task({"command": "fit-actuator", "options": opts}, logs)
    assert r["status"] == "done", r["error"]
    direct = fl.fit_actuator(logs, threads=1, **opts)
    m = r["models"][0]
    assert m["model"] == "m1" and m["selected"] and m["train_rmse"] == direct.models[0].train_mae
    got = {p["name"]: p["value"] for p in m["parameters"]}
    assert got["kt"] == direct.models[0].params["kt"] and got["R"] == direct.models[0].params["R"]


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


def test_a_wrong_option_is_a_failed_task():
    """An option only the files can refuse (a column they do not have) fails the task with the
    library's message; options of the wrong name, type or range are refused when the
    configuration is read (test_fleet_config.py)."""
    d = os.path.join(SHARED, "pendulum_dfki")
    r = _task({"command": "fit-joint", "options": {"method": "idim", "time": "time",
                                                    "position": "position", "force": "no_such"}},
              [os.path.join(d, "sysid_data_measured.csv")])
    assert r["status"] == "failed" and "no_such" in r["error"] and r["models"] == []
