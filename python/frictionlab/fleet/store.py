"""The fleet results store: runs, tasks and their identification results in a database, SQLite (one
file, the embedded default) or PostgreSQL (a shared server), one schema for both (docs/fleet.md,
"Results store").

Every write is one transaction; a task key already recorded as "done" is never written again (safe
when several processes write the same keys at once); a "failed" task is replaced by a later attempt.
The schema carries its version (table ``schema_version``): opening an older store migrates it step by
step, each step in one transaction; opening a newer one is an error naming both versions.

    with open_store("results.sqlite") as store:          # or "postgresql://user@host:5432/fleet"
        run_id = store.begin_run(config_hash, tool_version, config_text, n_tasks)
        store.record_task(run_id, result)                 # the task-result dict (docs/fleet.md)
        store.end_run(run_id, "done")
        params = store.parameters()                       # pandas DataFrame, long format
"""
import json
import math
import os
import socket
import stat
import threading
import time
import urllib.parse
from contextlib import contextmanager

import pandas as pd

SCHEMA_VERSION = 2
"""The schema version this code writes and reads (docs/fleet.md, "Results store")."""

RUN_STATUSES = ("running", "done", "interrupted", "failed")
TASK_STATUSES = ("done", "failed")
URL_FORMS = ("a file path (SQLite)", "sqlite:///absolute/path.sqlite", "postgresql://user@host:port/db")
SQLITE_BUSY_TIMEOUT_S = 60.0
"""How long an SQLite write waits for another process's write transaction to end [s]."""


class StoreError(RuntimeError):
    """A results store that cannot be opened, has another schema version, or refused a write; the
    message names the store (its URL without the password) and the task key or run."""


# --------------------------------------------------------------------------------------------------
# The two SQL dialects: everything that differs between SQLite and PostgreSQL is here.

class _Dialect:
    """What differs between the backends: the placeholder, a few column types, how a write
    transaction starts and how the schema version table is found."""

    def __init__(self, name, placeholder, ident, id_type, real, boolean, strict, begin, lock,
                 has_version_table, list_tables):
        self.name = name
        self.placeholder = placeholder
        self.ident = ident              # the auto-numbered primary key column type
        self.id_type = id_type          # the type of a column referencing it
        self.real = real
        self.boolean = boolean          # boolean(column) -> its type and constraint
        self.strict = strict            # table option (SQLite STRICT: types enforced as in PostgreSQL)
        self.begin = begin              # statements starting a write transaction
        self.lock = lock                # statements serialising migrations (after begin)
        self.has_version_table = has_version_table
        self.list_tables = list_tables  # the user tables' names, sorted (foreign-store check)

    def sql(self, text):
        """`text` written with ? placeholders, in this dialect (no literal ? or % in our SQL)."""
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)


SQLITE = _Dialect(
    "sqlite", "?", ident="INTEGER PRIMARY KEY AUTOINCREMENT", id_type="INTEGER", real="REAL",
    boolean=lambda col: f"INTEGER NOT NULL CHECK ({col} IN (0, 1))", strict=" STRICT",
    begin=["BEGIN IMMEDIATE"], lock=[],
    has_version_table="SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    list_tables="SELECT name FROM sqlite_master WHERE type = 'table' AND "
                "substr(name, 1, 7) <> 'sqlite_' ORDER BY name")
POSTGRESQL = _Dialect(
    "postgresql", "%s", ident="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", id_type="BIGINT",
    real="DOUBLE PRECISION", boolean=lambda col: "BOOLEAN NOT NULL", strict="",
    begin=["BEGIN"], lock=["SELECT pg_advisory_xact_lock(7318018001)"],
    has_version_table="SELECT COUNT(*) FROM pg_catalog.pg_tables "
                      "WHERE tablename = 'schema_version' AND schemaname = current_schema()",
    list_tables="SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() "
                "ORDER BY tablename")


