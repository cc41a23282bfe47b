"""A synthetic robot fleet with known friction, for the fleet tests, the benchmark and the docs.

``generate(root, ...)`` writes the records of ``robots`` x ``joints`` x ``sessions`` in the directory
layout ``ROOT/<robot>/<joint>/<session>/record.csv`` (columns ``t`` [s], ``v`` [rad/s], ``F`` [N m]),
the fleet configuration ``ROOT/fleet.json``, a manifest ``ROOT/manifest.csv`` and the truth
``ROOT/truth.json`` (also returned as a dict). Everything is a function of the arguments and the
``seed`` alone (numpy's PCG64 stream), so two calls with the same arguments write the same bytes.

The model of each record (docs/fleet.md, "The synthetic fleet"):

* Each joint type has a friction model and nominal parameters (``JOINT_TYPES``): ``shoulder`` a
  LuGre contact, ``elbow`` a Stribeck curve with viscous friction, ``wrist`` Coulomb plus viscous.
* Each robot joint varies around its type's nominal: every varied parameter is multiplied by
  ``exp(unit_spread * N(0, 1))`` (``unit_spread = 0.1``: about 10 % robot to robot); ``Fc`` and
  ``Fs`` share one draw (the level of the Stribeck curve, so that ``Fs / Fc`` stays nominal and a
  worn curve stays a valid one).
* Outliers: whole robots whose joint has one parameter multiplied by ``factor`` (2) in every
  session (``outliers``); recorded in the truth.
* Drifts (wear): a joint's parameter multiplied by ``factor`` from one session on (``drifts``),
  or growing linearly from it (``per_session``: times ``1 + per_session * (k - from_session)`` in
  session k, a slow trend); recorded in the truth.
* Optional session-to-session jitter (temperature, ...): each session's parameters multiplied by
  ``exp(session_jitter * N(0, 1))`` (default 0: a healthy joint is the same every session).
* The record: a two-sine velocity excitation with random phases (amplitudes 0.2 and 0.05 rad/s at
  0.5 and 2.3 Hz, ``seconds`` long at ``rate`` Hz), the friction simulated from it with
  ``frictionlab.simulate`` (exact step, linear hold), plus Gaussian noise of std ``noise`` [N m]
  on F. Numbers are written with 17 significant digits (read back bit for bit).
* Corrupt records (``corrupt`` of them, replacing healthy sessions): a truncated CSV (the last
  line cut after its first field), a record with a NaN force, a record whose time goes backwards;
  each makes ``frictionlab.fit`` raise ``frictionlab.Error`` with the library's message
  (recorded in the truth as ``kind``).
"""
from __future__ import annotations

import copy
import csv
import datetime as _dt
import io
import json
import math
import os
import warnings
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

import frictionlab as fl

from .files import atomic_write_text

__all__ = ["JOINT_TYPES", "CORRUPT_KINDS", "generate", "truth_parameters"]

#: Per joint type: the model fitted (a ``fit`` model name and MODEL.json model name), the nominal
#: parameters (MODEL.json keys; units for a rotary joint: N m, rad/s, N m s/rad, N m/rad), the
#: parameters varied from unit to unit, and the fit options fleet.json gives the type (besides
#: problem, model, columns and rotary).
JOINT_TYPES: dict = {
    "shoulder": {
        "model": "lugre",
        "nominal": {"sigma0": 1.0e4, "sigma1": 2.0, "sigma2": 2.5, "Fc": 1.0, "Fs": 1.5,
                    "vs": 0.02, "alpha": 1.5},
        "varied": ["sigma0", "sigma1", "sigma2", "Fc", "vs"],
        # lsq from one start lands in a wrong minimum (sigma2 at 0, an inverted curve in its
        # place) on a few % of these records; 5 starts over a factor-10 range: none in 80
        "options": {"starts": 5, "spread": 10},
    },
    "elbow": {
        "model": "stribeck",
        "nominal": {"Fc": 0.6, "Fs": 0.9, "vs": 0.03, "alpha": 1.5, "sigma2": 0.8},
        "varied": ["Fc", "vs", "sigma2"],
        "options": {"starts": 1},
    },
    "wrist": {
        "model": "coulomb-viscous",
        "nominal": {"Fc": 0.3, "sigma2": 0.25},
        "varied": ["Fc", "sigma2"],
        "options": {"starts": 1},
    },
}

#: The kinds of corrupt record, in the order ``generate`` uses them.
CORRUPT_KINDS = ("truncated", "nan", "time-backwards")

