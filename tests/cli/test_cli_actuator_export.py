#!/usr/bin/env python3
"""frictionlab export mujoco | bam for a fitted actuator end to end (docs/actuators.md,
"Exporting a fitted actuator"):
- a fit-actuator output directory (a small fit on the shared XL330 logs): `export mujoco` writes
  the recommended model's joint and position actuator with the numbers computed here from its
  parameter file, `--form dcmotor` the dcmotor, `export bam` the parameter file again;
- the reference package's M6 fit: every unrepresentable term is a warning and in the comment;
  `--replay` of the XL330 logs prints what MuJoCo makes of the export and of frictionlab's
  friction inside it;
- error paths: exit status 1, the first error line naming the option or file, nothing written.
Without ../shared the fit and the reference checks are skipped (the others run on a file
written here)."""
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402

XL330_GAIN = 4096 / (2 * math.pi) / (256 * 885)  # duty per kp rad (docs/actuators.md)
XL330_VIN = 7.4


def close(a, b):
    return abs(a - b) <= 1e-15 * max(abs(b), 1e-300) * 4


def fragment(text):
    """The elements of an MJCF fragment (a comment, <joint/>, <actuator>)."""
    return ET.fromstring("<r>" + text + "</r>")


def check_position(check, name, text, p, kp, vin):
    root = fragment(text)
    joint, pos = root.find("joint"), root.find("actuator/position")
    ok = joint is not None and pos is not None
    check(name + ": a joint and a position actuator", ok, text)
    if not ok:
        return
    stall = p["kt"] / p["R"] * vin
    fr = [float(x) for x in pos.get("forcerange").split()]
    check(name + ": values", close(float(joint.get("armature")), p["armature"])
          and close(float(joint.get("frictionloss")), p["friction_base"])
          and close(float(joint.get("damping")), p["friction_viscous"] + p["kt"] ** 2 / p["R"])
          and close(float(pos.get("kp")), p["kt"] / p["R"] * vin * kp * XL330_GAIN)
          and close(fr[1], stall) and fr[0] == -fr[1], text)


