"""The package imports from the build tree and names its version: the same in CMakeLists.txt,
pyproject.toml, the package and the newest entry of CHANGELOG.md."""
import os
import re

import frictionlab

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def _first(path, pattern):
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        m = re.search(pattern, f.read(), re.MULTILINE)
    assert m, f"{path}: no match for {pattern}"
    return m.group(1)


def test_import_and_version():
    assert frictionlab._frictionlab.__doc__.startswith("frictionlab")
    v = frictionlab.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", v), v
    assert _first("CMakeLists.txt", r"^project\(frictionlab VERSION (\S+)") == v
    assert _first("pyproject.toml", r'^version = "([^"]+)"') == v
    assert _first("CHANGELOG.md", r"^## (\d+\.\d+\.\d+)") == v
