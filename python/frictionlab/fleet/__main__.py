"""`frictionlab fleet ...` (the CLI runs `python3 -m frictionlab.fleet ...`; docs/fleet.md).

    frictionlab fleet run CONFIG (--manifest FILE | --root DIR) [--db URL] [--scheduler ADDR]
                          [--workers N] [--retry-failed] [--no-progress]
    frictionlab fleet status [--db URL] [--follow] [--config CONFIG] [--no-analysis]
    frictionlab fleet report [--db URL] [--config CONFIG] --output FILE.html [--csv DIR] [--json FILE]
    frictionlab fleet generate DIR [--robots N] [--sessions N] [--seed N] ...

Every command takes -q/--quiet (only errors and the written files' paths; `run` no progress)
and -v/--verbose (`report` also lists every undetermined parameter with its reason), before or
after its name, as the other frictionlab commands (docs/cli.md, "Exit status and messages").

Exit status: 0 success, 1 an input error (message "frictionlab: error: ..."), 2 a command-line
error (the same message after the usage), 130 interrupted (Ctrl-C: the run is resumable).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time

from . import analysis, report, synthetic
from .config import FleetInputError, read_config
from .engine import run, status
from .evaluation import validation_evaluator
from .files import atomic_write_text
from .store import open_store


def _error(message: str) -> int:
    print(f"frictionlab: error: {message}", file=sys.stderr)
    return 1


def _cmd_run(a) -> int:
    s = run(a.config, manifest=a.manifest, root=a.root, db=a.db, scheduler=a.scheduler,
            workers=a.workers, retry_failed=a.retry_failed,
            progress=False if a.no_progress or a.verbosity == "quiet" else None)
    if a.verbosity == "quiet":
        return 0
    print(s.line())
    for robot, joint, session, error in s.failures:
        print(f"  failed: {robot} {joint} {session}: {error}")
    return 0


def _print_status(st: dict) -> None:
    runs = st["runs"]
    if len(runs) == 0:
        print("no run yet")
        return
    for _, r in runs.iterrows():
        print(f"run {r['run_id']}: {r['status']}, {r['n_tasks']} tasks listed, started "
              f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(r['started_at']))}")
    counts = st["counts"]
    print(("tasks: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) if counts
           else "tasks: none stored")
          + (f" ({st['superseded']} superseded task(s) of earlier configurations or versions of "
             f"the same sessions not counted)" if st.get("superseded") else ""))
    for _, t in st["failures"].iterrows():
        print(f"  failed: {t['robot']} {t['joint']} {t['session']}: {t['error']}")


def _print_sensitivity(db: str, config) -> None:
    """`fleet status`'s analysis lines: per joint type the pooled night-to-night scatter and the
    smallest change the per-night test would flag (analysis.fleet_sensitivity of the drift table
    of the current results)."""
    with open_store(db, readonly=True) as store:
        params = store.parameters()
    params, _ = analysis.current_results(params, config and read_config(config))
    if not len(params):
        return
    sens = analysis.fleet_sensitivity(analysis.drift(params))
    if len(sens):
        print("what the fleet can see, per joint type (night-to-night scatter / smallest change "
              "the drift test would flag; `fleet report` has more):")
        for line in _sensitivity_lines(sens, scatter=True):
            print("  " + line)


def _sensitivity_lines(sens, scatter: bool) -> list:
    """One line per joint type of an analysis.fleet_sensitivity table: its joints, whether they
    were pooled, and per parameter the smallest change the test would flag (with ``scatter``,
    the relative night-to-night scatter before it)."""
    pct = lambda x: report.percent3(100 * x) if math.isfinite(x) else "not tested"  # noqa: E731
    lines = []
    for jt, g in sens.groupby("joint_type", sort=True):
        joints, pooled = int(g["joints"].max()), int(g["pooled"].max())
        how = f"{pooled} pooled" if pooled else "each joint alone"
        lines.append(f"{jt} ({joints} joints, {how}): " + ", ".join(
            f"{r['name']} " + (f"{pct(r['relative_scatter'])} / " if scatter else "")
            + pct(r["detectable"]) for _, r in g.iterrows()))
    return lines


def _cmd_status(a) -> int:
    st = status(a.db, a.config)
    if not a.follow:
        _print_status(st)
        if not a.no_analysis:
            _print_sensitivity(a.db, a.config)
        return 0
    # a live bar of the newest run until it ends
    from tqdm import tqdm
    runs = st["runs"]
    if len(runs) == 0:
        print("no run yet")
        return 0
    newest = runs.sort_values("run_id").iloc[-1]
    bar = tqdm(total=int(newest["n_tasks"]), desc=f"run {newest['run_id']}", unit="task",
               file=sys.stderr)
    while True:
        with open_store(a.db, readonly=True) as store:
            tasks = store.tasks()
            run_row = store.runs().set_index("run_id").loc[newest["run_id"]]
        tasks, _ = analysis.current_results(tasks, a.config and read_config(a.config))
        n = int((tasks["status"].isin(["done", "failed"])).sum()) if len(tasks) else 0
        bar.n = min(n, bar.total)
        bar.refresh()
        if run_row["status"] != "running":
            break
        time.sleep(a.interval)
    bar.close()
    _print_status(status(a.db, a.config))
    if not a.no_analysis:
        _print_sensitivity(a.db, a.config)
    return 0


def _cmd_report(a) -> int:
    config = read_config(a.config) if a.config else None
    with open_store(a.db, readonly=True) as store:
        all_params = store.parameters()
        all_tasks = store.tasks()
        results = store.results(selected_only=True)
    # one result per session: the newest, or with --config the one of that configuration and
    # this frictionlab version (analysis.current_results)
    params, _ = analysis.current_results(all_params, config)
    tasks, superseded = analysis.current_results(all_tasks, config)
    drift = analysis.drift(params)
    trend = analysis.trend(params)
    spread = analysis.spread(params)
    shared = (analysis.shared_check(params, validation_evaluator(config), tasks=tasks)
              if config is not None and len(params) else None)
    verdicts = analysis.verdicts(results, tasks["key"] if len(tasks) else [])
    path = report.write_report(params, tasks, a.output, drift=drift, spread=spread, shared=shared,
                               superseded=superseded, results=results, trend=trend)
    tables = [("parameters", params), ("drift", drift), ("trend", trend), ("spread", spread),
              ("verdicts", verdicts), ("tasks", tasks)]
    if shared is not None:
        tables.append(("shared", shared))
    if a.csv:
        os.makedirs(a.csv, exist_ok=True)
        for name, df in tables:
            atomic_write_text(os.path.join(a.csv, f"{name}.csv"), df.to_csv(index=False))
    if a.json:
        # strict JSON (RFC 8259): NaN and infinities are null (report.table_json's rows)
        atomic_write_text(a.json, json.dumps(
            {name: json.loads(report.table_json(df)) for name, df in tables},
            indent=1, allow_nan=False) + "\n")
    if a.verbosity == "quiet":
        print("\n".join([path] + ([os.path.join(a.csv, f"{name}.csv") for name, _ in tables]
                                  if a.csv else []) + ([a.json] if a.json else [])))
        return 0
    _print_report_summary(path, drift, superseded, a.csv)
    if a.verbosity == "verbose":  # every undetermined parameter with its reason
        for _, r in (analysis.undetermined(drift) if len(drift) else drift).iterrows():
            print(f"  undetermined: {r['robot']} {r['joint']} {r['name']}: "
                  f"{r['reason'].removeprefix('undetermined: ')}")
    _print_trends(trend)
    if shared is not None:
        _print_shared(shared)
    _print_verdicts(verdicts)
    return 0


def _print_trends(trend, shown: int = 10) -> None:
    """`fleet report`'s trend lines: the counts by outcome, then each trending parameter with its
    rate, the rate's interval and when the line is the practical threshold away from its start."""
    n = {o: int((trend["outcome"] == o).sum()) if len(trend) else 0 for o in analysis.TREND_OUTCOMES}
    print(f"trend over the history of {len(trend)} parameter(s): {n['trend']} trending, "
          f"{n['undetermined']} undetermined (too few sessions, or too much scatter to see a trend "
          f"that matters), {n['no trend']} without a trend")
    flagged = trend[trend["flagged"]] if len(trend) else trend
    for _, r in flagged.head(shown).iterrows():
        when = ("beyond the threshold already" if r["sessions_to_threshold"] == 0 else
                f"reaches the threshold in {r['sessions_to_threshold']:.3g} session(s)"
                + (f", about {r['threshold_time'][:10]}" if r["threshold_time"] else ""))
        print(f"  trend: {r['robot']} {r['joint']} {r['name']} {100 * r['rate']:+.2f}% per session "
              f"(95% interval {100 * r['rate_low']:+.2f}% to {100 * r['rate_high']:+.2f}%), "
              f"{100 * r['line_change']:+.1f}% so far; {when}")
    if len(flagged) > shown:
        print(f"  ... {len(flagged) - shown} other trend(s): the report's section \"Trends over the "
              "history\"")


