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
    # docs/robot-identification.md, "Exports": one joint of it for MuJoCo
    run_cli("export", "mujoco", "--params", "cli/robot_fit.json", "--joint", "q4", "--output",
            "q4.xml", cwd=tmp_path)
    text = (tmp_path / "q4.xml").read_text()
    assert "stribeck" in text and 'frictionloss="' in text and "<joint name=\"q4\"" in text
    assert text == str(fl.export_mujoco(tmp_path / "cli" / "robot_fit.json", joint="q4")).replace(
        str(tmp_path / "cli" / "robot_fit.json"), "cli/robot_fit.json")
    with pytest.raises(fl.Error, match="unknown model"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, friction="sigmoidal")


def test_consistent_inertials_equal_cli(tmp_path):
    fit = fl.fit_robot(ROBOT, RECORD, resample_rate=1000, lowpass=10, consistent=True)
    run_cli("fit-robot", "--robot", ROBOT, "--input", RECORD, "--resample", "1000",
            "--lowpass", "10", "--consistent", "--out", "cli", cwd=tmp_path)
    cli = json.loads((tmp_path / "cli" / "robot_fit.json").read_text())
    assert cli["consistent"] == fit.consistent
    c = fit.consistent
    assert c["relative_error_percent"] > fit.relative_error_percent
    assert c["relative_error_percent"] < fit.relative_error_percent + 0.2
    for link in c["links"].values():
        assert link["mass"] > 0
    with pytest.raises(fl.Error, match="linear friction only"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, consistent=True, friction="stribeck")


def test_load_dependent_equals_cli_and_exports_say_what_they_lose(tmp_path):
    """docs/robot-identification.md, "Load-dependent friction": the same robot_fit.json from
    Python and the CLI, every joint's mu fitted or held with its reason, and the exports."""
    fit = fl.fit_robot(ROBOT, RECORD, resample_rate=1000, lowpass=10, load_dependent=True)
    run_cli("fit-robot", "--robot", ROBOT, "--input", RECORD, "--resample", "1000",
            "--lowpass", "10", "--load-dependent", "--out", "cli", cwd=tmp_path)
    cli = json.loads((tmp_path / "cli" / "robot_fit.json").read_text())
    mine = dict(fit.to_dict())
    for d in (cli, mine):
        for key in ("seconds", "robot", "record"):
            d.pop(key)
    assert mine == cli
    load = fit.friction["load_dependent"]
    assert load["converged"] and load["rounds"] >= 2
    fitted = {p.name for p in fit.parameters if p.name.startswith("mu_")}
    held = {n.split(" ")[0] for n in load["notes"]}
    assert fitted == {"mu_q1", "mu_q6"} and fitted | held == {f"mu_q{j}" for j in range(1, 8)}
    assert all("no Coulomb level rising with the load; held at 0" in n for n in load["notes"])
    assert fit.parameter("mu_q6").value == pytest.approx(0.0402, abs=5e-4)
    assert fit.relative_error_percent < 1.318
    assert any(r["rule"] == "load" for r in fit.verdict["reasons"])
    with pytest.raises(fl.Error, match="depends on the load .mu = 0.04"):
        fl.export_c(fit.to_dict(), joint="q6", Km=0.2)
    run_cli("export", "robot", "--params", "cli/robot_fit.json", "--output", "arm.xml",
            cwd=tmp_path)
    arm = (tmp_path / "arm.xml").read_text()  # what MuJoCo cannot take is in its comment
    assert "joint q6: mu_q6 = 0.04" in arm and "frictionloss is the level at zero load" in arm
    with pytest.raises(fl.Error, match="load-dependent friction is fitted with linear friction"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, friction="stribeck",
                     load_dependent=True)
    with pytest.raises(fl.Error, match="load_dependent and loaded do not go together"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, loaded=RECORD, payload_mass=2.0,
                     load_dependent=True)


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
    with pytest.raises(fl.Error, match="loaded and payload_mass go together"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, loaded=RECORD)
    with pytest.raises(fl.Error, match="joint torques: drive gains are identified from motor"):
        fl.fit_robot(ROBOT, RECORD, resample_rate=1000, loaded=RECORD, payload_mass=2.0)
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
    assert out[3] == "True record (DataFrame)"
    cond, worst = out[4].split()
    assert float(cond) < 144.5 and worst == "0"
    assert out[5].startswith("144.5 Izz_q3")


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


