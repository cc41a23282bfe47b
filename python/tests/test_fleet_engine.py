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
    # every done task's selected model carries its fit's verdict (docs/verdicts.md)
    with open_store(db) as st:
        res = st.results(selected_only=True)
    assert len(res) == 22 and all(v["grade"] in ("good", "doubtful", "bad") and v["line"].startswith(v["grade"])
                                  for v in res["verdict"])
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
    # the task(s) the killed worker held were attempted again, and attempts says so
    assert (tasks["attempts"] >= 1).all() and tasks["attempts"].max() >= 2, list(tasks["attempts"])


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


# ---- a run from a script, attempts, a rerun with another configuration ----

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """3 robots x 1 Coulomb-viscous joint x 4 sessions of 1 s (fast fits), the default drifts
    (r001/wrist and r002/wrist Fc x 1.4 in the newest session), 1 corrupt record: 12 tasks, 11
    done. (With 3 sessions, i.e. 2 baseline sessions that scatter, the rule's t quantile with 1
    d.o.f., 63.7, misses r001's drift.)"""
    root = tmp_path_factory.mktemp("tiny")
    truth = synthetic.generate(root, robots=3, joints=("wrist",), sessions=4, seconds=1.0, seed=2,
                               corrupt=1)
    return root, truth


def _pythonpath():
    return os.path.dirname(os.path.dirname(os.path.abspath(fl.__file__)))


RUN_CALL = ('from frictionlab import fleet\n{guard}'
            '{indent}s = fleet.run({config!r}, manifest={manifest!r}, db={db!r}, workers=1)\n'
            '{indent}print(s.line())\n')


