"""What the fit-joint / eval-joint end-to-end tests share: the analytic motion their records are
written from, running fit-joint on such a record, reading a joint_fit.json, the checks of a fit
against the truth and against the same fit without a friction dependence, the checks of a
parameter the record cannot determine, of a refusal, and the check that eval-joint with a fit
reproduces fit-joint's training errors on the training record (the same preprocessing, the same
model, the same numbers to the last digit)."""
import json
import math
import os

from cli_harness import run

CHANNELS = ("torque", "position", "velocity")
# the channel options of the records these tests write (columns time, angle, torque)
RECORD_ARGS = ["--time", "time", "--position", "angle", "--torque", "torque"]


def trajectory(t):
    """The analytic motion of the joint records at time `t` [s]: q(t) = 0.8 sin(w1 t)
    + 0.4 sin(w2 t + 0.5) + 0.2 (w1, w2 = 2 pi 0.3 Hz, 2 pi 0.7 Hz) and its exact qd and qdd,
    so that the torque a model needs along it is known exactly."""
    w1, w2 = 2 * math.pi * 0.3, 2 * math.pi * 0.7
    q = 0.8 * math.sin(w1 * t) + 0.4 * math.sin(w2 * t + 0.5) + 0.2
    qd = 0.8 * w1 * math.cos(w1 * t) + 0.4 * w2 * math.cos(w2 * t + 0.5)
    qdd = -0.8 * w1 * w1 * math.sin(w1 * t) - 0.4 * w2 * w2 * math.sin(w2 * t + 0.5)
    return q, qd, qdd


def fit_joint(a, rec, out, extra, expect_ok=True):
    """Run fit-joint on the record `rec` (channels RECORD_ARGS) into `out`, without plots, with
    the further options `extra`; the completed process."""
    return run([a.binary, "fit-joint", "--input", rec, *RECORD_ARGS, "--no-plots", "--out", out]
               + extra, expect_ok=expect_ok)


def load_fit(path):
    """The joint_fit.json at `path` and its parameters by name."""
    with open(path) as f:
        fit = json.load(f)
    return fit, {e["name"]: e for e in fit["parameters"]}


def values(p):
    """The values of the parameters `p` (by name, as load_fit gives them) by name."""
    return {name: e["value"] for name, e in p.items()}


def check_truth(label, fitted, truth, tol, failures):
    """Print each parameter of `truth` (name -> value) as fitted (`fitted`: name -> value); a
    failure per parameter off by more than `tol` (relative; absolute for values below 1)."""
    for name, true in truth.items():
        print(f"{label} {name}: {fitted[name]:.8g} (truth {true:g})")
        if abs(fitted[name] - true) > tol * max(1.0, abs(true)):
            failures.append(f"{label}: {name} = {fitted[name]} differs from the truth {true}")


def check_beats_plain(label, fit, fit_plain, channel, model, failures):
    """A failure unless the training error in `channel` of `fit` (a joint with the `model`
    dependence of friction, on a record made with it) is below half that of `fit_plain` (the
    same fit without the dependence): the dependence must explain what the plain joint cannot."""
    e = fit["training"][channel]["rel"]
    e_plain = fit_plain["training"][channel]["rel"]
    print(f"{label} {channel} error: {model} {e:.3g}, {model}-free {e_plain:.3g}")
    if not e < 0.5 * e_plain:
        failures.append(f"{label}: the {model} model's {channel} error {e} is not below the "
                        f"{model}-free {e_plain}")


def check_held_undetermined(label, fit, p, names, needles, failures):
    """A record that cannot determine the parameters `names` (fit: its joint_fit.json, p: its
    parameters by name): each must be held at 0, fixed and marked undetermined, and the verdict
    doubtful with a "determined" reason holding every one of `needles` (what is not determined,
    and what to record to determine it)."""
    for name in names:
        if p[name]["value"] != 0 or not p[name]["undetermined"] or not p[name]["fixed"]:
            failures.append(f"{label}: {name} {p[name]}")
    verdict = fit["verdict"]
    reasons = [r for r in verdict["reasons"] if r["rule"] == "determined"]
    print(f"{label} verdict: {verdict['line']}")
    if (verdict["grade"] != "doubtful" or not reasons
            or not all(n in reasons[0]["text"] for n in needles)):
        failures.append(f"{label}: verdict {verdict}")


def expect_refusal(a, args, needles, failures):
    """Run `frictionlab ARGS`; a failure unless it exits non-zero with every one of `needles`
    (the option, the file or the key refused) in its stderr."""
    p = run([a.binary] + args, expect_ok=False)
    print(f"{' '.join(args[:2])}: {p.stderr.strip()[:200]}")
    if p.returncode == 0 or not all(n in p.stderr for n in needles):
        failures.append(f"{args}: status {p.returncode}, stderr {p.stderr!r} (expected {needles})")


def check_eval_reproduces(a, fit_path, rec, record_args, out, failures):
    """Run eval-joint with `fit_path` on `rec` (`record_args`: the channel options fit-joint was
    given) into `out`; a failure per channel whose errors differ from the fit's training errors."""
    with open(fit_path) as f:
        training = json.load(f)["training"]
    run([a.binary, "eval-joint", "--joint", fit_path, "--input", rec, *record_args, "--out", out,
         "--no-plots"])
    with open(os.path.join(out, "joint_eval.json")) as f:
        e = json.load(f)["records"][0]
    for ch in CHANNELS:
        if e[ch] != training[ch]:
            failures.append(f"eval-joint {ch} errors {e[ch]} differ from fit-joint's "
                            f"{training[ch]}")
