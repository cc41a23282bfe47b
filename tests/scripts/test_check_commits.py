"""scripts/check_commits.py: the commit-message rules of CONTRIBUTING.md, on a scratch repository
(each rule can fail) and on this repository's history since the rules began."""
import os
import pathlib
import subprocess
import sys

import pytest

SOURCE = pathlib.Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
sys.path.insert(0, str(SOURCE / "scripts"))
import check_commits  # noqa: E402


def commit(repo, message):
    (repo / "f").write_text((repo / "f").read_text() + "x" if (repo / "f").exists() else "x")
    subprocess.run(["git", "-C", repo, "add", "f"], check=True)
    subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                    "-m", message], check=True)
    return subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.mark.parametrize("message, found", [
    ("fit: one line\n\nWhy it changed.", []),
    ("x" * 73 + "\n\nbody", ["subject is 73 characters"]),
    ("fit: a subject.\n\nbody", ["ends with a period"]),
    ("fit: close issue 34\n\nbody", ["cites an issue number"]),
    ("fit: fixes #12\n\nbody", ["cites an issue number"]),
    ("fit: no body", ["no blank line", "no body"]),
    ("fit: no blank\nbody right after", ["no blank line"]),
])
def test_each_rule(tmp_path, capsys, message, found):
    subprocess.run(["git", "init", "-q", tmp_path], check=True)
    base = commit(tmp_path, "start\n\nthe base")
    commit(tmp_path, message)
    rc = check_commits.main(["--repo", str(tmp_path), "--since", base])
    out = capsys.readouterr().out
    assert rc == (1 if found else 0), out
    lines = out.strip().split("\n")
    assert lines[-1] == f"1 commit(s) checked, {len(found)} problem(s)"
    for line, f in zip(lines[:-1], found, strict=True):
        assert f in line


def test_unreadable_history(tmp_path, capsys):
    assert check_commits.main(["--repo", str(tmp_path), "--since", "HEAD"]) == 2
    assert "cannot read the history" in capsys.readouterr().err


@pytest.mark.skipif(not (SOURCE / ".git").exists(), reason="an exported tree without git history")
def test_this_repository(capsys):
    rc = check_commits.main(["--repo", str(SOURCE)])
    assert rc == 0, capsys.readouterr().out