@pytest.mark.parametrize("how", ["unguarded", "stdin", "guard-that-does-not-guard"])
def test_script_without_main_guard_fails_fast(tiny, tmp_path, how):
    """A script that calls fleet.run where the LocalCluster's spawned worker processes run it again
    (or cannot import the script at all) ends at once with a message naming the guard, instead of
    Dask restarting the failing worker processes forever; no run is left 'running' in the store.
    (Before the fix each of these hung: 'Nanny failed to start' over and over.)"""
    root, _ = tiny
    db = str(tmp_path / "script.sqlite")
    guard = {"unguarded": "", "stdin": "", "guard-that-does-not-guard": "if __name__ == __name__:\n"}[how]
    text = RUN_CALL.format(guard=guard, indent="    " if guard else "",
                           config=os.path.join(root, "fleet.json"),
                           manifest=os.path.join(root, "manifest.csv"), db=db)
    script = tmp_path / "script.py"
    script.write_text(text)
    env = {**os.environ, "PYTHONPATH": _pythonpath()}
    cmd = [sys.executable, "-"] if how == "stdin" else [sys.executable, str(script)]
    p = subprocess.run(cmd, input=text if how == "stdin" else None, env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 1, (p.stdout, p.stderr[-3000:])
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: frictionlab.fleet.run") and 'if __name__ == "__main__":' in last, last
    assert "Nanny failed to start" not in p.stderr
    if os.path.exists(db):
        with open_store(db) as s:
            assert len(s.runs()) == 0        # the check comes before the run is recorded
    # the same script with the guard runs
    if how == "unguarded":
        script.write_text(RUN_CALL.format(guard='if __name__ == "__main__":\n', indent="    ",
                                          config=os.path.join(root, "fleet.json"),
                                          manifest=os.path.join(root, "manifest.csv"), db=db))
        p = subprocess.run([sys.executable, str(script)], env=env, cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr[-3000:]
        assert "ran 12 of 12 (11 done, 1 failed)" in p.stdout


def test_a_run_that_fails_is_not_left_running(tiny, tmp_path, monkeypatch):
    """An error of the run itself (here: its cluster does not start) ends the run 'failed'."""
    root, _ = tiny
    db = str(tmp_path / "f.sqlite")

    def no_cluster(*a, **k):
        raise RuntimeError("no cluster here")
    monkeypatch.setattr(engine, "_client", no_cluster)
    with pytest.raises(RuntimeError, match="no cluster here"):
        engine.run(os.path.join(root, "fleet.json"), manifest=os.path.join(root, "manifest.csv"),
                   db=db, workers=1, progress=False)
    with open_store(db) as s:
        runs = s.runs()
    assert list(runs["status"]) == ["failed"] and runs["finished_at"].notna().all()


def test_attempts_count_every_attempt(tiny, tmp_path):
    """`attempts` counts the attempts made for a key: a failed task retried twice has 3."""
    root, _ = tiny
    db = str(tmp_path / "a.sqlite")
    args = dict(manifest=os.path.join(root, "manifest.csv"), db=db, workers=1, progress=False)
    cfg = os.path.join(root, "fleet.json")
    engine.run(cfg, **args)
    engine.run(cfg, retry_failed=True, **args)
    s = engine.run(cfg, retry_failed=True, **args)
    assert s.submitted == 1 and s.failed == 1
    with open_store(db) as st:
        t = st.tasks()
    assert sorted(t["attempts"]) == [1] * 11 + [3]
    assert t.loc[t["status"] == "failed", "attempts"].item() == 3


def _strict_json(path):
    def refuse(c):
        raise ValueError(f"not JSON: {c}")
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=refuse)


def test_rerun_with_another_configuration_counts_each_session_once(tiny, tmp_path):
    """After a rerun with a changed configuration (new task keys) the store holds two results per
    session; the analysis, the report and the status take one per session (the newest run's, or
    with --config that configuration's), with the same flags as before, and say how many they
    left out. The report's --json is strict JSON with every table."""
    root, truth = tiny
    db = str(tmp_path / "c.sqlite")
    cfg1 = os.path.join(root, "fleet.json")
    cfg = json.loads(open(cfg1).read())
    cfg["joint_types"]["wrist"]["options"]["starts"] = cfg["joint_types"]["wrist"]["options"].get("starts", 1) + 1
    cfg2 = str(tmp_path / "fleet2.json")
    with open(cfg2, "w") as f:
        json.dump(cfg, f)
    man = os.path.join(root, "manifest.csv")
    engine.run(cfg1, manifest=man, db=db, workers=1, progress=False)
    with open_store(db) as s:
        first = s.parameters()
    s2 = engine.run(cfg2, manifest=man, db=db, workers=1, progress=False)
    assert s2.submitted == 12 and s2.already_done == 0     # new keys: everything ran again
    from frictionlab.fleet import analysis
    with open_store(db) as s:
        params = s.parameters()
    assert len(params) == 2 * len(first)
    d1, d = analysis.drift(first), analysis.drift(params)
    assert len(d) == len(d1) == 3 * 2                     # one row per robot joint and parameter
    assert (d["n_sessions"] <= 4).all() and (d["n_baseline"] <= 3).all()
    injected = {(e["robot"], e["joint"], e["parameter"]) for e in truth["drifts"]}
    flags = set(zip(d.loc[d.flagged, "robot"], d.loc[d.flagged, "joint"], d.loc[d.flagged, "name"]))
    assert flags == injected == set(zip(d1.loc[d1.flagged, "robot"], d1.loc[d1.flagged, "joint"],
                                        d1.loc[d1.flagged, "name"]))
    cur, left = analysis.current_results(params)
    assert left == 11 and (cur["run_id"] == 2).all()      # 11 done sessions of run 1 superseded
    old, left = analysis.current_results(params, fconfig.read_config(cfg1))
    assert left == 11 and (old["run_id"] == 1).all() and old["key"].nunique() == 11
    # the CLI: status lists the corrupt session's failure once; report counts 2 flags of 2 joints
    env = dict(os.environ)
    st = subprocess.run([sys.executable, "-m", "frictionlab.fleet", "status", "--db", db], env=env,
                        capture_output=True, text=True, timeout=120)
    assert st.returncode == 0, st.stderr
    assert st.stdout.count("  failed: ") == 1 and "11 done, 1 failed (12 superseded" in st.stdout, st.stdout
    out = tmp_path / "tables.json"
    for extra in ([], ["--config", cfg1]):
        rep = subprocess.run([sys.executable, "-m", "frictionlab.fleet", "report", "--db", db,
                              "--output", str(tmp_path / "r.html"), "--json", str(out), *extra],
                             env=env, capture_output=True, text=True, timeout=300)
        assert rep.returncode == 0, rep.stderr
        said = rep.stdout.splitlines()
        assert said[1].startswith("drift of 6 parameter(s): 2 flagged ("), said
        assert said[2] == ("12 superseded result(s) of earlier configurations or versions left out "
                           "(one result per session)"), said
        assert "12 superseded result(s)" in (tmp_path / "r.html").read_text()
        tables = _strict_json(out)
        assert set(tables) == ({"parameters", "drift", "trend", "spread", "verdicts", "tasks"} |
                               ({"shared"} if extra else set()))
        assert len(tables["parameters"]) == len(first) and len(tables["tasks"]) == 12
        # one verdict per done current session, counted on the console and in the page
        grades = [r["grade"] for r in tables["verdicts"]]
        assert len(grades) == 11 and set(grades) <= {"good", "doubtful", "bad"}
        counted = next(l for l in said if l.startswith("verdicts of "))
        assert counted == (f"verdicts of 11 session fit(s): {grades.count('bad')} bad, "
                           f"{grades.count('doubtful')} doubtful, {grades.count('good')} good"), said
        assert 'id="verdicts"' in (tmp_path / "r.html").read_text()
        assert len(tables["drift"]) == 6 and any(r["dof"] is None for r in tables["drift"])
    usage = " ".join(subprocess.run([sys.executable, "-m", "frictionlab.fleet", "report", "--help"],
                                    env=env, capture_output=True, text=True, timeout=60).stdout.split())
    assert "--json FILE also write every table (parameters, drift, trend, spread, verdicts, tasks" in usage, usage
    assert "strict JSON, NaN and infinities as null" in usage, usage


@pytest.mark.skipif(not os.environ.get("FRICTIONLAB_CLI"), reason="FRICTIONLAB_CLI not set")
def test_quick_start_prints_only_frictionlab_lines(tmp_path):
    """docs/fleet.md's quick start through the CLI: every line on stderr is frictionlab's own.
    Some of its fits start outside the model's valid set, and Ceres then logs "Terminating:
    Residual and Jacobian evaluation failed." through glog at severity ERROR, which reached the
    terminal from every worker behind "Logging before InitGoogleLogging()". Dask's default HTTP
    port 8787 is held during the run (as another Dask cluster would hold it): distributed warned
    "Port 8787 is already in use" then."""
    import socket
    cli = os.environ["FRICTIONLAB_CLI"]
    held = socket.socket()
    try:
        held.bind(("", 8787))
        held.listen()
    except OSError:
        pass   # already held by something else: the same condition
    demo, db = tmp_path / "fleet_demo", tmp_path / "fleet_demo.sqlite"
    steps = [["fleet", "generate", demo, "--robots", "4", "--sessions", "3", "--seconds", "2",
              "--corrupt", "1", "--replace"],
             ["fleet", "run", demo / "fleet.json", "--manifest", demo / "manifest.csv", "--db", db,
              "--workers", "2"]]
    for args in steps:
        p = subprocess.run([cli, *map(str, args)], cwd=tmp_path, capture_output=True, text=True,
                           timeout=300)
        assert p.returncode == 0, p.stderr[-3000:]
        foreign = [line for line in p.stderr.splitlines() if not line.startswith("frictionlab")]
        assert foreign == [], foreign[:5]
    held.close()
    assert not list(tmp_path.glob("*.log.*")) and not list(tmp_path.glob("*INFO*"))
