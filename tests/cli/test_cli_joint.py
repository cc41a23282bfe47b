#!/usr/bin/env python3
"""End-to-end checks of `frictionlab fit-joint` and `frictionlab eval-joint`.

1. A Coulomb + viscous pendulum joint with gravity and an offset, written as a CSV record from an
   analytic trajectory (q(t) a sum of sines, qd and qdd exact, tau from the equation of motion):
   `fit-joint --method idim` must return the truth to 1e-4 (only the Savitzky-Golay derivatives
   of the sampled position stand between the data and the exact regression; measured: 1.1e-5 on
   I, 4e-5 on mgCy), `--method oe --init idim` must stay within 2e-3 (its simulation of static
   friction is the first-order Moreau step at --max-step 1 ms: measured 6e-4 on Fv), and
   `eval-joint` with the written joint_fit.json must reproduce fit-joint's training errors
   exactly.
   `--method oe --init idim --closed-loop --desired D.csv`: the record is also given as the
   output of a PD controller (desired trajectory = the motion plus a 1.7 Hz offset, feedforward
   chosen so that the law holds exactly): the fitted gains must be the ones used (1e-3) and
   the closed-loop oe must keep the truth within 2e-3.
2. The torque given as a command with a gain (--command, --gain) gives the same fit.
   `--method sr3` (no --validate: AIC on held-out training blocks) must select the true terms
   (qdd, cos q, sin q, 1, qd, sgn qd) and return the rigid body to 1e-3 and Fc, cv[0] to 2 %
   (its LuGre stands in for Coulomb friction: sigma0 z approaches Fc sgn(qd) within
   Fc / sigma0 of a reversal; measured 0.5 % on Fc, 1 % on cv[0]) and write its tables;
   `--diff tvreg --reintegrate --trim 0.3` (TV-regularised derivatives, q and qd re-integrated)
   must keep idim within 2e-3 (the regularisation bias on noise-free data; measured 6e-4).
3. Error paths: exit status 1 (CLI11's own status for a missing option) and messages naming the
   file / option.
Python standard library only.
"""
import csv
import json
import math
import os
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
import cli_harness  # noqa: E402
from cli_harness import run  # noqa: E402
from joint_cli import (RECORD_ARGS, check_eval_reproduces, check_truth, load_fit,  # noqa: E402
                       trajectory, values)

TRUTH = {"I": 0.0626, "mgCx": 0.05, "mgCy": -1.0, "offset": -0.07, "Fv": 0.047, "Fc": 0.18}
GAIN = 0.5


KP, KD = 15.0, 0.8


def sample(k):
    """The analytic trajectory at sample k (1 kHz): t, q, qd and the torque of the Coulomb +
    viscous joint TRUTH along it (from the equation of motion)."""
    t = k * 1e-3
    q, qd, qdd = trajectory(t)
    sgn = (qd > 0) - (qd < 0)
    tau = (TRUTH["I"] * qdd + TRUTH["mgCx"] * math.cos(q) - TRUTH["mgCy"] * math.sin(q)
           + TRUTH["offset"] + TRUTH["Fv"] * qd + TRUTH["Fc"] * sgn)
    return t, q, qd, tau


def write_desired(path):
    """The desired trajectory of a PD controller that would have produced the record exactly:
    q_des = q + e, qd_des = qd + e', tau_ff = tau - KP e - KD e' with e = 0.02 sin(2 pi 1.7 t),
    so that tau = tau_ff + KP (q_des - q) + KD (qd_des - qd) at every sample."""
    w3 = 2 * math.pi * 1.7
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "position", "velocity", "torque"])
        for k in range(4001):
            t, q, qd, tau = sample(k)
            e, ed = 0.02 * math.sin(w3 * t), 0.02 * w3 * math.cos(w3 * t)
            out.writerow([f"{t:.6f}", repr(q + e), repr(qd + ed), repr(tau - KP * e - KD * ed)])


