"""The HTML fleet report (docs/fleet.md, "The fleet report"), and CSV/JSON export of its tables.

One self-contained page (inline CSS and SVG, the tables' CSV and JSON as ``data:`` links; no
script, font, stylesheet or image loaded from anywhere), in this order:

1. the flagged joints: drift (``analysis.drift`` rows with ``flagged``: parameter, newest value,
   baseline, change and relative change, z, session and date), then the undetermined parameters
   (outcome "undetermined": the baseline cannot decide, with the reason), then the fleet outliers
   (``analysis.spread`` rows with ``outlier``); the header counts the drift table's outcomes;
2. the failed tasks with the library's messages;
3. per joint type, the history plots (each parameter against session_time, one line per robot
   joint, the 95 % intervals as bars; drifted joints red, outlier joints orange) and the spread
   plots (each parameter's newest estimate per robot joint, the median and the +-z MAD band,
   outliers red and labelled);
4. the shared-parameter check (``analysis.shared_check``) when given;
5. every table with its CSV and JSON download.

The identification report's page pieces (io::report_html's CSS, io::render_svg's plots) are C++
and not bound to Python (python/src binds only whole fit pages: write_python_report), so the page
and its SVG are written here, in the same spirit (inline, static, printable).

DOM contract (tests): section#flagged table[data-table=drift-flagged] tr.flagged[data-robot]
[data-joint][data-parameter]; section#flagged section#undetermined
table[data-table=drift-undetermined] tr.undetermined[data-robot][data-joint][data-parameter];
header span#drift-summary; section#outliers; section#failures tr[data-key]; section#history
svg.plot[data-plot=history][data-joint-type][data-parameter]; section#spread
svg.plot[data-plot=spread]; section#tables table[data-table] with a.download[data-format].
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import json
import math
import os
from typing import Iterable

import numpy as np
import pandas as pd

from . import analysis
from .synthetic import atomic_write_text

__all__ = ["write_report", "report_html", "to_csv", "to_json", "table_csv", "table_json"]

_RED, _ORANGE, _GREY = "#c62828", "#ef6c00", "#9e9e9e"
_PALETTE = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#7f7f7f", "#bcbd22", "#e377c2",
            "#393b79", "#637939"]

_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:1100px;
padding:0 1.2em 3em;color:#212121;line-height:1.4}
header{border-bottom:2px solid #37474f;margin-bottom:1em}h1{font-size:1.6em;margin:.6em 0 .2em}
h2{border-bottom:1px solid #cfd8dc;padding-bottom:.2em;margin-top:1.6em}h3{margin:1.2em 0 .4em}
.meta{color:#546e7a;font-size:.9em}.ok{color:#2e7d32}.bad{color:#c62828;font-weight:600}
.table-box{overflow-x:auto;max-width:100%}@media print{.table-box{overflow:visible}}table{border-collapse:collapse;font-size:.85em;margin:.4em 0 1em}
th,td{border:1px solid #cfd8dc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#eceff1}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.flagged td{background:#ffebee}tr.undetermined td{background:#fff8e1}td.msg{font-family:monospace;white-space:pre-wrap;max-width:60em}
.plots{display:flex;flex-wrap:wrap;gap:.8em}figure{margin:0}figcaption{font-size:.8em;color:#546e7a}
svg.plot{background:#fff;border:1px solid #eceff1}svg.plot text{font-size:10px;fill:#37474f}
a.download{margin-right:.8em;font-size:.85em}.note{font-size:.85em;color:#546e7a}
@media print{a.download{display:none}section{break-inside:avoid-page}}
"""


# ---- tables and export ----

def _jsonable(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, (np.floating,)):
        x = float(x)
        return x if math.isfinite(x) else None
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, (pd.Timestamp, _dt.datetime)):
        return x.isoformat()
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in x]
    if x is None or isinstance(x, (str, int, bool, float)):
        return x
    return str(x)


