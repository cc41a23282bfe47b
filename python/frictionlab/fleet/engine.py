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

import ast
import logging
import multiprocessing
import multiprocessing.process
import os
import sys
import time
from dataclasses import dataclass, field

import frictionlab

from .analysis import current_results
from .config import FleetConfig, FleetInputError, Session, discover, read_config, read_manifest
from .keys import IDENTITY, Task, make_task, tool_version
from .store import open_store
from .tasks import identify


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


GUARD_HELP = ('call it under `if __name__ == "__main__":` (docs/fleet.md, "Python"): the '
              "LocalCluster's worker processes are started with multiprocessing's spawn, which "
              "imports the main module again in each of them")


def _main_module_problem() -> str | None:
    """Why a LocalCluster of worker processes (spawn) cannot start from this process, or None.

    Spawn imports the main module again in every new process (as ``__mp_main__``). That fails
    when the main module has no file to import (a script read from stdin: ``python3 - <
    script``), and it runs `run` again in each worker process when the script calls it at
    import time, not under ``if __name__ == "__main__":`` (Dask then restarts the worker
    processes over and over, each of which starts a run of its own). Detected: this process
    being such a re-import (multiprocessing's bootstrapping, `_inheriting`), a main module whose
    file does not exist, and a call from the main module's top level outside an ``if`` testing
    ``__name__`` (read from the file's syntax tree)."""
    if getattr(multiprocessing.process.current_process(), "_inheriting", False):
        return ("frictionlab.fleet.run was called while a new process was starting (the main "
                "module imported again by multiprocessing's spawn): a script must " + GUARD_HELP)
    main = sys.modules.get("__main__")
    path = shown = getattr(main, "__file__", None)
    if main is None or path is None:
        return None   # interactive, python3 -c: spawn does not import the main module
    # what multiprocessing.spawn.get_preparation_data / prepare do with it
    spec_name = getattr(getattr(main, "__spec__", None), "name", None)
    if spec_name is not None:
        if spec_name == "__main__" or spec_name.endswith(".__main__"):
            return None   # python3 -m package: not imported again
    else:
        if not os.path.isabs(path) and multiprocessing.process.ORIGINAL_DIR is not None:
            path = os.path.join(multiprocessing.process.ORIGINAL_DIR, path)
        if os.path.splitext(os.path.basename(path))[0] == "ipython":
            return None   # IPython's main: not imported again
    if not os.path.isfile(path):
        return (f"frictionlab.fleet.run: the main module {shown!r} is not a file (a script read from "
                "stdin?), and the LocalCluster's worker processes (multiprocessing's spawn) must "
                "import it again: run the script from a file, with the call under "
                '`if __name__ == "__main__":`, or give scheduler= an existing Dask cluster')
    # the outermost frame of the main module's own code: where the call started
    frame, line = sys._getframe(1), None
    while frame is not None:
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            line = frame.f_lineno
        frame = frame.f_back
    if line is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None   # cannot tell
    for node in tree.body:
        if (isinstance(node, ast.If) and _is_main_test(node.test)
                and node.lineno <= line <= (node.end_lineno or node.lineno)):
            return None
    return (f"frictionlab.fleet.run is called at the top level of the script {path} (line {line}): "
            + GUARD_HELP)


def _is_main_test(test) -> bool:
    """A test of `__name__` (`if __name__ == "__main__":` and its variants): taken as the guard;
    a wrong one is caught in the worker process (multiprocessing's bootstrapping, above)."""
    return any(isinstance(x, ast.Name) and x.id == "__name__" for x in ast.walk(test))


def _nothing() -> None:
    """What the spawn check's process runs (after importing the main module, like a worker)."""


SPAWN_CHECK_TIMEOUT_S = 120.0
"""How long the spawn check waits for its process to import the main module [s]."""


def _spawn_check() -> None:
    """Start one process the way the LocalCluster starts its workers (distributed's
    multiprocessing method, spawn by default: the main module imported again) and raise
    RuntimeError if it fails: a worker that cannot start is otherwise restarted over and over by
    its nanny and the run never ends. Catches what _main_module_problem cannot see (a guard that
    does not guard, a main module that fails on import)."""
    import dask
    method = dask.config.get("distributed.worker.multiprocessing-method", "spawn")
    if method == "fork":
        return
    p = multiprocessing.get_context(method).Process(target=_nothing, name="frictionlab-fleet-spawn-check")
    p.start()
    p.join(SPAWN_CHECK_TIMEOUT_S)
    if p.exitcode is None:
        p.kill()
        p.join()
        raise RuntimeError(
            f"frictionlab.fleet.run: a new process ({method}) did not finish importing the main "
            f"module in {SPAWN_CHECK_TIMEOUT_S:g} s, so no LocalCluster worker could start: "
            + GUARD_HELP)
    if p.exitcode != 0:
        main = getattr(sys.modules.get("__main__"), "__file__", "?")
        raise RuntimeError(
            f"frictionlab.fleet.run: a new process ({method}) importing the main module {main} "
            f"failed (exit status {p.exitcode}; its error is printed above), so no LocalCluster "
            "worker could start: " + GUARD_HELP)


