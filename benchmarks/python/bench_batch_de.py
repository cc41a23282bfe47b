#!/usr/bin/python3
"""A population search with simulate_batch: scipy's differential evolution, each generation one call.

A LuGre friction record (exact step, velocity held over each 1 ms sample, hold="zoh"; two sines
0.5 and 3.1 Hz; truth sigma0 = 1e5 N/m, sigma1 = 0.5 N s/m, sigma2 = 0.4 N s/m, Fc = 1 N,
Fs = 1.5 N, vs = 1 mm/s, alpha = 2; Gaussian noise 0.01 N) is fitted in (log10 sigma0, Fs, sigma2)
by `scipy.optimize.differential_evolution` twice with the same seed and settings
(updating="deferred", 40 generations, no polish):
- vectorized=True: the objective gets a generation's candidates at once and simulates them with
  one `fl.simulate_batch` call (SIMD over the sets);
- vectorized=False: one `fl.simulate(p, t, v, hold="zoh")` per candidate.
Both take the same path (simulate_batch's rows equal simulate's to rounding), so the run prints
their wall times (median of the repetitions), the ratio, and that their best points agree.

Run (Release build):
    /usr/bin/python3 benchmarks/python/bench_batch_de.py [--build build] [--samples 20000] [--repeat 3]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (Release)")
    ap.add_argument("--samples", type=int, default=20000, help="record length (1 ms samples)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each search")
    a = ap.parse_args()
    if a.samples < 2 or a.repeat < 1:
        ap.error("need --samples >= 2 and --repeat >= 1")
    sys.path.insert(0, os.path.join(a.build, "python"))
    import frictionlab as fl
    from scipy.optimize import differential_evolution

    t = np.arange(a.samples) * 1e-3
    v = 0.005 * np.sin(2 * np.pi * 0.5 * t) + 0.002 * np.sin(2 * np.pi * 3.1 * t)
    truth = fl.LuGreParams(sigma0=1e5, sigma1=0.5, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001, alpha=2)
    F = fl.simulate(truth, t, v, hold="zoh").F + 0.01 * np.random.default_rng(0).standard_normal(t.size)

    def lugre(x):  # every candidate passive: sigma1 (Fs - Fc) / Fc <= 0.35 < sigma2
        return fl.LuGreParams(sigma0=10 ** x[0], sigma1=0.5, sigma2=x[2], Fc=1, Fs=x[1], vs=0.001, alpha=2)

    def sse_generation(X):  # X: (3, S), one column per candidate
        return ((fl.simulate_batch([lugre(x) for x in X.T], t, v) - F) ** 2).sum(axis=1)

    def sse_one(x):
        return float(((fl.simulate(lugre(x), t, v, hold="zoh").F - F) ** 2).sum())

    bounds = [(4, 6), (1.1, 1.7), (0.36, 0.6)]
    runs = {"batch": (sse_generation, True), "one by one": (sse_one, False)}
    times = {k: [] for k in runs}
    best = {}
    for _ in range(a.repeat):
        for k, (f, vectorized) in runs.items():
            t0 = time.perf_counter()
            r = differential_evolution(f, bounds, vectorized=vectorized, updating="deferred", seed=1,
                                       maxiter=40, tol=0, polish=False)
            times[k].append(time.perf_counter() - t0)
            best[k] = r
    tb, to = statistics.median(times["batch"]), statistics.median(times["one by one"])
    r = best["batch"]
    print(f"{a.samples} samples, {r.nit} generations, {best['one by one'].nfev} candidates "
          f"simulated (median of {a.repeat} runs)")
    print(f"  simulate_batch per generation: {tb:.3f} s; simulate per candidate: {to:.3f} s; "
          f"ratio {to / tb:.2f}")
    for k, res in best.items():
        print(f"  {k:11} sigma0 {10 ** res.x[0]:.6g}  Fs {res.x[1]:.6g}  sigma2 {res.x[2]:.6g}  "
              f"SSE {res.fun:.10g}")
    same = np.allclose(best["batch"].x, best["one by one"].x, rtol=1e-9, atol=0)
    print(f"  the same best point (to 1e-9): {same}")


if __name__ == "__main__":
    main()
