#!/usr/bin/env python3
"""run_doc_examples.py's warning rule on small documents: a documented command that prints a
warning fails the run unless a ``<!-- warns: ... -->`` (block) or ``# warns: ...`` (the commands
up to the next blank or comment line) marker says so, and a marker under which nothing warns
fails it too.

`export mujoco` of examples/data/coulomb_viscous.json is the warning command (MuJoCo has no
tanh-smoothed sign: one "MuJoCo cannot represent" warning); `--version` never warns.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import fresh_dir, parse_args  # noqa: E402

WARNS = "frictionlab export mujoco --params examples/data/coulomb_viscous.json --joint wrist"
QUIET = "frictionlab --version"


def run_doc(args, name, text):
    """The runner on a source tree holding one document `text`; (exit status, output)."""
    src = os.path.join(args.work, name, "src")
    fresh_dir(src)
    os.symlink(os.path.join(os.path.abspath(args.source), "examples"), os.path.join(src, "examples"))
    with open(os.path.join(src, "doc.md"), "w", encoding="utf-8") as f:
        f.write(text)
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_doc_examples.py")
    p = subprocess.run([sys.executable, runner, "--binary", args.binary, "--source", src,
                        "--work", os.path.join(args.work, name, "run"), "doc.md"],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def main():
    args = parse_args()
    fresh_dir(args.work)
    cases = [
        ("unmarked", f"```sh\n{WARNS}\n```\n", 1, "no warns: marker"),
        ("block marker", f"<!-- warns: the notes are the point -->\n\n```sh\n{QUIET}\n{WARNS}\n```\n",
         0, "1 warned (1 on purpose)"),
        ("line marker", f"```sh\n{QUIET}\n# warns: the notes are the point\n{WARNS}\n```\n", 0,
         "1 warned (1 on purpose)"),
        ("line marker ends at a blank line",
         f"```sh\n# warns: the notes are the point\n{WARNS}\n\n{WARNS}\n```\n", 1,
         "no warns: marker"),
        ("line marker ends at a comment line",
         f"```sh\n# warns: the notes are the point\n{WARNS}\n# next\n{WARNS}\n```\n", 1,
         "no warns: marker"),
        ("stale block marker", f"<!-- warns: old -->\n```sh\n{QUIET}\n```\n", 1,
         "no command printed a warning: remove the marker"),
        ("stale line marker", f"```sh\n# warns: old\n{QUIET}\n\n{WARNS}\n```\n", 1,
         "no command after this marker printed a warning: remove the marker"),
    ]
    failures = 0
    for name, text, status, needle in cases:
        code, out = run_doc(args, name.replace(" ", "_"), text)
        ok = code == status and needle in out
        print(("ok     " if ok else "FAILED ") + name)
        if not ok:
            failures += 1
            print(f"exit {code}, expected {status} and {needle!r} in:\n{out}")
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
