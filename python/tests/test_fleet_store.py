"""frictionlab.fleet.store: the results store, every test on SQLite (a file in a temporary directory)
and on a real PostgreSQL server the tests start themselves (_postgres.py). The truths: the task
results written (values must come back bit for bit), row counts, and which process's record_task
returned True."""
import math
import multiprocessing
import os
import sqlite3
import stat
import sys
import time

import pytest

from frictionlab.fleet import store as fs

N_PARAMS = 10


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request):
    return request.param


@pytest.fixture
def url(backend, tmp_path, request):
    """An empty store of `backend`: a new SQLite file path, or a fresh PostgreSQL database URL."""
    if backend == "sqlite":
        return str(tmp_path / "results.sqlite")
    return request.getfixturevalue("postgres_url")


class Raw:
    """A plain DB-API connection to the store, beside the Store (for what the Store must not do:
    hand-made schema changes, an open concurrent transaction, row counts); `with Raw(url) as raw:`
    closes it after the block."""

    def __init__(self, url):
        kind, target = fs.parse_url(url)
        if kind == "sqlite":
            self.conn = sqlite3.connect(target, isolation_level=None)
            self.ph = "?"
        else:
            import psycopg2
            self.conn = psycopg2.connect(target)
            self.conn.autocommit = True
            self.ph = "%s"

    def execute(self, sql, params=()):
        cur = self.conn.cursor()
        cur.execute(sql.replace("?", self.ph), params)
        return cur

    def count(self, table, key=None):
        if key is None:
            return self.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        return self.execute(f"SELECT COUNT(*) FROM {table} WHERE key = ?", (key,)).fetchone()[0]

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        """The end of a `with Raw(url) as raw:` block closes the connection, also on a failure."""
        self.close()
        return False


def param_value(key, model, i):
    """A parameter's value that is a function of its key, model and index (so each writer's rows are
    recognisable) and not short in binary (1/3-like): equality must be exact."""
    h = sum(map(ord, key + model))
    return (h + i) / 3.0 + 1e-9 * i


def make_result(key, status="done", robot="r1", joint="j1", session="s1", worker="w",
                attempts=1, models=("lugre", "coulomb_viscous"), error=None):
    """A task-result dict as the engine writes (docs/fleet.md), with N_PARAMS parameters per model."""
    mods = []
    if status == "done":
        for mi, m in enumerate(models):
            mods.append({
                "verdict": VERDICT if mi == 0 else None,
                "model": m, "selected": mi == 0, "train_rmse": 0.1 / (mi + 3),
                "validation_rmse": 0.2 / (mi + 3), "aicc": -1234.5678 - mi, "metrics": {"n": 10000 + mi},
                "parameters": [{"name": f"p{i}", "value": param_value(key, m, i), "std_error": 0.01 * (i + 1) / 7,
                                "ci_low": param_value(key, m, i) - 0.02, "ci_high": param_value(key, m, i) + 0.02,
                                "unit": "N m", "determined": i % 3 != 0} for i in range(N_PARAMS)]})
    return {"key": key, "robot": robot, "joint": joint, "joint_type": "revolute_a", "session": session,
            "session_time": f"2026-11-{session[-1:].zfill(2)}T02:00:00Z", "tags": {"firmware": "1.2", "site": "B"},
            "inputs": [{"path": f"/data/{robot}/{joint}/{session}.csv", "sha256": "ab" * 32, "bytes": 123456}],
            "inputs_hash": "cd" * 32, "config_hash": "ef" * 32, "tool_version": "0.1.0",
            "status": status, "error": error if status == "failed" else None,
            "started_at": 1795580000.125, "finished_at": 1795580001.5, "seconds": 1.375, "worker": worker,
            "attempts": attempts, "models": mods}


VERDICT = {"grade": "doubtful", "line": "doubtful: Fs is not determined (try: more motion)",
           "reasons": [{"grade": "doubtful", "rule": "determined", "text": "Fs is not determined",
                        "hint": "more motion"}]}


