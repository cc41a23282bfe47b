#!/usr/bin/env python3
"""End-to-end checks of a temperature law and a load dependence on joint LuGre friction, laid
out as docs/joint-identification.md ("Temperature-dependent friction", "Load-dependent friction")
tells a user.

examples/data/joint_lugre_warming.csv is a pendulum joint with joint LuGre friction warming from
25 to 45 degC (its generator joint_lugre_warming.py beside it: the levels Fc, Fs at 35 degC
scaled by 1 + kT (T - 35), cv by 1 + kT_v (T - 35), kT = -0.012, kT_v = -0.02 1/K), and
examples/data/joint_lugre_pendulum.json the same joint at 35 degC without a law:
1. `fit-joint --method oe --init joint_lugre_pendulum.json --temperature temp --temperature-law
   linear` estimates kT and kT_v within 1 % of the truth; joint_fit.json carries the LuGre
   friction and the law; the simulated position error is below half the temperature-free oe's;
   `eval-joint --temperature temp` reproduces the training errors.
2. `--method oe --init sr3` with the law: sr3 selects a LuGre model at one temperature, oe adds
   the law: kT and kT_v within 10 % (sr3 selects another structure than the record's).
3. The record held at one temperature: kT and kT_v held at 0 (fixed, undetermined), the verdict
   doubtful saying what to record.
4. Refusals: sr3 alone with a law, `export c` of the joint; the joint fit seeds the adaptive
   estimator's kT (`export c --adaptive --temperature`); `eval-joint --mujoco` replays the record
   in MuJoCo with frictionlab's friction at the record's temperature inside it, near frictionlab's
   own simulation, where the exported form (held at T_ref) is far off.
5. examples/data/joint_lugre_load.csv (the same joint with the bristles' elastic force scaled by
   1 + mu |tau| / g, mu = 0.15, simulated by its generator's own Runge-Kutta method):
   `--method oe --init joint_lugre_pendulum.json --load-dependent` estimates mu within 1 % with
   its interval around the truth, a position error below 1/100 of the load-free oe's, and
   `eval-joint` reproduces the training errors; `export c` refuses the joint; `eval-joint
   --mujoco` replays it in MuJoCo with the load dependence inside, far nearer the record than the
   exported (load-free) form.
Python standard library only.
"""
import csv
import os
import re
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
import cli_harness  # noqa: E402
from joint_cli import (check_beats_plain, check_eval_reproduces, check_held_undetermined,  # noqa: E402
                       expect_refusal, load_fit, run)

ARGS = ["--time", "t", "--position", "q", "--torque", "tau"]
TRUTH = {"kT": -0.012, "kT_v": -0.02}


def fit_joint(a, rec, out, extra):
    run([a.binary, "fit-joint", "--input", rec, *ARGS, "--no-plots", "--out", out] + extra)
    return load_fit(os.path.join(out, "joint_fit.json"))


def check_law(label, p, tol, failures):
    for name, true in TRUTH.items():
        print(f"{label} {name}: {p[name]['value']:.6g} (truth {true:g})")
        if p[name]["fixed"] or abs(p[name]["value"] - true) > tol * abs(true):
            failures.append(f"{label}: {name} {p[name]} is not within {tol:g} of {true}")


def check_from_file(a, rec, start, failures):
    law = ["--method", "oe", "--init", start, "--temperature", "temp",
           "--temperature-law", "linear"]
    out = os.path.join(a.work, "oe")
    fit, p = fit_joint(a, rec, out, law)
    check_law("oe", p, 0.01, failures)
    joint = fit["joint"]
    if joint["friction"]["model"] != "joint-lugre" or joint.get("temperature", {}).get(
            "kT") != p["kT"]["value"]:
        failures.append(f"oe: joint_fit.json joint is {joint}")
    _, q = fit_joint(a, rec, os.path.join(a.work, "oe_plain"), ["--method", "oe", "--init", start])
    plain, _ = load_fit(os.path.join(a.work, "oe_plain", "joint_fit.json"))
    check_beats_plain("oe", fit, plain, "position", "temperature", failures)
    check_eval_reproduces(a, os.path.join(out, "joint_fit.json"), rec,
                          ARGS + ["--temperature", "temp"], os.path.join(a.work, "eval"),
                          failures)
    return os.path.join(out, "joint_fit.json")


def check_from_sr3(a, rec, failures):
    _, p = fit_joint(a, rec, os.path.join(a.work, "sr3"),
                     ["--method", "oe", "--init", "sr3", "--temperature", "temp",
                      "--temperature-law", "linear"])
    # sr3's structure (a cubic viscous series, no Stribeck term) is not the record's: measured
    # kT -2.2 %, kT_v +6.2 %.
    check_law("oe from sr3", p, 0.1, failures)


def check_one_temperature(a, rec, start, failures):
    flat = os.path.join(a.work, "one_temperature.csv")
    with open(rec, newline="") as f, open(flat, "w", newline="") as g:
        rows = list(csv.reader(f))
        out = csv.writer(g)
        out.writerow(rows[0])
        for r in rows[1:]:
            out.writerow(r[:3] + ["30.0"])
    fit, p = fit_joint(a, flat, os.path.join(a.work, "one"),
                       ["--method", "oe", "--init", start, "--temperature", "temp",
                        "--temperature-law", "linear", "--iterations", "3"])
    check_held_undetermined("one temperature", fit, p, ["kT", "kT_v"],
                            ["kT is not determined", "from a cold start"], failures)


