"""Every registered model's Params from Python against the CLI (docs/python.md, "Models").

The parameters written from Python (Params.write, through the library's io::to_json_text) are
read by `frictionlab simulate --model` on the same input; its forces and states must equal
Python's simulate() bit for bit (the CSV holds shortest round-trip decimals). Validation
messages must equal the CLI's for the same values.
"""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest

import frictionlab
from _cli import read_csv

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("FRICTIONLAB_CLI", "frictionlab")
DATA = os.path.join(SRC, "examples", "data")

# One non-default parameter set per model (the MODEL.json keys of docs/models.md).
NON_DEFAULT = {
    "coulomb": dict(Fc=2.5, v_smooth=1e-3),
    "viscous": dict(sigma2=3.0),
    "coulomb-viscous": dict(Fc_pos=1.2, Fc_neg=0.8, sigma2=0.5, v_smooth=1e-4, smoothing="atan"),
    "stribeck": dict(Fc=1.0, Fs=1.6, vs=0.002, alpha=1.5, shape="rational", sigma2=0.3, v_smooth=1e-4),
    "lugre": dict(sigma0=1e5, sigma1=316, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001, alpha=2),
    "dahl": dict(sigma0=2e4, Fc=1.5, n=1.5),
    "elasto-plastic": dict(sigma0=1e5, sigma1=300, sigma2=0.4, Fc_pos=1, Fc_neg=1.2, Fs=1.5, vs=0.001, z_ba=5e-6),
    "maxwell-slip": dict(n=3, k=[1e4, 2e4, 3e4], Delta=[1e-5, 2e-5, 4e-5], sigma2=0.1),
    "modified-stribeck": dict(k=5e4, sigma2=0.3, Fc=1, Fs=1.4, vs=0.002),
    "gms": dict(n=2, k=[5e4, 5e4], nu=[0.6, 0.4], C=20, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001),
    "joint-lugre": dict(sigma0=1e4, sigma1=10, Fc=0.5, cv=[0.05], Fs=[0.1], delta=[1.0], Omega_s=0.1, K=0),
}


def params_class(name):
    for cls in vars(frictionlab).values():
        if isinstance(cls, type) and getattr(cls, "model", None) == name and cls.__name__.endswith("Params"):
            return cls
    raise KeyError(name)