def same_float(a, b):
    """Exactly equal, NaN equal to NaN (None and NaN are written as NULL and read back as NaN)."""
    a = math.nan if a is None else a
    b = math.nan if b is None else b
    return (math.isnan(a) and math.isnan(b)) or a == b


# ------------------------------------------------------------------------------------------------

def test_round_trip(url, backend):
    """What record_task writes comes back from tasks/results/parameters exactly: floats bit for bit,
    NaN and None as NaN, infinity as infinity, tags/inputs/metrics as dicts and lists."""
    tricky = [1 / 3, 1e-300, 1.7976931348623157e308, -2.5e-7, 2.0 ** 60, 123456789.123456789,
              5e-324, math.inf, -math.inf, None]
    r = make_result("k-done")
    ps = r["models"][0]["parameters"]
    for p, v in zip(ps, tricky):
        p["value"] = v
    ps[0]["std_error"], ps[1]["std_error"], ps[2]["ci_low"] = None, math.nan, -math.inf
    r["models"][1]["validation_rmse"] = None
    r["models"][1]["aicc"] = math.nan
    r["tags"] = {"firmware": "1.2", "temperature": "31.5", "ünïcode": "✓"}
    failed = make_result("k-failed", status="failed", robot="r2", error="record.csv line 17: not a number: 'x'")
    with fs.open_store(url) as store:
        assert store.version == fs.SCHEMA_VERSION == 2
        run = store.begin_run("ef" * 32, "0.1.0", "[joint_type.revolute_a]\n", 2)
        assert store.record_task(run, r) is True
        assert store.record_task(run, failed) is True
        assert store.done_keys() == {"k-done"}
        assert store.task_status() == {"k-done": "done", "k-failed": "failed"}

        tasks = store.tasks()
        assert list(tasks["key"]) == ["k-done", "k-failed"]  # ordered by robot
        for _, row in tasks.iterrows():
            src = r if row["key"] == "k-done" else failed
            for c in ("robot", "joint", "joint_type", "session", "session_time", "tags", "inputs",
                      "inputs_hash", "config_hash", "tool_version", "status", "worker", "attempts"):
                assert row[c] == src[c], c
            for c in ("started_at", "finished_at", "seconds"):
                assert row[c] == src[c], c
            assert row["error"] == src["error"]
            assert row["run_id"] == run
        assert tasks["tags"][0]["ünïcode"] == "✓"

        params = store.parameters(selected_only=False)
        assert len(params) == 2 * N_PARAMS and set(params["key"]) == {"k-done"}  # done tasks only
        for m in r["models"]:
            for p in m["parameters"]:
                row = params[(params["model"] == m["model"]) & (params["name"] == p["name"])]
                assert len(row) == 1
                row = row.iloc[0]
                for c in ("value", "std_error", "ci_low", "ci_high"):
                    assert same_float(row[c], p[c]), (m["model"], p["name"], c, row[c], p[c])
                assert row["unit"] == p["unit"] and row["determined"] == p["determined"]
                assert row["selected"] == m["selected"]
                assert same_float(row["train_rmse"], m["train_rmse"])
                assert same_float(row["validation_rmse"], m["validation_rmse"])
                assert row["session_time"] == r["session_time"] and row["joint_type"] == "revolute_a"
        assert params["value"].dtype == float and params["determined"].dtype == bool

        sel = store.parameters()
        assert set(sel["model"]) == {"lugre"} and len(sel) == N_PARAMS

        res = store.results()
        assert list(res["model"]) == sorted(m["model"] for m in r["models"])
        lugre = res[res["model"] == "lugre"].iloc[0]
        assert lugre["metrics"] == {"n": 10000} and lugre["aicc"] == -1234.5678
        assert lugre["verdict"] == VERDICT
        cv = res[res["model"] == "coulomb_viscous"].iloc[0]
        assert math.isnan(cv["validation_rmse"]) and math.isnan(cv["aicc"]) and cv["verdict"] is None
        assert list(store.results(selected_only=True)["model"]) == ["lugre"]

        assert len(store.tasks(status="failed")) == 1 and len(store.tasks(run_id=run + 1)) == 0
        with pytest.raises(ValueError, match="status 'running'"):
            store.tasks(status="running")


