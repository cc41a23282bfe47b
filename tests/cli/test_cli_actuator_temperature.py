#!/usr/bin/env python3
"""frictionlab fit-actuator --temperature-law end to end (docs/actuators.md, "Temperature-dependent
friction"):
- a log without 'temp' is an error naming the file, for fit-actuator and for eval-actuator with a
  temperature model; --temperature-viscous needs --temperature-law;
- on the shared XL330 logs (their entries carry 'temp'): the models are fitted without and with
  the law (m1, m1+T), the temperature model's training error is never above the plain one's, its
  parameter file carries the law and eval-actuator re-simulates with each log's temperature to the
  fit's own training error; summary.json holds the check (T_ref, spread, the correlation with kp:
  confounded, 27 .. 40 degC rising with kp) and the verdict compares both errors;
- the kp 100 logs alone (27 .. 29 degC) do not determine kT: no temperature model, the verdict
  says what to record.
Without ../shared the shared-data checks are skipped (the error paths still run)."""
import json
import os
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402


def entries(n, temp=None):
    out = []
    for k in range(n):
        e = {"position": 0.0, "goal_position": 0.2, "timestamp": 0.005 * k, "torque_enable": True}
        if temp is not None:
            e["temp"] = temp + 0.01 * k
        out.append(e)
    return out


def error_paths(cli):
    work = cli.work
    warm, cold = os.path.join(work, "warm"), os.path.join(work, "cold")
    for d, temp in ((warm, 30.0), (cold, None)):
        os.makedirs(d)
        with open(os.path.join(d, "log.json"), "w", encoding="utf-8") as f:
            json.dump({"mass": 0.49, "length": 0.1, "kp": 400, "vin": 7.4, "dt": 0.005,
                       "motor": "xl330", "entries": entries(50, temp)}, f)
    no_temp = os.path.join(cold, "log.json")
    cli.expect_error("fit-actuator --temperature-law: a log without temp names the file",
                     ["fit-actuator", "--logs", warm, cold, "--models", "m1", "--validate",
                      "none", "--trials", "10", "--temperature-law", "linear", "--out",
                      os.path.join(work, "fit_no_temp")],
                     f"frictionlab: error: {no_temp}: no 'temp' in the log: a temperature law is "
                     "fitted to logs that record the temperature of every entry")
    cli.expect_error("--temperature-viscous needs --temperature-law",
                     ["fit-actuator", "--logs", warm, "--temperature-viscous", "--out",
                      os.path.join(work, "fit_viscous")],
                     "frictionlab: error: --temperature-viscous: needs --temperature-law")
    params = cli.write("m1+T.json", json.dumps({
        "kt": 0.4, "R": 4.0, "armature": 0.002, "q_offset": 0.0, "friction_base": 0.01,
        "friction_viscous": 0.004, "temperature_law": "linear", "T_ref": 30.0, "kT": -0.01,
        "kT_v": 0.0, "model": "m1", "actuator": "xl330"}))
    p = cli.run("eval-actuator", "--params", params, "--logs", warm)
    cli.check("eval-actuator with a temperature model on a log with temp", p.returncode == 0,
              p.stderr)
    cli.expect_error("eval-actuator: a temperature model on a log without temp names the file",
                     ["eval-actuator", "--params", params, "--logs", cold],
                     f"frictionlab: error: {no_temp}: no 'temp' in the log: the parameters' "
                     "linear temperature law (kT = -0.01 1/K, kT_v = 0 1/K, T_ref = 30 degC) needs "
                     "the temperature of every entry (record 'temp', or use parameters without a "
                     "temperature law)")


