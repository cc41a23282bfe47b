#!/usr/bin/python3
"""Are the sensorless LuGre fit's standard errors and 95 % intervals calibrated? A Monte-Carlo study.

The record is bench_identify's noise-free one (benchmarks/bench_identify.cpp: 30 s at 1 kHz,
LuGre truth Km = 2 Nm/A, Kw = 0.5 Nm s/rad, Fc = 1 Nm, Fs = 1.5 Nm, Vth = 0.1 rad/s, alpha = 1,
S0 = 500 Nm/rad, S1 = 0.5 Nm s/rad); every seed adds its own Gaussian torque noise (0.02 Nm, the
noisy record's) and fits it with `fl.fit(record, problem="sensorless", model="lugre")`, its
defaults (no initial guess). Per parameter it prints:
- bias / sd: the mean estimate's distance from the truth in units of the estimates' spread;
- sd / SE: the spread of the estimates over the seeds divided by the mean reported standard error
  (1 when the reported errors are right; its own sampling error is about 1 / sqrt(2 n));
- the same for the HAC (Newey-West) standard error;
- coverage: the fraction of seeds whose 95 % interval holds the truth (binomial standard error
  sqrt(0.95 * 0.05 / n)).
and the fraction of seeds where every interval holds its truth at once (seven 95 % intervals:
about 0.95^7 = 0.70 if they were independent), which is why a single noise draw with one
parameter outside its interval says little.

Run (Release build; about 15 ms per seed):
    /usr/bin/python3 benchmarks/python/bench_calibration.py [--build build] [--seeds 300]
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

TRUTH = {"Km": 2.0, "Kw": 0.5, "Fc": 1.0, "Fs": 1.5, "Vth": 0.1, "S0": 500.0, "S1": 0.5}
NOISE = 0.02  # [Nm], bench_identify's noisy record


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (Release)")
    ap.add_argument("--seeds", type=int, default=300, help="noise draws")
    a = ap.parse_args()
    if a.seeds < 2:
        ap.error("--seeds: need at least 2 draws")
    sys.path.insert(0, os.path.join(a.build, "python"))
    import frictionlab as fl

    with tempfile.TemporaryDirectory() as d:
        subprocess.run([os.path.join(a.build, "benchmarks", "bench_identify"), f"--write-records={d}"],
                       check=True, stdout=subprocess.DEVNULL)
        t, i, v, tau = np.loadtxt(os.path.join(d, "clean.csv"), delimiter=",", skiprows=1).T
    names = list(TRUTH)
    est, se, hac, inside = [], [], [], []
    for seed in range(a.seeds):
        rng = np.random.default_rng(1000 + seed)
        rec = fl.Record(t=t, current=i, velocity=v, force=tau + NOISE * rng.standard_normal(len(t)))
        p = {q.name: q for q in fl.fit(rec, problem="sensorless", model="lugre").parameters}
        est.append([p[k].value for k in names])
        se.append([p[k].std_error for k in names])
        hac.append([p[k].hac_std_error for k in names])
        inside.append([p[k].ci_low <= TRUTH[k] <= p[k].ci_high for k in names])
    est, se, hac, inside = (np.array(x) for x in (est, se, hac, inside))
    n = a.seeds
    print(f"{n} noise draws of {NOISE} Nm on the 30 s record ({len(t)} samples); sampling error of "
          f"sd / SE about {1 / math.sqrt(2 * n):.2f}, of the coverage {math.sqrt(0.95 * 0.05 / n):.3f}")
    print(f"{'':5} {'bias / sd':>10} {'sd / SE':>8} {'sd / HAC':>9} {'coverage':>9}")
    for j, k in enumerate(names):
        sd = est[:, j].std(ddof=1)
        print(f"{k:5} {(est[:, j].mean() - TRUTH[k]) / sd:10.2f} {sd / se[:, j].mean():8.2f} "
              f"{sd / hac[:, j].mean():9.2f} {inside[:, j].mean():9.3f}")
    print(f"every truth inside its interval at once: {inside.all(axis=1).mean():.3f} of the draws")


if __name__ == "__main__":
    main()
