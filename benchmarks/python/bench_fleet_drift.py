#!/usr/bin/python3
"""Does the fleet's drift rule decide after two baseline nights? The study of frictionlab.fleet.study
over many seeds, the rule with the scatter pooled over each joint type against each joint alone.

Per seed: 30 robots x 3 joints (shoulder, elbow, wrist: 30 joints of each type) x 3 nights (two
baseline nights, then tonight), a 2 % night-to-night jitter of every parameter, and the wear of
study.DRIFTS tonight (Fc and sigma2 up by 20 % and 40 % on four robots per joint type); the
estimator's noise is the relative standard errors of fits of synthetic records
(study.relative_errors). Printed per rule: each injected drift's share of seeds flagged, the
false-alarm rate per healthy joint-night, and the share of "undetermined" parameter tests, over
all parameters and over those the records determine (relative standard error <= 5 %).

Run (Release build; about 5 s per seed):
    /usr/bin/python3 benchmarks/python/bench_fleet_drift.py [--build build] [--seeds 50]
"""
import argparse
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (Release)")
    ap.add_argument("--seeds", type=int, default=50, help="fleets drawn")
    a = ap.parse_args()
    if a.seeds < 1:
        ap.error("--seeds: need at least 1")
    sys.path.insert(0, os.path.join(a.build, "python"))
    from frictionlab.fleet import analysis, study

    rel = study.relative_errors()
    rules = {"each joint alone": analysis.DriftRule(pool_min_joints=0),
             "pooled over the type": analysis.DriftRule()}
    tallies = study.drift_study(rel, rules, seeds=a.seeds)
    print(f"{a.seeds} seeds x 30 robots x 3 joints, 2 baseline nights, 2 % night-to-night jitter")
    keys = list(next(iter(tallies.values())).drift_flagged)
    print(f"{'injected drift (seeds flagged)':34}" + "".join(f"{n:>22}" for n in rules))
    for k in keys:
        print(f"  {k[0]:9} {k[1]:7} x{k[2]:<14}" +
              "".join(f"{t.drift_flagged[k]:>14}/{t.seeds:<7}" for t in tallies.values()))
    rows = (("false alarms per healthy joint-night", lambda t: (t.false_nights, t.healthy_nights)),
            ("undetermined, all parameter tests", lambda t: (t.undetermined, t.tests)),
            ("undetermined, determined parameters",
             lambda t: (t.determined_undetermined, t.determined_tests)))
    for label, f in rows:
        cells = []
        for t in tallies.values():
            k, n = f(t)
            cells.append(f"{k}/{n} = {100 * k / n:.2f}%")
        print(f"{label:34}" + "".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    main()
