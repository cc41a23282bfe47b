"""A real, throw-away PostgreSQL server for the tests (and benchmarks): initdb into a temporary
directory, pg_ctl start on a free loopback port (127.0.0.1, its socket in the same directory), stop
and remove at the end. Nothing is installed or left behind.

    with postgres_server() as server:         # server: "postgresql://postgres@127.0.0.1:PORT"
        with fresh_database(server) as url:   # a new empty database: ".../t_1_<pid>"
            ...

As pytest fixtures: `postgres_server_url` (session scope: one server for the whole test session) and
`postgres_url` (a fresh database per test); import both into the test module.

initdb refuses to run as root: as root, the server runs as the unprivileged user `nobody` (through
`runuser`, or `setpriv` where runuser is missing) and the temporary directory belongs to it.
PostgreSQL's binaries are looked up in $FRICTIONLAB_PG_BINDIR, then the newest
/usr/lib/postgresql/*/bin (Debian), then PATH. Missing binaries FAIL the tests that need the server,
with a message, unless FRICTIONLAB_NO_POSTGRES=1 (then they are skipped).
"""
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager

import pytest

SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL's server binaries (initdb, pg_ctl) are not installed."""


def find_bindir():
    """The directory with initdb and pg_ctl. Raises PostgresUnavailable naming where it looked."""
    candidates = []
    if os.environ.get("FRICTIONLAB_PG_BINDIR"):
        candidates.append(os.environ["FRICTIONLAB_PG_BINDIR"])
    debian = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(debian, key=lambda d: int(d.split("/")[-2]) if d.split("/")[-2].isdigit() else 0,
                         reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(os.path.dirname(on_path))
    for d in candidates:
        if all(os.access(os.path.join(d, b), os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return d
    raise PostgresUnavailable(
        "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found in $FRICTIONLAB_PG_BINDIR, "
        "/usr/lib/postgresql/*/bin or PATH: install the Debian package `postgresql` "
        "(scripts/install-deps.sh), or set FRICTIONLAB_NO_POSTGRES=1 to skip the PostgreSQL tests")


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_server_user():
    """(command prefix, uid, gid) to run the server's programs: nothing as a normal user; as root,
    `nobody` through runuser or setpriv."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError as e:
        raise PostgresUnavailable("running as root and there is no user `nobody` to run PostgreSQL "
                                  "as (initdb refuses root)") from e
    if shutil.which("runuser"):
        prefix = ["runuser", "-u", "nobody", "--"]
    elif shutil.which("setpriv"):
        prefix = ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups"]
    else:
        raise PostgresUnavailable("running as root without runuser or setpriv to run PostgreSQL as "
                                  "`nobody` (initdb refuses root)")
    return prefix, pw.pw_uid, pw.pw_gid


def _run(cmd, what):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "LC_ALL": "C", "LANG": "C"})
    if r.returncode != 0:
        raise RuntimeError(f"{what} failed ({' '.join(cmd)}):\n{r.stdout}\n{r.stderr}")
    return r.stdout


@contextmanager
def postgres_server(settings=None):
    """Start a private PostgreSQL server; yields its URL without a database name,
    ``postgresql://postgres@127.0.0.1:PORT`` (trust authentication, loopback only). `settings`:
    extra server settings {name: value} (e.g. {"fsync": "off"}). Stopped (fast) and its directory
    removed when the block ends. Raises PostgresUnavailable without the binaries, RuntimeError
    with the server's log when it does not start."""
    bindir = find_bindir()
    prefix, uid, gid = _as_server_user()
    # /tmp rather than $TMPDIR: every directory above must be searchable by `nobody`.
    top = tempfile.mkdtemp(prefix="frictionlab-pg-", dir="/tmp" if uid is not None else None)
    try:
        if uid is not None:
            os.chown(top, uid, gid)
        data = os.path.join(top, "data")
        log = os.path.join(top, "server.log")
        _run(prefix + [os.path.join(bindir, "initdb"), "-D", data, "-U", SUPERUSER, "--auth=trust",
                       "-E", "UTF8", "--no-instructions"], "initdb")
        options = {"listen_addresses": "127.0.0.1", "unix_socket_directories": top,
                   "max_connections": "50", **(settings or {})}
        started, port = False, None
        for _ in range(5):  # the port may be taken between choosing and binding it
            port = _free_port()
            opts = " ".join(f"-c {k}={v}" for k, v in {**options, "port": port}.items())
            r = subprocess.run(prefix + [os.path.join(bindir, "pg_ctl"), "-D", data, "-l", log, "-w",
                                         "-t", "60", "-o", opts, "start"],
                               capture_output=True, text=True, timeout=120)
            if r.returncode == 0:
                started = True
                break
        if not started:
            with open(log) as f:
                raise RuntimeError(f"PostgreSQL did not start:\n{r.stderr}\n{f.read()}")
        try:
            yield f"postgresql://{SUPERUSER}@127.0.0.1:{port}"
        finally:
            subprocess.run(prefix + [os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "fast", "-w",
                                     "stop"], capture_output=True, timeout=120)
    finally:
        shutil.rmtree(top, ignore_errors=True)


_counter = itertools.count(1)


@contextmanager
def fresh_database(server_url):
    """A new empty database on the server at `server_url` (from postgres_server); yields its URL;
    dropped at the end (connections still open to it are ended)."""
    import psycopg2

    name = f"t_{next(_counter)}_{os.getpid()}"
    admin = psycopg2.connect(server_url + "/postgres")
    admin.autocommit = True
    try:
        with admin.cursor() as cur:
            cur.execute(f"CREATE DATABASE {name}")
        try:
            yield f"{server_url}/{name}"
        finally:
            with admin.cursor() as cur:
                cur.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        admin.close()


def _skip_or_fail(e):
    if os.environ.get("FRICTIONLAB_NO_POSTGRES") == "1":
        pytest.skip(f"FRICTIONLAB_NO_POSTGRES=1: {e}")
    pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="session")
def postgres_server_url():
    """The URL (no database) of a PostgreSQL server started for this test session (fsync off:
    the tests are not about power loss)."""
    try:
        find_bindir()
    except PostgresUnavailable as e:
        _skip_or_fail(e)
    with postgres_server({"fsync": "off", "synchronous_commit": "off"}) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server_url):
    """The URL of a fresh, empty database on the session's PostgreSQL server (dropped after the
    test)."""
    with fresh_database(postgres_server_url) as url:
        yield url
