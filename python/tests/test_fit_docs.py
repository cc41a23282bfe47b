"""Every Python snippet of docs/python.md from "## Identification" on runs, in order, laid out as
the docs tell a user: the working directory is a checkout holding the demo's records (demo/,
written by `frictionlab demo --out demo`), and the shared data sits beside it (../shared/data).
A snippet issues no warning unless the document marks it (_docs.py)."""
import os

import pytest

from _docs import python_blocks, run_blocks

from _cli import SHARED, SOURCE, demo_records, needs_cli, run_cli

pytestmark = [needs_cli, pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/data")]
DOC = SOURCE / "docs" / "python.md"


def test_snippets_run(tmp_path_factory, capsys):
    root = tmp_path_factory.mktemp("tour")
    d = root / "frictionlab"
    d.mkdir()
    (root / "shared").symlink_to(SHARED.parent)  # ../shared beside the checkout
    run_cli("demo", "--out", "demo", cwd=d)
    section = DOC.read_text().split("## Identification", 1)[1].split("\n## ", 1)[0]
    blocks = python_blocks(section)
    assert len(blocks) >= 6
    cwd = os.getcwd()
    os.chdir(d)
    try:
        scope = {}
        problems = run_blocks(blocks, scope, str(DOC))
    finally:
        os.chdir(cwd)
    assert problems == []
    assert (d / "fit.json").is_file() and (d / "estimator" / "joint_estimator.c").is_file()
    assert "fit done" in scope["seen"][-1]
