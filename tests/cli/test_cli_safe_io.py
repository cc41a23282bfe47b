#!/usr/bin/env python3
"""Nothing lost, sane bounds (docs/file-formats.md, "Output files" and "Magnitude limits"): an output that
is an input (also through a symbolic link) is an error naming both, found before any work; output
locations that cannot be written are found before any work (fit, compare, fit-joint, eval-joint,
fit-actuator, eval-actuator, simulate, export); "-" is the standard output for single-file
outputs; inputs and parameters beyond the documented limits, and simulate's substep count beyond
its limit, are errors before the simulation. Every failing case: exit status 1, the message, the
input unchanged, no output file and no temporary file left behind."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402


def main():
    cli = Cli(timeout=120)
    data, work = cli.data, cli.work
    check, write, run = cli.check, cli.write, cli.run

    def listing():
        return sorted(os.listdir(work))

    def expect(name, argv, line, unchanged=(), quick=True):
        """The first error line equal to `line`, exit status 1, the files in `unchanged` with
        their content, no new entry in the work directory (no output, no temporary file) and, if
        `quick`, the error before any work (under 2 s)."""
        before = {f: open(os.path.join(work, f), "rb").read() for f in unchanged}
        entries = listing()
        t0 = time.monotonic()
        cli.expect_error(name, argv, line)
        elapsed = time.monotonic() - t0
        for f, content in before.items():
            check(name + f" ({f} unchanged)",
                  open(os.path.join(work, f), "rb").read() == content)
        check(name + " (nothing new in the directory)", listing() == entries,
              f"before: {entries}\nafter: {listing()}")
        if quick:
            check(name + " (found before any work)", elapsed < 2.0, f"{elapsed:.2f} s")

    lugre = os.path.join(data, "lugre.json")
    shutil.copy(os.path.join(data, "sine_velocity.csv"), os.path.join(work, "same.csv"))
    shutil.copy(os.path.join(data, "joint_estimator.json"), os.path.join(work, "f.json"))
    shutil.copy(os.path.join(data, "sensorless_fit.json"), os.path.join(work, "fit.json"))
    os.symlink("same.csv", os.path.join(work, "link.csv"))
    write("afile", "a regular file\n")
    os.makedirs(os.path.join(work, "adir"))

    # ---- an output that is an input ----
    expect("simulate --output is --input",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "same.csv"],
           "frictionlab: error: same.csv: the output (--output) is the input same.csv (--input); "
           "writing it would replace the input (choose another output path)", ["same.csv"])
    expect("simulate --output is --input through a symbolic link",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "link.csv"],
           "frictionlab: error: link.csv: the output (--output) is the input same.csv (--input); "
           "writing it would replace the input (choose another output path)", ["same.csv"])
    expect("simulate --plot is --input",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "o.csv",
            "--plot", "./same.csv"],
           "frictionlab: error: ./same.csv: the output (--plot) is the input same.csv (--input); "
           "writing it would replace the input (choose another output path)", ["same.csv"])
    for sub in ("json", "mujoco"):
        expect(f"export {sub} --output is --params",
               ["export", sub, "--params", "f.json", "--output", "f.json"],
               "frictionlab: error: f.json: the output (--output) is the input f.json (--params); "
               "writing it would replace the input (choose another output path)", ["f.json"])
    expect("export xml --output is --params",
           ["export", "xml", "--params", "fit.json", "--output", "fit.json"],
           "frictionlab: error: fit.json: the output (--output) is the input fit.json (--params); "
           "writing it would replace the input (choose another output path)", ["fit.json"])
    os.makedirs(os.path.join(work, "jo"))
    write("jo/joint_fit.json", "{}\n")
    expect("fit-joint --init is the joint_fit.json it would write",
           ["fit-joint", "--input", "same.csv", "--position", "q", "--torque", "tau",
            "--method", "oe", "--init", "jo/joint_fit.json", "--out", "jo"],
           "frictionlab: error: jo/joint_fit.json: the output (--out) is the input "
           "jo/joint_fit.json (--init); writing it would replace the input (choose another "
           "output path)", ["jo/joint_fit.json"])
    write("jo/joint_eval.json", "{}\n")
    expect("eval-joint --joint is the joint_eval.json it would write",
           ["eval-joint", "--joint", "jo/joint_eval.json", "--input", "same.csv",
            "--position", "q", "--torque", "tau", "--out", "jo"],
           "frictionlab: error: jo/joint_eval.json: the output (--out) is the input "
           "jo/joint_eval.json (--joint); writing it would replace the input (choose another "
           "output path)", ["jo/joint_eval.json"])
    write("m1.json", "{}\n")
    expect("eval-actuator --json is a --params file",
           ["eval-actuator", "--params", "m1.json", "--logs", "adir", "--json", "m1.json"],
           "frictionlab: error: m1.json: the output (--json) is the input m1.json (--params); "
           "writing it would replace the input (choose another output path)", ["m1.json"])

    # ---- output locations checked before any work ----
    fit_args = ["--input", "train.csv", "--current", "current", "--velocity", "velocity",
                "--force", "torque", "--problem", "sensorless"]
    run("demo", "--out", "demo_out")
    shutil.copy(os.path.join(work, "demo_out", "sensorless_train.csv"),
                os.path.join(work, "train.csv"))
    shutil.rmtree(os.path.join(work, "demo_out"))
    expect("fit --out is a regular file", ["fit", *fit_args, "--out", "afile"],
           "frictionlab: error: afile: is a file, not a directory", ["afile", "train.csv"])
    expect("compare --out is a regular file", ["compare", *fit_args, "--out", "afile"],
           "frictionlab: error: afile: is a file, not a directory", ["afile"])
    expect("fit --out below a regular file", ["fit", *fit_args, "--out", "afile/sub"],
           "frictionlab: error: afile/sub: cannot create it: " + os.path.join(work, "afile") +
           " is not a directory", ["afile"])
    expect("fit-joint --out is a regular file",
           ["fit-joint", "--input", "same.csv", "--position", "q", "--torque", "tau",
            "--out", "afile"],
           "frictionlab: error: afile: is a file, not a directory", ["afile"])
    expect("eval-joint --out is a regular file",
           ["eval-joint", "--joint", os.path.join(data, "joint.json"), "--input", "same.csv",
            "--position", "q", "--torque", "tau", "--out", "afile"],
           "frictionlab: error: afile: is a file, not a directory", ["afile"])
    expect("fit-actuator --out is a regular file",
           ["fit-actuator", "--logs", "adir", "--out", "afile"],
           "frictionlab: error: afile: is a file, not a directory", ["afile"])
    expect("export c --out is a regular file",
           ["export", "c", "--params", "f.json", "--out", "afile"],
           "frictionlab: error: afile: is a file, not a directory", ["afile"])
    expect("simulate --output is a directory",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "adir"],
           "frictionlab: error: adir: is a directory, not a file")
    expect("simulate --output in a missing directory",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "nodir/o.csv"],
           "frictionlab: error: nodir/o.csv: the directory nodir does not exist")
    expect("simulate --output below a regular file",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "afile/o.csv"],
           "frictionlab: error: afile/o.csv: afile is not a directory", ["afile"])
    expect("export json --output is a directory",
           ["export", "json", "--params", "f.json", "--output", "adir"],
           "frictionlab: error: adir: is a directory, not a file")
    expect("eval-actuator --json is a directory",
           ["eval-actuator", "--params", "m1.json", "--logs", "adir", "--json", "adir"],
           "frictionlab: error: adir: is a directory, not a file")
    expect("simulate --output and --plot both -",
           ["simulate", "--model", lugre, "--input", "same.csv", "--output", "-", "--plot", "-"],
           "frictionlab: error: standard output: two outputs go to it (--output - and --plot -); "
           "write one of them to a file")

    # ---- validation records checked before the fit ----
    write("val_nocol.csv", "t,current,velocity\n0,1,1\n1,1,1\n")
    expect("fit --validate without the force column", ["fit", *fit_args, "--validate",
                                                       "val_nocol.csv", "--out", "fo"],
           "frictionlab: error: val_nocol.csv:1: no column 'torque' (columns found: t, current, "
           "velocity)")
    write("val_short.csv", "t,current,velocity,torque\n0,1,1,1\n1,1,1,1\n")
    expect("fit --validate too short", ["fit", *fit_args, "--validate", "val_short.csv",
                                        "--out", "fo"],
           "frictionlab: error: val_short.csv: the record has 2 samples; at least 20 are required")
    expect("fit --validate missing", ["fit", *fit_args, "--validate", "nothere.csv",
                                      "--out", "fo"],
           "frictionlab: error: nothere.csv: cannot open: No such file or directory")

    # ---- limits ----
    write("big_v.csv", "t,v\n0,0\n0.01,1e300\n")
    write("out.csv", "previous output\n")
    expect("simulate: velocity beyond 1e15",
           ["simulate", "--model", lugre, "--input", "big_v.csv", "--output", "out.csv"],
           "frictionlab: error: big_v.csv line 3: v = 1e+300 is beyond the limit |v| <= 1e+15 "
           "(SI units; not a physical input)", ["out.csv"])
    with open(lugre) as f:
        m = json.load(f)
    m["params"]["sigma0"] = 1e308
    m["params"]["sigma1"] = 1e308
    write("huge.json", json.dumps(m))
    expect("simulate: sigma0 = sigma1 = 1e308",
           ["simulate", "--model", "huge.json", "--input", "same.csv", "--output", "out.csv"],
           "frictionlab: error: huge.json: parameter 'sigma0': |1e+308| is beyond the limit "
           "1e+15 of any parameter (SI units; docs/file-formats.md, \"Magnitude limits\")", ["out.csv"])
    write("gap.csv", "t,v\n0,0\n1,1\n1000000,1\n")
    expect("simulate --dt 1e-9 over a 1e6 s record",
           ["simulate", "--model", lugre, "--input", "gap.csv", "--output", "out.csv",
            "--dt", "1e-9"],
           "frictionlab: error: max_substep 1e-09 s splits the input (1e+06 s) into 1e+15 "
           "substeps, more than the limit 1e+08; use a larger max_substep (at least 0.01 s) "
           "(on the command line: --dt sets max_substep)", ["out.csv"])
    write("big_rec.csv", "t,current,velocity,torque\n" +
          "".join(f"{k * 0.01},1,{1e300 if k == 5 else 1},1\n" for k in range(30)))
    expect("fit: record value beyond 1e15",
           ["fit", "--input", "big_rec.csv", "--current", "current", "--velocity", "velocity",
            "--force", "torque", "--problem", "sensorless", "--out", "fo"],
           "frictionlab: error: big_rec.csv: sample 6: value 1e+300 in channel 'velocity' is "
           "beyond the limit |x| <= 1e+15 (SI units; not a physical record) (t = 0.05 s)")

    # ---- "-" is the standard output ----
    entries = listing()
    p = run("simulate", "--model", lugre, "--input", "same.csv", "--output", "-")
    check("simulate --output - writes the CSV to stdout",
          p.returncode == 0 and p.stdout.startswith("t,v,F,z\n0,0,0,0\n"), p.stderr)
    check("simulate --output - reports on stderr",
          "frictionlab: wrote the standard output (" in p.stderr, p.stderr)
    check("simulate --output - writes no file", listing() == entries)
    p = run("export", "json", "--params", "f.json", "--output", "-")
    check("export json --output - writes to stdout",
          p.returncode == 0 and json.loads(p.stdout)["format"] == "frictionlab-estimator",
          p.stderr)
    check("export json --output - writes no file", listing() == entries)

    # ---- a run that succeeds replaces its output whole, with no temporary left ----
    p = run("simulate", "--model", lugre, "--input", "same.csv", "--output", "out.csv")
    check("simulate over an existing output", p.returncode == 0 and
          open(os.path.join(work, "out.csv")).read().startswith("t,v,F,z\n"), p.stderr)
    check("no temporary file left", not [f for f in os.listdir(work) if ".tmp-" in f])
    streams_and_signals(cli, lugre, expect)
    return cli.finish()


def streams_and_signals(cli, lugre, expect):
    """Streams are written as streams, never replaced; an interrupted run leaves no temporary
    file (docs/file-formats.md, "Output files")."""
    work, check, run = cli.work, cli.check, cli.run
    sim = ["simulate", "--model", lugre, "--input", "same.csv", "--output"]

    # A FIFO: its reader gets the CSV, and it is still a FIFO afterwards.
    fifo = os.path.join(work, "ff")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    p = run(*sim, "ff")
    reader.join(timeout=60)
    check("simulate --output FIFO: the reader gets the CSV", p.returncode == 0 and got and
          got[0].startswith(b"t,v,F,z\n"), p.stderr)
    check("simulate --output FIFO: still a FIFO", stat.S_ISFIFO(os.lstat(fifo).st_mode))

    # /dev/null stays the device (never risked: the test stops if it is not one).
    if stat.S_ISCHR(os.stat("/dev/null").st_mode):
        p = run(*sim, "/dev/null", "--plot", "p.svg")
        check("simulate --output /dev/null", p.returncode == 0, p.stderr)
        check("/dev/null is still a character device", stat.S_ISCHR(os.stat("/dev/null").st_mode))
        os.remove(os.path.join(work, "p.svg"))

    # A pipe named /dev/fd/N, as a shell's >(cmd) gives it.
    r, w = os.pipe()
    proc = subprocess.Popen([cli.binary, *sim, f"/dev/fd/{w}"], cwd=work, pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        piped = f.read()
    proc.wait(timeout=60)
    check("simulate --output /dev/fd/N writes into the pipe",
          proc.returncode == 0 and piped.startswith(b"t,v,F,z\n"), proc.stderr.read())

    # A stream that cannot be written is found before the work (a 100-start fit).
    p = run(*sim, "rec.csv")
    expect("fit --report to a descriptor that is not open",
           ["fit", "--input", "rec.csv", "--velocity", "v", "--force", "F", "--starts", "100",
            "--out", "fo", "--report", "/dev/fd/9"],
           "frictionlab: error: /dev/fd/9: cannot write: No such file or directory")

    # SIGINT / SIGTERM while the results are in their temporary files: the set's files are
    # written to temporaries first, then the --report FIFO (no reader: the run waits there).
    os.mkfifo(os.path.join(work, "report.fifo"))
    for sig in (signal.SIGINT, signal.SIGTERM):
        out = os.path.join(work, "fs")
        proc = subprocess.Popen([cli.binary, "fit", "--input", "rec.csv", "--velocity", "v",
                                 "--force", "F", "--out", "fs", "--report", "report.fifo"],
                                cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        temps = []
        while time.monotonic() < deadline and not temps and proc.poll() is None:
            temps = [f for f in os.listdir(out)] if os.path.isdir(out) else []
            time.sleep(0.01)
        time.sleep(0.2)  # every temporary of the set written
        proc.send_signal(sig)
        proc.wait(timeout=60)
        left = os.listdir(out) if os.path.isdir(out) else []
        check(f"{sig.name} during the write: the temporary files existed", bool(temps))
        check(f"{sig.name} during the write: killed by the signal", proc.returncode == -sig,
              f"exit {proc.returncode}")
        check(f"{sig.name} during the write: nothing left in the results directory", left == [],
              f"{left}")
        shutil.rmtree(out, ignore_errors=True)
    check("the report FIFO is still a FIFO",
          stat.S_ISFIFO(os.lstat(os.path.join(work, "report.fifo")).st_mode))
    for f in ("ff", "rec.csv", "report.fifo"):
        os.remove(os.path.join(work, f))


if __name__ == "__main__":
    sys.exit(main())