def test_malformed_result_names_key_and_field(url):
    with fs.open_store(url) as store:
        run = store.begin_run("c", "v", "", 1)
        bad = make_result("k1")
        del bad["joint"]
        with pytest.raises(ValueError, match="task k1: missing field.*joint"):
            store.record_task(run, bad)
        bad = make_result("k1")
        bad["models"][0]["parameters"][3]["value"] = "fast"
        with pytest.raises(ValueError, match="task k1: model lugre: parameter p3: value"):
            store.record_task(run, bad)
        bad = make_result("k1", status="done")
        bad["status"] = "ok"
        with pytest.raises(ValueError, match="status 'ok'"):
            store.record_task(run, bad)
        assert store.tasks().empty and store.parameters().empty


def test_nothing_twice(url):
    """A done key recorded again (even with other values, by another run) writes nothing: one row
    set, the first values."""
    with fs.open_store(url) as store:
        run1 = store.begin_run("c", "v", "", 1)
        first = make_result("k1", worker="first")
        assert store.record_task(run1, first) is True
        run2 = store.begin_run("c", "v", "", 1)
        second = make_result("k1", worker="second", attempts=2)
        second["models"][0]["parameters"][0]["value"] = 99.0
        assert store.record_task(run2, second) is False
        assert store.record_task(run2, make_result("k1", status="failed", error="x")) is False
        t = store.tasks()
        assert len(t) == 1 and t["worker"][0] == "first" and t["run_id"][0] == run1
        p = store.parameters(selected_only=False)
        assert len(p) == 2 * N_PARAMS
        assert p[(p["model"] == "lugre") & (p["name"] == "p0")]["value"].iloc[0] == param_value("k1", "lugre", 0)
    with Raw(url) as raw:
        assert (raw.count("tasks"), raw.count("results"), raw.count("parameters")) == (1, 2, 2 * N_PARAMS)


def _race_writer(url, run_id, name, keys, barrier, out):
    """A writer process of test_race: records every key as done, tells which writes returned True."""
    try:
        store = fs.open_store(url)
        barrier.wait()
        won = [k for k in keys if store.record_task(run_id, make_result(k, worker=name))]
        store.close()
        out.put((name, won))
    except Exception as e:  # reported to the test rather than left for its timeout
        out.put((name, repr(e)))


def test_race(url):
    """Three processes record the same 40 done keys at the same time (two in the same order, one in
    reverse): exactly one write per key returns True, the stored row is that writer's, and every
    table holds exactly one row set per key."""
    keys = [f"key{i:03d}" for i in range(40)]
    with fs.open_store(url) as store:
        run = store.begin_run("c", "v", "", len(keys))
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(3), ctx.Queue()
    orders = {"A": keys, "B": keys, "C": keys[::-1]}
    procs = [ctx.Process(target=_race_writer, args=(url, run, n, o, barrier, out)) for n, o in orders.items()]
    for p in procs:
        p.start()
    won = dict(out.get(timeout=120) for _ in procs)
    assert all(isinstance(w, list) for w in won.values()), won
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    winners = {}
    for name, ks in won.items():
        for k in ks:
            assert k not in winners, f"{k} written by {winners[k]} and {name}"
            winners[k] = name
    assert set(winners) == set(keys)
    with fs.open_store(url) as store:
        t = store.tasks()
        assert len(t) == len(keys)
        assert dict(zip(t["key"], t["worker"])) == winners
        p = store.parameters(selected_only=False)
        assert p.groupby("key").size().to_dict() == {k: 2 * N_PARAMS for k in keys}
    with Raw(url) as raw:
        assert raw.count("results") == 2 * len(keys) and raw.count("parameters") == 2 * N_PARAMS * len(keys)


