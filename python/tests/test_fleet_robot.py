"""The fleet's `fit-robot` task type (docs/fleet.md, "Arms"): every session of an arm identified on
a real Dask LocalCluster into a real SQLite store equals frictionlab.fit_robot on the same record
(the Panda excitation record of ../shared/data), its parameters (base parameters and friction per
joint) and verdict stored as a joint fit's are; the configuration is checked as it is read."""
import json
import os
import shutil

import pytest

import frictionlab as fl
from _cli import SHARED
from frictionlab.fleet import engine
from frictionlab.fleet import config as fconfig
from frictionlab.fleet.errors import FleetInputError
from frictionlab.fleet.report import write_report
from frictionlab.fleet.store import open_store

PANDA = SHARED / "robot_panda"
pytestmark = pytest.mark.skipif(not PANDA.is_dir(), reason="no ../shared/data")
RECORD = PANDA / "excitation_1.csv"
OPTIONS = {"robot": "panda_dh.json", "resample_rate": 1000, "lowpass": 10}


def _write_fleet(d, joint_type, sessions=(("r1", "s1"), ("r2", "s1"))):
    """A fleet of Panda arms in `d`: its description beside fleet.json, one record per session."""
    shutil.copy(PANDA / "panda_dh.json", d / "panda_dh.json")
    (d / "fleet.json").write_text(json.dumps({"format": "frictionlab-fleet", "version": 1,
                                              "joint_types": {"arm": joint_type}}))
    rows = ["robot,joint,session,session_time,files"]
    rows += [f"{r},arm,{s},2026-11-0{i + 1}T02:00:00,{RECORD}" for i, (r, s) in enumerate(sessions)]
    (d / "manifest.csv").write_text("\n".join(rows) + "\n")


def _documented_joint_type() -> dict:
    """The joint type of docs/fleet.md's section "Arms" (its JSON block)."""
    from _cli import SOURCE
    text = (SOURCE / "docs" / "fleet.md").read_text().split("### Arms", 1)[1]
    block = text.split("```json", 1)[1].split("```", 1)[0]
    return json.loads(block)["joint_types"]["arm"]


def test_arm_sessions_equal_single_robot_fits(tmp_path):
    joint_type = _documented_joint_type()
    assert joint_type == {"command": "fit-robot", "options": OPTIONS}
    _write_fleet(tmp_path, joint_type)
    db = str(tmp_path / "fleet.sqlite")
    s = engine.run(str(tmp_path / "fleet.json"), manifest=str(tmp_path / "manifest.csv"), db=db,
                   workers=2, progress=False)
    assert (s.tasks, s.done, s.failed) == (2, 2, 0)
    with open_store(db) as store:
        params = store.parameters(selected_only=False)
        tasks = store.tasks()
        results = store.results()
    single = fl.fit_robot(PANDA / "panda_dh.json", RECORD, resample_rate=1000, lowpass=10).to_dict()
    for robot in ("r1", "r2"):
        mine = params[params["robot"] == robot].set_index("name")
        assert set(mine["model"]) == {"robot-linear"}
        assert sorted(mine.index) == sorted(p["name"] for p in single["parameters"])
        for p in single["parameters"]:
            assert mine.loc[p["name"], "value"] == pytest.approx(p["value"], rel=1e-12)
            assert mine.loc[p["name"], "std_error"] == pytest.approx(p["std_error"], rel=1e-9)
            assert bool(mine.loc[p["name"], "determined"]) == (not p["poorly_determined"])
    assert [v["grade"] for v in results["verdict"]] == [single["verdict"]["grade"]] * 2
    # the fleet report takes the arm's parameters like a joint's
    page = write_report(params, tasks, tmp_path / "fleet.html", title="Panda arms")
    assert "Fc_q1" in open(page, encoding="utf-8").read()


def test_load_dependent_arms_equal_the_single_fit(tmp_path):
    """The fleet option load_dependent (docs/fleet.md, "Arms"): each session stores the load
    coefficients the record determines, as fit_robot(load_dependent=True) gives them."""
    _write_fleet(tmp_path, {"command": "fit-robot", "options": {**OPTIONS, "load_dependent": True}},
                 sessions=(("r1", "s1"),))
    db = str(tmp_path / "fleet.sqlite")
    s = engine.run(str(tmp_path / "fleet.json"), manifest=str(tmp_path / "manifest.csv"), db=db,
                   workers=1, progress=False)
    assert (s.tasks, s.done, s.failed) == (1, 1, 0)
    with open_store(db) as store:
        params = store.parameters(selected_only=False).set_index("name")
    single = fl.fit_robot(PANDA / "panda_dh.json", RECORD, resample_rate=1000, lowpass=10,
                          load_dependent=True).to_dict()
    mu = {p["name"]: p["value"] for p in single["parameters"] if p["name"].startswith("mu_")}
    assert sorted(mu) == ["mu_q1", "mu_q6"]
    for name, value in mu.items():
        assert params.loc[name, "value"] == pytest.approx(value, rel=1e-12)


def test_robot_configuration_is_checked_as_read(tmp_path):
    cases = [
        ({"command": "fit-robot", "options": {"lowpass": 10}},
         "joint_types.arm.options: fit-robot needs the option 'robot'"),
        ({"command": "fit-robot", "options": {"robot": "nope.urdf"}},
         "joint_types.arm.options.robot: no such file: " + str(tmp_path / "nope.urdf")),
        ({"command": "fit-robot", "options": {**OPTIONS, "lowpas": 10}},
         "joint_types.arm.options.lowpas: unknown option of fit-robot"),
        ({"command": "fit-robot", "options": {**OPTIONS, "payload_mass": -1}},
         "joint_types.arm.options.payload_mass: must be a number > 0, got -1"),
        ({"command": "fit-robot", "options": {**OPTIONS, "load_dependent": "yes"}},
         "joint_types.arm.options.load_dependent: must be true or false"),
        ({"command": "fit-robot", "options": OPTIONS, "validation": "last-20%"},
         "joint_types.arm.validation: fit-robot validates on whole records"),
    ]
    for joint_type, message in cases:
        _write_fleet(tmp_path, joint_type)
        with pytest.raises(FleetInputError) as err:
            fconfig.read_config(str(tmp_path / "fleet.json"))
        assert str(tmp_path / "fleet.json") in str(err.value) and message in str(err.value)
    # relative to the configuration file, whatever the working directory
    _write_fleet(tmp_path, {"command": "fit-robot", "options": OPTIONS})
    cwd = os.getcwd()
    os.chdir("/")
    try:
        c = fconfig.read_config(str(tmp_path / "fleet.json"))
    finally:
        os.chdir(cwd)
    assert c.joint_types["arm"].options["robot"] == str(tmp_path / "panda_dh.json")
