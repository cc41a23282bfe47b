#!/usr/bin/env python3
"""End-to-end checks of `frictionlab fit-joint --load-dependent` and what reads its result.

A pendulum joint whose Coulomb level rises with the load (docs/models.md, "Load-dependent joint
friction": mu_drive = mu_back = MU), written as a CSV record from an analytic trajectory with the
torque the model needs to move along it (tau = r / (1 - MU) driven, r / (1 + MU) back-driven, r
the load-free torque):
1. `fit-joint --method idim --load-dependent` returns the truth to 1e-4 (the Savitzky-Golay
   derivatives of the sampled position are all that stand between the data and the model) with
   mu's interval around it; the load-free fit of the same record is worse in torque;
   joint_fit.json carries the joint's "load"; `eval-joint` with it reproduces the training errors;
   `--method oe --init idim --load-dependent` keeps the truth within 2e-3.
2. A record without back-driven motion (the joint on a horizontal axis pushed forward)
   gets mu held at 0 (fixed, undetermined) and a doubtful verdict saying why and what to record.
3. Refusals naming the option or the key: sr3 with --load-dependent; `export c` and
   `export mujoco` of a load-dependent joint.
Python standard library only.
"""
import csv
import math
import os
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
import cli_harness  # noqa: E402
import joint_cli  # noqa: E402
from cli_harness import run  # noqa: E402
from joint_cli import load_fit  # noqa: E402

TRUTH = {"I": 0.0626, "mgCx": 0.05, "mgCy": -1.0, "offset": -0.07, "Fv": 0.047, "Fc": 0.18,
         "mu": 0.08}


def applied(q, qd, qdd, pendulum=True):
    """The applied torque of the load-dependent joint TRUTH moving along (q, qd, qdd); without
    `pendulum`, a horizontal axis (no gravity) without offset."""
    sgn = (qd > 0) - (qd < 0)
    r = TRUTH["I"] * qdd + TRUTH["Fv"] * qd + TRUTH["Fc"] * sgn
    if pendulum:
        r += TRUTH["mgCx"] * math.cos(q) - TRUTH["mgCy"] * math.sin(q) + TRUTH["offset"]
    if sgn == 0:
        return r
    return r / (1 - TRUTH["mu"]) if r * qd > 0 else r / (1 + TRUTH["mu"])


def write_record(path, forward_only=False):
    w1, w2 = 2 * math.pi * 0.3, 2 * math.pi * 0.7
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "angle", "torque"])
        for k in range(4001):
            t = k * 1e-3
            if forward_only:  # a horizontal axis pushed forward at 1 rad/s +- 20 %: driven
                q = t - 0.2 / w1 * math.cos(w1 * t)
                qd, qdd = 1 + 0.2 * math.sin(w1 * t), 0.2 * w1 * math.cos(w1 * t)
            else:
                q = 0.8 * math.sin(w1 * t) + 0.4 * math.sin(w2 * t + 0.5) + 0.2
                qd = 0.8 * w1 * math.cos(w1 * t) + 0.4 * w2 * math.cos(w2 * t + 0.5)
                qdd = -0.8 * w1 * w1 * math.sin(w1 * t) - 0.4 * w2 * w2 * math.sin(w2 * t + 0.5)
            out.writerow([f"{t:.6f}", repr(q), repr(applied(q, qd, qdd, not forward_only))])


