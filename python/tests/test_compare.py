"""frictionlab.compare against the CLI's `compare` on the demo's sensorless record: compare.json
and every model.json bit for bit (but the wall times); the rows' attributes; cancellation."""
import json
import os
import signal
import threading
import time

import pytest

import frictionlab as fl
from _cli import SENSORLESS, SENSORLESS_ARGS, in_dir, needs_cli, run_cli, same_json

pytestmark = needs_cli
MODELS = "coulomb-viscous,stribeck,lugre"


@pytest.fixture(scope="module")
def both(demo):
    run_cli("compare", "--input", "sensorless_train.csv", "--validate",
            "sensorless_validation.csv", *SENSORLESS_ARGS, "--models", MODELS, "--starts", "1",
            "--out", "cli", cwd=demo)
    with in_dir(demo):
        c = fl.compare("sensorless_train.csv", "sensorless_validation.csv",
                       models=MODELS.split(","), starts=1, **SENSORLESS)
    return demo, c


def test_compare_json_equals_cli(both):
    demo, c = both
    same_json((demo / "cli" / "compare.json").read_text(), c.to_json("cli"))
    for row in c.rows:
        d = row.model.replace(":", "_")
        assert row.fit.model_json() == (demo / "cli" / d / "model.json").read_text()


def test_rows(both):
    demo, c = both
    j = json.loads((demo / "cli" / "compare.json").read_text())
    assert [r.model for r in c.rows] == [r["model"] for r in j["rows"]]
    assert c.criterion == "aicc" and c.ranked_by_validation
    for r, q in zip(c.rows, j["rows"]):
        assert r.fit.aicc == q["aicc"] and r.validation_rmse == q["validation_rmse"]
        assert json.loads(r.fit.params.to_json()) == q["fit"]["model"]
    assert c.best_by_criterion == (None if j["best_by_criterion"] is None else
                                   [r["model"] for r in j["rows"]].index(j["best_by_criterion"]))


def test_write(both, tmp_path):
    demo, c = both
    files = c.write(tmp_path / "cmp")
    assert files[0].endswith("compare.json") and len(files) == 1 + len(c.rows)


def test_compare_errors(both):
    demo, _ = both
    rec = fl.Record.read(demo / "sensorless_train.csv", current="current", velocity="velocity",
                         force="torque")
    with pytest.raises(fl.Error, match="models: give at least two models to compare"):
        fl.compare(rec, models=["lugre"])
    with pytest.raises(fl.Error, match="models: model 'lugre' is listed twice"):
        fl.compare(rec, models="lugre,lugre")
    with pytest.raises(fl.Error, match="criterion must be aicc or bic, got 'aic'"):
        fl.compare(rec, criterion="aic")


def test_callback_exception_stops_the_call(both):
    demo, _ = both
    rec = fl.Record.read(demo / "sensorless_train.csv", current="current", velocity="velocity",
                         force="torque")
    calls = []

    def stop(message, fraction):
        calls.append(message)
        raise KeyboardInterrupt

    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        fl.compare(rec, models=MODELS, starts=1, progress=stop, **SENSORLESS)
    assert len(calls) == 1

    class Boom(Exception):
        pass

    def boom(message, fraction):
        raise Boom(message)

    with pytest.raises(Boom, match="compare: model 1/3"):
        fl.compare(rec, models=MODELS, starts=1, progress=boom, **SENSORLESS)


def test_ctrl_c_interrupts(both):
    """SIGINT while the GIL is released: the workflow's cancel check runs Python's handler
    (PyErr_CheckSignals) and the call ends with KeyboardInterrupt before its end (the call takes
    about 1.5 s here, the signal comes at 0.1 s; without the check it would return normally)."""
    demo, _ = both
    rec = fl.Record.read(demo / "sensorless_train.csv", current="current", velocity="velocity",
                         force="torque")
    timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        fl.compare(rec, models="lugre,lugre-asym,stribeck,dahl,elasto-plastic", starts=3,
                   **SENSORLESS)
    timer.join()
