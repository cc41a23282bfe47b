#!/usr/bin/env python3
"""--quiet and --verbose (docs/cli.md, "Exit status and messages"), and each warning once.

Default: the result on stdout, each distinct warning once on stderr, no progress messages.
--quiet: stdout holds exactly the result files' paths, stderr nothing. --verbose: the progress
messages (the preprocessing, the solver's starts) and the solver's termination too. The record is LuGre simulated on the 100 Hz sine;
its Stribeck fit, validated twice on a copy whose time column is in milliseconds, raises "looks
like milliseconds" for each validation record (two equal messages: printed once, both in
fit.json).
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402

SAME = "the time column looks like milliseconds"


def main():
    cli = Cli(timeout=300)
    rec = os.path.join(cli.work, "rec.csv")
    p = cli.run("-q", "simulate", "--model", os.path.join(cli.data, "lugre.json"), "--input",
                os.path.join(cli.data, "sine_velocity.csv"), "--output", rec,
                "--plot", os.path.join(cli.work, "rec.svg"))
    cli.check("simulate --quiet: the two paths, nothing else",
              p.returncode == 0 and p.stdout == f"{rec}\n{os.path.join(cli.work, 'rec.svg')}\n"
              and p.stderr == "", repr(p.stdout) + p.stderr)

    ms = os.path.join(cli.work, "rec_ms.csv")
    with open(rec, encoding="utf-8") as f:
        lines = f.read().splitlines()
    with open(ms, "w", encoding="utf-8") as f:
        t = lines[0].split(",").index("t")
        f.write(lines[0] + "\n")
        for line in lines[1:]:
            cells = line.split(",")
            cells[t] = str(round(1000 * float(cells[t])))
            f.write(",".join(cells) + "\n")
    fit = ["fit", "--input", rec, "--velocity", "v", "--force", "F", "--model", "stribeck",
           "--validate", ms, "--validate", ms, "--no-plots"]
    p = cli.run(*fit, "--out", "normal")
    warnings = [l for l in p.stderr.splitlines() if l.startswith("frictionlab: warning:")]
    cli.check("default: a repeated warning printed once",
              p.returncode == 0 and sum(SAME in w for w in warnings) == 1, p.stderr)
    cli.check("default: stderr holds only warnings (no progress)",
              len(warnings) == len(p.stderr.splitlines()) and len(warnings) >= 1, p.stderr)
    cli.check("default: the table and the files", p.stdout.startswith("frictionlab fit: stribeck")
              and "\nFiles:\n  normal/fit.json\n  normal/model.json\n" in p.stdout, p.stdout)
    with open(os.path.join(cli.work, "normal", "fit.json"), encoding="utf-8") as f:
        kept = [w for w in json.load(f)["warnings"] if SAME in w]
    cli.check("fit.json keeps both", len(kept) == 2, str(kept))

    p = cli.run("--quiet", *fit, "--out", "quiet")
    cli.check("--quiet before the command: the paths only",
              p.returncode == 0 and p.stdout == "quiet/fit.json\nquiet/model.json\n"
              and p.stderr == "", repr(p.stdout) + p.stderr)
    p = cli.run(*fit, "--out", "quiet2", "-q")
    cli.check("-q after the command's options: the same", p.returncode == 0
              and p.stdout == "quiet2/fit.json\nquiet2/model.json\n" and p.stderr == "",
              repr(p.stdout) + p.stderr)

    p = cli.run(*fit, "--out", "verbose", "--verbose")
    err = p.stderr.splitlines()
    cli.check("--verbose: the preprocessing, the solver's starts and termination, the warnings once",
              p.returncode == 0 and any(l.startswith("frictionlab: lsq start 1/") for l in err)
              and any(l.startswith("frictionlab: solver: ") for l in err)
              and "frictionlab: preprocessing: none (training record: 201 samples read, 201 "
                  "fitted)" in err
              and sum(SAME in l for l in err) == 1, p.stderr)

    p = cli.run("--quiet", *fit, "--out", "both", "--verbose")
    cli.check("--quiet with --verbose: an error before any work",
              p.returncode != 0 and "--quiet excludes --verbose" in p.stderr
              and not os.path.exists(os.path.join(cli.work, "both")), p.stderr)

    fitjson = os.path.join(cli.work, "normal", "fit.json")
    p = cli.run("export", "json", "--params", os.path.join(cli.data, "sensorless_fit.json"),
                "--output", "est.json", "--quiet")
    cli.check("export json --quiet: the path", p.returncode == 0 and p.stdout == "est.json\n"
              and p.stderr == "", repr(p.stdout) + p.stderr)
    p = cli.run("export", "json", "--params", os.path.join(cli.data, "sensorless_fit.json"), "-q")
    cli.check("export json --quiet to stdout: the data only",
              p.returncode == 0 and json.loads(p.stdout)["Km"] > 0 and p.stderr == "", p.stderr)
    p = cli.run("export", "c", "--params", os.path.join(cli.data, "sensorless_fit.json"),
                "--name", "est", "--out", "c", "-q")
    cli.check("export c --quiet: the two files", p.returncode == 0
              and p.stdout == "c/est.h\nc/est.c\n" and p.stderr == "", repr(p.stdout) + p.stderr)
    p = cli.run("export", "mujoco", "--params", os.path.join(cli.data, "coulomb_viscous.json"),
                "--joint", "wrist", "--output", "wrist.xml")
    cli.check("export mujoco: its note once, as a warning", p.returncode == 0 and p.stderr.count(
        "frictionlab: warning: MuJoCo cannot represent: tanh-smoothed sign") == 1, p.stderr)
    p = cli.run("report", fitjson, "--output", "r.html", "--quiet")
    cli.check("report --quiet: the path", p.returncode == 0 and p.stdout == "r.html\n"
              and p.stderr == "", repr(p.stdout) + p.stderr)

    if os.environ.get("FRICTIONLAB_NO_PYTHON_PACKAGE") != "1":
        p = cli.run("--quiet", "fleet", "generate", "fleet", "--robots", "1", "--sessions", "1",
                    "--seconds", "1")
        cli.check("fleet generate --quiet (forwarded): the three paths", p.returncode == 0
                  and p.stdout == "fleet/fleet.json\nfleet/manifest.csv\nfleet/truth.json\n"
                  and p.stderr == "", repr(p.stdout) + p.stderr)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
