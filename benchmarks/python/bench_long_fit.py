#!/usr/bin/python3
"""A long sensorless LuGre fit: wall time, peak memory and the progress lines of `frictionlab fit`.

The record (t, current, velocity, torque at 1 kHz; default 2 000 000 samples, 33 min): a 1 Hz
oscillation whose amplitude sweeps between 0.05 and 1 rad/s over 37 s plus a 0.3 rad/s drift of
period 11 s (reversals throughout), LuGre friction simulated by frictionlab's exact step (truth
Km = 2 Nm/A, Kw = 0.5 Nm s/rad, Fc = 1 Nm, Fs = 1.5 Nm, Vth = 0.1 rad/s, alpha = 1,
S0 = 500 Nm/rad, S1 = 0.5 Nm s/rad), a smooth random current, Gaussian torque noise 0.02 Nm.
The fit runs as a user would run it (the CLI, default options) under /usr/bin/time; the script
prints the wall and CPU time, the peak resident memory, the progress lines with their time
stamps (the estimates of the time left), and the relative error of every parameter.

Run (Release build):
    /usr/bin/python3 benchmarks/python/bench_long_fit.py [--build build] [--samples 2000000]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

TRUTH = {"Km": 2.0, "Kw": 0.5, "Fc": 1.0, "Fs": 1.5, "Vth": 0.1, "S0": 500.0, "S1": 0.5}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (Release)")
    ap.add_argument("--samples", type=int, default=2_000_000)
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.build, "python"))
    import frictionlab as fl

    n = a.samples
    t = np.arange(n) * 1e-3
    rng = np.random.default_rng(1)
    v = (np.sin(2 * np.pi * t) * (0.05 + 0.95 * (0.5 + 0.5 * np.sin(2 * np.pi * t / 37.0)))
         + 0.3 * np.sin(2 * np.pi * t / 11.0))
    p = fl.LuGreParams(sigma0=TRUTH["S0"], sigma1=TRUTH["S1"], sigma2=TRUTH["Kw"], Fc=TRUTH["Fc"],
                       Fs=TRUTH["Fs"], vs=TRUTH["Vth"], alpha=1.0)
    F = fl.simulate(p, t, v).F
    i = 0.5 * np.sin(2 * np.pi * 0.3 * t) + 0.2 * rng.standard_normal(n).cumsum() / np.sqrt(n)
    tau = TRUTH["Km"] * i - F + 0.02 * rng.standard_normal(n)
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "long.csv")
        np.savetxt(rec, np.column_stack([t, i, v, tau]), delimiter=",", header="t,current,velocity,torque",
                   comments="", fmt="%.17g")
        cmd = ["/usr/bin/time", "-f", "TIME %e %U %M", os.path.join(a.build, "apps", "frictionlab", "frictionlab"),
               "fit", "--problem", "sensorless", "--model", "lugre", "--input", rec, "--time", "t",
               "--velocity", "velocity", "--current", "current", "--force", "torque", "--out",
               os.path.join(d, "fit")]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        lines = []
        for line in proc.stderr:
            lines.append((time.perf_counter() - t0, line.rstrip()))
        proc.wait()
        if proc.returncode != 0:
            sys.exit("the fit failed:\n" + "\n".join(l for _, l in lines))
        wall, user, rss_kb = next(map(float, l.split()[1:]) for _, l in lines if l.startswith("TIME "))
        print(f"{n} samples ({n / 1000 / 60:.1f} min at 1 kHz): wall {wall:.1f} s, user {user:.1f} s, "
              f"peak memory {rss_kb / 1024:.0f} MiB")
        for s, l in lines:
            if not l.startswith("TIME "):
                print(f"  {s:7.2f} s  {l}")
        fit = json.load(open(os.path.join(d, "fit", "fit.json")))
        values = {q["name"]: q["value"] for q in fit["parameters"]}
        print("relative errors: " + ", ".join(f"{k} {(values[k] - x) / x:+.1e}" for k, x in TRUTH.items()))
        left = [l for _, l in lines if re.search(r"about [0-9.e+-]+ s left", l)]
        print(f"progress lines with an estimate of the time left: {len(left)}")


if __name__ == "__main__":
    main()
