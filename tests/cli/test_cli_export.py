#!/usr/bin/env python3
"""frictionlab export c | json | mujoco end to end: ESTIMATOR.json round trip, the C pair, the
MJCF fragment's values, and the error paths (exit status 1, "frictionlab: error: ..." naming the
file and the key or parameter, nothing written).

A joint fit shipped like a fit: `fit-joint` on a synthetic joint record with Stribeck friction
(joint_stribeck_record.py), then export json / c / mujoco / xml of its joint_fit.json; every
output's numbers against the joint_fit.json's own (read here with json, mapped by the equations of
docs/joint-identification.md, "Shipping a joint fit"), the notes of what each target leaves out,
and the errors (a static idim friction for the estimator, a model-B joint-lugre, no --km)."""
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402
from joint_stribeck_record import write_record  # noqa: E402


def joint_fit_exports(cli):
    """fit-joint, then every export of its joint_fit.json (see the module's docstring)."""
    check, run, expect_error, work = cli.check, cli.run, cli.expect_error, cli.work
    rec = os.path.join(work, "joint_stribeck.csv")
    write_record(rec)
    channels = ["--input", rec, "--time", "time", "--position", "angle", "--torque", "torque",
                "--no-plots"]
    p = run("fit-joint", "--method", "sr3", "--delta", "1", "--viscous-powers", "1", *channels,
            "--out", os.path.join(work, "jsr3"))
    jf = os.path.join(work, "jsr3", "joint_fit.json")
    check("fit-joint sr3 for the export", p.returncode == 0 and os.path.exists(jf), p.stderr)
    if not os.path.exists(jf):
        return
    with open(jf, encoding="utf-8") as f:
        joint = json.load(f)["joint"]
    fr = joint["friction"]["params"]
    check("the joint fit has one Stribeck term and a linear viscous term",
          joint["friction"]["model"] == "joint-lugre" and len(fr["Fs"]) == 1
          and len(fr["cv"]) == 1 and fr["K"] == 0 and fr["delta"] == [1.0], str(joint))
    Fc, Fs, cv, vs = fr["Fc"], fr["Fc"] + fr["Fs"][0], fr["cv"][0], fr["Omega_s"]

    # json: the lugre set of the equations, Km from --km.
    p = run("export", "json", "--params", jf, "--km", "0.5")
    check("export json of a joint fit", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        e = json.loads(p.stdout)
        ep = e["friction"]["params"]
        check("ESTIMATOR.json of a joint fit: the joint's friction",
              e["Km"] == 0.5 and e["friction"]["model"] == "lugre" and ep["sigma0"] == fr["sigma0"]
              and ep["sigma1"] == fr["sigma1"] and ep["sigma2"] == cv and ep["Fc"] == Fc
              and ep["Fs"] == Fs and ep["vs"] == vs and ep["alpha"] == 1.0
              and ep["shape"] == "exponential" and ep["vd"] == 0.0, p.stdout)
        want = [f"frictionlab: warning: the estimator cannot represent: {w}" for w in
                ("inertia I = ", "gravity mgCx = ", "torque offset ")]
        lines = [l for l in p.stderr.splitlines() if "cannot represent" in l]
        check("export json: inertia, gravity, offset stated as not represented",
              len(lines) == 3 and all(l.startswith(w) for l, w in zip(lines, want)), p.stderr)

    # c: compiles, and states the same in the header.
    gen = os.path.join(work, "jgen")
    p = run("export", "c", "--params", jf, "--km", "0.5", "--name", "pend", "--out", gen)
    h = os.path.join(gen, "pend.h")
    check("export c of a joint fit", p.returncode == 0 and os.path.exists(h), p.stderr)
    if os.path.exists(h):
        with open(h, encoding="utf-8") as f:
            header = f.read()
        check("export c: the notes in the header", "Not represented (" in header
              and "- inertia I = " in header and "- torque offset " in header, header[:3000])
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc:
            q = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c",
                                os.path.join(gen, "pend.c"), "-o", os.path.join(gen, "pend.o")],
                               capture_output=True, text=True)
            check("the exported C of a joint fit compiles (C99)", q.returncode == 0, q.stderr)

    # mujoco: the dcmotor with the same values (exponent 1 -> vs of the same Stribeck dip area,
    # vs * Gamma(2) / (sqrt(pi)/2)), no armature, the notes in the comment and on stderr.
    p = run("export", "mujoco", "--params", jf, "--joint", "pend")
    root = ET.fromstring("<r>" + p.stdout + "</r>") if p.returncode == 0 else None
    motor = root.find("actuator/dcmotor") if root is not None else None
    check("export mujoco of a joint fit: a dcmotor", motor is not None, p.stdout + p.stderr)
    if motor is not None:
        lug = [float(x) for x in motor.get("lugre").split()]
        want = [fr["sigma0"], fr["sigma1"], Fc, Fs, vs * math.gamma(2.0) / (math.sqrt(math.pi) / 2)]
        check("export mujoco of a joint fit: lugre and damping",
              all(math.isclose(a, b, rel_tol=1e-5) for a, b in zip(lug, want))
              and math.isclose(float(motor.get("damping")), cv, rel_tol=1e-12),
              f"{lug} vs {want}, damping {motor.get('damping')}")
        check("export mujoco of a joint fit: no armature written, inertia in the notes",
              "armature=" not in p.stdout and "no armature is written" in p.stdout
              and "MuJoCo cannot represent: inertia I = " in p.stderr
              and "MuJoCo cannot represent: gravity mgCx = " in p.stderr, p.stdout + p.stderr)

    # xml: the nine values with --km (delta 1: the group's exponent).
    p = run("export", "xml", "--params", jf, "--km", "0.5")
    check("export xml of a joint fit", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        group = ET.fromstring(p.stdout[p.stdout.index("<group"):])
        vals = {e.get("name"): float(e.text) for e in group}
        check("export xml of a joint fit: the values",
              vals == {"Km": 0.5, "Kw": cv, "S0": fr["sigma0"], "S1": fr["sigma1"], "Vth": vs,
                       "Fc_pos": Fc, "Fc_neg": Fc, "Fs_pos": Fs, "Fs_neg": Fs}, str(vals))
        check("export xml of a joint fit: the notes",
              "Not represented:" in p.stdout
              and "the LUGRE group cannot represent: inertia I = " in p.stderr, p.stdout)

    # A static friction (idim): MuJoCo's joint frictionloss/damping; the estimator refuses it.
    p = run("fit-joint", "--method", "idim", *channels, "--out", os.path.join(work, "jidim"))
    ji = os.path.join(work, "jidim", "joint_fit.json")
    check("fit-joint idim", p.returncode == 0 and os.path.exists(ji), p.stderr)
    if os.path.exists(ji):
        with open(ji, encoding="utf-8") as f:
            sf = json.load(f)["joint"]["friction"]
        p = run("export", "mujoco", "--params", ji, "--joint", "pend")
        root = ET.fromstring("<r>" + p.stdout + "</r>") if p.returncode == 0 else None
        jel = root.find("joint") if root is not None else None
        check("export mujoco of an idim joint fit: frictionloss and damping",
              jel is not None and float(jel.get("frictionloss")) == sf["params"]["Fc"]
              and float(jel.get("damping")) == sf["params"]["sigma2"], p.stdout + p.stderr)
        expect_error("export c of a static joint fit",
                     ["export", "c", "--params", ji, "--km", "0.5", "--out",
                      os.path.join(work, "jidim_c")],
                     f"frictionlab: error: {ji}: the estimator needs a lugre model, got "
                     f"'{sf['model']}' (joint_fit.json, method idim; fit-joint --method sr3 or oe "
                     "--init sr3 fits a LuGre friction)",
                     out=os.path.join(work, "jidim_c", "joint_estimator.c"))

    # A model-B joint-lugre (tanh sign) has no lugre form: every export names file and model.
    with open(jf, encoding="utf-8") as f:
        b = json.load(f)
    b["joint"]["friction"]["params"]["K"] = 5
    jb = cli.write("joint_fit_model_b.json", json.dumps(b))
    for target in ("json", "mujoco"):
        expect_error(f"export {target} of a model-B joint fit",
                     ["export", target, "--params", jb, "--km", "0.5"] if target == "json"
                     else ["export", target, "--params", jb],
                     f"frictionlab: error: {jb}: joint: friction: the joint-lugre model of this "
                     "joint fit (method sr3) has no lugre equivalent, which every export needs: it "
                     "uses the smoothed sign tanh(K qd) with K = 5 s/rad (the paper's model B; "
                     "lugre has the exact sign): fit with --K 0")
    expect_error("export xml of a joint fit without --km", ["export", "xml", "--params", jf],
                 f"frictionlab: error: {jf}: the LUGRE group needs Km, which a joint fit does not "
                 "estimate (its torque is in N m): give the torque constant with --km")


def main():
    cli = Cli(timeout=60)
    work = cli.work
    check, write, run, expect_error = cli.check, cli.write, cli.run, cli.expect_error

    fit = cli.example("sensorless_fit.json")
    joint = cli.example("joint_estimator.json")
    lugre = cli.example("lugre.json")

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
    p = run("export", "mujoco", "--params", cli.example("coulomb_viscous.json"))
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
    expect_error("not a lugre model", ["export", "c", "--params", cli.example("dahl.json"),
                                       "--km", "1", "--out", os.path.join(work, "nodir")],
                 f"frictionlab: error: {cli.example('dahl.json')}: the estimator needs a "
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
                 "(fit.json), \"frictionlab-joint-fit\" (joint_fit.json), \"frictionlab-robot-fit\" "
                 "(robot_fit.json) or \"frictionlab-estimator\" (ESTIMATOR.json), got "
                 "\"something\"")
    syntax = write("syntax.json", '{"format": "frictionlab-estimator",\n "version": 1,,}\n')
    p = run("export", "json", "--params", syntax)
    check("JSON syntax error names line and column", p.returncode == 1
          and f"frictionlab: error: {syntax}:2:" in p.stderr, p.stderr)
    expect_error("mujoco: no equivalent", ["export", "mujoco", "--params",
                                           cli.example("gms.json")],
                 "frictionlab: error: MuJoCo has no equivalent of the model 'gms': export a lugre "
                 "model (dcmotor actuator) or a static one (coulomb, viscous, coulomb-viscous, "
                 "stribeck: joint frictionloss and damping)")
    expect_error("mujoco: bad gear", ["export", "mujoco", "--params", fit, "--gear", "0"],
                 "frictionlab: error: --gear must be > 0, got 0")

    joint_fit_exports(cli)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
