"""Fleet tasks: the identification of one task as a Dask worker runs it (docs/fleet.md, "Tasks";
the task and its key: keys.py). The worker reads the files itself (only paths travel through the
scheduler) and returns the task-result dict of docs/fleet.md; any error of the library becomes a
failed task with its message.
"""
from __future__ import annotations

import math
import os
import socket
import time

import frictionlab as fl

from .evaluation import split_options, task_files, task_records
from .keys import IDENTITY

__all__ = ["identify"]


def _finite(x):
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _estimates(parameters) -> list[dict]:
    out = []
    for p in parameters:
        if getattr(p, "fixed", False):
            continue
        # determined: the data fix it (not flagged undetermined, not at a bound of its range or,
        # for an actuator, at an end of its search range); the drift rule never flags an estimate
        # that is not
        determined = not (p.undetermined or p.at_bound or p.at_limit)
        out.append({"name": p.name, "value": float(p.value), "std_error": _finite(p.std_error),
                    "ci_low": _finite(p.ci_low), "ci_high": _finite(p.ci_high), "unit": p.unit,
                    "determined": determined})
    return out


def _one(records):
    if len(records) != 1:
        raise ValueError(f"this command takes one training record per session, got {len(records)} "
                         "(use validation 'last-file' or one file per session)")
    return records[0]


def _run_identification(payload: dict) -> list[dict]:
    command = payload["command"]
    _, options = split_options(payload["options"])
    threads = payload.get("threads", 1)
    if command == "fit-actuator":
        opts = dict(payload["options"])
        opts.setdefault("threads", threads)
        files = payload["files"]
        if payload["validation"] == "last-file":
            opts.setdefault("validation", "none")
        out = fl.fit_actuator(files, **opts)
        # the verdict judges the recommended model (and the ranking): it goes with that model
        return [{"model": m.name, "selected": m.name == out.recommended,
                 "train_rmse": m.train_mae,
                 "validation_rmse": m.validation_mae if m.validation_mae >= 0 else None,
                 "aicc": None, "metrics": {"measure": "position MAE [rad]"},
                 "parameters": _estimates(m.parameters),
                 "verdict": out.verdict.to_dict() if m.name == out.recommended else None}
                for m in out.models]
    if command == "fit-robot":
        return _fit_robot(payload)
    train, val = task_records(payload)
    if command != "fit-joint":  # fit_joint has no threads option
        options.setdefault("threads", threads)
    if command == "fit":
        f = fl.fit(_one(train), val or None, **options)
        vr = f.validation[0].metrics.rmse if val else None
        return [{"model": f.result.model_name, "selected": True,
                 "train_rmse": f.result.training.rmse, "validation_rmse": _finite(vr),
                 "aicc": _finite(f.aicc), "metrics": {"nrmse": f.result.training.nrmse,
                                                      "r2": f.result.training.r2},
                 "parameters": _estimates(f.parameters), "verdict": f.verdict.to_dict()}]
    if command == "compare":
        c = fl.compare(_one(train), val or None, **options)
        # rows[i].fit is the model's FitResult; the comparison's verdict (the recommended model's
        # reasons and the ranking's) goes with the recommended model
        return [{"model": r.model, "selected": i == 0, "train_rmse": r.fit.training.rmse,
                 "validation_rmse": _finite(r.validation_rmse), "aicc": _finite(r.fit.aicc),
                 "metrics": {"score": _finite(r.score), "delta": _finite(r.delta)},
                 "parameters": _estimates(r.fit.parameters),
                 "verdict": c.verdict.to_dict() if i == 0 else None}
                for i, r in enumerate(c.rows)]
    if command == "fit-joint":
        j = fl.fit_joint(_one(train), val or None, **options)
        vr = j.validation[0].torque.rmse if val else None
        return [{"model": j.method, "selected": True,
                 "train_rmse": _finite(j.training.torque.rmse), "validation_rmse": _finite(vr),
                 "aicc": None, "metrics": {"torque_rel": _finite(j.training.torque.rel)},
                 "parameters": _estimates(j.parameters), "verdict": j.verdict.to_dict()}]
    raise ValueError(f"unknown command '{command}'")


def _robot_estimates(d: dict) -> list[dict]:
    """A robot fit's estimates (robot_fit.json's): its base parameters (a grouped one by its name,
    the group in the robot_fit.json) and, with a nonlinear friction model, each joint's model
    parameters named PARAM_JOINT (Fs_q4). Determined: not flagged as poorly determined."""
    out = []
    for p in d["parameters"]:
        se = _finite(p["std_error"])
        out.append({"name": p["name"], "value": float(p["value"]), "std_error": se,
                    "ci_low": None if se is None else p["value"] - 1.96 * se,
                    "ci_high": None if se is None else p["value"] + 1.96 * se,
                    "unit": p["unit"], "determined": not p["poorly_determined"]})
    for joint, fit in (d.get("friction") or {}).get("joints", {}).items():
        for p in fit["parameters"]:  # (fit.json's: docs/file-formats.md)
            if p.get("fixed"):
                continue
            ci = p.get("ci95") or [None, None]
            out.append({"name": f"{p['name']}_{joint}", "value": float(p["value"]),
                        "std_error": _finite(p.get("std_error")), "ci_low": _finite(ci[0]),
                        "ci_high": _finite(ci[1]), "unit": p.get("unit", ""),
                        "determined": not (p.get("undetermined") or p.get("at_bound"))})
    return out


def _rms(per_joint: dict) -> float:
    """One RMS torque error [N m] over the joints' RMS errors."""
    return math.sqrt(sum(e * e for e in per_joint.values()) / len(per_joint))


def _fit_robot(payload: dict) -> list[dict]:
    """fit-robot on the session's record (validation 'last-file': the other file validates)."""
    files, val = task_files(payload)
    opts = dict(payload["options"])
    robot = opts.pop("robot")
    d = fl.fit_robot(robot, _one(files), val or None, **opts).to_dict()
    return [{"model": "robot-" + d["friction"]["model"], "selected": True,
             "train_rmse": _rms(d["rms_error"]),
             "validation_rmse": _rms(d["validation"][0]["rms_error"]) if val else None,
             "aicc": None, "metrics": {"relative_error_percent": d["relative_error_percent"],
                                       "condition_number": d["condition_number"]},
             "parameters": _robot_estimates(d), "verdict": d["verdict"]}]


def identify(payload: dict) -> dict:
    """Run one task (on a worker): the task-result dict of docs/fleet.md. A library error (bad
    record, failed fit) is a "failed" result carrying the message; it is not raised, so the run
    goes on. Only the death of the worker process itself (the engine retries the task) or a
    KeyboardInterrupt escapes."""
    started = time.time()
    result = {k: payload[k] for k in IDENTITY}
    result["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    result["attempts"] = 1
    try:
        result["models"] = _run_identification(payload)
        result["status"], result["error"] = "done", None
    except KeyboardInterrupt:
        raise
    except Exception as e:  # noqa: BLE001: every library error is the task's failure
        result["models"] = []
        result["status"] = "failed"
        result["error"] = f"{type(e).__name__}: {e}" if not str(e) else str(e)
    result["started_at"] = started
    result["finished_at"] = time.time()
    result["seconds"] = result["finished_at"] - started
    return result