def check_recovery(a, rec, failures):
    base = [a.binary, "fit-joint", "--input", rec, "--time", "time", "--position", "angle",
            "--torque", "torque", "--no-plots"]
    out = os.path.join(a.work, "idim")
    run(base + ["--method", "idim", "--load-dependent", "--out", out])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    for name, true in TRUTH.items():
        print(f"idim {name}: {p[name]['value']:.8g} (truth {true:g})")
        if abs(p[name]["value"] - true) > 1e-4 * max(1.0, abs(true)):
            failures.append(f"idim: {name} = {p[name]['value']} differs from the truth {true}")
    mu = p["mu"]
    if not mu["ci95"][0] < mu["value"] < mu["ci95"][1]:
        failures.append(f"idim: mu's interval {mu['ci95']} does not hold its value")
    if fit["joint"].get("load") != {"mu_drive": mu["value"], "mu_back": mu["value"]}:
        failures.append(f"idim: joint_fit.json load is {fit['joint'].get('load')}")
    plain = os.path.join(a.work, "plain")
    run(base + ["--method", "idim", "--out", plain])
    fit_plain, _ = load_fit(os.path.join(plain, "joint_fit.json"))
    e_load = fit["training"]["torque"]["rel"]
    e_plain = fit_plain["training"]["torque"]["rel"]
    print(f"training torque error: load {e_load:.3g}, load-free {e_plain:.3g}")
    if not e_load < 0.5 * e_plain:
        failures.append(f"the load model's torque error {e_load} is not below the load-free "
                        f"{e_plain}")
    joint_cli.check_eval_reproduces(a, os.path.join(out, "joint_fit.json"), rec,
                                    ["--time", "time", "--position", "angle", "--torque",
                                     "torque"], os.path.join(a.work, "eval"), failures)
    out_oe = os.path.join(a.work, "oe")
    run(base + ["--method", "oe", "--init", "idim", "--load-dependent", "--out", out_oe])
    _, q = load_fit(os.path.join(out_oe, "joint_fit.json"))
    for name, true in TRUTH.items():
        print(f"oe {name}: {q[name]['value']:.8g} (truth {true:g})")
        if abs(q[name]["value"] - true) > 2e-3 * max(1.0, abs(true)):
            failures.append(f"oe: {name} = {q[name]['value']} differs from the truth {true}")
    return os.path.join(out, "joint_fit.json")


def check_undetermined(a, failures):
    rec = os.path.join(a.work, "forward.csv")
    write_record(rec, forward_only=True)
    out = os.path.join(a.work, "forward")
    run([a.binary, "fit-joint", "--input", rec, "--time", "time", "--position", "angle",
         "--torque", "torque", "--no-gravity", "--no-offset", "--method", "idim",
         "--load-dependent", "--out",
         out, "--no-plots"])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    if p["mu"]["value"] != 0 or not p["mu"]["undetermined"] or not p["mu"]["fixed"]:
        failures.append(f"forward-only record: mu {p['mu']}")
    verdict = fit["verdict"]
    reasons = [r for r in verdict["reasons"] if r["rule"] == "determined"]
    print(f"forward-only verdict: {verdict['line']}")
    if (verdict["grade"] != "doubtful" or not reasons or "mu is not determined" not in
            reasons[0]["text"] or "0 back-driven" not in reasons[0]["text"]):
        failures.append(f"forward-only record: verdict {verdict}")


def check_refusals(a, rec, fit_path, failures):
    p = run([a.binary, "fit-joint", "--input", rec, "--time", "time", "--position", "angle",
             "--torque", "torque", "--method", "sr3", "--load-dependent", "--out",
             os.path.join(a.work, "sr3")], expect_ok=False)
    if p.returncode == 0 or "load_dependent" not in p.stderr:
        failures.append(f"sr3 --load-dependent: status {p.returncode}, stderr {p.stderr!r}")
    for target in (["export", "c", "--params", fit_path, "--out", os.path.join(a.work, "c")],
                   ["export", "mujoco", "--params", fit_path, "--joint", "j",
                    "--output", os.path.join(a.work, "mj.xml")]):
        p = run([a.binary] + target, expect_ok=False)
        print(f"{' '.join(target[:2])}: {p.stderr.strip()}")
        if p.returncode == 0 or "joint: load" not in p.stderr or fit_path not in p.stderr:
            failures.append(f"{' '.join(target[:2])} of a load-dependent joint: status "
                            f"{p.returncode}, stderr {p.stderr!r}")


def main():
    a = cli_harness.parse_args(source=False)
    cli_harness.fresh_dir(a.work)
    rec = os.path.join(a.work, "joint.csv")
    write_record(rec)
    failures = []
    fit_path = check_recovery(a, rec, failures)
    check_undetermined(a, failures)
    check_refusals(a, rec, fit_path, failures)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
