"""Evaluating a task's records and a parameter set on them (docs/fleet.md, "Shared parameter
sets"): the records of a task as its identification sees them, and the RMSE of a parameter set
simulated on a unit's validation data.
"""
from __future__ import annotations

import math

import numpy as np

import frictionlab as fl

__all__ = ["CHANNELS", "split_options", "task_files", "task_records", "simulated_rmse",
           "validation_evaluator"]

CHANNELS = ("time", "position", "velocity", "current", "force", "matrix")


def split_options(options: dict) -> tuple[dict, dict]:
    """(the channel options of a task, the others)."""
    channels = {k: v for k, v in options.items() if k in CHANNELS}
    rest = {k: v for k, v in options.items() if k not in CHANNELS}
    return channels, rest


def task_files(payload: dict) -> tuple[list, list]:
    """The training and validation files of a task whose validation is "none" or "last-file"
    (the session's last file validates)."""
    files = list(payload["files"])
    if payload["validation"] != "last-file":
        return files, []
    if len(files) < 2:
        raise ValueError(f"validation 'last-file' needs at least 2 files in the session, got "
                         f"{len(files)}")
    return files[:-1], files[-1:]


def task_records(payload: dict):
    """The training and validation records of a fit/compare/fit-joint task: its files read with
    its channel options, split by its validation ("none", "last-file", "last-20%")."""
    channels, _ = split_options(payload["options"])
    if payload["validation"] != "last-20%":
        train, val = task_files(payload)
        return ([fl.Record.read(f, **channels) for f in train],
                [fl.Record.read(f, **channels) for f in val])
    records = [fl.Record.read(f, **channels) for f in payload["files"]]
    # last-20%: the last fifth of each record (by samples) validates
    train, val = [], []
    for r in records:
        n = len(r.t)
        cut = int(round(0.8 * n))
        ch = {c: getattr(r, c) for c in ("position", "velocity", "current", "force")
              if getattr(r, c, None) is not None}
        train.append(fl.Record(r.t[:cut], **{c: a[:cut] for c, a in ch.items()},
                               source=f"{r.source} (first 80 %)"))
        val.append(fl.Record(r.t[cut:], **{c: a[cut:] for c, a in ch.items()},
                             source=f"{r.source} (last 20 %)"))
    return train, val


def simulated_rmse(parameters: dict, t, v, F, model: str | None = None) -> float:
    """RMSE [force unit] of the friction force simulated with a parameter set against a measured
    one: ``frictionlab.simulate`` (exact step, linear hold, from the model's rest state at t[0])
    on (t, v), compared with F. ``parameters``: the fit's parameter names -> values, with
    "model" -> model name (or ``model=``), built with ``frictionlab.model_from_dict``, so an
    invalid set raises ``frictionlab.Error``. A building block for ``shared_check``'s evaluate."""
    pars = dict(parameters)
    m = pars.pop("model", None) if model is None else (pars.pop("model", None), model)[1]
    if not m:
        raise ValueError("simulated_rmse: no model name (parameters['model'] or model=)")
    obj = fl.model_from_dict({"model": m, "params": pars})
    Fs = fl.simulate(obj, np.asarray(t, float), np.asarray(v, float)).F
    return float(np.sqrt(np.mean((np.asarray(F, float) - Fs) ** 2)))


def validation_evaluator(config):
    """The `evaluate` of analysis.shared_check for a configuration: the RMSE [force unit]
    of a parameter set on a unit's validation data, cut from its record files exactly as the
    task did (fleet.config's validation: the last file, or the last 20 % of each record),
    simulated from rest (simulated_rmse). Defined for joint types whose command is
    `fit` or `compare` on the friction problem with a validation; NaN for the others (a shared
    set is then not assessed)."""
    def evaluate(joint_type, median_params, task_row):
        jt = config.joint_types.get(joint_type)
        if (jt is None or jt.command not in ("fit", "compare") or jt.validation == "none" or
                jt.options.get("problem", "friction") != "friction"):
            return float("nan")
        payload = {"options": jt.options, "validation": jt.validation,
                   "files": [i["path"] for i in task_row["inputs"]]}
        _, val = task_records(payload)
        errs = [simulated_rmse(median_params, r.t, r.velocity, r.force) for r in val]
        n = [len(r.t) for r in val]
        return float(math.sqrt(sum(e * e * k for e, k in zip(errs, n)) / sum(n)))
    return evaluate
