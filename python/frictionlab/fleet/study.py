"""How well the drift rule and the trend test decide, measured on the synthetic fleet
(docs/fleet.md, "What the rule decides, measured", "Trend over the history"): the benchmark
benchmarks/python/bench_fleet_drift.py runs them over many seeds, the tests over a few.

The setting is the one a fleet operator meets after two nights: per seed, ``generate`` writes the
truth of ``robots`` robots x 3 joints (one joint type each: shoulder, elbow, wrist) x ``sessions``
nights (default 3: two baseline nights, then tonight) with a night-to-night jitter of every
parameter (``session_jitter``) and the wear ``DRIFTS`` injected tonight; ``truth_parameters``
turns it into a parameter table with the estimator's noise (the relative standard errors that
``relative_errors`` measures by fitting synthetic records). Each rule of ``rules`` then runs
``analysis.drift`` on the same table.

``trend_study`` is the trend test's measurement (docs/fleet.md, "Trend over the history"): the
same fleet over 8 nights with the slow wear ``TRENDS`` (+-3 % per session from the first night),
``analysis.trend`` and ``analysis.drift`` every night on the sessions seen so far: which night
each test first flags each worn parameter, the trend test's false alarms on healthy joints, and
the coverage of the rate's 95 % interval.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

import frictionlab as fl
from . import analysis, synthetic

#: The injected wear, tonight only, per joint type: the Coulomb level and the viscous coefficient
#: up by 20 % and by 40 % on four robots (r001..r004; r000 and the rest stay healthy).
DRIFTS = [{"robot": robot, "joint": joint, "parameter": name, "from_session": -1, "factor": f}
          for joint in ("shoulder", "elbow", "wrist")
          for robot, name, f in (("r001", "Fc", 1.2), ("r002", "sigma2", 1.2),
                                 ("r003", "Fc", 1.4), ("r004", "sigma2", 1.4))]


def relative_errors(robots: int = 3, seed: int = 0) -> dict:
    """The estimator's relative standard error per (joint type, parameter): the median over the
    fits of one night of a generated fleet (``robots`` x 3 joints, each record fitted with its
    joint type's options from fleet.json and its last 20 % for validation, as the engine does)
    of std_error / |value|."""
    with tempfile.TemporaryDirectory() as d:
        root = os.path.join(d, "fleet")
        truth = synthetic.generate(root, robots=robots, sessions=1, seed=seed, drifts=[],
                                   outliers=[])
        with open(os.path.join(root, "fleet.json")) as f:
            config = json.load(f)
        rel: dict = {}
        for rt in truth["robots"].values():
            for joint, jt in rt["joints"].items():
                opts = config["joint_types"][config["joints"][joint]]["options"]
                for e in jt["sessions"].values():
                    d = fl.Record.read(os.path.join(root, e["file"]), time="t", velocity="v",
                                       force="F").to_dataframe()
                    k = int(0.8 * len(d))  # the configuration's validation: the last 20 %
                    f = fl.fit(d.iloc[:k], d.iloc[k:], **{**opts, "time": "t",
                                                          "velocity": "velocity", "force": "force"})
                    for p in f.parameters:
                        rel.setdefault((jt["joint_type"], p.name), []).append(
                            p.std_error / abs(p.value))
    return {k: float(np.median(v)) for k, v in rel.items()}


def _fleet_parameters(seed: int, robots: int, sessions: int, drifts, session_jitter: float,
                      rel: Mapping):
    """One synthetic fleet's truth (synthetic.generate without records) and its fitted-parameter
    table (synthetic.truth_parameters with the relative errors ``rel``)."""
    with tempfile.TemporaryDirectory() as d:
        truth = synthetic.generate(os.path.join(d, "fleet"), robots=robots, sessions=sessions,
                                   seed=seed, drifts=drifts, outliers=[], write_records=False,
                                   session_jitter=session_jitter)
    return truth, synthetic.truth_parameters(truth, rel, seed=seed)


@dataclass
class RuleTally:
    """One rule's counts over the seeds."""
    seeds: int = 0
    drift_flagged: dict = field(default_factory=dict)  # (type, parameter, factor) -> seeds flagged
    healthy_nights: int = 0      # healthy robot joints tested tonight
    false_nights: int = 0        # of which any parameter was flagged
    tests: int = 0               # parameter tests of healthy joints
    undetermined: int = 0
    determined_tests: int = 0    # of parameters with relative standard error <= determined_rel
    determined_undetermined: int = 0


def drift_study(rel: Mapping, rules: Mapping[str, analysis.DriftRule], *, seeds: int = 50,
                robots: int = 30, sessions: int = 3, session_jitter: float = 0.02,
                determined_rel: float = 0.05, first_seed: int = 1000) -> dict:
    """Per rule name, its ``RuleTally`` over ``seeds`` fleets (the module doc); parameters whose
    relative standard error ``rel`` is at most ``determined_rel`` count as the ones the records
    determine."""
    tallies = {name: RuleTally() for name in rules}
    worn = {(e["robot"], e["joint"]): e for e in DRIFTS}
    for seed in range(first_seed, first_seed + seeds):
        _, params = _fleet_parameters(seed, robots, sessions, DRIFTS, session_jitter, rel)
        for name, rule in rules.items():
            _tally(tallies[name], analysis.drift(params, rule), worn, rel, determined_rel)
    return tallies


def _tally(t: RuleTally, d, worn: Mapping, rel: Mapping, determined_rel: float) -> None:
    t.seeds += 1
    is_worn = np.array([(r, j) in worn for r, j in zip(d["robot"], d["joint"])], dtype=bool)
    for (r, j), e in worn.items():
        row = d[(d["robot"] == r) & (d["joint"] == j) & (d["name"] == e["parameter"])]
        key = (d.loc[row.index, "joint_type"].iloc[0], e["parameter"], e["factor"])
        t.drift_flagged[key] = t.drift_flagged.get(key, 0) + int(row["flagged"].any())
    healthy = d[~is_worn]
    nights = healthy.groupby(["robot", "joint"])["flagged"].any()
    t.healthy_nights += len(nights)
    t.false_nights += int(nights.sum())
    t.tests += len(healthy)
    t.undetermined += int((healthy["outcome"] == "undetermined").sum())
    det = np.array([rel.get((jt, n), np.inf) <= determined_rel
                    for jt, n in zip(healthy["joint_type"], healthy["name"])], dtype=bool)
    t.determined_tests += int(det.sum())
    t.determined_undetermined += int((healthy["outcome"][det] == "undetermined").sum())


#: The slow wear of the trend study, per joint type: the Coulomb level and the viscous
#: coefficient growing (or shrinking) by 3 % of their first value per session from the first
#: session on, on four robots (r001..r004; r000 and the rest stay healthy).
TRENDS = [{"robot": robot, "joint": joint, "parameter": name, "from_session": 0,
           "per_session": rate}
          for joint in ("shoulder", "elbow", "wrist")
          for robot, name, rate in (("r001", "Fc", 0.03), ("r002", "sigma2", 0.03),
                                    ("r003", "Fc", -0.03), ("r004", "sigma2", -0.03))]


@dataclass
class TrendTally:
    """The trend test against the per-night rule over the seeds (``trend_study``)."""
    seeds: int = 0
    # (joint type, parameter, rate) -> [(first night the trend test flags it, first night the
    # per-night rule flags it)], a night = the number of sessions seen (the per-night rule judges
    # from the 2nd, the trend test from min_sessions); None: never
    detection: dict = field(default_factory=dict)
    covered: int = 0            # trended parameters whose true rate lies in the 95 % interval
    trended: int = 0            # trended parameters tested (a rate), at the last night
    healthy_covered: int = 0    # healthy parameters whose interval holds 0, at the last night
    healthy_tests: int = 0
    healthy_nights: int = 0     # healthy robot joints tested by the trend test, all nights
    false_nights: int = 0       # of which any parameter was flagged
    false_last: int = 0         # the same at the last night alone
    healthy_last: int = 0
    drift_false_nights: int = 0  # the per-night rule's false alarms on the same joint-nights
    ever_flagged: int = 0       # healthy joints the trend test flagged on any night
    healthy_joints: int = 0


def trend_study(rel: Mapping, rule: analysis.DriftRule = analysis.DriftRule(), *, seeds: int = 50,
                robots: int = 30, sessions: int = 8, session_jitter: float = 0.02,
                min_sessions: int = 4, first_seed: int = 2000) -> TrendTally:
    """The trend test on ``seeds`` fleets of ``robots`` x 3 joints x ``sessions`` nights with a
    ``session_jitter`` night-to-night jitter, the estimator's noise ``rel`` and the slow wear
    ``TRENDS``: every night ``analysis.drift`` and, from ``min_sessions`` on, ``analysis.trend``
    (both with ``rule``) on the sessions seen so far; the night each worn parameter is first
    flagged by each, the false alarms on healthy joints (the nights both judge), and whether the
    last night's 95 % interval of the rate holds the true rate (the trend's, or 0)."""
    tally = TrendTally()
    worn = {(e["robot"], e["joint"], e["parameter"]): e["per_session"] for e in TRENDS}
    for seed in range(first_seed, first_seed + seeds):
        truth, params = _fleet_parameters(seed, robots, sessions, TRENDS, session_jitter, rel)
        times = sorted(params["session_time"].unique())
        first: dict = {}
        ever: set = set()
        for night in range(2, sessions + 1):
            seen = params[params["session_time"] <= times[night - 1]]
            dr = analysis.drift(seen, rule)
            _first_flags(dr, "drift", worn, night, first)
            if night >= min_sessions:
                t = analysis.trend(seen, rule, min_sessions=min_sessions)
                _first_flags(t, "trend", worn, night, first)
                _tally_night(tally, t, dr, worn, ever, last=night == sessions)
        tally.seeds += 1
        for key, rate in worn.items():
            jt = truth["joints"][key[1]]
            tally.detection.setdefault((jt, key[2], rate), []).append(
                tuple(first.get((key, what)) for what in ("trend", "drift")))
        joints = {(r, j) for r in truth["robots"] for j in truth["joints"]}
        healthy = joints - {(r, j) for r, j, _ in worn}
        tally.healthy_joints += len(healthy)
        tally.ever_flagged += len(ever & healthy)
    return tally


def _first_flags(frame, what: str, worn: Mapping, night: int, first: dict) -> None:
    """Record ``night`` as the first night ``what`` ("trend" or "drift") flags each worn
    parameter flagged in ``frame`` (a trend or drift table) and not flagged before."""
    for r, j, n in zip(*(frame.loc[frame["flagged"], c] for c in ("robot", "joint", "name"))):
        if (r, j, n) in worn:
            first.setdefault(((r, j, n), what), night)


def _tally_night(tally: TrendTally, t, dr, worn: Mapping, ever: set, last: bool) -> None:
    """One night of ``trend_study`` judged by both tests: the false alarms of both on the healthy
    joints, and at the last night the intervals' coverage."""
    is_worn_joint = {(r, j) for r, j, _ in worn}
    healthy = t[[(r, j) not in is_worn_joint for r, j in zip(t["robot"], t["joint"])]]
    tested = healthy[np.isfinite(healthy["t"].to_numpy(float))]
    flags = tested.groupby(["robot", "joint"])["flagged"].any()
    tally.healthy_nights += len(flags)
    tally.false_nights += int(flags.sum())
    ever.update(flags[flags].index)
    dh = dr[[(r, j) in set(flags.index) for r, j in zip(dr["robot"], dr["joint"])]]
    tally.drift_false_nights += int(dh.groupby(["robot", "joint"])["flagged"].any().sum())
    if not last:
        return
    tally.false_last += int(flags.sum())
    tally.healthy_last += len(flags)
    tally.healthy_tests += len(tested)
    tally.healthy_covered += int(((tested["rate_low"] <= 0) & (tested["rate_high"] >= 0)).sum())
    for (r, j, n), rate in worn.items():
        row = t[(t["robot"] == r) & (t["joint"] == j) & (t["name"] == n) & np.isfinite(t["t"])]
        tally.trended += len(row)
        tally.covered += int(((row["rate_low"] <= rate) & (row["rate_high"] >= rate)).sum())
