"""The HTML fleet report (docs/fleet.md, "The fleet report"), and CSV/JSON export of its tables.

One self-contained page (inline CSS and SVG, the tables' CSV and JSON as ``data:`` links; no
script, font, stylesheet or image loaded from anywhere), in this order:

1. the flagged joints: drift (``analysis.drift`` rows with ``flagged``, strong before
   borderline: parameter, newest value, baseline, change, relative change in percent, z,
   threshold, severity, session), then the undetermined parameters (outcome "undetermined":
   counted by cause, then one row each with its cause, the reason as the cause's tooltip),
   then the slow trends over each joint's history (``analysis.trend`` rows with ``flagged``:
   rate per session and per day with its 95 % interval, when the line reaches the practical
   threshold, whether the per-night rule flags it too), then the fleet outliers
   (``analysis.spread`` rows with ``outlier``, and how many groups could be tested); the
   header counts the drift table's outcomes and the trending parameters;
2. the failed tasks with the library's messages;
3. per joint type, the history plots (each parameter against session_time, one line per robot
   joint, the 95 % intervals as bars, a legend naming each line; that parameter's strong drifts
   red, borderline ones amber, fleet outliers purple) and the spread plots (each parameter's
   newest estimate per robot joint, the median and the outlier limits, outliers purple and
   named in the legend);
4. the shared-parameter check (``analysis.shared_check``) when given, with its recommendation
   per joint type in words (``analysis.shared_recommendation``);
5. every table with its CSV and JSON download, its rows folded.

Every column header has its meaning (``_COLUMNS``) as tooltip, and a glossary follows each
table. The plots are the library's (frictionlab.render_svg of a frictionlab.Plot: C++
io::render_svg, its nice-number ticks, its tick labels thinned so that none overlap), so they
follow the layout contract of tests/browser/layout.py (``g.panel`` with its ranges,
``data-series`` per series, ``g.legend`` with ``data-legend`` entries); the legend is a column
right of the panel, where it covers no data. The page's stylesheet is the identification
report's (frictionlab.report_css) with the fleet's rules after it, its escaping the library's
(frictionlab.escape_markup); what stays here is the fleet's: which robot joint gets which colour
and legend entry, and the tables.

DOM contract (tests): section#flagged table[data-table=drift-flagged] tr.flagged.strong|.borderline
[data-robot][data-joint][data-parameter]; section#flagged section#undetermined
table[data-table=drift-undetermined] tr.undetermined[data-robot][data-joint][data-parameter];
header span#drift-summary; header span#trend-summary; section#trends
table[data-table=trend-flagged] tr.trend[data-robot][data-joint][data-parameter];
section#outliers; section#failures tr[data-key]; section#history
svg.plot[data-plot=history][data-joint-type][data-parameter] with a g[data-series][data-robot]
[data-joint] per robot joint (.flagged when highlighted; robot joints grouped in the legend share
the series name); section#spread svg.plot[data-plot=spread] with g.outlier[data-robot][data-joint]; section#tables table[data-table] with a.download[data-format].
"""
from __future__ import annotations

import base64
import datetime as _dt
import json
import math
import os
from typing import Iterable

import numpy as np
import pandas as pd

import frictionlab

from . import analysis
from .files import atomic_write_text

__all__ = ["write_report", "report_html", "to_csv", "to_json", "table_csv", "table_json"]

# Colours by severity (the page's key says what they mean): a strong drift red, a borderline
# drift amber, a fleet outlier purple; the other robot joints take the palette (no red, amber or
# purple in it) or, beyond _LEGEND_MAX of them, grey.
_STRONG, _BORDERLINE, _OUTLIER, _GREY = "#c62828", "#e08a00", "#7b1fa2", "#9e9e9e"
_TREND = "#1565c0"
_SPREAD, _MEDIAN, _LIMITS = "#1f77b4", "#37474f", "#90a4ae"   # spread plots: dots, median, limits
_PALETTE = ["#1f77b4", "#2ca02c", "#8c564b", "#17becf", "#546e7a", "#bcbd22", "#393b79", "#637939",
            "#00897b", "#5d4037"]
_HIGHLIGHT = {"strong": (_STRONG, "strong drift"), "borderline": (_BORDERLINE, "borderline drift"),
              "trend": (_TREND, "trend over the history"), "outlier": (_OUTLIER, "fleet outlier")}
_LEGEND_ROWS = 15        # 13 px legend rows a 230 px plot holds; a highlighted entry takes 2

