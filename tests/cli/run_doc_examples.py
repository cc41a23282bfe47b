#!/usr/bin/env python3
"""Run every command-line example of the documentation and fail if any exits non-zero, or
prints a warning that the documentation does not say it prints.

Marker convention (docs/cli.md, "Examples in this documentation"):
  - only fenced code blocks whose info string is exactly ``sh`` are considered;
  - in them, a command (after joining backslash-continued lines) is run when its first word is
    ``frictionlab`` or a path ending in ``/apps/frictionlab/frictionlab`` (e.g.
    ``./build/apps/frictionlab/frictionlab``); that word is replaced by the binary under test;
  - other lines (``bash scripts/...``, comments) are not run;
  - blocks tagged ``text``, ``console`` etc. (e.g. shown error output) are never run.

The commands run with bash in a scratch directory ``<work>/repo`` that links the repository's
``examples`` directory, so that relative paths such as ``examples/data/lugre.json`` resolve as
from the repository root while outputs do not land in the source tree; ``<work>/shared`` links
the ``shared`` directory beside the repository (measured records: ``../shared/data/...``).

Documents given as positional arguments must contain at least one command; those given with
``--optional`` may contain none.

Warnings: a documented command runs without one (a ``frictionlab: warning:`` line, or a Python
``...Warning:`` line, on stderr) unless the warning is the point of the example, which the
document says with a marker:
  - ``<!-- warns: REASON -->`` on the last non-blank line before a ```` ```sh ```` block: every
    command of the block may warn;
  - ``# warns: REASON`` on a line of the block: the commands after it up to the next blank or
    comment line may warn.
A marked block or group of commands none of which prints a warning is an error too (the marker
is stale: remove it). REASON says why the warning is the lesson, e.g. ``<!-- warns: MuJoCo has no Stribeck
exponent: the notes say what is approximated -->``.
"""
import argparse
import os
import re
import shutil
import subprocess
import time
import sys

# One documented command longer than this is a failure of its own (a whole run of them takes
# about a minute).
COMMAND_SECONDS = 240
# FRICTIONLAB_NO_PYTHON_PACKAGE=1: a build without the Python package (FRICTIONLAB_PYTHON=OFF)
NO_PYTHON = os.environ.get("FRICTIONLAB_NO_PYTHON_PACKAGE") == "1"
BINARY_WORD = re.compile(r"^(frictionlab|\S*/apps/frictionlab/frictionlab)(?=\s|$)")


BLOCK_MARK = re.compile(r"^\s*<!--\s*warns:\s*(.*?)\s*-->\s*$")
LINE_MARK = re.compile(r"^\s*#\s*warns:\s*(.*?)\s*$")
# A warning line: the CLI's, or a Python warning as the warnings module prints it.
WARNING_LINE = re.compile(r"^(frictionlab: warning:|\S+:\d+: \w*Warning: )")


