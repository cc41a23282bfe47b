#!/usr/bin/env python3
"""End-to-end checks of `frictionlab fit-joint --temperature-law` and what reads its result.

A pendulum joint whose friction levels fall as it warms (docs/models.md, "Temperature-dependent
friction": the Coulomb level scaled by 1 + kT (T - T_ref), the viscous term by
1 + kT_v (T - T_ref)), written as a CSV record with a temperature column `temp` [degC] rising
from 25 to 45 degC, from an analytic trajectory with the torque the model needs:
1. `fit-joint --method idim --temperature temp --temperature-law linear --temperature-ref 35`
   returns the truth to 1e-4 with kT's interval around it; the temperature-free fit of the same
   record is worse in torque; joint_fit.json carries the joint's "temperature"; `eval-joint`
   with it and `--temperature temp` reproduces the training errors.
2. A record at one temperature gets kT and kT_v held at 0 (fixed, undetermined) and a doubtful
   verdict saying why and what to record.
3. Refusals naming the option, the file or the key: a law without a column, a column without a
   law, eval-joint without the column (or with it for a temperature-free joint), sr3 alone with
   a law, `export c` of a temperature-dependent joint, a temperature below absolute zero.
4. `--method oe --init idim` refines kT and kT_v (within 2 % of the truth) on the simulated
   motion (oe from sr3, LuGre with a law: test_cli_joint_lugre_dependences.py).
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
         "kT": -0.012, "kT_v": -0.02}
T_REF = 35.0


def applied(q, qd, qdd, temp):
    """The applied torque of the joint TRUTH moving along (q, qd, qdd) at `temp` degC."""
    sgn = (qd > 0) - (qd < 0)
    dT = temp - T_REF
    return (TRUTH["I"] * qdd + TRUTH["mgCx"] * math.cos(q) - TRUTH["mgCy"] * math.sin(q)
            + TRUTH["offset"] + (1 + TRUTH["kT_v"] * dT) * TRUTH["Fv"] * qd
            + (1 + TRUTH["kT"] * dT) * TRUTH["Fc"] * sgn)


def write_record(path, t0=25.0, t1=45.0, cold_sample=None):
    n = 6000
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "angle", "torque", "temp"])
        for k in range(n + 1):
            t = k * 1e-3
            q, qd, qdd = trajectory(t)
            temp = t0 + (t1 - t0) * k / n
            written = -300.0 if k == cold_sample else temp
            out.writerow([f"{t:.6f}", repr(q), repr(applied(q, qd, qdd, temp)), repr(written)])


def check_recovery(a, rec, failures):
    out = os.path.join(a.work, "idim")
    fit_joint(a, rec, out, ["--temperature", "temp", "--temperature-law", "linear",
                            "--temperature-ref", str(T_REF)])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    check_truth("idim", values(p), TRUTH, 1e-4, failures)
    kT = p["kT"]
    if not kT["ci95"][0] < kT["value"] < kT["ci95"][1] or kT["unit"] != "1/K":
        failures.append(f"idim: kT {kT}")
    expected = {"law": "linear", "T_ref": T_REF, "kT": kT["value"], "kT_v": p["kT_v"]["value"]}
    if fit["joint"].get("temperature") != expected:
        failures.append(f"idim: joint_fit.json temperature is {fit['joint'].get('temperature')}")
    plain = os.path.join(a.work, "plain")
    fit_joint(a, rec, plain, [])
    fit_plain, _ = load_fit(os.path.join(plain, "joint_fit.json"))
    check_beats_plain("training", fit, fit_plain, "torque", "temperature", failures)
    check_eval_reproduces(a, os.path.join(out, "joint_fit.json"), rec,
                          RECORD_ARGS + ["--temperature", "temp"], os.path.join(a.work, "eval"),
                          failures)
    return os.path.join(out, "joint_fit.json"), os.path.join(plain, "joint_fit.json")


def check_undetermined(a, failures):
    rec = os.path.join(a.work, "one_temperature.csv")
    write_record(rec, 30.0, 30.4)
    out = os.path.join(a.work, "one_temperature")
    fit_joint(a, rec, out, ["--temperature", "temp", "--temperature-law", "exponential"])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    check_held_undetermined("one temperature", fit, p, ["kT", "kT_v"],
                            ["kT is not determined", "from a cold start"], failures)


def check_oe(a, rec, failures):
    """oe started from idim refines kT and kT_v on the simulated motion of the whole record
    (steps of 0.2 ms: the record is exact in continuous time, and the 1 ms steps' own error of
    the simulation would move kT by 5 %)."""
    out = os.path.join(a.work, "oe")
    fit_joint(a, rec, out, ["--temperature", "temp", "--temperature-law", "linear",
                            "--temperature-ref", str(T_REF), "--method", "oe", "--init", "idim",
                            "--segment", "0", "--max-step", "0.0002"])
    fit, p = load_fit(os.path.join(out, "joint_fit.json"))
    for name in ("kT", "kT_v", "Fc", "Fv"):
        print(f"oe {name}: {p[name]['value']:.8g} (truth {TRUTH[name]:g})")
        if p[name]["fixed"] or abs(p[name]["value"] - TRUTH[name]) > 0.02 * abs(TRUTH[name]):
            failures.append(f"oe: {name} {p[name]} is not within 2 % of the truth {TRUTH[name]}")
    if fit["joint"].get("temperature", {}).get("kT") != p["kT"]["value"]:
        failures.append(f"oe: joint_fit.json temperature is {fit['joint'].get('temperature')}")
    plain = os.path.join(a.work, "oe_plain")
    fit_joint(a, rec, plain, ["--method", "oe", "--init", "idim", "--segment", "0",
                              "--max-step", "0.0002"])
    fit_plain, _ = load_fit(os.path.join(plain, "joint_fit.json"))
    check_beats_plain("oe", fit, fit_plain, "position", "temperature", failures)


def check_refusals(a, rec, fit_path, plain_path, failures):
    base = ["fit-joint", "--input", rec, *RECORD_ARGS, "--no-plots", "--out",
            os.path.join(a.work, "refused")]
    expect_refusal(a, base + ["--temperature-law", "linear"],
                   ["--temperature-law needs --temperature COLUMN"], failures)
    expect_refusal(a, base + ["--temperature", "temp"], ["add --temperature-law"], failures)
    expect_refusal(a, base + ["--temperature", "temp", "--temperature-law", "linear", "--method",
                              "sr3"], ["temperature_law", "sr3 alone", "--method oe --init sr3"],
                   failures)
    expect_refusal(a, base + ["--temperature", "temp", "--temperature-law", "linear",
                              "--temperature-ref", "-300"], ["--temperature-ref"], failures)
    ev = ["eval-joint", "--input", rec, *RECORD_ARGS, "--no-plots", "--out",
          os.path.join(a.work, "refused_eval")]
    expect_refusal(a, ev + ["--joint", fit_path], [fit_path, "--temperature COLUMN"], failures)
    expect_refusal(a, ev + ["--joint", plain_path, "--temperature", "temp"],
                   ["has no temperature dependence"], failures)
    expect_refusal(a, ["export", "c", "--params", fit_path, "--out", os.path.join(a.work, "c")],
                   ["joint: temperature", fit_path], failures)
    cold = os.path.join(a.work, "cold.csv")
    write_record(cold, cold_sample=10)
    expect_refusal(a, ["fit-joint", "--input", cold, *RECORD_ARGS, "--temperature", "temp",
                       "--temperature-law", "linear", "--no-plots", "--out",
                       os.path.join(a.work, "cold")],
                   [cold, "sample 11", "below absolute zero"], failures)


def main():
    a = cli_harness.start()
    rec = os.path.join(a.work, "warming.csv")
    write_record(rec)
    failures = []
    fit_path, plain_path = check_recovery(a, rec, failures)
    check_undetermined(a, failures)
    check_refusals(a, rec, fit_path, plain_path, failures)
    check_oe(a, rec, failures)
    return cli_harness.exit_status(failures)


if __name__ == "__main__":
    sys.exit(main())