def _schema_v1(d):
    """The statements creating schema version 1 in dialect `d` (docs/fleet.md documents every
    column; keep the two in step)."""
    return [
        f"""CREATE TABLE schema_version (
              version INTEGER PRIMARY KEY,
              applied_at {d.real} NOT NULL){d.strict}""",
        f"""CREATE TABLE runs (
              run_id {d.ident},
              config_hash TEXT NOT NULL,
              tool_version TEXT NOT NULL,
              config_text TEXT NOT NULL,
              n_tasks INTEGER NOT NULL CHECK (n_tasks >= 0),
              status TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
              started_at {d.real} NOT NULL,
              finished_at {d.real},
              host TEXT NOT NULL,
              pid INTEGER NOT NULL){d.strict}""",
        f"""CREATE TABLE tasks (
              key TEXT PRIMARY KEY,
              run_id {d.id_type} NOT NULL REFERENCES runs (run_id),
              robot TEXT NOT NULL,
              joint TEXT NOT NULL,
              joint_type TEXT NOT NULL,
              session TEXT NOT NULL,
              session_time TEXT NOT NULL,
              tags TEXT NOT NULL,
              inputs TEXT NOT NULL,
              inputs_hash TEXT NOT NULL,
              config_hash TEXT NOT NULL,
              tool_version TEXT NOT NULL,
              status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
              error TEXT,
              started_at {d.real},
              finished_at {d.real},
              seconds {d.real},
              worker TEXT,
              attempts INTEGER NOT NULL CHECK (attempts >= 0),
              recorded_at {d.real} NOT NULL){d.strict}""",
        "CREATE INDEX tasks_run ON tasks (run_id)",
        "CREATE INDEX tasks_joint ON tasks (robot, joint, session_time)",
        f"""CREATE TABLE results (
              key TEXT NOT NULL REFERENCES tasks (key) ON DELETE CASCADE,
              model TEXT NOT NULL,
              selected {d.boolean('selected')},
              train_rmse {d.real},
              validation_rmse {d.real},
              aicc {d.real},
              metrics TEXT NOT NULL,
              PRIMARY KEY (key, model)){d.strict}""",
        f"""CREATE TABLE parameters (
              key TEXT NOT NULL,
              model TEXT NOT NULL,
              name TEXT NOT NULL,
              value {d.real},
              std_error {d.real},
              ci_low {d.real},
              ci_high {d.real},
              unit TEXT NOT NULL,
              determined {d.boolean('determined')},
              PRIMARY KEY (key, model, name),
              FOREIGN KEY (key, model) REFERENCES results (key, model) ON DELETE CASCADE){d.strict}""",
    ]


def _schema_v2(d):
    """Version 2: each model's verdict (docs/verdicts.md) as JSON {"grade", "line", "reasons"};
    NULL for results recorded before verdicts."""
    return ["ALTER TABLE results ADD COLUMN verdict TEXT"]


MIGRATIONS = [_schema_v1, _schema_v2]
"""Migration steps: MIGRATIONS[i](dialect) -> the statements taking a store from version i to i + 1
(version 0: an empty database). Each step runs in one transaction with its schema_version row.
SCHEMA_VERSION == len(MIGRATIONS)."""
assert SCHEMA_VERSION == len(MIGRATIONS)


# --------------------------------------------------------------------------------------------------
# URLs and connections

def redact_url(url):
    """`url` with its password (if any) replaced by ``***``: what error messages show."""
    try:
        parts = urllib.parse.urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
        return urllib.parse.urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "<unparsable URL>"


def parse_url(url):
    """Which backend a store URL names: ("sqlite", absolute file path) for a path or
    ``sqlite:///abs/path``, ("postgresql", url) for ``postgresql://...`` (or ``postgres://``).
    Raises ValueError for another scheme (listing the accepted forms) or an empty URL."""
    if not isinstance(url, (str, os.PathLike)) or not str(url):
        raise ValueError(f"results store: empty URL; accepted: {', '.join(URL_FORMS)}")
    url = os.fspath(url)
    if "://" not in url:
        return "sqlite", os.path.abspath(url)
    scheme = url.split("://", 1)[0].lower()
    if scheme == "sqlite":
        path = url[len("sqlite://"):]
        if not path.startswith("/") or path == "/":
            raise ValueError(f"results store {redact_url(url)}: an SQLite URL is sqlite:///absolute/path "
                             f"(three slashes, no host)")
        return "sqlite", urllib.parse.unquote(path)
    if scheme in ("postgresql", "postgres"):
        return "postgresql", url
    raise ValueError(f"results store {redact_url(url)}: unknown scheme {scheme!r}; accepted: "
                     f"{', '.join(URL_FORMS)}")


