"""Every result the workflows return pickles (docs/python.md, "Pickling"): the joint outcomes
(fit_joint, eval_joint), the actuator outcomes (fit_actuator, eval_actuator, check_actuator)
and the exports, each with every part; pickle.loads(pickle.dumps(x)) has every public attribute
of x (test_pickle.same: arrays element for element, NaN equal to NaN, nested objects attribute
by attribute) and the same to_json() text, and each comes back from a ProcessPoolExecutor with
the numbers of the same call made here. The module's classes that are results are all
picklable (a new result class without pickling fails test_every_result_class_pickles)."""
import concurrent.futures
import inspect
import json
import pickle

import pytest

import frictionlab as fl
from _cli import DFKI, SERVO, demo_records, needs_cli
from test_pickle import roundtrip, same

JOINT_REC = DFKI / "sysid_data_measured.csv"
LOGS = SERVO / "logs"
needs_dfki = pytest.mark.skipif(not DFKI.is_dir(), reason="no ../shared/data")
needs_servo = pytest.mark.skipif(not SERVO.is_dir(), reason="no ../shared/data")

# The classes that are inputs, not results: options and system descriptions the caller builds
# (SystemFile: read_system's description of a SYSTEM.json, to pass to simulate_system), and the
# models' base class; the model tags (Coulomb, LuGre, ...) have a Params class and are skipped.
# Inputs the user builds, not results a fit returns: options, specs and plot descriptions
# (render_svg turns a Plot into text, which pickles).
NOT_RESULTS = {"SimOptions", "StickSlipSpec", "JointSpec", "SystemFile", "ModelParams", "Plot",
               "PlotMargins", "PlotPanel", "PlotSeries"}


def joint_fit():
    # oe started from sr3: the outcome holds idim's absence, sr3's scan and oe's run
    rec = fl.Record.read(JOINT_REC, time="time", position="position", force="torque")
    return fl.fit_joint(rec, method="oe", init="sr3", max_iterations=2, resample_rate=300.0)


def joint_eval():
    rec = fl.Record.read(JOINT_REC, time="time", position="position", force="torque")
    return fl.eval_joint(fl.fit_joint(rec, resample_rate=300.0), [rec], resample_rate=300.0)


def actuator_fit():
    return fl.fit_actuator(str(LOGS), models=["m1", "m2"], trials=40, restarts=0, threads=1,
                           validation="kp=200")


def actuator_eval():
    return fl.eval_actuator(LOGS, SERVO / "reference_params", kp=[200])


def actuator_check():
    return fl.check_actuator("xl330", LOGS, kp=[200], threads=1, evaluations=60)


def without_times(j):
    """A JSON value without its wall times (run_time_s, seconds: at any depth)."""
    if isinstance(j, dict):
        return {k: without_times(v) for k, v in j.items() if k not in ("run_time_s", "seconds")}
    if isinstance(j, list):
        return [without_times(v) for v in j]
    return j


def every_part(x, depth=0):
    """x and every object reachable through its public attributes and lists (no arrays, dicts
    or plain values), each once."""
    if depth > 6 or isinstance(x, (str, bytes, int, float, bool, type(None), dict)):
        return []
    if type(x).__module__ == "numpy":
        return []
    if isinstance(x, (list, tuple)):
        return [p for e in x[:2] for p in every_part(e, depth + 1)]
    out = [x]
    for n in dir(x):
        if n.startswith("_"):
            continue
        v = getattr(x, n)
        if not callable(v):
            out += every_part(v, depth + 1)
    return out


def roundtrip_all(x):
    """Round-trip x and every part of it; the types met, by name."""
    seen = set()
    for part in every_part(x):
        roundtrip(part)
        seen.add(type(part).__name__)
    return seen


@needs_dfki
def test_fit_joint_outcome_and_every_part():
    f = joint_fit()
    g = roundtrip(f)
    assert g.to_json() == f.to_json() and g.model == f.model
    assert g.method_details == f.method_details  # sr3's scan and oe's run, through the state
    seen = roundtrip_all(f)
    assert {"FitJointOutcome", "JointData", "JointEvaluation", "ChannelError", "JointSteadyCurve",
            "ParameterEstimate", "Verdict"} <= seen


@needs_dfki
def test_eval_joint_outcome():
    e = joint_eval()
    d = roundtrip(e)
    assert d.to_json() == e.to_json() and d.joint_file == e.joint_file
    assert {"EvalJointOutcome", "JointData", "JointEvaluation"} <= roundtrip_all(e)


@needs_servo
def test_actuator_outcomes():
    f = actuator_fit()
    g = roundtrip(f)
    assert g.to_json() == f.to_json()
    assert [m.params_json() for m in g.models] == [m.params_json() for m in f.models]
    assert {"FitActuatorOutcome", "ActuatorModelOutcome"} <= roundtrip_all(f)
    e = actuator_eval()
    assert roundtrip(e).to_json() == e.to_json()
    assert {"EvalActuatorOutcome", "EvalActuatorLog", "EvalActuatorColumn"} <= roundtrip_all(e)
    c = actuator_check()
    d = roundtrip(c)
    assert (d.nominal, d.fitted) == (c.nominal, c.fitted)
    # a note on these logs: no log saturates, so max_pwm and the current window are not identified
    assert [f.check for f in c.findings] == ["saturation"]
    assert {"ActuatorCheckOutcome", "ActuatorLogCheck", "ActuatorFinding"} <= roundtrip_all(c)


@needs_cli
def test_exports(tmp_path_factory):
    fit_json = demo_records(tmp_path_factory) / "fit.json"
    c = fl.export_c(fit_json, name="est")
    d = roundtrip(c)
    assert (d.header_file, d.header, d.source) == ("est.h", c.header, c.source)
    assert roundtrip(fl.export_xml(fit_json)).text == fl.export_xml(fit_json).text
    assert roundtrip(fl.export_mujoco(fit_json, joint="j1")).xml == \
        fl.export_mujoco(fit_json, joint="j1").xml
    roundtrip(fl.export_json(fit_json))


def test_every_result_class_pickles():
    classes = [c for n, c in inspect.getmembers(fl._frictionlab, inspect.isclass)
               if n not in NOT_RESULTS and not issubclass(c, BaseException)
               and not n.endswith("Params") and not n.endswith("State")
               and not hasattr(c, "Params") and type(c).__name__ == "pybind11_type"]
    assert len(classes) > 30
    missing = [c.__name__ for c in classes if "__getstate__" not in c.__dict__]
    assert missing == []


@pytest.mark.parametrize("make", [
    pytest.param(joint_fit, marks=needs_dfki), pytest.param(joint_eval, marks=needs_dfki),
    pytest.param(actuator_fit, marks=needs_servo), pytest.param(actuator_eval, marks=needs_servo),
    pytest.param(actuator_check, marks=needs_servo)])
def test_a_process_pool_returns_it(make):
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        there = pool.submit(make).result(timeout=300)
    here = make()
    assert type(there) is type(here)
    if hasattr(here, "to_json"):
        assert without_times(json.loads(there.to_json())) == \
            without_times(json.loads(here.to_json()))
    else:
        same(there.findings, here.findings)
        assert (there.nominal_mae, there.fitted_mae) == (here.nominal_mae, here.fitted_mae)
    pickle.dumps(there)
