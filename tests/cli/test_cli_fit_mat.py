#!/usr/bin/env python3
"""`fit` and `compare` on MATLAB .mat records in reference 000's layout.

`frictionlab demo` writes a sensorless-torque record (t, current, velocity, torque) as CSV. The
same numbers are written here with scipy.io.savemat as a 4xN and an Nx4 matrix, read through
`--matrix data` and through the one-variable fallback (no channel option, the file holds one
matrix), and as named vectors with the default time variable `t`. Each `.mat` run must give the
parameters, metrics and ranking of the same command on the CSV file exactly (the numbers are the
same doubles). `--time t` given together with `--matrix` stays an error: a user's choice of both
layouts, unlike the default of --time.
"""
import csv
import json
import os
import sys

import numpy as np
import scipy.io

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402

CHANNELS = ["--velocity", "velocity", "--current", "current", "--force", "torque"]
MODELS = "coulomb-viscous,stribeck"


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    names = rows[0]
    cols = np.array([[float(x) for x in r] for r in rows[1:]]).T
    return {n: cols[k] for k, n in enumerate(names)}


def matrix(rec):
    return np.vstack([rec["t"], rec["current"], rec["velocity"], rec["torque"]])


def fit_numbers(fit):
    """What a fit must reproduce: every parameter, the training metrics, AICc, BIC and each
    validation record's metrics (its file name differs between the runs)."""
    return {"parameters": [(p["name"], p["value"], p["std_error"]) for p in fit["parameters"]],
            "training": fit["training"], "aicc": fit["aicc"], "bic": fit["bic"],
            "validation": [v["metrics"] for v in fit["validation"]]}


def compare_numbers(c):
    return {"best": c["best"], "best_by_criterion": c["best_by_criterion"],
            "rows": [(r["rank"], r["model"], r["training_rmse"], r["validation_rmse"], r["aicc"],
                      r["bic"], r["delta"], fit_numbers(r["fit"])) for r in c["rows"]]}


def main():
    cli = Cli(timeout=600)
    work, check, run, expect_error = cli.work, cli.check, cli.run, cli.expect_error

    demo = os.path.join(work, "demo")
    p = run("demo", "--out", demo)
    check("demo writes the record", p.returncode == 0, p.stderr)
    if p.returncode != 0:
        return cli.finish()
    train_csv = os.path.join(demo, "sensorless_train.csv")
    val_csv = os.path.join(demo, "sensorless_validation.csv")
    train, val = read_csv(train_csv), read_csv(val_csv)
    m, mv = matrix(train), matrix(val)
    check("the record is 4xN with N > 4", m.shape[0] == 4 and m.shape[1] > 4, str(m.shape))

    def savemat(name, variables):
        path = os.path.join(work, name)
        scipy.io.savemat(path, variables)
        return path

    mats = {
        "--matrix data, 4xN": (savemat("data_4xN.mat", {"data": m}), ["--matrix", "data"],
                               savemat("val_4xN.mat", {"data": mv})),
        "--matrix data, Nx4": (savemat("data_Nx4.mat", {"data": m.T}), ["--matrix", "data"],
                               savemat("val_Nx4.mat", {"data": mv.T})),
        "one variable, 4xN": (savemat("one_4xN.mat", {"rec": m}), [],
                              savemat("one_val_4xN.mat", {"anything": mv})),
        "one variable, Nx4": (savemat("one_Nx4.mat", {"rec": m.T}), [],
                              savemat("one_val_Nx4.mat", {"rec": mv.T})),
        "named vectors, default --time": (
            savemat("named.mat", {k: train[k].reshape(-1, 1) for k in train}), CHANNELS,
            savemat("named_val.mat", {k: val[k].reshape(1, -1) for k in val})),
    }

    def run_json(name, argv, out, file):
        p = run(*argv, "--out", out)
        ok = p.returncode == 0 and os.path.exists(os.path.join(out, file))
        check(name + " runs", ok, f"argv: {argv}\nexit {p.returncode}\n{p.stderr}")
        if not ok:
            return None
        with open(os.path.join(out, file)) as f:
            return json.load(f)

    common = ["--problem", "sensorless"]
    ref_fit = run_json("fit on the CSV", ["fit", *common, "--input", train_csv, *CHANNELS,
                                          "--validate", val_csv, "--no-plots"],
                       os.path.join(work, "fit_csv"), "fit.json")
    ref_cmp = run_json("compare on the CSV", ["compare", *common, "--input", train_csv,
                                              *CHANNELS, "--validate", val_csv, "--models",
                                              MODELS], os.path.join(work, "compare_csv"),
                       "compare.json")
    if ref_fit is None or ref_cmp is None:
        return cli.finish()
    check("the CSV fit is a sensorless LuGre fit with a validation record",
          ref_fit["problem"] == "sensorless" and ref_fit["model"]["model"] == "lugre" and
          len(ref_fit["validation"]) == 1 and
          sum(not p["fixed"] for p in ref_fit["parameters"]) == 7,
          json.dumps(ref_fit)[:2000])

    for k, (name, (path, opts, vpath)) in enumerate(mats.items()):
        f = run_json(f"fit, {name}", ["fit", *common, "--input", path, *opts, "--validate",
                                      vpath, "--no-plots"], os.path.join(work, f"fit_{k}"),
                     "fit.json")
        if f is not None:
            check(f"fit, {name}: the CSV fit's parameters and metrics",
                  fit_numbers(f) == fit_numbers(ref_fit),
                  f"{fit_numbers(f)}\n!=\n{fit_numbers(ref_fit)}")
            check(f"fit, {name}: input and validation named", f["input"] == path and
                  f["validation"][0]["file"] == vpath, f"{f['input']} {f['validation']}")
        c = run_json(f"compare, {name}", ["compare", *common, "--input", path, *opts,
                                          "--validate", vpath, "--models", MODELS],
                     os.path.join(work, f"compare_{k}"), "compare.json")
        if c is not None:
            check(f"compare, {name}: the CSV comparison's ranking and numbers",
                  compare_numbers(c) == compare_numbers(ref_cmp),
                  f"{compare_numbers(c)}\n!=\n{compare_numbers(ref_cmp)}")

    # An explicit --time is a choice of the named layout: with --matrix it is still an error.
    path = mats["--matrix data, 4xN"][0]
    out = os.path.join(work, "both")
    for cmd in ("fit", "compare"):
        expect_error(f"{cmd}: --time given with --matrix",
                     [cmd, *common, "--input", path, "--matrix", "data", "--time", "t", "--out",
                      out],
                     "frictionlab: error: give either a matrix variable ('data') or variable "
                     f"names per channel for {path}, not both", out)
    # Without --matrix and with more than one variable, the file needs names.
    two = savemat("two.mat", {"a": m, "b": m})
    expect_error("fit: two variables, no channel named",
                 ["fit", *common, "--input", two, "--out", out],
                 f"frictionlab: error: {two}: give the variable names of the channels or the "
                 "matrix variable (variables found: a, b)", out)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