def non_default(name):
    """The Params class of model `name` and an instance of it with NON_DEFAULT's values, made with
    warnings silenced (some of the values are ones the library warns about)."""
    cls = params_class(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cls, cls(**NON_DEFAULT[name])


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def test_every_registered_model_has_a_params_class_and_a_model_class():
    assert frictionlab.model_names() == list(NON_DEFAULT)
    for name in frictionlab.model_names():
        cls = params_class(name)
        assert issubclass(cls, frictionlab.ModelParams)
        model = getattr(frictionlab, cls.__name__[: -len("Params")])
        assert model.Params is cls and model.name == name
        assert cls().model_name == name


@pytest.mark.parametrize("name", list(NON_DEFAULT))
def test_params_round_trip_dict_json_pickle(name, tmp_path):
    cls, p = non_default(name)
    with warnings.catch_warnings():  # (made again from the same values, below)
        warnings.simplefilter("ignore")
        d = p.to_dict()
        assert cls.from_dict(d) == p
        assert cls(**d) == p
        assert frictionlab.model_from_dict({"model": name, "params": d}) == p
        assert pickle.loads(pickle.dumps(p)) == p
        path = tmp_path / "model.json"
        p.write(path)
        assert frictionlab.read_model(path) == p
        assert path.read_text() == p.to_json()
        assert repr(p).startswith(cls.__name__ + "(")
        # attribute access equals the dict, key by key
        for k, v in d.items():
            assert getattr(p, k) == v
        if name != "viscous":
            assert p != cls()


@pytest.mark.parametrize("name", list(NON_DEFAULT))
def test_cli_simulates_the_python_model_file_bit_for_bit(name, tmp_path):
    _, p = non_default(name)
    model = tmp_path / "model.json"
    p.write(model)
    for inp, hold in (("sine_velocity.csv", "linear"), ("sine_velocity.csv", "zoh"), ("sine_displacement.csv", None)):
        out = tmp_path / "out.csv"
        args = ["simulate", "--model", str(model), "--input", os.path.join(DATA, inp), "--output", str(out)]
        if hold:
            args += ["--hold", hold]
        r = cli(*args)
        assert r.returncode == 0, r.stderr
        c = read_csv(out)
        i = read_csv(os.path.join(DATA, inp))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if "v" in i:
                s = frictionlab.simulate(p, i["t"], i["v"], hold=hold)
            else:
                s = frictionlab.simulate(p, i["t"], x=i["x"])
                assert np.array_equal(s.x, c["x"])
        assert s.hold == (hold or "zoh")
        assert np.array_equal(s.v, c["v"])
        assert np.array_equal(s.F, c["F"]), f"{name} {inp} {hold}"
        assert s.state_names == [h for h in c if h not in ("t", "x", "v", "F")]
        for zn, z in zip(s.state_names, s.states):
            assert np.array_equal(z, c[zn])


@pytest.mark.parametrize("model_file", sorted(f for f in os.listdir(DATA) if f.endswith(".json")))
def test_example_model_files_read_like_the_cli(model_file):
    path = os.path.join(DATA, model_file)
    import json
    with open(path) as f:
        j = json.load(f)
        if not isinstance(j.get("model"), str) or "params" not in j:
            pytest.skip("not a MODEL.json file")
    if "temperature" in j:  # read_model runs no temperature law: it refuses one, naming the key
        with pytest.raises(ValueError, match="key 'temperature'"):
            frictionlab.read_model(path)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = frictionlab.read_model(path)
    # the file's parameters, written back, read back equal
    assert frictionlab.parse_model_json(p.to_json()) == p


# Invalid values: the message after the file name equals the CLI's.
INVALID = [
    ("lugre", {"sigma0": -1.0}),
    ("lugre", {"sigma0": 1e5, "Fc": 2.0, "Fs": -1.0}),
    ("lugre", {"vs": 0.0, "alpha": -2.0}),
    ("lugre", {"foo": 1.0}),
    ("lugre", {"Fc": 1.0, "Fc_pos": 2.0}),
    ("lugre", {"Fc_pos": 2.0}),
    ("lugre", {"shape": "linear"}),
    ("dahl", {"n": -1.0}),
    ("maxwell-slip", {"n": 2, "k": [1.0, 2.0, 3.0], "Delta": [1e-3, 1e-3, 1e-3]}),
    ("maxwell-slip", {"k": [1.0, 2.0], "Delta": [1e-3]}),
    ("gms", {"n": 40}),
    ("joint-lugre", {"Fs": [0.1], "delta": []}),
    ("coulomb", {"Fc": -1.0, "smoothing": "sin"}),
    ("stribeck", {"sigma2": 1e16}),
]


@pytest.mark.parametrize("name,params", INVALID)
def test_validation_messages_equal_the_cli(name, params, tmp_path):
    import json
    model = tmp_path / "bad.json"
    model.write_text(json.dumps({"model": name, "params": params}))
    r = cli("simulate", "--model", str(model), "--input", os.path.join(DATA, "sine_velocity.csv"),
            "--output", str(tmp_path / "o.csv"))
    assert r.returncode != 0
    prefix = "frictionlab: error: " + str(model) + ": "
    cli_lines = [l for l in r.stderr.splitlines() if l.startswith(prefix) or l.startswith(str(model) + ": ")]
    cli_msgs = [l.split(str(model) + ": ", 1)[1] for l in cli_lines]
    cls = params_class(name)
    with pytest.raises(frictionlab.Error) as e:
        cls(**params)
    assert isinstance(e.value, ValueError)
    py_msgs = [l.split(cls.__name__ + ": ", 1)[1] for l in str(e.value).splitlines()]
    assert py_msgs == cli_msgs


def test_check_after_mutation_and_messages():
    p = frictionlab.LuGreParams(sigma0=1e5, sigma1=0.5, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001)
    assert p.check() == []  # passive set: no warning
    p.sigma0 = -3
    with pytest.raises(frictionlab.Error, match=r"LuGreParams: parameter 'sigma0': must be > 0, got -3"):
        p.check()
    # simulate and step validate a changed set first
    with pytest.raises(frictionlab.Error, match="sigma0"):
        frictionlab.simulate(p, np.array([0.0, 1.0]), np.array([0.0, 1.0]))
    with pytest.raises(frictionlab.Error, match="sigma0"):
        frictionlab.LuGre.force(p, frictionlab.LuGre.State(), 0.1)
    p.sigma0 = 1e5
    assert p.check() == []
    with pytest.raises(frictionlab.Error, match="expected a number, got str"):
        p.sigma1 = "a"
    with pytest.raises(frictionlab.Error, match=r"must be \"exponential\" or \"rational\""):
        p.shape = "x"


def test_asymmetric_levels_and_replace():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = frictionlab.LuGreParams(Fc_pos=1.0, Fc_neg=1.2)
        assert (p.Fc_pos, p.Fc_neg) == (1.0, 1.2)
        with pytest.raises(frictionlab.Error, match="the two sides differ"):
            p.Fc
        q = p.replace(Fc=2.0)
        assert q.Fc == 2.0 and q.Fc_pos == 2.0 and p.Fc_pos == 1.0
        m = frictionlab.MaxwellSlipParams(k=[1e4, 2e4], Delta=[1e-5, 2e-5])
        assert m.n == 2 and m.k == [1e4, 2e4]
        with pytest.raises(frictionlab.Error, match="read-only"):
            m.n = 3
        with pytest.raises(frictionlab.Error, match="has 3 entries but the parameters have 2"):
            m.k = [1.0, 2.0, 3.0]
        m3 = m.replace(n=3, k=[1, 2, 3], Delta=[1e-5, 1e-5, 1e-5])
        assert m3.n == 3 and m3.Delta == [1e-5] * 3
        # the displacement form of LuGre (a1, a2) is read by the library's reader
        d = frictionlab.LuGreParams(sigma0=1e5, sigma1=300, sigma2=0.4, a1=1e-5, a2=5e-6, vs=0.001, alpha=2)
        assert d.Fc == pytest.approx(1.0) and d.Fs == pytest.approx(1.5) and d.shape == "rational"


def test_static_coulomb_level_keeps_fs_equal_fc(tmp_path):
    c = frictionlab.CoulombParams(Fc=2.0)
    c.Fc = 3.0
    c.write(tmp_path / "c.json")
    assert frictionlab.read_model(tmp_path / "c.json").Fc == 3.0
    assert frictionlab.Coulomb.steady_force(c, 0.5) == 3.0
    assert frictionlab.Coulomb.steady_force(c, -0.5) == -3.0


def test_write_keeps_streams_links_and_read_only_files(tmp_path):
    """docs/file-formats.md, "Output files": a FIFO is written as a stream (not replaced), a
    dangling link is followed and kept, a read-only file is refused and kept."""
    import stat
    import threading
    c = frictionlab.CoulombParams(Fc=2.0)
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    c.write(fifo)
    reader.join(timeout=30)
    assert got and got[0].decode() == c.to_json()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    (tmp_path / "link.json").symlink_to("new.json")
    c.write(tmp_path / "link.json")
    assert (tmp_path / "link.json").is_symlink()
    assert frictionlab.read_model(tmp_path / "new.json").Fc == 2.0
    ro = tmp_path / "ro.json"
    ro.write_text("keep\n")
    ro.chmod(0o444)
    with pytest.raises(frictionlab.Error, match="ro.json: is read-only"):
        c.write(ro)
    assert ro.read_text() == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "link.json", "new.json", "ro.json"]


def test_type_stubs_list_every_model_class_and_key():
    """The models section of _frictionlab.pyi names every Params class with its keys: as the
    keyword arguments of its constructor, in the documented order, and as its attributes (its
    own and those of the stub-only _StribeckCurve base)."""
    import ast
    stub = os.path.join(SRC, "python", "frictionlab", "_frictionlab.pyi")
    tree = ast.parse(open(stub).read())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def annotated(node):
        bases = [classes[b.id] for b in node.bases if b.id != "ModelParams"]
        own = {a.target.id for a in node.body if isinstance(a, ast.AnnAssign)}
        return own.union(*(annotated(b) for b in bases))

    for name in frictionlab.model_names():
        cls = params_class(name)
        assert cls.__name__ in classes and cls.__name__[:-6] in classes
        node = classes[cls.__name__]
        init = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
        assert tuple(a.arg for a in init.args.kwonlyargs) == cls.keys
        assert annotated(node) == set(cls.keys)
    for fn in ("simulate", "simulate_stick_slip", "simulate_joint", "read_model", "read_system"):
        assert any(isinstance(n, ast.FunctionDef) and n.name == fn for n in tree.body)
