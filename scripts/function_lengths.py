#!/usr/bin/env python3
"""List the longest C and C++ functions (lines from signature to closing brace, by ctags).

    scripts/function_lengths.py [--top N] [--limit LINES] [PATH ...]   (default PATH: src)

With --limit the exit status is 1 when a function is longer than LINES (CONTRIBUTING.md:
functions read as a list of named steps, never over ~150 lines).
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def functions(paths):
    """(lines, file, first line, name) of every function definition under `paths`."""
    ctags = shutil.which("ctags")
    if not ctags:
        sys.exit("function_lengths.py: ctags is missing (Debian package universal-ctags)")
    out = subprocess.run([ctags, "-R", "--languages=C++,C", "--c++-kinds=f", "--c-kinds=f",
                          "--fields=+ne", "-o", "-", *paths], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        fields = line.split("\t")
        start, end = re.search(r"\bline:(\d+)", line), re.search(r"\bend:(\d+)", line)
        if start and end:
            rows.append((int(end.group(1)) - int(start.group(1)) + 1, fields[1],
                         int(start.group(1)), fields[0]))
    return sorted(rows, reverse=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=["src"])
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    rows = functions(a.paths)
    for n, path, line, name in rows[: a.top]:
        print(f"{n:5d}  {path}:{line}  {name}")
    if a.limit is not None:
        over = [r for r in rows if r[0] > a.limit]
        if over:
            print(f"{len(over)} function(s) over {a.limit} lines", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
