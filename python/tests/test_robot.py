"""frictionlab.fit_robot against the CLI's `fit-robot` on the Panda record of Gaz et al. 2019
(../shared/data/robot_panda): the same robot_fit.json (but the wall time), picklable results,
and errors with the command's messages."""
import json
import pickle

import pytest

import frictionlab as fl
from _cli import SHARED, needs_cli, run_cli

PANDA = SHARED / "robot_panda"
pytestmark = [needs_cli, pytest.mark.skipif(not PANDA.is_dir(), reason="no ../shared/data")]
ROBOT, RECORD = PANDA / "panda_dh.json", PANDA / "excitation_1.csv"


@pytest.fixture(scope="module")
def fit():
    return fl.fit_robot(ROBOT, RECORD, resample_rate=1000, lowpass=10)


def test_fit_robot_equals_cli(tmp_path, fit):
    run_cli("fit-robot", "--robot", ROBOT, "--input", RECORD, "--resample", "1000",
            "--lowpass", "10", "--out", "cli", cwd=tmp_path)
    cli = json.loads((tmp_path / "cli" / "robot_fit.json").read_text())
    mine = dict(fit.to_dict())
    for d in (cli, mine):
        d.pop("seconds")
        d.pop("robot")
        d.pop("record")
    assert mine == cli
    assert fit.rank == 64 and fit.joints == ("q1", "q2", "q3", "q4", "q5", "q6", "q7")
    assert abs(fit.relative_error_percent - 1.318) < 0.001
    fc4 = fit.parameter("Fc_q4")
    assert fc4.unit == "N m" and abs(fc4.value - 0.4145) < 1e-4
    assert fit.parameter("mcx_q3").terms[1] == ("m_q4", pytest.approx(0.0825))
    assert fit.verdict["grade"] in ("good", "doubtful")


def test_friction_model_per_joint_equals_cli(tmp_path):
    fit = fl.fit_robot(ROBOT, RECORD, resample_rate=1000, lowpass=10, friction="stribeck")
    run_cli("fit-robot", "--robot", ROBOT, "--input", RECORD, "--resample", "1000",
            "--lowpass", "10", "--friction", "stribeck", "--out", "cli", cwd=tmp_path)
    cli = json.loads((tmp_path / "cli" / "robot_fit.json").read_text())
    mine = dict(fit.to_dict())
    for d in (cli, mine):
        for key in ("seconds", "robot", "record"):
            d.pop(key)
        for joint in d["friction"]["joints"].values():
            joint.pop("run_time_s", None)
    assert mine["friction"]["model"] == "stribeck" and mine["friction"]["converged"]
    assert abs(fit.relative_error_percent - 1.263) < 0.002
    assert fit.friction["linear_relative_error_percent"] > fit.relative_error_percent + 0.03
    q4 = {p["field"]: p["value"] for p in fit.friction["joints"]["q4"]["parameters"]}
    assert abs(q4["Fc"] - 0.477) < 0.005
    assert json.dumps(mine, sort_keys=True) == json.dumps(cli, sort_keys=True)
    with pytest.raises(fl.Error, match="unknown model"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, friction="sigmoidal")


def test_outcome_pickles(fit):
    again = pickle.loads(pickle.dumps(fit))
    assert again == fit and again.parameters[0] == fit.parameters[0]


def test_errors_have_the_commands_messages(tmp_path):
    with pytest.raises(fl.Error, match="no column 'u1'"):
        fl.fit_robot(ROBOT, RECORD, torque="u", resample_rate=1000)
    with pytest.raises(fl.Error, match="needs uniform sampling"):
        fl.fit_robot(ROBOT, RECORD)
    with pytest.raises(fl.Error, match="drive gains"):
        fl.fit_robot(ROBOT, RECORD, current="tau", resample_rate=1000)
    with pytest.raises(KeyError, match="no base parameter 'Fc_q9'"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, lowpass=10).parameter("Fc_q9")


def test_doc_snippet_runs(tmp_path, capsys):
    """docs/robot-identification.md's Python section, run from a checkout with ../shared beside it."""
    import os

    from _cli import SOURCE
    from _docs import python_blocks, run_blocks
    d = tmp_path / "frictionlab"
    d.mkdir()
    (tmp_path / "shared").symlink_to(SHARED.parent)
    doc = SOURCE / "docs" / "robot-identification.md"
    blocks = python_blocks(doc.read_text().split("## Python", 1)[1].split("\n## ", 1)[0])
    assert len(blocks) == 2
    cwd = os.getcwd()
    os.chdir(d)
    try:
        assert run_blocks(blocks, {}, str(doc)) == []
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "64 1.318" and out[1].startswith("0.4145")
    assert out[2].startswith("mcx_q3 + 0.0825 m_q4 + 0.0825 m_q5")
    cond, worst = out[3].split()
    assert float(cond) < 144.5 and worst == "0"
    assert out[4].startswith("144.5 Izz_q3")


def test_excite_equals_cli_and_keeps_limits(tmp_path):
    design = fl.excite(ROBOT, period=13.333, evaluations=300, threads=2, rate=100)
    run_cli("excite", "--robot", ROBOT, "--period", "13.333", "--evaluations", "300",
            "--threads", "2", "--rate", "100", "--out", "cli", cwd=tmp_path)
    cli = json.loads((tmp_path / "cli" / "excitation.json").read_text())
    mine = dict(design.to_dict())
    for d in (cli, mine):
        d.pop("seconds")
        d.pop("robot")
    assert mine == cli
    header = (tmp_path / "cli" / "excitation.csv").read_text().splitlines()[0].split(",")
    assert header == list(design.columns)
    assert len(design.columns["time"]) == 1333 and abs(design.columns["dq1"][0]) < 1e-12
    limits = json.loads(ROBOT.read_text())["joint_limits"]
    for j in range(7):
        assert abs(design.columns[f"dq{j + 1}"]).max() <= 0.95 * 1.002 * limits["dq_max"][j]
    assert design.check.rank == 64 and design.check.flags == ()
    assert pickle.loads(pickle.dumps(design)) == design


def test_check_and_excite_errors_are_the_commands():
    check = fl.check_excitation(ROBOT, RECORD, resample_rate=1000)
    assert check.rank == 64 and abs(check.condition_number - 144.5) < 0.1
    assert "Izz_q3" in check.flags[0] and "10 Hz" in check.preprocessing
    with pytest.raises(fl.Error, match="acceleration_limits: expected 7 values"):
        fl.excite(ROBOT, acceleration_limit=[5.0], evaluations=10)
    with pytest.raises(fl.Error, match="harmonics: must be in"):
        fl.excite(ROBOT, harmonics=1, evaluations=10)
    with pytest.raises(fl.Error, match="no column 'u1'"):
        fl.check_excitation(ROBOT, RECORD, torque="u", resample_rate=1000)
