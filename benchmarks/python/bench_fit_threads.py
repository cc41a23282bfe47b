#!/usr/bin/env python3
"""Two sensorless LuGre fits (one thread each) in two Python threads against the same two fits
one after the other, and against two CLI processes: the GIL is released during a fit, so on an
idle 2-core machine both ratios are near 0.5. A measurement, not a test (it depends on the load).

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/bench_fit_threads.py [build/apps/frictionlab/frictionlab]
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

import frictionlab as fl

CLI = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join("build", "apps", "frictionlab", "frictionlab"))
OPTS = dict(problem="sensorless", starts=2, threads=1)


def wall(run, tries=3):
    best = float("inf")
    for _ in range(tries):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([CLI, "demo", "--out", d], check=True, capture_output=True)
        rec = fl.Record.read(os.path.join(d, "sensorless_train.csv"), current="current",
                             velocity="velocity", force="torque")
        args = [CLI, "fit", "--input", "sensorless_train.csv", "--problem", "sensorless",
                "--current", "current", "--velocity", "velocity", "--force", "torque",
                "--starts", "2", "--threads", "1", "--no-plots"]

        def cli_seq():
            for k in range(2):
                subprocess.run(args + ["--out", f"s{k}"], cwd=d, check=True, capture_output=True)

        def cli_par():
            ps = [subprocess.Popen(args + ["--out", f"p{k}"], cwd=d, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL) for k in range(2)]
            assert all(p.wait() == 0 for p in ps)

        def seq():
            fl.fit(rec, **OPTS)
            fl.fit(rec, **OPTS)

        def par():
            ts = [threading.Thread(target=lambda: fl.fit(rec, **OPTS)) for _ in range(2)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()

        s, p = wall(seq), wall(par)
        cs, cp = wall(cli_seq), wall(cli_par)
        print(f"Python: sequence {s:.3f} s, two threads {p:.3f} s, ratio {p / s:.2f}")
        print(f"CLI:    sequence {cs:.3f} s, two processes {cp:.3f} s, ratio {cp / cs:.2f}")


if __name__ == "__main__":
    main()
