"""The options a fleet configuration may give each command, with the CLI's rules (docs/fleet.md,
"The configuration file"): every option's JSON type and range is checked when the configuration
is read, so a wrong one is an error naming the file, line, column and JSON path before anything
runs, never a failed task per session or a binding's type error.

The names are the keyword arguments of frictionlab.fit / compare / fit_joint / fit_actuator /
fit_robot (python/src: the OptionTable of each function). The range of a numeric option is the
library's (workflows/validate.hpp, read through frictionlab._frictionlab._option_rule: the one
table the bindings, the workflows and the CLI check); the few options without one there (seed,
gains, regularisation weights) have theirs here.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

from frictionlab import _frictionlab

from .errors import FleetInputError


@dataclass(frozen=True)
class Rule:
    """One option: its kind and range. kind: "int", "number", "bool", "str" (non-empty),
    "choice" (one of `choices`), "names" (a non-empty str or list of non-empty str), "numbers"
    (a non-empty list of numbers), "str_or_object" (a non-empty str or an object), "ranges"
    (fit-actuator: {KEY: [LO, HI]} or a list of "KEY=LO:HI")."""
    kind: str
    lo: float | None = None
    lo_open: bool = False       # lo excluded (> lo) rather than included (>= lo)
    hi: float | None = None
    choices: tuple = ()


def _int(lo=None, hi=None):
    return Rule("int", lo, False, hi)


def _num(lo=None, open_=False):
    return Rule("number", lo, open_)


def _choice(*c):
    return Rule("choice", choices=c)


def _library(name: str) -> Rule:
    """The range of numeric option `name` in the library's table, as the bindings check a value
    given (its "not given" value refused; an integer within a C++ int)."""
    r = _frictionlab._option_rule(name)
    if r is None:
        raise LookupError(f"the library has no range for the option '{name}'")
    lo = None if math.isinf(r["lo"]) else r["lo"]
    if r["integer"]:
        return Rule("int", None if lo is None else int(lo), False, int(min(r["hi"], INT32)))
    return Rule("number", lo, r["lo_open"], None if math.isinf(r["hi"]) else r["hi"])


INT32 = 2**31 - 1
POSITIVE = _num(0, True)
NON_NEGATIVE = _num(0)
BOOL = Rule("bool")
STR = Rule("str")

CHANNELS = {c: STR for c in ("time", "position", "velocity", "current", "force", "matrix")}

_FIT_COMMON = {
    **CHANNELS,
    "problem": _choice("friction", "sensorless"),
    "rotary": BOOL,
    "warmup_s": _library("warmup_s"),
    "hold": _choice("linear", "zoh"),
    "starts": _library("starts"),
    "spread": _library("spread"),
    "seed": _int(0, 2**32 - 1),
    "max_iterations": _library("max_iterations"),
    "loss": _choice("none", "huber", "cauchy"),
    "loss_scale": _library("loss_scale"),
    "threads": _library("threads"),
    "resample_rate": _library("resample_rate"),
    "resample_max_gap": POSITIVE,
    "lowpass_cutoff": _library("lowpass_cutoff"),
    "derivatives": _choice("none", "position", "velocity"),
}

_JOINT_PREP = {
    **CHANNELS,
    "temperature": STR,  # the records' temperature column [degC] (temperature_law)
    "torque_from_command": BOOL,
    "gain": _num(),
    "resample_rate": _library("resample_rate"),
    "resample_max_gap": POSITIVE,
    "lowpass_cutoff": NON_NEGATIVE,  # 0: none; not given: chosen from the record
    "decimate": _library("decimate"),
    "trim_s": _library("trim_s"),
    "diff": _choice("savgol", "central", "tvreg"),
    "diff_window_s": _library("diff_window_s"),
    "tv_alpha": POSITIVE,
    "tv_order": _choice(1, 2),
    "tv_second_alpha": POSITIVE,
    "reintegrate": BOOL,
    "tv_force_alpha": _library("tv_force_alpha"),
    "derivatives": _choice("position", "velocity"),
    "horizon_s": _library("horizon_s"),
}

OPTIONS: dict[str, dict[str, Rule]] = {
    "fit": {**_FIT_COMMON, "model": STR, "method": _choice("lsq", "grid", "two-stage"),
            "alpha": POSITIVE, "fit_alpha": BOOL},
    "compare": {**_FIT_COMMON, "models": Rule("names"), "criterion": _choice("aicc", "bic")},
    "fit-joint": {
        **_JOINT_PREP,
        "method": _choice("idim", "sr3", "oe"),
        "init": Rule("str_or_object"),
        "gravity": BOOL, "offset": BOOL, "asymmetric": BOOL, "load_dependent": BOOL,
        "temperature_law": _choice("linear", "exponential"),
        "temperature_ref": _library("temperature_ref"),
        "v_deadband": _library("v_deadband"),
        "K": _library("K"),
        "n_viscous": _library("n_viscous"),
        "delta": Rule("numbers", 0, True),
        "sigma0_init": Rule("numbers", 0, True),
        "aic_observations": _library("aic_observations"),
        "output": _choice("position", "velocity", "both"),
        "jacobian": _choice("sensitivities", "central_differences"),
        "segment_s": _library("segment_s"),
        "max_iterations": _library("max_iterations"),
        "closed_loop": BOOL,
        "controller": Rule("str_or_object"),
        "max_step": _library("max_step"),
    },
    "fit-robot": {
        # the robot description (a .urdf or ROBOT.json) and the loaded record: paths relative to
        # the configuration file (config.py makes them absolute)
        "robot": STR,
        "loaded": STR,
        **{c: STR for c in ("time", "position", "velocity", "torque", "current")},
        "layout": _choice("ur"),
        "gains": Rule("numbers", 0, True),
        "resample_rate": _library("resample_rate"),
        "lowpass": NON_NEGATIVE,  # 0: none; not given: chosen from the record
        "trim": NON_NEGATIVE,
        "armature": BOOL, "viscous": BOOL, "coulomb": BOOL, "offset": BOOL, "weighted": BOOL,
        "consistent": BOOL, "load_dependent": BOOL,
        "friction": STR,
        "payload_mass": POSITIVE,
    },
    "fit-actuator": {
        "actuator": STR,
        "models": Rule("names"),
        "validation": STR,
        "trials": _library("trials"),
        "time_budget": _library("time_budget"),
        "seed": _int(0, 2**64 - 1),
        "threads": _library("threads"),
        "restarts": _library("restarts"),
        "sigma0": _library("sigma0"),
        "velocity_weight": _library("velocity_weight"),
        "current_weight": _num(),
        "ranges": Rule("ranges"),
        "tolerance": _library("tolerance"),
        "drive": _choice("voltage", "current"),
        "error_gain": _num(),
        "max_pwm": _num(),
        "max_current": _num(),
        "vin": _num(),
        "kp": Rule("names"),
        "trajectory": Rule("names"),
        "files": Rule("names"),
        "resample": NON_NEGATIVE,
        "current_unit": _choice("A", "mA"),
        "temperature_law": _choice("linear", "exponential"),
        "temperature_viscous": BOOL,
    },
}


def _show(value) -> str:
    """A JSON value for a message: its JSON text, at most 60 characters."""
    s = json.dumps(value, ensure_ascii=True)
    return s if len(s) <= 60 else s[:57] + "..."


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _range_text(rule: Rule, value=None) -> str:
    """The rule's range for a message: the lower bound, and the upper one when it is small (a
    count such as n_viscous <= 8) or the one `value` exceeds (an int beyond the C++ type)."""
    parts = []
    if rule.lo is not None:
        parts.append(f"{'>' if rule.lo_open else '>='} {rule.lo:g}")
    if rule.hi is not None and (rule.hi < 1e6 or (_is_number(value) and value > rule.hi)):
        parts.append(f"<= {rule.hi}")
    return " and ".join(parts)


def _in_range(rule: Rule, x) -> bool:
    if rule.lo is not None and (x <= rule.lo if rule.lo_open else x < rule.lo):
        return False
    return rule.hi is None or x <= rule.hi


def _nonempty_str(x) -> bool:
    return isinstance(x, str) and x != ""


def problem(rule: Rule, value) -> str | None:
    """What is wrong with `value` under `rule` ("must be ..., got ..."), or None."""
    k = rule.kind
    got = f", got {_show(value)}"
    if k in ("int", "number"):
        ok = _is_int(value) if k == "int" else _is_number(value)
        if not ok or not _in_range(rule, value):
            what = "an integer" if k == "int" else "a number"
            rng = _range_text(rule, value)
            return f"must be {what}{' ' + rng if rng else ''}{got}"
    elif k == "bool":
        if not isinstance(value, bool):
            return f"must be true or false{got}"
    elif k == "str":
        if not _nonempty_str(value):
            return f"must be a non-empty string{got}"
    elif k == "choice":
        if value not in rule.choices or isinstance(value, bool):
            return f"must be one of {', '.join(_show(c) for c in rule.choices)}{got}"
    elif k == "names":
        if not (_nonempty_str(value) or (isinstance(value, list) and value and
                                         all(_nonempty_str(v) or _is_number(v) for v in value))):
            return f"must be a non-empty string or a non-empty list of names{got}"
    elif k == "numbers":
        if not (isinstance(value, list) and value and
                all(_is_number(v) and _in_range(rule, v) for v in value)):
            return f"must be a non-empty list of numbers {_range_text(rule)}{got}"
    elif k == "str_or_object":
        if not (_nonempty_str(value) or isinstance(value, dict)):
            return f"must be a non-empty string or an object{got}"
    elif k == "ranges":
        return _ranges_problem(value)
    return None


def _ranges_problem(value) -> str | None:
    if isinstance(value, dict):
        for key, lohi in value.items():
            if not (isinstance(lohi, list) and len(lohi) == 2 and all(map(_is_number, lohi))
                    and lohi[0] < lohi[1]):
                return (f"must map each parameter to [LO, HI] (two numbers, LO < HI); "
                        f"{_show(key)} is {_show(lohi)}")
        return None
    if isinstance(value, list) and all(_nonempty_str(v) for v in value):
        return None
    return f"must be an object {{KEY: [LO, HI]}} or a list of \"KEY=LO:HI\" strings, got {_show(value)}"


def check(command: str, options: dict, where) -> None:
    """Check a joint type's options for `command`: raise FleetInputError
    "WHERE: PATH.NAME: must be ..." for an unknown option or a value out of its rule.
    where(name) -> (the position prefix "fleet.json:L:C", the JSON path of the option)."""
    rules = OPTIONS[command]
    for name, value in options.items():
        rule = rules.get(name)
        if rule is None:
            at, path = where(name)
            raise FleetInputError(f"{at}: {path}: unknown option of {command} (options: "
                                  f"{', '.join(sorted(rules))})")
        message = problem(rule, value)
        if message is not None:
            at, path = where(name)
            raise FleetInputError(f"{at}: {path}: {message}")
