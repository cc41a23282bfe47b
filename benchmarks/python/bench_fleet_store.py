"""Write and read rates of the fleet results store (frictionlab.fleet.store) on SQLite and PostgreSQL.

Not a test (docs/fleet.md, "Results store"). One writer process records N done tasks (one model with
--params parameters each, the engine's write: Store.record_task, one transaction per task), as the
Dask client does; then it records them all again (every write refused: a resumed run's cost), reads
done_keys() and parameters(), and measures the database's size per task.

  * SQLite: a file in a temporary directory under --dir (default: the system's temporary directory;
    give a directory on the disk the real store will be on), WAL mode, synchronous FULL (SQLite's
    default);
  * PostgreSQL: a private server started for the run (python/tests/_postgres.py: initdb into a
    temporary directory, loopback TCP), with PostgreSQL's default durability (fsync on,
    synchronous_commit on), reached over TCP on 127.0.0.1.
Each figure is the best of --repeat runs (a fresh store each), the least disturbed on a shared machine.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/bench_fleet_store.py \
           [--tasks 2000] [--params 10] [--repeat 3] [--dir DIR] [--no-postgres]
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "tests"))  # _postgres.py


def task(i, n_params):
    """The i-th synthetic done task with one selected model of n_params parameters."""
    return {"key": f"{i:064x}", "robot": f"robot{i // 12:05d}", "joint": f"j{(i // 2) % 6}",
            "joint_type": "revolute", "session": f"s{i % 2}", "session_time": f"2026-11-0{1 + i % 2}T02:00:00Z",
            "tags": {"type": "arm-6", "firmware": "4.2.1"},
            "inputs": [{"path": f"/fleet/robot{i // 12:05d}/j{(i // 2) % 6}/s{i % 2}/log.csv",
                        "sha256": "a" * 64, "bytes": 480000}],
            "inputs_hash": "b" * 64, "config_hash": "c" * 64, "tool_version": "0.1.0", "status": "done",
            "error": None, "started_at": 1.8e9 + i, "finished_at": 1.8e9 + i + 0.8, "seconds": 0.8,
            "worker": "tcp://127.0.0.1:40000", "attempts": 1,
            "models": [{"model": "lugre", "selected": True, "train_rmse": 0.0123, "validation_rmse": 0.0134,
                        "aicc": -31234.5, "metrics": {"n_samples": 10000},
                        "parameters": [{"name": f"p{k}", "value": 1.0 + k + i * 1e-6, "std_error": 0.01,
                                        "ci_low": 0.98 + k, "ci_high": 1.02 + k, "unit": "N m",
                                        "determined": True} for k in range(n_params)]}]}


def measure(url, n, n_params, size_of):
    """Seconds per record_task (new tasks, then refused repeats), done_keys, parameters; bytes per task."""
    from frictionlab.fleet.store import open_store

    results = [task(i, n_params) for i in range(n)]
    with open_store(url) as store:
        run = store.begin_run("c" * 64, "0.1.0", "config", n)
        t0 = time.perf_counter()
        for r in results:
            assert store.record_task(run, r)
        write = (time.perf_counter() - t0) / n
        t0 = time.perf_counter()
        for r in results:
            assert not store.record_task(run, r)
        again = (time.perf_counter() - t0) / n
        t0 = time.perf_counter()
        assert len(store.done_keys()) == n
        keys = time.perf_counter() - t0
        t0 = time.perf_counter()
        assert len(store.parameters()) == n * n_params
        params = time.perf_counter() - t0
        store.end_run(run, "done")
        size = size_of(store)
    return write, again, keys, params, size / n


def sqlite_size(store):
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return os.path.getsize(store.url)


def postgres_size(store):
    cur = store._conn.cursor()
    cur.execute("VACUUM ANALYZE")
    cur.execute("SELECT SUM(pg_total_relation_size(c)) FROM (VALUES ('tasks'), ('results'), ('parameters'), "
                "('runs'), ('schema_version')) AS t(c)")
    return int(cur.fetchone()[0])


def report(name, rows):
    write, again, keys, params, size = (min(r[i] for r in rows) for i in range(5))
    print(f"{name:11} {1 / write:10.0f} {write * 1e3:9.2f} {1 / again:12.0f} {keys * 1e3:12.1f} "
          f"{params * 1e3:14.1f} {size:10.0f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=2000)
    ap.add_argument("--params", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=None, help="where the SQLite files go (default: a temporary directory)")
    ap.add_argument("--no-postgres", action="store_true")
    a = ap.parse_args()
    n = a.tasks
    print(f"{n} tasks, 1 model x {a.params} parameters each; best of {a.repeat}")
    print(f"{'store':11} {'tasks/s':>10} {'ms/task':>9} {'refused/s':>12} "
          f"{'done_keys ms':>12} {'parameters ms':>14} {'bytes/task':>10}")
    top = tempfile.mkdtemp(prefix="bench-fleet-store-", dir=a.dir)
    try:
        rows = []
        for k in range(a.repeat):
            rows.append(measure(os.path.join(top, f"r{k}.sqlite"), n, a.params, sqlite_size))
        report("sqlite", rows)
    finally:
        shutil.rmtree(top)
    if a.no_postgres:
        return
    from _postgres import fresh_database, postgres_server

    with postgres_server() as server:
        rows = []
        for _ in range(a.repeat):
            with fresh_database(server) as url:
                rows.append(measure(url, n, a.params, postgres_size))
        report("postgresql", rows)


if __name__ == "__main__":
    main()