_SEEDED_LEVEL = ("Fc", "Fs")  # one shared unit draw: the level of the Stribeck curve


def _joint_types(joints) -> dict[str, str]:
    """joint name -> joint type from a sequence of names (each its own type) or a mapping."""
    if isinstance(joints, Mapping):
        m = dict(joints)
    else:
        m = {j: j for j in joints}
    if not m:
        raise ValueError("generate: joints is empty")
    for j, jt in m.items():
        if jt not in JOINT_TYPES:
            raise ValueError(f"generate: joint {j!r}: unknown joint type {jt!r} "
                             f"(known: {', '.join(JOINT_TYPES)})")
    return m


def _params(model: str, values: Mapping[str, float]):
    """The library's Params object of ``model`` (``frictionlab.model_from_dict``); a library
    warning (an inverted Stribeck curve, a LuGre set that is not passive) is raised as an error,
    since a generated set must be a plain valid one."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fl.model_from_dict({"model": model, "params": dict(values)})


def _csv_text(t, v, F) -> str:
    buf = io.StringIO()
    buf.write("t,v,F\n")
    for a, b, c in zip(t.tolist(), v.tolist(), F.tolist()):
        buf.write(f"{a!r},{b!r},{c!r}\n")
    return buf.getvalue()


def _corrupt_text(kind: str, t, v, F) -> str:
    """The record's CSV text made corrupt in the way ``kind`` names."""
    if kind == "truncated":
        text = _csv_text(t, v, F)
        lines = text.splitlines(keepends=True)
        last = lines[-1].split(",")[0]  # the write stopped after the last line's first field
        return "".join(lines[:-1]) + last
    if kind == "nan":
        F = F.copy()
        F[len(F) // 2] = float("nan")
        return _csv_text(t, v, F)
    if kind == "time-backwards":
        t = t.copy()
        k = len(t) // 3
        t[k], t[k + 1] = t[k + 1], t[k]
        return _csv_text(t, v, F)
    raise ValueError(f"unknown corrupt kind {kind!r} (known: {', '.join(CORRUPT_KINDS)})")


def generate(root, *, robots: int = 8, joints: Iterable[str] | Mapping[str, str] = ("shoulder", "elbow", "wrist"),
             sessions: int = 4, seconds: float = 4.0, rate: float = 1000.0, seed: int = 0,
             drifts: list | None = None, corrupt: int = 0, noise: float | Mapping[str, float] = 0.02,
             outliers: list | None = None, unit_spread: float = 0.1, session_jitter: float = 0.0,
             start: str = "2026-11-01", interval_days: float = 1.0, write_records: bool = True) -> dict:
    """Write a synthetic fleet under ``root`` and return its truth (the dict of truth.json).

    Inputs:
      root: a directory that does not exist or is empty (FileExistsError otherwise).
      robots: number of robots, named r000, r001, ...
      joints: joint names, each also its joint type (a key of ``JOINT_TYPES``), or a mapping
        joint name -> joint type (several joints may share a type). ValueError for an unknown type.
      sessions: sessions per joint, named by their date (``start`` + k * ``interval_days``, days),
        session_time the ISO 8601 UTC time of that day at 02:00:00 (sortable).
      seconds, rate: record length [s] and sample rate [Hz].
      seed: the only source of randomness (numpy default_rng).
      drifts: list of dicts {"robot", "joint", "parameter", "from_session" (index, 0-based; a
        negative index counts from the end), "factor" (default 1 with "per_session"),
        optionally "per_session" (a linear trend: in session k >= from_session the parameter is
        times factor x (1 + per_session x (k - from_session)), so +3 % per session of its value at
        from_session for 0.03)}; None: the default, Fc x 1.4 from the
        last session on the first joint of robot r001 and on the last joint of the last robot
        (when there are at least 2 robots; they are never outliers); [] for none.
      corrupt: number of corrupt records (kinds cycling through ``CORRUPT_KINDS``), each replacing
        one healthy session (not a drifted or outlier joint, never the first session).
      noise: Gaussian noise std on F [N m], one number or a mapping joint type -> std.
      outliers: list of dicts {"robot", "joint", "parameter", "factor"}; None: the default,
        sigma2 x 2 on the first joint of robot r{robots-2} when there are at least 6 robots
        (else none); [] for none.
      unit_spread: robot-to-robot spread (std of the log of the factor).
      session_jitter: session-to-session spread of every parameter (std of the log; default 0).
      start, interval_days: date of the first session (YYYY-MM-DD) and spacing [days].
      write_records: False: neither simulate nor write the records (the truth, fleet.json and
        the manifest only, for studies of the analysis on ``truth_parameters``); the truth is
        the same as with True.

    Output (also written as ROOT/truth.json): {"format": "frictionlab-fleet-truth", "version": 1,
      "seed", "joint_types": {type: {"model", "nominal", "noise"}}, "joints": {joint: type},
      "robots": {robot: {"tags", "joints": {joint: {"joint_type", "model", "unit", "sessions":
      {session: {"session_time", "file" (relative to root), "parameters", "temperature",
      "corrupt" (kind or None)}}}}}}, "drifts": [...], "outliers": [...], "corrupt": [{"robot",
      "joint", "session", "kind", "file"}]}. Drift entries gain "from_session_name".
    Files: ROOT/<robot>/<joint>/<session>/record.csv, ROOT/fleet.json (the fleet configuration:
      per joint type the fit options; docs/fleet.md), ROOT/manifest.csv (columns robot, joint,
      joint_type, session, session_time, files, robot_type, firmware, temperature; files relative
      to the manifest's directory; the last three are tags), ROOT/truth.json. Each file is
      written atomically.
    Errors: ValueError naming the argument (counts < 1, an unknown robot/joint/parameter in a
      drift or outlier, a drift or outlier that makes an invalid parameter set).
    """
    root = os.fspath(root)
    if os.path.exists(root) and (not os.path.isdir(root) or os.listdir(root)):
        raise FileExistsError(f"generate: {root} exists and is not an empty directory")
    for name, n in (("robots", robots), ("sessions", sessions)):
        if int(n) != n or n < 1:
            raise ValueError(f"generate: {name} must be a whole number >= 1, not {n!r}")
    if not (seconds > 0 and rate > 0 and math.isfinite(seconds) and math.isfinite(rate)):
        raise ValueError(f"generate: seconds and rate must be positive, not {seconds!r}, {rate!r}")
    if corrupt < 0:
        raise ValueError(f"generate: corrupt must be >= 0, not {corrupt!r}")
    jmap = _joint_types(joints)
    jnames = list(jmap)
    rnames = [f"r{i:03d}" for i in range(robots)]
    rng = np.random.default_rng(seed)

    def noise_of(jt):
        if isinstance(noise, Mapping):
            if jt not in noise:
                raise ValueError(f"generate: noise has no entry for joint type {jt!r}")
            return float(noise[jt])
        return float(noise)

    # sessions: names and times
    d0 = _dt.date.fromisoformat(start)
    snames, stimes = [], []
    for k in range(sessions):
        day = _dt.datetime.combine(d0, _dt.time(2, 0, 0)) + _dt.timedelta(days=k * interval_days)
        snames.append(day.strftime("%Y-%m-%d") if interval_days >= 1 else day.strftime("%Y-%m-%dT%H%M%S"))
        stimes.append(day.strftime("%Y-%m-%dT%H:%M:%SZ"))
    if len(set(snames)) != len(snames):
        raise ValueError(f"generate: interval_days = {interval_days} gives equal session names")

    # outliers and drifts
    if outliers is None:
        outliers = ([{"robot": rnames[-2], "joint": jnames[0], "parameter": "sigma2", "factor": 2.0}]
                    if robots >= 6 else [])
    if drifts is None:
        drifts = []
        if robots >= 2:
            drifts.append({"robot": rnames[1], "joint": jnames[0], "parameter": "Fc",
                           "from_session": -1, "factor": 1.4})
            drifts.append({"robot": rnames[-1], "joint": jnames[-1], "parameter": "Fc",
                           "from_session": -1, "factor": 1.4})
    outliers = copy.deepcopy(list(outliers))
    drifts = copy.deepcopy(list(drifts))
    for what, lst in (("outliers", outliers), ("drifts", drifts)):
        for e in lst:
            if e.get("robot") not in rnames:
                raise ValueError(f"generate: {what}: unknown robot {e.get('robot')!r}")
            if e.get("joint") not in jmap:
                raise ValueError(f"generate: {what}: unknown joint {e.get('joint')!r}")
            nominal = JOINT_TYPES[jmap[e["joint"]]]["nominal"]
            if e.get("parameter") not in nominal:
                raise ValueError(f"generate: {what}: joint {e['joint']!r} ({JOINT_TYPES[jmap[e['joint']]]['model']}) "
                                 f"has no parameter {e.get('parameter')!r} (has {', '.join(nominal)})")
            if not (float(e.get("factor", 1.0 if "per_session" in e else float("nan"))) > 0):
                raise ValueError(f"generate: {what}: factor must be > 0, not {e.get('factor')!r}")
    for e in drifts:
        k = int(e.get("from_session", -1))
        if not -sessions <= k < sessions:
            raise ValueError(f"generate: drifts: from_session {k} outside the {sessions} sessions")
        e["from_session"] = k % sessions
        e["from_session_name"] = snames[e["from_session"]]
        trend = float(e.get("per_session", 0.0))   # (not `rate`: that is the sample rate)
        if not (math.isfinite(trend) and 1 + trend * (sessions - 1 - e["from_session"]) > 0):
            raise ValueError(f"generate: drifts: per_session {e.get('per_session')!r} makes the "
                             f"parameter <= 0 within the {sessions} sessions")

    n = int(round(seconds * rate))
    t = np.arange(n, dtype=np.float64) / rate
    fw = ["2.3.1", "2.4.0"]
    truth = {"format": "frictionlab-fleet-truth", "version": 1, "seed": seed,
             "joint_types": {jt: {"model": JOINT_TYPES[jt]["model"],
                                  "nominal": dict(JOINT_TYPES[jt]["nominal"]),
                                  "noise": noise_of(jt)} for jt in dict.fromkeys(jmap.values())},
             "joints": dict(jmap), "unit_spread": unit_spread, "session_jitter": session_jitter,
             "robots": {}, "drifts": drifts, "outliers": outliers, "corrupt": []}
    records = []  # (robot, joint, session index, file, t, v, F)
    for r in rnames:
        tags = {"robot_type": "arm6-a" if rng.random() < 0.5 else "arm6-b",
                "firmware": fw[int(rng.integers(0, len(fw)))]}
        rt = {"tags": tags, "joints": {}}
        truth["robots"][r] = rt
        for j in jnames:
            spec = JOINT_TYPES[jmap[j]]
            unit = dict(spec["nominal"])
            level = math.exp(unit_spread * rng.standard_normal())
            for p in spec["varied"]:
                if p in _SEEDED_LEVEL:
                    continue
                unit[p] *= math.exp(unit_spread * rng.standard_normal())
            for p in _SEEDED_LEVEL:
                if p in unit:
                    unit[p] *= level
            for e in outliers:
                if e["robot"] == r and e["joint"] == j:
                    unit[e["parameter"]] *= float(e["factor"])
            jt = {"joint_type": jmap[j], "model": spec["model"], "unit": unit, "sessions": {}}
            rt["joints"][j] = jt
            for k, (s, st) in enumerate(zip(snames, stimes)):
                par = dict(unit)
                if session_jitter:
                    for p in spec["varied"]:
                        par[p] *= math.exp(session_jitter * rng.standard_normal())
                for e in drifts:
                    if e["robot"] == r and e["joint"] == j and k >= e["from_session"]:
                        par[e["parameter"]] *= (float(e.get("factor", 1.0)) * (
                            1 + float(e.get("per_session", 0.0)) * (k - e["from_session"])))
                try:
                    model = _params(spec["model"], par)
                except (Warning, ValueError) as err:
                    raise ValueError(f"generate: {r}/{j}/{s}: the parameters {par} are not a valid "
                                     f"{spec['model']} set (a drift or outlier too large?): {err}") from None
                ph = rng.uniform(0, 2 * math.pi, size=2)
                e_n = rng.standard_normal(n)  # drawn either way: the truth does not depend on write_records
                if write_records:
                    v = 0.2 * np.sin(2 * math.pi * 0.5 * t + ph[0]) + 0.05 * np.sin(2 * math.pi * 2.3 * t + ph[1])
                    F = fl.simulate(model, t, v).F + noise_of(jmap[j]) * e_n
                else:
                    v = F = None
                temperature = round(float(22.0 + 4.0 * rng.standard_normal()), 1)
                rel = f"{r}/{j}/{s}/record.csv"
                jt["sessions"][s] = {"session_time": st, "file": rel, "parameters": par,
                                     "temperature": temperature, "corrupt": None}
                records.append((r, j, k, rel, t, v, F))

    # corrupt records: healthy joints, not the first session
    bad = {(e["robot"], e["joint"]) for e in drifts + outliers}
    pool = [i for i, (r, j, k, *_) in enumerate(records) if (r, j) not in bad and k > 0]
    if corrupt > len(pool):
        raise ValueError(f"generate: corrupt = {corrupt} but only {len(pool)} healthy sessions can be corrupted")
    chosen = sorted(rng.choice(len(pool), size=corrupt, replace=False).tolist()) if corrupt else []
    corrupt_of = {pool[c]: CORRUPT_KINDS[i % len(CORRUPT_KINDS)] for i, c in enumerate(chosen)}

    os.makedirs(root, exist_ok=True)
    for i, (r, j, k, rel, tt, v, F) in enumerate(records):
        path = os.path.join(root, rel)
        kind = corrupt_of.get(i)
        if write_records:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            atomic_write_text(path, _csv_text(tt, v, F) if kind is None else _corrupt_text(kind, tt, v, F))
        if kind is not None:
            s = snames[k]
            truth["robots"][r]["joints"][j]["sessions"][s]["corrupt"] = kind
            truth["corrupt"].append({"robot": r, "joint": j, "session": s, "kind": kind, "file": rel})

    config = {"format": "frictionlab-fleet", "version": 1, "joint_types": {}, "joints": dict(jmap)}
    for jt in dict.fromkeys(jmap.values()):
        config["joint_types"][jt] = {
            "command": "fit",
            "options": {"problem": "friction", "model": JOINT_TYPES[jt]["model"], "time": "t",
                        "velocity": "v", "force": "F", "rotary": True, **JOINT_TYPES[jt]["options"]},
            "validation": "last-20%"}
    atomic_write_text(os.path.join(root, "fleet.json"), json.dumps(config, indent=2) + "\n")

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["robot", "joint", "joint_type", "session", "session_time", "files",
                "robot_type", "firmware", "temperature"])
    for r in rnames:
        rt = truth["robots"][r]
        for j in jnames:
            for s, e in rt["joints"][j]["sessions"].items():
                w.writerow([r, j, jmap[j], s, e["session_time"], e["file"], rt["tags"]["robot_type"],
                            rt["tags"]["firmware"], f"{e['temperature']:.1f}"])
    atomic_write_text(os.path.join(root, "manifest.csv"), buf.getvalue())
    atomic_write_text(os.path.join(root, "truth.json"), json.dumps(truth, indent=1) + "\n")
    return truth


