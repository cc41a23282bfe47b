#!/usr/bin/python3
"""Does the fleet's drift rule decide after two baseline nights, and does the trend test find a
slow drift before the per-night rule? The studies of frictionlab.fleet.study over many seeds.

--study drift (default): per seed 30 robots x 3 joints (shoulder, elbow, wrist: 30 joints of each
type) x 3 nights (two baseline nights, then tonight), a 2 % night-to-night jitter of every
parameter, and the wear of study.DRIFTS tonight (Fc and sigma2 up by 20 % and 40 % on four robots
per joint type); the rule with the scatter pooled over each joint type against each joint alone.
Printed per rule: each injected drift's share of seeds flagged, the false-alarm rate per healthy
joint-night, and the share of "undetermined" parameter tests, over all parameters and over those
the records determine (relative standard error <= 5 %).

--study trend: per seed the same fleet over 8 nights with the slow wear of study.TRENDS (Fc and
sigma2 rising or falling by 3 % of their first value per session on four robots per type); every
night analysis.drift and, from the 4th night on, analysis.trend on the sessions seen so far. Printed: per
worn parameter the night each test first flags it (the trend test earlier, the same night, later
than the per-night rule; "(4th)": of the same night, those on the 4th, the first night the
trend test judges), the rate's 95 % interval coverage at the 8th night, and the false alarms of
both tests on the healthy joints.

The estimator's noise is the relative standard errors of fits of synthetic records
(study.relative_errors). Run (Release build; about 5 s per seed for drift, 10 s for trend):
    /usr/bin/python3 benchmarks/python/bench_fleet_drift.py [--build build] [--seeds 50]
    /usr/bin/python3 benchmarks/python/bench_fleet_drift.py --study trend [--seeds 50]
"""
import argparse
import os
import statistics
import sys


def drift_study(analysis, study, rel, seeds):
    rules = {"each joint alone": analysis.DriftRule(pool_min_joints=0),
             "pooled over the type": analysis.DriftRule()}
    tallies = study.drift_study(rel, rules, seeds=seeds)
    print(f"{seeds} seeds x 30 robots x 3 joints, 2 baseline nights, 2 % night-to-night jitter")
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


def _share(k, n):
    return f"{k}/{n} = {100 * k / n:.2f}%" if n else f"{k}/0"


def trend_study(study, rel, seeds):
    t = study.trend_study(rel, seeds=seeds)
    print(f"{seeds} seeds x 30 robots x 3 joints x 8 nights, 2 % night-to-night jitter; Fc and sigma2 "
          "+-3 % per session from the first night on 4 robots per type; the per-night rule every "
          "night from the 2nd, the trend test from the 4th")
    print(f"{'worn parameter':24}{'trend test: night':>20}{'per-night rule: night':>24}"
          f"{'trend earlier / same (4th) / later':>38}")
    every = []
    for (jt, name, rate), pairs in t.detection.items():
        every += pairs
        print(f"  {jt:9} {name:6} {100 * rate:+.0f}%  " + _nights(pairs))
    print(f"  {'all':22}" + _nights(every))
    print(f"rate within its 95 % interval at the 8th night: worn {_share(t.covered, t.trended)}, "
          f"healthy (true rate 0) {_share(t.healthy_covered, t.healthy_tests)}")
    print(f"false alarms per healthy joint-night (nights 4-8, both judge): trend test "
          f"{_share(t.false_nights, t.healthy_nights)}, "
          f"per-night rule {_share(t.drift_false_nights, t.healthy_nights)}")
    print(f"  the 8th night alone: trend test {_share(t.false_last, t.healthy_last)}; healthy joints "
          f"the trend test flagged on any night: {_share(t.ever_flagged, t.healthy_joints)}")


def _nights(pairs):
    """Median and range of the first flagged night of each test (never: counted), and how the two
    compare per worn parameter."""
    def summary(nights):
        seen = [n for n in nights if n is not None]
        never = len(nights) - len(seen)
        return ((f"{statistics.median(seen):g} ({min(seen)}-{max(seen)})" if seen else "-")
                + (f", never {never}" if never else ""))
    tr, dr = [p[0] for p in pairs], [p[1] for p in pairs]
    inf = 10**9
    earlier = sum((a if a is not None else inf) < (b if b is not None else inf) for a, b in pairs)
    same = sum(a == b for a, b in pairs)
    first = sum(a == b == 4 for a, b in pairs)   # the 4th night: the first the trend test judges
    return (f"{summary(tr):>20}{summary(dr):>24}"
            f"{f'{earlier} / {same} ({first}) / {len(pairs) - earlier - same}':>38}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (Release)")
    ap.add_argument("--seeds", type=int, default=50, help="fleets drawn")
    ap.add_argument("--study", choices=("drift", "trend"), default="drift",
                    help="the per-night rule after two nights (drift) or the trend test (trend)")
    a = ap.parse_args()
    if a.seeds < 1:
        ap.error("--seeds: need at least 1")
    sys.path.insert(0, os.path.join(a.build, "python"))
    from frictionlab.fleet import analysis, study

    rel = study.relative_errors()
    if a.study == "drift":
        drift_study(analysis, study, rel, a.seeds)
    else:
        trend_study(study, rel, a.seeds)


if __name__ == "__main__":
    main()