def table_json(df: pd.DataFrame) -> str:
    """A table as JSON text: a list of row objects (column -> value); NaN and infinities become
    null, dicts/lists (tags, inputs) stay JSON objects/arrays, other objects their str()."""
    rows = [{str(c): _jsonable(v) for c, v in r.items()} for r in df.to_dict("records")]
    return json.dumps(rows, indent=1, allow_nan=False) + "\n"


def table_csv(df: pd.DataFrame) -> str:
    """A table as CSV text (header row; dicts/lists as JSON text; NaN as an empty field;
    floats with 17 significant digits, so they read back exactly)."""
    d = df.copy()
    for c in d.columns:
        if d[c].dtype == object:
            d[c] = [json.dumps(_jsonable(v)) if isinstance(v, (dict, list, tuple)) else v for v in d[c]]
    return d.to_csv(index=False, float_format="%.17g", lineterminator="\n")


def to_csv(df: pd.DataFrame, path) -> str:
    """Write ``table_csv(df)`` to ``path`` whole or not at all; returns the path."""
    atomic_write_text(path, table_csv(df))
    return os.fspath(path)


def to_json(df: pd.DataFrame, path) -> str:
    """Write ``table_json(df)`` to ``path`` whole or not at all; returns the path."""
    atomic_write_text(path, table_json(df))
    return os.fspath(path)


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _cell(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return f"<td>{'yes' if v else 'no'}</td>"
    if isinstance(v, (float, np.floating)):
        return f'<td class="num">{"" if not math.isfinite(v) else _e(f"{float(v):.5g}")}</td>'
    if isinstance(v, (int, np.integer)):
        return f'<td class="num">{int(v)}</td>'
    if isinstance(v, (dict, list, tuple)):
        return f"<td>{_e(json.dumps(_jsonable(v)))}</td>"
    if v is None:
        return "<td></td>"
    return f"<td>{_e(v)}</td>"


def _table(df: pd.DataFrame, name: str, columns: list | None = None, row_attrs=None,
           max_rows: int | None = None) -> str:
    """An HTML table of ``df`` (``columns`` shown), rows with data-* attributes from row_attrs."""
    cols = [c for c in (columns or list(df.columns)) if c in df.columns]
    # In a box that scrolls sideways by itself: a table wider than the window (the raw tables show
    # every column) must not push the whole page sideways.
    out = [f'<div class="table-box"><table data-table="{_e(name)}"><thead><tr>'
           + "".join(f"<th>{_e(c)}</th>" for c in cols)
           + "</tr></thead><tbody>"]
    recs = df.to_dict("records")
    shown = recs if max_rows is None else recs[:max_rows]
    for r in shown:
        attrs = row_attrs(r) if row_attrs else ""
        out.append(f"<tr{attrs}>" + "".join(_cell(r[c]) for c in cols) + "</tr>")
    out.append("</tbody></table></div>")
    if max_rows is not None and len(recs) > max_rows:
        out.append(f'<p class="note">First {max_rows} of {len(recs)} rows; the downloads hold all.</p>')
    return "".join(out)


def _downloads(df: pd.DataFrame, name: str) -> str:
    csv64 = base64.b64encode(table_csv(df).encode()).decode()
    js64 = base64.b64encode(table_json(df).encode()).decode()
    return (f'<p><a class="download" data-format="csv" download="{_e(name)}.csv" '
            f'href="data:text/csv;base64,{csv64}">{_e(name)}.csv</a>'
            f'<a class="download" data-format="json" download="{_e(name)}.json" '
            f'href="data:application/json;base64,{js64}">{_e(name)}.json</a></p>')


# ---- plots (inline SVG) ----

def _nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Ticks at 1, 2, 5 x 10^k inside [lo, hi] (about ``target`` of them)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(target, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks, k = [], 0
    while first + k * step <= hi + 1e-9 * step:
        ticks.append(first + k * step)
        k += 1
    return ticks


def _range(vals: Iterable[float]) -> tuple[float, float]:
    v = [x for x in vals if math.isfinite(x)]
    if not v:
        return 0.0, 1.0
    lo, hi = min(v), max(v)
    if hi == lo:
        pad = abs(lo) * 0.05 or 1.0
    else:
        pad = (hi - lo) * 0.06
    return lo - pad, hi + pad


class _Frame:
    """Axes of one plot: data -> pixel maps and the axes' SVG."""
    W, H, L, R, T, B = 520, 230, 62, 12, 22, 38

    def __init__(self, xr, yr):
        self.x0, self.x1 = xr
        self.y0, self.y1 = yr

    def px(self, x):
        return self.L + (x - self.x0) / (self.x1 - self.x0) * (self.W - self.L - self.R)

    def py(self, y):
        return self.H - self.B - (y - self.y0) / (self.y1 - self.y0) * (self.H - self.T - self.B)

    def axes(self, title, ylabel, xticks, xlabels, xlabel):
        s = [f'<text x="{self.L}" y="14" font-weight="bold">{_e(title)}</text>',
             f'<rect x="{self.L}" y="{self.T}" width="{self.W - self.L - self.R}" '
             f'height="{self.H - self.T - self.B}" fill="none" stroke="#b0bec5"/>']
        for t in _nice_ticks(self.y0, self.y1):
            y = self.py(t)
            s.append(f'<line x1="{self.L}" x2="{self.W - self.R}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eceff1"/>')
            s.append(f'<text x="{self.L - 4}" y="{y + 3:.1f}" text-anchor="end">{_e(f"{t:.4g}")}</text>')
        for t, lab in zip(xticks, xlabels):
            x = self.px(t)
            s.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{self.H - self.B}" y2="{self.H - self.B + 4}" stroke="#78909c"/>')
            s.append(f'<text x="{x:.1f}" y="{self.H - self.B + 15}" text-anchor="middle">{_e(lab)}</text>')
        s.append(f'<text x="{(self.L + self.W - self.R) / 2:.1f}" y="{self.H - 4}" text-anchor="middle">{_e(xlabel)}</text>')
        s.append(f'<text transform="translate(12 {(self.T + self.H - self.B) / 2:.1f}) rotate(-90)" '
                 f'text-anchor="middle">{_e(ylabel)}</text>')
        return "".join(s)


def _days(times: pd.Series) -> np.ndarray:
    """session_time (ISO 8601 text; without a zone: UTC) -> days since 1970-01-01."""
    try:
        ts = pd.to_datetime(times, utc=True)
    except (ValueError, TypeError) as err:
        raise ValueError(f"fleet report: a session_time is not an ISO 8601 time: {err}") from None
    return ((ts - pd.Timestamp("1970-01-01", tz="UTC")).dt.total_seconds() / 86400.0).to_numpy(float)


def _history_svg(h: pd.DataFrame, jt: str, name: str, red: set, orange: set, intervals_all: bool) -> str:
    unit = next((u for u in h["unit"] if u), "")
    x = _days(h["session_time"])
    h = h.assign(_x=x)
    lo = np.where(np.isfinite(h["ci_low"]), h["ci_low"], h["value"])
    hi = np.where(np.isfinite(h["ci_high"]), h["ci_high"], h["value"])
    f = _Frame(_range(x), _range(list(lo) + list(hi)))
    d0, d1 = f.x0, f.x1
    xt = _nice_ticks(d0, d1, 5)
    if len(set(x)) <= 6:
        xt = sorted(set(x))
    xl = [pd.Timestamp(t * 86400, unit="s", tz="UTC").strftime("%m-%d") for t in xt]
    out = [f'<svg class="plot" data-plot="history" data-joint-type="{_e(jt)}" data-parameter="{_e(name)}" '
           f'xmlns="http://www.w3.org/2000/svg" width="{f.W}" height="{f.H}" viewBox="0 0 {f.W} {f.H}">',
           f"<title>{_e(jt)}: {_e(name)} over time</title>",
           f.axes(f"{name}" + (f" [{unit}]" if unit else ""), name, xt, xl, "session (UTC date, month-day)")]
    groups = list(h.groupby(["robot", "joint"], sort=True))
    # plain joints first, highlighted ones on top
    groups.sort(key=lambda g: (g[0] in red, g[0] in orange))
    for i, ((robot, joint), g) in enumerate(groups):
        hot = (robot, joint) in red or (robot, joint) in orange
        color = _RED if (robot, joint) in red else _ORANGE if (robot, joint) in orange else (
            _PALETTE[i % len(_PALETTE)] if len(groups) <= len(_PALETTE) else _GREY)
        g = g.sort_values("_x")
        pts = " ".join(f"{f.px(a):.1f},{f.py(b):.1f}" for a, b in zip(g["_x"], g["value"]) if math.isfinite(b))
        width = 2 if hot else 1
        out.append(f'<g data-robot="{_e(robot)}" data-joint="{_e(joint)}"'
                   + (' class="flagged"' if hot else "") + f'><title>{_e(robot)}/{_e(joint)}</title>')
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{width}"/>')
        for a, b, l_, u_ in zip(g["_x"], g["value"], g["ci_low"], g["ci_high"]):
            if not math.isfinite(b):
                continue
            if (intervals_all or hot) and math.isfinite(l_) and math.isfinite(u_):
                out.append(f'<line x1="{f.px(a):.1f}" x2="{f.px(a):.1f}" y1="{f.py(l_):.1f}" '
                           f'y2="{f.py(u_):.1f}" stroke="{color}"/>')
            out.append(f'<circle cx="{f.px(a):.1f}" cy="{f.py(b):.1f}" r="{2.5 if hot else 1.8}" fill="{color}"/>')
        if hot:
            a, b = g["_x"].iloc[-1], g["value"].iloc[-1]
            out.append(f'<text x="{f.px(a) - 3:.1f}" y="{f.py(b) - 5:.1f}" text-anchor="end" '
                       f'fill="{color}">{_e(robot)}/{_e(joint)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _spread_svg(s: pd.DataFrame, jt: str, name: str, z: float) -> str:
    unit = next((u for u in s["unit"] if u), "")
    s = s.sort_values(["robot", "joint"]).reset_index(drop=True)
    n = len(s)
    med, mad = float(s["median"].iloc[0]), float(s["mad"].iloc[0])
    half = z * mad / 0.6745 if math.isfinite(mad) else math.nan
    se = s["std_error"].to_numpy(float)
    vals = list(s["value"]) + ([med - half, med + half] if math.isfinite(half) else [])
    vals += list(s["value"] - 1.96 * np.nan_to_num(se)) + list(s["value"] + 1.96 * np.nan_to_num(se))
    f = _Frame((-0.5, n - 0.5), _range(vals))
    step = max(1, n // 12)
    xt = list(range(0, n, step))
    out = [f'<svg class="plot" data-plot="spread" data-joint-type="{_e(jt)}" data-parameter="{_e(name)}" '
           f'xmlns="http://www.w3.org/2000/svg" width="{f.W}" height="{f.H}" viewBox="0 0 {f.W} {f.H}">',
           f"<title>{_e(jt)}: {_e(name)} across the fleet</title>",
           f.axes(f"{name}" + (f" [{unit}]" if unit else "") + f" (n = {n})", name, xt,
                  [str(s["robot"].iloc[i]) for i in xt], "robot (newest session)")]
    xa, xb = f.L, f.W - f.R
    out.append(f'<line x1="{xa}" x2="{xb}" y1="{f.py(med):.1f}" y2="{f.py(med):.1f}" stroke="#37474f"/>')
    if math.isfinite(half) and half > 0:
        for yv in (med - half, med + half):
            out.append(f'<line x1="{xa}" x2="{xb}" y1="{f.py(yv):.1f}" y2="{f.py(yv):.1f}" '
                       f'stroke="#90a4ae" stroke-dasharray="4 3"/>')
    for i, r in s.iterrows():
        col = _RED if r["outlier"] else "#1f77b4"
        x, y = f.px(i), f.py(r["value"])
        out.append(f'<g data-robot="{_e(r["robot"])}" data-joint="{_e(r["joint"])}"'
                   + (' class="outlier"' if r["outlier"] else "") + ">")
        if math.isfinite(r["std_error"]):
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{f.py(r["value"] - 1.96 * r["std_error"]):.1f}" '
                       f'y2="{f.py(r["value"] + 1.96 * r["std_error"]):.1f}" stroke="{col}"/>')
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{3 if r["outlier"] else 2.2}" fill="{col}">'
                   f'<title>{_e(r["robot"])}/{_e(r["joint"])}: {r["value"]:.5g}, robust z {r["robust_z"]:.3g}</title></circle>')
        if r["outlier"]:
            out.append(f'<text x="{x + 4:.1f}" y="{y - 4:.1f}" fill="{_RED}">{_e(r["robot"])}/{_e(r["joint"])}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


# ---- the page ----

def report_html(params: pd.DataFrame, tasks: pd.DataFrame, *, drift: pd.DataFrame | None = None,
                spread: pd.DataFrame | None = None, shared: pd.DataFrame | None = None,
                title: str | None = None, spread_z: float = 3.5, max_rows: int = 200,
                generated: str | None = None, superseded: int = 0) -> str:
    """The fleet report page as text (what ``write_report`` writes); arguments as there.
    ``generated``: the header's time stamp (default: now, UTC)."""
    if drift is None:
        drift = analysis.drift(params)
    if spread is None:
        spread = analysis.spread(params, z=spread_z)
    title = title or "frictionlab fleet report"
    generated = generated or _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    try:
        from frictionlab import __version__ as version
    except ImportError:  # pragma: no cover - the package is always there when this runs
        version = "?"
    tasks = tasks if tasks is not None else pd.DataFrame(columns=["key", "status"])
    # one result per session (earlier configurations' and versions' results left out)
    params, _ = analysis.current_results(params)
    tasks, left_out = analysis.current_results(tasks)
    superseded = superseded or left_out
    n_tasks = len(tasks)
    status = tasks["status"].value_counts().to_dict() if "status" in tasks.columns else {}
    failed = tasks[tasks["status"] == "failed"] if "status" in tasks.columns else tasks.iloc[0:0]
    flagged = drift[drift["flagged"]] if len(drift) else drift
    undet = analysis.undetermined(drift) if len(drift) else drift
    counts = analysis.drift_counts(drift)
    outl = spread[spread["outlier"]] if len(spread) else spread
    p = analysis.history(params) if len(params) else pd.DataFrame(
        columns=["robot", "joint", "joint_type", "name", "unit", "session_time", "value",
                 "ci_low", "ci_high"])
    red = {(r, j) for r, j in zip(flagged["robot"], flagged["joint"])}
    orange = {(r, j) for r, j in zip(outl["robot"], outl["joint"])} - red

    b = ["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
         f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
         f"<header><h1>{_e(title)}</h1><p class=\"meta\">frictionlab {_e(version)}, {_e(generated)}. "
         f"{n_tasks} tasks: " + ", ".join(f"{_e(k)} {v}" for k, v in sorted(status.items())) +
         f"; {p['robot'].nunique()} robots, {p[['robot', 'joint']].drop_duplicates().shape[0]} robot joints"
         + (f"; sessions {_e(p['session_time'].min())} to {_e(p['session_time'].max())}" if len(p) else "")
         + "." + (f" {superseded} superseded result(s) left out (earlier configurations or frictionlab "
                  f"versions of the same sessions: one result per session, the newest)." if superseded else "")
         + f' <span id="drift-summary">Drift of {counts["parameters"]} parameter(s): '
         f'{counts["drift"]} flagged ({counts["drift_joints"]} robot joint(s)), '
         f'{counts["undetermined"]} undetermined ({counts["undetermined_joints"]} robot joint(s): '
         f'the baseline cannot decide), {counts["no drift"]} no drift.</span>'
         + "</p></header>"]
    # 1. flagged
    b.append('<section id="flagged"><h2>Flagged joints (drift)</h2>')
    if len(flagged):
        b.append(f'<p class="bad">{len(red)} robot joint(s), {len(flagged)} parameter(s) drifted.</p>')
        b.append(_table(flagged, "drift-flagged",
                        ["robot", "joint", "name", "unit", "value", "baseline", "change",
                         "relative", "z", "session", "n_baseline", "reason"],
                        lambda r: f' class="flagged" data-robot="{_e(r["robot"])}" data-joint="{_e(r["joint"])}" '
                                  f'data-parameter="{_e(r["name"])}"'))
    elif len(undet):
        b.append(f'<p>No drift flagged; {len(undet)} parameter(s) undetermined (below): not '
                 'checked.</p>')
    else:
        b.append('<p class="ok">No joint drifted.</p>')
    # the parameters the baseline cannot decide: neither flagged nor checked
    b.append('<section id="undetermined"><h3>Undetermined: the baseline cannot decide</h3>')
    if len(undet):
        nob = undet[undet["reason"].str.startswith("no baseline")]
        b.append(f'<p>{len(undet)} parameter(s) of {counts["undetermined_joints"]} robot joint(s) are '
                 'not flagged, but a drift that matters could have gone unseen: no baseline, too few '
                 'baseline sessions, an estimate without a standard error, or a band so wide that only '
                 'a large change would leave it (the column detectable: the smallest relative change '
                 'that would). They were not checked; more baseline sessions or longer records decide '
                 'them.' + (f' {nob[["robot", "joint"]].drop_duplicates().shape[0]} robot joint(s) have '
                            'no baseline yet (one session, or no earlier estimate with a standard '
                            'error).' if len(nob) else "") + '</p>')
        b.append(_table(undet, "drift-undetermined",
                        # (the threshold and the session's time are in the reason and the
                        # downloads: a wider table pushed the reason out of the page)
                        ["robot", "joint", "name", "unit", "value", "baseline", "relative", "z",
                         "detectable", "n_baseline", "session", "reason"],
                        lambda r: f' class="undetermined" data-robot="{_e(r["robot"])}" '
                                  f'data-joint="{_e(r["joint"])}" data-parameter="{_e(r["name"])}"',
                        max_rows=max_rows))
    elif len(drift):
        b.append('<p class="ok">None: every parameter not flagged was checked by a test that would '
                 'have seen a drift that matters.</p>')
    else:
        b.append('<p class="note">No parameter to check.</p>')
    b.append("</section></section>")
    b.append(f'<section id="outliers"><h2>Fleet outliers (robust z &gt; {spread_z:g})</h2>')
    if len(outl):
        b.append(_table(outl, "spread-outliers",
                        ["joint_type", "name", "unit", "robot", "joint", "value", "median", "robust_z",
                         "session", "session_time"],
                        lambda r: f' class="flagged" data-robot="{_e(r["robot"])}" data-joint="{_e(r["joint"])}" '
                                  f'data-parameter="{_e(r["name"])}"'))
    else:
        b.append('<p class="ok">No outlier.</p>')
    b.append("</section>")
    # 2. failures
    b.append('<section id="failures"><h2>Failed tasks</h2>')
    if len(failed):
        fcols = [c for c in ["robot", "joint", "session", "session_time", "attempts", "error", "key"]
                 if c in failed.columns]
        rows = ["<div class=\"table-box\"><table data-table=\"failures\"><thead><tr>" + "".join(f"<th>{_e(c)}</th>" for c in fcols)
                + "</tr></thead><tbody>"]
        for r in failed.to_dict("records"):
            rows.append(f'<tr data-key="{_e(r.get("key", ""))}">' + "".join(
                f'<td class="msg">{_e(r[c])}</td>' if c == "error" else _cell(r[c]) for c in fcols) + "</tr>")
        rows.append("</tbody></table></div>")
        b.append(f'<p class="bad">{len(failed)} task(s) failed.</p>' + "".join(rows))
    else:
        b.append('<p class="ok">No task failed.</p>')
    b.append("</section>")
    # 3. history and spread plots
    b.append('<section id="history"><h2>History per joint type</h2>')
    for jt, g in p.groupby("joint_type", sort=True):
        b.append(f'<section class="joint-type" data-joint-type="{_e(jt)}"><h3>{_e(jt or "(no joint type)")}</h3>'
                 '<div class="plots">')
        many = g[["robot", "joint"]].drop_duplicates().shape[0] > 50
        for name, gn in g.groupby("name", sort=True):
            b.append("<figure>" + _history_svg(gn, jt, name, red, orange, not many) +
                     "<figcaption>" + ("95 % intervals of the highlighted joints only (more than 50 joints)"
                                       if many else "bars: 95 % intervals") +
                     "; red: drifted, orange: fleet outlier</figcaption></figure>")
        b.append("</div></section>")
    b.append("</section>")
    b.append('<section id="spread"><h2>Spread across the fleet</h2>')
    for jt, g in spread.groupby("joint_type", sort=True) if len(spread) else []:
        b.append(f'<section class="joint-type" data-joint-type="{_e(jt)}"><h3>{_e(jt or "(no joint type)")}</h3>'
                 '<div class="plots">')
        for (model, name), gn in g.groupby(["model", "name"], sort=True):
            b.append("<figure>" + _spread_svg(gn, jt, name, spread_z) +
                     f"<figcaption>line: median; dashed: median +- {spread_z:g} MAD/0.6745; "
                     "bars: 95 % intervals; red: outlier</figcaption></figure>")
        b.append("</div></section>")
    b.append("</section>")
    # 4. shared check
    if shared is not None:
        b.append('<section id="shared"><h2>One shared parameter set?</h2>')
        if len(shared):
            per = shared.groupby("joint_type").agg(units=("serves", "size"), served=("serves", "sum"),
                                                   median_ratio=("ratio", "median")).reset_index()
            b.append('<p>The fleet median parameters of each joint type on each unit (validation RMSE) '
                     'against the unit\'s own fit.</p>')
            b.append(_table(per, "shared-summary"))
        b.append("</section>")
    # 5. tables
    b.append('<section id="tables"><h2>Tables</h2>')
    tables = [("drift", drift), ("spread", spread), ("parameters", p)]
    if shared is not None:
        tables.append(("shared", shared))
    tables.append(("tasks", tasks))
    for name, df in tables:
        b.append(f'<h3>{_e(name)}</h3>' + _downloads(df, name) + _table(df, name, max_rows=max_rows))
    b.append("</section></body></html>\n")
    return "".join(b)


def write_report(params: pd.DataFrame, tasks: pd.DataFrame, path, *, drift: pd.DataFrame | None = None,
                 spread: pd.DataFrame | None = None, shared: pd.DataFrame | None = None,
                 title: str | None = None, spread_z: float = 3.5, max_rows: int = 200,
                 superseded: int = 0) -> str:
    """Write the HTML fleet report to ``path`` whole or not at all (a temporary file in the same
    directory, then os.replace); returns the path.

    Inputs: params (``Store.parameters()``), tasks (``Store.tasks()``: the failures come from
    its rows with status "failed" and their ``error``), drift / spread (``analysis.drift`` /
    ``analysis.spread`` results; None: computed with the default rule / ``spread_z``), shared
    (``analysis.shared_check`` result, optional), title (default "frictionlab fleet report"),
    max_rows (rows shown per table in the page; the CSV/JSON downloads hold every row),
    superseded (the number of results ``analysis.current_results`` left out: said in the header).
    The analysis takes one result per session (analysis.current_results); pass the tasks through
    ``current_results`` too, or a failure of an earlier configuration is listed beside its rerun.
    Errors: those of the analysis functions (missing columns); OSError naming the file.
    """
    text = report_html(params, tasks, drift=drift, spread=spread, shared=shared, title=title,
                       spread_z=spread_z, max_rows=max_rows, superseded=superseded)
    atomic_write_text(path, text)
    return os.fspath(path)