def test_export_robot_mjcf_has_the_fits_friction(tmp_path, fit):
    """`export robot` of the Panda fit: one <joint> per joint with frictionloss = Fc and
    damping = Fv (a negative Fv written as 0, with its note), the notes in the comment."""
    import xml.etree.ElementTree as ET
    (tmp_path / "robot_fit.json").write_text(json.dumps(fit.to_dict()))
    run_cli("export", "robot", "--params", "robot_fit.json", "--output", "arm.xml", cwd=tmp_path)
    text = (tmp_path / "arm.xml").read_text()
    joints = ET.fromstring("<r>" + text + "</r>").findall("joint")
    assert [j.get("name") for j in joints] == list(fit.joints)
    for j in joints:
        q = j.get("name")
        assert float(j.get("frictionloss")) == fit.parameter("Fc_" + q).value
        fv = fit.parameter("Fv_" + q).value
        assert float(j.get("damping", "0")) == max(fv, 0.0)
        if fv < 0:
            assert f"Fv_{q} = " in text and "written as 0" in text
    assert "torque offset offset_q1" in text


def test_export_robot_urdf_sets_dynamics_and_keeps_the_rest(tmp_path):
    """`export robot --urdf` into the UR10e's URDF: each joint's <dynamics> gets the fit's Fv
    and Fc, every other element and attribute of the file stays; a friction the record only
    determines in a combination (a base parameter of several terms) is written as 0 with a
    note, as `export c --joint` refuses it."""
    import xml.etree.ElementTree as ET
    urdf = SHARED / "robot_ur10e" / "ur10e.urdf"
    joints = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint",
              "wrist_2_joint", "wrist_3_joint"]
    params = []
    for k, q in enumerate(joints):
        for name, value in (("Fv", 0.5 + k), ("Fc", 2.0 + k), ("offset", 0.1)):
            params.append({"name": f"{name}_{q}", "expression": f"{name}_{q}",
                           "terms": [[f"{name}_{q}", 1.0]], "unit": "", "value": value,
                           "std_error": 0.01, "relative_std_error_percent": 1.0,
                           "poorly_determined": False})
    grouped = next(p for p in params if p["name"] == "Fc_wrist_3_joint")
    grouped["expression"] = "Fc_wrist_3_joint + 0.5 Fc_wrist_2_joint"
    grouped["terms"].append(["Fc_wrist_2_joint", 0.5])
    (tmp_path / "robot_fit.json").write_text(json.dumps(
        {"format": "frictionlab-robot-fit", "version": 1, "joints": joints,
         "parameters": params, "friction": {"model": "linear"}}))
    run_cli("export", "robot", "--params", "robot_fit.json", "--urdf", urdf, "--output",
            "ur10e.urdf", cwd=tmp_path)
    before, after = ET.parse(urdf).getroot(), ET.parse(tmp_path / "ur10e.urdf").getroot()
    assert [e.tag for e in before.iter()] == [e.tag for e in after.iter()]
    for b, a in zip(before.iter(), after.iter()):
        if b.tag != "dynamics":
            assert b.attrib == a.attrib
    dyn = {j.get("name"): j.find("dynamics") for j in after.findall("joint")}
    for k, q in enumerate(joints):
        assert float(dyn[q].get("damping")) == 0.5 + k
        assert float(dyn[q].get("friction")) == (0.0 if q == "wrist_3_joint" else 2.0 + k)
    text = (tmp_path / "ur10e.urdf").read_text()
    assert "offset_shoulder_pan_joint = 0.1 N m left out" in text
    assert ("Fc_wrist_3_joint is the combination Fc_wrist_3_joint + 0.5 Fc_wrist_2_joint on this "
            "record, not the joint's friction alone: written as 0") in text
    (tmp_path / "two.urdf").write_text(
        "<robot name='two'><link name='a'/><link name='b'/><joint name='j1' type='revolute'>"
        "<parent link='a'/><child link='b'/><axis xyz='0 0 1'/></joint></robot>")
    with pytest.raises(AssertionError, match="two.urdf: no joint 'shoulder_pan_joint'"):
        run_cli("export", "robot", "--params", "robot_fit.json", "--urdf", "two.urdf",
                cwd=tmp_path)
    with pytest.raises(AssertionError, match="panda_dh.json: not a URDF"):
        run_cli("export", "robot", "--params", "robot_fit.json", "--urdf", ROBOT, cwd=tmp_path)


