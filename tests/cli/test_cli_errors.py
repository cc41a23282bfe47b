#!/usr/bin/env python3
"""Error paths of the frictionlab command line: exit status 1 and a message
"frictionlab: error: ..." naming FILE:LINE:COLUMN (CSV, JSON syntax) or the parameter (JSON);
command-line syntax errors exit non-zero with CLI11's status; nothing is written on error."""
import json
import math
import os
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402


def main():
    cli = Cli(timeout=120)
    work = cli.work
    check, write, run, expect_error = cli.check, cli.write, cli.run, cli.expect_error

    out = os.path.join(work, "out.csv")
    lugre = cli.example("lugre.json")
    sine = cli.example("sine_velocity.csv")

    def simulate_error(name, model, inp, stderr_line, *extra):
        """`simulate --model MODEL --input INP --output out EXTRA` must fail (status 1) with
        `stderr_line` as its first error line, and write nothing."""
        expect_error(name, ["simulate", "--model", model, "--input", inp, "--output", out,
                            *extra], stderr_line, out)

    # ---- CSV input: (name, file, its content, the error after "frictionlab: error: FILE") ----
    for name, fname, text, error in [
            ("malformed CSV cell", "bad.csv", "# a comment\nt,v\n0,0\n0.01,1.0abc\n",
             ":4:2: not a number: '1.0abc' (column 'v')"),
            ("CSV row with a missing field", "short.csv", "t,v\n0,0\n0.01\n",
             ":3:2: expected 2 fields (t, v), found 1"),
            ("NaN cell", "nan.csv", "t,v\n0,0\n0.01,nan\n",
             ":3:2: non-finite value 'nan' (column 'v')"),
            ("non-increasing time", "time.csv", "t,v\n0,0\n0.01,1\n0.01,2\n",
             ":4:1: column 't' must be strictly increasing: 0.01 follows 0.01 (line 3)"),
            ("missing time column", "notime.csv", "time,v\n0,0\n1,1\n",
             ":1: no column 't' (columns found: time, v)"),
            ("both v and x", "both.csv", "t,v,x\n0,0,0\n1,1,1\n",
             ":1: has both a 'v' and an 'x' column; give one: t,v (velocity-driven) or t,x "
             "(displacement-driven)"),
            ("one row", "one.csv", "t,v\n0,0\n", ": needs at least 2 data rows, found 1")]:
        path = write(fname, text)
        simulate_error(name, lugre, path, f"frictionlab: error: {path}{error}")
    missing = os.path.join(work, "missing.csv")
    simulate_error("missing input file", lugre, missing,
                   f"frictionlab: error: {missing}: cannot open: No such file or directory")

    # ---- MODEL.json ----
    unknown = write("unknown.json", '{"model": "lugr"}')
    simulate_error("unknown model", unknown, sine,
                   f"frictionlab: error: {unknown}: unknown model 'lugr' (known models: coulomb, "
                   "viscous, coulomb-viscous, stribeck, lugre, dahl, elasto-plastic, "
                   "maxwell-slip, modified-stribeck, gms, joint-lugre)")
    badp = write("badp.json", '{"model": "lugre", "params": {"sigma0": -1, "Fc": 0}}')
    simulate_error("bad parameter named", badp, sine,
                   f"frictionlab: error: {badp}: parameter 'sigma0': must be > 0, got -1")
    p = run("simulate", "--model", badp, "--input", sine, "--output", out)
    check("every bad parameter listed, one per line",
          p.stderr.splitlines()[1:] == [
              f"frictionlab: error: {badp}: parameter 'Fc': must be > 0, got 0"], p.stderr)
    key = write("key.json", '{"model": "dahl", "params": {"sigma1": 1}}')
    simulate_error("unknown parameter", key, sine,
                   f"frictionlab: error: {key}: parameter 'sigma1': unknown parameter for model "
                   "'dahl' (allowed: sigma0, Fc, n)")
    syntax = write("syntax.json", '{\n  "model": "lugre",\n  "params": {"sigma0": 1e5,}\n}\n')
    p = run("simulate", "--model", syntax, "--input", sine, "--output", out)
    check("JSON syntax error position", p.returncode == 1 and p.stderr.startswith(
        f"frictionlab: error: {syntax}:3:28: JSON syntax error: "), p.stderr)

    # ---- integrators and options ----
    ms = cli.example("maxwell_slip.json")
    simulate_error("unsupported integrator", ms, sine,
                   f"frictionlab: error: model 'maxwell-slip' ({ms}) does not support "
                   "--integrator rk4 (supported: exact)", "--integrator", "rk4")
    simulate_error("system integrator with --model", lugre, sine,
                   "frictionlab: error: --integrator cvode applies to --system; with --model use "
                   "exact, implicit-euler, euler or rk4", "--integrator", "cvode")
    disp = cli.example("sine_displacement.csv")
    simulate_error("--hold linear with a displacement input", ms, disp,
                   "frictionlab: error: --hold linear does not apply to a displacement input "
                   "(t,x): x is interpolated linearly, so the velocity is constant over each "
                   "sample interval (zoh)", "--hold", "linear")
    # Forward Euler at 10 ms, LuGre at 50 mm/s: a h = 50, |1 - a h|^k overflows within 2 s.
    fast = write("fast.csv", "t,v\n" + "".join(f"{k / 100},0.05\n" for k in range(300)))
    p = run("simulate", "--model", lugre, "--input", fast, "--output", out, "--integrator", "euler")
    check("forward Euler overflow is an error, not a file of NaN",
          p.returncode == 1 and "frictionlab: error: --integrator euler diverged: the result is "
          "not finite from t = " in p.stderr and not os.path.exists(out), p.stderr)
    # ... where it stays finite but passes the force limit 1e15 N (t = 0.72 s): an error too.
    p = run("simulate", "--model", lugre, "--input", sine, "--output", out, "--integrator", "euler")
    check("forward Euler beyond the force limit is an error",
          p.returncode == 1 and "frictionlab: error: the friction force reaches -2.74012e+15 N at "
          "t = 0.72 s" in p.stderr and not os.path.exists(out), p.stderr)
    # ... and where it only leaves the state bound (the first 0.23 s, |F| < 3e4 N): a warning,
    # the file is written.
    with open(sine) as f:
        head = write("sine_head.csv", "".join(f.readlines()[:26]))
    p = run("simulate", "--model", lugre, "--input", head, "--output", out, "--integrator", "euler")
    check("forward Euler leaving the state bound is a warning",
          p.returncode == 0 and "frictionlab: warning: the state left its invariant bound |z| <= "
          "1.5e-05 m from t = " in p.stderr and os.path.exists(out), p.stderr)
    os.remove(out)
    stick = cli.example("stick_slip.json")
    expect_error("--system does not match the file",
                 ["simulate", "--system", "joint", "--params", stick, "--output", out],
                 f"frictionlab: error: {stick}: describes the system 'stick-slip', but --system "
                 "joint was given", out)
    expect_error("--rtol with rosenbrock",
                 ["simulate", "--system", "stick-slip", "--params", stick, "--output", out,
                  "--rtol", "1e-6"],
                 "frictionlab: error: --rtol applies to --integrator cvode only", out)
    p = run("simulate", "--system", "stick-slip", "--params", stick, "--output", out,
            "--dt", "0.003")
    check("system option rejected by the library names the flag",
          p.returncode == 1 and "frictionlab: error: stick-slip: parameter 'h' must divide t_end"
          in p.stderr and "--dt sets h" in p.stderr and not os.path.exists(out), p.stderr)
    gmsf = write("gms_sys.json", '{"system": "stick-slip", "friction": {"model": "gms"}}')
    expect_error("system with an uncoupled friction model",
                 ["simulate", "--system", "stick-slip", "--params", gmsf, "--output", out],
                 f"frictionlab: error: {gmsf}: friction: model 'gms' cannot be coupled to a "
                 "mechanical system (supported: lugre, dahl, elasto-plastic)", out)
    expect_error("unwritable output",
                 ["simulate", "--model", lugre, "--input", sine, "--output",
                  "/nonexistent/dir/out.csv"],
                 "frictionlab: error: /nonexistent/dir/out.csv: the directory /nonexistent/dir "
                 "does not exist")

    # ---- fit ----
    fit_out = os.path.join(work, "fit_out")
    short_rec = write("short_record.csv", "t,v,F\n0,0.1,1\n0.01,0.2,1.1\n0.02,0.1,1.0\n")
    expect_error("fit: missing column", ["fit", "--input", short_rec, "--velocity", "speed",
                                         "--force", "F", "--out", fit_out],
                 f"frictionlab: error: {short_rec}:1: no column 'speed' (columns found: t, v, F)",
                 fit_out)
    expect_error("fit: too short a record", ["fit", "--input", short_rec, "--velocity", "v",
                                             "--force", "F", "--out", fit_out],
                 f"frictionlab: error: {short_rec}: the record has 3 samples; at least 20 are "
                 "required", fit_out)
    nan_rec = write("nan_record.csv", "t,v,F\n0,0.1,1\n0.01,0.2,nan\n")
    expect_error("fit: NaN in the record", ["fit", "--input", nan_rec, "--velocity", "v",
                                            "--force", "F", "--out", fit_out],
                 f"frictionlab: error: {nan_rec}:3:3: non-finite value 'nan' (column 'F')",
                 fit_out)
    p = run("fit", "--input", short_rec, "--velocity", "v", "--force", "F", "--model", "foo",
            "--out", fit_out)
    check("fit: unknown model", p.returncode == 1 and
          "frictionlab: error: unknown model 'foo'; known: coulomb," in p.stderr, p.stderr)

    # ---- compare ----
    cmp_out = os.path.join(work, "compare_out")
    p = run("compare", "--input", sine, "--velocity", "v", "--force", "v", "--models",
            "stribeck,foo", "--out", cmp_out)
    check("compare: unknown model", p.returncode == 1 and p.stderr.startswith(
        "frictionlab: error: --models: unknown model 'foo'; known: coulomb,")
          and not os.path.exists(cmp_out), p.stderr)
    expect_error("compare: one model", ["compare", "--input", sine, "--velocity", "v",
                                        "--force", "v", "--models", "lugre", "--out", cmp_out],
                 "frictionlab: error: --models: give at least two models to compare, got "
                 "'lugre'", cmp_out)
    expect_error("compare: model listed twice",
                 ["compare", "--input", sine, "--velocity", "v", "--force", "v", "--models",
                  "lugre,stribeck,lugre", "--out", cmp_out],
                 "frictionlab: error: --models: model 'lugre' is listed twice", cmp_out)
    expect_error("compare: empty model name",
                 ["compare", "--input", sine, "--velocity", "v", "--force", "v", "--models",
                  "lugre,,stribeck", "--out", cmp_out],
                 "frictionlab: error: --models: empty model name in 'lugre,,stribeck'", cmp_out)
    expect_error("compare: missing column", ["compare", "--input", short_rec, "--velocity",
                                             "speed", "--force", "F", "--out", cmp_out],
                 f"frictionlab: error: {short_rec}:1: no column 'speed' (columns found: t, v, F)",
                 cmp_out)

    # ---- export xml ----
    xml_out = os.path.join(work, "lugre.xml")
    sensorless_fit = cli.example("sensorless_fit.json")
    missing_fit = os.path.join(work, "missing_fit.json")
    expect_error("export xml: missing file", ["export", "xml", "--params", missing_fit,
                                              "--output", xml_out],
                 f"frictionlab: error: {missing_fit}: cannot open: No such file or directory",
                 xml_out)
    # A MODEL.json given to export xml: test_cli_error_table.py ("export xml: a MODEL.json").
    stribeck_fit = write("stribeck_fit.json", """{"format": "frictionlab-fit", "version": 1,
 "problem": "sensorless", "method": "lsq", "model_name": "stribeck", "Km": 2,
 "model": {"model": "stribeck", "params": {"Fc": 1, "Fs": 1.5, "vs": 0.1, "sigma2": 0.5}}}""")
    expect_error("export xml: not a LuGre fit", ["export", "xml", "--params", stribeck_fit,
                                                 "--output", xml_out],
                 f"frictionlab: error: {stribeck_fit}: key 'model_name': 'stribeck' is not a "
                 "LuGre model; the LUGRE group needs a fit of --model lugre or lugre-asym",
                 xml_out)
    friction_fit = write("friction_fit.json", """{"format": "frictionlab-fit", "version": 1,
 "problem": "friction", "method": "lsq", "model_name": "lugre",
 "model": {"model": "lugre", "params": {"alpha": 1}}}""")
    expect_error("export xml: friction-problem fit (no Km)",
                 ["export", "xml", "--params", friction_fit, "--output", xml_out],
                 f"frictionlab: error: {friction_fit}: key 'problem': 'friction': the LUGRE "
                 "group needs Km, which only a --problem sensorless fit estimates "
                 "(or give it with --km)", xml_out)
    p = run("export", "xml", "--params", sensorless_fit, "--output", xml_out)
    xml = open(xml_out, encoding="utf-8").read() if os.path.exists(xml_out) else ""
    check("export xml: writes the LUGRE group", p.returncode == 0 and
          '<group name="LUGRE">\n    <param name="Km">      ' in xml and
          xml.endswith("</group>\n"), p.stderr + xml)
    p = run("export", "xml", "--params", sensorless_fit)
    check("export xml: stdout without --output", p.returncode == 0 and p.stdout == xml,
          p.stdout)

    # ---- every warning printed also goes into the result file ----
    def friction_csv(name, times):
        """A coulomb-viscous friction record (v = 0.1 sin(pi k / 100), F = 0.3 sgn v + 0.4 v
        plus a deterministic wobble) at the given times."""
        rows = []
        for k, t in enumerate(times):
            v = 0.1 * math.sin(math.pi * k / 100)
            f = 0.3 * (1 if v > 0 else -1 if v < 0 else 0) + 0.4 * v + 0.01 * math.sin(7.3 * k)
            rows.append(f"{t},{v:.6g},{f:.6g}\n")
        return write(name, "t,v,F\n" + "".join(rows))

    def warnings_of(p, result):
        """The stderr warning lines of run p, and fit.json's warnings split into lines."""
        printed = [line[len("frictionlab: warning: "):] for line in p.stderr.splitlines()
                   if line.startswith("frictionlab: warning: ")]
        with open(result) as f:
            stored = [line for w in json.load(f)["warnings"] for line in w.splitlines()]
        return printed, stored

    fit_cv = ["fit", "--model", "coulomb-viscous", "--velocity", "v", "--force", "F",
              "--no-plots"]
    # time in milliseconds: a 10 s record at 100 Hz written as 0, 10, ..., 9990
    ms = friction_csv("ms.csv", [10 * k for k in range(1000)])
    p = run(*fit_cv, "--input", ms, "--out", os.path.join(work, "fit_ms"))
    printed, stored = warnings_of(p, os.path.join(work, "fit_ms", "fit.json"))
    want = f"{ms}: the time column looks like milliseconds: integer times, median sample step 10"
    check("time in milliseconds: warned, and in fit.json", p.returncode == 0 and
          any(w.startswith(want) for w in printed) and any(w.startswith(want) for w in stored),
          p.stderr)
    check("time in milliseconds: every printed warning is in fit.json",
          printed and all(w in stored for w in printed), f"{printed}\n{stored}")
    # validation on the training file: a fact about the result, the verdict's note (console and
    # fit.json), not a warning
    def notes_of(p, result):
        """The console's note lines of run p, and fit.json's verdict reasons of grade good."""
        printed = [line.strip()[len("note: "):] for line in p.stdout.splitlines()
                   if line.strip().startswith("note: ")]
        with open(result) as f:
            stored = [r["text"] + " (" + r["hint"] + ")" for r in json.load(f)["verdict"]["reasons"]
                      if r["grade"] == "good"]
        return printed, stored

    rec = friction_csv("rec.csv", [k / 100 for k in range(1000)])
    p = run(*fit_cv, "--input", rec, "--validate", rec, "--out", os.path.join(work, "fit_same"))
    warned, _ = warnings_of(p, os.path.join(work, "fit_same", "fit.json"))
    printed, stored = notes_of(p, os.path.join(work, "fit_same", "fit.json"))
    want = (f"validation record {rec} is the training record {rec} (the same file): its "
            f"metrics measure the fit on its own data, not a validation (--validate a record the "
            f"fit has not seen)")
    check("validation on the training file: a verdict note, in fit.json, not a warning",
          p.returncode == 0 and want in printed and want in stored
          and not any("is the training record" in w for w in warned), p.stdout + p.stderr)
    # a copy of the training data under another name: the same samples
    copy = write("copy.csv", open(rec).read())
    p = run(*fit_cv, "--input", rec, "--validate", copy, "--out", os.path.join(work, "fit_copy"))
    printed, _ = notes_of(p, os.path.join(work, "fit_copy", "fit.json"))
    check("validation on a copy of the training data: a verdict note",
          p.returncode == 0 and f"validation record {copy} is the training record {rec} (the "
          f"same samples): its metrics measure the fit on its own data, not a validation "
          f"(--validate a record the fit has not seen)" in printed, p.stdout + p.stderr)
    # resampling across a gap allowed with --max-gap: the record's own largest step in fit.json,
    # and the sampling warning of the record as read (stderr and fit.json)
    gap = friction_csv("gap.csv", [round(k / 100 + (20 - 0.01 if k >= 500 else 0), 2)
                                   for k in range(1000)])
    p = run(*fit_cv, "--input", gap, "--resample", "100", "--max-gap", "30",
            "--out", os.path.join(work, "fit_gap"))
    printed, stored = warnings_of(p, os.path.join(work, "fit_gap", "fit.json"))
    with open(os.path.join(work, "fit_gap", "fit.json")) as f:
        dt_max = json.load(f)["data"]["dt_max_s"]
    check("resampling across an allowed gap: dt_max is the record's gap",
          p.returncode == 0 and abs(dt_max - 20) < 1e-9, f"{dt_max}\n{p.stderr}")
    check("resampling across an allowed gap: the sample step warning is in fit.json",
          any(w.startswith(f"{gap}: the sample step varies") for w in stored) and
          all(w in stored for w in printed), f"{printed}\n{stored}")
    p = run(*fit_cv, "--input", gap, "--resample", "100", "--out", os.path.join(work, "fit_gap2"))
    check("resampling across a gap: refused before the fit, nothing written",
          p.returncode == 1 and f"frictionlab: error: {gap}: sample 501: resampling: a gap of 20 s"
          in p.stderr and not os.path.exists(os.path.join(work, "fit_gap2")), p.stderr)
    # compare.json holds the warnings too
    p = run("compare", "--models", "coulomb,coulomb-viscous", "--velocity", "v", "--force", "F",
            "--input", ms, "--out", os.path.join(work, "cmp_ms"))
    with open(os.path.join(work, "cmp_ms", "compare.json")) as f:
        stored = [line for w in json.load(f)["warnings"] for line in w.splitlines()]
    printed = [line[len("frictionlab: warning: "):] for line in p.stderr.splitlines()
               if line.startswith("frictionlab: warning: ")]
    check("compare: every printed warning is in compare.json", p.returncode == 0 and printed and
          all(w in stored for w in printed), f"{p.stderr}\n{stored}")

    # ---- command-line syntax (CLI11) ----
    for name, argv in [("no subcommand", []),
                       ("unknown option", ["simulate", "--modle", lugre]),
                       ("no mode", ["simulate", "--output", out]),
                       ("--model without --input", ["simulate", "--model", lugre, "--output", out]),
                       ("--model and --system", ["simulate", "--model", lugre, "--input", sine,
                                                 "--system", "joint", "--params", stick,
                                                 "--output", out]),
                       ("bad integrator name", ["simulate", "--model", lugre, "--input", sine,
                                                "--output", out, "--integrator", "heun"]),
                       ("negative --dt", ["simulate", "--model", lugre, "--input", sine,
                                          "--output", out, "--dt", "-1"]),
                       ("non-numeric --dt", ["simulate", "--model", lugre, "--input", sine,
                                             "--output", out, "--dt", "abc"]),
                       ("export without a format", ["export"]),
                       ("export xml without --params", ["export", "xml"]),
                       ("compare: bad criterion", ["compare", "--input", sine,
                                                   "--criterion", "aic"])]:
        p = run(*argv)
        check(f"CLI syntax error: {name}", p.returncode not in (0, 1) and
              not os.path.exists(out), f"exit {p.returncode}\n{p.stderr}")

    # ---- success paths that print to stderr ----
    # the shipped example accepts that it is not passive (its accepted_warnings): quiet
    p = run("simulate", "--model", lugre, "--input", sine, "--output", out)
    check("shipped example quiet, exit 0", p.returncode == 0 and "warning" not in p.stderr
          and os.path.exists(out), p.stderr)
    os.remove(out)
    # the same set without the acceptance warns and runs
    loud = os.path.join(work, "not_passive.json")
    with open(lugre) as f:
        model = json.load(f)
    del model["accepted_warnings"]
    with open(loud, "w") as f:
        json.dump(model, f)
    p = run("simulate", "--model", loud, "--input", sine, "--output", out)
    check("warnings printed, exit 0", p.returncode == 0 and p.stderr.startswith(
        f"frictionlab: warning: {loud}: parameter 'sigma1': the map v -> F is not passive")
          and os.path.exists(out), p.stderr)
    # CVODE's step count says what its largest step (--dt) alone requires
    p = run("simulate", "--system", "stick-slip", "--params", stick, "--output", out,
            "--integrator", "cvode", "--rtol", "1e-6")
    check("cvode: the step count names the cap", p.returncode == 0 and
          "(its step is at most --dt 0.001 s: at least 20000 steps over the 20 s; a larger --dt "
          "lets it take longer ones)" in p.stdout + p.stderr, p.stdout + p.stderr)
    os.remove(out)
    # fit-joint --help describes each of its three methods
    p = run("fit-joint", "--help")
    check("fit-joint --help: idim, sr3 and oe", p.returncode == 0 and all(
        w in p.stdout for w in ("idim (the default: inverse dynamic model",
                                "sr3 (SINDy-SR3 model selection over a friction library",
                                "oe (output-error refinement", "needs --use-velocity")), p.stdout)
    p = run("--version")
    check("--version", p.returncode == 0 and p.stdout.strip().startswith("frictionlab "),
          p.stdout)
    for sub in ([], ["simulate"], ["demo"], ["fit"], ["compare"], ["export"], ["export", "xml"]):
        p = run(*sub, "--help")
        check(f"--help {' '.join(sub)}", p.returncode == 0 and "Usage" in p.stdout, p.stdout)

    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
