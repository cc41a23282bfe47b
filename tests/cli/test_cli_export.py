#!/usr/bin/env python3
"""frictionlab export c | json | mujoco end to end: ESTIMATOR.json round trip, the C pair, the
MJCF fragment's values, and the error paths (exit status 1, "frictionlab: error: ..." naming the
file and the key or parameter, nothing written)."""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402


def main():
    cli = Cli(timeout=60)
    data, work = cli.data, cli.work
    check, write, run, expect_error = cli.check, cli.write, cli.run, cli.expect_error

    fit = os.path.join(data, "sensorless_fit.json")
    joint = os.path.join(data, "joint_estimator.json")
    lugre = os.path.join(data, "lugre.json")

    # ---- json: from a fit.json, then round trip through ESTIMATOR.json ----
    est = os.path.join(work, "est.json")
    p = run("export", "json", "--params", fit, "--output", est)
    check("export json from fit.json", p.returncode == 0, p.stderr)
    with open(est, encoding="utf-8") as f:
        j = json.load(f)
    with open(fit, encoding="utf-8") as f:
        fj = json.load(f)
    check("ESTIMATOR.json keys in schema order",
          list(j) == ["format", "version", "source", "Km", "hold", "friction"], str(list(j)))
    check("ESTIMATOR.json values", j["format"] == "frictionlab-estimator" and j["version"] == 1
          and j["Km"] == fj["Km"] and j["hold"] == "linear"
          and j["friction"]["params"]["sigma0"] == fj["model"]["params"]["sigma0"], str(j))
    p2 = run("export", "json", "--params", est, "--hold", "zoh")
    j2 = json.loads(p2.stdout)
    check("ESTIMATOR.json round trip", p2.returncode == 0 and j2["friction"] == j["friction"]
          and j2["Km"] == j["Km"] and j2["hold"] == "zoh", p2.stdout + p2.stderr)
    p3 = run("export", "json", "--params", lugre, "--km", "0.25")
    check("export json from MODEL.json with --km",
          p3.returncode == 0 and json.loads(p3.stdout)["Km"] == 0.25, p3.stderr)

    # ---- c ----
    gen = os.path.join(work, "gen")
    p = run("export", "c", "--params", joint, "--name", "elbow", "--out", gen)
    h, c = os.path.join(gen, "elbow.h"), os.path.join(gen, "elbow.c")
    check("export c writes NAME.h and NAME.c", p.returncode == 0 and os.path.exists(h)
          and os.path.exists(c), p.stderr)
    if os.path.exists(c):
        with open(c, encoding="utf-8") as f:
            text = f.read()
        check("export c bakes the parameters in", "10000.0f, /* sigma0 */" in text
              and "0.180000007f, /* Fc_pos */" in text and "static FL_REAL fl_phi1" in text)
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc:
            q = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion",
                                "-Wdouble-promotion", "-Werror", "-c", c, "-o",
                                os.path.join(gen, "elbow.o")], capture_output=True, text=True)
            check("the exported C compiles warning-free (C99)", q.returncode == 0, q.stderr)

    # ---- mujoco ----
    p = run("export", "mujoco", "--params", fit, "--joint", "elbow", "--gear", "2")
    root = ET.fromstring("<r>" + p.stdout + "</r>") if p.returncode == 0 else None
    motor = root.find("actuator/dcmotor") if root is not None else None
    check("export mujoco lugre: a dcmotor", motor is not None, p.stdout + p.stderr)
    if motor is not None:
        lug = [float(x) for x in motor.get("lugre").split()]
        prm = fj["model"]["params"]
        check("dcmotor attributes", motor.get("joint") == "elbow" and motor.get("gear") == "2"
              and motor.get("input") == "none" and motor.get("motorconst") == "0"
              and abs(lug[0] - prm["sigma0"] / 2) < 1e-9 and abs(lug[1] - prm["sigma1"] / 2) < 1e-12
              and abs(lug[2] - (prm["Fc_pos"] + prm["Fc_neg"]) / 4) < 1e-12
              and abs(lug[3] - (prm["Fs_pos"] + prm["Fs_neg"]) / 4) < 1e-12
              and abs(lug[4] - prm["vs"] * 2 / 3.141592653589793 ** 0.5) < 1e-12
              and abs(float(motor.get("damping")) - prm["sigma2"] / 2) < 1e-12, ET.tostring(motor))
    check("export mujoco notes on stderr", "MuJoCo cannot represent: asymmetric levels" in p.stderr
          and "Stribeck exponential shape with alpha = 1" in p.stderr, p.stderr)
    p = run("export", "mujoco", "--params", os.path.join(data, "coulomb_viscous.json"))
    root = ET.fromstring("<r>" + p.stdout + "</r>") if p.returncode == 0 else None
    jel = root.find("joint") if root is not None else None
    check("export mujoco coulomb-viscous: joint frictionloss and damping", jel is not None
          and jel.get("frictionloss") == "1" and jel.get("damping") == "0.4", p.stdout + p.stderr)

    # ---- errors ----
    out = os.path.join(work, "out.json")
    expect_error("MODEL.json without --km", ["export", "json", "--params", lugre, "--output", out],
                 f"frictionlab: error: {lugre}: no Km in this MODEL.json (only a --problem "
                 "sensorless fit.json and an ESTIMATOR.json have one): give the torque constant "
                 "with --km", out)
    expect_error("not a lugre model", ["export", "c", "--params", os.path.join(data, "dahl.json"),
                                       "--km", "1", "--out", os.path.join(work, "nodir")],
                 f"frictionlab: error: {os.path.join(data, 'dahl.json')}: the estimator needs a "
                 "lugre model, got 'dahl' (MODEL.json)", os.path.join(work, "nodir"))
    expect_error("bad C name", ["export", "c", "--params", joint, "--name", "3joint", "--out",
                                os.path.join(work, "nodir")],
                 "frictionlab: error: '3joint' is not a C identifier (letters, digits and _, not "
                 "starting with a digit, not a keyword)", os.path.join(work, "nodir"))
    expect_error("C keyword as name", ["export", "c", "--params", joint, "--name", "float"],
                 "frictionlab: error: 'float' is not a C identifier (letters, digits and _, not "
                 "starting with a digit, not a keyword)")
    expect_error("--km not positive", ["export", "json", "--params", lugre, "--km", "-1"],
                 "frictionlab: error: --km: must be a number > 0, got -1", status=0)
    missing = os.path.join(work, "missing.json")
    expect_error("missing file", ["export", "json", "--params", missing],
                 f"frictionlab: error: {missing}: cannot open: No such file or directory")
    unknown = write("unknown.json", json.dumps({**j, "units": "Nm"}))
    expect_error("ESTIMATOR.json unknown key", ["export", "c", "--params", unknown],
                 f"frictionlab: error: {unknown}: key 'units': unknown key (allowed: format, "
                 "version, source, Km, hold, friction)")
    v2 = write("v2.json", json.dumps({**j, "version": 2}))
    expect_error("ESTIMATOR.json version", ["export", "json", "--params", v2],
                 f"frictionlab: error: {v2}: key 'version': unsupported estimator file version 2 "
                 "(this frictionlab reads 1)")
    badhold = write("badhold.json", json.dumps({**j, "hold": "cubic"}))
    expect_error("ESTIMATOR.json hold", ["export", "json", "--params", badhold],
                 f"frictionlab: error: {badhold}: key 'hold': expected \"linear\" or \"zoh\", got "
                 "\"cubic\"")
    nokm = write("nokm.json", json.dumps({k: v for k, v in j.items() if k != "Km"}))
    expect_error("ESTIMATOR.json without Km", ["export", "json", "--params", nokm],
                 f"frictionlab: error: {nokm}: key 'Km': missing")
    zero_km = write("zerokm.json", json.dumps({**j, "Km": 0}))
    expect_error("ESTIMATOR.json Km = 0", ["export", "c", "--params", zero_km],
                 f"frictionlab: error: {zero_km}: parameter 'Km': must be > 0, got 0")
    bad_s0 = write("bads0.json", json.dumps({**j, "friction": {"model": "lugre",
                                                               "params": {"sigma0": -5}}}))
    expect_error("ESTIMATOR.json bad friction parameter", ["export", "c", "--params", bad_s0],
                 f"frictionlab: error: {bad_s0}: friction: parameter 'sigma0': must be > 0, got -5")
    fmt = write("fmt.json", json.dumps({**j, "format": "something"}))
    expect_error("unknown format", ["export", "json", "--params", fmt],
                 f"frictionlab: error: {fmt}: key 'format': expected \"frictionlab-fit\" "
                 "(fit.json) or \"frictionlab-estimator\" (ESTIMATOR.json), got \"something\"")
    syntax = write("syntax.json", '{"format": "frictionlab-estimator",\n "version": 1,,}\n')
    p = run("export", "json", "--params", syntax)
    check("JSON syntax error names line and column", p.returncode == 1
          and f"frictionlab: error: {syntax}:2:" in p.stderr, p.stderr)
    expect_error("mujoco: no equivalent", ["export", "mujoco", "--params",
                                           os.path.join(data, "gms.json")],
                 "frictionlab: error: MuJoCo has no equivalent of the model 'gms': export a lugre "
                 "model (dcmotor actuator) or a static one (coulomb, viscous, coulomb-viscous, "
                 "stribeck: joint frictionloss and damping)")
    expect_error("mujoco: bad gear", ["export", "mujoco", "--params", fit, "--gear", "0"],
                 "frictionlab: error: --gear must be > 0, got 0")

    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