def _create_sqlite_file(path):
    """Create the empty store file `path` with its directory's read/write permissions (a group-shared
    directory gives a group-writable store; SQLite gives its -wal and -shm files the file's mode).
    An existing file is left alone. Raises FileNotFoundError naming a missing directory."""
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"results store {path}: the directory {directory} does not exist")
    mode = stat.S_IMODE(os.stat(directory).st_mode) & 0o666
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, mode)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, mode)  # exactly the directory's bits, whatever the umask
    finally:
        os.close(fd)


def _sqlite_wal(conn, sqlite3):
    """Put the database in WAL mode (persistent: done once per file) and return the journal mode.
    Switching needs an exclusive lock, and SQLite does not always wait for it (busy handler) when
    several processes open a new file at once: retried until the busy timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if mode.lower() == "wal":
                return mode
            return conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _foreign_message(url, tables):
    """The refusal of a database that holds tables but no frictionlab schema."""
    shown = ", ".join(tables[:10]) + (f" and {len(tables) - 10} more" if len(tables) > 10 else "")
    return (f"results store {url}: is not a frictionlab store (it has tables {shown}); give a new "
            f"or empty database")


def _connect_sqlite_readonly(path, sqlite3):
    """A read-only connection (URI mode=ro). A WAL store needs its -shm file to be read; when
    that file is missing and cannot be created (a directory the reader may not write) and no
    -wal file exists (no writer has uncommitted pages: the file is whole), the store is opened
    as immutable (no locks, no -shm)."""
    def connect(query):
        conn = sqlite3.connect(f"file:{urllib.parse.quote(path)}?{query}", uri=True,
                               timeout=SQLITE_BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # is it a database?
        except BaseException:
            conn.close()
            raise
        return conn

    try:
        return connect("mode=ro")
    except sqlite3.OperationalError:
        if os.path.exists(path + "-wal") or os.access(os.path.dirname(path) or ".", os.W_OK):
            raise
        return connect("mode=ro&immutable=1")


def _connect_sqlite(path, create, readonly):
    """A connection to the SQLite store `path`: read-only (URI mode=ro: nothing is written, not
    even the WAL switch, so a store the user may only read can be read) or read-write in WAL
    mode (the file created first when `create`)."""
    import sqlite3

    if not os.path.exists(path):
        if not create or readonly:
            raise StoreError(f"results store {path}: no such file")
        _create_sqlite_file(path)
    try:
        if readonly:
            return _connect_sqlite_readonly(path, sqlite3)
        conn = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        # another application's database is refused before anything changes it (the WAL switch
        # below persists in the file)
        # one read of the table list: two reads could straddle another process creating the schema
        tables = [r[0] for r in conn.execute(SQLITE.list_tables).fetchall()]
        if tables and "schema_version" not in tables:
            conn.close()
            raise StoreError(_foreign_message(path, tables))
        mode = _sqlite_wal(conn, sqlite3)
        if mode.lower() != "wal":
            raise StoreError(f"results store {path}: SQLite refused WAL mode (journal_mode {mode}); "
                             f"is the file on a network filesystem?")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as e:
        raise StoreError(f"results store {path}: not a usable SQLite database ({e})") from e
    return conn


def _connect_postgresql(url, readonly):
    """A connection to the PostgreSQL store `url`; with `readonly` every transaction of the
    session is READ ONLY (the server refuses any write or DDL)."""
    import psycopg2

    try:
        conn = psycopg2.connect(url)
        conn.autocommit = True  # transactions are explicit (BEGIN ... COMMIT), reads end at once
        if readonly:
            with conn.cursor() as cur:
                cur.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    except psycopg2.Error as e:
        raise StoreError(f"results store {redact_url(url)}: cannot connect ({str(e).strip()})") from e
    return conn


def open_store(url, create=True, readonly=False):
    """Open (and create or migrate) the results store at `url`.

    url: a file path or ``sqlite:///absolute/path.sqlite`` (SQLite; the file is created with its
      directory's permissions, the directory must exist), or ``postgresql://user[:password]@host:port/db``
      (PostgreSQL through psycopg2; the database must exist).
    create: False to refuse a missing SQLite file or an empty database instead of creating the
      schema.
    readonly: open for reading only (implies create=False; what ``fleet status`` and ``fleet
      report`` use): SQLite through a ``mode=ro`` URI, PostgreSQL with READ ONLY transactions;
      nothing is written (no schema, no migration, no WAL switch), so a store the user may only
      read can be read; writes raise StoreError.
    A database that holds tables but no frictionlab schema (another application's) is refused,
    never added to: give a new or empty database.
    Returns a Store (a context manager). Raises ValueError for an unknown URL scheme, StoreError when
    the store cannot be opened, is newer than this code (SCHEMA_VERSION) or a migration fails;
    messages show the URL without its password."""
    return Store(url, create=create and not readonly, readonly=readonly)


# --------------------------------------------------------------------------------------------------
# Values

def _real(x, where):
    """A float column's value: None for None or NaN (stored as NULL: 'not available'), else float.
    Raises ValueError naming `where` for a value that is not a number."""
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: {x!r} is not a number") from e
    return None if math.isnan(v) else v


def _json(x, where):
    try:
        return json.dumps(x, sort_keys=True)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: not representable as JSON ({e})") from e


_TASK_FIELDS = ("key", "robot", "joint", "joint_type", "session", "session_time", "tags", "inputs",
                "inputs_hash", "config_hash", "tool_version", "status", "error", "started_at",
                "finished_at", "seconds", "worker", "attempts", "models")
_TASK_COLUMNS = ("key", "run_id", "robot", "joint", "joint_type", "session", "session_time", "tags",
                 "inputs", "inputs_hash", "config_hash", "tool_version", "status", "error",
                 "started_at", "finished_at", "seconds", "worker", "attempts", "recorded_at")
_RESULT_COLUMNS = ("key", "model", "selected", "train_rmse", "validation_rmse", "aicc", "metrics",
                   "verdict")
_PARAMETER_COLUMNS = ("key", "model", "name", "value", "std_error", "ci_low", "ci_high", "unit",
                      "determined")


def _verdict(v, where):
    """A model's verdict as stored: JSON text of {"grade", "line", "reasons"}, or None (no verdict).
    Raises ValueError naming `where` for anything else."""
    if v is None:
        return None
    if (not isinstance(v, dict) or v.get("grade") not in ("good", "doubtful", "bad") or
            not isinstance(v.get("line"), str) or not isinstance(v.get("reasons"), list)):
        raise ValueError(f"{where}: a verdict is None or {{grade: good|doubtful|bad, line, reasons}}, "
                         f"not {str(v)[:200]}")
    return _json(v, where)


def _rows_of(run_id, result, now):
    """The task row, result rows and parameter rows of one task-result dict (docs/fleet.md).
    Raises ValueError naming the key and field of a missing or malformed field."""
    if not isinstance(result, dict):
        raise ValueError(f"record_task: a task result is a dict, not {type(result).__name__}")
    key = result.get("key")
    if not isinstance(key, str) or not key:
        raise ValueError(f"record_task: the task result has no key (a non-empty str): {key!r}")
    missing = [f for f in _TASK_FIELDS if f not in result]
    if missing:
        raise ValueError(f"record_task: task {key}: missing field(s) {', '.join(missing)}")
    for f in ("robot", "joint", "joint_type", "session", "session_time", "inputs_hash", "config_hash",
              "tool_version"):
        if not isinstance(result[f], str):
            raise ValueError(f"record_task: task {key}: {f} is a str, not {result[f]!r}")
    if result["status"] not in TASK_STATUSES:
        raise ValueError(f"record_task: task {key}: status {result['status']!r} is not one of "
                         f"{', '.join(TASK_STATUSES)}")
    if not isinstance(result["tags"], dict):
        raise ValueError(f"record_task: task {key}: tags is a dict, not {result['tags']!r}")
    w = f"record_task: task {key}"
    task = (key, int(run_id), result["robot"], result["joint"], result["joint_type"],
            result["session"], result["session_time"], _json(result["tags"], f"{w}: tags"),
            _json(result["inputs"], f"{w}: inputs"), result["inputs_hash"], result["config_hash"],
            result["tool_version"], result["status"],
            None if result["error"] is None else str(result["error"]),
            _real(result["started_at"], f"{w}: started_at"),
            _real(result["finished_at"], f"{w}: finished_at"),
            _real(result["seconds"], f"{w}: seconds"),
            None if result["worker"] is None else str(result["worker"]), int(result["attempts"]), now)
    results, parameters = [], []
    for m in result["models"]:
        model = m["model"]
        wm = f"{w}: model {model}"
        results.append((key, model, bool(m["selected"]), _real(m["train_rmse"], f"{wm}: train_rmse"),
                        _real(m.get("validation_rmse"), f"{wm}: validation_rmse"),
                        _real(m.get("aicc"), f"{wm}: aicc"), _json(m.get("metrics", {}), f"{wm}: metrics"),
                        _verdict(m.get("verdict"), f"{wm}: verdict")))
        for p in m["parameters"]:
            wp = f"{wm}: parameter {p.get('name')}"
            parameters.append((key, model, p["name"], _real(p["value"], f"{wp}: value"),
                               _real(p.get("std_error"), f"{wp}: std_error"),
                               _real(p.get("ci_low"), f"{wp}: ci_low"),
                               _real(p.get("ci_high"), f"{wp}: ci_high"), str(p.get("unit", "")),
                               bool(p["determined"])))
    return task, results, parameters


def _placeholders(n):
    return ", ".join(["?"] * n)


_UPSERT_TASK = (
    f"INSERT INTO tasks ({', '.join(_TASK_COLUMNS)}) VALUES ({_placeholders(len(_TASK_COLUMNS))}) "
    f"ON CONFLICT (key) DO UPDATE SET "
    + ", ".join(f"{c} = tasks.{c} + excluded.{c}" if c == "attempts" else f"{c} = excluded.{c}"
                for c in _TASK_COLUMNS if c != "key")
    + " WHERE tasks.status <> 'done' RETURNING key")
_INSERT_RESULT = (f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)}) "
                  f"VALUES ({_placeholders(len(_RESULT_COLUMNS))})")
_INSERT_PARAMETER = (f"INSERT INTO parameters ({', '.join(_PARAMETER_COLUMNS)}) "
                     f"VALUES ({_placeholders(len(_PARAMETER_COLUMNS))})")

_FLOAT_COLUMNS = {"started_at", "finished_at", "seconds", "recorded_at", "train_rmse",
                  "validation_rmse", "aicc", "value", "std_error", "ci_low", "ci_high"}
_INT_COLUMNS = {"run_id", "attempts", "n_tasks", "pid", "n_done", "n_failed"}
_BOOL_COLUMNS = {"selected", "determined"}
_JSON_COLUMNS = {"tags", "inputs", "metrics", "verdict"}


# --------------------------------------------------------------------------------------------------

class Store:
    """A results store (see open_store, which is how to make one). Thread-safe: one connection,
    one operation at a time."""

    def __init__(self, url, create=True, migrations=None, readonly=False):
        """Open the store at `url` (see open_store). `migrations` replaces MIGRATIONS (for the
        migration tests: the code's version is then len(migrations))."""
        backend, target = parse_url(url)
        self.backend = backend
        self.url = redact_url(target)  # what messages and repr show
        self._lock = threading.RLock()
        if backend == "sqlite":
            self._d = SQLITE
            self._conn = _connect_sqlite(target, create, readonly)
            self._errors = (__import__("sqlite3").Error,)
        else:
            import psycopg2

            self._d = POSTGRESQL
            self._conn = _connect_postgresql(target, readonly)
            self._errors = (psycopg2.Error,)
        try:
            self.version = self._migrate(MIGRATIONS if migrations is None else migrations, create,
                                         readonly)
        except BaseException:
            self._conn.close()
            raise

    # -- plumbing ----------------------------------------------------------------------------------
    def _execute(self, cur, sql, params=()):
        cur.execute(self._d.sql(sql), params)
        return cur

    @contextmanager
    def _transaction(self, what):
        """One write transaction: committed when the block ends, rolled back when it raises
        (database errors become StoreError naming `what`)."""
        with self._lock:
            cur = self._conn.cursor()
            try:
                for s in self._d.begin:
                    cur.execute(s)
                yield cur
                cur.execute("COMMIT")
            except BaseException as e:
                try:
                    cur.execute("ROLLBACK")
                except self._errors:
                    pass
                if isinstance(e, self._errors):
                    raise StoreError(f"results store {self.url}: {what}: {str(e).strip()}") from e
                raise
            finally:
                cur.close()

    def _query(self, sql, params=()):
        """Rows and column names of one read (its own transaction: one consistent snapshot)."""
        with self._lock:
            cur = self._conn.cursor()
            try:
                self._execute(cur, sql, params)
                rows = cur.fetchall()
                names = [c[0] for c in cur.description]
            except self._errors as e:
                raise StoreError(f"results store {self.url}: {str(e).strip()}") from e
            finally:
                cur.close()
        return names, rows

    def _version(self, cur):
        self._execute(cur, self._d.has_version_table)
        if cur.fetchone()[0] == 0:
            return 0
        self._execute(cur, "SELECT MAX(version) FROM schema_version")
        v = cur.fetchone()[0]
        return 0 if v is None else int(v)

    def _foreign_tables(self, cur):
        """The tables of a database without a schema_version table (another application's); none
        when the table list has one (another process created the schema since _version read it)."""
        self._execute(cur, self._d.list_tables)
        tables = [r[0] for r in cur.fetchall()]
        return [] if "schema_version" in tables else tables

    def _migrate(self, migrations, create, readonly=False):
        target = len(migrations)
        with self._lock:
            cur = self._conn.cursor()
            try:
                current = self._version(cur)
                foreign = self._foreign_tables(cur) if current == 0 else []
                if current == 0 and not foreign:
                    current = self._version(cur)  # created meanwhile, or still empty
            except self._errors as e:
                raise StoreError(f"results store {self.url}: cannot read the schema version "
                                 f"({str(e).strip()})") from e
            finally:
                cur.close()
        if current > target:
            raise StoreError(f"results store {self.url} has schema version {current}, newer than this "
                             f"frictionlab's {target}: use a newer frictionlab")
        if foreign:
            raise StoreError(_foreign_message(self.url, foreign))
        if current == 0 and not create:
            raise StoreError(f"results store {self.url}: no frictionlab results in it "
                             f"(no schema_version table)")
        if current < target and readonly:
            raise StoreError(f"results store {self.url} has schema version {current}, older than "
                             f"this frictionlab's {target}: a run (`fleet run`, which may write) "
                             f"migrates it; reading commands do not")
        for v in range(current + 1, target + 1):
            with self._transaction(f"migration to schema version {v}") as cur:
                for s in self._d.lock:
                    cur.execute(s)
                now = self._version(cur)  # another process may have migrated meanwhile
                if now >= v:
                    continue
                for statement in migrations[v - 1](self._d):
                    cur.execute(statement)
                self._execute(cur, "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                              (v, time.time()))
        return target

    def _frame(self, names, rows):
        """A DataFrame of query rows: JSON columns decoded, booleans as bool, NULL floats as NaN."""
        df = pd.DataFrame.from_records(rows, columns=names)
        for c in names:
            if c in _FLOAT_COLUMNS:
                df[c] = df[c].astype("float64")
            elif c in _INT_COLUMNS:
                df[c] = df[c].astype("int64")
            elif c in _BOOL_COLUMNS:
                df[c] = df[c].astype(bool)
            elif c in _JSON_COLUMNS:
                df[c] = [None if x is None else json.loads(x) for x in df[c]]
        return df

    # -- runs --------------------------------------------------------------------------------------
    def begin_run(self, config_hash, tool_version, config_text, n_tasks):
        """Record the start of a run (status "running", started now).

        config_hash: sha256 hex of the configuration; tool_version: the frictionlab version;
        config_text: the configuration file's text (kept for the record); n_tasks: the number of
        tasks the run covers (done ones included). Returns the new run's id (int)."""
        with self._transaction("begin_run") as cur:
            self._execute(cur, "INSERT INTO runs (config_hash, tool_version, config_text, n_tasks, status, "
                               "started_at, host, pid) VALUES (?, ?, ?, ?, 'running', ?, ?, ?) "
                               "RETURNING run_id",
                          (config_hash, tool_version, config_text, int(n_tasks), time.time(),
                           socket.gethostname(), os.getpid()))
            return int(cur.fetchone()[0])

    def end_run(self, run_id, status):
        """Record the end of run `run_id` (finished now) with `status` "done", "interrupted" or
        "failed". Raises ValueError for another status, KeyError for an unknown run."""
        if status not in RUN_STATUSES[1:]:
            raise ValueError(f"end_run: status {status!r} is not one of {', '.join(RUN_STATUSES[1:])}")
        with self._transaction(f"end_run {run_id}") as cur:
            self._execute(cur, "UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?",
                          (status, time.time(), int(run_id)))
            if cur.rowcount != 1:
                raise KeyError(f"end_run: results store {self.url} has no run {run_id}")

    def runs(self):
        """All runs, oldest first: a DataFrame with run_id, status ("running", "done",
        "interrupted", "failed"), started_at, finished_at (unix s; NaN while running), config_hash,
        tool_version, n_tasks, host, pid, config_text, and n_done / n_failed: the tasks whose current
        row this run wrote (tasks skipped because an earlier run did them are not counted)."""
        names, rows = self._query(
            "SELECT r.run_id, r.status, r.started_at, r.finished_at, r.config_hash, r.tool_version, "
            "r.n_tasks, r.host, r.pid, r.config_text, "
            "(SELECT COUNT(*) FROM tasks t WHERE t.run_id = r.run_id AND t.status = 'done') AS n_done, "
            "(SELECT COUNT(*) FROM tasks t WHERE t.run_id = r.run_id AND t.status = 'failed') AS n_failed "
            "FROM runs r ORDER BY r.run_id")
        return self._frame(names, rows)

    # -- tasks -------------------------------------------------------------------------------------
    def done_keys(self):
        """The set of task keys with status "done" (what a run skips)."""
        return {r[0] for r in self._query("SELECT key FROM tasks WHERE status = 'done'")[1]}

    def task_status(self):
        """{task key: "done" | "failed"} of every recorded task."""
        return dict(self._query("SELECT key, status FROM tasks")[1])

    def record_task(self, run_id, result):
        """Write one task result (the dict of docs/fleet.md, "Task result") of run `run_id`: the task
        row, its results rows (one per model) and parameters rows, in ONE transaction.

        A key already "done" is left alone: nothing is written and False is returned (also when
        another process wrote it a moment ago). A "failed" key is replaced whole (task row, results
        and parameters) by this attempt, except ``attempts``, which adds up: the result's
        ``attempts`` (the identifications it stands for: 1 from a worker) plus the row's, so the
        column counts every attempt made for the key. Returns True when written. NaN or None in a float field is
        stored as NULL (read back as NaN). Raises ValueError naming the key and field of a malformed
        result (nothing written), StoreError when the database refuses a row (e.g. two parameters
        of one model with the same name, an unknown run): the transaction is rolled back whole."""
        task, results, parameters = _rows_of(run_id, result, time.time())
        with self._transaction(f"record_task {task[0]}") as cur:
            self._execute(cur, _UPSERT_TASK, task)
            if cur.fetchone() is None:  # done already: the upsert's WHERE left it alone, nothing
                return False            # was written (the COMMIT ends an empty transaction)
            # a failed attempt's results, if any (the cascade would do it for a deleted task row)
            self._execute(cur, "DELETE FROM parameters WHERE key = ?", (task[0],))
            self._execute(cur, "DELETE FROM results WHERE key = ?", (task[0],))
            if results:
                cur.executemany(self._d.sql(_INSERT_RESULT), results)
            if parameters:
                cur.executemany(self._d.sql(_INSERT_PARAMETER), parameters)
        return True

    def add_attempts(self, counts):
        """Add attempts to recorded tasks: `counts` is {task key: attempts to add (int >= 0)}
        (the engine's count of worker processes that died on a task), in one transaction.
        Keys not recorded are ignored."""
        rows = [(int(n), str(k)) for k, n in counts.items() if int(n) > 0]
        if not rows:
            return
        with self._transaction("add_attempts") as cur:
            cur.executemany(self._d.sql("UPDATE tasks SET attempts = attempts + ? WHERE key = ?"), rows)

    def tasks(self, run_id=None, status=None):
        """Recorded tasks (one row per key, its latest attempt), ordered by robot, joint,
        session_time, key; only those last written by run `run_id` and/or with `status` when given.
        Columns: key, run_id, robot, joint, joint_type, session, session_time, tags (dict), inputs
        (list of {path, sha256, bytes}), inputs_hash, config_hash, tool_version, status, error,
        started_at, finished_at (unix s), seconds, worker, attempts (every attempt recorded for the
        key: they add up, record_task), recorded_at (unix s, the store's clock when written)."""
        where, params = [], []
        if run_id is not None:
            where.append("run_id = ?")
            params.append(int(run_id))
        if status is not None:
            if status not in TASK_STATUSES:
                raise ValueError(f"tasks: status {status!r} is not one of {', '.join(TASK_STATUSES)}")
            where.append("status = ?")
            params.append(status)
        sql = f"SELECT {', '.join(_TASK_COLUMNS)} FROM tasks"
        if where:
            sql += " WHERE " + " AND ".join(where)
        names, rows = self._query(sql + " ORDER BY robot, joint, session_time, key", tuple(params))
        return self._frame(names, rows)

    def results(self, selected_only=False):
        """One row per (done task, model): key, robot, joint, joint_type, session, session_time,
        model, selected, train_rmse, validation_rmse, aicc (NaN when not available), metrics (dict),
        verdict ({grade, line, reasons}, None for results recorded before verdicts); only the
        selected models when `selected_only`."""
        sql = ("SELECT t.key, t.robot, t.joint, t.joint_type, t.session, t.session_time, r.model, "
               "r.selected, r.train_rmse, r.validation_rmse, r.aicc, r.metrics, r.verdict "
               "FROM results r JOIN tasks t ON t.key = r.key WHERE t.status = 'done'")
        if selected_only:
            sql += " AND r.selected = ?"
        names, rows = self._query(sql + " ORDER BY t.robot, t.joint, t.session_time, t.key, r.model",
                                  (True,) if selected_only else ())
        return self._frame(names, rows)

    def parameters(self, selected_only=True):
        """Parameter estimates of the done tasks, long format (one row per task, model and
        parameter), ordered by robot, joint, session_time, key, model, name. Columns: key, robot,
        joint, joint_type, session, session_time, model, selected, name, value, std_error, ci_low,
        ci_high (the parameter's unit; NaN when not available), unit, determined, train_rmse,
        validation_rmse, aicc (the model's), tags (dict), run_id, config_hash, tool_version (the
        task's). Only the selected model of each task when `selected_only`. Every stored result
        is here, those of earlier configurations or versions of a session too
        (analysis.current_results keeps one per session)."""
        sql = ("SELECT t.key, t.robot, t.joint, t.joint_type, t.session, t.session_time, p.model, "
               "r.selected, p.name, p.value, p.std_error, p.ci_low, p.ci_high, p.unit, p.determined, "
               "r.train_rmse, r.validation_rmse, r.aicc, t.tags, t.run_id, t.config_hash, "
               "t.tool_version FROM parameters p JOIN results r ON r.key = p.key AND r.model = p.model "
               "JOIN tasks t ON t.key = p.key WHERE t.status = 'done'")
        if selected_only:
            sql += " AND r.selected = ?"
        names, rows = self._query(
            sql + " ORDER BY t.robot, t.joint, t.session_time, t.key, p.model, p.name",
            (True,) if selected_only else ())
        return self._frame(names, rows)

    # -- life --------------------------------------------------------------------------------------
    def close(self):
        """Close the connection (idempotent)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<frictionlab.fleet Store {self.backend} {self.url} schema v{self.version}>"
