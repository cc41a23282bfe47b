"""simulate() and the one-sample functions (docs/python.md, "Simulate").

Independent check: LuGre from Python against scipy's solve_ivp (Radau) on the same ODE. The
exact step with the input held (zoh) is the exact solution of the ODE with a piecewise-constant
input, so it must agree to rounding; with the linear hold the library's step is a second-order
approximation of the ODE with the piecewise-linear input.
"""
import os
import threading
import time
import tracemalloc
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import frictionlab

LUGRE = dict(sigma0=1e5, sigma1=316.227766, sigma2=0.4, Fc=1.0, Fs=1.5, vs=1e-3, alpha=2.0)


@pytest.fixture
def lugre():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # this published set is not passive (a warning)
        return frictionlab.LuGreParams(**LUGRE)


def lugre_reference(p, t, v, hold):
    """LuGre by solve_ivp (Radau): dz/dt = v - sigma0 |v| / g(v) z, F = sigma0 z + sigma1 dz/dt + sigma2 v."""
    def g(u):
        return p.Fc + (p.Fs - p.Fc) * np.exp(-(abs(u) / p.vs) ** p.alpha)

    def rate(u):
        return p.sigma0 * abs(u) / g(u)

    if hold == "linear":
        def rhs(tt, z):
            u = np.interp(tt, t, v)
            return [u - rate(u) * z[0]]
        sol = solve_ivp(rhs, (t[0], t[-1]), [0.0], method="Radau", t_eval=t, rtol=1e-10, atol=1e-14,
                        max_step=(t[1] - t[0]) / 4)
        z = sol.y[0]
    else:
        z = [0.0]
        for k in range(len(t) - 1):
            u = v[k]
            r = solve_ivp(lambda tt, zz: [u - rate(u) * zz[0]], (t[k], t[k + 1]), [z[-1]], method="Radau",
                          rtol=1e-12, atol=1e-16)
            z.append(r.y[0, -1])
        z = np.array(z)
    return p.sigma0 * z + p.sigma1 * (v - rate(v) * z) + p.sigma2 * v


@pytest.mark.parametrize("hold,dt,tol", [("zoh", 1e-2, 1e-9), ("linear", 1e-3, 1e-4)])
def test_lugre_against_scipy_radau(lugre, hold, dt, tol):
    t = np.arange(0.0, 2.0 + dt / 2, dt)
    v = 0.005 * np.sin(2 * np.pi * t)
    s = frictionlab.simulate(lugre, t, v, hold=hold)
    F = lugre_reference(lugre, t, v, hold)
    err = np.max(np.abs(s.F - F)) / np.max(np.abs(F))
    assert err < tol
    # the simulation is not trivially zero: the force reaches the Coulomb level
    assert np.max(np.abs(s.F)) > 1.0


def loop(model, p, t, v, hold, method="exact"):
    """force at v[k], then step to t[k+1]: what simulate does per sample (docs/cli.md)."""
    x = model.State()
    F = []
    for k in range(len(t)):
        F.append(model.force(p, x, v[k]))
        if k + 1 < len(t):
            x = model.step(p, x, v[k], t[k + 1] - t[k], v1=v[k + 1] if hold == "linear" else None, method=method)
    return np.array(F), x