def check_mujoco_replay(a, label, fit_path, rec, args, work, inside_max, failures):
    """`eval-joint --mujoco` of the joint fit `fit_path` on `rec`: its replay line's errors
    [rad]: frictionlab's friction inside MuJoCo below `inside_max` and a tenth of the exported
    form's (which cannot carry the dependence)."""
    p = run([a.binary, "eval-joint", "--joint", fit_path, "--input", rec, *args, "--mujoco",
             "--no-plots", "--out", work])
    m = re.search(r"the exported joint form \(([^)]*)\) ([0-9.e+-]+) rad, frictionlab's friction "
                  r"inside MuJoCo ([0-9.e+-]+) rad, frictionlab's own simulation ([0-9.e+-]+) rad",
                  p.stderr)
    if not m:
        failures.append(f"{label}: eval-joint --mujoco printed no replay line:\n{p.stderr}")
        return
    exported, inside, own = (float(m.group(i)) for i in (2, 3, 4))
    print(f"{label} MuJoCo replay: exported ({m.group(1)}) {exported:.3g} rad, inside "
          f"{inside:.3g} rad, own {own:.3g} rad")
    if not (inside < inside_max and inside < 0.1 * exported):
        failures.append(f"{label}: MuJoCo replay inside {inside} rad (exported {exported}, own "
                        f"{own})")


def check_refusals_and_seed(a, rec, fit_path, failures):
    expect_refusal(a, ["fit-joint", "--input", rec, *ARGS, "--no-plots", "--out",
                       os.path.join(a.work, "refused"), "--method", "sr3", "--temperature",
                       "temp", "--temperature-law", "linear"],
                   ["temperature_law", "sr3 alone", "--method oe --init sr3"], failures)
    expect_refusal(a, ["export", "c", "--params", fit_path, "--out", os.path.join(a.work, "c")],
                   ["joint: temperature", fit_path], failures)
    # measured: inside 0.00085 rad, own 0.00065 rad, exported 0.024 rad
    check_mujoco_replay(a, "temperature", fit_path, rec, ARGS + ["--temperature", "temp"],
                        os.path.join(a.work, "mj"), 0.002, failures)
    out = os.path.join(a.work, "adaptive")
    run([a.binary, "export", "c", "--params",
         os.path.join(a.source, "examples", "data", "sensorless_fit.json"), "--name", "joint3",
         "--adaptive", "--temperature", fit_path, "--temperature-ref", "35", "--out", out])
    with open(os.path.join(out, "joint3.c")) as f:
        code = f.read()
    if "kT" not in code:
        failures.append("export c --adaptive --temperature: no kT in joint3.c")


def check_load(a, start, failures):
    rec = os.path.join(a.source, "examples", "data", "joint_lugre_load.csv")
    out = os.path.join(a.work, "load")
    fit, p = fit_joint(a, rec, out, ["--method", "oe", "--init", start, "--load-dependent"])
    mu = p["mu"]
    print(f"oe load mu: {mu['value']:.6g} {mu['ci95']} (truth 0.15)")
    if (mu["fixed"] or abs(mu["value"] - 0.15) > 0.01 * 0.15
            or not mu["ci95"][0] <= 0.15 <= mu["ci95"][1]):
        failures.append(f"oe load: mu {mu} is not within 1 % of 0.15 with it in its interval")
    if fit["joint"].get("load") != {"mu_drive": mu["value"], "mu_back": mu["value"]}:
        failures.append(f"oe load: joint_fit.json load is {fit['joint'].get('load')}")
    plain, _ = fit_joint(a, rec, os.path.join(a.work, "load_plain"), ["--method", "oe", "--init",
                                                                     start])
    e, e_plain = fit["training"]["position"]["rel"], plain["training"]["position"]["rel"]
    print(f"oe load position error: {e:.3g}, load-free {e_plain:.3g}")
    if not e < 0.01 * e_plain:
        failures.append(f"oe load: position error {e} is not below 1/100 of the load-free "
                        f"{e_plain}")
    fit_path = os.path.join(out, "joint_fit.json")
    check_eval_reproduces(a, fit_path, rec, ARGS, os.path.join(a.work, "load_eval"), failures)
    expect_refusal(a, ["export", "c", "--params", fit_path, "--out", os.path.join(a.work, "c2")],
                   ["joint: load", fit_path, "inside MuJoCo"], failures)
    # measured: inside 0.0021 rad, own 0.00021 rad, exported 0.52 rad (MuJoCo's Euler step at
    # 1 ms: 0.00041 rad inside at --max-step 0.0002)
    check_mujoco_replay(a, "load", fit_path, rec, ARGS, os.path.join(a.work, "load_mj"), 0.005,
                        failures)


def main():
    a = cli_harness.start(source=True)
    data = os.path.join(a.source, "examples", "data")
    rec = os.path.join(data, "joint_lugre_warming.csv")
    start = os.path.join(data, "joint_lugre_pendulum.json")
    failures = []
    fit_path = check_from_file(a, rec, start, failures)
    check_from_sr3(a, rec, failures)
    check_one_temperature(a, rec, start, failures)
    check_refusals_and_seed(a, rec, fit_path, failures)
    check_load(a, start, failures)
    return cli_harness.exit_status(failures)


if __name__ == "__main__":
    sys.exit(main())
