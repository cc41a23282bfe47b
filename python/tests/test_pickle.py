"""Records, the fit and compare results and the simulations pickle (docs/python.md, "Pickling"):
pickle.loads(pickle.dumps(x)) has every public attribute of x, compared recursively (arrays
element for element with NaN equal to NaN, nested objects attribute by attribute), for every
type; a FitOutcome comes back from a ProcessPoolExecutor; a state of another layout is refused."""
import concurrent.futures
import math
import pickle
import warnings

import numpy as np
import pytest

import frictionlab as fl


def record(n=3000, seed=1):
    rng = np.random.default_rng(seed)
    t = np.arange(n) * 1e-3
    v = 0.2 * np.sin(2 * np.pi * 0.7 * t) + 0.05 * np.sin(2 * np.pi * 3.1 * t)
    F = 0.3 * np.sign(v) + 0.8 * v + 0.02 * rng.standard_normal(n)
    return fl.Record(t, velocity=v, force=F, source=f"synthetic {seed}")


def fit_outcome():
    return fl.fit(record(), [record(seed=2)], model="stribeck", threads=1)


def same(a, b, path="x", depth=0):
    """Every public attribute of a equals b's (recursively), or an AssertionError naming it."""
    assert type(a) is type(b), path
    if isinstance(a, float):
        assert a == b or (math.isnan(a) and math.isnan(b)), path
    elif isinstance(a, (str, int, bool, type(None))):
        assert a == b, path
    elif isinstance(a, np.ndarray):
        assert a.shape == b.shape and np.array_equal(a, b, equal_nan=True), path
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{k}]", depth + 1)
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            same(a[k], b[k], f"{path}[{k!r}]", depth + 1)
    else:
        assert depth < 8, path
        names = [n for n in dir(a) if not n.startswith("_")]
        assert names, path
        for n in names:
            x = getattr(a, n)
            if callable(x):
                continue
            same(x, getattr(b, n), f"{path}.{n}", depth + 1)


def roundtrip(x):
    y = pickle.loads(pickle.dumps(x))
    same(x, y)
    return y


def test_record():
    r = record()
    y = roundtrip(r)
    assert y.source == "synthetic 1" and np.array_equal(y.force, r.force)
    roundtrip(fl.Record(np.array([0.0, 1.0])))  # empty channels stay empty


def test_fit_outcome_and_every_part():
    f = fit_outcome()
    g = roundtrip(f)
    assert g.to_json() == f.to_json() and g.model_json() == f.model_json()
    roundtrip(f.result)
    roundtrip(f.training)
    roundtrip(f.friction)
    roundtrip(f.validation[0])
    roundtrip(f.validation[0].metrics)
    roundtrip(f.parameters[0])
    roundtrip(f.result.reliability)
    roundtrip(f.result.reliability.whiteness)
    roundtrip(f.result.data)
    roundtrip(f.result.starts[0])


def test_identifiability_flag():
    # a record that cannot determine the Stribeck velocity flags it
    t = np.arange(2000) * 1e-3
    v = np.full(t.size, 0.2)
    v[t.size // 2:] = -0.2
    f = fl.fit(fl.Record(t, velocity=v, force=0.3 * np.sign(v) + 0.8 * v), model="stribeck", threads=1)
    assert f.result.identifiability
    roundtrip(f.result.identifiability[0])


def test_compare_outcome():
    c = fl.compare(record(), [record(seed=2)], models=["coulomb-viscous", "stribeck"], threads=1)
    d = roundtrip(c)
    assert d.to_json() == c.to_json()
    roundtrip(c.rows[1])


def test_simulations():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = fl.LuGreParams(sigma0=1e5, sigma1=316.227766, sigma2=0.4, Fc=1.0, Fs=1.5, vs=1e-3, alpha=2.0)
        t = np.arange(500) * 1e-3
        roundtrip(fl.simulate(p, t, 0.01 * np.sin(2 * np.pi * t)))
        roundtrip(fl.simulate(p, t, x=0.01 * np.sin(2 * np.pi * t)))
        roundtrip(fl.simulate_stick_slip(fl.StickSlipSpec(m=1, k=2, v_drive=0.1, t_end=2), p,
                                         fl.SimOptions(integrator="trbdf2")))


def test_a_process_pool_returns_a_fit_outcome():
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        f = pool.submit(fit_outcome).result(timeout=120)
    assert isinstance(f, fl.FitOutcome)
    here = fit_outcome()  # (the same fit here: the same numbers, but the wall time)
    assert [p.value for p in f.parameters] == [p.value for p in here.parameters]
    assert np.array_equal(f.prediction, here.prediction)


def test_a_state_of_another_layout_is_refused():
    state = fl.Metrics.__getstate__(record_metrics := fit_outcome().result.training)
    assert state[0] == 1
    m = fl.Metrics.__new__(fl.Metrics)
    with pytest.raises(fl.Error, match="another frictionlab version"):
        m.__setstate__((99, state[1]))
    with pytest.raises(fl.Error, match="another layout"):
        m.__setstate__((1, state[1][:-1]))
    assert record_metrics.n > 0
    with pytest.raises(fl.Error, match="SimulateModelOutcome state of another layout"):
        fl.SimulateModelOutcome.__new__(fl.SimulateModelOutcome).__setstate__((1, ("lugre",)))