def test_dataframe_and_dict_records_give_the_files_fit(fit):
    """A DataFrame (as pandas reads the CSV) and a dict of arrays, one of them big-endian, are
    the same record as the file: the same robot_fit.json but the record's name."""
    import numpy as np
    import pandas as pd

    frame = pd.read_csv(RECORD)
    columns = {name: frame[name].to_numpy() for name in frame.columns}
    columns["tau3"] = columns["tau3"].astype(">f8")
    files = dict(fit.to_dict())
    for record, name in ((frame, "record (DataFrame)"), (columns, "record (dict)")):
        mine = dict(fl.fit_robot(ROBOT, record, validate=record, resample_rate=1000,
                                 lowpass=10).to_dict())
        assert mine["record"] == name
        for d in (mine, files):
            for key in ("seconds", "record", "validation"):
                d.pop(key, None)
        assert mine == files
    check = fl.check_excitation(ROBOT, frame, resample_rate=1000, lowpass=10)
    assert check == fl.check_excitation(ROBOT, RECORD, resample_rate=1000, lowpass=10)
    assert np.isfinite(check.condition_number)


def test_in_memory_records_are_checked_like_files():
    import numpy as np
    import pandas as pd

    frame = pd.read_csv(RECORD).iloc[:2000]
    with pytest.raises(fl.Error, match=r"record \(DataFrame\).*no column 'u1'"):
        fl.fit_robot(ROBOT, frame, torque="u", resample_rate=1000)
    with pytest.raises(fl.Error, match=r"record\['q2'\]: expected float64 or float32, got int64"):
        fl.fit_robot(ROBOT, frame.assign(q2=np.arange(len(frame))), resample_rate=1000)
    late = frame.copy()
    late.loc[5, "time"] = late.loc[3, "time"]
    with pytest.raises(fl.Error, match=r"record \(DataFrame\)"):
        fl.fit_robot(ROBOT, late, resample_rate=1000)
    short = {name: frame[name].to_numpy() for name in frame.columns}
    short["dq4"] = short["dq4"][:-1]
    with pytest.raises(fl.Error, match=r"record \(dict\)"):
        fl.fit_robot(ROBOT, short, resample_rate=1000)
    with pytest.raises(fl.Error, match="expected a CSV path .*, a pandas DataFrame or a dict of arrays, got list"):
        fl.fit_robot(ROBOT, [1, 2], resample_rate=1000)
    with pytest.raises(fl.Error, match="validate\\[1\\]"):
        fl.fit_robot(ROBOT, frame, validate=[frame, frame.drop(columns="q1")], resample_rate=1000)
    # a column the spec does not read may hold anything
    labelled = frame.assign(label="bench")
    assert fl.check_excitation(ROBOT, labelled, resample_rate=1000, lowpass=10).samples > 0


