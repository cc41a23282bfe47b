"""Every array argument of every binding in either byte order: a big-endian ('>f8', '>f4') or
strided array gives the same result as the native contiguous one (numbers converted, never its
bytes read as native doubles); an int array is refused naming the argument (docs/python.md,
"Arrays")."""
import warnings

import numpy as np
import pandas as pd
import pytest

import frictionlab as fl

LAYOUTS = [">f8", ">f4", "<f4", "strided>f8"]


def as_layout(a, layout):
    """`a` in `layout`: a dtype, or 'strided' + dtype (every other element of a twice-as-long array)."""
    if layout.startswith("strided"):
        b = np.repeat(a, 2).astype(layout[len("strided"):])
        return b[::2]
    return a.astype(layout)


def expected(a, layout):
    """What `a` is after a round trip through the layout's dtype (float32 rounds)."""
    return a.astype(layout[len("strided"):] if layout.startswith("strided") else layout).astype(np.float64)


def signal(n=3000):
    t = np.arange(n) * 1e-3
    v = 0.2 * np.sin(2 * np.pi * 0.7 * t) + 0.05 * np.sin(2 * np.pi * 3.1 * t)
    F = 0.3 * np.sign(v) + 0.8 * v + 0.01 * np.sin(2 * np.pi * 37 * t)
    return t, v, F


@pytest.fixture(scope="module")
def lugre():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fl.LuGreParams(sigma0=1e5, sigma1=316.227766, sigma2=0.4, Fc=1.0, Fs=1.5, vs=1e-3, alpha=2.0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_record_from_arrays_dict_and_dataframe(layout):
    t, v, F = signal()
    # Times rounded to float32 stay strictly increasing: the same values in every layout.
    t = t.astype(np.float32).astype(np.float64)
    r = fl.Record(as_layout(t, layout), velocity=as_layout(v, layout), force=as_layout(F, layout))
    assert np.array_equal(r.t, t)
    assert np.array_equal(r.velocity, expected(v, layout))
    assert np.array_equal(r.force, expected(F, layout))
    d = fl.Record.from_dataframe(pd.DataFrame({"t": as_layout(t, layout), "v": as_layout(v, layout)}),
                                 velocity="v")
    assert np.array_equal(d.velocity, expected(v, layout))


@pytest.mark.parametrize("layout", [">f8", ">f4"])
def test_fit_of_a_big_endian_record_is_the_native_fit(layout):
    t, v, F = signal()
    t = t.astype(np.float32).astype(np.float64)
    v, F = expected(v, layout), expected(F, layout)
    opts = dict(model="coulomb-viscous", problem="friction", threads=1)
    native = fl.fit({"t": t, "velocity": v, "force": F}, **opts)
    other = fl.fit({"t": as_layout(t, layout), "velocity": as_layout(v, layout),
                    "force": as_layout(F, layout)}, **opts)
    assert [p.value for p in other.parameters] == [p.value for p in native.parameters]
    assert [p.std_error for p in other.parameters] == [p.std_error for p in native.parameters]
    sigma2 = next(p for p in other.parameters if p.name == "sigma2")
    assert sigma2.value == pytest.approx(0.8, rel=1e-2) and sigma2.std_error > 0


@pytest.mark.parametrize("layout", LAYOUTS)
def test_simulate_and_simulate_batch(lugre, layout):
    t, v, _ = signal(2000)
    t = t.astype(np.float32).astype(np.float64)
    v = expected(v, layout)
    x = np.cumsum(v) * 1e-3
    x = expected(x, layout)
    native = fl.simulate(lugre, t, v)
    other = fl.simulate(lugre, as_layout(t, layout), as_layout(v, layout))
    assert np.array_equal(other.F, native.F)
    assert np.array_equal(fl.simulate(lugre, as_layout(t, layout), x=as_layout(x, layout)).F,
                          fl.simulate(lugre, t, x=x).F)
    batch = fl.simulate_batch([lugre, lugre], as_layout(t, layout), as_layout(v, layout))
    assert np.array_equal(batch, fl.simulate_batch([lugre, lugre], t, v))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_joint_torque_table(layout):
    tau_t, tau = np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.25, -1.5])
    s = fl.JointSpec(tau_t=as_layout(tau_t, layout), tau=as_layout(tau, layout))
    assert np.array_equal(s.tau_t, tau_t) and np.array_equal(s.tau, tau)
    s.tau = as_layout(np.array([1.0, 2.0, 3.0]), layout)
    assert np.array_equal(s.tau, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("dtype", ["<i8", ">i4", "u2", "bool"])
def test_int_arrays_are_refused_naming_the_argument(lugre, dtype):
    t = np.arange(10).astype(dtype)
    with pytest.raises(fl.Error, match=r"t: expected float64 or float32, got"):
        fl.Record(t)
    with pytest.raises(fl.Error, match=r"v: expected float64 or float32, got"):
        fl.simulate(lugre, np.arange(10) * 1.0, np.zeros(10).astype(dtype))
