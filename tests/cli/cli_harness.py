"""Shared scaffolding of the end-to-end CLI tests (Python standard library only): the command
line (--binary, --source, --work), a fresh work directory, running the binary there, writing
input files, named checks and the expected first "frictionlab: error:" line of a failing command.
"""
import argparse
import os
import shutil
import subprocess


def parse_args(source=True):
    """The command line: --binary, --work and (if `source`) --source."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    if source:
        ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    return ap.parse_args()


def fresh_dir(path):
    """An empty directory at `path` (what was there is removed)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def run(args, expect_ok=True):
    """Run `args` (the binary first), capturing its output; RuntimeError with both streams if
    `expect_ok` and it fails."""
    p = subprocess.run(args, capture_output=True, text=True)
    if expect_ok and p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{p.stdout}\n{p.stderr}")
    return p


class Cli:
    def __init__(self, timeout):
        args = parse_args()
        self.binary = os.path.abspath(args.binary)
        self.source = os.path.abspath(args.source)
        self.data = os.path.join(self.source, "examples", "data")
        self.work = os.path.abspath(args.work)
        self.timeout = timeout
        self.failures = []
        fresh_dir(self.work)

    def check(self, name, ok, detail=""):
        print(("ok     " if ok else "FAILED ") + name)
        if not ok:
            self.failures.append(f"{name}\n{detail}")

    def example(self, name):
        """The path of the example file examples/data/`name` of the source tree."""
        return os.path.join(self.data, name)

    def write(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run(self, *argv):
        return subprocess.run([self.binary, *argv], cwd=self.work, capture_output=True,
                              text=True, timeout=self.timeout)

    def expect_error(self, name, argv, stderr_line, out=None, status=1):
        """Exit `status` (any non-zero if status is None), the first "frictionlab: error:" line
        of stderr equal to `stderr_line`, and `out` (if given) not written."""
        p = self.run(*argv)
        errors = [l for l in p.stderr.splitlines() if l.startswith("frictionlab: error:")]
        first = errors[0] if errors else ""
        detail = (f"argv: {argv}\nexit: {p.returncode}\nstderr:\n{p.stderr}\n"
                  f"expected first error line:\n{stderr_line}")
        status_ok = p.returncode == status if status else p.returncode != 0
        self.check(name, status_ok and first == stderr_line, detail)
        if out is not None:
            self.check(name + " (nothing written)", not os.path.exists(out), f"{out} exists")

    def finish(self):
        """Print the failures; the process exit status."""
        print(f"{len(self.failures)} failed")
        for f in self.failures:
            print("\n--- " + f)
        return 1 if self.failures else 0


def start(source=False):
    """The command line of a test script that keeps its own list of failures (parse_args), its
    --work made a fresh, empty directory."""
    a = parse_args(source)
    fresh_dir(a.work)
    return a


def exit_status(failures):
    """Print each failure of a test script ("FAIL: ..."); its exit status, 1 if any failed."""
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0
