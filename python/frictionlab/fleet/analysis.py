"""Fleet analysis on the results store's parameter table (``Store.parameters()``): drift of each
robot joint against its own baseline, spread of each joint type across robots with robust
outliers, and whether one shared parameter set would serve every unit (docs/fleet.md).

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

__all__ = ["CAUSES", "DriftRule", "OUTCOMES", "SEVERITIES", "current_results", "drift",
           "drift_counts", "fleet_sensitivity", "history", "largest_unchecked", "spread", "shared_check", "undetermined",
           "undetermined_causes", "z_of_level"]

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
    zc = z_of_level(rule.level)
    from scipy.stats import t as student_t
    pct = f"{100 * rule.level:g}%"
    rows = []
    pools = _pools(p, rule)
    for (robot, joint), g in p.groupby(["robot", "joint"], sort=True):
        order, base_set = _sessions(g, rule)
        n_sessions = len(order)
        newest = order[-1]
        is_new = (g["session_time"] == newest[0]) & (g["session"] == newest[1])
        key_base = [(a, b) in base_set for a, b in zip(g["session_time"], g["session"])]
        gb = g[np.array(key_base, dtype=bool)]
        for _, r in g[is_new].iterrows():
            out = {"robot": robot, "joint": joint, "joint_type": r["joint_type"], "model": r["model"],
                   "name": r["name"], "unit": r["unit"], "session": r["session"],
                   "session_time": r["session_time"], "value": float(r["value"]),
                   "std_error": float(r["std_error"]), "n_sessions": n_sessions, "n_baseline": 0,
                   "baseline": math.nan, "baseline_se": math.nan, "scatter": math.nan,
                   "change": math.nan, "relative": math.nan, "z": math.nan,
                   "dof": math.nan, "threshold": math.nan, "detectable": math.nan,
                   "pool_joints": 0,
                   "statistical": False, "practical": False, "flagged": False,
                   "outcome": "undetermined", "severity": "", "cause": "",
                   "reason": ""}
            rows.append(out)
            if n_sessions < 2:
                out["reason"] = "no baseline: the joint has 1 session"
                out["cause"] = CAUSES["one_session"]
                continue
            b = gb[(gb["model"] == r["model"]) & (gb["name"] == r["name"])]
            ok = _usable(b)
            left_out = int((~ok).sum())
            b = b[ok]
            note = (f"; {left_out} baseline session(s) without a standard error or not determined "
                    f"left out" if left_out else "")
            if len(b) == 0:
                out["cause"] = CAUSES["no_usable_baseline"]
                out["reason"] = ("no baseline: no earlier session of this parameter "
                                 f"({r['model'] or 'model'}) with a standard error and determined"
                                 + (f" ({left_out} left out)" if left_out else ""))
                continue
            xb, seb = b["value"].to_numpy(float), b["std_error"].to_numpy(float)
            mean, se_b, tau = _baseline(xb, seb)
            x, se = out["value"], out["std_error"]
            m = len(b)
            dof_scatter = m - 1
            pool = pools.get((r["joint_type"], r["model"], r["name"]))
            tau_rel2, dof_pool, n_pool = pool.estimate((robot, joint)) if pool else (0.0, 0, 0)
            pooled = rule.pool_min_joints > 0 and n_pool >= rule.pool_min_joints and mean != 0
            if pooled:   # the joint's own scatter and the type's, each by its degrees of freedom
                tau2 = ((m - 1) * tau**2 + dof_pool * tau_rel2 * mean**2) / (m - 1 + dof_pool)
                mean, se_b = _weighted_mean(xb, seb, tau2)
                tau, dof_scatter = math.sqrt(tau2), m - 1 + dof_pool
                out["pool_joints"] = n_pool
            out.update(n_baseline=m, baseline=mean, baseline_se=se_b, scatter=tau,
                       change=x - mean)
            if mean != 0:
                out["relative"] = (x - mean) / abs(mean)
                out["practical"] = bool(abs(out["relative"]) > rule.min_relative)
            rel_txt = (f"{100 * out['relative']:+.1f}% from the baseline {_fmt(mean)}"
                       if mean != 0 else "baseline 0: relative change undefined")
            if not (math.isfinite(se) and se > 0):
                out["reason"] = f"newest estimate has no standard error: not tested statistically ({rel_txt})"
                out["cause"] = CAUSES["no_std_error"]
                continue
            if not bool(r["determined"]):
                out["reason"] = f"newest estimate not determined by its record: not tested statistically ({rel_txt})"
                out["cause"] = CAUSES["not_determined"]
                continue
            comb = math.sqrt(se**2 + tau**2 + se_b**2)
            z = (x - mean) / comb
            dof = math.inf if tau == 0 else float(dof_scatter)
            thr = zc if tau == 0 else float(student_t.ppf(0.5 + 0.5 * rule.level, dof))
            out["z"] = z
            out["threshold"] = thr
            out["dof"] = dof
            if mean != 0:
                out["detectable"] = thr * comb / abs(mean)
            out["statistical"] = bool(abs(z) > thr)
            out["flagged"] = out["statistical"] and out["practical"]
            source = (f"scatter {_fmt(tau)} pooled with {n_pool} joints of the type" if pooled
                      else f"baseline scatter {_fmt(tau)}")
            band = (f"the combined {pct} band (z = {z:+.2f}, |z| {'>' if out['statistical'] else '<='} "
                    f"{thr:.3g}" + (f", t with {dof:.3g} d.o.f.: {source}" if tau else "") + ")")
            lim = f"{100 * rule.min_relative:g}%"
            few = m < rule.min_baseline and not pooled
            few_txt = (f"a baseline of {m} session{'s' if m != 1 else ''} (fewer than {rule.min_baseline}: "
                       + ("the scatter between sessions cannot be estimated from one, so the band "
                          "assumes there is none" if m == 1 else "too few to judge the scatter between "
                          "sessions") + ")")
            if out["flagged"]:
                out["outcome"] = "drift"
                out["severity"] = _severity(z, thr, out["relative"], rule)
                out["reason"] = (f"drift: outside {band} and {rel_txt} (> {lim})" + note
                                 + (f"; note: {few_txt}" if few else ""))
                continue
            det = out["detectable"]
            where = f"{'outside' if out['statistical'] else 'within'} {band}"
            if mean == 0:
                out["cause"] = CAUSES["zero_baseline"]
                out["reason"] = (f"undetermined: {rel_txt}, so the practical threshold cannot be "
                                 f"applied; {where}" + note)
            elif few:
                out["reason"] = f"undetermined: {few_txt}; {where}; {rel_txt}" + note
                out["cause"] = CAUSES["few_baseline"]
            elif out["statistical"]:   # a change was seen, and it is smaller than what matters
                out["outcome"] = "no drift"
                out["reason"] = f"outside {band} but {rel_txt} (<= {lim})" + note
            elif det > rule.max_detectable:
                why = ("the standard errors of the estimates are large" if not tau else
                       f"the sessions scatter beyond their standard errors ({source}; t with "
                       f"{dof:.3g} d.o.f.)" if pooled else
                       f"the baseline of {m} sessions scatters beyond their standard errors "
                       f"(scatter {_fmt(tau)}; t with {dof:.3g} d.o.f.)")
                out["cause"] = CAUSES["scatter" if tau else "large_errors"]
                out["reason"] = (f"undetermined: {why}: a change would have to exceed {thr:.3g} "
                                 f"combined standard errors ({100 * det:.3g}% of the baseline "
                                 f"{_fmt(mean)}, > {100 * rule.max_detectable:g}%) to be seen; "
                                 f"{rel_txt}, z = {z:+.2f}" + note)
            else:
                out["outcome"] = "no drift"
                out["reason"] = (f"within {band}; {rel_txt}; a change beyond {100 * det:.3g}% "
                                 "would be seen" + note)
    cols = ["robot", "joint", "joint_type", "model", "name", "unit", "session", "session_time",
            "value", "std_error", "n_sessions", "n_baseline", "baseline", "baseline_se", "scatter",
            "change", "relative", "z", "dof", "threshold", "detectable", "pool_joints", "statistical",
            "practical", "flagged", "outcome", "severity", "cause", "reason"]
    df = pd.DataFrame(rows, columns=cols)
    if len(df):
        rank = df["outcome"].map({o: i for i, o in enumerate(OUTCOMES)})
        df = df.assign(_rank=rank).sort_values(["_rank", "robot", "joint", "name"], kind="mergesort"
                                               ).drop(columns="_rank").reset_index(drop=True)
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


def shared_check(params: pd.DataFrame, evaluate: Callable, tasks: pd.DataFrame | None = None,
                 tolerance: float = 1.25) -> pd.DataFrame:
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
      tolerance: the shared set serves a unit when shared_rmse <= tolerance * own_rmse.
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
    return pd.DataFrame(rows, columns=["robot", "joint", "joint_type", "model", "session",
                                       "session_time", "key", "own_rmse", "shared_rmse", "ratio",
                                       "serves", "n_units"])