def summary_of(path):
    with open(os.path.join(path, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def xl330(cli, logs):
    work = cli.work
    # train on kp 100, 400, 800 (27 .. 40 degC), validate on kp 200
    out = os.path.join(work, "xl330_T")
    p = cli.run("fit-actuator", "--logs", logs, "--models", "m1", "--validate", "kp=200",
                "--trials", "300", "--threads", "2", "--temperature-law", "linear", "--out", out)
    cli.check("fit-actuator --temperature-law linear on the XL330 logs", p.returncode == 0,
              p.stderr)
    if p.returncode != 0:
        return
    s = summary_of(out)
    rows = {r["model"]: r for r in s["models"]}
    cli.check("both m1 and m1+T, one more parameter", sorted(rows) == ["m1", "m1+T"]
              and rows["m1+T"]["n_parameters"] == rows["m1"]["n_parameters"] + 1, str(rows))
    cli.check("the nested rule: m1+T trains no worse than m1",
              rows["m1+T"]["train_mae"] <= rows["m1"]["train_mae"], str(rows))
    t = s["temperature"]
    cli.check("summary's temperature check: linear law, confounded with kp, determined",
              t["law"] == "linear" and t["confounded"] and not t["undetermined"]
              and t["spread"] > 5 and t["kp_correlation"] > 0.8 and 27 < t["T_min"] < 29
              and 39 < t["T_max"] < 40.5 and 30 < t["T_ref"] < 34, str(t))
    cli.check("the table names m1+T and the law's temperatures",
              "\nm1+T " in p.stdout and "linear temperature law (kT): logs at " in p.stdout,
              p.stdout)
    reasons = [r for r in s["verdict"]["reasons"] if r["rule"] == "temperature"]
    cli.check("the verdict compares m1+T with m1 and flags the confounding",
              any("m1+T (linear law, T_ref " in r["text"] and " for m1 (" in r["text"]
                  for r in reasons)
              and any(r["text"].startswith("confounded: the logs' mean temperature rises with kp")
                      for r in reasons), json.dumps(s["verdict"]))
    with open(os.path.join(out, "m1+T.json"), encoding="utf-8") as f:
        law = json.load(f)
    cli.check("m1+T.json carries the law", law["temperature_law"] == "linear"
              and law["T_ref"] == t["T_ref"] and law["kT_v"] == 0.0 and law["model"] == "m1", law)
    ev = os.path.join(work, "eval_T.json")
    q = cli.run("eval-actuator", "--params", os.path.join(out, "m1+T.json"), "--logs", logs,
                "--kp", "100,400,800", "--json", ev)
    cli.check("eval-actuator re-simulates m1+T.json", q.returncode == 0, q.stderr)
    if q.returncode == 0:
        with open(ev, encoding="utf-8") as f:
            pooled = json.load(f)["params"][0]["pooled"]
        cli.check("eval-actuator's pooled MAE is fit-actuator's training MAE of m1+T",
                  abs(pooled / rows["m1+T"]["train_mae"] - 1) < 1e-12,
                  f"{pooled} vs {rows['m1+T']['train_mae']}")
    # the kp 100 logs: 27 .. 29 degC, too little to determine kT
    cold = os.path.join(work, "xl330_kp100")
    p = cli.run("fit-actuator", "--logs", logs, "--kp", "100", "--models", "m1", "--validate",
                "none", "--trials", "30", "--threads", "1", "--temperature-law", "exponential",
                "--out", cold)
    cli.check("fit-actuator on the kp 100 logs", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        s = summary_of(cold)
        reasons = [r for r in s["verdict"]["reasons"] if r["rule"] == "temperature"]
        cli.check("kp 100 alone: undetermined, no temperature model, what to record",
                  s["temperature"]["undetermined"] and [r["model"] for r in s["models"]] == ["m1"]
                  and len(reasons) == 1 and reasons[0]["grade"] == "doubtful"
                  and reasons[0]["text"].startswith("undetermined: the training logs' temperature "
                                                    "spans ")
                  and "record the same kp and trajectories over a wider temperature range"
                  in reasons[0]["hint"], json.dumps(s))


def main():
    cli = Cli(timeout=600)
    error_paths(cli)
    shared = os.path.join(os.path.dirname(cli.source), "shared", "data", "servo_xl330", "logs")
    if not os.path.isdir(shared):
        print("skipped: no shared data at " + shared)
    else:
        xl330(cli, shared)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