_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:1100px;
padding:0 1.2em 3em;color:#212121;line-height:1.4}
header{border-bottom:2px solid #37474f;margin-bottom:1em}h1{font-size:1.6em;margin:.6em 0 .2em}
h2{border-bottom:1px solid #cfd8dc;padding-bottom:.2em;margin-top:1.6em}h3{margin:1.2em 0 .4em}
.meta{color:#546e7a;font-size:.9em}.ok{color:#2e7d32}.bad{color:#c62828;font-weight:600}
.table-box{overflow-x:auto;max-width:100%}@media print{.table-box{overflow:visible}}table{border-collapse:collapse;font-size:.85em;margin:.4em 0 1em}
th,td{border:1px solid #cfd8dc;padding:.2em .5em;text-align:left;vertical-align:top;white-space:nowrap}
td.text{white-space:normal;min-width:14em}td.long{max-width:24em;overflow:hidden;text-overflow:ellipsis}
th{background:#eceff1}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.flagged td{background:#ffebee}tr.borderline td{background:#fff3e0}tr.outlier td{background:#f3e5f5}
tr.undetermined td{background:#fff8e1}tr.trend td{background:#e3f2fd}td.msg{font-family:monospace;white-space:pre-wrap;max-width:60em}
.plots{display:flex;flex-wrap:wrap;gap:.8em}figure{margin:0;max-width:522px}figcaption{font-size:.8em;color:#546e7a}
svg.plot{background:#fff;border:1px solid #eceff1;box-sizing:content-box}svg.plot text{fill:#37474f}
a.download{margin-right:.8em;font-size:.85em}
.glossary{font-size:.78em;color:#546e7a;margin:-.6em 0 1em}.key{font-size:.85em}
.swatch{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 .8em;vertical-align:-.05em}
details summary{cursor:pointer;font-size:.9em;color:#37474f}.note{font-size:.85em;color:#546e7a}
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
    """``x`` as text for HTML text and attribute values (the library's escaping)."""
    return frictionlab.escape_markup(str(x))


# Every column the page shows, in plain words (each header's tooltip, and the glossary under
# each table); the relative columns are fractions in the data and the downloads, percent on
# the page.
_COLUMNS = {
    "robot": "the robot", "joint": "the robot's joint", "joint_type": "the joint's type "
    "(the configuration's joint_types)", "model": "the friction model fitted",
    "name": "the parameter (the model's name for it)", "unit": "the parameter's unit",
    "session": "the session (the newest one in the drift and spread tables)",
    "session_time": "the session's time (ISO 8601, UTC)",
    "value": "the estimate (in the drift and spread tables: of the newest session)",
    "std_error": "its standard error", "ci_low": "95 % interval, low end",
    "ci_high": "95 % interval, high end",
    "determined": "whether the record determines the parameter (no identifiability flag)",
    "n_sessions": "the joint's sessions", "n_baseline": "baseline sessions used (earlier "
    "sessions with a standard error, determined)",
    "baseline": "the inverse-variance weighted mean of the baseline sessions' estimates",
    "baseline_se": "the baseline's standard error",
    "scatter": "tau: the scatter between sessions beyond their standard errors, the joint's own "
    "and, when pooled, its joint type's (unit of the parameter)",
    "pool_joints": "the other joints of the type whose night-to-night scatter was pooled into "
    "this test (0: the joint alone)",
    "relative_scatter": "the median night-to-night scatter over |baseline|, in percent",
    "pooled": "robot joints tested with their type's pooled scatter",
    "joints": "robot joints tested", "undetermined": "robot joints whose test cannot decide",
    "change": "value - baseline (unit of the parameter)",
    "relative": "change / |baseline|, in percent",
    "z": "change / its combined standard error (newest, baseline, scatter)",
    "dof": "degrees of freedom of the threshold's t quantile (inf: the normal quantile)",
    "threshold": "the |z| (drift) or |t| (trend) beyond which a change is statistically significant "
    "(at the drift rule's level: the colour key)",
    "detectable": "the smallest relative change the test would have flagged, in percent",
    "statistical": "|z| > threshold", "practical": "|relative| > the drift rule's practical threshold (the colour key)",
    "flagged": "statistical and practical: a drift",
    "outcome": "drift, undetermined (the baseline cannot decide) or no drift",
    "severity": "of a drift: strong (beyond twice the threshold and twice the practical threshold) "
    "or borderline "
    "(just beyond one of them: check before acting)",
    "cause": "why the baseline cannot decide (the row's tooltip has the numbers)",
    "reason": "the rule's reasoning with its numbers",
    "n": "robot joints in the group", "median": "the fleet median of the newest estimates",
    "mad": "median absolute deviation from the median (unit of the parameter)",
    "robust_z": "0.6745 (value - median) / MAD: the modified z-score",
    "outlier": "|robust_z| above the page's limit", "note": "why no robust z was computed",
    "own_rmse": "validation RMSE of the joint's own fit (force unit)",
    "shared_rmse": "validation RMSE of the fleet median parameters on this joint (force unit)",
    "ratio": "shared_rmse / own_rmse", "serves": "ratio within the tolerance",
    "n_units": "robot joints whose median was taken", "robot_joints": "robot joints",
    "served": "robot joints the fleet median parameters serve (ratio within the tolerance)",
    "median_ratio": "the median over the robot joints of shared_rmse / own_rmse",
    "parameters": "parameters", "key": "the task's key (sha256 of identity, inputs, "
    "configuration, version)", "status": "done, failed or running", "error": "the library's message",
    "attempts": "times the task was run", "run_id": "the run that stored the row",
    "tags": "the manifest's extra columns", "inputs": "the record files with size and sha256",
    "inputs_hash": "sha256 of the inputs", "config_hash": "sha256 of the joint type's configuration",
    "tool_version": "the frictionlab that computed it", "selected": "the model compare selected",
    "train_rmse": "training RMSE (force unit)", "validation_rmse": "validation RMSE (force unit)",
    "aicc": "corrected Akaike information criterion", "started_at": "start (Unix time, s)",
    "finished_at": "end (Unix time, s)", "seconds": "run time [s]", "worker": "the Dask worker",
    "recorded_at": "stored at (Unix time, s)",
    "grade": "the verdict on the fit: good, doubtful or bad (docs/verdicts.md)",
    "n_used": "sessions whose estimate the line goes through (a standard error, determined)",
    "first_session_time": "the first session of the history tested",
    "start": "the line at the history's first session (unit of the parameter)",
    "slope": "the line's change per session (unit of the parameter)",
    "slope_se": "the slope's standard error",
    "rate": "slope / |start|: the relative change per session, in percent",
    "rate_low": "95 % interval of the rate, low end", "rate_high": "95 % interval of the rate, high end",
    "rate_per_day": "the rate per day (the sessions' mean spacing), in percent",
    "line_change": "the line's relative change from the first session to the newest, in percent",
    "t": "slope / its standard error",
    "detectable_rate": "the smallest rate the trend test would flag, in percent per session",
    "tests": "the joint's parameters tested together (the threshold is shared among them)",
    "sessions_to_threshold": "sessions after the newest until the line is the practical threshold "
    "away from its start (0: it is already)",
    "threshold_time": "when, at the sessions' mean spacing (UTC)",
    "per_night": "flagged by the per-night drift rule too (a step shows as a trend)",
    "units": "robot joints of the type checked", "within": "the validation error increase allowed, "
    "in percent", "median_increase": "the median over the units of shared_rmse / own_rmse - 1, in percent",
    "recommendation": "a shared set serves (at least 90 % of the units) or identify each unit",
    "exceptions": "the units the shared set does not serve, worst first",
    "verdict": "the verdict's reasons and what to try",
}
def percent3(p: float) -> str:
    """A percentage to 3 significant digits, never in e-notation (a detectable change of
    3350 %, not 3.35e+03 %)."""
    return f"{p:.3g} %" if abs(p) < 1000 else f"{p:.0f} %"


_PERCENT = {"relative": lambda p: f"{p:+.1f} %", "relative_scatter": percent3,
            "detectable": percent3, "detectable_rate": percent3, "within": percent3,
            "line_change": lambda p: f"{p:+.1f} %", "median_increase": lambda p: f"{p:+.3g} %",
            **{c: (lambda p: f"{p:+.2f} %") for c in ("rate", "rate_low", "rate_high", "rate_per_day")}}
_WRAP = {"cause", "reason", "note", "error", "verdict", "exceptions", "sentence"}      # text columns whose cells wrap

def _percent(x: float) -> str:
    """A fraction as a percentage of at most 3 significant digits: 0.99 -> "99 %"."""
    return f"{100 * x:.3g} %"


def _severity_key(rule: analysis.DriftRule) -> str:
    """What the highlight colours mean (above the flagged table and the plots), in the numbers
    of the drift rule the page's drift table was computed with."""
    return (
        '<p class="key">Colours: '
        f'<span class="swatch" style="background:{_STRONG}"></span><b>strong drift</b> (beyond '
        f'twice the {_percent(rule.level)} band and twice the {_percent(rule.min_relative)} '
        'practical threshold)'
        f'<span class="swatch" style="background:{_BORDERLINE}"></span><b>borderline drift</b> '
        '(flagged, but within twice one of them: what a false alarm of the '
        f'{_percent(1 - rule.level)} test looks like; check before acting)'
        f'<span class="swatch" style="background:{_TREND}"></span><b>trend</b> (a slow trend over '
        'the history that no single night flags yet)'
        f'<span class="swatch" style="background:{_OUTLIER}"></span><b>fleet outlier</b> (robust z '
        'beyond the limit). Other robot joints have their own colours, named in each plot\'s '
        'legend.</p>')


def _drift_rule(drift: pd.DataFrame, rule: analysis.DriftRule | None) -> analysis.DriftRule:
    """The rule the page describes: the one given, else the one ``drift`` was computed with
    (``analysis.drift`` records it in ``attrs``), else the default."""
    if rule is not None:
        return rule
    return drift.attrs.get("drift_rule", analysis.DriftRule())


def _cell(v, column: str = "", tip: str = "", clip: bool = False) -> str:
    """A table cell: numbers right-aligned (the relative columns in percent), booleans yes/no,
    objects as JSON; ``tip`` the cell's tooltip (title). Text of the _WRAP columns wraps, or
    with ``clip`` stays on one line cut at 24 em (the whole text as tooltip)."""
    t = f' title="{_e(tip)}"' if tip else ""
    if isinstance(v, (bool, np.bool_)):
        return f"<td{t}>{'yes' if v else 'no'}</td>"
    if isinstance(v, (float, np.floating)):
        if column in _PERCENT and math.isfinite(v):
            return f'<td class="num"{t}>{_e(_PERCENT[column](100 * float(v)))}</td>'
        return f'<td class="num"{t}>{"" if not math.isfinite(v) else _e(f"{float(v):.5g}")}</td>'
    if isinstance(v, (int, np.integer)):
        return f'<td class="num"{t}>{int(v)}</td>'
    if isinstance(v, (dict, list, tuple)):
        v = json.dumps(_jsonable(v))
        return f'<td class="long" title="{_e(tip or v)}">{_e(v)}</td>'
    if v is None:
        return f"<td{t}></td>"
    if column in _WRAP and clip:
        return f'<td class="long" title="{_e(tip or v)}">{_e(v)}</td>'
    wrap = ' class="text"' if column in _WRAP else ""
    return f"<td{t}{wrap}>{_e(v)}</td>"


def _glossary(cols: list) -> str:
    """The columns' meanings under a table (the same words as the headers' tooltips)."""
    return ('<p class="glossary">' + "; ".join(
        f"<b>{_e(c)}</b>: {_e(_COLUMNS[c])}" for c in cols if c in _COLUMNS) + ".</p>")


def _table(df: pd.DataFrame, name: str, columns: list | None = None, row_attrs=None,
           max_rows: int | None = None, tips: dict | None = None, glossary: bool = True,
           clip: bool = False) -> str:
    """An HTML table of ``df`` (``columns`` shown), rows with data-* attributes from row_attrs,
    each header with its meaning (``_COLUMNS``) as tooltip and, with ``glossary``, under the
    table; ``tips``: column -> column of the row whose text is that cell's tooltip; ``clip``:
    long text on one line (``_cell``)."""
    cols = [c for c in (columns or list(df.columns)) if c in df.columns]
    tips = tips or {}
    # In a box that scrolls sideways by itself: a table wider than the window (the raw tables show
    # every column) must not push the whole page sideways.
    out = [f'<div class="table-box"><table data-table="{_e(name)}"><thead><tr>'
           + "".join(f'<th title="{_e(_COLUMNS.get(c, ""))}">{_e(c)}</th>' for c in cols)
           + "</tr></thead><tbody>"]
    recs = df.to_dict("records")
    shown = recs if max_rows is None else recs[:max_rows]
    for r in shown:
        attrs = row_attrs(r) if row_attrs else ""
        out.append(f"<tr{attrs}>" + "".join(_cell(r[c], c, r[tips[c]] if c in tips else "", clip)
                                            for c in cols) + "</tr>")
    out.append("</tbody></table></div>")
    if max_rows is not None and len(recs) > max_rows:
        out.append(f'<p class="note">First {max_rows} of {len(recs)} rows; the downloads hold all.</p>')
    if glossary:
        out.append(_glossary(cols))
    return "".join(out)


def _downloads(df: pd.DataFrame, name: str) -> str:
    csv64 = base64.b64encode(table_csv(df).encode()).decode()
    js64 = base64.b64encode(table_json(df).encode()).decode()
    return (f'<p><a class="download" data-format="csv" download="{_e(name)}.csv" '
            f'href="data:text/csv;base64,{csv64}">{_e(name)}.csv</a>'
            f'<a class="download" data-format="json" download="{_e(name)}.json" '
            f'href="data:application/json;base64,{js64}">{_e(name)}.json</a></p>')


# ---- plots (inline SVG, drawn by the library: frictionlab.render_svg) ----

# Every fleet plot: 520 x 230 px, the legend a column right of the panel (where it covers no
# data), 10 px text; margins for the tick labels (left), the title (top) and the x ticks and x
# label (bottom).
_PLOT_W, _PLOT_H, _PLOT_LEGEND, _PLOT_FONT = 520, 230, 124, 10
_PLOT_MARGINS = dict(left=56.0, right=8.0, top=30.0, gap=30.0, bottom=42.0)


def _plot(panel: "frictionlab.PlotPanel", x_range: tuple, title: str, xlabel: str, xticks: list,
          xtick_labels: list, attributes: dict, uid: str) -> str:
    """One fleet plot as inline SVG: ``panel`` over ``x_range``, its title (the parameter and
    its unit: the y axis's name), the x ticks with their labels (the library leaves out those
    that would overlap), the page's attributes of the svg element, ``uid`` unique in the page."""
    m = _PLOT_MARGINS
    plot = frictionlab.Plot(
        [panel], list(x_range), title=title, xlabel=xlabel, width=_PLOT_W,
        panel_height=int(_PLOT_H - m["top"] - m["bottom"]), xticks=[float(t) for t in xticks],
        xtick_labels=[str(t) for t in xtick_labels], margins=frictionlab.PlotMargins(**m),
        font_size=_PLOT_FONT, legend_width=_PLOT_LEGEND,
        attributes={"class": "plot", **attributes, "role": "img", "aria-label": title},
        id_prefix=uid + "-")
    return frictionlab.render_svg(plot)


def _padded(vals: Iterable[float], pad: float = 0.06) -> tuple[float, float]:
    """The finite range of ``vals`` widened by ``pad`` of its span on each side (1 when it is a
    single value), so that dots at its ends stay clear of the frame."""
    v = [x for x in vals if math.isfinite(x)]
    if not v:
        return 0.0, 1.0
    lo, hi = min(v), max(v)
    d = (hi - lo) * pad if hi > lo else 1.0
    return lo - d, hi + d


def _days(times: pd.Series) -> np.ndarray:
    """session_time (ISO 8601 text; without a zone: UTC) -> days since 1970-01-01."""
    try:
        ts = pd.to_datetime(times, utc=True)
    except (ValueError, TypeError) as err:
        raise ValueError(f"fleet report: a session_time is not an ISO 8601 time: {err}") from None
    return ((ts - pd.Timestamp("1970-01-01", tz="UTC")).dt.total_seconds() / 86400.0).to_numpy(float)


def _date_ticks(x: np.ndarray, x0: float, x1: float) -> tuple[list, list]:
    """x ticks of a time axis [days]: the sessions themselves when there are few, else 1-2-5
    steps; labelled month-day, or month-day hour:minute when two ticks fall on one day."""
    xt = sorted(set(x)) if len(set(x)) <= 6 else frictionlab.nice_ticks(x0, x1, 6, False)
    stamp = lambda t, fmt: pd.Timestamp(t * 86400, unit="s", tz="UTC").strftime(fmt)  # noqa: E731
    days = [stamp(t, "%m-%d") for t in xt]
    fmt = "%m-%d" if len(set(days)) == len(days) else "%m-%d %H:%M"
    return xt, [stamp(t, fmt) for t in xt]


def _series_styles(keys: list, marks: dict, keys_all: list) -> tuple[dict, dict]:
    """Colour and legend name of each series of a history plot. ``keys``: (robot, joint) in
    drawing order; ``marks``: (robot, joint) -> "strong", "borderline" or "outlier" for the
    highlighted; ``keys_all``: every robot joint of the joint type, sorted (a robot joint's
    palette colour is its place there). Returns {key: (colour, series name)} and {series name:
    its legend note (what a highlight colour means)}. When the legend holds them all
    (_LEGEND_ROWS), each robot joint has its entry; else the highlighted keep theirs (as many as
    fit) and the rest share one per colour ("+N strong", ..., "N others" in grey)."""
    name = {k: f"{k[0]}/{k[1]}" for k in keys}
    hot = sorted((k for k in keys if k in marks), key=lambda k: list(_HIGHLIGHT).index(marks[k]))
    plain = [k for k in keys if k not in marks]
    styles, notes = {}, {}
    fit = len(plain) + 2 * len(hot) <= _LEGEND_ROWS and len(keys_all) <= len(_PALETTE)
    named = hot if fit else hot[: (_LEGEND_ROWS - 7) // 2]   # + 3 groups of 2 rows, "others"
    for k in named:
        color, notes[name[k]] = _HIGHLIGHT[marks[k]]
        styles[k] = (color, name[k])
    for mark, (color, what) in _HIGHLIGHT.items():
        rest = [k for k in hot[len(named):] if marks[k] == mark]
        for k in rest:
            styles[k] = (color, f"+{len(rest)} {mark}")
            notes[f"+{len(rest)} {mark}"] = what
    if fit:
        # a robot joint keeps its colour in every plot of its joint type: its place among them
        for k in plain:
            styles[k] = (_PALETTE[keys_all.index(k) % len(_PALETTE)], name[k])
    else:
        for k in plain:
            styles[k] = (_GREY, f"{len(plain)} others")
    return styles, notes


def _history_svg(h: pd.DataFrame, jt: str, name: str, marks: dict, intervals_all: bool,
                 keys_all: list, uid: str) -> str:
    """One parameter of one joint type against session time: a series per robot joint (its
    estimates joined by a line, 95 % intervals as bars), coloured by ``marks`` ((robot, joint)
    -> "strong" / "borderline" drift of this parameter, or "outlier"), with its legend."""
    unit = next((u for u in h["unit"] if u), "")
    x = _days(h["session_time"])
    h = h.assign(_x=x)
    x_range = _padded(x)
    xt, xl = _date_ticks(x, *x_range)
    groups = dict(list(h.groupby(["robot", "joint"], sort=True)))
    # plain joints first, highlighted ones on top
    keys = sorted(groups, key=lambda k: (k in marks, k))
    styles, notes = _series_styles(keys, marks, keys_all)
    series = []
    for (robot, joint) in keys:
        g = groups[(robot, joint)].sort_values("_x")
        g = g[np.isfinite(g["value"].to_numpy(float))]
        color, label = styles[(robot, joint)]
        hot = (robot, joint) in marks
        bars = intervals_all or hot
        lo = list(g["ci_low"].astype(float)) if bars else []
        hi = list(g["ci_high"].astype(float)) if bars else []
        attrs = {"data-robot": str(robot), "data-joint": str(joint)}
        series.append(frictionlab.PlotSeries(
            label, list(g["value"].astype(float)), x=list(g["_x"]), lo=lo, hi=hi, color=color,
            markers=True, bold=hot, note=notes.get(label, ""), tooltip=f"{robot}/{joint}",
            attributes={**attrs, "class": "flagged"} if hot else attrs))
    return _plot(frictionlab.PlotPanel("", series), x_range, f"{name}" + (f" [{unit}]" if unit else ""),
                 "session (UTC)", xt, xl,
                 {"data-plot": "history", "data-joint-type": jt, "data-parameter": name}, uid)


def _spread_svg(s: pd.DataFrame, jt: str, name: str, z: float, uid: str) -> str:
    """One parameter of one joint type across the fleet: each robot joint's newest estimate with
    its 95 % interval, the median, the median +- z MAD/0.6745 band (when the group is large
    enough for the outlier test), each outlier its own series named in the legend."""
    unit = next((u for u in s["unit"] if u), "")
    s = s.sort_values(["robot", "joint"]).reset_index(drop=True)
    n = len(s)
    med, mad = float(s["median"].iloc[0]), float(s["mad"].iloc[0])
    tested = bool(np.isfinite(s["robust_z"].to_numpy(float)).any())
    half = z * mad / 0.6745 if tested and math.isfinite(mad) and mad > 0 else math.nan
    ends = [-0.5, n - 0.5]
    plain = f"{int((~s['outlier']).sum())} robot joints"   # the outliers are named apart
    series = [_spread_dot(i, r, plain, _SPREAD) for i, r in s.iterrows() if not r["outlier"]]
    series.append(frictionlab.PlotSeries("median", [med, med], x=ends, color=_MEDIAN))
    if math.isfinite(half):
        series += [frictionlab.PlotSeries("outlier limits", [med - half] * 2, x=ends, color=_LIMITS,
                                          dashed=True),
                   frictionlab.PlotSeries("", [med + half] * 2, x=ends, color=_LIMITS, dashed=True,
                                          continues=True)]
    # each outlier its own series, named in the legend while it holds them; the rest one series
    outl = s[s["outlier"]]
    room = (_LEGEND_ROWS - 3 - 1) // 2
    for k, (i, r) in enumerate(outl.iterrows()):
        label = f"{r['robot']}/{r['joint']}" if k < room else f"+{len(outl) - room} outlier"
        series.append(_spread_dot(i, r, label, _OUTLIER, "fleet outlier"))
    return _plot(frictionlab.PlotPanel("", series), ends, f"{name}" + (f" [{unit}]" if unit else ""),
                 "robot (newest session)", list(range(n)), [str(r) for r in s["robot"]],
                 {"data-plot": "spread", "data-joint-type": jt, "data-parameter": name}, uid)


def _spread_dot(i: int, r, label: str, color: str, note: str = "") -> "frictionlab.PlotSeries":
    """One robot joint's newest estimate in a spread plot: its dot at ``i`` with its 95 %
    interval bar (tooltip: the value and robust z)."""
    v, se = float(r["value"]), float(r["std_error"])
    rz = f", robust z {r['robust_z']:.3g}" if math.isfinite(r["robust_z"]) else ""
    attrs = {"data-robot": str(r["robot"]), "data-joint": str(r["joint"])}
    bars = math.isfinite(se)
    return frictionlab.PlotSeries(
        label, [v], x=[float(i)], lo=[v - 1.96 * se] if bars else [],
        hi=[v + 1.96 * se] if bars else [], color=color, points=True, markers=True,
        bold=bool(r["outlier"]), note=note, tooltip=f"{r['robot']}/{r['joint']}: {v:.5g}{rz}",
        attributes={**attrs, "class": "outlier"} if r["outlier"] else attrs)


# ---- the page ----

def _row_attrs(cls: str):
    """data-* attributes of a table row naming its robot joint and parameter (the DOM contract)."""
    return lambda r: (f' class="{cls}" data-robot="{_e(r["robot"])}" data-joint="{_e(r["joint"])}" '
                      f'data-parameter="{_e(r["name"])}"')


def _header(title, version, generated, tasks, p, counts, superseded, trend) -> str:
    """The page's header: version and time, task counts, fleet size, drift outcome counts, the
    trending parameters."""
    trending = trend[trend["flagged"]] if len(trend) else trend
    status = tasks["status"].value_counts().to_dict() if "status" in tasks.columns else {}
    return (f"<header><h1>{_e(title)}</h1><p class=\"meta\">frictionlab {_e(version)}, {_e(generated)}. "
            f"{len(tasks)} tasks: " + ", ".join(f"{_e(k)} {v}" for k, v in sorted(status.items())) +
            f"; {p['robot'].nunique()} robots, {p[['robot', 'joint']].drop_duplicates().shape[0]} robot joints"
            + (f"; sessions {_e(p['session_time'].min())} to {_e(p['session_time'].max())}" if len(p) else "")
            + "." + (f" {superseded} superseded result(s) left out (earlier configurations or frictionlab "
                     f"versions of the same sessions: one result per session, the newest)." if superseded else "")
            + f' <span id="drift-summary">Drift of {counts["parameters"]} parameter(s): '
            f'{counts["drift"]} flagged ({counts["drift_joints"]} robot joint(s)), '
            f'{counts["undetermined"]} undetermined ({counts["undetermined_joints"]} robot joint(s): '
            f'the baseline cannot decide), {counts["no drift"]} no drift.</span>'
            f' <span id="trend-summary">Trend over the history: {len(trending)} parameter(s) of '
            f'{trending[["robot", "joint"]].drop_duplicates().shape[0]} robot joint(s).</span>'
            + "</p></header>")


def _flagged_section(drift: pd.DataFrame, max_rows: int, rule: analysis.DriftRule) -> str:
    """Section 1: the flagged drifts (strongest first), then the undetermined section in it."""
    flagged = drift[drift["flagged"]] if len(drift) else drift
    undet = analysis.undetermined(drift) if len(drift) else drift
    b = ['<section id="flagged"><h2>Flagged joints (drift)</h2>']
    if len(flagged):
        sev = flagged["severity"].value_counts().to_dict()
        joints = flagged[["robot", "joint"]].drop_duplicates().shape[0]
        b.append(f'<p class="bad">{joints} robot joint(s), {len(flagged)} parameter(s) drifted: '
                 + ", ".join(f'{sev[k]} {k}' for k in analysis.SEVERITIES if k in sev) + ".</p>")
        b.append(_severity_key(rule))
        order = flagged["severity"].map({k: i for i, k in enumerate(analysis.SEVERITIES)})
        flagged = flagged.assign(_o=order).sort_values("_o", kind="mergesort")
        b.append(_table(flagged, "drift-flagged",
                        ["robot", "joint", "name", "unit", "value", "baseline", "change", "relative",
                         "z", "threshold", "severity", "n_baseline", "session"],
                        lambda r: _row_attrs(f"flagged {r['severity']}")(r), tips={"severity": "reason"}))
    elif len(undet):
        b.append(f'<p>No drift flagged; {len(undet)} parameter(s) undetermined (below): not '
                 'checked.</p>')
    else:
        b.append('<p class="ok">No joint drifted.</p>')
    b.append(_undetermined_section(drift, undet, max_rows))
    b.append("</section>")
    return "".join(b)


def _undetermined_section(drift: pd.DataFrame, undet: pd.DataFrame, max_rows: int) -> str:
    """The parameters the baseline cannot decide (neither flagged nor checked): counted by
    cause, then one short row each (the full reason in the cause's tooltip and the downloads)."""
    b = ['<section id="undetermined"><h3>Undetermined: the baseline cannot decide</h3>']
    if len(undet):
        counts = analysis.drift_counts(drift)
        b.append(f'<p>{len(undet)} parameter(s) of {counts["undetermined_joints"]} robot joint(s) are '
                 'not flagged, but a drift that matters could have gone unseen: they were not checked. '
                 'More baseline sessions or longer records decide them. By cause:</p>')
        b.append(_table(analysis.undetermined_causes(drift), "undetermined-causes",
                        ["cause", "parameters", "robot_joints"], glossary=False))
        b.append(_table(undet, "drift-undetermined",
                        ["robot", "joint", "name", "unit", "value", "baseline", "relative",
                         "detectable", "n_baseline", "cause"],
                        _row_attrs("undetermined"), max_rows=max_rows, tips={"cause": "reason"}))
    elif len(drift):
        b.append('<p class="ok">None: every parameter not flagged was checked by a test that would '
                 'have seen a drift that matters.</p>')
    else:
        b.append('<p class="note">No parameter to check.</p>')
    if len(drift):
        b.append('<h4>What the fleet can see</h4><p>Per joint type and parameter: the '
                 'night-to-night scatter relative to the baseline and the smallest relative change '
                 'a test would flag (medians over the robot joints tested; <b>pooled</b>: joints '
                 'tested with the scatter of their type).</p>')
        b.append(_table(analysis.fleet_sensitivity(drift), "fleet-sensitivity",
                        ["joint_type", "model", "name", "joints", "pooled", "relative_scatter",
                         "detectable", "undetermined"], glossary=False))
    b.append("</section>")
    return "".join(b)


def _trend_section(trend: pd.DataFrame, drift: pd.DataFrame, max_rows: int,
                   rule: analysis.DriftRule) -> str:
    """The slow trends over each joint's history (``analysis.trend``): what the test is, then
    the trending parameters with their rate, its interval and when the line is the practical
    threshold away from its start; ``per_night`` says whether the per-night rule flags it too."""
    n = {o: int((trend["outcome"] == o).sum()) if len(trend) else 0 for o in analysis.TREND_OUTCOMES}
    flagged = trend[trend["flagged"]] if len(trend) else trend
    b = ['<section id="trends"><h2>Trends over the history</h2>',
         '<p class="note">Each parameter\'s estimates over its joint\'s sessions, a weighted line '
         'through them (the scatter between sessions as in the drift test): a trend when its slope '
         f'is significant at {_percent(rule.level)} over the joint\'s parameters together and the '
         f'line reaches the {_percent(rule.min_relative)} practical threshold within as many '
         'sessions again as the history spans. A slow drift shows here before a single night '
         'leaves the band; a step (a drift tonight) shows here too. Rate: the change per session '
         'relative to the line\'s start, with its 95 % interval.</p>',
         f'<p data-counts="{n["trend"]} {n["undetermined"]} {n["no trend"]}">{n["trend"]} '
         f'trending parameter(s), {n["undetermined"]} undetermined (fewer sessions with an estimate '
         'than the test needs, or too much scatter to see a trend that matters), '
         f'{n["no trend"]} without a trend.</p>']
    if len(flagged):
        hit = (set(zip(*(drift.loc[drift["flagged"], c] for c in ("robot", "joint", "name"))))
               if len(drift) else set())
        flagged = flagged.assign(per_night=[(r, j, p) in hit for r, j, p in zip(
            flagged["robot"], flagged["joint"], flagged["name"])])
        b.append(_table(flagged, "trend-flagged",
                        ["robot", "joint", "name", "rate", "rate_low", "rate_high", "rate_per_day",
                         "line_change", "t", "n_used", "threshold_time", "per_night"],
                        _row_attrs("trend"), max_rows=max_rows, tips={"rate": "reason"}))
    b.append("</section>")
    return "".join(b)


def _outliers_section(spread: pd.DataFrame, spread_z: float) -> str:
    """The fleet outliers (robust z beyond ``spread_z``), and how many groups (joint type,
    model, parameter) could be tested at all (analysis.spread: 5 robot joints or more)."""
    outl = spread[spread["outlier"]] if len(spread) else spread
    b = [f'<section id="outliers"><h2>Fleet outliers (|robust z| &gt; {spread_z:g})</h2>']
    groups = list(spread.groupby(["joint_type", "model", "name"])) if len(spread) else []
    tested = sum(bool(np.isfinite(g["robust_z"].to_numpy(float)).any()) for _, g in groups)
    b.append('<p class="note">Robust z: 0.6745 (value - median) / MAD over the robot joints of a '
             'joint type, each with its newest estimate; the test needs 5 robot joints or more.'
             + (f" {len(groups) - tested} of {len(groups)} parameter groups have fewer: not tested."
                if tested < len(groups) else "") + "</p>")
    if len(outl):
        b.append(_table(outl, "spread-outliers",
                        ["joint_type", "name", "unit", "robot", "joint", "value", "median", "robust_z",
                         "session"], _row_attrs("flagged outlier")))
    elif tested:
        b.append(f'<p class="ok">No outlier in the {tested} parameter group(s) tested.</p>')
    else:
        b.append('<p>Not tested: no parameter group has 5 robot joints.</p>')
    b.append("</section>")
    return "".join(b)


def _verdicts_section(verdicts: pd.DataFrame, max_rows: int) -> str:
    """The verdicts (docs/verdicts.md) of the current results: counts by grade, then the bad and
    doubtful ones with their one line (a drift measured on a bad fit is not a drift to act on)."""
    c = analysis.verdict_counts(verdicts)
    b = ['<section id="verdicts"><h2>Verdicts on the fits</h2>',
         f'<p data-counts="{c["bad"]} {c["doubtful"]} {c["good"]} {c["none"]}">Of {len(verdicts)} '
         f'session result(s): <span class="bad">{c["bad"]} bad</span>, {c["doubtful"]} doubtful, '
         f'<span class="ok">{c["good"]} good</span>'
         + (f', {c["none"]} recorded before verdicts' if c["none"] else "") + '. Each fit is judged '
         'by the rules of its command (docs/verdicts.md); a drift or outlier measured on a bad fit '
         'says more about the record than about the joint.</p>']
    worse = verdicts[verdicts["grade"].isin(["bad", "doubtful"])] if len(verdicts) else verdicts
    if len(worse):
        b.append(_table(worse, "verdicts", ["robot", "joint", "session", "model", "grade", "verdict"],
                        lambda r: (f' class="flagged {"strong" if r["grade"] == "bad" else "borderline"}" '
                                   f'data-robot="{_e(r["robot"])}" data-joint="{_e(r["joint"])}" '
                                   f'data-grade="{_e(r["grade"])}"'),
                        max_rows=max_rows))
    b.append("</section>")
    return "".join(b)


def _failures_section(failed: pd.DataFrame) -> str:
    """Section 2: the failed tasks with the library's messages."""
    b = ['<section id="failures"><h2>Failed tasks</h2>']
    if len(failed):
        fcols = [c for c in ["robot", "joint", "session", "attempts", "error"] if c in failed.columns]
        rows = ['<div class="table-box"><table data-table="failures"><thead><tr>'
                + "".join(f'<th title="{_e(_COLUMNS.get(c, ""))}">{_e(c)}</th>' for c in fcols)
                + "</tr></thead><tbody>"]
        for r in failed.to_dict("records"):
            rows.append(f'<tr data-key="{_e(r.get("key", ""))}">' + "".join(
                f'<td class="msg">{_e(r[c])}</td>' if c == "error" else _cell(r[c], c) for c in fcols) + "</tr>")
        rows.append("</tbody></table></div>")
        b.append(f'<p class="bad">{len(failed)} task(s) failed.</p>' + "".join(rows) + _glossary(fcols))
    else:
        b.append('<p class="ok">No task failed.</p>')
    b.append("</section>")
    return "".join(b)


def _marks(flagged: pd.DataFrame, outl: pd.DataFrame, trending: pd.DataFrame) -> dict:
    """(joint_type, parameter) -> {(robot, joint): "strong" / "borderline" / "trend" /
    "outlier"}: how each robot joint is highlighted in that parameter's plots (a drift tonight
    wins over a trend, a trend over an outlier)."""
    marks: dict = {}
    for r in outl.to_dict("records"):
        marks.setdefault((r["joint_type"], r["name"]), {})[(r["robot"], r["joint"])] = "outlier"
    for r in trending.to_dict("records"):
        marks.setdefault((r["joint_type"], r["name"]), {})[(r["robot"], r["joint"])] = "trend"
    for r in flagged.to_dict("records"):
        marks.setdefault((r["joint_type"], r["name"]), {})[(r["robot"], r["joint"])] = r["severity"]
    return marks


def _plot_sections(p: pd.DataFrame, spread: pd.DataFrame, marks: dict, spread_z: float,
                   rule: analysis.DriftRule) -> str:
    """Section 3: per joint type, the history plots, then the spread plots."""
    b = ['<section id="history"><h2>History per joint type</h2>', _severity_key(rule)]
    for jt, g in p.groupby("joint_type", sort=True):
        b.append(f'<section class="joint-type" data-joint-type="{_e(jt)}"><h3>{_e(jt or "(no joint type)")}</h3>'
                 '<div class="plots">')
        keys_all = sorted(set(zip(g["robot"], g["joint"])))
        many = len(keys_all) > 50
        for name, gn in g.groupby("name", sort=True):
            uid = f"history{len(b)}"
            b.append("<figure>" + _history_svg(gn, jt, name, marks.get((jt, name), {}), not many, keys_all,
                                               uid) +
                     "<figcaption>" + ("bars: 95 % intervals of the highlighted joints only (more than "
                                       "50 joints)" if many else "bars: 95 % intervals")
                     + "</figcaption></figure>")
        b.append("</div></section>")
    b.append("</section>")
    b.append('<section id="spread"><h2>Spread across the fleet</h2>')
    for jt, g in spread.groupby("joint_type", sort=True) if len(spread) else []:
        b.append(f'<section class="joint-type" data-joint-type="{_e(jt)}"><h3>{_e(jt or "(no joint type)")}</h3>'
                 '<div class="plots">')
        for (model, name), gn in g.groupby(["model", "name"], sort=True):
            note = str(gn["note"].iloc[0]) if "note" in gn.columns else ""
            tested = bool(np.isfinite(gn["robust_z"].to_numpy(float)).any())
            b.append("<figure>" + _spread_svg(gn, jt, name, spread_z, f"spread{len(b)}") +
                     "<figcaption>each robot joint's newest estimate; bars: 95 % intervals"
                     + (f"; outlier limits: median \u00b1 {spread_z:g} MAD/0.6745" if tested else "")
                     + (f"; {_e(note)}" if note else "") + "</figcaption></figure>")
        b.append("</div></section>")
    b.append("</section>")
    return "".join(b)


def _shared_section(shared: pd.DataFrame, tolerance: float) -> str:
    """Section 4: must every unit be identified? Per joint type, in words
    (``analysis.shared_recommendation``), whether the fleet median parameters serve its units."""
    b = ['<section id="shared"><h2>One shared parameter set?</h2>']
    if len(shared):
        rec = analysis.shared_recommendation(shared, tolerance)
        b.append(f"<p>Per joint type, the fleet median of each parameter evaluated on each robot "
                 f"joint's validation data, against the joint's own fit: it <b>serves</b> a joint "
                 f"when its validation RMSE is within {100 * (tolerance - 1):.3g} % of the own "
                 f"fit's; one set per joint type is recommended when it serves at least "
                 f"{100 * analysis.SHARED_MIN_SHARE:g} % of the units.</p><ul>"
                 + "".join(f'<li data-joint-type="{_e(r["joint_type"])}" '
                           f'data-recommendation="{_e(r["recommendation"])}">{_e(r["sentence"])}.</li>'
                           for _, r in rec.iterrows()) + "</ul>")
        b.append(_table(rec, "shared-summary", ["joint_type", "model", "units", "served", "within",
                                                "median_increase", "recommendation"]))
    b.append("</section>")
    return "".join(b)


def _tables_section(tables: list, max_rows: int) -> str:
    """Section 5: every table with its CSV and JSON download; the rows folded (details) under
    a line saying their size, so the page stays short."""
    b = ['<section id="tables"><h2>Tables</h2><p class="note">Every table in full: the downloads; '
         'the page shows the first rows when unfolded (hover a header for its meaning).</p>']
    for name, df in tables:
        b.append(f'<h3>{_e(name)}</h3>' + _downloads(df, name)
                 + f'<details><summary>{len(df)} rows, {len(df.columns)} columns</summary>'
                 + _table(df, name, max_rows=max_rows, clip=True) + "</details>")
    b.append("</section>")
    return "".join(b)


def report_html(params: pd.DataFrame, tasks: pd.DataFrame, *, drift: pd.DataFrame | None = None,
                spread: pd.DataFrame | None = None, shared: pd.DataFrame | None = None,
                title: str | None = None, spread_z: float = 3.5, max_rows: int = 200,
                generated: str | None = None, superseded: int = 0,
                shared_tolerance: float | None = None, results: pd.DataFrame | None = None,
                rule: analysis.DriftRule | None = None, trend: pd.DataFrame | None = None) -> str:
    """The fleet report page as text (what ``write_report`` writes); arguments as there.
    ``generated``: the header's time stamp (default: now, UTC)."""
    if drift is None:
        drift = analysis.drift(params, rule or analysis.DriftRule())
    rule = _drift_rule(drift, rule)
    if trend is None:
        trend = analysis.trend(params, rule)
    if shared is not None and shared_tolerance is None:
        shared_tolerance = shared.attrs.get("tolerance", analysis.SHARED_TOLERANCE)
    if spread is None:
        spread = analysis.spread(params, z=spread_z)
    title = title or "frictionlab fleet report"
    generated = generated or _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    version = getattr(frictionlab, "__version__", "?")
    tasks = tasks if tasks is not None else pd.DataFrame(columns=["key", "status"])
    # one result per session (earlier configurations' and versions' results left out)
    params, _ = analysis.current_results(params)
    tasks, left_out = analysis.current_results(tasks)
    failed = tasks[tasks["status"] == "failed"] if "status" in tasks.columns else tasks.iloc[0:0]
    flagged = drift[drift["flagged"]] if len(drift) else drift
    outl = spread[spread["outlier"]] if len(spread) else spread
    p = analysis.history(params) if len(params) else pd.DataFrame(
        columns=["robot", "joint", "joint_type", "name", "unit", "session_time", "value",
                 "ci_low", "ci_high"])
    tables = [("drift", drift), ("trend", trend), ("spread", spread), ("parameters", p)]
    tables += [("shared", shared)] if shared is not None else []
    tables.append(("tasks", tasks))
    b = ["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
         f"<title>{_e(title)}</title><style>{frictionlab.report_css()}{_CSS}</style></head><body>",
         _header(title, version, generated, tasks, p, analysis.drift_counts(drift), superseded or left_out,
                 trend),
         _flagged_section(drift, max_rows, rule),
         _trend_section(trend, drift, max_rows, rule),
         _outliers_section(spread, spread_z),
         _verdicts_section(analysis.verdicts(results, tasks["key"] if "key" in tasks.columns else None),
                           max_rows) if results is not None else "",
         _failures_section(failed),
         _plot_sections(p, spread, _marks(flagged, outl, trend[trend["flagged"]] if len(trend) else trend),
                        spread_z, rule),
         _shared_section(shared, shared_tolerance) if shared is not None else "",
         _tables_section(tables, max_rows),
         "</body></html>\n"]
    return "".join(b)


def write_report(params: pd.DataFrame, tasks: pd.DataFrame, path, *, drift: pd.DataFrame | None = None,
                 spread: pd.DataFrame | None = None, shared: pd.DataFrame | None = None,
                 title: str | None = None, spread_z: float = 3.5, max_rows: int = 200,
                 superseded: int = 0, shared_tolerance: float | None = None,
                 results: pd.DataFrame | None = None,
                 rule: analysis.DriftRule | None = None, trend: pd.DataFrame | None = None) -> str:
    """Write the HTML fleet report to ``path`` whole or not at all (a temporary file in the same
    directory, then os.replace); returns the path.

    Inputs: params (``Store.parameters()``), tasks (``Store.tasks()``: the failures come from
    its rows with status "failed" and their ``error``), drift / trend / spread
    (``analysis.drift`` / ``analysis.trend`` / ``analysis.spread`` results; None: computed with
    the rule / ``spread_z``), shared (``analysis.shared_check`` result, optional; its
    recommendation in words: ``analysis.shared_recommendation``), title (default "frictionlab
    fleet report"),
    max_rows (rows shown per table in the page; the CSV/JSON downloads hold every row),
    superseded (the number of results ``analysis.current_results`` left out: said in the header),
    shared_tolerance (the ``tolerance`` ``shared`` was computed with, said in its section; None:
    the one ``shared_check`` kept in ``shared.attrs``, else ``analysis.SHARED_TOLERANCE``),
    results (``Store.results(selected_only=True)``, optional: the section "Verdicts on the fits"
    for the tasks of ``tasks``), rule (the DriftRule ``drift`` was computed with, or to compute
    it with; None: the one ``analysis.drift`` recorded in ``drift.attrs``, else the default): the
    colour key states its level and practical threshold.
    The analysis takes one result per session (analysis.current_results); pass the tasks through
    ``current_results`` too, or a failure of an earlier configuration is listed beside its rerun.
    Errors: those of the analysis functions (missing columns); OSError naming the file.
    """
    text = report_html(params, tasks, drift=drift, spread=spread, shared=shared, title=title,
                       spread_z=spread_z, max_rows=max_rows, superseded=superseded,
                       shared_tolerance=shared_tolerance, results=results, rule=rule, trend=trend)
    atomic_write_text(path, text)
    return os.fspath(path)
