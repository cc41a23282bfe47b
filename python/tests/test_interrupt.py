"""Ctrl-C stops every long call within a second (docs/python.md, "Progress and Ctrl-C"): a child
Python process starts a call that runs for many seconds, the test sends it SIGINT, and the child
reports when KeyboardInterrupt reached it. The latency is measured on CLOCK_MONOTONIC, the
clock time.monotonic reads in both processes (system-wide on Linux): from the test's os.kill to
the child's except clause. Without a progress callback, with a tqdm bar, with a callable, on one
thread and on two."""
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

from _cli import SERVO, DFKI

PYTHONPATH = os.pathsep.join(p for p in sys.path if p)

SETUP = """
import sys, time, warnings
import numpy as np
import frictionlab as fl

def lugre_record(n):
    t = np.arange(n) * 1e-3
    v = 0.02 * np.sin(2 * np.pi * 0.9 * t) + 0.01 * np.sin(2 * np.pi * 5.3 * t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = fl.LuGreParams(sigma0=1e4, sigma1=30.0, sigma2=0.4, Fc=1.0, Fs=1.5, vs=5e-3, alpha=2.0)
    F = fl.simulate(p, t, v).F + 0.01 * np.random.default_rng(1).standard_normal(n)
    return p, t, v, {"t": t, "velocity": v, "force": F}
"""


def run_child(call, slow_after=1.0):
    """Run SETUP, then `call` in a child; SIGINT `slow_after` s after the call started. Returns
    the latency [s] from the signal to the child's KeyboardInterrupt."""
    code = SETUP + textwrap.dedent(f"""
        ready = {call[0]}
        print("go", flush=True)
        try:
            {call[1]}
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
        else:
            print("finished", time.monotonic(), flush=True)
    """)
    env = dict(os.environ, PYTHONPATH=PYTHONPATH)
    # (stderr, where a tqdm bar draws, to a file: a full pipe would block the child)
    with tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                 stderr=err, text=True, env=env)
        try:
            go = child.stdout.readline().strip()
            assert go == "go", err.seek(0) or err.read()
            time.sleep(slow_after)
            assert child.poll() is None, ("the call ended before the signal", err.seek(0) or err.read()[-2000:])
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            # (slack for a loaded machine in the timeout only; the latency is asserted below)
            out, _ = child.communicate(timeout=20)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        err.seek(0)
        what, when = (out.split() + ["", ""])[:2]
        assert what == "interrupted", (out, err.read()[-2000:])
    latency = float(when) - sent
    print(f"{call[1]}: KeyboardInterrupt {latency:.3f} s after SIGINT")
    return latency


FIT = "fl.fit(ready, model='lugre', problem='friction', starts=400, threads={threads}, progress={progress})"


@pytest.mark.parametrize("threads,progress", [(1, "None"), (1, "True"), (2, "None"),
                                              (1, "lambda m, f: None")])
def test_fit(threads, progress):
    latency = run_child(("lugre_record(20000)[3]", FIT.format(threads=threads, progress=progress)))
    assert latency < 1.0


def test_compare():
    latency = run_child(("lugre_record(20000)[3]",
                         "fl.compare(ready, models=['lugre', 'lugre-asym'], starts=200, threads=1)"))
    assert latency < 1.0


def test_simulate():
    # 1e8 rk4 substeps (100 000 samples of 1 ms split at 1 us: the limit): seconds of work, polled
    # every 65536 substeps. (simulate_batch is polled every 8192 samples of all its sets.)
    latency = run_child(("lugre_record(100001)",
                         "fl.simulate(ready[0], ready[1], ready[2], method='rk4', max_substep=1.0001e-6)"))
    assert latency < 1.0


@pytest.mark.skipif(not DFKI.is_dir(), reason="no ../shared/data")
def test_fit_joint():
    rec = f"fl.Record.read({str(DFKI / 'sysid_data_measured.csv')!r}, time='time', position='position', force='torque')"
    latency = run_child((rec, "fl.fit_joint(ready, method='oe', init='idim', max_iterations=500, resample_rate=300.0, max_step=1e-5)"))
    assert latency < 1.0


@pytest.mark.skipif(not SERVO.is_dir(), reason="no ../shared/data")
def test_fit_actuator():
    latency = run_child((repr(str(SERVO / "logs")),
                         "fl.fit_actuator(ready, models=['m1', 'm2'], trials=100000, threads=1)"))
    assert latency < 1.0
