"""Helpers of the workflow tests: the CLI (FRICTIONLAB_CLI) run in a temporary directory, the
demo's records and their channels, a working directory for the body of a `with`, the shared
data, and the comparison of the CLI's JSON with Python's."""
import contextlib
import json
import os
import subprocess
from pathlib import Path

import pytest

CLI = os.environ.get("FRICTIONLAB_CLI", "")
SOURCE = Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SHARED = SOURCE.parent / "shared" / "data"
DFKI = SHARED / "pendulum_dfki"
SERVO = SHARED / "servo_xl330"

needs_cli = pytest.mark.skipif(not CLI, reason="FRICTIONLAB_CLI not set")
# the channels of the demo's sensorless records: Python's keywords, and the CLI's options
SENSORLESS = dict(problem="sensorless", current="current", velocity="velocity", force="torque")
SENSORLESS_ARGS = [arg for key, value in SENSORLESS.items() for arg in (f"--{key}", value)]


def read_csv(path):
    """A CSV written by the CLI (comment lines '#' skipped) as {column: float64 array}."""
    import csv
    import io

    import numpy as np

    with open(path) as f:
        rows = [r for r in f if not r.startswith("#")]
    reader = csv.reader(io.StringIO("".join(rows)))
    header = next(reader)
    data = np.array([[float(x) for x in r] for r in reader])
    return {h: data[:, i] for i, h in enumerate(header)}


def run_cli(*args, cwd):
    """Run the CLI; its stdout. Fails the test with stderr when it fails."""
    r = subprocess.run([CLI, *map(str, args)], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def demo_records(tmp_path_factory):
    """sensorless_train.csv and sensorless_validation.csv of `frictionlab demo` (a directory)."""
    d = tmp_path_factory.mktemp("demo")
    run_cli("demo", "--out", d, cwd=d)
    return d


@contextlib.contextmanager
def in_dir(path):
    """The body of the `with` runs in the working directory `path` (so that Python is given the
    same relative file names as the CLI run there), and back in the previous one after."""
    cwd = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(cwd)


def same_json(cli_text, py_text, ignore=("run_time_s", "seconds")):
    """The two JSON texts are equal, key order and every number bit for bit, but for the keys in
    `ignore` (wall times) at any depth."""
    def lines(text):
        return [l for l in text.splitlines() if not any(f'"{k}":' in l for k in ignore)]

    assert lines(cli_text) == lines(py_text)
    a, b = json.loads(cli_text), json.loads(py_text)

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ignore}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    assert list(a) == list(b)
    assert strip(a) == strip(b)