def truth_parameters(truth: Mapping, std_errors: Mapping | None = None, *, seed: int | None = None,
                     include_corrupt: bool = False):
    """The truth as a ``Store.parameters()``-shaped DataFrame, optionally with estimator noise.

    Inputs:
      truth: the dict ``generate`` returns (or truth.json read back).
      std_errors: None (std_error column NaN, values exact) or a mapping
        (joint_type, parameter) -> relative standard error (a fraction of the value): each value
        becomes ``true * (1 + rel * N(0, 1))`` and its std_error ``true * rel`` (the estimator's
        noise, e.g. measured from fits of the synthetic records). Parameters missing from the
        mapping are left out.
      seed: the noise's seed (numpy default_rng).
      include_corrupt: keep the sessions whose record is corrupt (default False: a failed task
        has no parameters).
    Output: one row per (robot, joint, session, parameter): key (robot/joint/session), robot,
      joint, joint_type, session, session_time, model, selected (True), name, value, std_error,
      ci_low, ci_high (value -+ 1.96 std_error), unit (""), determined (True), train_rmse,
      validation_rmse (NaN).
    """
    rng = np.random.default_rng(seed)
    rows = []
    for r, rt in truth["robots"].items():
        for j, jt in rt["joints"].items():
            for s, e in jt["sessions"].items():
                if e["corrupt"] and not include_corrupt:
                    continue
                for name, x in e["parameters"].items():
                    if not isinstance(x, (int, float)):
                        continue
                    if std_errors is None:
                        val, se = float(x), float("nan")
                    else:
                        rel = std_errors.get((jt["joint_type"], name))
                        if rel is None:
                            continue
                        se = abs(float(x)) * float(rel)
                        val = float(x) + se * rng.standard_normal()
                    rows.append({"key": f"{r}/{j}/{s}", "robot": r, "joint": j,
                                 "joint_type": jt["joint_type"], "session": s,
                                 "session_time": e["session_time"], "model": jt["model"],
                                 "selected": True, "name": name, "value": val, "std_error": se,
                                 "ci_low": val - 1.959963984540054 * se,
                                 "ci_high": val + 1.959963984540054 * se, "unit": "",
                                 "determined": True, "train_rmse": float("nan"),
                                 "validation_rmse": float("nan")})
    return pd.DataFrame(rows)