def _print_shared(shared) -> None:
    """`fleet report`'s answer to "must every unit be identified?": one sentence per joint type
    (analysis.shared_recommendation)."""
    rec = analysis.shared_recommendation(shared)
    if len(rec):
        print("one shared parameter set? (the fleet median parameters on each unit's validation "
              "data)")
        for s in rec["sentence"]:
            print(f"  {s}")


def _print_verdicts(verdicts, shown: int = 3) -> None:
    """`fleet report`'s verdict lines: the counts by grade, then the bad and doubtful fits grouped
    by their verdict (the same finding on many sessions is one line with its count)."""
    c = analysis.verdict_counts(verdicts)
    print(f"verdicts of {len(verdicts)} session fit(s): {c['bad']} bad, {c['doubtful']} doubtful, "
          f"{c['good']} good" + (f", {c['none']} recorded before verdicts" if c["none"] else ""))
    worse = verdicts[verdicts["grade"].isin(["bad", "doubtful"])]
    groups = [(len(g), line, g.iloc[0]) for line, g in worse.groupby("verdict", sort=False)]
    groups.sort(key=lambda x: (analysis.GRADES.index(x[2]["grade"]), -x[0]))
    for n, line, first in groups[:shown]:
        line = line if len(line) <= 160 else line[:157] + "..."
        print(f"  {n:4d}  {line} (e.g. {first['robot']} {first['joint']} {first['session']})")
    if len(groups) > shown:
        print(f"  ... {len(groups) - shown} other finding(s): the report's section \"Verdicts on the fits\"")


