"""The fleet run on Dask distributed (docs/fleet.md, "Running").

`run` lists a fleet's sessions (manifest or directory layout), computes every task's key,
skips the keys the results store already holds as done, and submits the others to a Dask
cluster: by default a LocalCluster of worker processes on this machine (nothing to start by
hand), or an existing cluster (`scheduler="tcp://HOST:PORT"`). One task is one identification
(fleet.tasks.identify); tasks are independent; the workers read the record files themselves.
The client writes each result as it arrives, in one transaction per task, so a run stopped at any
point (Ctrl-C, a killed client, a killed worker: the scheduler re-runs that worker's tasks)
resumes by running it again: what is done is skipped, nothing is written twice.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass, field

from .config import FleetConfig, FleetInputError, Session, discover, read_config, read_manifest
from .tasks import IDENTITY, Task, identify, make_task, tool_version


@dataclass
class RunSummary:
    """What a run did."""
    run_id: int
    tasks: int                 # sessions listed
    already_done: int          # skipped: done by an earlier run
    skipped_failed: int        # skipped: failed before with the same key (retry_failed=False)
    submitted: int
    done: int = 0
    failed: int = 0
    not_written: int = 0       # results whose key another writer had stored meanwhile
    seconds: float = 0.0
    interrupted: bool = False
    workers: int = 0
    failures: list = field(default_factory=list)   # (robot, joint, session, error) of this run

    def line(self) -> str:
        s = (f"run {self.run_id}: {self.tasks} tasks, {self.already_done} already done"
             + (f", {self.skipped_failed} failed before (not retried)" if self.skipped_failed else "")
             + f"; ran {self.done + self.failed} of {self.submitted} ({self.done} done, "
             f"{self.failed} failed) in {self.seconds:.1f} s on {self.workers} worker(s)")
        return s + (" - interrupted: run again to resume" if self.interrupted else "")


def sessions_of(config: FleetConfig, *, manifest: str | None = None,
                root: str | None = None) -> list[Session]:
    """The sessions of a manifest or of a directory layout (exactly one of them)."""
    if (manifest is None) == (root is None):
        raise FleetInputError("give a manifest (CSV) or a root directory, not both or neither")
    return read_manifest(manifest, config) if manifest else discover(root, config)


def plan(config: FleetConfig, sessions: list[Session]) -> list[Task]:
    """Every session's task (its files hashed here, on the client: keys are known before any
    work is submitted)."""
    version = tool_version()
    return [make_task(s, config.joint_types[s.joint_type], version) for s in sessions]


def _package_path() -> str:
    import frictionlab
    return os.path.dirname(os.path.dirname(os.path.abspath(frictionlab.__file__)))


def _client(scheduler: str | None, workers: int | None):
    """A Dask client: on `scheduler`, or on a new LocalCluster of `workers` processes with one
    thread each (every identification is single-threaded there, the cores are the workers)."""
    from distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler, timeout="30s"), None
    # worker processes import frictionlab like this process does
    path = _package_path()
    pp = os.environ.get("PYTHONPATH", "")
    if path not in pp.split(os.pathsep):
        os.environ["PYTHONPATH"] = path + (os.pathsep + pp if pp else "")
    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster), cluster


def _failed(task: Task, error: str) -> dict:
    """The result of a task that could not run at all (no worker finished it)."""
    p = task.payload()
    now = time.time()
    return {**{k: p[k] for k in IDENTITY},
            "status": "failed", "error": error, "models": [], "started_at": now,
            "finished_at": now, "seconds": 0.0, "worker": "", "attempts": 0}


def run(config: FleetConfig | str, *, manifest: str | None = None, root: str | None = None,
        db: str = "fleet.sqlite", scheduler: str | None = None, workers: int | None = None,
        retry_failed: bool = False, progress: bool | None = None,
        threads_per_task: int = 1) -> RunSummary:
    """Identify every session of a fleet not done yet, on Dask, into the results store `db`.

    config: a FleetConfig or the path of its file; manifest / root: where the sessions are listed
    (config.discover / config.read_manifest); db: a SQLite path or a postgresql:// URL
    (fleet.store.open_store); scheduler: an existing Dask scheduler's address, else a LocalCluster
    of `workers` processes (default: one per core); retry_failed: run again the tasks that failed
    with the same key (default: keep their failure); progress: a live bar on stderr (default:
    when stderr is a terminal; else a line every 10 % of the tasks). A KeyboardInterrupt marks the
    run "interrupted" in the store and is raised again; everything finished before it is kept.
    """
    from .store import open_store
    if not isinstance(config, FleetConfig):
        config = read_config(config)
    sessions = sessions_of(config, manifest=manifest, root=root)
    tasks = plan(config, sessions)
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise FleetInputError("two sessions have the same key (same robot, joint, session)")
    if progress is None:
        progress = sys.stderr.isatty()
    started = time.time()
    with open_store(db) as store:
        status = store.task_status()
        todo = [t for t in tasks
                if status.get(t.key) != "done" and (retry_failed or status.get(t.key) != "failed")]
        summary = RunSummary(0, len(tasks), sum(status.get(k) == "done" for k in keys),
                             0 if retry_failed else sum(status.get(k) == "failed" for k in keys),
                             len(todo))
        summary.run_id = store.begin_run(config.hash, tool_version(), config.text, len(tasks))
        client = cluster = None
        futures = []
        bar = None
        try:
            if todo:
                from distributed import as_completed
                client, cluster = _client(scheduler, workers)
                summary.workers = len(client.scheduler_info().get("workers", {}))
                futures = client.map(identify, [t.payload(threads_per_task) for t in todo],
                                     key=[f"fleet-{t.key}" for t in todo], pure=False)
                if progress:
                    from tqdm import tqdm
                    bar = tqdm(total=len(todo), desc="fleet", unit="task", file=sys.stderr)
                step = max(1, len(todo) // 10)
                by_key = {f.key: t for f, t in zip(futures, todo)}
                for fut in as_completed(futures):
                    try:
                        result = fut.result()
                    except KeyboardInterrupt:
                        raise
                    except Exception as e:  # noqa: BLE001: the task itself could not run
                        # (its worker process died on it more often than the scheduler allows:
                        # distributed's KilledWorker): a failed task, the run goes on
                        result = _failed(by_key[fut.key], f"{type(e).__name__}: {e}")
                    written = store.record_task(summary.run_id, result)
                    fut.release()
                    if not written:
                        summary.not_written += 1
                    elif result["status"] == "done":
                        summary.done += 1
                    else:
                        summary.failed += 1
                        summary.failures.append((result["robot"], result["joint"],
                                                 result["session"], result["error"]))
                    n = summary.done + summary.failed + summary.not_written
                    if bar is not None:
                        bar.update(1)
                    elif n % step == 0 or n == len(todo):
                        print(f"frictionlab fleet: {n} of {len(todo)} tasks "
                              f"({summary.failed} failed)", file=sys.stderr, flush=True)
            summary.seconds = time.time() - started
            store.end_run(summary.run_id, "done")
        except KeyboardInterrupt:
            summary.interrupted = True
            summary.seconds = time.time() - started
            store.end_run(summary.run_id, "interrupted")
            raise
        finally:
            if bar is not None:
                bar.close()
            if client is not None:
                if futures:
                    client.cancel(futures)
                client.close()
            if cluster is not None:
                cluster.close()
    return summary


def status(db: str) -> dict:
    """The state of a results store: every run (id, status, tasks listed, started, finished),
    the task counts by status, and the failures with their messages (newest run first)."""
    from .store import open_store
    with open_store(db, create=False) as store:
        runs = store.runs()
        tasks = store.tasks()
    counts = tasks["status"].value_counts().to_dict() if len(tasks) else {}
    failures = tasks[tasks["status"] == "failed"] if len(tasks) else tasks
    return {"runs": runs, "counts": counts, "failures": failures, "tasks": tasks}
