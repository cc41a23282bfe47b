#!/usr/bin/env python3
"""End-to-end check of `frictionlab fit` against known truth.

`frictionlab demo` writes a sensorless-torque record simulated from documented true parameters
(Km = 2 Nm/A, Kw = 0.5, Fc = 1, Fs = 1.5, Vth = 0.1, S0 = 500, S1 = 0.5; 0.02 Nm torque noise)
and a validation record. `frictionlab fit` is then run on those CSV files (the command-line path
a user takes: CSV loading, checks, lsq, fit.json) and its fit.json is compared with the truth:
every estimate within 4 of its own standard errors, the 95 % interval containing the truth for
at least 5 of the 7 parameters, and a validation RMSE within 10 % of the noise level.
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
import cli_harness  # noqa: E402

TRUTH = {"Km": 2.0, "Kw": 0.5, "Fc": 1.0, "Fs": 1.5, "Vth": 0.1, "S0": 500.0, "S1": 0.5}
NOISE = 0.02


def main():
    a = cli_harness.parse_args(source=False)
    cli_harness.fresh_dir(a.work)
    demo = os.path.join(a.work, "demo")
    subprocess.run([a.binary, "demo", "--out", demo], check=True, stdout=subprocess.DEVNULL)
    out = os.path.join(a.work, "fit")
    p = subprocess.run([a.binary, "fit", "--problem", "sensorless",
                        "--input", os.path.join(demo, "sensorless_train.csv"),
                        "--time", "t", "--velocity", "velocity", "--current", "current",
                        "--force", "torque",
                        "--validate", os.path.join(demo, "sensorless_validation.csv"),
                        "--out", out], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr)
        return 1
    with open(os.path.join(out, "fit.json")) as f:
        fit = json.load(f)
    failures = []
    params = {e["name"]: e for e in fit["parameters"]}
    covered = 0
    for name, true in TRUTH.items():
        e = params[name]
        z = (e["value"] - true) / e["std_error"]
        lo, hi = e["ci95"]
        covered += lo <= true <= hi
        print(f"{name}: estimate {e['value']:.6g} truth {true:g} std error {e['std_error']:.3g} "
              f"({z:+.2f} std errors)")
        if abs(z) > 4:
            failures.append(f"{name} is {z:.1f} standard errors from the truth")
    if covered < 5:
        failures.append(f"the 95 % intervals contain the truth for only {covered} of 7")
    val = fit["validation"][0]["metrics"]["rmse"]
    print(f"validation RMSE {val:.5g} Nm (noise {NOISE} Nm)")
    if not val < 1.1 * NOISE:
        failures.append(f"validation RMSE {val} >= 1.1 x noise")
    if fit["model"]["model"] != "lugre" or fit["problem"] != "sensorless":
        failures.append("fit.json does not describe a sensorless LuGre fit")
    for f_ in failures:
        print("FAIL:", f_)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