def write_record(path):
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "angle", "torque", "command"])
        for k in range(4001):
            t, q, _, tau = sample(k)
            out.writerow([f"{t:.6f}", repr(q), repr(tau), repr(tau / GAIN)])


def params(path):
    """The joint_fit.json at `path` and its parameter values by name."""
    fit, p = load_fit(path)
    return fit, values(p)


RELIABILITY_KEYS = ["standard_errors_reliable", "reasons", "residual_acf1", "ljung_box_q",
                    "ljung_box_p", "ljung_box_lags", "hac_lags", "hac_ratio_max"]


def check_oe_reliability(fit, stdout):
    """joint_fit.json of an oe run that kept its result: method_details.oe.reliability has the
    keys of idim's, the top-level reliability is the same object, every estimated parameter has
    a Newey-West standard error and an interval from the same t quantile as the white-noise
    one; the table shows the HAC column and the residual line."""
    bad = []
    oe = fit["method_details"]["oe"]
    rel = oe.get("reliability")
    if rel is None or list(rel.keys()) != RELIABILITY_KEYS:
        return [f"oe: method_details.oe.reliability is {rel!r}, expected the keys {RELIABILITY_KEYS}"]
    print(f"oe reliability: {rel}")
    if not oe["kept_start"] and fit.get("reliability") != rel:
        bad.append("oe: the top-level reliability is not oe's")
    if not 0 <= rel["ljung_box_p"] <= 1 or rel["ljung_box_lags"] != 20 or not rel["hac_lags"] >= 1:
        bad.append(f"oe: implausible whiteness / bandwidth {rel}")
    if rel["standard_errors_reliable"] != (len(rel["reasons"]) == 0):
        bad.append("oe: standard_errors_reliable disagrees with the reasons")
    for e in fit["parameters"]:
        if e["fixed"]:
            continue
        se, hac = e["std_error"], e["hac_std_error"]
        if not (isinstance(hac, float) and hac > 0 and se > 0):
            bad.append(f"oe: {e['name']}: hac_std_error {hac!r}, std_error {se!r}")
            continue
        t_white = (e["ci95"][1] - e["value"]) / se
        t_hac = (e["hac_ci95"][1] - e["value"]) / hac
        if abs(t_white - t_hac) > 1e-6 * t_white or abs(t_white - 1.96) > 0.01:
            bad.append(f"oe: {e['name']}: interval quantiles {t_white} (white) / {t_hac} (HAC)")
    if "HAC std. err" not in stdout or "residuals: lag-1 autocorrelation" not in stdout:
        bad.append("oe: the table lacks the HAC column or the residual line:\n" + stdout)
    if not rel["standard_errors_reliable"] and "standard errors UNRELIABLE" not in stdout:
        bad.append("oe: unreliable standard errors not shown in the table")
    return bad


