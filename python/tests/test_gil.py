"""Long calls release the GIL.

1. While a fit runs in another thread, this thread keeps running Python code (it could not if
   the fit held the GIL): a direct check, whatever the machine's load.
2. Two threads fitting at once give each the result of a fit alone (no shared state).
How much faster two threads are than the same fits in sequence is a measurement, not a test
(it depends on the machine's load): benchmarks/python/bench_fit_threads.py."""
import threading
import time

import pytest

import frictionlab as fl
from _cli import demo_records, needs_cli

pytestmark = needs_cli
OPTS = dict(problem="sensorless", starts=2, threads=1)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_records(tmp_path_factory)


@pytest.fixture(scope="module")
def rec(demo):
    return fl.Record.read(demo / "sensorless_train.csv", current="current", velocity="velocity",
                          force="torque")


def test_python_runs_while_a_fit_runs(rec):
    # Fits, one after the other, for at least half a second (one fit is tens of milliseconds).
    # This thread ticks every millisecond meanwhile: hundreds of ticks if the fits release the
    # GIL; if they held it, only between two fits (a tick or two each).
    done = threading.Event()
    out = []

    def work():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.5:
            out.append(fl.fit(rec, **OPTS))
        done.set()

    t = threading.Thread(target=work)
    ticks = 0
    t.start()
    time.sleep(0.05)  # let the fit start and release the GIL
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert out and ticks > 20 and ticks > 3 * len(out), (ticks, len(out))


def test_two_threads_fit_as_one_alone(rec):
    results = []
    threads = [threading.Thread(target=lambda: results.append(fl.fit(rec, **OPTS)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ref = fl.fit(rec, **OPTS).to_json().splitlines()
    assert len(results) == 2
    for f in results:  # the same result in every thread (the wall time aside)
        assert [l for l in f.to_json().splitlines() if "run_time_s" not in l] == \
            [l for l in ref if "run_time_s" not in l]
