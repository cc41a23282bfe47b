#!/usr/bin/env python3
"""frictionlab fit-actuator / eval-actuator end to end (docs/actuators.md):
- eval-actuator on the shared XL330 logs with the reference package's parameter files writes the
  reference package's own per-log MAE (reference_mae.json) to within 1e-4 relative;
- fit-actuator (small budget) writes one BAM parameter file per model that eval-actuator reads,
  a summary with a recommendation, and its table; its training error is that of eval-actuator;
- error paths: exit status 1 and a first error line naming the file, entry, key or option.
Without ../shared the shared-data checks are skipped (the error paths still run)."""
import json
import math
import os
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402


def main():
    cli = Cli(timeout=300)
    work = cli.work
    check, write, run, expect_error = cli.check, cli.write, cli.run, cli.expect_error
    shared = os.path.join(os.path.dirname(cli.source), "shared", "data", "servo_xl330")
    # ---- error paths (no shared data needed) ----
    entry = '{"position": 0, "goal_position": 0.1, "timestamp": %s, "torque_enable": true}'
    raw = write("raw.json", '{"mass": 0.49, "length": 0.1, "kp": 100, "vin": 7.4, "motor": '
                '"xl330", "entries": [' + entry % "0.001" + "," + entry % "0.006" + "]}")
    bad = write("bad.json", '{"mass": 0.49, "length": 0.1, "kp": 100, "dt": 0.005, "entries": ['
                + entry % "0" + ', {"position": 0, "timestamp": 0.005, "torque_enable": true}]}')
    params = write("m1.json", json.dumps({
        "kt": 0.4, "R": 4.0, "armature": 0.002, "q_offset": 0.0, "friction_base": 0.01,
        "friction_viscous": 0.004, "model": "m1", "actuator": "xl330"}))
    expect_error("raw log needs --resample", ["eval-actuator", "--params", params, "--logs", raw],
                 f"frictionlab: error: {raw}: raw log (no 'dt'): give --resample DT (e.g. 0.005) "
                 "to resample it")
    p = run("eval-actuator", "--params", params, "--logs", raw, "--resample", "0.005")
    check("raw log with --resample", p.returncode == 0 and "raw.json" in p.stdout, p.stderr)
    expect_error("log entry error names entry and key",
                 ["eval-actuator", "--params", params, "--logs", bad],
                 f"frictionlab: error: {bad}: entry 1: key 'goal_position': missing")
    no_kv = write("m1_bad.json", json.dumps({
        "kt": 0.4, "R": 4.0, "armature": 0.002, "q_offset": 0.0, "friction_base": 0.01,
        "model": "m1", "actuator": "xl330"}))
    expect_error("parameter file error names the parameter",
                 ["eval-actuator", "--params", no_kv, "--logs", raw, "--resample", "0.005"],
                 f"frictionlab: error: {no_kv}: parameter 'friction_viscous': missing (model m1)")
    expect_error("unknown model", ["fit-actuator", "--logs", raw, "--resample", "0.005",
                                   "--models", "m1,m9"],
                 "frictionlab: error: --models: unknown model 'm9' (m1 .. m6)")
    expect_error("bad validation", ["fit-actuator", "--logs", raw, "--resample", "0.005",
                                    "--validate", "kp"],
                 "frictionlab: error: --validate: expected kp=VALUE, leave-kp-out, kfold=K or "
                 "none, got 'kp'")
    expect_error("no log of the validation kp",
                 ["fit-actuator", "--logs", raw, "--resample", "0.005", "--validate", "kp=200",
                  "--out", os.path.join(work, "none")],
                 "frictionlab: error: validation: no log with kp = 200")

    # ---- findings several logs share: one line with counts (actuator check, --resample) ----
    many = os.path.join(work, "many")
    os.makedirs(many)
    for i in range(5):
        entries = [{"position": 0.0, "goal_position": 0.3 * math.sin(2 * k * 0.005), "speed": 0.0,
                    "timestamp": k * 0.005, "torque_enable": True, "input_volts": 7.4,
                    "current": 10.0} for k in range(200)]
        with open(os.path.join(many, f"log{i}.json"), "w", encoding="utf-8") as f:
            json.dump({"mass": 0.49, "length": 0.1, "kp": 400, "vin": 15.0, "dt": 0.005,
                       "motor": "xl330", "max_torque": 50.0, "entries": entries}, f)
    p = run("actuator", "check", "xl330", many, "--evaluations", "30", "--threads", "1")
    lines = [x for x in p.stdout.splitlines() if x.startswith("warning: ")]
    head = "in 5 of 5 logs (log0.json, log1.json, log2.json, ...): "
    check("actuator check on 5 logs: exit 0", p.returncode == 0, p.stderr)
    for what in ["supply", "current", "max_torque"]:
        mine = [x for x in lines if x.startswith(f"warning: {what}: ")]
        check(f"actuator check: one {what} line for the 5 logs, with counts and names",
              len(mine) == 1 and mine[0].startswith(f"warning: {what}: " + head), p.stdout)
    # a constant the description borrows (sts3215-12v's max_pwm) is stated by check and fit
    unpub = ("control.max_pwm = 0.97 - of actuator 'sts3215-12v' is not published for this servo "
             "(not published for the 12 V version: borrowed from BAM's")
    p = run("actuator", "check", "sts3215-12v", many, "--evaluations", "30", "--threads", "1")
    check("actuator check sts3215-12v: the borrowed max_pwm is a note",
          p.returncode == 0 and "note:    unpublished: " + unpub in p.stdout, p.stdout + p.stderr)
    p = run("fit-actuator", "--logs", many, "--actuator", "sts3215-12v", "--models", "m1",
            "--validate", "none", "--trials", "30", "--threads", "1",
            "--out", os.path.join(work, "sts_fit"))
    check("fit-actuator sts3215-12v: the borrowed max_pwm is stated",
          p.returncode == 0 and "frictionlab: warning: " + unpub in p.stderr, p.stderr)
    # the logs' warnings (here: resampled again) are in summary.json with the fit's
    p = run("fit-actuator", "--logs", many, "--actuator", "sts3215-12v", "--models", "m1",
            "--validate", "none", "--trials", "30", "--threads", "1", "--resample", "0.01",
            "--out", os.path.join(work, "sts_fit_again"))
    printed = [x[len("frictionlab: warning: "):] for x in p.stderr.splitlines()
               if x.startswith("frictionlab: warning: ")]
    stored = [] if p.returncode != 0 else [
        line for w in json.load(open(os.path.join(work, "sts_fit_again", "summary.json")))["warnings"]
        for line in w.splitlines()]
    check("fit-actuator: every printed warning, the logs' too, is in summary.json",
          p.returncode == 0 and any("resampled again" in w for w in printed) and
          all(w in stored for w in printed), p.stderr + str(stored))
    # logs of a 12 V STS3215 that say 'sts3215' (the 7.4 V version's name): the logged supply
    # chooses the 12 V description, and the run says so (a verdict note, summary.json)
    sts = os.path.join(work, "sts12")
    os.makedirs(sts)
    for i in range(2):
        entries = [{"position": 0.0, "goal_position": 0.3 * math.sin(2 * k * 0.005),
                    "timestamp": k * 0.005, "torque_enable": True, "input_volts": 11.9 + 0.1 * i}
                   for k in range(100)]
        with open(os.path.join(sts, f"log{i}.json"), "w", encoding="utf-8") as f:
            json.dump({"mass": 0.49, "length": 0.1, "kp": 32, "vin": 15.0, "dt": 0.005,
                       "motor": "sts3215", "entries": entries}, f)
    choice = ("the logs' motor 'sts3215' names versions for several supplies (7.4 V 'sts3215', 12 V "
              "'sts3215-12v'); their input_volts average 11.95 V: 'sts3215-12v' is used")
    p = run("fit-actuator", "--logs", sts, "--models", "m1", "--validate", "none", "--trials", "30",
            "--threads", "1", "--out", os.path.join(work, "sts12_fit"))
    check("fit-actuator: the logged supply chooses sts3215-12v and says so",
          p.returncode == 0 and p.stdout.startswith("actuator sts3215-12v, 2 logs")
          and "note: " + choice + " (--actuator NAME to choose)\n" in p.stdout
          and json.load(open(os.path.join(work, "sts12_fit", "summary.json")))["actuator_choice"] == choice,
          p.stdout + p.stderr)
    # a parameter file of the kscalelabs tools names the 12 V version 'sts3215v12'
    kscale = write("kscale_m1.json", json.dumps({
        "kt": 2.0, "R": 8.0, "armature": 0.02, "q_offset": 0.0, "friction_base": 0.05,
        "friction_viscous": 0.1, "model": "m1", "actuator": "sts3215v12"}))
    p = run("eval-actuator", "--params", kscale, "--logs", sts)
    check("eval-actuator reads a parameter file naming 'sts3215v12'", p.returncode == 0, p.stderr)
    p = run("eval-actuator", "--params", params, "--logs", many, "--resample", "0.01")
    again = [x for x in p.stderr.splitlines() if "resampled again" in x]
    check("--resample of 5 processed logs: one warning line",
          p.returncode == 0 and again == ["frictionlab: warning: 5 of 5 logs already at a fixed "
                                          "step (dt = 0.005) resampled again to 0.01: "
                                          + ", ".join(os.path.join(many, f"log{i}.json")
                                                      for i in range(3)) + ", ..."],
          p.stderr)

    # ---- shared data ----
    if not os.path.exists(os.path.join(shared, "reference_mae.json")):
        print("skipped: no shared data at " + shared)
    else:
        logs = os.path.join(shared, "logs")
        out = os.path.join(work, "ref_mae.json")
        p = run("eval-actuator", "--params", os.path.join(shared, "reference_params"), "--logs",
                logs, "--json", out)
        check("eval-actuator on the reference parameters", p.returncode == 0, p.stderr)
        if p.returncode == 0:
            ours = json.load(open(out))
            names = [l["log"] for l in ours["logs"]]
            mae = {p["label"]: dict(zip(names, p["mae"])) for p in ours["params"]}
            ref = json.load(open(os.path.join(shared, "reference_mae.json")))["logs"]
            check("every reference log evaluated", sorted(names) == sorted(ref), names)
            worst = 0.0
            for m in ["m1", "m2", "m3", "m4", "m5", "m6"]:
                for f, row in ref.items():
                    worst = max(worst, abs(mae[m][f] / row[m] - 1.0))
            check(f"reference per-log MAE reproduced (worst relative difference {worst:.2e})",
                  worst < 1e-4)
        fit_dir = os.path.join(work, "fit")
        p = run("fit-actuator", "--logs", logs, "--kp", "100,200", "--models", "m1,m3",
                "--validate", "kp=200", "--trials", "300", "--threads", "2", "--out", fit_dir,
                "--verbose")
        check("fit-actuator runs", p.returncode == 0, p.stderr)
        if p.returncode == 0:
            summary = json.load(open(os.path.join(fit_dir, "summary.json")))
            check("summary has both models and a recommendation",
                  [r["model"] for r in summary["models"]] == ["m1", "m3"]
                  and summary["recommended"] in ("m1", "m3"), json.dumps(summary))
            check("table printed", "validation MAE" in p.stdout and "recommended:" in p.stdout,
                  p.stdout)
            check("--verbose: progress on stderr", "fitting m3 [kp=200]" in p.stderr, p.stderr)
            rows = [r for r in (x.split() for x in p.stdout.splitlines())
                    if len(r) == 6 and r[0] in ("m1", "m3")]
            check("the time column shows the fits' wall times (not 0.0)",
                  len(rows) == 2 and all(float(r[-1]) > 0 for r in rows), p.stdout)
            rec = summary["recommended"]
            check("the recommended model's estimates with units",
                  f"{rec}: kt " in p.stdout and " N m/A, R " in p.stdout and " ohm, " in p.stdout,
                  p.stdout)
            check("both measures named: the mean of the per-log MAEs beside the pooled",
                  f"{rec} per log, the mean of the per-log MAEs (eval-actuator's 'mean'): training "
                  f"{summary['train_log_mean']:.5f}, validation {summary['validation_log_mean']:.5f} rad"
                  in p.stdout, p.stdout)
            check("the verdict line, as summary.json's",
                  "verdict: " + summary["verdict"]["line"] + "\n" in p.stdout, p.stdout)
            # the written parameter files give eval-actuator the fit's training error
            q = run("eval-actuator", "--params", os.path.join(fit_dir, "m1.json"), "--logs", logs,
                    "--kp", "100", "--json", os.path.join(work, "m1_eval.json"))
            check("eval-actuator reads the fitted file", q.returncode == 0, q.stderr)
            if q.returncode == 0:
                per_log = json.load(open(os.path.join(work, "m1_eval.json")))["params"][0]["mae"]
                m1 = summary["models"][0]
                mean = sum(per_log) / len(per_log)
                # the training logs (kp 100) have 1201, 1201, 1201 and 1200 entries: the pooled
                # training MAE and the mean of per-log MAE agree to about 1e-3 relative
                check("training MAE equals eval-actuator's",
                      abs(mean / m1["train_mae"] - 1) < 2e-3, f"{mean} vs {m1['train_mae']}")
                pooled = json.load(open(os.path.join(work, "m1_eval.json")))["params"][0]["pooled"]
                check("eval-actuator's pooled MAE is fit-actuator's training MAE",
                      abs(pooled / m1["train_mae"] - 1) < 1e-12, f"{pooled} vs {m1['train_mae']}")
            # --report: its path is printed; eval-actuator prints the verdict and both measures
            p = run("fit-actuator", "--logs", logs, "--kp", "100,200", "--models", "m1",
                    "--validate", "kp=200", "--trials", "30", "--threads", "1", "--out",
                    os.path.join(work, "fit_report"), "--report", os.path.join(work, "fit.html"))
            check("fit-actuator --report prints the report's path",
                  p.returncode == 0 and "report: " + os.path.join(work, "fit.html") + "\n" in p.stdout,
                  p.stdout + p.stderr)
            q = run("eval-actuator", "--params", os.path.join(shared, "reference_params"), "--logs",
                    logs, "--kp", "200")
            # the reference fits on kp 200: m3 lowest, m4 and m6 within 2 % of it
            check("eval-actuator: mean and pooled rows, the verdict and its notes",
                  q.returncode == 0 and "\npooled " in q.stdout and "\nlowest mean: m3\nverdict: good\n"
                  "note: m3 is not clearly better than m4: mean MAE 0.0609 against 0.0616 rad (within "
                  "2 %): these logs do not separate them" in q.stdout, q.stdout)

    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