def main():
    cli = Cli(timeout=300)
    work = cli.work
    check, write, run, expect_error = cli.check, cli.write, cli.run, cli.expect_error
    shared = os.path.join(os.path.dirname(cli.source), "shared", "data", "servo_xl330")

    m1 = {"kt": 0.4, "R": 4.0, "armature": 0.002, "q_offset": 0.0, "friction_base": 0.01,
          "friction_viscous": 0.004, "model": "m1", "actuator": "xl330"}
    params = write("m1.json", json.dumps(m1))

    # ---- a parameter file: position form, then --vin, --ctrlrange, --joint ----
    p = run("export", "mujoco", "--params", params, "--kp", "400")
    check("export mujoco of a parameter file", p.returncode == 0, p.stderr)
    check_position(check, "parameter file", p.stdout, m1, 400, XL330_VIN)
    check("exact M1 without q_offset: no warning", "warning" not in p.stderr, p.stderr)
    p = run("export", "mujoco", "--params", params, "--kp", "400", "--vin", "5",
            "--ctrlrange", "-1.5:1.5", "--joint", "elbow")
    check_position(check, "--vin 5", p.stdout, m1, 400, 5.0)
    pos = fragment(p.stdout).find("actuator/position") if p.returncode == 0 else None
    check("--ctrlrange and --joint", pos is not None and pos.get("ctrlrange") == "-1.5 1.5"
          and pos.get("joint") == "elbow" and pos.get("name") == "elbow_servo", p.stdout + p.stderr)

    # ---- dcmotor form ----
    out = os.path.join(work, "dc.xml")
    p = run("export", "mujoco", "--params", params, "--kp", "100", "--form", "dcmotor",
            "--output", out)
    check("export mujoco --form dcmotor", p.returncode == 0 and os.path.exists(out), p.stderr)
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            root = fragment(f.read())
        dc, joint = root.find("actuator/dcmotor"), root.find("joint")
        c = [float(x) for x in dc.get("controller").split()] if dc is not None else []
        check("dcmotor values", dc is not None and len(c) == 6
              and close(float(dc.get("resistance")), m1["R"])
              and dc.get("motorconst") == "0.4 0.4" and dc.get("input") == "pos"
              and close(c[0], m1["kt"] / m1["R"] * XL330_VIN * 100 * XL330_GAIN)
              and close(c[2], m1["kt"] ** 2 / m1["R"]) and c[5] == XL330_VIN
              and c[1] == c[3] == c[4] == 0
              and close(float(joint.get("damping")), m1["friction_viscous"]),
              ET.tostring(root).decode())

    # ---- export bam of a parameter file: the same values ----
    p = run("export", "bam", "--params", params)
    check("export bam round trip", p.returncode == 0 and json.loads(p.stdout) == m1,
          p.stdout + p.stderr)

    check("export bam of an xl330 fit: nothing to state", "warning" not in p.stderr, p.stderr)

    # ---- export bam: every element BAM's parameter file cannot carry is a warning ----
    lead = "frictionlab: warning: BAM's parameter file cannot represent: "
    pd = dict(m1, actuator="made-servo", actuator_description={
        "format": "frictionlab-actuator", "version": 1, "name": "made-servo", "drive": "voltage",
        "supply_voltage": {"value": 9, "unit": "V"},
        "motor": {"torque_constant": {"range": [0.1, 3], "unit": "Nm/A"},
                  "resistance": {"range": [0.5, 20], "unit": "ohm"},
                  "armature": {"range": [1e-4, 0.05], "unit": "kg m^2"}},
        "encoder": {"counts_per_turn": 4096},
        "control": {"law": "pd", "error_gain": {"value": 0.08, "unit": "1/rad"},
                    "kd_gain": {"value": 0.01, "unit": "s"},
                    "deadband": {"value": 3, "unit": "counts"},
                    "period": {"value": 2, "unit": "ms"}}})
    p = run("export", "bam", "--params", write("pd_m1.json", json.dumps(pd)))
    lines = p.stderr.splitlines()
    check("export bam of a PD servo with deadband and period: exit 0, four warnings",
          p.returncode == 0 and len(lines) == 4 and all(x.startswith(lead) for x in lines),
          p.stderr)
    if len(lines) == 4:
        check("export bam: what each warning names",
              "'made-servo' described by an ACTUATOR.json" in lines[0]
              and "error_gain = 0.08 1/rad" in lines[0]
              and "law 'pd', kd_gain = 0.01 s" in lines[1]
              and "(3 encoder counts)" in lines[2] and "control period 0.002 s" in lines[3],
              p.stderr)
    p = run("export", "bam", "--params", write("v12.json", json.dumps(dict(m1, actuator="sts3215-12v"))))
    check("export bam of an sts3215-12v fit: the name BAM does not know is stated",
          p.returncode == 0 and json.loads(p.stdout)["actuator"] == "sts3215-12v"
          and lead + "actuator 'sts3215-12v': frictionlab's built-in description; BAM has no "
          "actuator of this name" in p.stderr, p.stderr)

    # ---- errors ----
    expect_error("--kp is required", ["export", "mujoco", "--params", params],
                 "frictionlab: error: --kp is required for an actuator: the firmware's kp register"
                 " value the model is to run at (the logs' \"kp\"), which sets the position gain "
                 "kt/R vin kp error_gain")
    no_out = os.path.join(work, "no.xml")
    expect_error("--kp with a friction model",
                 ["export", "mujoco", "--params", os.path.join(cli.data, "coulomb_viscous.json"),
                  "--kp", "100", "--output", no_out],
                 "frictionlab: error: --kp: only for a fitted actuator (a parameter file, "
                 "summary.json or output directory of fit-actuator); "
                 + os.path.join(cli.data, "coulomb_viscous.json") + " is not one", out=no_out)
    expect_error("--gear with an actuator",
                 ["export", "mujoco", "--params", params, "--kp", "100", "--gear", "2",
                  "--output", no_out],
                 "frictionlab: error: --gear: not for a fitted actuator (its constants are joint "
                 "side)", out=no_out)
    expect_error("bad --ctrlrange",
                 ["export", "mujoco", "--params", params, "--kp", "100", "--ctrlrange", "2:1",
                  "--output", no_out],
                 "frictionlab: error: --ctrlrange: expected LO:HI with LO < HI [rad], got '2:1'",
                 out=no_out)
    expect_error("--form joint with an actuator",
                 ["export", "mujoco", "--params", params, "--kp", "100", "--form", "joint",
                  "--output", no_out],
                 "frictionlab: error: --form joint: only for a friction model; a fitted "
                 "actuator's forms are position and dcmotor", out=no_out)
    cv = os.path.join(cli.data, "coulomb_viscous.json")
    expect_error("--form position with a friction model",
                 ["export", "mujoco", "--params", cv, "--form", "position", "--output", no_out],
                 "frictionlab: error: --form position: only for a fitted actuator (a parameter "
                 "file, summary.json or output directory of fit-actuator); " + cv +
                 " is a friction model: dcmotor or joint", out=no_out)
    expect_error("--form dcmotor with a static model",
                 ["export", "mujoco", "--params", cv, "--form", "dcmotor", "--output", no_out],
                 "frictionlab: error: --form dcmotor: MuJoCo's dcmotor carries a lugre model; "
                 "'coulomb-viscous' is static: its form is the joint's frictionloss and damping "
                 "(--form joint)", out=no_out)
    p = run("export", "mujoco", "--params", os.path.join(cli.data, "lugre.json"), "--form",
            "joint")
    check("export mujoco --form joint of a lugre model: the joint's attributes",
          p.returncode == 0 and "frictionloss=" in p.stdout and "<dcmotor" not in p.stdout
          and "MuJoCo cannot represent: presliding" in p.stderr, p.stdout + p.stderr)
    empty = os.path.join(work, "empty_dir")
    os.makedirs(empty)
    expect_error("a directory without summary.json", ["export", "bam", "--params", empty],
                 f"frictionlab: error: {empty}: no summary.json in this directory (fit-actuator "
                 "writes one into --out); name a parameter file (m1.json .. m6.json) instead")
    # The friction path is unchanged.
    p = run("export", "mujoco", "--params", os.path.join(cli.data, "coulomb_viscous.json"))
    check("export mujoco of a friction model still works",
          p.returncode == 0 and "frictionloss" in p.stdout, p.stderr)

    if not os.path.isdir(shared):
        print("skipped: no shared data at " + shared)
        return cli.finish()

    # ---- a fit-actuator output directory ----
    fit = os.path.join(work, "fit")
    p = run("fit-actuator", "--logs", os.path.join(shared, "logs"), "--kp", "100,200",
            "--models", "m1,m3", "--validate", "kp=200", "--trials", "300", "--threads", "1",
            "--out", fit)
    check("fit-actuator (small)", p.returncode == 0, p.stderr)
    with open(os.path.join(fit, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    rec_file = os.path.join(fit, summary["recommended"] + ".json")
    with open(rec_file, encoding="utf-8") as f:
        rec = json.load(f)
    p = run("export", "mujoco", "--params", fit, "--kp", "200")
    check("export mujoco of a fit directory", p.returncode == 0, p.stderr)
    check_position(check, "fit directory (recommended " + summary["recommended"] + ")", p.stdout,
                   rec, 200, XL330_VIN)
    check("the comment names the recommended file and the summary",
          rec_file in p.stdout and os.path.join(fit, "summary.json") in p.stdout, p.stdout)
    check("q_offset noted", "MuJoCo cannot represent: q_offset = " in p.stderr
          or rec["q_offset"] == 0, p.stderr)
    bam = os.path.join(work, "bam.json")
    p = run("export", "bam", "--params", os.path.join(fit, "summary.json"), "--output", bam)
    check("export bam of a summary.json", p.returncode == 0 and os.path.exists(bam), p.stderr)
    if os.path.exists(bam):
        with open(bam, encoding="utf-8") as f:
            check("export bam: the recommended file's values", json.load(f) == rec)

    # ---- the reference M6 fit: every term noted ----
    m6 = os.path.join(shared, "reference_params", "m6.json")
    p = run("export", "mujoco", "--params", m6, "--kp", "100")
    notes = [l for l in p.stderr.splitlines() if l.startswith("frictionlab: warning: MuJoCo cannot")]
    check("reference m6: Stribeck, load, quadratic, q_offset noted", p.returncode == 0
          and [n.split("represent: ", 1)[1].split(" ")[0] for n in notes]
          == ["Stribeck", "load-dependent", "quadratic", "q_offset"], p.stderr)
    check("reference m6: the notes are in the comment",
          all(n.split("represent: ", 1)[1] in p.stdout for n in notes), p.stdout)

    # ---- --replay: the logs replayed in MuJoCo (a build without MuJoCo says so) ----
    p = run("export", "mujoco", "--params", m6, "--kp", "400", "--replay",
            os.path.join(shared, "logs"))
    if "built without MuJoCo" in p.stderr:
        check("--replay without MuJoCo: exit 1", p.returncode == 1, p.stderr)
        return cli.finish()
    line = [l for l in p.stderr.splitlines() if l.startswith("frictionlab: MuJoCo ")]
    numbers = [float(x.split(" rad")[0]) for x in line[0].split("fragment ")[1:2]
               + line[0].split("MuJoCo ")[2:3] + line[0].split("simulation ")[1:2]] if line else []
    check("--replay: one line with the three errors", p.returncode == 0 and "replay of 16 log(s)"
          in (line or [""])[0] and len(numbers) == 3, p.stderr)
    if len(numbers) == 3:
        exported, inside, own = numbers
        check("--replay of m6: the export loses, frictionlab inside MuJoCo keeps it",
              exported > 1.1 * own and abs(inside / own - 1) < 0.05, line[0])
    out, missing = os.path.join(work, "replay.xml"), os.path.join(work, "no_such_log.json")
    expect_error("--replay of a missing log", ["export", "mujoco", "--params", m6, "--kp", "400",
                                               "--output", out, "--replay", missing],
                 f"frictionlab: error: {missing}: cannot open: No such file or directory", out)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