@pytest.mark.parametrize("name,kw,hold,method", [
    ("LuGre", LUGRE, "linear", "exact"),
    ("LuGre", LUGRE, "zoh", "implicit-euler"),
    ("LuGre", LUGRE, "linear", "rk4"),
    ("Dahl", dict(sigma0=2e4, Fc=1.5, n=1.5), "linear", "euler"),
    ("MaxwellSlip", dict(k=[1e4, 2e4, 3e4], Delta=[1e-5, 2e-5, 4e-5], sigma2=0.1), "zoh", "exact"),
    ("GMS", dict(n=2, k=[5e4, 5e4], nu=[0.6, 0.4], C=20, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001), "zoh", "exact"),
    ("Stribeck", dict(Fc=1, Fs=1.5, vs=0.001, sigma2=0.4, v_smooth=1e-4), "linear", "exact"),
    ("JointLuGre", dict(sigma0=1e4, sigma1=10, Fc=0.5, cv=[0.05], Fs=[0.1], delta=[1.0], Omega_s=0.1), "linear", "exact"),
])
def test_step_and_force_reproduce_simulate(name, kw, hold, method):
    model = getattr(frictionlab, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = model.Params(**kw)
    t = np.cumsum(np.full(300, 1e-3)) - 1e-3
    v = 0.005 * np.sin(2 * np.pi * 3 * t) + 0.001 * np.sin(2 * np.pi * 17 * t)
    F, _ = loop(model, p, t, v, hold, method)
    s = frictionlab.simulate(p, t, v, hold=hold, method=method)
    assert np.array_equal(F, s.F)


def test_step_state_and_errors(lugre):
    x = frictionlab.LuGre.State()
    assert x.z == 0.0
    y = frictionlab.LuGre.step(lugre, x, 0.01, 1.0)
    # a long step at constant velocity reaches the steady deflection g(v)/sigma0
    assert y.z == pytest.approx(1.0 / 1e5, rel=1e-12)
    assert frictionlab.LuGre.force(lugre, y, 0.01) == pytest.approx(frictionlab.LuGre.steady_force(lugre, 0.01), rel=1e-9)
    assert frictionlab.LuGre.state_bound(lugre) == 1.5e-5
    with pytest.raises(frictionlab.Error, match="does not support the integrator 'rk4'"):
        frictionlab.MaxwellSlip.step(frictionlab.MaxwellSlipParams(), frictionlab.MaxwellSlip.State(), 0.1, 1e-3, method="rk4")
    with pytest.raises(frictionlab.Error, match="h must be > 0"):
        frictionlab.LuGre.step(lugre, x, 0.01, 0.0)
    with pytest.raises(frictionlab.Error, match="unknown integrator 'foo'"):
        frictionlab.LuGre.step(lugre, x, 0.01, 1e-3, method="foo")
    g = frictionlab.GMS.State(z=[1e-6, 2e-6], slipping=[True, False])
    assert g.z[:2] == [1e-6, 2e-6] and g.slipping[:2] == [True, False]


def test_input_errors_carry_the_library_messages(lugre):
    t = np.linspace(0.0, 1.0, 11)
    v = np.zeros(11)
    cases = [
        (dict(t=t.astype(np.int64), v=v), "t: expected float64 or float32, got int64"),
        (dict(t=t.reshape(1, -1), v=v), "t: expected a one-dimensional array, got 2 dimensions"),
        (dict(t=list(t), v=v), "t: expected a NumPy array"),
        (dict(t=t, v=np.where(t > 0.45, np.nan, 0.0)), r"v\[5\] is not finite"),
        (dict(t=np.r_[t[:5], t[4], t[6:]], v=v), "t is not strictly increasing at sample 5"),
        (dict(t=t, v=v[:10]), "11 times but 10 velocities"),
        (dict(t=t[:1], v=v[:1]), "needs at least 2 samples, got 1"),
        (dict(t=t), "give exactly one input series, v \\(velocity\\) or x \\(displacement\\); neither was given"),
        (dict(t=t, v=v, x=v), "both were given"),
        (dict(t=t, x=v, hold="linear"), "--hold linear does not apply to a displacement input"),
        (dict(t=t, v=v, hold="cubic"), "hold: must be \"linear\" or \"zoh\""),
        (dict(t=t, v=v, method="rk5"), "unknown integrator 'rk5'"),
        (dict(t=t, v=np.full(11, 1e16)), "v = 1e\\+16 is beyond the limit"),
    ]
    for kw, msg in cases:
        with pytest.raises(frictionlab.Error, match=msg):
            frictionlab.simulate(lugre, **kw)
    with pytest.raises(frictionlab.Error, match="does not support the integrator 'rk4' \\(supported: exact\\)"):
        frictionlab.simulate(frictionlab.MaxwellSlipParams(), t, v, method="rk4")


def test_float32_strided_and_model_file(lugre, tmp_path):
    t = np.linspace(0.0, 1.0, 101)
    v = 0.005 * np.sin(2 * np.pi * t)
    ref = frictionlab.simulate(lugre, t, v)
    assert ref._inputs_in_place == (True, True)
    s32 = frictionlab.simulate(lugre, t, v.astype(np.float32))
    assert s32._inputs_in_place == (True, False)
    assert np.array_equal(s32.F, frictionlab.simulate(lugre, t, v.astype(np.float32).astype(np.float64)).F)
    vs = np.repeat(v, 2)[::2]  # a strided view
    sv = frictionlab.simulate(lugre, t, vs)
    assert sv._inputs_in_place == (True, False) and np.array_equal(sv.F, ref.F)
    lugre.write(tmp_path / "m.json")
    assert np.array_equal(frictionlab.simulate(tmp_path / "m.json", t, v).F, ref.F)
    assert ref.F.dtype == np.float64 and ref.F.flags.c_contiguous and ref.state_names == ["z"]


def test_contiguous_float64_inputs_are_not_copied_by_python(lugre):
    """The binding reads contiguous float64 arrays in place: no NumPy copy of the 8 MB inputs
    (tracemalloc sees NumPy's allocations; the float32 input's conversion is one)."""
    n = 1_000_000
    t = np.arange(n) * 1e-3
    v = 0.005 * np.sin(2 * np.pi * t)
    v32 = v.astype(np.float32)
    frictionlab.simulate(lugre, t[:10], v[:10])  # warm up
    tracemalloc.start()
    s = frictionlab.simulate(lugre, t, v)
    _, peak64 = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tracemalloc.start()
    frictionlab.simulate(lugre, t, v32)
    _, peak32 = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak64 < 1_000_000  # not one 8 MB copy
    assert peak32 >= 8 * n  # the float32 input is converted once
    assert s._inputs_in_place == (True, True)
    # t and v come back as read-only views of the inputs (not copied); F is a new array
    assert np.shares_memory(s.t, t) and np.shares_memory(s.v, v)
    assert not s.t.flags.writeable and not s.v.flags.writeable
    assert not np.shares_memory(s.F, v)
    with pytest.raises(ValueError):
        s.t[0] = 1.0
    assert t[0] == 0.0


def test_simulate_releases_the_gil(lugre):
    n = 2_000_000
    t = np.arange(n) * 1e-3
    v = 0.005 * np.sin(2 * np.pi * t)
    count = 0
    done = threading.Event()

    def count_while_simulating():
        nonlocal count
        while not done.is_set():
            count += 1

    th = threading.Thread(target=count_while_simulating)
    th.start()
    time.sleep(0.01)
    c0 = count
    t0 = time.perf_counter()
    frictionlab.simulate(lugre, t, v)
    elapsed = time.perf_counter() - t0
    c1 = count
    done.set()
    th.join()
    # With the GIL held the counter could advance only at the switch interval (5 ms) at most
    # once per interval; released, the Python thread runs all along (millions of increments/s).
    assert c1 - c0 > 100 * elapsed / 0.005


def test_simulate_reports_progress_and_stops_on_the_callbacks_exception(lugre):
    """progress= every 65536 samples with the fraction done; an exception raised by the callback
    stops the call and is raised as it is (the same path as Ctrl-C: KeyboardInterrupt)."""
    n = 200_000
    t = np.arange(n) * 1e-4
    v = 0.005 * np.sin(2 * np.pi * t)
    seen = []
    s = frictionlab.simulate(lugre, t, v, progress=lambda m, f: seen.append((m, f)))
    assert [f for m, f in seen if ": sample " in m] == [0.0, 65536 / n, 131072 / n, 196608 / n]
    assert len(s.F) == n

    class Stop(Exception):
        pass

    def stop_late(message, fraction):
        if fraction > 0.5:
            raise Stop(message)

    with pytest.raises(Stop, match="sample 131072"):
        frictionlab.simulate(lugre, t, v, progress=stop_late)
    with pytest.raises(frictionlab.Error, match="progress: expected None, True or a callable"):
        frictionlab.simulate(lugre, t, v, progress="yes")


def test_a_temperature_law_runs_from_a_model_file_or_with_params(lugre):
    # examples/data/lugre_warming.json: the published LuGre set at 25 degC, levels -1 %/K and
    # viscous term -2 %/K (linear law); its input with a temperature column, as docs/cli.md runs it
    src = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    data = np.genfromtxt(os.path.join(src, "examples", "data", "sine_velocity_warming.csv"),
                         delimiter=",", names=True, comments="#")
    t, v, T = data["t"], data["v"], data["temp"]
    path = os.path.join(src, "examples", "data", "lugre_warming.json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the published set's passivity warning
        from_file = frictionlab.simulate(path, t, v, temperature=T)
    law = {"law": "linear", "T_ref": 25.0, "kT": -0.01, "kT_v": -0.02}
    with_params = frictionlab.simulate(lugre, t, v, temperature=T, temperature_law=law)
    np.testing.assert_array_equal(from_file.F, with_params.F)
    # near the end (T 42 to 44 degC: levels 0.81 to 0.83 of those at 25 degC) the peak friction is
    # that much lower than the same motion's at 25 degC
    cold = frictionlab.simulate(lugre, t, v)
    last = slice(-60, -40)
    ratio = np.abs(from_file.F[last]).max() / np.abs(cold.F[last]).max()
    assert 0.80 < ratio < 0.86
    with pytest.raises(ValueError, match="has a temperature law: give the input's temperature"):
        frictionlab.simulate(path, t, v)
    with pytest.raises(ValueError, match="no temperature law"):
        frictionlab.simulate(lugre, t, v, temperature=T)
    with pytest.raises(ValueError, match="kT_v"):
        frictionlab.simulate(lugre, t, v, temperature=T, temperature_law={"law": "linear", "T_ref": 25, "kT": 0})
    with pytest.raises(ValueError, match="of its own"):
        frictionlab.simulate(path, t, v, temperature=T, temperature_law=law)
    with pytest.raises(ValueError, match="key 'temperature'"):
        frictionlab.read_model(path)  # the other readers refuse a law they would not run