def test_export_one_joint_of_a_robot_fit(tmp_path, fit):
    """`export mujoco|json|c --params robot_fit.json --joint q4`: the joint's friction as one
    joint's export; the CLI and Python give the same; the rigid body is named as left out."""
    import subprocess

    from _cli import CLI

    def cli_stderr(*args):
        r = subprocess.run([CLI, *args], cwd=tmp_path, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stderr

    (tmp_path / "robot_fit.json").write_text(json.dumps(fit.to_dict()))
    err = cli_stderr("export", "mujoco", "--params", "robot_fit.json", "--joint", "q4",
                     "--output", "q4.xml")
    text = (tmp_path / "q4.xml").read_text()
    assert 'name="q4"' in text
    import re
    loss = re.search(r'frictionloss="([^"]+)"', text)
    assert loss and float(loss.group(1)) == pytest.approx(fit.parameter("Fc_q4").value, rel=1e-9)
    assert "torque offset" in err
    assert text == str(fl.export_mujoco(fit.to_dict(), joint="q4", label="robot_fit.json"))
    with pytest.raises(fl.Error, match="the estimator needs a lugre model, got 'coulomb-viscous'"):
        fl.export_c(fit.to_dict(), joint="q4", Km=0.2)
    with pytest.raises(fl.Error, match="choose one with --joint \\(Python joint=\\): q1, q2"):
        fl.export_mujoco(fit.to_dict())

    # A LuGre joint (fit-robot --friction lugre writes each joint's fit.json under "friction")
    # with an identified drive gain: the C export equals that of the joint's fit.json with --km.
    from _cli import SOURCE
    single = SOURCE / "examples" / "data" / "sensorless_fit.json"
    arm = dict(fit.to_dict())
    arm["friction"] = {"model": "lugre", "joints": {"q4": json.loads(single.read_text())}}
    arm["drive_gains"] = {"gains": [{"name": "K_q4", "value": 0.2}]}
    (tmp_path / "lugre_fit.json").write_text(json.dumps(arm))
    err = cli_stderr("export", "c", "--params", "lugre_fit.json", "--joint", "q4", "--name", "q4",
                     "--out", "firmware")
    assert "rigid-body torques" in err
    cli_stderr("export", "c", "--params", single, "--km", "0.2", "--name", "q4", "--out", "one")
    note = (" *\n * Not represented (X holds more than the friction):\n *   - the arm's rigid-body "
            "torques (inertia, gravity and coupling: the fit's base parameters): the estimator "
            "subtracts the friction only, its torque Km i - F still contains them\n")
    for name in ("q4.h", "q4.c"):
        mine = (tmp_path / "firmware" / name).read_text().replace("lugre_fit.json", "X")
        one = (tmp_path / "one" / name).read_text().replace(str(single), "X")
        assert mine.replace(note, "") == one and (note in mine) == (name == "q4.h")
    c = fl.export_c(arm, joint="q4", name="q4", label="lugre_fit.json")
    assert (tmp_path / "firmware" / "q4.h").read_text() == c.header
    assert (tmp_path / "firmware" / "q4.c").read_text() == c.source


def test_export_robot_urdf_writes_the_consistent_inertials(tmp_path):
    """With a --consistent fit, `export robot --urdf` writes each moving link's <inertial>
    (joint frame = the URDF link frame), removes the <inertial> of links fixed to it, names the
    undetermined parameters, and keeps every other element."""
    import xml.etree.ElementTree as ET
    urdf = SHARED / "robot_ur10e" / "ur10e.urdf"
    joints = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint",
              "wrist_2_joint", "wrist_3_joint"]
    params = [{"name": f"Fc_{q}", "expression": f"Fc_{q}", "terms": [[f"Fc_{q}", 1.0]],
               "unit": "N m", "value": 1.0, "std_error": 0.01,
               "relative_std_error_percent": 1.0, "poorly_determined": False} for q in joints]
    links = {q: {"mass": 1.0 + k, "com": [0.01 * k, -0.02, 0.03],
                 "inertia": [[0.1 + k, 0.001, 0.002], [0.001, 0.2, 0.003], [0.002, 0.003, 0.25]]}
             for k, q in enumerate(joints)}
    # ee_link, fixed to wrist_3_link, gets an inertial of its own: fit-robot merges it
    tree = ET.parse(urdf)
    ee = tree.getroot().find("link[@name='ee_link']")
    ET.SubElement(ET.SubElement(ee, "inertial"), "mass", value="0.1")
    tree.write(tmp_path / "arm.urdf")
    (tmp_path / "robot_fit.json").write_text(json.dumps(
        {"format": "frictionlab-robot-fit", "version": 1, "joints": joints,
         "parameters": params, "friction": {"model": "linear"},
         "consistent": {"links": links, "undetermined": ["m_shoulder_pan_joint"]}}))
    run_cli("export", "robot", "--params", "robot_fit.json", "--urdf", "arm.urdf", "--output",
            "out.urdf", cwd=tmp_path)
    text = (tmp_path / "out.urdf").read_text()
    after = ET.fromstring(text)
    child = {j.get("name"): j.find("child").get("link") for j in after.findall("joint")}
    for k, q in enumerate(joints):
        inertial = after.find(f"link[@name='{child[q]}']/inertial")
        assert float(inertial.find("mass").get("value")) == 1.0 + k
        assert [float(x) for x in inertial.find("origin").get("xyz").split()] == \
            [0.01 * k, -0.02, 0.03]
        I = inertial.find("inertia").attrib
        assert (float(I["ixx"]), float(I["ixy"]), float(I["izz"])) == (0.1 + k, 0.001, 0.25)
    assert after.find("link[@name='ee_link']/inertial") is None
    assert "link ee_link: its &lt;inertial&gt; removed" in text or \
        "link ee_link: its <inertial> removed" in text
    assert "are the prior's, not measured (1): m_shoulder_pan_joint" in text
    before = ET.parse(tmp_path / "arm.urdf").getroot()
    assert [e.tag for e in before.iter() if e.tag not in ("inertial", "origin", "mass", "inertia",
                                                          "dynamics")] == \
        [e.tag for e in after.iter() if e.tag not in ("inertial", "origin", "mass", "inertia",
                                                      "dynamics")]