def test_failed_then_done(url):
    """A failed key is replaced by a later attempt (failed again, then done, with its new run), and a
    done key is never replaced by a failure; `attempts` counts every recorded attempt."""
    with fs.open_store(url) as store:
        run1 = store.begin_run("c", "v", "", 1)
        assert store.record_task(run1, make_result("k1", status="failed", error="first failure")) is True
        assert store.record_task(run1, make_result("k1", status="failed", error="second failure")) is True
        t = store.tasks()
        assert len(t) == 1 and t["error"][0] == "second failure" and t["attempts"][0] == 2
        assert store.parameters(selected_only=False).empty
        run2 = store.begin_run("c", "v", "", 1)
        assert store.record_task(run2, make_result("k1")) is True
        t = store.tasks()
        assert len(t) == 1 and t["status"][0] == "done" and t["error"][0] is None
        assert t["run_id"][0] == run2 and t["attempts"][0] == 3   # the attempts add up
        store.add_attempts({"k1": 2, "not-recorded": 1})           # workers that died on it
        assert store.tasks()["attempts"][0] == 5 and "not-recorded" not in store.task_status()
        assert len(store.parameters(selected_only=False)) == 2 * N_PARAMS
        assert store.record_task(run2, make_result("k1", status="failed", error="late")) is False
        assert store.task_status() == {"k1": "done"}
        runs = store.runs()
        assert list(runs["n_done"]) == [0, 1] and list(runs["n_failed"]) == [0, 0]


def test_runs(url):
    """begin_run/end_run: increasing ids, status and times; bad status, unknown run."""
    with fs.open_store(url) as store:
        t0 = time.time()
        a = store.begin_run("h1", "0.1.0", "text one", 12)
        b = store.begin_run("h2", "0.1.0", "text two", 0)
        assert b > a
        runs = store.runs()
        assert list(runs["run_id"]) == [a, b] and list(runs["status"]) == ["running", "running"]
        assert runs["finished_at"].isna().all()
        assert list(runs["n_tasks"]) == [12, 0] and list(runs["config_text"]) == ["text one", "text two"]
        assert (runs["started_at"] >= t0 - 1).all() and list(runs["pid"]) == [os.getpid()] * 2
        store.record_task(a, make_result("k1"))
        store.record_task(a, make_result("k2", status="failed", error="e"))
        store.end_run(a, "interrupted")
        store.end_run(b, "done")
        runs = store.runs()
        assert list(runs["status"]) == ["interrupted", "done"]
        assert (runs["finished_at"] >= runs["started_at"]).all()
        assert list(runs["n_done"]) == [1, 0] and list(runs["n_failed"]) == [1, 0]
        with pytest.raises(ValueError, match="'running'"):
            store.end_run(a, "running")
        with pytest.raises(KeyError, match=f"no run {b + 100}"):
            store.end_run(b + 100, "done")
        with pytest.raises(fs.StoreError, match="record_task k3"):  # a run that does not exist
            store.record_task(b + 100, make_result("k3"))
        assert "k3" not in store.task_status()


def test_transaction_all_or_nothing(url):
    """A database error in the middle of record_task (the second model repeats a parameter name: the
    primary key refuses it after the task row, the results rows and ten parameter rows) leaves the
    store as it was: the earlier failed attempt whole, no results or parameters of the key."""
    with fs.open_store(url) as store:
        run = store.begin_run("c", "v", "", 1)
        assert store.record_task(run, make_result("k1", status="failed", error="first")) is True
        bad = make_result("k1", attempts=2)
        bad["models"][1]["parameters"][5]["name"] = "p4"
        with pytest.raises(fs.StoreError, match="record_task k1"):
            store.record_task(run, bad)
        t = store.tasks()
        assert len(t) == 1 and t["status"][0] == "failed" and t["error"][0] == "first" and t["attempts"][0] == 1
        # the store still works after the rollback
        assert store.record_task(run, make_result("k2")) is True
    with Raw(url) as raw:
        assert raw.count("results", "k1") == 0 and raw.count("parameters", "k1") == 0
        assert raw.count("parameters", "k2") == 2 * N_PARAMS


def test_newer_schema_is_an_error(url):
    with fs.open_store(url) as store:
        store.begin_run("c", "v", "", 0)
    with Raw(url) as raw:
        raw.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (3, 0.0))
    with pytest.raises(fs.StoreError, match="schema version 3, newer than this frictionlab's 2"):
        fs.open_store(url)


