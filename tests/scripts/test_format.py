"""The C and C++ sources follow .clang-format (clang-format 14, Debian 12's)."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLANG_FORMAT = shutil.which("clang-format-14") or shutil.which("clang-format")


def sources():
    out = subprocess.run(["git", "ls-files", "*.cpp", "*.hpp", "*.h", "*.c"], cwd=SOURCE,
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.split() if (SOURCE / f).is_file()]


def test_clang_format_is_installed():
    assert CLANG_FORMAT, "clang-format-14 is missing: run scripts/install-deps.sh"


@pytest.mark.skipif(not CLANG_FORMAT, reason="reported by test_clang_format_is_installed")
def test_every_source_is_formatted():
    files = sources()
    assert len(files) > 100
    r = subprocess.run([CLANG_FORMAT, "--dry-run", "--Werror", *files], cwd=SOURCE,
                       capture_output=True, text=True)
    unformatted = sorted({line.split(":")[0] for line in r.stderr.splitlines()
                          if ": error:" in line})
    assert r.returncode == 0, ("not formatted (run clang-format -i on them): "
                               + ", ".join(unformatted[:20]))


@pytest.mark.skipif(not CLANG_FORMAT, reason="reported by test_clang_format_is_installed")
def test_the_check_sees_a_misformatted_file(tmp_path):
    bad = tmp_path / "bad.cpp"
    bad.write_text("int   f( int x ){return x;}\n")
    (tmp_path / ".clang-format").write_text((SOURCE / ".clang-format").read_text())
    r = subprocess.run([CLANG_FORMAT, "--dry-run", "--Werror", str(bad)], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode != 0
