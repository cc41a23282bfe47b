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
from joint_cli import (RECORD_ARGS, check_beats_plain, check_eval_reproduces,  # noqa: E402
                       check_held_undetermined, check_truth, expect_refusal, fit_joint, load_fit,
                       trajectory, values)

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
    w1 = 2 * math.pi * 0.3
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "angle", "torque"])
        for k in range(4001):
            t = k * 1e-3
            if forward_only:  # a horizontal axis pushed forward at 1 rad/s +- 20 %: driven
                q = t - 0.2 / w1 * math.cos(w1 * t)
                qd, qdd = 1 + 0.2 * math.sin(w1 * t), 0.2 * w1 * math.cos(w1 * t)
            else:
                q, qd, qdd = trajectory(t)
            out.writerow([f"{t:.6f}", repr(q), repr(applied(q, qd, qdd, not forward_only))])


def check_recovery(a, rec, failures):
    out = os.path.join(a.work, "idim")
    fit_joint(a, rec, out, ["--method", "idim", "--load-dependent"])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    check_truth("idim", values(p), TRUTH, 1e-4, failures)
    mu = p["mu"]
    if not mu["ci95"][0] < mu["value"] < mu["ci95"][1]:
        failures.append(f"idim: mu's interval {mu['ci95']} does not hold its value")
    if fit["joint"].get("load") != {"mu_drive": mu["value"], "mu_back": mu["value"]}:
        failures.append(f"idim: joint_fit.json load is {fit['joint'].get('load')}")
    plain = os.path.join(a.work, "plain")
    fit_joint(a, rec, plain, ["--method", "idim"])
    fit_plain, _ = load_fit(os.path.join(plain, "joint_fit.json"))
    check_beats_plain("training", fit, fit_plain, "torque", "load", failures)
    check_eval_reproduces(a, os.path.join(out, "joint_fit.json"), rec, RECORD_ARGS,
                          os.path.join(a.work, "eval"), failures)
    out_oe = os.path.join(a.work, "oe")
    fit_joint(a, rec, out_oe, ["--method", "oe", "--init", "idim", "--load-dependent"])
    _, q = load_fit(os.path.join(out_oe, "joint_fit.json"))
    check_truth("oe", values(q), TRUTH, 2e-3, failures)
    return os.path.join(out, "joint_fit.json")


def check_undetermined(a, failures):
    rec = os.path.join(a.work, "forward.csv")
    write_record(rec, forward_only=True)
    out = os.path.join(a.work, "forward")
    fit_joint(a, rec, out, ["--no-gravity", "--no-offset", "--method", "idim",
                            "--load-dependent"])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    check_held_undetermined("forward-only record", fit, p, ["mu"],
                            ["mu is not determined", "0 back-driven"], failures)


def check_refusals(a, rec, fit_path, failures):
    expect_refusal(a, ["fit-joint", "--input", rec, *RECORD_ARGS, "--method", "sr3",
                       "--load-dependent", "--out", os.path.join(a.work, "sr3")],
                   ["load_dependent"], failures)
    for target in (["export", "c", "--params", fit_path, "--out", os.path.join(a.work, "c")],
                   ["export", "mujoco", "--params", fit_path, "--joint", "j",
                    "--output", os.path.join(a.work, "mj.xml")]):
        expect_refusal(a, target, ["joint: load", fit_path], failures)


def main():
    a = cli_harness.start()
    rec = os.path.join(a.work, "joint.csv")
    write_record(rec)
    failures = []
    fit_path = check_recovery(a, rec, failures)
    check_undetermined(a, failures)
    check_refusals(a, rec, fit_path, failures)
    return cli_harness.exit_status(failures)


if __name__ == "__main__":
    sys.exit(main())