def _step3(d):
    return ["ALTER TABLE tasks ADD COLUMN note TEXT",
            f"CREATE TABLE notes (key TEXT PRIMARY KEY, at {d.real} NOT NULL)"]


def _step4_broken(d):
    return ["CREATE TABLE half_done (x INTEGER)", "ALTER TABLE no_such_table ADD COLUMN y INTEGER"]


def _as_version_1(url):
    """Turn the store at `url` into a schema version 1 store (as an older frictionlab left it)."""
    with Raw(url) as raw:
        raw.execute("ALTER TABLE results DROP COLUMN verdict")
        raw.execute("DELETE FROM schema_version WHERE version = 2")


def test_migrations(url):
    """An older store is migrated step by step, keeping its rows (version 1 -> 2 adds the verdicts,
    NULL for the results recorded before); a failing step is rolled back whole (its first statement
    undone, the version unchanged); the migrated store is then newer than the code."""
    with fs.open_store(url) as store:
        run = store.begin_run("c", "v", "", 1)
        store.record_task(run, make_result("k1"))
    _as_version_1(url)
    with fs.Store(url, migrations=fs.MIGRATIONS + [_step3]) as store:
        assert store.version == 3
        assert len(store.parameters(selected_only=False)) == 2 * N_PARAMS
        assert list(store.results()["verdict"]) == [None, None]
        store.record_task(run, make_result("k2"))
        assert store.results().set_index(["key", "model"])["verdict"][("k2", "lugre")] == VERDICT
    with Raw(url) as raw:
        assert raw.execute("SELECT note FROM tasks").fetchall() == [(None,), (None,)]
        assert raw.count("notes") == 0
    with pytest.raises(fs.StoreError, match="migration to schema version 4"):
        fs.Store(url, migrations=fs.MIGRATIONS + [_step3, _step4_broken])
    with Raw(url) as raw:
        assert [r[0] for r in raw.execute("SELECT version FROM schema_version ORDER BY version")] == [1, 2, 3]
        with pytest.raises(Exception, match="half_done"):
            raw.execute("SELECT COUNT(*) FROM half_done")
    with pytest.raises(fs.StoreError, match="schema version 3, newer than this frictionlab's 2"):
        fs.open_store(url)


def _opener(url, barrier, out):
    barrier.wait()
    try:
        with fs.open_store(url) as store:
            out.put(store.version)
    except Exception as e:  # reported to the test rather than left for its timeout
        out.put(repr(e))


def test_open_existing_or_refuse(url, backend):
    """create=False refuses a store without the schema (a missing file, an empty database) and opens
    an existing one; three processes creating the same store at once make one schema; opening again
    creates nothing twice."""
    with pytest.raises(fs.StoreError, match="no such file" if backend == "sqlite" else "no frictionlab results"):
        fs.open_store(url, create=False)
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(3), ctx.Queue()
    procs = [ctx.Process(target=_opener, args=(url, barrier, out)) for _ in range(3)]
    for p in procs:
        p.start()
    assert [out.get(timeout=120) for _ in procs] == [fs.SCHEMA_VERSION] * 3
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    with fs.open_store(url) as s1, fs.open_store(url) as s2, fs.open_store(url, create=False) as s3:
        s1.begin_run("c", "v", "", 0)
        assert len(s2.runs()) == len(s3.runs()) == 1
    with Raw(url) as raw:
        assert raw.count("schema_version") == fs.SCHEMA_VERSION


def _steady_writer(url, n, go):
    store = fs.open_store(url)
    run = store.begin_run("c", "v", "", n)
    go.set()
    for i in range(n):
        store.record_task(run, make_result(f"k{i:04d}", robot=f"r{i % 7}"))
    store.end_run(run, "done")
    store.close()


