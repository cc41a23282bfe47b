"""Code, tests and docs describe behaviour; they do not cite the project's internal issue
numbers, which a user cannot see (CONTRIBUTING.md). Issues of other projects are cited with
their repository (google-deepmind/mujoco#3528, SO-ARM100 issue 134)."""
import os
import re
import subprocess
from pathlib import Path

SOURCE = Path(os.environ.get("FRICTIONLAB_SOURCE_DIR", Path(__file__).resolve().parents[2]))
# "issue 13", "issue #4", or "#12" after a space or an opening bracket (not a colour or an
# HTML entity: "#555;", "&#39;").
CITATION = re.compile(r"\b[Ii]ssues? ?#?\d+|(?<=[\s(])#\d{1,3}\b(?![;\w])")
# An issue of another project names its repository just before the number.
EXTERNAL = re.compile(r"(mujoco|SO-ARM100|[\w.-]+/[\w.-]+)\s*(issue\s*)?#?\d+$")
THIS_FILE = Path(__file__).name


def offending_lines(text):
    for n, line in enumerate(text.splitlines(), 1):
        for m in CITATION.finditer(line):
            before = line[: m.end()]
            if not EXTERNAL.search(before):
                yield n, line.strip()


def test_no_internal_issue_numbers():
    files = subprocess.run(["git", "ls-files", "src", "include", "apps", "python", "tests",
                            "docs", "benchmarks", "examples", "fuzz", "scripts", "README.md",
                            "CONTRIBUTING.md", "CHANGELOG.md"], cwd=SOURCE, capture_output=True,
                           text=True, check=True).stdout.split()
    found = []
    for f in files:
        p = SOURCE / f
        if p.name in (THIS_FILE, "test_check_commits.py", "check_commits.py") or not p.is_file():
            continue
        if p.suffix not in (".cpp", ".hpp", ".h", ".c", ".py", ".md", ".txt", ".cmake", ".sh",
                            ".pyi", ".json", ".toml"):
            continue
        try:
            text = p.read_text()
        except UnicodeDecodeError:
            continue
        found += [f"{f}:{n}: {line}" for n, line in offending_lines(text)]
    assert not found, "internal issue numbers cited:\n" + "\n".join(found[:30])


def test_the_pattern_sees_a_citation():
    assert list(offending_lines("// what the fit may claim (issue 13)"))
    assert list(offending_lines("# as asked in #12"))
    assert not list(offending_lines("see google-deepmind/mujoco#3528"))
    assert not list(offending_lines("SO-ARM100 issue 134"))
    assert not list(offending_lines("colour #1a1a1a and &#39;"))