def _package_path() -> str:
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
    # No dashboard; the scheduler's HTTP server (health routes) still starts, and on its default
    # port 8787 it warned "Port 8787 is already in use" whenever another Dask cluster (or run)
    # had it: port 0 lets the system choose one, without a warning.
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                           silence_logs=logging.ERROR)
    return Client(cluster), cluster


def _failed(task: Task, error: str) -> dict:
    """The result of a task that could not run at all (no worker finished it). Its attempts
    (the workers that died on it) are added from the scheduler's count at the end of the run."""
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
    with the same key (default: keep their failure); progress: True a live bar on stderr, False
    nothing, None (default) the bar when stderr is a terminal, else a line every 10 % of the tasks. A KeyboardInterrupt marks the
    run "interrupted" in the store and is raised again; everything finished before it is kept;
    any other error ends the run "failed" in the store (never left "running") and is raised.

    A LocalCluster starts its worker processes with multiprocessing's spawn, which imports the
    main module again in each: a script must call `run` under ``if __name__ == "__main__":``.
    `run` raises RuntimeError at once, before anything is stored, when it can tell that this is
    not so (a call from a script's top level, from a script read from stdin, or from a worker
    process's bootstrapping) or when one process started that way fails (_spawn_check), instead
    of starting workers that would fail and be restarted over and over.
    """
    if not scheduler:
        problem = _main_module_problem()
        if problem:
            raise RuntimeError(problem)
    if not isinstance(config, FleetConfig):
        config = read_config(config)
    sessions = sessions_of(config, manifest=manifest, root=root)
    tasks = plan(config, sessions)
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise FleetInputError("two sessions have the same key (same robot, joint, session)")
    lines = progress is None and not sys.stderr.isatty()  # a line every 10 % in place of the bar
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
        if todo and not scheduler:
            _spawn_check()   # before anything is stored: a LocalCluster must be able to start
        summary.run_id = store.begin_run(config.hash, tool_version(), config.text, len(tasks))
        client = cluster = None
        futures = []
        written_keys = []
        bar = None
        try:
            if todo:
                from distributed import as_completed
                client, cluster = _client(scheduler, workers)
                summary.workers = len(client.scheduler_info().get("workers", {}))
                try:  # counts the attempts of tasks whose worker died (not on a scheduler
                    # without frictionlab); imported here: _dask_plugin needs distributed
                    from ._dask_plugin import Attempts
                    client.register_scheduler_plugin(Attempts())
                except Exception:  # noqa: BLE001
                    pass
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
                    if written:
                        written_keys.append(fut.key)
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
                    elif lines and (n % step == 0 or n == len(todo)):
                        print(f"frictionlab fleet: {n} of {len(todo)} tasks "
                              f"({summary.failed} failed)", file=sys.stderr, flush=True)
            summary.seconds = time.time() - started
            _add_retries(store, client, written_keys)
            store.end_run(summary.run_id, "done")
        except KeyboardInterrupt:
            summary.interrupted = True
            summary.seconds = time.time() - started
            _add_retries(store, client, written_keys)
            store.end_run(summary.run_id, "interrupted")
            raise
        except BaseException:
            # the run itself failed (its cluster did not start, the store went away, ...): never
            # left "running"; what finished is kept and the next run resumes
            summary.seconds = time.time() - started
            try:
                store.end_run(summary.run_id, "failed")
            except Exception:  # noqa: BLE001: the original error is the one to see
                pass
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


def _add_retries(store, client, keys) -> None:
    """Add to the tasks' attempts the times a worker process died on them (the scheduler
    plugin's count), in one transaction; nothing when the plugin is not there."""
    if client is None or not keys:
        return
    try:
        from ._dask_plugin import retried as on_scheduler
        retried = client.run_on_scheduler(on_scheduler, keys)
    except Exception:  # noqa: BLE001: a scheduler without the plugin or frictionlab
        return
    if retried:
        store.add_attempts({k[len("fleet-"):]: n for k, n in retried.items()})


def status(db: str, config: FleetConfig | str | None = None) -> dict:
    """The state of a results store: every run (id, status, tasks listed, started, finished),
    the task counts by status and the failures with their messages, of the current task of each
    session (analysis.current_results: the newest run's, or with `config` the one of that
    configuration and this frictionlab version). "superseded": the task rows of earlier
    configurations or versions of the same sessions, not counted; "all_tasks": every row."""
    if config is not None and not isinstance(config, FleetConfig):
        config = read_config(config)
    with open_store(db, readonly=True) as store:
        runs = store.runs()
        all_tasks = store.tasks()
    tasks, superseded = current_results(all_tasks, config)
    counts = tasks["status"].value_counts().to_dict() if len(tasks) else {}
    failures = tasks[tasks["status"] == "failed"] if len(tasks) else tasks
    return {"runs": runs, "counts": counts, "failures": failures, "tasks": tasks,
            "superseded": superseded, "all_tasks": all_tasks}
