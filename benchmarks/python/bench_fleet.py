#!/usr/bin/env python3
"""Fleet benchmark (docs/fleet.md, "Measured on this machine"): a synthetic fleet of ROBOTS robots
x 6 joints x 2 sessions (10 s at 1 kHz each) identified on a LocalCluster with 1 and with 2 worker
processes into SQLite; per run the fits per second and the store's share of the client's time;
the scheduler's overhead per task (the same submission path with a task that does nothing); and
the store's write rate alone (record_task of the run's results into a new file).

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/bench_fleet.py [--robots 200] [--dir /tmp/fleet_bench]

A measurement, not a test: the numbers depend on the machine and its load.
"""
import argparse
import os
import shutil
import sys
import time

from frictionlab.fleet import engine, synthetic
from frictionlab.fleet.store import open_store

# six joints of an arm, by joint type (synthetic.JOINT_TYPES: shoulder LuGre, elbow Stribeck,
# wrist Coulomb-viscous)
JOINTS = {"shoulder_pan": "shoulder", "shoulder_lift": "shoulder", "elbow": "elbow",
          "wrist_1": "wrist", "wrist_2": "wrist", "wrist_3": "wrist"}


def _noop(x):
    return x


def scheduler_overhead(workers: int, n: int = 2000) -> float:
    """Seconds per task of submitting n trivial tasks and collecting them as the engine does."""
    from distributed import Client, LocalCluster, as_completed
    import logging
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    try:
        client.submit(_noop, 0).result()   # warm up
        t0 = time.perf_counter()
        futures = client.map(_noop, range(n), pure=False)
        for f in as_completed(futures):
            f.result()
        return (time.perf_counter() - t0) / n
    finally:
        client.close()
        cluster.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--robots", type=int, default=200)
    ap.add_argument("--dir", default="/tmp/frictionlab_fleet_bench")
    ap.add_argument("--workers", default="1,2")
    a = ap.parse_args()
    root = os.path.join(a.dir, "fleet")
    if not os.path.isdir(root):
        t0 = time.perf_counter()
        synthetic.generate(root, robots=a.robots, joints=JOINTS, sessions=2, seconds=10.0,
                           seed=1, corrupt=0)
        print(f"generated {a.robots} x {len(JOINTS)} x 2 records in {time.perf_counter() - t0:.1f} s")
    config = os.path.join(root, "fleet.json")
    manifest = os.path.join(root, "manifest.csv")
    n_tasks = a.robots * len(JOINTS) * 2
    for w in (int(x) for x in a.workers.split(",")):
        db = os.path.join(a.dir, f"w{w}.sqlite")
        if os.path.exists(db):
            os.remove(db)
        t0 = time.perf_counter()
        s = engine.run(config, manifest=manifest, db=db, workers=w, progress=False)
        wall = time.perf_counter() - t0
        with open_store(db) as store:
            tasks = store.tasks()
        fit_s = tasks["seconds"].sum()
        print(f"{w} worker(s): {n_tasks} tasks in {wall:.1f} s = {n_tasks / wall:.2f} fits/s "
              f"(mean fit {fit_s / n_tasks:.3f} s of worker time; {s.failed} failed); "
              f"database {os.path.getsize(db) / 1e6:.1f} MB")
        overhead = scheduler_overhead(w)
        print(f"{w} worker(s): scheduler round trip {overhead * 1e3:.2f} ms per task")
    # the store alone: rewrite the last run's results into a new file
    with open_store(db) as store:
        tasks = store.tasks()
        params = store.parameters(selected_only=False)
    results = []
    for _, t in tasks.iterrows():
        ps = params[params.key == t["key"]]
        models = []
        for m, g in ps.groupby("model"):
            models.append({"model": m, "selected": bool(g["selected"].iloc[0]),
                           "train_rmse": float(g["train_rmse"].iloc[0]),
                           "validation_rmse": None, "aicc": None, "metrics": {},
                           "parameters": [{"name": r["name"], "value": r["value"],
                                           "std_error": r["std_error"], "ci_low": r["ci_low"],
                                           "ci_high": r["ci_high"], "unit": r["unit"],
                                           "determined": bool(r["determined"])}
                                          for _, r in g.iterrows()]})
        results.append({**{k: t[k] for k in ("key", "robot", "joint", "joint_type", "session",
                                             "session_time", "tags", "inputs")},
                        "inputs_hash": "", "config_hash": "", "tool_version": "bench",
                        "status": "done", "error": None, "started_at": 0.0, "finished_at": 0.0,
                        "seconds": 0.0, "worker": "", "attempts": 1, "models": models})
    db2 = os.path.join(a.dir, "rewrite.sqlite")
    if os.path.exists(db2):
        os.remove(db2)
    with open_store(db2) as store:
        run = store.begin_run("bench", "bench", "{}", len(results))
        t0 = time.perf_counter()
        for r in results:
            store.record_task(run, r)
        dt = time.perf_counter() - t0
    print(f"SQLite store: {len(results) / dt:.0f} tasks/s written "
          f"({len(params)} parameter rows, {len(params) / dt:.0f} rows/s)")
    shutil.rmtree(os.path.join(a.dir, "unused"), ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
