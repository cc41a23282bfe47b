#!/usr/bin/env python3
"""Check the commit messages of a range against CONTRIBUTING.md's rules.

    scripts/check_commits.py [--repo DIR] [--since REV]

Every commit after REV (default: the first commit made under these rules, FIRST_CHECKED below)
up to HEAD, merges excluded, must have:

- a subject of at most 72 characters, not ending with a period;
- a blank second line and a body (the why and what was measured);
- no internal issue numbers ("issue 12", "#12") in the subject: the subject says what changed.

Prints one line per problem (the commit's short hash, its subject and what is wrong) and exits 1
when there is any, 0 otherwise; exit 2 when the repository or the revision cannot be read
(e.g. an exported tree without .git history).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys

#: The first commit of the history written under these rules (earlier subjects were long and had
#: no body; history is not rewritten).
FIRST_CHECKED = "c5f14f3"
MAX_SUBJECT = 72
_ISSUE = re.compile(r"\bissues? #?\d+\b|(?<![\w/])#\d+\b", re.IGNORECASE)


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def problems(subject: str, rest: list[str]) -> list[str]:
    """What is wrong with one message (`rest`: its lines after the subject)."""
    out = []
    if len(subject) > MAX_SUBJECT:
        out.append(f"subject is {len(subject)} characters (at most {MAX_SUBJECT})")
    if subject.endswith("."):
        out.append("subject ends with a period")
    if _ISSUE.search(subject):
        out.append("subject cites an issue number (say what changed)")
    if not rest or rest[0].strip():
        out.append("no blank line after the subject")
    if not any(line.strip() for line in rest):
        out.append("no body (say why, and what was measured)")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=".")
    ap.add_argument("--since", default=FIRST_CHECKED,
                    help="check the commits after this one (it included when it is FIRST_CHECKED)")
    args = ap.parse_args(argv)
    try:
        first = git(args.repo, "rev-parse", "--verify", "--quiet", args.since + "^{commit}").strip()
        base = [first + "^"] if args.since == FIRST_CHECKED else [first]
        hashes = git(args.repo, "rev-list", "--no-merges", "--reverse", base[0] + "..HEAD").split()
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        print(f"check_commits: cannot read the history of {args.repo} from {args.since}: {e}", file=sys.stderr)
        return 2
    bad = 0
    for h in hashes:
        lines = git(args.repo, "show", "-s", "--format=%B", h).rstrip("\n").split("\n")
        for p in problems(lines[0], lines[1:]):
            print(f"{h[:7]} {lines[0][:60]!r}: {p}")
            bad += 1
    print(f"{len(hashes)} commit(s) checked, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