def main():
    a = cli_harness.start()
    rec = os.path.join(a.work, "joint.csv")
    write_record(rec)
    failures = []
    base = [a.binary, "fit-joint", "--input", rec, *RECORD_ARGS[:4]]

    # 1. idim recovers the truth.
    out = os.path.join(a.work, "idim")
    run(base + ["--torque", "torque", "--method", "idim", "--out", out])
    fit, p = params(os.path.join(out, "joint_fit.json"))
    check_truth("idim", p, TRUTH, 1e-4, failures)
    joint = fit["joint"]
    if joint["friction"]["model"] != "coulomb-viscous":
        failures.append("idim: joint_fit.json friction is not coulomb-viscous")
    for f_ in ("joint_fit.json", "prediction_joint.csv", "prediction_joint.svg",
               "static_curve.csv", "static_curve.svg"):
        if not os.path.exists(os.path.join(out, f_)):
            failures.append(f"idim: {f_} not written")
    train = fit["training"]
    print(f"idim training errors: {train}")
    if not train["torque"]["rel"] < 1e-3:
        failures.append(f"idim: training torque error {train['torque']['rel']} >= 1e-3")

    # eval-joint reproduces the training errors of fit-joint.
    check_eval_reproduces(a, os.path.join(out, "joint_fit.json"), rec, RECORD_ARGS,
                          os.path.join(a.work, "eval"), failures)

    # oe started from idim keeps the truth.
    out_oe = os.path.join(a.work, "oe")
    p_oe = run(base + ["--torque", "torque", "--method", "oe", "--init", "idim", "--out", out_oe,
                       "--no-plots"])
    fit_oe, q = params(os.path.join(out_oe, "joint_fit.json"))
    check_truth("oe", q, TRUTH, 2e-3, failures)
    failures += check_oe_reliability(fit_oe, p_oe.stdout)

    # oe in closed loop: the controller fitted from the desired record, the joint simulated
    # under it; the truth is kept as in open loop.
    des = os.path.join(a.work, "desired.csv")
    write_desired(des)
    out_cl = os.path.join(a.work, "oe_cl")
    run(base + ["--torque", "torque", "--method", "oe", "--init", "idim", "--closed-loop",
                "--desired", des, "--out", out_cl, "--no-plots"])
    fit_cl, q = params(os.path.join(out_cl, "joint_fit.json"))
    ctrl = fit_cl["method_details"]["oe"]["controller"]
    print(f"closed-loop controller: {ctrl}")
    for name, true in (("kp", KP), ("kd", KD), ("kff", 1.0)):
        if abs(ctrl[name] - true) > 1e-3 * true:
            failures.append(f"closed loop: controller {name} = {ctrl[name]}, made with {true}")
    check_truth("oe closed loop", q, TRUTH, 2e-3, failures)

    # The same with the gains given in a CONTROLLER.json.
    ctrl_file = os.path.join(a.work, "controller.json")
    with open(ctrl_file, "w") as f:
        json.dump({"kp": KP, "kd": KD, "description": "the gains write_desired used"}, f)
    out_cf = os.path.join(a.work, "oe_cf")
    run(base + ["--torque", "torque", "--method", "oe", "--init", "idim", "--closed-loop",
                "--desired", des, "--controller", ctrl_file, "--out", out_cf, "--no-plots"])
    fit_cf, qf = params(os.path.join(out_cf, "joint_fit.json"))
    if fit_cf["method_details"]["oe"]["controller"]["kp"] != KP:
        failures.append("closed loop: the controller file's kp was not used")
    check_truth("oe closed loop (file)", qf, TRUTH, 2e-3, failures)
    bad_ctrl = os.path.join(a.work, "bad_controller.json")
    with open(bad_ctrl, "w") as f:
        json.dump({"kp": -1, "kd": KD}, f)

    # 2. command with a gain.
    out_cmd = os.path.join(a.work, "cmd")
    run(base + ["--command", "command", "--gain", str(GAIN), "--method", "idim", "--out", out_cmd,
                "--no-plots"])
    _, c = params(os.path.join(out_cmd, "joint_fit.json"))
    for name in TRUTH:
        if abs(c[name] - p[name]) > 1e-9 * max(1.0, abs(p[name])):
            failures.append(f"--command/--gain: {name} = {c[name]} differs from {p[name]}")

    # sr3 selects the true library terms and recovers the joint.
    out_sr3 = os.path.join(a.work, "sr3")
    run(base + ["--torque", "torque", "--method", "sr3", "--out", out_sr3])
    fit_s, s = params(os.path.join(out_sr3, "joint_fit.json"))
    active = fit_s["method_details"]["sr3"]["active"]
    print(f"sr3 active terms: {active}")
    if sorted(active) != sorted(["qdd", "cos(q)", "sin(q)", "1", "qd", "sgn(qd)"]):
        failures.append(f"sr3: active terms {active} are not the true ones")
    for name in ("I", "mgCx", "mgCy", "offset"):
        print(f"sr3 {name}: {s[name]:.8g} (truth {TRUTH[name]:g})")
        if abs(s[name] - TRUTH[name]) > 1e-3 * max(1.0, abs(TRUTH[name])):
            failures.append(f"sr3: {name} = {s[name]} differs from the truth {TRUTH[name]}")
    for name, true in (("Fc", TRUTH["Fc"]), ("cv[0]", TRUTH["Fv"])):
        print(f"sr3 {name}: {s[name]:.8g} (truth {true:g})")
        if abs(s[name] - true) > 0.02 * true:
            failures.append(f"sr3: {name} = {s[name]} differs from the truth {true} by > 2 %")
    for f_ in ("sr3_scan.csv", "sr3_scan.svg", "sr3_history.csv", "sr3_history.svg"):
        if not os.path.exists(os.path.join(out_sr3, f_)):
            failures.append(f"sr3: {f_} not written")
    with open(os.path.join(out_sr3, "sr3_history.csv")) as f:
        hist = list(csv.DictReader(f))
    if not hist or set(hist[0]) != {"start", "outer", "inner", "rel_error", "xi_u", "sigma0",
                                    "sigma1", "Omega_s", "Fc", "accepted"}:
        failures.append("sr3: sr3_history.csv is empty or has other columns")
    with open(os.path.join(out_sr3, "sr3_scan.csv")) as f:
        scan = list(csv.DictReader(f))
    if sum(1 for r in scan if r["chosen"] == "1") != 1:
        failures.append("sr3: sr3_scan.csv does not mark exactly one chosen lambda")

    # TV-regularised derivatives with re-integration keep idim near the truth.
    out_tv = os.path.join(a.work, "tv")
    run(base + ["--torque", "torque", "--method", "idim", "--diff", "tvreg", "--tv-alpha",
                "1e-9", "--reintegrate", "--trim", "0.3", "--out", out_tv, "--no-plots"])
    _, t = params(os.path.join(out_tv, "joint_fit.json"))
    check_truth("idim (tvreg)", t, TRUTH, 2e-3, failures)

    # 3. Errors.
    cases = [
        (base + ["--torque", "nope", "--out", os.path.join(a.work, "e1")],
         "no column 'nope'"),
        (base + ["--out", os.path.join(a.work, "e2")], "--torque COLUMN, or --command COLUMN"),
        (base + ["--torque", "torque", "--method", "oe", "--out", os.path.join(a.work, "e3")],
         "--method oe needs --init"),
        (base + ["--torque", "torque", "--method", "idim", "--asymmetric",
                 "--out", os.path.join(a.work, "e4")],
         "asymmetric Coulomb levels and a torque offset are the same regressor"),
        (base + ["--torque", "torque", "--diff", "tvreg", "--out", os.path.join(a.work, "e5")],
         "needs a weight tv_alpha > 0 (--tv-alpha)"),
        (base + ["--torque", "torque", "--method", "oe", "--init", "idim", "--closed-loop",
                 "--out", os.path.join(a.work, "e6")], "--closed-loop needs --desired"),
        (base + ["--torque", "torque", "--method", "oe", "--init", "idim", "--closed-loop",
                 "--desired", os.path.join(a.work, "desired.csv"), "--controller",
                 os.path.join(a.work, "bad_controller.json"), "--out", os.path.join(a.work, "e7")],
         "parameter 'kp': must be a finite number >= 0"),
        ([a.binary, "eval-joint", "--joint", rec, "--input", rec, "--time", "time",
          "--position", "angle", "--torque", "torque"], "JSON syntax error"),
    ]
    for args, part in cases:
        r = run(args, expect_ok=False)
        status_ok = r.returncode == 1 or ("--torque COLUMN" in part and r.returncode != 0)
        ok = status_ok and part in r.stderr and "frictionlab: error:" in r.stderr
        print(f"error case {'ok' if ok else 'FAILED'}: {r.stderr.strip()[:200]}")
        if not ok:
            failures.append(f"expected exit 1 with '{part}', got {r.returncode}: {r.stderr}")

    return cli_harness.exit_status(failures)


if __name__ == "__main__":
    sys.exit(main())
