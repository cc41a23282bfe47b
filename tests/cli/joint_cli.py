"""What the fit-joint / eval-joint end-to-end tests share: reading a joint_fit.json, and the
check that eval-joint with a fit reproduces fit-joint's training errors on the training record
(the same preprocessing, the same model, the same numbers to the last digit)."""
import json
import os

from cli_harness import run

CHANNELS = ("torque", "position", "velocity")


def load_fit(path):
    """The joint_fit.json at `path` and its parameters by name."""
    with open(path) as f:
        fit = json.load(f)
    return fit, {e["name"]: e for e in fit["parameters"]}


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
