"""Fleet analysis on the results store's parameter table (``Store.parameters()``): drift of each
robot joint's newest session against its own baseline, slow trends over each joint's history,
spread of each joint type across robots with robust outliers, and whether one shared parameter
set would serve every unit, in words (docs/fleet.md).

Every function takes a long-format pandas DataFrame with one row per (task, model, parameter):
the columns of ``Store.parameters()`` (key, robot, joint, joint_type, session, session_time,
model, selected, name, value, std_error, ci_low, ci_high, unit, determined, train_rmse,
validation_rmse). Only ``robot``, ``joint``, ``session_time``, ``name`` and ``value`` are
required; a missing optional column takes a neutral default (``selected`` True, ``determined``
True, ``std_error`` missing, ``model``/``unit``/``joint_type``/``session`` ""). When the column
``selected`` is present only the selected model's rows are used. Sessions are ordered by
``session_time`` (ISO 8601 text, compared as text), then by ``session``.

One result per session: a store holds a session's results of every configuration and frictionlab
version it was identified with (each is its own task key). Every function here takes, per (robot,
joint, session), only the newest one (``current_results``: the task written by the newest run);
``current_results(params, config)`` instead takes the one of a given configuration and version,
and says how many results it left out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from .keys import tool_version

__all__ = ["CAUSES", "DriftRule", "OUTCOMES", "RATE_LEVEL", "SEVERITIES", "TREND_OUTCOMES",
           "current_results", "drift", "drift_counts", "fleet_sensitivity", "history",
           "largest_unchecked", "shared_check", "shared_recommendation", "spread", "trend",
           "undetermined", "undetermined_causes", "z_of_level"]

#: The three outcomes of the drift rule per (robot, joint, parameter), in the order ``drift``
#: sorts them: flagged drift; the baseline cannot decide; decided, and no drift that matters.
OUTCOMES = ("drift", "undetermined", "no drift")

#: How far a flagged drift is beyond the rule's thresholds (``drift``'s ``severity``): "strong"
#: when |z| >= 2 x the statistical threshold and |relative| >= 2 x the practical one, else
#: "borderline" (just beyond one of them: a false alarm of the 1 % test looks like that).
SEVERITIES = ("strong", "borderline")

#: Why the baseline cannot decide (``drift``'s ``cause`` of an "undetermined" row; its ``reason``
#: has the numbers): the short forms that summaries count.
CAUSES = {
    "one_session": "no baseline: the joint has 1 session",
    "no_usable_baseline": "no baseline: no earlier estimate with a standard error and determined",
    "no_std_error": "the newest estimate has no standard error",
    "not_determined": "the newest estimate is not determined by its record",
    "zero_baseline": "the baseline is 0: no relative change",
    "few_baseline": "too few baseline sessions to judge their scatter",
    "scatter": "the baseline sessions scatter: the band is too wide",
    "large_errors": "large standard errors: the band is too wide",
}

_REQUIRED = ("robot", "joint", "session_time", "name", "value")
_DEFAULTS = {"joint_type": "", "session": "", "model": "", "unit": "", "std_error": float("nan"),
             "determined": True, "selected": True, "key": "", "ci_low": float("nan"),
             "ci_high": float("nan"), "train_rmse": float("nan"), "validation_rmse": float("nan")}


def _config_hashes(config) -> dict:
    """joint type -> sha256 of its canonical configuration (config.JointType.hash)."""
    return {name: jt.hash for name, jt in config.joint_types.items()}


def current_results(frame: pd.DataFrame, config=None, version: str | None = None):
    """The current result of each session, and how many superseded ones were left out.

    A changed configuration or a new frictionlab version gives a session a new task key, so a
    store holds a result per (configuration, version) the session was identified with. This keeps,
    per (robot, joint, session), the rows of ONE task key:
      - without ``config``: the key written by the newest run (largest ``run_id``; ties: the key);
      - with ``config`` (a FleetConfig): among the keys whose ``config_hash`` is that of the
        session's joint type in ``config`` and whose ``tool_version`` is ``version`` (default:
        this frictionlab's, keys.tool_version()), the newest as above; a session without such a
        key is left out whole (not identified with this configuration yet).
    frame: ``Store.parameters()`` or ``Store.tasks()`` (needs robot, joint, session, key, run_id;
    with ``config`` also joint_type, config_hash, tool_version); a frame without ``key`` or
    ``run_id`` (a table built by hand) is returned as it is.
    Returns (the kept rows, the number of task keys left out). Errors: ValueError naming the
    missing column when ``config`` is given.
    """
    if len(frame) == 0 or "key" not in frame.columns or "run_id" not in frame.columns:
        return frame, 0
    ident = ["robot", "joint", "session" if "session" in frame.columns else "session_time"]
    cand = frame
    if config is not None:
        need = [c for c in ("joint_type", "config_hash", "tool_version") if c not in frame.columns]
        if need:
            raise ValueError(f"current_results: no column {', '.join(need)} (a Store table is needed "
                             "to match a configuration)")
        if version is None:
            version = tool_version()
        hashes = _config_hashes(config)
        ok = [hashes.get(jt) == ch and tv == version
              for jt, ch, tv in zip(frame["joint_type"], frame["config_hash"], frame["tool_version"])]
        cand = frame[np.array(ok, dtype=bool)]
    keys = cand[ident + ["key", "run_id"]].drop_duplicates("key").sort_values(
        ["run_id", "key"], kind="mergesort")
    chosen = set(keys.groupby(ident, sort=False).tail(1)["key"])
    kept = frame[frame["key"].isin(chosen)]
    left_out = int(frame["key"].nunique()) - len(chosen)
    return (kept if left_out else frame), left_out


def _prepare(params: pd.DataFrame, what: str) -> pd.DataFrame:
    """Check the required columns, fill the optional ones, keep the selected rows and the newest
    result of each session (current_results), sort."""
    if not isinstance(params, pd.DataFrame):
        raise TypeError(f"{what}: params must be a pandas DataFrame (Store.parameters()), "
                        f"not {type(params).__name__}")
    missing = [c for c in _REQUIRED if c not in params.columns]
    if missing:
        raise ValueError(f"{what}: params has no column {', '.join(missing)} "
                         f"(columns: {', '.join(map(str, params.columns))})")
    p, _ = current_results(params)
    p = p.copy()
    for c, d in _DEFAULTS.items():
        if c not in p.columns:
            p[c] = d
    p["selected"] = p["selected"].astype(bool)
    p = p[p["selected"]]
    p["value"] = p["value"].astype(float)
    p["std_error"] = pd.to_numeric(p["std_error"], errors="raise").astype(float)
    p["determined"] = p["determined"].fillna(False).astype(bool)
    p["session_time"] = p["session_time"].astype(str)
    p["session"] = p["session"].astype(str)
    return p.sort_values(["robot", "joint", "session_time", "session", "model", "name"],
                         kind="mergesort").reset_index(drop=True)


def z_of_level(level: float) -> float:
    """The two-sided standard normal quantile of a confidence ``level`` in (0, 1):
    z with P(|Z| <= z) = level (2.5758 for 0.99, 1.9600 for 0.95)."""
    from scipy.stats import norm

    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), not {level!r}")
    return float(norm.ppf(0.5 + 0.5 * level))


@dataclass
class DriftRule:
    """When a joint's newest estimate of a parameter counts as drifted (``drift``), and when the
    baseline cannot decide either way.

    level: confidence level of the statistical threshold (two-sided; 0.99: |z| > 2.576).
    min_relative: practical threshold, the smallest relative change that matters (0.10 = 10 %).
    baseline: which earlier sessions form the baseline: 0 = every session before the newest;
      k > 0 = the joint's first k sessions (fewer if the joint has no more than k: never the
      newest), so that a drift older than the newest session is not absorbed into the baseline.
    min_baseline: the fewest usable baseline sessions (with a standard error, determined) for a
      "no drift" (default 2: from one session the scatter between sessions cannot be estimated).
    max_detectable: the largest detectable change (relative to the baseline) for a "no drift":
      when the statistical threshold times the combined standard error exceeds it, a change of
      that size could have gone unseen and the outcome is "undetermined" (default 0.20, twice
      the default practical threshold: a +40 % change is then flagged with probability >= 99.5 %).
    pool_min_joints: the fewest other robot joints of the same joint type (each with at least two
      usable baseline sessions of the parameter) whose night-to-night scatter is pooled into a
      joint's test (``drift``, "Pooled scatter"); 0 = never pool (each joint alone, the rule
      before pooling). Default 5.
    Flagged = both thresholds exceeded; undetermined = not flagged, and the data cannot tell a
    drift that matters from none (docs/fleet.md, "Drift").
    """
    level: float = 0.99
    min_relative: float = 0.10
    baseline: int = 0
    min_baseline: int = 2
    max_detectable: float = 0.20
    pool_min_joints: int = 5

    def __post_init__(self):
        z_of_level(self.level)
        if not (self.min_relative >= 0 and math.isfinite(self.min_relative)):
            raise ValueError(f"DriftRule: min_relative must be >= 0, not {self.min_relative!r}")
        if int(self.baseline) != self.baseline or self.baseline < 0:
            raise ValueError(f"DriftRule: baseline must be a whole number >= 0, not {self.baseline!r}")
        if int(self.min_baseline) != self.min_baseline or self.min_baseline < 1:
            raise ValueError(f"DriftRule: min_baseline must be a whole number >= 1, not {self.min_baseline!r}")
        if not (self.max_detectable > 0):   # math.inf: never undetermined for the band's width
            raise ValueError(f"DriftRule: max_detectable must be > 0, not {self.max_detectable!r}")
        if int(self.pool_min_joints) != self.pool_min_joints or self.pool_min_joints < 0:
            raise ValueError("DriftRule: pool_min_joints must be a whole number >= 0, not "
                             f"{self.pool_min_joints!r}")


def _weighted_mean(x: np.ndarray, se: np.ndarray, tau2: float):
    """The mean of estimates x with standard errors se under a between-session variance tau2,
    weights 1 / (se^2 + tau2): (mean, its standard error)."""
    w = 1.0 / (se**2 + tau2)
    sw = w.sum()
    return float((w * x).sum() / sw), float(1.0 / math.sqrt(sw))


def _cochran(x: np.ndarray, se: np.ndarray):
    """The inverse-variance mean of estimates x with standard errors se, Cochran's
    Q = sum w (x - mean)^2 and c = sum w - sum w^2 / sum w (w = 1 / se^2), so that
    E[Q] = (n - 1) + tau^2 c under a between-session variance tau^2: (mean, Q, c)."""
    w = 1.0 / se**2
    sw = w.sum()
    mean = float((w * x).sum() / sw)
    return mean, float((w * (x - mean) ** 2).sum()), float(sw - (w**2).sum() / sw)


def _baseline(x: np.ndarray, se: np.ndarray):
    """Random-effects baseline of estimates x with standard errors se (n >= 1):
    (mean, its standard error, tau) with tau^2 the DerSimonian-Laird between-session variance
    (0 when Cochran's Q <= n - 1, i.e. when the sessions agree within their errors)."""
    _, q, c = _cochran(x, se)
    n = len(x)
    tau2 = (q - (n - 1)) / c if n >= 2 and q > n - 1 and c > 0 else 0.0
    mean, se_mean = _weighted_mean(x, se, tau2)
    return mean, se_mean, math.sqrt(tau2)


def _scatter_terms(x: np.ndarray, se: np.ndarray):
    """One joint's part of the pooled between-session variance, on the relative scale (values
    and standard errors over |inverse-variance mean|): (Q, c, df) with Cochran's Q and c of the
    relative values (_cochran; Q does not change with the scale, c scales by mean^2) and
    df = m - 1, so that E[Q] = df + tau_rel^2 c; None for fewer than 2 sessions or a zero mean."""
    if len(x) < 2:
        return None
    mean, q, c = _cochran(x, se)
    if mean == 0:
        return None
    return q, c * mean**2, len(x) - 1


@dataclass
class _Pool:
    """The scatter terms of the robot joints of one (joint type, model, parameter), and the
    joints the robust pass left out."""
    terms: dict      # (robot, joint) -> (Q, c, df)
    trimmed: set     # (robot, joint) whose Q is beyond the 99.9 % point under the pooled scatter

    def estimate(self, leave_out) -> tuple[float, int, int]:
        """(tau_rel^2, degrees of freedom, joints) from every joint but ``leave_out`` and the
        trimmed ones: tau_rel^2 = max(0, (sum Q - sum df) / sum c)."""
        keep = [v for k, v in self.terms.items() if k != leave_out and k not in self.trimmed]
        if not keep:
            return 0.0, 0, 0
        q, c, df = (sum(v[i] for v in keep) for i in range(3))
        return (max(0.0, (q - df) / c) if c > 0 else 0.0), int(df), len(keep)


def _pools(p: pd.DataFrame, rule: DriftRule) -> dict:
    """Per (joint_type, model, name): the _Pool of the robot joints' baseline sessions (the same
    sessions ``drift`` tests against, usable ones only). The robust pass: with the scatter of the
    other joints, a joint whose Q exceeds the 99.9 % point of df chi-square scaled to its
    expectation (Q df / (df + tau^2 c) > chi2_0.999(df): a step inside its own baseline, e.g. a
    drift that began before the newest session) is left out of every other joint's pool."""
    from scipy.stats import chi2

    pools: dict = {}
    if rule.pool_min_joints == 0:
        return pools
    for (robot, joint), g in p.groupby(["robot", "joint"], sort=True):
        _, base_set = _sessions(g, rule)
        gb = g[[(a, b) in base_set for a, b in zip(g["session_time"], g["session"])]]
        gb = gb[_usable(gb)]
        for (jt, model, name), b in gb.groupby(["joint_type", "model", "name"], sort=True):
            t = _scatter_terms(b["value"].to_numpy(float), b["std_error"].to_numpy(float))
            if t is not None:
                pools.setdefault((jt, model, name), _Pool({}, set())).terms[(robot, joint)] = t
    for pool in pools.values():
        trim = set()
        for k, (q, c, df) in pool.terms.items():
            tau2, _, _ = pool.estimate(k)  # the others' scatter: a step cannot hide itself
            if q * df / (df + tau2 * c) > chi2.ppf(0.999, df):
                trim.add(k)
        pool.trimmed = trim
    return pools


def _sessions(g: pd.DataFrame, rule: DriftRule):
    """A robot joint's sessions in order, and the set of its baseline sessions (every session
    before the newest, or the first ``rule.baseline`` of them): (order, baseline set)."""
    sess = g[["session_time", "session"]].drop_duplicates().sort_values(
        ["session_time", "session"], kind="mergesort")
    order = list(map(tuple, sess.to_numpy()))
    base = order[:-1]
    if rule.baseline > 0:
        base = base[: rule.baseline]
    return order, set(base)


def _usable(b: pd.DataFrame) -> pd.Series:
    """The baseline rows a test can use: a finite positive standard error, determined, finite."""
    return b["std_error"].gt(0) & np.isfinite(b["std_error"]) & b["determined"] & np.isfinite(b["value"])


def _severity(z: float, threshold: float, relative: float, rule: DriftRule) -> str:
    """A flag's severity (``SEVERITIES``): "strong" beyond twice both thresholds, else
    "borderline"."""
    strong = abs(z) >= 2 * threshold and abs(relative) >= 2 * rule.min_relative
    return SEVERITIES[0] if strong else SEVERITIES[1]


def _fmt(x: float) -> str:
    return f"{x:.4g}"


_DRIFT_COLUMNS = ["robot", "joint", "joint_type", "model", "name", "unit", "session", "session_time",
                  "value", "std_error", "n_sessions", "n_baseline", "baseline", "baseline_se",
                  "scatter", "change", "relative", "z", "dof", "threshold", "detectable",
                  "pool_joints", "statistical", "practical", "flagged", "outcome", "severity",
                  "cause", "reason"]


@dataclass
class _Baseline:
    """One drift test's baseline: its sessions' numbers and the scatter the test uses."""
    m: int             # usable baseline sessions
    mean: float        # the baseline (weighted mean under the scatter tau)
    se: float          # its standard error
    tau: float         # the night-to-night scatter (the joint's own, or combined with the pool's)
    dof: int           # degrees of freedom of tau: m - 1 (+ the pool's)
    n_pool: int        # other joints of the type pooled (0: the joint alone)
    pooled: bool
    note: str          # the baseline sessions left out, in words ("" when none)


def _drift_row(robot, joint, r, n_sessions: int) -> dict:
    """A drift row of the newest estimate ``r`` before the test: every number missing, outcome
    "undetermined" until the test decides."""
    return {"robot": robot, "joint": joint, "joint_type": r["joint_type"], "model": r["model"],
            "name": r["name"], "unit": r["unit"], "session": r["session"],
            "session_time": r["session_time"], "value": float(r["value"]),
            "std_error": float(r["std_error"]), "n_sessions": n_sessions, "n_baseline": 0,
            "baseline": math.nan, "baseline_se": math.nan, "scatter": math.nan,
            "change": math.nan, "relative": math.nan, "z": math.nan, "dof": math.nan,
            "threshold": math.nan, "detectable": math.nan, "pool_joints": 0,
            "statistical": False, "practical": False, "flagged": False,
            "outcome": "undetermined", "severity": "", "cause": "", "reason": ""}


def _drift_baseline(b: pd.DataFrame, left_out: int, pool, key, rule: DriftRule) -> _Baseline:
    """The baseline of the usable sessions ``b`` (random effects, ``_baseline``); pooled with
    the type's scatter (leave-one-out: ``key`` is the joint) when ``pool`` holds at least
    ``rule.pool_min_joints`` other joints: the joint's own tau^2 and the pool's, each by its
    degrees of freedom."""
    xb, seb = b["value"].to_numpy(float), b["std_error"].to_numpy(float)
    mean, se_b, tau = _baseline(xb, seb)
    m = len(b)
    tau_rel2, dof_pool, n_pool = pool.estimate(key) if pool else (0.0, 0, 0)
    pooled = rule.pool_min_joints > 0 and n_pool >= rule.pool_min_joints and mean != 0
    dof = m - 1
    if pooled:
        tau2 = ((m - 1) * tau**2 + dof_pool * tau_rel2 * mean**2) / (m - 1 + dof_pool)
        mean, se_b = _weighted_mean(xb, seb, tau2)
        tau, dof = math.sqrt(tau2), m - 1 + dof_pool
    note = (f"; {left_out} baseline session(s) without a standard error or not determined "
            f"left out" if left_out else "")
    return _Baseline(m, mean, se_b, tau, dof, n_pool if pooled else 0, pooled, note)


def _drift_test(out: dict, r, bl: _Baseline, rule: DriftRule) -> None:
    """Fill ``out`` with the test of the newest estimate against the baseline ``bl``: change,
    relative, z, threshold, detectable, the flags, and the outcome with its reason."""
    x, se, mean = out["value"], out["std_error"], bl.mean
    out.update(n_baseline=bl.m, baseline=mean, baseline_se=bl.se, scatter=bl.tau,
               change=x - mean, pool_joints=bl.n_pool)
    if mean != 0:
        out["relative"] = (x - mean) / abs(mean)
        out["practical"] = bool(abs(out["relative"]) > rule.min_relative)
    rel_txt = (f"{100 * out['relative']:+.1f}% from the baseline {_fmt(mean)}"
               if mean != 0 else "baseline 0: relative change undefined")
    if not (math.isfinite(se) and se > 0):
        out["reason"] = f"newest estimate has no standard error: not tested statistically ({rel_txt})"
        out["cause"] = CAUSES["no_std_error"]
        return
    if not bool(r["determined"]):
        out["reason"] = f"newest estimate not determined by its record: not tested statistically ({rel_txt})"
        out["cause"] = CAUSES["not_determined"]
        return
    from scipy.stats import t as student_t
    comb = math.sqrt(se**2 + bl.tau**2 + bl.se**2)
    z = (x - mean) / comb
    dof = math.inf if bl.tau == 0 else float(bl.dof)
    thr = z_of_level(rule.level) if bl.tau == 0 else float(student_t.ppf(0.5 + 0.5 * rule.level, dof))
    out.update(z=z, threshold=thr, dof=dof)
    if mean != 0:
        out["detectable"] = thr * comb / abs(mean)
    out["statistical"] = bool(abs(z) > thr)
    out["flagged"] = out["statistical"] and out["practical"]
    _drift_outcome(out, bl, rel_txt, rule)


def _drift_outcome(out: dict, bl: _Baseline, rel_txt: str, rule: DriftRule) -> None:
    """The outcome of a tested row (drift, undetermined or no drift; docs/fleet.md, "Three
    outcomes"), its severity or cause, and its reason in words with the numbers."""
    z, thr, dof, tau, m = out["z"], out["threshold"], out["dof"], bl.tau, bl.m
    source = (f"scatter {_fmt(tau)} pooled with {bl.n_pool} joints of the type" if bl.pooled
              else f"baseline scatter {_fmt(tau)}")
    band = (f"the combined {100 * rule.level:g}% band (z = {z:+.2f}, |z| "
            f"{'>' if out['statistical'] else '<='} {thr:.3g}"
            + (f", t with {dof:.3g} d.o.f.: {source}" if tau else "") + ")")
    lim = f"{100 * rule.min_relative:g}%"
    few = m < rule.min_baseline and not bl.pooled
    few_txt = (f"a baseline of {m} session{'s' if m != 1 else ''} (fewer than {rule.min_baseline}: "
               + ("the scatter between sessions cannot be estimated from one, so the band "
                  "assumes there is none" if m == 1 else "too few to judge the scatter between "
                  "sessions") + ")")
    if out["flagged"]:
        out["outcome"] = "drift"
        out["severity"] = _severity(z, thr, out["relative"], rule)
        out["reason"] = (f"drift: outside {band} and {rel_txt} (> {lim})" + bl.note
                         + (f"; note: {few_txt}" if few else ""))
        return
    det = out["detectable"]
    where = f"{'outside' if out['statistical'] else 'within'} {band}"
    if bl.mean == 0:
        out["cause"] = CAUSES["zero_baseline"]
        out["reason"] = (f"undetermined: {rel_txt}, so the practical threshold cannot be "
                         f"applied; {where}" + bl.note)
    elif few:
        out["reason"] = f"undetermined: {few_txt}; {where}; {rel_txt}" + bl.note
        out["cause"] = CAUSES["few_baseline"]
    elif out["statistical"]:   # a change was seen, and it is smaller than what matters
        out["outcome"] = "no drift"
        out["reason"] = f"outside {band} but {rel_txt} (<= {lim})" + bl.note
    elif det > rule.max_detectable:
        why = ("the standard errors of the estimates are large" if not tau else
               f"the sessions scatter beyond their standard errors ({source}; t with "
               f"{dof:.3g} d.o.f.)" if bl.pooled else
               f"the baseline of {m} sessions scatters beyond their standard errors "
               f"(scatter {_fmt(tau)}; t with {dof:.3g} d.o.f.)")
        out["cause"] = CAUSES["scatter" if tau else "large_errors"]
        out["reason"] = (f"undetermined: {why}: a change would have to exceed {thr:.3g} "
                         f"combined standard errors ({100 * det:.3g}% of the baseline "
                         f"{_fmt(bl.mean)}, > {100 * rule.max_detectable:g}%) to be seen; "
                         f"{rel_txt}, z = {z:+.2f}" + bl.note)
    else:
        out["outcome"] = "no drift"
        out["reason"] = (f"within {band}; {rel_txt}; a change beyond {100 * det:.3g}% "
                         "would be seen" + bl.note)


def _drift_one(robot, joint, r, n_sessions: int, gb: pd.DataFrame, pools: dict,
               rule: DriftRule) -> dict:
    """The drift row of one newest estimate ``r`` of a robot joint with ``n_sessions`` sessions
    and baseline rows ``gb``: no baseline, or the test against it."""
    out = _drift_row(robot, joint, r, n_sessions)
    if n_sessions < 2:
        out["reason"] = "no baseline: the joint has 1 session"
        out["cause"] = CAUSES["one_session"]
        return out
    b = gb[(gb["model"] == r["model"]) & (gb["name"] == r["name"])]
    ok = _usable(b)
    left_out = int((~ok).sum())
    if not ok.any():
        out["cause"] = CAUSES["no_usable_baseline"]
        out["reason"] = ("no baseline: no earlier session of this parameter "
                         f"({r['model'] or 'model'}) with a standard error and determined"
                         + (f" ({left_out} left out)" if left_out else ""))
        return out
    pool = pools.get((r["joint_type"], r["model"], r["name"]))
    _drift_test(out, r, _drift_baseline(b[ok], left_out, pool, (robot, joint), rule), rule)
    return out


def _outcome_order(df: pd.DataFrame, order: tuple) -> pd.DataFrame:
    """``df`` sorted by its ``outcome`` in the order ``order``, then by robot, joint, name."""
    if not len(df):
        return df
    rank = df["outcome"].map({o: i for i, o in enumerate(order)})
    return df.assign(_rank=rank).sort_values(["_rank", "robot", "joint", "name"], kind="mergesort"
                                             ).drop(columns="_rank").reset_index(drop=True)


def drift(params: pd.DataFrame, rule: DriftRule = DriftRule()) -> pd.DataFrame:
    """Each robot joint's newest estimate of each parameter against its own baseline.

    Input: ``params`` (``Store.parameters()`` shape, see the module doc); ``rule`` (DriftRule).
    The rule (docs/fleet.md, "Drift"): for a robot joint with sessions s_1 < ... < s_n (by
    session_time) and a parameter of the newest session's model, the baseline sessions are
    s_1..s_{n-1} (or the first ``rule.baseline`` ones), of which those with a finite, positive
    standard error and ``determined`` are used. With w_i = 1 / se_i^2 the baseline is the
    inverse-variance weighted mean; when the baseline sessions scatter more than their standard
    errors say (Cochran's Q = sum w_i (x_i - mean)^2 > m - 1, m of them), the
    DerSimonian-Laird between-session variance tau^2 = (Q - (m - 1)) / (sum w - sum w^2 / sum w)
    is added to every baseline session's variance (weights 1 / (se_i^2 + tau^2), which inflates
    baseline_se = (sum of the weights)^-1/2) and to the newest estimate's (a new session scatters
    by tau too). Then z = (x_new - baseline) / sqrt(se_new^2 + tau^2 + baseline_se^2) and
      statistical = |z| > threshold,
    threshold = z_level, the normal quantile (2.576 for level 0.99), when tau = 0, and Student's t
    quantile with m - 1 degrees of freedom when tau > 0: tau is then estimated from m sessions
    and itself uncertain. Measured (docs/fleet.md) with a 2 % session-to-session jitter and 5
    baseline sessions: the normal quantile false-alarms at 3 %, a Welch-Satterthwaite degree of
    freedom at 2 %, t with m - 1 at 1 %. The price: with few baseline sessions that scatter at
    all the band is wide (t with 2 d.o.f.: 9.92; with 1: 63.7), wide enough to hide a drift that
    matters; such a test's outcome is "undetermined" (below), not "no drift". Pooled
    (``rule.pool_min_joints`` > 0 other joints of the type with two usable baseline sessions;
    docs/fleet.md, "Pooled scatter"): tau^2 = ((m - 1) tau_own^2 + df_pool tau_rel^2
    baseline^2) / (m - 1 + df_pool), tau_rel^2 the method-of-moments relative scatter of the
    other joints of the type (leave-one-out, joints with a step in their baseline left out,
    ``_pools``), and t with m - 1 + df_pool d.o.f.;
      practical   = |x_new - baseline| / |baseline| > min_relative,
      flagged     = statistical and practical.
    A newest estimate without a finite positive standard error, or not ``determined``, is never
    flagged (statistical False; ``reason`` says why), nor is a joint with no usable baseline
    session ("no baseline").

    Outcome (``OUTCOMES``): "drift" = flagged. Otherwise "undetermined" when the data cannot tell
    a drift that matters from none, namely when
      - the joint has no usable baseline session, or the newest estimate was not tested (no
        standard error, not determined), or the baseline is 0 (no relative change);
      - fewer than ``rule.min_baseline`` (2) baseline sessions were usable and the test is not
        pooled: from one session the scatter between sessions cannot be estimated, so the band
        assumes there is none;
      - the test was not significant and detectable = threshold x sqrt(se_new^2 + tau^2 +
        baseline_se^2) / |baseline|, the smallest relative change that would reach the threshold,
        exceeds ``rule.max_detectable`` (20 %): e.g. a baseline of 2 sessions that scatter, t with
        1 d.o.f. (63.7), where a +41 % drift with z = 27.6 stays inside the band;
    else "no drift" (the test could have seen a change of ``detectable`` and did not, or saw a
    change smaller than ``min_relative``). A flag stands whatever the baseline: exceeding a wide
    band is evidence; only the absence of a flag needs a test that could have flagged. So the
    flag decisions (and the false-alarm rates below) are those of the rule without outcomes; a
    flag on a baseline of fewer than ``min_baseline`` sessions says so in its ``reason``.

    Severity of a flag (``SEVERITIES``): "strong" when |z| >= 2 x threshold and |relative| >=
    2 x min_relative (with the defaults: beyond twice the 99 % band and 20 %), else "borderline";
    "" for rows not flagged. The injected drifts of the synthetic fleet (x 1.4, z of 100 and more)
    are strong; the one false alarm of the documented quick start (alpha -16.8 %, z = -2.65
    against 2.58) is borderline.

    Output: one row per (robot, joint, parameter of the newest session), by outcome (drift,
    undetermined, no drift), then by robot, joint, name: robot, joint, joint_type, model, name,
    unit, session, session_time (the newest), value, std_error (newest), n_sessions (the joint's
    sessions), n_baseline (used
    baseline sessions), baseline, baseline_se, scatter (tau, same unit), change (x_new -
    baseline, signed, parameter's unit), relative (change / |baseline|), z, dof (of the
    threshold's quantile; inf when tau = 0), threshold, detectable (relative), pool_joints (the
    other joints of the type pooled; 0: the joint alone), statistical, practical, flagged
    (bools), outcome ("drift", "undetermined", "no drift"), severity
    ("strong", "borderline", or "" when not flagged), cause (for "undetermined": one of
    ``CAUSES``' values, the short form of the reason that rows with the same cause share; else
    ""), reason (plain words). NaN where a number does not exist.
    Errors: TypeError / ValueError naming the missing columns.

    Measured false-alarm rate (python/tests/test_fleet_analysis.py, default rule, pooled;
    parameter tables drawn from the synthetic fleet's truth with the fitted estimator's relative
    standard errors; 20 seeds x 30 robots x 3 joints x 6 sessions, 8220 healthy tests):
    statistical threshold alone 63 / 8220 = 0.77 % (nominal 1 %), the rule 11 / 8220 = 0.13 %
    of parameters (all on poorly determined ones: LuGre sigma1, vs and alpha, Stribeck alpha),
    11 / 1760 = 0.63 % of healthy joints per night; with a 2 % session-to-session jitter:
    statistical 76 / 8400 = 0.90 %, the rule 16 / 8400 = 0.19 %. Every injected drift (Fc x 1.4)
    was flagged (40 / 40). With two baseline nights (docs/fleet.md, "What the rule decides,
    measured"; 50 seeds): pooled, every 20 % and 40 % wear flagged in every seed, 0.74 % false
    alarms per healthy joint-night, 0.06 % of the determined parameters undetermined; each joint
    alone 6-46 % of the wear flagged and 61.5 % undetermined.
    """
    p = _prepare(params, "drift")
    pools = _pools(p, rule)
    rows = []
    for (robot, joint), g in p.groupby(["robot", "joint"], sort=True):
        order, base_set = _sessions(g, rule)
        newest = order[-1]
        is_new = (g["session_time"] == newest[0]) & (g["session"] == newest[1])
        gb = g[np.array([(a, b) in base_set for a, b in zip(g["session_time"], g["session"])],
                        dtype=bool)]
        rows += [_drift_one(robot, joint, r, len(order), gb, pools, rule)
                 for _, r in g[is_new].iterrows()]
    df = _outcome_order(pd.DataFrame(rows, columns=_DRIFT_COLUMNS), OUTCOMES)
    df.attrs["drift_rule"] = rule  # the report's key states the rule's numbers
    return df


def undetermined(d: pd.DataFrame) -> pd.DataFrame:
    """The rows of a ``drift`` table whose outcome is "undetermined" (the baseline cannot decide;
    ``reason`` says why), in ``drift``'s order. ``d[d.flagged]`` are the drifts,
    ``d[d.outcome == "no drift"]`` the parameters checked and found without a drift that matters."""
    return d[d["outcome"] == "undetermined"]


def undetermined_causes(d: pd.DataFrame) -> pd.DataFrame:
    """The undetermined rows of a ``drift`` table counted by ``cause``: columns cause,
    parameters, robot_joints; the most frequent cause first (ties by cause)."""
    u = undetermined(d) if len(d) else d
    rows = [{"cause": c, "parameters": len(g), "robot_joints": g[["robot", "joint"]].drop_duplicates().shape[0]}
            for c, g in u.groupby("cause", sort=True)] if len(u) else []
    out = pd.DataFrame(rows, columns=["cause", "parameters", "robot_joints"])
    return out.sort_values(["parameters", "cause"], ascending=[False, True], kind="mergesort"
                           ).reset_index(drop=True)


def fleet_sensitivity(d: pd.DataFrame) -> pd.DataFrame:
    """What the fleet can see, per joint type, model and parameter of a ``drift`` table: joints
    (robot joints tested), pooled (of them tested with the type's pooled scatter),
    relative_scatter (the median night-to-night scatter over |baseline|, tested rows), detectable
    (the median smallest relative change the test would flag), undetermined (rows). NaN where
    no row was tested; sorted by joint type, model, name."""
    cols = ["joint_type", "model", "name", "joints", "pooled", "relative_scatter", "detectable",
            "undetermined"]
    rows = []
    for (jt, model, name), g in (d.groupby(["joint_type", "model", "name"], sort=True)
                                 if len(d) else []):
        tested = g[np.isfinite(g["z"])]
        rel = (tested["scatter"] / tested["baseline"].abs()).replace([np.inf, -np.inf], np.nan)
        rows.append({"joint_type": jt, "model": model, "name": name, "joints": len(g),
                     "pooled": int((g["pool_joints"] > 0).sum()),
                     "relative_scatter": float(rel.median()) if rel.notna().any() else math.nan,
                     "detectable": (float(tested["detectable"].median())
                                    if tested["detectable"].notna().any() else math.nan),
                     "undetermined": int((g["outcome"] == "undetermined").sum())})
    return pd.DataFrame(rows, columns=cols)


def largest_unchecked(d: pd.DataFrame, n: int = 3) -> pd.DataFrame:
    """The ``n`` undetermined rows of a ``drift`` table with the largest |relative| change (the
    changes a reader would most want checked; rows without a relative change left out)."""
    u = undetermined(d) if len(d) else d
    u = u[np.isfinite(u["relative"].to_numpy(float))] if len(u) else u
    if not len(u):
        return u
    order = np.argsort(-np.abs(u["relative"].to_numpy(float)), kind="stable")
    return u.iloc[order[:n]]


# ---- trend: a slow drift over the whole history ----

#: The outcomes of the trend test per (robot, joint, parameter), in the order ``trend`` sorts
#: them (as ``OUTCOMES``): a trend that matters; the history cannot decide (too few sessions, or
#: a trend that matters could go unseen); tested, and no trend that matters.
TREND_OUTCOMES = ("trend", "undetermined", "no trend")

#: The confidence level of the rate's interval (``trend``'s rate_low, rate_high).
RATE_LEVEL = 0.95

_TREND_COLUMNS = ["robot", "joint", "joint_type", "model", "name", "unit", "n_sessions", "n_used",
                  "first_session_time", "session_time", "start", "slope", "slope_se", "rate",
                  "rate_low", "rate_high", "rate_per_day", "line_change", "t", "dof", "threshold",
                  "detectable_rate", "scatter", "pool_joints", "tests", "statistical", "practical",
                  "flagged", "outcome", "sessions_to_threshold", "threshold_time", "reason"]


@dataclass
class _Line:
    """A random-effects weighted least-squares line x = start + slope k through one parameter's
    estimates over the session index k (0 = the history's first session)."""
    start: float       # the line at k = 0
    slope: float       # per session (the parameter's unit)
    cov: np.ndarray    # 2 x 2 covariance of (start, slope)
    tau: float         # the scatter about the line beyond the standard errors (own and pooled)
    dof: int           # its degrees of freedom: n - 2 (+ the pool's)
    n_pool: int        # other joints of the type pooled (0: the joint alone)


def _wls_line(k: np.ndarray, x: np.ndarray, se: np.ndarray, tau2: float):
    """The weighted least-squares line through (k, x), weights w = 1 / (se^2 + tau2): (start,
    slope, their covariance (X'WX)^-1, Q_E = sum w (x - line)^2, c_E = tr W - tr((X'WX)^-1
    X'W^2X)). With tau2 = 0 these are Cochran's Q of the residuals and its c, E[Q_E] =
    (n - 2) + tau^2 c_E under a scatter tau about the line (the DerSimonian-Laird moments)."""
    w = 1.0 / (se**2 + tau2)
    X = np.column_stack([np.ones_like(k), k])
    cov = np.linalg.inv(X.T @ (w[:, None] * X))
    start, slope = cov @ (X.T @ (w * x))
    q = float((w * (x - start - slope * k) ** 2).sum())
    c = float(w.sum() - np.trace(cov @ (X.T @ ((w**2)[:, None] * X))))
    return float(start), float(slope), cov, q, c


def _trend_line(k, x, se, pool, key, rule: DriftRule) -> _Line:
    """The line through a joint's estimates with the scatter about it: the joint's own
    (DerSimonian-Laird for a line, n - 2 d.o.f.), combined by degrees of freedom with its joint
    type's pooled relative scatter (the per-night rule's, ``_pools``; leave-one-out) times the
    joint's inverse-variance mean level when ``rule.pool_min_joints`` other joints are pooled."""
    n = len(k)
    _, _, _, q, c = _wls_line(k, x, se, 0.0)
    tau2 = max(0.0, (q - (n - 2)) / c) if c > 0 else 0.0
    level = _cochran(x, se)[0]
    tau_rel2, dof_pool, n_pool = pool.estimate(key) if pool else (0.0, 0, 0)
    pooled = rule.pool_min_joints > 0 and n_pool >= rule.pool_min_joints and level != 0
    if pooled:
        tau2 = ((n - 2) * tau2 + dof_pool * tau_rel2 * level**2) / (n - 2 + dof_pool)
    start, slope, cov, _, _ = _wls_line(k, x, se, tau2)
    return _Line(start, slope, cov, math.sqrt(tau2), n - 2 + (dof_pool if pooled else 0),
                 n_pool if pooled else 0)


def _spacing_days(first: str, newest: str, k_newest: int) -> float:
    """The mean time between sessions [days] from the first and newest session_time (ISO 8601)
    over ``k_newest`` steps; NaN when the times do not parse or do not advance."""
    try:
        t0, t1 = pd.to_datetime([first, newest], utc=True)
    except (ValueError, TypeError):
        return math.nan
    days = (t1 - t0).total_seconds() / 86400.0
    return days / k_newest if k_newest > 0 and days > 0 else math.nan


def _trend_row(robot, joint, r, n_sessions: int, first: str, newest: str) -> dict:
    """A trend row before the test: every number missing, outcome "undetermined"."""
    row = {c: math.nan for c in _TREND_COLUMNS}
    row.update(robot=robot, joint=joint, joint_type=r["joint_type"], model=r["model"],
               name=r["name"], unit=r["unit"], n_sessions=n_sessions, n_used=0,
               first_session_time=first, session_time=newest, pool_joints=0, tests=0,
               statistical=False, practical=False, flagged=False, outcome="undetermined",
               threshold_time="", reason="")
    return row


def _trend_fit(g: pd.DataFrame, r, k_all: np.ndarray, usable: pd.Series, pools: dict, key,
               rule: DriftRule, min_sessions: int):
    """The line through the usable estimates of the parameter of row ``r`` in the joint's rows
    ``g`` (session indices ``k_all``): (estimates used, the _Line or None, why none)."""
    sel = ((g["model"] == r["model"]) & (g["name"] == r["name"]) & usable).to_numpy()
    k, x, se = k_all[sel], g["value"].to_numpy(float)[sel], g["std_error"].to_numpy(float)[sel]
    if len(k) < min_sessions:
        return len(k), None, (f"undetermined: {len(k)} session(s) with a usable estimate (a "
                              f"standard error, determined), fewer than {min_sessions}")
    line = _trend_line(k, x, se, pools.get((r["joint_type"], r["model"], r["name"])), key, rule)
    if line.start == 0:
        return len(k), None, "undetermined: the line starts at 0, so no relative rate"
    return len(k), line, ""


def _trend_joint(robot, joint, g: pd.DataFrame, pools: dict, rule: DriftRule, min_sessions: int,
                 window: int) -> list:
    """The trend rows of one robot joint: a line per parameter of its newest session's model
    with at least ``min_sessions`` usable estimates among the (last ``window``) sessions, then
    the test of each with the joint's parameters as one family (``_trend_decide``)."""
    order, _ = _sessions(g, rule)
    order = order[-window:] if window else order
    index = {s: i for i, s in enumerate(order)}
    g = g[[(a, b) in index for a, b in zip(g["session_time"], g["session"])]]
    k_all = np.array([index[(a, b)] for a, b in zip(g["session_time"], g["session"])], dtype=float)
    is_new, usable = k_all == len(order) - 1, _usable(g)
    rows, lines = [], []
    for _, r in g[is_new].iterrows():
        row = _trend_row(robot, joint, r, len(order), order[0][0], order[-1][0])
        row["n_used"], line, row["reason"] = _trend_fit(g, r, k_all, usable, pools, (robot, joint),
                                                        rule, min_sessions)
        rows.append(row)
        lines.append(line)
    spacing = _spacing_days(order[0][0], order[-1][0], len(order) - 1)
    tests = sum(line is not None for line in lines)
    for row, line in zip(rows, lines):
        if line is not None:
            _trend_decide(row, line, tests, len(order) - 1, spacing, rule)
    return rows


def _two_sided(level: float, dof: float) -> float:
    """The two-sided quantile of ``level``: the normal one for dof = inf, else Student's t."""
    from scipy.stats import t as student_t
    return z_of_level(level) if math.isinf(dof) else float(student_t.ppf(0.5 + 0.5 * level, dof))


def _trend_decide(row: dict, line: _Line, tests: int, k_new: int, spacing: float,
                  rule: DriftRule) -> None:
    """Fill ``row`` with the test of ``line``: the relative rate (slope / |start|) with its
    interval (delta method), t = slope / its standard error against the quantile of the rule's
    level shared by the joint's ``tests`` parameters (Bonferroni), the practical test (the line
    reaches ``rule.min_relative`` from its start within as many sessions again as it spans), the
    outcome, the projection and the reason."""
    a, b = line.start, line.slope
    var_a, var_b, cov_ab = line.cov[0, 0], line.cov[1, 1], line.cov[0, 1]
    rate = b / abs(a)
    rate_se = math.sqrt(max(0.0, var_b - 2 * (b / a) * cov_ab + (b / a) ** 2 * var_a)) / abs(a)
    dof = math.inf if line.tau == 0 else float(line.dof)
    thr, q = _two_sided(1 - (1 - rule.level) / tests, dof), _two_sided(RATE_LEVEL, dof)
    t = b / math.sqrt(var_b)
    k_cross = rule.min_relative / abs(rate) if rate != 0 else math.inf
    row.update(start=a, slope=b, slope_se=math.sqrt(var_b), rate=rate, rate_low=rate - q * rate_se,
               rate_high=rate + q * rate_se, rate_per_day=rate / spacing, line_change=rate * k_new,
               t=t, dof=dof, threshold=thr, detectable_rate=thr * math.sqrt(var_b) / abs(a),
               scatter=line.tau, pool_joints=line.n_pool, tests=tests,
               statistical=bool(abs(t) > thr), practical=bool(k_cross <= 2 * k_new))
    row["flagged"] = row["statistical"] and row["practical"]
    unseen = row["detectable_rate"] * k_new > rule.max_detectable   # as drift's max_detectable
    row["outcome"] = ("trend" if row["flagged"] else "no trend" if row["statistical"] or not unseen
                      else "undetermined")
    if row["flagged"]:
        _trend_projection(row, k_cross - k_new, spacing)
    row["reason"] = _trend_reason(row, line, k_cross, k_new, rule)


def _trend_projection(row: dict, sessions: float, spacing: float) -> None:
    """When a trending line is the practical threshold away from its start: ``sessions`` after
    the newest (0 when it is already), and the newest session_time plus as many mean intervals
    ``spacing`` [days] (ISO 8601, to the second; "" when the times did not parse)."""
    row["sessions_to_threshold"] = max(0.0, sessions)
    if math.isfinite(spacing):
        when = pd.to_datetime(row["session_time"], utc=True)
        row["threshold_time"] = (when + pd.Timedelta(days=row["sessions_to_threshold"] * spacing)
                                 ).round("s").strftime("%Y-%m-%dT%H:%M:%SZ")


def _trend_reason(row: dict, line: _Line, k_cross: float, k_new: int, rule: DriftRule) -> str:
    """A tested trend row's reasoning in words with its numbers."""
    pct = lambda x: f"{100 * x:+.2f}%"  # noqa: E731
    rate = (f"{pct(row['rate'])} per session ({100 * RATE_LEVEL:g}% interval {pct(row['rate_low'])} "
            f"to {pct(row['rate_high'])}" + (f"; {pct(row['rate_per_day'])} per day"
                                             if math.isfinite(row["rate_per_day"]) else "") + ")")
    scatter = ("" if not line.tau else f", t with {row['dof']:.3g} d.o.f.: scatter "
               f"{_fmt(line.tau)}" + (f" pooled with {line.n_pool} joints of the type"
                                      if line.n_pool else " about the line"))
    test = (f"t = {row['t']:+.2f}, |t| {'>' if row['statistical'] else '<='} "
            f"{row['threshold']:.3g} ({100 * rule.level:g}% over the joint's {row['tests']} "
            f"parameter(s){scatter})")
    lim = f"{100 * rule.min_relative:g}%"
    if row["flagged"]:
        where = f"{'+' if row['rate'] > 0 else '-'}{lim} from its start {_fmt(line.start)}"
        if row["sessions_to_threshold"] == 0:
            return f"trend: {rate}, {test}; the line is beyond {where} already"
        return (f"trend: {rate}, {test}; the line reaches {where} in "
                f"{row['sessions_to_threshold']:.3g} session(s)"
                + (f", about {row['threshold_time'][:10]}" if row["threshold_time"] else ""))
    if row["outcome"] == "undetermined":
        return (f"undetermined: {rate}, {test}; a trend would have to exceed "
                f"{100 * row['detectable_rate']:.2f}% per session to be seen: the line could change "
                f"by {100 * row['detectable_rate'] * k_new:.3g}% over the {k_new} sessions spanned "
                f"unseen (> {100 * rule.max_detectable:g}%)")
    if row["statistical"]:
        return (f"no trend that matters: {rate}, {test}, but at this rate the line changes by "
                f"{lim} from its start only after {k_cross:.3g} sessions (more than twice the "
                f"{k_new} the history spans)")
    return (f"no trend: {rate}, {test}; a rate beyond "
            f"{100 * row['detectable_rate']:.2f}% per session would be seen")


def trend(params: pd.DataFrame, rule: DriftRule = DriftRule(), *, min_sessions: int = 4,
          window: int = 0) -> pd.DataFrame:
    """Each robot joint's parameters tested for a slow trend over their whole history: a
    drift that grows a little every session is found before any single night leaves the
    per-night band (``drift``).

    For a robot joint with sessions s_0 < ... < s_(n-1) (by session_time; the last ``window``
    only when > 0) and each parameter of the newest session's model, the usable estimates (a
    finite positive standard error, determined: as ``drift``) at session indices k, at least
    ``min_sessions`` (>= 3; default 4) of them, else "undetermined":
      1. the line x = start + slope k by weighted least squares, weights 1 / (se^2 + tau^2),
         tau^2 the scatter about the line beyond the standard errors: the joint's own
         (DerSimonian-Laird of the residuals, n - 2 d.o.f.) combined by degrees of freedom with
         the joint type's pooled relative night-to-night scatter times the joint's level (the
         per-night rule's pool, ``rule.pool_min_joints``, leave-one-out);
      2. rate = slope / |start|: the relative change per session from where the history starts;
         its ``RATE_LEVEL`` (95 %) interval by the delta method from the line's covariance;
         rate_per_day = rate / the mean time between sessions;
      3. statistical: |t| = |slope / se(slope)| beyond the two-sided quantile of level
         1 - (1 - rule.level) / tests, tests = the joint's parameters tested (Bonferroni: at most
         1 - rule.level of healthy joints flagged per evaluation, as the per-night rule); normal
         when tau = 0, else Student's t with the scatter's degrees of freedom;
      4. practical: the line reaches ``rule.min_relative`` from its start within as many
         sessions after the newest as the history spans (min_relative / |rate| <= 2 (n - 1)): a
         trend that matters soon, projected no further than the data reach;
      5. flagged = both: outcome "trend", with sessions_to_threshold (after the newest; 0 when
         the line has crossed already) and threshold_time (the newest session's time plus as
         many mean intervals, ISO 8601; "" without times). Not flagged: "no trend" when the test
         saw a significant rate that does not matter yet, or could have seen a trend that
         matters: detectable_rate x the sessions spanned <= ``rule.max_detectable`` (20 %: the
         per-night rule's limit for "no drift", on the line's change so far); else
         "undetermined".

    Output: one row per (robot joint, parameter), trends first, then undetermined, then no trend,
    each by robot, joint, name: robot, joint, joint_type, model, name, unit, n_sessions (in the
    window), n_used, first_session_time, session_time (newest), start, slope, slope_se (the
    parameter's unit per session), rate, rate_low, rate_high, rate_per_day (fractions),
    line_change (rate x the sessions spanned: the line's relative change so far), t, dof, threshold,
    detectable_rate (the smallest |rate| the test would flag), scatter (tau), pool_joints, tests,
    statistical, practical, flagged, outcome (``TREND_OUTCOMES``), sessions_to_threshold,
    threshold_time, reason. NaN where a number does not exist. Errors: as ``drift``; ValueError
    for min_sessions < 3 or window < 0, or 0 < window < min_sessions.
    """
    if int(min_sessions) != min_sessions or min_sessions < 3:
        raise ValueError(f"trend: min_sessions must be a whole number >= 3, not {min_sessions!r}")
    if int(window) != window or window < 0 or 0 < window < min_sessions:
        raise ValueError(f"trend: window must be 0 (all sessions) or >= min_sessions, not {window!r}")
    p = _prepare(params, "trend")
    pools = _pools(p, rule)
    rows = []
    for (robot, joint), g in p.groupby(["robot", "joint"], sort=True):
        rows += _trend_joint(robot, joint, g, pools, rule, int(min_sessions), int(window))
    df = _outcome_order(pd.DataFrame(rows, columns=_TREND_COLUMNS), TREND_OUTCOMES)
    df.attrs["drift_rule"] = rule
    return df


GRADES = ("bad", "doubtful", "good", "none")
"""A result's verdict grades (docs/verdicts.md), worst first; "none": recorded before verdicts."""


def verdicts(results: pd.DataFrame, keys=None) -> pd.DataFrame:
    """The verdict of each task's selected model, worst first: columns robot, joint, joint_type,
    session, session_time, model, grade (GRADES), verdict (its one line), key. ``results`` is
    ``Store.results(selected_only=True)``; ``keys``: only these tasks (e.g. the current results'
    keys), all when None."""
    cols = ["robot", "joint", "joint_type", "session", "session_time", "model", "grade", "verdict", "key"]
    r = results if keys is None else results[results["key"].isin(set(keys))]
    if "selected" in r.columns:
        r = r[r["selected"]]
    if not len(r):
        return pd.DataFrame(columns=cols)
    v = r["verdict"] if "verdict" in r.columns else pd.Series([None] * len(r), index=r.index)
    out = r.assign(grade=[x["grade"] if isinstance(x, dict) else "none" for x in v],
                   verdict=[x["line"] if isinstance(x, dict) else "" for x in v])[cols]
    rank = out["grade"].map({g: i for i, g in enumerate(GRADES)})
    return out.assign(_rank=rank).sort_values(["_rank", "robot", "joint", "session_time"],
                                              kind="mergesort").drop(columns="_rank").reset_index(drop=True)


def verdict_counts(v: pd.DataFrame) -> dict:
    """Counts of a ``verdicts`` table by grade: {grade: results} for every grade of GRADES."""
    return {g: int((v["grade"] == g).sum()) if len(v) else 0 for g in GRADES}


def drift_counts(d: pd.DataFrame) -> dict:
    """Counts of a ``drift`` table by outcome: {"drift": parameters, "undetermined": ...,
    "no drift": ..., "drift_joints": robot joints with a flagged parameter,
    "undetermined_joints": robot joints with an undetermined parameter, "parameters": rows}."""
    out = {o: int((d["outcome"] == o).sum()) if len(d) else 0 for o in OUTCOMES}
    for o, k in (("drift", "drift_joints"), ("undetermined", "undetermined_joints")):
        sel = d[d["outcome"] == o] if len(d) else d
        out[k] = int(sel[["robot", "joint"]].drop_duplicates().shape[0]) if len(sel) else 0
    out["parameters"] = int(len(d))
    return out


def history(params: pd.DataFrame, robot: str | None = None, joint: str | None = None,
            name: str | None = None) -> pd.DataFrame:
    """Each parameter's history: the rows of ``params`` (selected model only) for one robot
    and/or joint and/or parameter ``name`` (None: all), ordered by robot, joint, name, session.

    Output columns: robot, joint, joint_type, model, name, unit, session, session_time, value,
    std_error, ci_low, ci_high, determined, key. Errors: as ``drift``.
    """
    p = _prepare(params, "history")
    if robot is not None:
        p = p[p["robot"] == robot]
    if joint is not None:
        p = p[p["joint"] == joint]
    if name is not None:
        p = p[p["name"] == name]
    cols = ["robot", "joint", "joint_type", "model", "name", "unit", "session", "session_time",
            "value", "std_error", "ci_low", "ci_high", "determined", "key"]
    return p.sort_values(["robot", "joint", "name", "session_time", "session"],
                         kind="mergesort")[cols].reset_index(drop=True)


def _latest(p: pd.DataFrame) -> pd.DataFrame:
    """Each robot joint's rows of its newest session (by session_time, then session)."""
    newest = p.sort_values(["session_time", "session"], kind="mergesort").groupby(
        ["robot", "joint"]).tail(1)[["robot", "joint", "session_time", "session"]]
    return p.merge(newest, on=["robot", "joint", "session_time", "session"], how="inner")


def spread(params: pd.DataFrame, z: float = 3.5, min_units: int = 5) -> pd.DataFrame:
    """The spread of each parameter across the fleet, with robust outliers.

    Per joint type, model and parameter: each robot joint's estimate from its newest session;
    median, MAD = median |x - median| and the robust z = 0.6745 (x - median) / MAD (Iglewicz and
    Hoaglin's modified z-score; when MAD = 0 the mean absolute deviation MeanAD stands in:
    (x - median) / (1.253314 MeanAD); when both are 0 every z is 0). outlier = |robust z| > z.
    With fewer than ``min_units`` robot joints in a group no z is computed (NaN, never an
    outlier; ``note`` says so).

    Output: one row per (joint type, model, parameter, robot joint), outliers first, then by
    joint_type, name, robot, joint: joint_type, model, name, unit, robot, joint, session,
    session_time, value, std_error, n (robot joints in the group), median, mad, robust_z,
    outlier (bool), note. Errors: as ``drift``; ValueError for z <= 0 or min_units < 3.
    """
    if not (z > 0):
        raise ValueError(f"spread: z must be > 0, not {z!r}")
    if min_units < 3:
        raise ValueError(f"spread: min_units must be >= 3, not {min_units!r}")
    p = _latest(_prepare(params, "spread"))
    out = []
    for (jt, model, name), g in p.groupby(["joint_type", "model", "name"], sort=True):
        x = g["value"].to_numpy(float)
        med = float(np.median(x))
        mad = float(np.median(np.abs(x - med)))
        n = len(x)
        note = ""
        if n < min_units:
            rz = np.full(n, np.nan)
            note = f"{n} robot joints (< {min_units}): no outlier test"
        elif mad > 0:
            rz = 0.6745 * (x - med) / mad
        else:
            mean_ad = float(np.mean(np.abs(x - med)))
            if mean_ad > 0:
                rz = (x - med) / (1.253314 * mean_ad)
                note = "MAD = 0: z from the mean absolute deviation"
            else:
                rz = np.zeros(n)
                note = "all equal"
        gg = g.assign(n=n, median=med, mad=mad, robust_z=rz,
                      outlier=np.nan_to_num(np.abs(rz), nan=0.0) > z, note=note)
        out.append(gg)
    cols = ["joint_type", "model", "name", "unit", "robot", "joint", "session", "session_time",
            "value", "std_error", "n", "median", "mad", "robust_z", "outlier", "note"]
    if not out:
        return pd.DataFrame(columns=cols)
    df = pd.concat(out, ignore_index=True)[cols]
    df["outlier"] = df["outlier"].astype(bool)
    return df.sort_values(["outlier", "joint_type", "name", "robot", "joint"],
                          ascending=[False, True, True, True, True], kind="mergesort").reset_index(drop=True)


#: A shared parameter set serves a unit when its validation RMSE there is within this factor of
#: the unit's own fit's (``shared_check``'s ``serves``): 10 % more. When the own fit's residual is
#: the record's noise, the shared set's systematic error is then at most sqrt(1.1^2 - 1) = 46 %
#: of that noise (errors add in quadrature): below what the record itself resolves.
SHARED_TOLERANCE = 1.10

#: ``shared_recommendation`` recommends one shared set per joint type when it serves at least
#: this share of the type's units (and names the others).
SHARED_MIN_SHARE = 0.9


def shared_check(params: pd.DataFrame, evaluate: Callable, tasks: pd.DataFrame | None = None,
                 tolerance: float = SHARED_TOLERANCE) -> pd.DataFrame:
    """Would one shared parameter set serve the fleet? The fleet median of each parameter of a
    joint type (over the robot joints' newest estimates, per model) evaluated on each unit,
    against the unit's own fit.

    Inputs:
      params: ``Store.parameters()`` shape; needs ``validation_rmse`` for the comparison.
      evaluate: ``evaluate(joint_type, median_params, task_row) -> float``, the validation RMSE
        [force unit] of the parameter set ``median_params`` (dict name -> value, the fit's
        parameter names, with the key "model" -> model name added) on the unit's validation data;
        ``task_row`` is a dict with key, robot, joint, joint_type, session, session_time, model,
        train_rmse, validation_rmse and, when ``tasks`` (``Store.tasks()``) is given, that
        task's columns (inputs, tags, ...). An exception it raises propagates.
      tasks: optional ``Store.tasks()`` DataFrame (joined on ``key``).
      tolerance: the shared set serves a unit when shared_rmse <= tolerance * own_rmse
        (``SHARED_TOLERANCE``: 1.10; kept in the table's ``attrs["tolerance"]``).
    Output: one row per robot joint (its newest session), by joint_type, robot, joint: robot,
      joint, joint_type, model, session, session_time, key, own_rmse, shared_rmse, ratio
      (shared / own), serves (bool; False when own_rmse is missing), n_units (robot joints whose
      median was taken).
    """
    if not (tolerance > 0):
        raise ValueError(f"shared_check: tolerance must be > 0, not {tolerance!r}")
    p = _latest(_prepare(params, "shared_check"))
    medians = {(jt, m): g.groupby("name")["value"].median().to_dict()
               for (jt, m), g in p.groupby(["joint_type", "model"])}
    counts = {(jt, m): g[["robot", "joint"]].drop_duplicates().shape[0]
              for (jt, m), g in p.groupby(["joint_type", "model"])}
    tmap = {}
    if tasks is not None:
        if "key" not in tasks.columns:
            raise ValueError("shared_check: tasks has no column key")
        tmap = {r["key"]: r for r in tasks.to_dict("records")}
    rows = []
    units = p.drop_duplicates(["robot", "joint"]).sort_values(["joint_type", "robot", "joint"])
    for _, r in units.iterrows():
        row = {c: r[c] for c in ("key", "robot", "joint", "joint_type", "session", "session_time",
                                  "model", "train_rmse", "validation_rmse")}
        if r["key"] in tmap:
            row = {**tmap[r["key"]], **row}
        med = dict(medians[(r["joint_type"], r["model"])])
        med["model"] = r["model"]
        shared = float(evaluate(r["joint_type"], med, row))
        own = float(r["validation_rmse"])
        ratio = shared / own if own > 0 else math.nan
        rows.append({"robot": r["robot"], "joint": r["joint"], "joint_type": r["joint_type"],
                     "model": r["model"], "session": r["session"], "session_time": r["session_time"],
                     "key": r["key"], "own_rmse": own, "shared_rmse": shared, "ratio": ratio,
                     "serves": bool(math.isfinite(ratio) and ratio <= tolerance),
                     "n_units": counts[(r["joint_type"], r["model"])]})
    out = pd.DataFrame(rows, columns=["robot", "joint", "joint_type", "model", "session",
                                      "session_time", "key", "own_rmse", "shared_rmse", "ratio",
                                      "serves", "n_units"])
    out.attrs["tolerance"] = tolerance   # shared_recommendation's words state it
    return out


def shared_recommendation(shared: pd.DataFrame, tolerance: float | None = None,
                          min_share: float = SHARED_MIN_SHARE) -> pd.DataFrame:
    """Must every unit be identified? The answer in words per joint type (and model) of a
    ``shared_check`` table.

    A unit is served when the fleet median set's validation RMSE on it is within ``tolerance``
    times its own fit's (default: the tolerance ``shared_check`` used, ``attrs["tolerance"]``,
    else ``SHARED_TOLERANCE``; a unit without its own validation RMSE is not served). With N of
    M units served the recommendation is "a shared set serves" when N >= ``min_share`` x M
    (default 0.9), naming the units it does not serve, else "identify each unit".
    Output: one row per (joint_type, model), by joint_type: joint_type, model, units (M), served
    (N), within (tolerance - 1: the increase allowed), median_increase (median ratio - 1),
    recommendation, exceptions (the units not served, worst ratio first, "robot/joint"
    comma-separated), sentence (e.g. "wrist: a shared set serves 6 of 6 units within 10 % of
    their own fit's validation error (median +3.2 %): one set for the joint type is enough").
    """
    tol = tolerance if tolerance is not None else shared.attrs.get("tolerance", SHARED_TOLERANCE)
    if not (tol > 0) or not (0 < min_share <= 1):
        raise ValueError(f"shared_recommendation: tolerance must be > 0 and min_share in (0, 1], "
                         f"not {tol!r}, {min_share!r}")
    rows = []
    for (jt, model), g in (shared.groupby(["joint_type", "model"], sort=True) if len(shared) else []):
        ratio = g["ratio"].to_numpy(float)
        ok = np.isfinite(ratio) & (ratio <= tol)
        worst = np.argsort(-np.nan_to_num(ratio, nan=np.inf), kind="stable")
        out = [f"{g['robot'].iloc[i]}/{g['joint'].iloc[i]}" for i in worst if not ok[i]]
        n, m = int(ok.sum()), len(g)
        med = float(np.nanmedian(ratio)) - 1 if np.isfinite(ratio).any() else math.nan
        shared_ok = n >= min_share * m
        words = (f"{jt}: " + ("" if shared_ok else "identify each unit: ")
                 + f"a shared set serves {n} of {m} units within {100 * (tol - 1):.3g} % of their "
                 f"own fit's validation error (median {100 * med:+.3g} %)")
        if shared_ok:
            words += (": one set for the joint type is enough" if not out else
                      "; identify the units it does not serve: " + ", ".join(out[:5])
                      + (f" and {len(out) - 5} more" if len(out) > 5 else ""))
        rows.append({"joint_type": jt, "model": model, "units": m, "served": n,
                     "within": tol - 1, "median_increase": med,
                     "recommendation": "a shared set serves" if shared_ok else "identify each unit",
                     "exceptions": ", ".join(out), "sentence": words})
    return pd.DataFrame(rows, columns=["joint_type", "model", "units", "served", "within",
                                       "median_increase", "recommendation", "exceptions",
                                       "sentence"])