def test_reader_while_writing(url, backend):
    """A reader in another process never waits for the writer and never sees part of a task: while
    a process writes 150 tasks, every read shows whole tasks (20 parameter rows each) and a growing
    count; an open write transaction of another connection is invisible and does not block reads.
    SQLite runs in WAL mode."""
    fs.open_store(url).close()  # the schema, before the writer and the reader start
    if backend == "sqlite":
        with Raw(url) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    n = 150
    writer = ctx.Process(target=_steady_writer, args=(url, n, go))
    writer.start()
    assert go.wait(60)
    reads, last = 0, 0
    with fs.open_store(url, create=False) as reader:
        # "never waits" without timing anything: the reader must not wait for a lock at all, so a
        # read that would have to wait is an error instead (SQLite: no busy handler; PostgreSQL:
        # any lock wait fails)
        if backend == "sqlite":
            reader._conn.execute("PRAGMA busy_timeout = 0")
        else:
            reader._conn.cursor().execute("SET lock_timeout = '1ms'")
        while True:
            alive = writer.is_alive()
            p = reader.parameters(selected_only=False)
            sizes = p.groupby("key").size()
            assert (sizes == 2 * N_PARAMS).all(), sizes[sizes != 2 * N_PARAMS]
            assert len(sizes) >= last
            last = len(sizes)
            reads += 1
            if not alive:
                break
        writer.join(60)
        assert writer.exitcode == 0 and last == n and reads >= 2

        # an open write transaction elsewhere: invisible, and reads do not wait for it
        with Raw(url) as raw:
            raw.execute("BEGIN IMMEDIATE" if backend == "sqlite" else "BEGIN")
            raw.execute("INSERT INTO runs (config_hash, tool_version, config_text, n_tasks, status, started_at, "
                        "host, pid) VALUES ('x', 'y', 'z', 0, 'running', 0, 'h', 1)")
            assert len(reader.runs()) == 1  # (a wait would have been an error, above)
            raw.execute("COMMIT")
            assert len(reader.runs()) == 2


def test_urls(url, backend, tmp_path):
    """URL forms, errors naming the URL without its password, and the new SQLite file's mode."""
    with pytest.raises(ValueError, match="unknown scheme 'mysql'.*postgresql://"):
        fs.open_store("mysql://u:pw@h/db")
    assert fs.redact_url("postgresql://u:s3cret@db.example:5433/fleet") == "postgresql://u:***@db.example:5433/fleet"
    if backend == "sqlite":
        shared = tmp_path / "shared"
        shared.mkdir()
        os.chmod(shared, 0o2770)
        path = shared / "fleet.sqlite"
        with fs.open_store(f"sqlite://{path}") as store:
            assert store.url == str(path)
            store.begin_run("c", "v", "", 0)
            assert stat.S_IMODE(os.stat(str(path) + "-wal").st_mode) == 0o660  # while open
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o660
        assert fs.parse_url("relative.sqlite") == ("sqlite", os.path.abspath("relative.sqlite"))
        with pytest.raises(ValueError, match="three slashes"):
            fs.open_store("sqlite://host/x.sqlite")
        with pytest.raises(FileNotFoundError, match="no_dir"):
            fs.open_store(str(tmp_path / "no_dir" / "r.sqlite"))
        junk = tmp_path / "junk.sqlite"
        junk.write_bytes(b"this is not a database, it is a text file of some length " * 20)
        with pytest.raises(fs.StoreError, match="junk.sqlite: not a usable SQLite database"):
            fs.open_store(str(junk))
    else:
        with fs.open_store(url.replace("postgresql://", "postgres://")) as store:
            assert store.version == fs.SCHEMA_VERSION
        secret = url.replace("postgres@", "postgres:s3cret@").rsplit("/", 1)[0] + "/no_such_db"
        with pytest.raises(fs.StoreError) as e:
            fs.open_store(secret)
        assert "s3cret" not in str(e.value) and ":***@" in str(e.value) and "no_such_db" in str(e.value)


def _tables(url):
    with Raw(url) as raw:
        if fs.parse_url(url)[0] == "sqlite":
            sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        else:
            sql = "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
        return [r[0] for r in raw.execute(sql).fetchall()]


