"""Installing the package: `pip install` of the source directory into a virtual environment
with the system's packages, offline, and `cmake --install` to where /usr/bin/python3 looks
(docs/python.md, "Install"). Takes a few seconds when the build tree of the running tests is
reused (the default under CTest), minutes with FRICTIONLAB_TEST_VENV_FRESH=1 (a fresh CMake build).
"""
import os
import subprocess
import sys
import venv
from pathlib import Path

import numpy as np
import pytest

import frictionlab

SRC = Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", Path(__file__).resolve().parents[2]))
# The build tree holding the imported module (<build>/python/frictionlab/_frictionlab*.so), if any.
BUILD = Path(frictionlab._frictionlab.__file__).resolve().parents[2]
IS_BUILD_TREE = (BUILD / "CMakeCache.txt").exists()

SNIPPET = """
import numpy as np, frictionlab, warnings
warnings.simplefilter("ignore")
t = np.linspace(0.0, 1.0, 101)
s = frictionlab.simulate(frictionlab.LuGreParams(), t, 0.005 * np.sin(2 * np.pi * t))
print(frictionlab.__file__)
print(repr(float(s.F.sum())))
"""


def test_pip_install_into_a_venv_with_system_site_packages(tmp_path):
    env_dir = tmp_path / "env"
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FRICTIONLAB_CMAKE_BUILD_DIR")}
    if IS_BUILD_TREE and not os.environ.get("FRICTIONLAB_TEST_VENV_FRESH"):
        env["FRICTIONLAB_CMAKE_BUILD_DIR"] = str(BUILD)
    r = subprocess.run([str(py), "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-cache-dir",
                        "--quiet", str(SRC)], env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([str(py), "-c", SNIPPET], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    where, total = r.stdout.split()
    assert Path(where).resolve().is_relative_to(env_dir.resolve())
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = np.linspace(0.0, 1.0, 101)
        s = frictionlab.simulate(frictionlab.LuGreParams(), t, 0.005 * np.sin(2 * np.pi * t))
    assert float(total) == float(s.F.sum())


@pytest.mark.skipif(not IS_BUILD_TREE, reason="needs the CMake build tree of the imported module")
def test_cmake_install_puts_the_package_on_the_system_python_path(tmp_path):
    cache = (BUILD / "CMakeCache.txt").read_text().splitlines()
    rel = next(l.split("=", 1)[1] for l in cache if l.startswith("FRICTIONLAB_PYTHON_INSTALL_DIR:"))
    # /usr/bin/python3 searches the directory for the default prefix /usr/local
    r = subprocess.run(["/usr/bin/python3", "-c", "import site, sys; print('\\n'.join(sys.path))"],
                       capture_output=True, text=True, env={"PATH": os.environ.get("PATH", "")})
    assert os.path.join("/usr/local", rel) in r.stdout.split("\n")
    # and the install rule puts a working package there (installed here into a temporary prefix)
    r = subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(tmp_path / rel)}
    r = subprocess.run(["/usr/bin/python3", "-c", SNIPPET], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.split()[0]).resolve().is_relative_to(tmp_path.resolve())
