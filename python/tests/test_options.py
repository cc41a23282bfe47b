"""Numeric options out of range are refused before any work, naming the keyword the way it was
given (workflows/validate.hpp, the ranges the CLI and the workflows share; docs/python.md,
"Identification"). An automatic choice is had by leaving the option out, never by 0."""
import math
import warnings

import numpy as np
import pytest

import frictionlab as fl
from _cli import SERVO, DFKI


def record(n=2000):
    t = np.arange(n) * 1e-3
    v = 0.2 * np.sin(2 * np.pi * 0.7 * t)
    return {"t": t, "velocity": v, "force": 0.3 * np.tanh(v / 0.01) + 0.8 * v}


FIT_CASES = [
    (dict(spread=math.nan), "spread=nan: must be a number >= 1"),
    (dict(spread=0.5), "spread=0.5: must be a number >= 1"),
    (dict(starts=0), "starts=0: must be an integer >= 1"),
    (dict(starts=-1), "starts=-1: must be an integer >= 1"),
    (dict(threads=0), "threads=0: must be an integer >= 1"),
    (dict(threads=-3), "threads=-3: must be an integer >= 1"),
    (dict(loss_scale=-1.0), "loss_scale=-1: must be a number > 0"),
    (dict(loss_scale=0.0), "loss_scale=0: must be a number > 0"),
    (dict(max_iterations=-5), "max_iterations=-5: must be an integer >= 1"),
    (dict(warmup_s=-0.1), "warmup_s=-0.1: must be a number >= 0"),
    (dict(warmup_s=math.inf), "warmup_s=inf: must be a number >= 0"),
    (dict(resample_rate=-100.0), "resample_rate=-100: must be a number > 0"),
    (dict(lowpass_cutoff=0.0), "lowpass_cutoff=0: must be a number > 0"),
]


@pytest.mark.parametrize("options,message", FIT_CASES)
def test_fit_and_compare_refuse(options, message):
    seen = []
    with pytest.raises(fl.Error) as e:
        fl.fit(record(), model="coulomb-viscous", progress=lambda m, f: seen.append(m), **options)
    assert str(e.value) == message and seen == []  # before any work
    with pytest.raises(fl.Error) as e:
        fl.compare(record(), models=["coulomb", "coulomb-viscous"], **options)
    assert str(e.value) == message


def test_fit_accepts_the_limits_and_none():
    f = fl.fit(record(), model="coulomb-viscous", starts=1, threads=1, spread=1.0,
               max_iterations=1, loss="huber", loss_scale=1e-3, warmup_s=0.0)
    assert f.parameters
    assert fl.fit(record(), model="coulomb-viscous", starts=None, threads=None).parameters


@pytest.fixture(scope="module")
def lugre():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fl.LuGreParams(sigma0=1e5, sigma1=316.227766, sigma2=0.4, Fc=1.0, Fs=1.5, vs=1e-3, alpha=2.0)


@pytest.mark.parametrize("value,message", [(-1.0, "max_substep=-1: must be a number > 0"),
                                           (0.0, "max_substep=0: must be a number > 0"),
                                           (math.nan, "max_substep=nan: must be a number > 0")])
def test_simulate_max_substep(lugre, value, message):
    t = np.arange(100) * 1e-3
    with pytest.raises(fl.Error, match=f"^{message}$"):
        fl.simulate(lugre, t, np.zeros(100), max_substep=value)
    assert fl.simulate(lugre, t, np.zeros(100), max_substep=None).F.shape == t.shape


@pytest.mark.skipif(not DFKI.is_dir(), reason="no ../shared/data")
@pytest.mark.parametrize("options,message", [
    (dict(max_iterations=0, method="oe", init="idim"), "max_iterations=0: must be an integer >= 1"),
    (dict(n_viscous=9, method="sr3"), "n_viscous=9: must be an integer between 0 and 8"),
    (dict(segment_s=-1.0, method="oe", init="idim"), "segment_s=-1: must be a number >= 0"),
    (dict(decimate=0), "decimate=0: must be an integer >= 1"),
    (dict(v_deadband=-1.0), "v_deadband=-1: must be a number >= 0"),
])
def test_fit_joint_refuses(options, message):
    rec = fl.Record.read(DFKI / "sysid_data_measured.csv", time="time", position="position",
                         force="torque")
    with pytest.raises(fl.Error) as e:
        fl.fit_joint(rec, **options)
    assert str(e.value) == message


@pytest.mark.skipif(not SERVO.is_dir(), reason="no ../shared/data")
@pytest.mark.parametrize("options,message", [
    (dict(trials=0), "trials=0: must be an integer >= 1"),
    (dict(threads=0), "threads=0: must be an integer >= 1"),
    (dict(restarts=-1), "restarts=-1: must be an integer >= 0"),
    (dict(sigma0=0.0), "sigma0=0: must be a number > 0"),
    (dict(tolerance=-0.5), "tolerance=-0.5: must be a number >= 0"),
    (dict(time_budget=math.nan), "time_budget=nan: must be a number >= 0"),
])
def test_fit_actuator_refuses(options, message):
    with pytest.raises(fl.Error) as e:
        fl.fit_actuator(str(SERVO / "logs"), models=["m1"], **options)
    assert str(e.value) == message


@pytest.mark.skipif(not SERVO.is_dir(), reason="no ../shared/data")
def test_check_actuator_refuses():
    with pytest.raises(fl.Error, match=r"^threads=0: must be an integer >= 1$"):
        fl.check_actuator("xl330", str(SERVO / "logs"), threads=0)
    with pytest.raises(fl.Error, match=r"^evaluations=0: must be an integer >= 1$"):
        fl.check_actuator("xl330", str(SERVO / "logs"), evaluations=0)
