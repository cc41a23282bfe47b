"""Per-sample cost of frictionlab.simulate from Python against the C++ benchmarks of the same work.

Not a test (docs/python.md, "Performance"). Runs, in one script:
  * C++ bench_workflows (benchmarks/bench_workflows.cpp) BM_simulate_model/zoh and /linear:
    workflows::simulate_model from C++ on a 1e6-sample record (input checks, the exact LuGre
    step, F and z stored per sample, the finiteness and bound checks): the same work as the
    Python call, so the ratio is the binding's overhead;
  * C++ bench_models BM_LuGre_zoh<double> and BM_LuGre_linear<double>: the bare step plus force
    per sample (no storage, no checks), for scale;
  * Python: frictionlab.simulate on the same 1e6-sample record (default LuGre parameters,
    h = 1 ms, the velocity 0.01 sin(0.0123 k) + 0.002 sin(0.21 k) cycling over 4096 samples);
  * the call overhead of frictionlab.LuGre.step and LuGre.force on one sample.
Every figure is the best of its repetitions (the least disturbed run on a shared machine).

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/bench_simulate.py \
           [--bench-dir build/benchmarks] [--samples 1000000] [--repeat 7]
(needs -DFRICTIONLAB_BUILD_BENCHMARKS=ON and `cmake --build build --target bench_models bench_workflows`).
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


def cpp_ns(bench, name, per_items=1, repeat=5):
    """Best real time [ns] of the Google Benchmark `name` over `repeat` repetitions, per item."""
    r = subprocess.run([bench, f"--benchmark_filter=^{name}$", "--benchmark_format=json",
                        f"--benchmark_repetitions={repeat}"],
                       capture_output=True, text=True, check=True)
    rows = [b for b in json.loads(r.stdout)["benchmarks"] if b.get("run_type") == "iteration"]
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[rows[0]["time_unit"]]
    return min(b["real_time"] for b in rows) * scale / per_items


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-dir", default=os.path.join(here, "..", "..", "build", "benchmarks"))
    ap.add_argument("--samples", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    # The module of the same build as the C++ benchmarks (not an installed, maybe older, one).
    build_python = os.path.join(a.bench_dir, "..", "python")
    if os.path.isdir(build_python):
        sys.path.insert(0, os.path.abspath(build_python))
    global frictionlab
    import frictionlab
    print(f"module: {frictionlab.__file__}")
    models = os.path.join(a.bench_dir, "bench_models")
    workflows = os.path.join(a.bench_dir, "bench_workflows")

    warnings.simplefilter("ignore")  # the default LuGre set is not passive (a warning)
    p = frictionlab.LuGreParams()  # the C++ benchmarks' parameters (LuGre<double>::Params{})
    n = a.samples
    k = np.arange(n) % 4096
    v = 0.01 * np.sin(0.0123 * k) + 0.002 * np.sin(0.21 * k)
    t = np.arange(n) * 1e-3
    print(f"frictionlab {frictionlab.__version__}, {n} samples, LuGre defaults, h = 1 ms, ns per sample")
    print(f"{'hold':8} {'C++ step':>10} {'C++ simulate_model':>19} {'Python simulate':>16} "
          f"{'Python/C++ simulate':>20} {'Python/step':>12}")
    for hold, step_bench in (("zoh", "BM_LuGre_zoh<double>"), ("linear", "BM_LuGre_linear<double>")):
        c_step = cpp_ns(models, step_bench)
        c_sim = cpp_ns(workflows, f"BM_simulate_model/{hold}", per_items=1_000_000)
        frictionlab.simulate(p, t[:1000], v[:1000], hold=hold)
        best = min(timeit.repeat(lambda: frictionlab.simulate(p, t, v, hold=hold), number=1, repeat=a.repeat))
        py = best / n * 1e9
        print(f"{hold:8} {c_step:10.1f} {c_sim:19.1f} {py:16.1f} {py / c_sim:20.3f} {py / c_step:12.3f}")

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
