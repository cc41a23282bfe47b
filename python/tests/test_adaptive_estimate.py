"""frictionlab.adaptive_estimate: the firmware's adaptive estimator (adaptive_estimator.h) over a
record from Python. A joint whose friction levels are 0.7 of the fit's (the warm gearbox of
docs/estimator.md, "Online adaptation"), simulated by fl.simulate with the scaled LuGre set: the
adaptive estimate learns the scale and its torque error falls to the noise, the fixed set's stays;
float follows double; bad options and inputs are refused naming them."""
import numpy as np
import pytest

import frictionlab as fl
from _cli import SOURCE

ESTIMATOR = SOURCE / "examples" / "data" / "joint_estimator.json"   # Km 0.5, sigma0 1e4, ...


def warm_joint(seconds=120.0, scale=0.7, noise=0.005, seed=3):
    """t, current, velocity, the load the joint carries and its noisy measurement."""
    t = np.arange(0.0, seconds, 1e-3)
    v = 0.8 * np.sin(2 * np.pi * 0.25 * t) + 0.3 * np.sin(2 * np.pi * 1.1 * t)
    truth = fl.LuGreParams(sigma0=1e4, sigma1=0.05, sigma2=0.05, Fc_pos=0.18 * scale,
                           Fc_neg=0.15 * scale, Fs_pos=0.25 * scale, Fs_neg=0.21 * scale,
                           vs=0.05, alpha=1.0)
    F = fl.simulate(truth, t, v).F
    load = 0.4 * np.sin(2 * np.pi * 0.3 * t)
    rng = np.random.default_rng(seed)
    current = (load + F + noise * rng.standard_normal(t.size)) / 0.5
    return t, current, v, load, load + noise * rng.standard_normal(t.size)


def test_learns_the_warm_joints_friction():
    t, i, v, load, ref = warm_joint()
    r = fl.adaptive_estimate(ESTIMATOR, i, v, 1e-3, tau_ref=ref)
    fixed = fl.adaptive_estimate(ESTIMATOR, i, v, 1e-3)   # no reference: nothing adapts
    assert r["names"] == ["Km", "kappa_pos", "kappa_neg", "sigma2", "offset", "kT"]
    assert r["theta"].shape == (t.size, 6) and r["updated"].dtype == bool
    assert not fixed["updated"].any() and np.all(fixed["theta"][-1] == fixed["theta"][0])
    last = t > t[-1] - 20
    rms = np.sqrt(np.mean((r["torque"][last] - load[last]) ** 2))
    rms_fixed = np.sqrt(np.mean((fixed["torque"][last] - load[last]) ** 2))
    assert rms < 2 * 0.005 < 4 * 0.005 < rms_fixed, (rms, rms_fixed)
    assert r["theta"][-1, 1] == pytest.approx(0.7, abs=0.05)
    assert r["theta"][-1, 2] == pytest.approx(0.7, abs=0.05)
    assert np.isnan(fixed["error"]).all() and np.isfinite(r["error"]).all()
    f = fl.adaptive_estimate(ESTIMATOR, i, v, np.full(t.size, 1e-3), tau_ref=ref,
                             single_precision=True)
    assert np.max(np.abs(f["torque"] - r["torque"])) < 1e-3


def test_freezing_and_options():
    t, i, v, load, ref = warm_joint(seconds=20.0)
    r = fl.adaptive_estimate(ESTIMATOR, i, v, 1e-3, tau_ref=ref, adapt=["kappa_pos"],
                             P0={"kappa_pos": 0.5})
    assert np.all(r["theta"][:, 2] == 1.0) and r["theta"][-1, 1] != 1.0
    with pytest.raises(ValueError, match="P0: unknown parameter 'kappa'"):
        fl.adaptive_estimate(ESTIMATOR, i, v, 1e-3, P0={"kappa": 1.0})
    with pytest.raises(ValueError, match="memory_s must be > 0"):
        fl.adaptive_estimate(ESTIMATOR, i, v, 1e-3, memory_s=0.0)
    with pytest.raises(ValueError, match="velocity: 10 samples, current has"):
        fl.adaptive_estimate(ESTIMATOR, i, v[:10], 1e-3)
    with pytest.raises(ValueError, match="sample 3: an input is not finite"):
        bad = i.copy()
        bad[3] = np.nan
        fl.adaptive_estimate(ESTIMATOR, bad, v, 1e-3)
