#!/usr/bin/python3
"""The sensorless LuGre fit of frictionlab against scipy's least_squares, same records, same run.

Records: bench_identify's (benchmarks/bench_identify.cpp): 30 s at 1 kHz, LuGre truth Km = 2 Nm/A,
Kw = 0.5 Nm s/rad, Fc = 1 Nm, Fs = 1.5 Nm, Vth = 0.1 rad/s, alpha = 1, S0 = 500 Nm/rad,
S1 = 0.5 Nm s/rad; one with Gaussian torque noise 0.02 Nm, one noise-free.

- frictionlab: `fl.fit(record, problem="sensorless", model="lugre")` with its defaults: no initial
  guess (the data-driven one), its multi-start and the statistics (standard errors, HAC, flags);
  `record` is an `fl.Record` of the same arrays scipy's residual uses (the fit from the CSV file,
  which parses it as well, is timed too and must give the same parameters).
- scipy: `scipy.optimize.least_squares` (trf, 2-point finite-difference Jacobian, x_scale="jac")
  on the same residual tau - (Km i - F(theta)), F simulated by frictionlab's own exact step
  (`fl.simulate`, C++; the fastest model evaluation scipy can be given), started near the truth
  (every parameter 10 % off, alternating signs) - the most favourable case for scipy.

Prints the median wall time of each over the repetitions, the ratio, and the accuracy: the
relative error of every parameter, whether frictionlab's values lie within their reported 95 %
intervals (noisy record) and within 1e-3 of the truth (noise-free record).

Run (Release build):
    /usr/bin/python3 benchmarks/python/bench_fit_scipy.py [--build build] [--repeat 5]
        [--python OTHER_BUILD/python]   # another build's module (the records still from --build)
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

TRUTH = {"Km": 2.0, "Kw": 0.5, "Fc": 1.0, "Fs": 1.5, "Vth": 0.1, "S0": 500.0, "S1": 0.5}
NAMES = list(TRUTH)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (Release)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of each fit")
    ap.add_argument("--python", default=None,
                    help="the frictionlab package's directory (default: BUILD/python); another "
                         "build's, e.g. of an older commit, to compare builds on the same records")
    a = ap.parse_args()
    sys.path.insert(0, a.python or os.path.join(a.build, "python"))
    import frictionlab as fl
    from scipy.optimize import least_squares
    from scipy.stats import chi2

    with tempfile.TemporaryDirectory() as d:
        subprocess.run([os.path.join(a.build, "benchmarks", "bench_identify"), f"--write-records={d}"],
                       check=True)
        records = {k: np.loadtxt(os.path.join(d, k + ".csv"), delimiter=",", skiprows=1)
                   for k in ("noisy", "clean")}
        paths = {k: os.path.join(d, k + ".csv") for k in records}

        # Both fits start from the same arrays in memory (scipy's residual closes over them);
        # the fit from the CSV file, which also parses it, is timed as well.
        in_memory = {k: fl.Record(t=r[:, 0], current=r[:, 1], velocity=r[:, 2], force=r[:, 3])
                     for k, r in records.items()}

        def fit_frictionlab(k):
            return fl.fit(in_memory[k], problem="sensorless", model="lugre")

        def fit_frictionlab_file(k):
            return fl.fit(paths[k], problem="sensorless", model="lugre", time="t", current="current",
                          velocity="velocity", force="torque")

        def residual_of(k):
            t, i, v, tau = records[k].T

            def residual(x):
                Km, Kw, Fc, Fs, Vth, S0, S1 = x
                p = fl.LuGreParams(sigma0=S0, sigma1=S1, sigma2=Kw, Fc=Fc, Fs=Fs, vs=Vth, alpha=1.0)
                return tau - (Km * i - fl.simulate(p, t, v).F)
            return residual

        def fit_scipy(k):
            residual = residual_of(k)

            x0 = np.array([TRUTH[n] * (1.1 if j % 2 == 0 else 0.9) for j, n in enumerate(NAMES)])
            return least_squares(residual, x0, method="trf", jac="2-point", x_scale="jac",
                                 bounds=(np.full(7, 1e-9), np.full(7, np.inf)))

        print(f"records: 30 s at 1 kHz ({len(records['noisy'])} samples); {os.cpu_count()} cores; "
              f"median of {a.repeat} runs")
        for k in ("noisy", "clean"):
            times = {"frictionlab": [], "scipy": [], "file": []}
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                f = fit_frictionlab(k)
                times["frictionlab"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                f_file = fit_frictionlab_file(k)
                times["file"].append(time.perf_counter() - t0)
                assert [p.value for p in f_file.parameters] == [p.value for p in f.parameters]
                t0 = time.perf_counter()
                s = fit_scipy(k)
                times["scipy"].append(time.perf_counter() - t0)
            ours = {p.name: p for p in f.parameters}
            tf, ts = statistics.median(times["frictionlab"]), statistics.median(times["scipy"])
            print(f"\n{k} record: frictionlab {tf:.3f} s (lsq, {len(f.result.starts)} starts, "
                  f"{f.result.iterations} iterations of the best), scipy {ts:.3f} s ({s.nfev} residual "
                  f"evaluations, {s.njev} Jacobians); scipy / frictionlab = {ts / tf:.2f}")
            tff = statistics.median(times["file"])
            print(f"  frictionlab from the CSV file (parsing it too): {tff:.3f} s; scipy / that = "
                  f"{ts / tff:.2f}")
            print(f"  {'':6} {'truth':>10} {'frictionlab':>14} {'rel.err':>9} {'in 95% CI':>9} "
                  f"{'scipy':>14} {'rel.err':>9}")
            worst = 0.0
            inside = True
            for j, n in enumerate(NAMES):
                p = ours[n]
                e = (p.value - TRUTH[n]) / TRUTH[n]
                es = (s.x[j] - TRUTH[n]) / TRUTH[n]
                ci = p.ci_low <= TRUTH[n] <= p.ci_high
                inside = inside and ci
                worst = max(worst, abs(e))
                print(f"  {n:6} {TRUTH[n]:10.4g} {p.value:14.7g} {e:9.1e} {str(ci):>9} "
                      f"{s.x[j]:14.7g} {es:9.1e}")
            if k == "noisy":
                print(f"  every truth within frictionlab's 95 % interval: {inside}")
                # The intervals are marginal and linearised. The joint likelihood-ratio test says
                # whether the truth is a plausible parameter vector for this noise draw at all:
                # (SSR(truth) - SSR(optimum)) / sigma^2 against chi-square with p = 7 degrees of
                # freedom (sigma^2 = SSR(optimum) / (N - p)). A truth outside this region is
                # the draw's doing, not the fit's: no estimator's 95 % region holds it.
                ssr_opt = float(np.sum(residual_of(k)(np.array([ours[n].value for n in NAMES])) ** 2))
                ssr_true = float(np.sum(residual_of(k)(np.array([TRUTH[n] for n in NAMES])) ** 2))
                s2 = ssr_opt / (len(records[k]) - len(NAMES))
                lr = (ssr_true - ssr_opt) / s2
                print(f"  joint likelihood ratio of the truth: (SSR(truth) - SSR(fit)) / sigma^2 = "
                      f"{lr:.2f}, P(chi2_{len(NAMES)} > it) = {chi2.sf(lr, len(NAMES)):.3f} "
                      f"(truth inside the joint 95 % region: {lr <= chi2.ppf(0.95, len(NAMES))})")
            else:
                print(f"  largest relative error of frictionlab: {worst:.1e} (goal <= 1e-3: "
                      f"{worst <= 1e-3})")


if __name__ == "__main__":
    main()