def test_readonly_reads_and_writes_nothing(url, backend):
    """readonly=True (fleet status / report) reads a store and writes nothing: no schema in an
    empty database, every write refused by the database itself (SQLite mode=ro, PostgreSQL READ
    ONLY transactions), the SQLite file's bytes unchanged."""
    if backend == "sqlite":
        with pytest.raises(fs.StoreError, match="no such file"):
            fs.open_store(url, readonly=True)
    else:
        with pytest.raises(fs.StoreError, match="no frictionlab results"):
            fs.open_store(url, readonly=True)
        assert _tables(url) == []
    with fs.open_store(url) as store:
        run = store.begin_run("c", "v", "{}", 1)
        store.record_task(run, make_result("k1"))
        store.end_run(run, "done")
    before = open(url, "rb").read() if backend == "sqlite" else None
    with fs.open_store(url, readonly=True) as store:
        assert store.runs()["status"].tolist() == ["done"]
        assert store.tasks()["key"].tolist() == ["k1"] and len(store.parameters()) == N_PARAMS
        with pytest.raises(fs.StoreError, match="read-?only|readonly"):
            store.begin_run("c", "v", "{}", 1)
        with pytest.raises(fs.StoreError, match="read-?only|readonly"):
            store.record_task(run, make_result("k2"))
    if backend == "sqlite":
        assert open(url, "rb").read() == before
    with fs.open_store(url, readonly=True) as store:
        assert store.tasks()["key"].tolist() == ["k1"]


def test_foreign_database_is_refused(url, backend):
    """A database with another application's tables (and no frictionlab schema) is refused by
    readers and writers alike, naming its tables, and left exactly as it was (no table added,
    SQLite's journal mode not switched to WAL)."""
    with Raw(url) as raw:
        raw.execute("CREATE TABLE beta (x INTEGER)")
        raw.execute("CREATE TABLE alpha (x INTEGER)")
    for kwargs in ({}, {"create": False}, {"readonly": True}):
        with pytest.raises(fs.StoreError, match=r"is not a frictionlab store \(it has tables alpha, "
                                                r"beta\); give a new or empty database"):
            fs.open_store(url, **kwargs)
    assert _tables(url) == ["alpha", "beta"]
    if backend == "sqlite":
        with Raw(url) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


_READER = """
import sys
from frictionlab.fleet.store import open_store, StoreError
try:
    with open_store(sys.argv[1], readonly=True) as s:
        print("runs", len(s.runs()), "tasks", len(s.tasks()))
except StoreError as e:
    print("error", e)
"""


def test_readonly_sqlite_store_of_another_user(tmp_path):
    """A store the user may only read (the file and its directory another user's, read-only for
    this one: no -shm file can be created) is read by readonly=True. As root (which ignores file
    modes) the reader runs as the unprivileged user `nobody`; otherwise the directory and file
    are made read-only for this user."""
    import shutil
    import subprocess
    import tempfile
    as_root = os.geteuid() == 0
    if as_root and not shutil.which("runuser"):
        pytest.skip("root without runuser: cannot read as another user")
    d = tempfile.mkdtemp(prefix="fleet_ro_")
    try:
        path = os.path.join(d, "results.sqlite")
        with fs.open_store(path) as store:
            run = store.begin_run("c", "v", "{}", 1)
            store.record_task(run, make_result("k1"))
            store.end_run(run, "done")
        assert sorted(os.listdir(d)) == ["results.sqlite"]  # the writer removed -wal and -shm
        os.chmod(path, 0o444)
        os.chmod(d, 0o555)
        pkg = os.path.dirname(os.path.dirname(fs.__file__))  # frictionlab's parent directory
        cmd = [sys.executable, "-c", _READER, path]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "PYTHONPATH": os.path.dirname(pkg)}
        if as_root:
            cmd = ["runuser", "-u", "nobody", "--"] + cmd
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "runs 1 tasks 1", out.stdout + out.stderr
        assert sorted(os.listdir(d)) == ["results.sqlite"]
    finally:
        os.chmod(d, 0o755)
        shutil.rmtree(d)
