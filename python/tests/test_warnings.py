"""The package's warnings (docs/python.md, "Warnings"): frictionlab.FrictionlabWarning, each
distinct message once per process by default, the user's filters first, and a shipped file's
accepted warnings not raised again when its parameters are used."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import frictionlab as fl

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
NOT_PASSIVE = "fl.LuGreParams(sigma0=1e5, sigma1=316, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001, alpha=2)"


def _stderr_of(code, *flags):
    """stderr of a fresh interpreter running `code` (the once registry starts empty)."""
    p = subprocess.run([sys.executable, *flags, "-c", "import frictionlab as fl\n" + code],
                       capture_output=True, text=True, env=dict(os.environ), timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stderr


def test_category():
    assert issubclass(fl.FrictionlabWarning, UserWarning)
    with pytest.warns(fl.FrictionlabWarning, match=r"^LuGreParams: parameter 'sigma1': the map "
                                                     r"v -> F is not passive"):
        eval(NOT_PASSIVE)


def test_each_message_once_per_process():
    code = f"{NOT_PASSIVE}\n{NOT_PASSIVE}\n{NOT_PASSIVE}\n{NOT_PASSIVE.replace('sigma2=0.4', 'sigma2=0.5')}\n"
    err = _stderr_of(code)
    # three equal sets: one warning; the changed set (sigma2 = 0.5) is another message
    assert err.count("FrictionlabWarning: LuGreParams: parameter 'sigma1'") == 2, err
    assert err.count("sigma2 = 0.4.") == 1 and err.count("sigma2 = 0.5.") == 1, err


def test_user_filter_first():
    code = f"{NOT_PASSIVE}\n{NOT_PASSIVE}\n"
    assert _stderr_of(code, "-W", "always").count("FrictionlabWarning:") == 2
    assert _stderr_of(code, "-W", "ignore::UserWarning") == ""


def test_accepted_warnings_of_a_file_stay_accepted():
    """examples/data/lugre.json and stick_slip.json accept their set's passivity warning: reading
    them and simulating with their parameters warns nothing."""
    t = np.arange(0.0, 0.1, 0.01)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        q = fl.read_model(os.path.join(SRC, "examples", "data", "lugre.json"))
        fl.simulate(q, t, 0.01 * np.sin(t))
        f = fl.read_system(os.path.join(SRC, "examples", "data", "stick_slip.json"))
        fl.simulate_system(f, fl.SimOptions(integrator="trbdf2", h=1e-3))
    assert [str(w.message) for w in seen] == []
    with pytest.warns(fl.FrictionlabWarning, match="not passive"):
        q.sigma2 = 0.41                      # changed: checked (and warned about) again
        fl.simulate(q, t, 0.01 * np.sin(t))