def _print_report_summary(path: str, drift, superseded: int, csv_dir: str | None) -> None:
    """`fleet report`'s console: the page, the counts by outcome, one line per flagged parameter
    (severity first), and the undetermined counted by cause with the largest unchecked changes
    (the page's section and drift.csv list them all)."""
    c = analysis.drift_counts(drift)
    flagged = drift[drift["flagged"]] if len(drift) else drift
    sev = flagged["severity"].value_counts().to_dict() if len(flagged) else {}
    print(f"report: {path}")
    print(f"drift of {c['parameters']} parameter(s): {c['drift']} flagged"
          + (" (" + ", ".join(f"{sev[k]} {k}" for k in analysis.SEVERITIES if k in sev) + ")" if sev else "")
          + f", {c['undetermined']} undetermined (not checked: the baseline cannot decide), "
          f"{c['no drift']} without drift")
    if superseded:
        print(f"{superseded} superseded result(s) of earlier configurations or versions left out "
              "(one result per session)")
    for _, r in flagged.sort_values("severity", key=lambda s: s.map(
            {k: i for i, k in enumerate(analysis.SEVERITIES)}), kind="mergesort").iterrows():
        print(f"  drift ({r['severity']}): {r['robot']} {r['joint']} {r['name']} {r['relative']:+.1%} "
              f"from the baseline {r['baseline']:.4g} (z = {r['z']:+.3g}, threshold {r['threshold']:.3g}) "
              f"on {r['session_time']}")
    causes = analysis.undetermined_causes(drift)
    if len(causes):
        print("  undetermined, by cause (parameters):")
        for _, r in causes.iterrows():
            print(f"    {r['parameters']:>4}  {r['cause']}")
        worst = analysis.largest_unchecked(drift)
        if len(worst):
            print("  largest unchecked changes: " + ", ".join(
                f"{r['robot']} {r['joint']} {r['name']} {r['relative']:+.1%}" for _, r in worst.iterrows()))
        where = os.path.join(csv_dir, "drift.csv") if csv_dir else "drift.csv (--csv DIR)"
        print(f"  each with its reason: the report's section \"Undetermined\" and {where}")
    sens = analysis.fleet_sensitivity(drift)
    if len(sens):
        print("  smallest change a test would flag, per joint type (the report's \"What the fleet "
              "can see\" has the scatter):")
        for line in _sensitivity_lines(sens, scatter=False):
            print("    " + line)


def _cmd_generate(a) -> int:
    if a.replace and os.path.isdir(a.dir) and os.listdir(a.dir):
        # only a fleet this command wrote: its truth.json says so, and nothing else is there
        truth = os.path.join(a.dir, "truth.json")
        try:
            with open(truth, encoding="utf-8") as f:
                ok = json.load(f).get("format") == "frictionlab-fleet-truth"
        except (OSError, ValueError):
            ok = False
        known = {"fleet.json", "manifest.csv", "truth.json"}
        extra = [n for n in os.listdir(a.dir) if n not in known and
                 not os.path.isdir(os.path.join(a.dir, n))]
        if not ok or extra:
            raise ValueError(f"generate --replace: {a.dir} is not a synthetic fleet written by "
                             "`fleet generate` (no truth.json of it, or other files): not replaced")
        shutil.rmtree(a.dir)
    truth = synthetic.generate(a.dir, robots=a.robots, sessions=a.sessions, seed=a.seed,
                               seconds=a.seconds, corrupt=a.corrupt)
    if a.verbosity == "quiet":
        print("\n".join(os.path.join(a.dir, n) for n in ("fleet.json", "manifest.csv", "truth.json")))
        return 0 if truth is not None else 1
    print(f"{a.dir}: a synthetic fleet ({a.robots} robots, {a.sessions} sessions per joint); "
          f"configuration {os.path.join(a.dir, 'fleet.json')}, manifest "
          f"{os.path.join(a.dir, 'manifest.csv')}, truth {os.path.join(a.dir, 'truth.json')}")
    return 0 if truth is not None else 1


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's error line ("frictionlab: error: ..."), exit status 2."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, f"frictionlab: error: {self.prog}: {message}\n")