def sh_blocks(text):
    """Yield (first line number, lines, block marker reason or None) of every ```sh block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\S*)\s*$", lines[i])
        if m:
            tag = m.group(1)
            start = i + 1
            j = start
            while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
                j += 1
            if tag == "sh":
                before = [l for l in lines[:i] if l.strip()]
                mark = BLOCK_MARK.match(before[-1]) if before else None
                yield start + 1, lines[start:j], mark.group(1) if mark else None
            i = j + 1
        else:
            i += 1


def commands(block_start, lines):
    """Join continuation lines; yield (line number, command, marker) where marker is (its line
    number, reason) of the ``# warns:`` line the command follows (up to a blank line) or None."""
    cmd, first, mark = "", None, None
    for k, line in enumerate(lines):
        m = LINE_MARK.match(line) if not cmd else None
        if m:
            mark = (block_start + k, m.group(1))
            continue
        if not cmd and (not line.strip() or line.lstrip().startswith("#")):
            mark = None
        if first is None:
            first = block_start + k
        if line.rstrip().endswith("\\"):
            cmd += line.rstrip()[:-1] + " "
            continue
        cmd += line
        if cmd.strip():
            yield first, cmd.strip(), mark
        cmd, first = "", None
    if cmd.strip():
        yield first, cmd.strip(), mark


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--optional", nargs="*", default=[])
    ap.add_argument("docs", nargs="+")
    args = ap.parse_args()

    binary = os.path.abspath(args.binary)
    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    repo = os.path.join(args.work, "repo")
    os.makedirs(repo)
    source = os.path.abspath(args.source)
    os.symlink(os.path.join(source, "examples"), os.path.join(repo, "examples"))
    shared = os.path.join(os.path.dirname(source), "shared")
    if os.path.isdir(shared):
        os.symlink(shared, os.path.join(args.work, "shared"))
    # `frictionlab` on PATH too, for pipelines inside a command.
    bindir = os.path.join(args.work, ".bin")
    os.makedirs(bindir)
    os.symlink(binary, os.path.join(bindir, "frictionlab"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))

    failures, warnings, ran = [], [], 0
    required = set(args.docs)
    for doc in args.docs + [d for d in args.optional if d not in required]:
        path = os.path.join(args.source, doc)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        count = 0
        for block_start, lines, block_mark in sh_blocks(text):
            block_warned = False
            marks = {}  # (line, reason) of each `# warns:` line -> whether a command warned
            for line_no, cmd, line_mark in commands(block_start, lines):
                if line_mark:
                    marks.setdefault(line_mark, False)
                if cmd.startswith("#") or not BINARY_WORD.match(cmd):
                    print(f"{doc}:{line_no}: not run: {cmd}")
                    continue
                if NO_PYTHON and re.match(r"frictionlab\s+fleet\b", cmd):
                    # `fleet` is the Python package: not in a build without it (the sanitizer one)
                    print(f"{doc}:{line_no}: not run (no Python package in this build): {cmd}")
                    continue
                run = BINARY_WORD.sub(lambda _: f'"{binary}"', cmd, count=1)
                count += 1
                ran += 1
                began = time.monotonic()
                try:
                    p = subprocess.run(["bash", "-c", run], cwd=repo, env=env,
                                       capture_output=True, text=True, timeout=COMMAND_SECONDS)
                except subprocess.TimeoutExpired as err:
                    print(f"{doc}:{line_no}: TIMED OUT after {COMMAND_SECONDS} s: {cmd}", flush=True)
                    failures.append((doc, line_no, cmd, f"still running after {COMMAND_SECONDS} s; "
                                     f"stdout so far:\n{err.stdout}\nstderr so far:\n{err.stderr}"))
                    continue
                status = "ok" if p.returncode == 0 else f"FAILED (exit {p.returncode})"
                # (flushed with its time: a run stopped from outside still shows how far it got)
                print(f"{doc}:{line_no}: {status} ({time.monotonic() - began:.1f} s): {cmd}",
                      flush=True)
                warned = [w for w in p.stderr.splitlines() if WARNING_LINE.match(w)]
                block_warned = block_warned or bool(warned)
                if line_mark and warned:
                    marks[line_mark] = True
                reason = line_mark[1] if line_mark else block_mark
                if warned:
                    warnings.append((doc, line_no, cmd, warned, reason))
                if p.returncode != 0:
                    failures.append((doc, line_no, cmd, p))
                elif warned and not reason:
                    failures.append((doc, line_no, cmd, "warned, and the document does not say "
                                     "it warns on purpose (no warns: marker):\n" + "\n".join(warned)))
            for (mark_line, reason), any_warned in marks.items():
                if not any_warned:
                    failures.append((doc, mark_line, f"# warns: {reason}", "no command after "
                                     "this marker printed a warning: remove the marker"))
            if block_mark and not block_warned:
                failures.append((doc, block_start, "(```sh block)", f"marked '<!-- warns: "
                                 f"{block_mark} -->' but no command printed a warning: remove the "
                                 "marker"))
        if count == 0 and doc in required:
            failures.append((doc, 0, "(no frictionlab command found in ```sh blocks)", None))
    print(f"{ran} documented commands run, {len(failures)} failed, {len(warnings)} warned "
          f"({sum(1 for w in warnings if w[4])} on purpose)")
    for doc, line_no, cmd, warned, reason in warnings:
        print(f"  warned: {doc}:{line_no}: {cmd[:100]}" + (f" (warns: {reason})" if reason else ""))
        for w in warned[:3]:
            print(f"      {w[:200]}")
    for doc, line_no, cmd, p in failures:
        print(f"\n--- {doc}:{line_no}: {cmd}")
        if isinstance(p, str):
            print(p)
        elif p is not None:
            print(f"exit status {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
