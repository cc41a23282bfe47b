"""The coupled systems from Python against the CLI's `simulate --system` (bit for bit)."""
import os
import subprocess
import warnings

import numpy as np
import pytest

import frictionlab
from _cli import read_csv

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("FRICTIONLAB_CLI", "frictionlab")
DATA = os.path.join(SRC, "examples", "data")




def run_cli(system, params, out, *extra):
    r = subprocess.run([CLI, "simulate", "--system", system, "--params", params, "--output", str(out), *extra],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return read_csv(out)


def same(tr, c):
    for k in ("t", "x", "v", "F"):
        assert np.array_equal(getattr(tr, k), c[k]), k
    for name, z in zip(tr.state_names, tr.states):
        assert np.array_equal(z, c[name]), name


@pytest.mark.parametrize("integrator,extra", [("trbdf2", []), ("rosenbrock", ["--dt", "5e-4"]),
                                              ("cvode", ["--rtol", "1e-9", "--output-dt", "0.01"])])
def test_stick_slip_equals_the_cli(tmp_path, integrator, extra):
    path = os.path.join(DATA, "stick_slip.json")
    c = run_cli("stick-slip", path, tmp_path / "o.csv", "--integrator", integrator, *extra)
    opts = frictionlab.SimOptions(integrator=integrator)
    if "--dt" in extra:
        opts.h = 5e-4
    if integrator == "cvode":
        opts.rtol, opts.output_dt = 1e-9, 0.01
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = frictionlab.read_system(path)
        friction = frictionlab.LuGreParams(sigma0=1e5, sigma1=316.227766, sigma2=0.4, Fc=1.0, Fs=1.5,
                                           vs=0.001, alpha=2, shape="exponential")
        tr = frictionlab.simulate_stick_slip(frictionlab.StickSlipSpec(m=1, k=2, v_drive=0.1, t_end=20), friction, opts)
        tr2 = frictionlab.simulate_system(f, opts)
    assert f.system == "stick-slip" and f.friction == friction
    same(tr, c)
    same(tr2, c)
    assert tr.steps > 0 and tr.rhs_evals >= tr.steps and tr.state_names == ["z"]
    # the benchmark sticks and slips: the velocity returns to ~0 after slipping past v_drive
    assert tr.v.max() > 0.1 and np.min(np.abs(tr.v[len(tr.v) // 2:])) < 1e-3


@pytest.mark.parametrize("file", ["joint.json", "joint_torque_record.json"])
def test_joint_equals_the_cli(tmp_path, file):
    path = os.path.join(DATA, file)
    c = run_cli("joint", path, tmp_path / "o.csv", "--output-dt", "0.01")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = frictionlab.read_system(path)
    assert f.system == "joint" and isinstance(f.spec, frictionlab.JointSpec)
    tr = frictionlab.simulate_joint(f.spec, f.friction, frictionlab.SimOptions(output_dt=0.01))
    same(tr, c)
    same(frictionlab.simulate_system(path, frictionlab.SimOptions(output_dt=0.01)), c)


def test_system_errors():
    with pytest.raises(frictionlab.Error, match=r"friction: model 'gms' cannot be coupled to a mechanical system \(supported: lugre, dahl, elasto-plastic\)"):
        frictionlab.simulate_stick_slip(frictionlab.StickSlipSpec(), frictionlab.GMSParams())
    with pytest.raises(frictionlab.Error, match=r"stick-slip: parameter 'm' must be > 0 \(got -1\)"):
        frictionlab.simulate_stick_slip(frictionlab.StickSlipSpec(m=-1), frictionlab.DahlParams())
    with pytest.raises(frictionlab.Error, match="unknown integrator 'euler'"):
        frictionlab.SimOptions(integrator="euler")
    with pytest.raises(frictionlab.Error, match=r"tau\[1\] is not finite"):
        frictionlab.JointSpec(tau_t=np.array([0.0, 1.0]), tau=np.array([0.0, np.nan]))


@pytest.mark.parametrize("integrator", ["trbdf2", "cvode"])
def test_system_progress_every_percent_and_stop(integrator):
    """progress= at every whole percent of t_end (ending at 1); the callback's exception stops the
    integration part-way and is raised as it is, not as a solver error."""
    spec = frictionlab.StickSlipSpec(m=1, k=2, v_drive=0.1, t_end=20)
    opts = frictionlab.SimOptions(integrator=integrator, output_dt=0.01)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # this published set is not passive (a warning)
        friction = frictionlab.LuGreParams(sigma0=1e5, sigma1=316.227766, sigma2=0.4, Fc=1.0,
                                           Fs=1.5, vs=1e-3, alpha=2.0)
        frictionlab.simulate_stick_slip(spec, friction, opts, progress=lambda m, f: seen.append(f))
        fr = [f for f in seen if f > 0]
        assert 99 <= len(fr) <= 102 and fr == sorted(fr) and fr[-1] == 1.0

        def stop(message, fraction):
            if fraction >= 0.25:
                raise KeyError(message)

        with pytest.raises(KeyError, match="t = 5"):
            frictionlab.simulate_stick_slip(spec, friction, opts, progress=stop)