def _add_verbosity(parser, default) -> None:
    """-q/--quiet and -v/--verbose into `verbosity`; the subcommands' default SUPPRESS keeps a
    flag given before the subcommand's name (argparse would reset it otherwise)."""
    g = parser.add_mutually_exclusive_group()
    g.add_argument("-q", "--quiet", dest="verbosity", action="store_const", const="quiet",
                   default=default, help="print only errors and the written files' paths")
    g.add_argument("-v", "--verbose", dest="verbosity", action="store_const", const="verbose",
                   default=default, help="print more detail")


def main(argv=None) -> int:
    p = _Parser(prog="frictionlab fleet",
                                description="Identify every joint of every robot of a fleet on "
                                            "Dask; results in SQLite or PostgreSQL (docs/fleet.md).")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("run", help="identify every session not done yet")
    r.add_argument("config", help="the fleet configuration (fleet.json)")
    src = r.add_mutually_exclusive_group(required=True)
    src.add_argument("--manifest", help="CSV: robot, joint, session, session_time, files, tags...")
    src.add_argument("--root", help="directory ROOT/<robot>/<joint>/<session>/<files>")
    r.add_argument("--db", default="fleet.sqlite", help="results store: a SQLite file or a "
                   "postgresql://user@host:port/db URL (default fleet.sqlite)")
    r.add_argument("--scheduler", help="an existing Dask scheduler, tcp://HOST:PORT (default: a "
                   "LocalCluster of worker processes on this machine)")
    r.add_argument("--workers", type=int, help="LocalCluster worker processes (default: cores)")
    r.add_argument("--retry-failed", action="store_true",
                   help="run again the tasks that failed with the same key")
    r.add_argument("--no-progress", action="store_true", help="no live progress bar")
    r.set_defaults(func=_cmd_run)
    s = sub.add_parser("status", help="runs, task counts, failures with their messages, what the "
                                      "fleet's drift test can see")
    s.add_argument("--db", default="fleet.sqlite")
    s.add_argument("--follow", action="store_true", help="a live bar until the newest run ends")
    s.add_argument("--config", help="count the tasks of this configuration and frictionlab version "
                   "(default: each session's newest task)")
    s.add_argument("--no-analysis", action="store_true", help="runs, counts and failures only, "
                   "not what the fleet's drift test can see (which reads every parameter and runs "
                   "the drift rule: about 10 ms per robot joint)")
    s.add_argument("--interval", type=float, default=1.0, help=argparse.SUPPRESS)
    s.set_defaults(func=_cmd_status)
    rep = sub.add_parser("report", help="drift, trends, fleet spread, outliers: an HTML report")
    rep.add_argument("--db", default="fleet.sqlite")
    rep.add_argument("--config", help="the fleet configuration: with it, the report analyses the "
                     "results of this configuration and frictionlab version (default: each "
                     "session's newest result) and also says whether the fleet median "
                     "parameters would serve each unit")
    rep.add_argument("--output", required=True, help="the HTML report")
    rep.add_argument("--csv", help="also write every table as CSV into this directory")
    rep.add_argument("--json", metavar="FILE", help="also write every table (parameters, drift, trend, spread, verdicts, "
                     "tasks, and shared with --config) into this one JSON file: an object of table name "
                     "-> list of row objects; strict JSON, NaN and infinities as null")
    rep.set_defaults(func=_cmd_report)
    g = sub.add_parser("generate", help="write a synthetic fleet (records, configuration, "
                                        "manifest, truth) for trying the tool")
    g.add_argument("dir")
    g.add_argument("--robots", type=int, default=8)
    g.add_argument("--sessions", type=int, default=4)
    g.add_argument("--seconds", type=float, default=4.0)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--corrupt", type=int, default=0, help="corrupt record files to include")
    g.add_argument("--replace", action="store_true",
                   help="replace DIR if it holds a fleet this command wrote (else DIR must be "
                        "new or empty)")
    g.set_defaults(func=_cmd_generate)
    _add_verbosity(p, "normal")
    for sp in (r, s, rep, g):
        _add_verbosity(sp, argparse.SUPPRESS)
    a = p.parse_args(argv)
    try:
        return a.func(a)
    except KeyboardInterrupt:
        print("frictionlab: interrupted; what finished is stored: run again to resume",
              file=sys.stderr)
        return 130
    except (FleetInputError, OSError, ValueError, RuntimeError) as e:
        return _error(str(e))


if __name__ == "__main__":
    sys.exit(main())
