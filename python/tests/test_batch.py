"""simulate_batch (docs/python.md, "Simulate"): every row equals simulate(p, t, v, hold="zoh").F,
the scalar model through the library's simulate workflow, for sets of both curve shapes,
asymmetric curves and alpha 1, 2, 1.37; the result is a (P, N) float64 array owning its memory;
errors name the set or the sample; progress is reported."""
import warnings

import numpy as np
import pytest

import frictionlab as fl


def record(n=2500):
    rng = np.random.default_rng(3)
    t = np.cumsum(rng.uniform(0.5e-3, 1.5e-3, n))
    v = 0.01 * np.sin(2 * np.pi * 2.1 * t) + 0.004 * np.sin(2 * np.pi * 13 * t)
    v[::41] = 0.0  # samples at rest
    return t, v


def sets(P):
    rng = np.random.default_rng(P)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some random sets are not passive (a warning)
        for i in range(P):
            Fc = 0.5 + rng.uniform()
            Fs = Fc * (1 + rng.uniform())
            curve = dict(Fc_pos=Fc, Fs_pos=Fs, Fc_neg=0.8 * Fc, Fs_neg=1.3 * Fc) if i % 2 else dict(Fc=Fc, Fs=Fs)
            out.append(fl.LuGreParams(sigma0=float(10 ** rng.uniform(2, 6)), sigma1=float(rng.uniform(0, 50)),
                                      sigma2=float(rng.uniform(0, 1)), vs=float(10 ** rng.uniform(-3, -1.5)),
                                      alpha=[1.0, 2.0, 1.37][i % 3],
                                      shape="rational" if i % 4 == 3 else "exponential", **curve))
    return out


@pytest.mark.parametrize("P", [1, 3, 64, 65])
def test_rows_equal_simulate_with_zoh(P):
    t, v = record()
    ps = sets(P)
    F = fl.simulate_batch(ps, t, v)
    assert F.shape == (P, t.size) and F.dtype == np.float64
    assert F.flags.c_contiguous and F.flags.owndata is False and F.base is not None
    for i, p in enumerate(ps):
        ref = fl.simulate(p, t, v, hold="zoh").F
        assert np.max(np.abs(F[i] - ref)) <= 1e-12 * np.max(np.abs(ref)), i


def test_float32_input_is_converted():
    t, v = record(500)
    ps = sets(3)
    F64 = fl.simulate_batch(ps, t, v)
    F32 = fl.simulate_batch(ps, t.astype(np.float32), v.astype(np.float32))
    ref = np.vstack([fl.simulate(p, t.astype(np.float32), v.astype(np.float32), hold="zoh").F for p in ps])
    assert np.max(np.abs(F32 - ref)) <= 1e-12 * np.max(np.abs(ref))
    assert not np.array_equal(F32, F64)  # the float32 record is another record


def test_errors_name_the_set_or_the_sample():
    t, v = record(100)
    ps = sets(3)
    with pytest.raises(ValueError, match=r"params\[1\]: expected frictionlab.LuGreParams, got str"):
        fl.simulate_batch([ps[0], "lugre.json"], t, v)
    with pytest.raises(ValueError, match=r"params\[0\]: simulate_batch runs the LuGre model only, got a 'dahl'"):
        fl.simulate_batch([fl.DahlParams()], t, v)
    with pytest.raises(ValueError, match="no parameter set"):
        fl.simulate_batch([], t, v)
    bad = v.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match=r"v\[7\] is not finite"):
        fl.simulate_batch(ps, t, bad)
    tt = t.copy()
    tt[5] = tt[4]
    with pytest.raises(ValueError, match="sample 5: t = .* strictly increasing"):
        fl.simulate_batch(ps, tt, v)
    with pytest.raises(ValueError, match="100 times but 99 velocities"):
        fl.simulate_batch(ps, t, v[:-1])


def test_progress_is_reported():
    t = np.arange(20000) * 1e-3
    v = 0.01 * np.sin(2 * np.pi * t)
    seen = []
    F = fl.simulate_batch(sets(2), t, v, progress=lambda msg, f: seen.append(f))
    assert F.shape == (2, 20000)
    assert seen[0] == 0.0 and seen[-1] == 1.0 and len(seen) >= 4


def test_a_population_search_with_one_call_per_generation():
    """docs/python.md: differential evolution with vectorized=True on simulate_batch takes the path
    of the same search with one simulate(hold="zoh") per candidate (the same best point, to
    rounding) and finds the set that made the record."""
    from scipy.optimize import differential_evolution

    t = np.arange(0, 2, 0.01)
    v = 0.005 * np.sin(2 * np.pi * t)

    def lugre(a, b):  # passive for every candidate: sigma1 (Fs - Fc) / Fc <= 0.35 < sigma2
        return fl.LuGreParams(sigma0=10 ** a, sigma1=0.5, sigma2=0.4, Fc=1, Fs=b, vs=0.001, alpha=2)

    F = fl.simulate(lugre(5.0, 1.5), t, v, hold="zoh").F
    calls = []

    def generation(X):
        calls.append(X.shape[1])
        return ((fl.simulate_batch([lugre(a, b) for a, b in X.T], t, v) - F) ** 2).sum(axis=1)

    def one(x):
        return float(((fl.simulate(lugre(*x), t, v, hold="zoh").F - F) ** 2).sum())

    opts = dict(bounds=[(4, 6), (1.1, 1.7)], updating="deferred", seed=1, polish=False, maxiter=60)
    rb = differential_evolution(generation, vectorized=True, **opts)
    ro = differential_evolution(one, vectorized=False, **opts)
    assert len(calls) == rb.nit + 1 and max(calls) > 10  # a generation per call, not a point
    np.testing.assert_allclose(rb.x, ro.x, rtol=1e-9, atol=0)
    np.testing.assert_allclose([10 ** rb.x[0], rb.x[1]], [1e5, 1.5], rtol=1e-6)
