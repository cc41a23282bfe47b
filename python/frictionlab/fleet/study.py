"""How well the drift rule decides, measured on the synthetic fleet (docs/fleet.md, "What the
rule decides, measured"): the benchmark benchmarks/python/bench_fleet_drift.py runs it over many
seeds, the tests over a few.

The setting is the one a fleet operator meets after two nights: per seed, ``generate`` writes the
truth of ``robots`` robots x 3 joints (one joint type each: shoulder, elbow, wrist) x ``sessions``
nights (default 3: two baseline nights, then tonight) with a night-to-night jitter of every
parameter (``session_jitter``) and the wear ``DRIFTS`` injected tonight; ``truth_parameters``
turns it into a parameter table with the estimator's noise (the relative standard errors that
``relative_errors`` measures by fitting synthetic records). Each rule of ``rules`` then runs
``analysis.drift`` on the same table.
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
        with tempfile.TemporaryDirectory() as d:
            truth = synthetic.generate(os.path.join(d, "fleet"), robots=robots, sessions=sessions,
                                       seed=seed, drifts=DRIFTS, outliers=[], write_records=False,
                                       session_jitter=session_jitter)
        params = synthetic.truth_parameters(truth, rel, seed=seed)
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
