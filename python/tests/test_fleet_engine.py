"""frictionlab.fleet's engine on a real Dask LocalCluster with a real SQLite file and a real
PostgreSQL server (started by the tests): results equal single fits of the same files, corrupt
files fail alone with the library's message, nothing is done twice, a killed worker process is
retried, an interrupted run resumes to the same results, and a second identical run does no work.
The fleet is the project's synthetic generator's (frictionlab.fleet.synthetic)."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import frictionlab as fl
from frictionlab.fleet import config as fconfig
from frictionlab.fleet import engine, synthetic
from frictionlab.fleet.store import open_store

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    """A small synthetic fleet: 4 robots x 2 joint types x 3 sessions (24 tasks), 2 corrupt."""
    root = tmp_path_factory.mktemp("fleet")
    truth = synthetic.generate(root, robots=4, joints=("shoulder", "wrist"), sessions=3,
                               seconds=2.0, seed=3, corrupt=2)
    return root, truth


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "fleet.sqlite")
    return request.getfixturevalue("postgres_url")


def _params_table(db_url):
    with open_store(db_url) as s:
        p = s.parameters(selected_only=False)
        t = s.tasks()
    cols = ["robot", "joint", "session", "model", "name", "value", "std_error"]
    return p[cols].sort_values(cols[:5]).reset_index(drop=True), t


def _corrupt_files(root, truth):
    return {os.path.abspath(os.path.join(root, c["file"])) for c in truth.get("corrupt", [])}


def test_run_equals_single_fits_and_corrupt_files_fail_alone(fleet, db):
    root, truth = fleet
    s = engine.run(os.path.join(root, "fleet.json"), manifest=os.path.join(root, "manifest.csv"),
                   db=db, workers=2, progress=False)
    sessions = fconfig.read_manifest(os.path.join(root, "manifest.csv"),
                                     fconfig.read_config(os.path.join(root, "fleet.json")))
    assert s.tasks == len(sessions) == 24
    assert s.done + s.failed == 24 and s.failed == len(_corrupt_files(root, truth)) == 2
    params, tasks = _params_table(db)
    # every corrupt file is a failed task with the library's message; every other one is done
    failed = tasks[tasks["status"] == "failed"]
    corrupt = _corrupt_files(root, truth)
    assert {p for ins in failed["inputs"] for p in (i["path"] for i in ins)} == corrupt
    assert all(isinstance(e, str) and e for e in failed["error"])
    # the fleet's results are those of the library run on the same files with the same options
    cfg = json.loads(open(os.path.join(root, "fleet.json")).read())
    done = tasks[tasks["status"] == "done"].iloc[:3]
    for _, t in done.iterrows():
        jt = cfg["joint_types"][t["joint_type"]]
        opts = dict(jt["options"])
        channels = {k: opts.pop(k) for k in ("time", "velocity", "force") if k in opts}
        rec = fl.Record.read(t["inputs"][0]["path"], **channels)
        n = len(rec.t)
        cut = int(round(0.8 * n)) if jt["validation"] == "last-20%" else n
        tr = fl.Record(rec.t[:cut], velocity=rec.velocity[:cut], force=rec.force[:cut])
        f = fl.fit(tr, **{"threads": 1, **opts})
        mine = params[(params.robot == t["robot"]) & (params.joint == t["joint"]) &
                      (params.session == t["session"])]
        for p in f.parameters:
            if p.fixed:
                continue
            row = mine[mine.name == p.name]
            assert len(row) == 1 and row["value"].iloc[0] == p.value   # bit for bit
    # a second identical run does no work
    again = engine.run(os.path.join(root, "fleet.json"), manifest=os.path.join(root, "manifest.csv"),
                       db=db, workers=2, progress=False)
    assert again.submitted == 0 and again.already_done == 22 and again.skipped_failed == 2
    params2, _ = _params_table(db)
    assert params2.equals(params)


def _descendants(pid):
    """Process ids of every descendant of `pid` (from /proc)."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _cli(args, **kw):
    env = dict(os.environ)
    return subprocess.Popen([sys.executable, "-m", "frictionlab.fleet", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _wait_done(db_url, n, proc, timeout=120):
    """Wait until the store holds at least n finished tasks (or the process ended)."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        with open_store(db_url) as s:
            k = len(s.tasks())
        if k >= n or proc.poll() is not None:
            return k
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} tasks after {timeout} s")


@pytest.fixture(scope="module")
def slow_fleet(tmp_path_factory):
    """A fleet whose tasks take long enough to be caught mid-run: 6 robots x 2 joints x 2 sessions
    of LuGre-type joints (4 s records), no corrupt file."""
    root = tmp_path_factory.mktemp("slow")
    truth = synthetic.generate(root, robots=6, joints=("shoulder", "elbow"), sessions=2,
                               seconds=4.0, seed=5, corrupt=0)
    return root, truth


@pytest.fixture(scope="module")
def reference(slow_fleet, tmp_path_factory):
    """The slow fleet run once without interruption (SQLite): the results to compare with."""
    root, _ = slow_fleet
    url = str(tmp_path_factory.mktemp("ref") / "ref.sqlite")
    engine.run(os.path.join(root, "fleet.json"), root=None, manifest=os.path.join(root, "manifest.csv"),
               db=url, workers=2, progress=False)
    return _params_table(url)[0]


def test_killed_worker_is_retried_and_every_task_done_once(slow_fleet, reference, db):
    root, _ = slow_fleet
    p = _cli(["run", os.path.join(root, "fleet.json"), "--manifest",
              os.path.join(root, "manifest.csv"), "--db", db, "--workers", "2", "--no-progress"])
    _wait_done(db, 3, p)
    workers = [c for c in _descendants(p.pid) if "spawn_main" in _cmdline(c)]
    assert workers, "no worker process found"
    os.kill(workers[0], signal.SIGKILL)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    params, tasks = _params_table(db)
    assert len(tasks) == 24 and (tasks["status"] == "done").all()
    assert tasks["key"].is_unique
    assert params.equals(reference)          # the same results, each parameter row once


def test_interrupted_run_resumes_to_the_same_results(slow_fleet, reference, db):
    root, _ = slow_fleet
    args = ["run", os.path.join(root, "fleet.json"), "--manifest",
            os.path.join(root, "manifest.csv"), "--db", db, "--workers", "2", "--no-progress"]
    p = _cli(args)
    k = _wait_done(db, 4, p)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "run again to resume" in err
    with open_store(db) as s:
        runs = s.runs()
        interrupted = len(s.tasks())
    assert runs["status"].iloc[-1] == "interrupted" and k <= interrupted < 24
    q = _cli(args)
    out, err = q.communicate(timeout=300)
    assert q.returncode == 0, err
    assert f"{interrupted} already done" in out
    params, tasks = _params_table(db)
    assert len(tasks) == 24 and tasks["key"].is_unique and (tasks["status"] == "done").all()
    assert params.equals(reference)


def test_existing_cluster_started_by_hand(fleet, tmp_path):
    """`--scheduler tcp://HOST:PORT`: the same run on a cluster started with the `dask scheduler`
    and `dask worker` commands (docs/fleet.md), then stopped."""
    import socket
    root, truth = fleet
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ)
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    sched = subprocess.Popen(dask + ["--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                               f"tcp://127.0.0.1:{port}", "--nworkers", "2", "--nthreads", "1",
                               "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        from distributed import Client
        with Client(f"tcp://127.0.0.1:{port}", timeout="30s") as c:
            c.wait_for_workers(2, timeout=60)
        db = str(tmp_path / "external.sqlite")
        s = engine.run(os.path.join(root, "fleet.json"), manifest=os.path.join(root, "manifest.csv"),
                       db=db, scheduler=f"tcp://127.0.0.1:{port}", progress=False)
        assert s.workers == 2 and s.done == 22 and s.failed == 2
    finally:
        for p in (worker, sched):
            p.terminate()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
