"""Fleet tasks: the key of an identification and the identification itself, as a Dask worker
runs it (docs/fleet.md, "Tasks").

A task is one session of one robot's joint: its record files and its joint type's configuration.
Its key is the sha256 of the session's identity (robot, joint, session), the sha256 of every
input file's contents, the joint type's canonical configuration and the tool version: the same
files, configuration and frictionlab give the same key, so a finished task is never run twice and
any change (a file re-recorded, an option, a new frictionlab) gives a new one. The worker reads
the files itself (only paths travel through the scheduler) and returns the task-result dict of
docs/fleet.md; any error of the library becomes a failed task with its message.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import socket
import time
from dataclasses import dataclass

from .config import JointType, Session

CHANNELS = ("time", "position", "velocity", "current", "force", "matrix")
# what a task result carries of its payload: the session's identity and the key's ingredients
IDENTITY = ("key", "robot", "joint", "joint_type", "session", "session_time", "tags", "inputs",
            "inputs_hash", "config_hash", "tool_version")


def tool_version() -> str:
    """The frictionlab version the results come from (part of every key)."""
    import frictionlab
    return "frictionlab " + getattr(frictionlab, "__version__", "unknown")


def file_sha256(path: str) -> tuple[str, int]:
    """sha256 (hex) and size of a file's contents, read in 1 MiB blocks."""
    h = hashlib.sha256()
    n = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            n += len(block)
    return h.hexdigest(), n


@dataclass(frozen=True)
class Task:
    """A session ready to run: its key and what the worker needs."""
    key: str
    session: Session
    joint_type: JointType
    inputs: tuple[tuple[str, str, int], ...]   # (path, sha256, bytes)
    inputs_hash: str
    config_hash: str
    tool_version: str

    def payload(self, threads: int = 1) -> dict:
        """What a worker gets (plain data: paths, never file contents)."""
        s = self.session
        return {"key": self.key, "robot": s.robot, "joint": s.joint, "joint_type": s.joint_type,
                "session": s.session, "session_time": s.session_time, "tags": s.tag_dict,
                "files": list(s.files),
                "inputs": [{"path": p, "sha256": h, "bytes": b} for p, h, b in self.inputs],
                "inputs_hash": self.inputs_hash, "config_hash": self.config_hash,
                "tool_version": self.tool_version, "command": self.joint_type.command,
                "options": self.joint_type.options, "validation": self.joint_type.validation,
                "threads": threads}


def make_task(session: Session, joint_type: JointType, version: str | None = None) -> Task:
    """The task of a session: hashes its files (OSError naming the file if one cannot be read)."""
    version = version or tool_version()
    inputs = []
    for p in session.files:
        try:
            h, n = file_sha256(p)
        except OSError as e:
            raise OSError(f"{p}: cannot read ({session.source}): {e.strerror}") from None
        inputs.append((p, h, n))
    inputs_hash = hashlib.sha256(
        json.dumps([[os.path.basename(p), h] for p, h, _ in inputs]).encode()).hexdigest()
    config = joint_type.canonical()
    config_hash = hashlib.sha256(config.encode()).hexdigest()
    key = hashlib.sha256(json.dumps(
        {"robot": session.robot, "joint": session.joint, "session": session.session,
         "inputs": inputs_hash, "config": config_hash, "tool": version},
        sort_keys=True).encode()).hexdigest()
    return Task(key, session, joint_type, tuple(inputs), inputs_hash, config_hash, version)


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


def _split_options(options: dict) -> tuple[dict, dict]:
    channels = {k: v for k, v in options.items() if k in CHANNELS}
    rest = {k: v for k, v in options.items() if k not in CHANNELS}
    return channels, rest


def _records(payload: dict):
    """The training and validation records of a fit/compare/fit-joint task."""
    import frictionlab as fl
    channels, _ = _split_options(payload["options"])
    files = payload["files"]
    validation = payload["validation"]
    if validation == "last-file":
        if len(files) < 2:
            raise ValueError(f"validation 'last-file' needs at least 2 files in the session, got "
                             f"{len(files)}")
        train = [fl.Record.read(f, **channels) for f in files[:-1]]
        return train, [fl.Record.read(files[-1], **channels)]
    records = [fl.Record.read(f, **channels) for f in files]
    if validation == "none":
        return records, []
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


def _one(records):
    if len(records) != 1:
        raise ValueError(f"this command takes one training record per session, got {len(records)} "
                         "(use validation 'last-file' or one file per session)")
    return records[0]


def _run_identification(payload: dict) -> list[dict]:
    import frictionlab as fl
    command = payload["command"]
    _, options = _split_options(payload["options"])
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
    train, val = _records(payload)
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


def validation_evaluator(config):
    """The `evaluate` of fleet.analysis.shared_check for a configuration: the RMSE [force unit]
    of a parameter set on a unit's validation data, cut from its record files exactly as the
    task did (fleet.config's validation: the last file, or the last 20 % of each record),
    simulated from rest (analysis.simulated_rmse). Defined for joint types whose command is
    `fit` or `compare` on the friction problem with a validation; NaN for the others (a shared
    set is then not assessed)."""
    from .analysis import simulated_rmse

    def evaluate(joint_type, median_params, task_row):
        jt = config.joint_types.get(joint_type)
        if (jt is None or jt.command not in ("fit", "compare") or jt.validation == "none" or
                jt.options.get("problem", "friction") != "friction"):
            return float("nan")
        payload = {"options": jt.options, "validation": jt.validation,
                   "files": [i["path"] for i in task_row["inputs"]]}
        _, val = _records(payload)
        errs = [simulated_rmse(median_params, r.t, r.velocity, r.force) for r in val]
        n = [len(r.t) for r in val]
        return float(math.sqrt(sum(e * e * k for e, k in zip(errs, n)) / sum(n)))
    return evaluate
