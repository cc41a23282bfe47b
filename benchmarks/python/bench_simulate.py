"""Per-sample cost of frictionlab.simulate from Python against the C++ benchmark of the same step.

Not a test (docs/python.md, "Performance"). Runs, in one script:
  * C++: bench_models (benchmarks/bench_models.cpp) BM_LuGre_zoh<double> and BM_LuGre_linear<double>:
    the exact LuGre step plus force per sample, default parameters, h = 1 ms, velocity
    0.01 sin(0.0123 k) + 0.002 sin(0.21 k) cycling over 4096 samples;
  * Python: frictionlab.simulate on a 1e6-sample record of the same velocity sequence, same
    parameters and step (best of --repeat runs), i.e. workflows::simulate_model (input checks,
    one copy of t and v into the library's vectors, the step, F and z stored per sample, the
    finiteness and bound checks) plus the binding;
  * the call overhead of frictionlab.LuGre.step and LuGre.force on one sample.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/bench_simulate.py \
           [--bench build/benchmarks/bench_models] [--samples 1000000] [--repeat 7]
(bench_models needs -DFRICTIONLAB_BUILD_BENCHMARKS=ON and `cmake --build build --target bench_models`).
"""
import argparse
import json
import os
import subprocess
import sys
import time
import timeit
import warnings

import numpy as np

import frictionlab


def cpp_ns(bench, name):
    r = subprocess.run([bench, f"--benchmark_filter=^{name}$", "--benchmark_format=json",
                        "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"],
                       capture_output=True, text=True, check=True)
    rows = json.loads(r.stdout)["benchmarks"]
    row = next(b for b in rows if b.get("aggregate_name") == "median")
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[row["time_unit"]]
    return row["real_time"] * scale


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(here, "..", "..", "build", "benchmarks", "bench_models"))
    ap.add_argument("--samples", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()

    warnings.simplefilter("ignore")  # the default LuGre set is not passive (a warning)
    p = frictionlab.LuGreParams()  # the C++ benchmark's parameters (LuGre<double>::Params{})
    n = a.samples
    k = np.arange(n) % 4096
    v = 0.01 * np.sin(0.0123 * k) + 0.002 * np.sin(0.21 * k)
    t = np.arange(n) * 1e-3
    print(f"frictionlab {frictionlab.__version__}, {n} samples, LuGre defaults, h = 1 ms")
    print(f"{'hold':8} {'C++ step+force':>16} {'Python simulate':>17} {'ratio':>8}")
    for hold, bench in (("zoh", "BM_LuGre_zoh<double>"), ("linear", "BM_LuGre_linear<double>")):
        c = cpp_ns(a.bench, bench)
        frictionlab.simulate(p, t[:1000], v[:1000], hold=hold)
        best = min(timeit.repeat(lambda: frictionlab.simulate(p, t, v, hold=hold), number=1, repeat=a.repeat))
        py = best / n * 1e9
        print(f"{hold:8} {c:13.1f} ns {py:14.1f} ns {py / c:8.3f}")

    x = frictionlab.LuGre.State()
    step = frictionlab.LuGre.step
    force = frictionlab.LuGre.force
    m = 200_000
    ts = min(timeit.repeat(lambda: step(p, x, 0.01, 1e-3), number=m, repeat=5)) / m * 1e9
    tl = min(timeit.repeat(lambda: step(p, x, 0.01, 1e-3, 0.011), number=m, repeat=5)) / m * 1e9
    tf = min(timeit.repeat(lambda: force(p, x, 0.01), number=m, repeat=5)) / m * 1e9
    tn = min(timeit.repeat(lambda: None, number=m, repeat=5)) / m * 1e9
    print(f"one sample from Python: LuGre.step (zoh) {ts:.0f} ns, LuGre.step (linear, v1=) {tl:.0f} ns, "
          f"LuGre.force {tf:.0f} ns (an empty lambda call: {tn:.0f} ns)")


if __name__ == "__main__":
    sys.exit(main())
