"""The options a fleet configuration may give each command, with the CLI's rules (docs/fleet.md,
"The configuration file"): every option's JSON type and range is checked when the configuration
is read, so a wrong one is an error naming the file, line, column and JSON path before anything
runs, never a failed task per session or a binding's type error.

The names are the keyword arguments of frictionlab.fit / compare / fit_joint / fit_actuator
(python/src: the OptionTable of each function); the ranges are those of the CLI's options
(apps/frictionlab: main.cpp for fit and compare, fit_joint.cpp, fit_actuator.cpp).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

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


POSITIVE = _num(0, True)
NON_NEGATIVE = _num(0)
BOOL = Rule("bool")
STR = Rule("str")
INT32 = 2**31 - 1

CHANNELS = {c: STR for c in ("time", "position", "velocity", "current", "force", "matrix")}

_FIT_COMMON = {
    **CHANNELS,
    "problem": _choice("friction", "sensorless"),
    "rotary": BOOL,
    "warmup_s": NON_NEGATIVE,
    "hold": _choice("linear", "zoh"),
    "starts": _int(1, INT32),
    "spread": _num(1),
    "seed": _int(0, 2**32 - 1),
    "max_iterations": _int(1, INT32),
    "loss": _choice("none", "huber", "cauchy"),
    "loss_scale": NON_NEGATIVE,
    "threads": _int(1, INT32),
    "resample_rate": POSITIVE,
    "resample_max_gap": POSITIVE,
    "lowpass_cutoff": POSITIVE,
    "derivatives": _choice("none", "position", "velocity"),
}

_JOINT_PREP = {
    **CHANNELS,
    "torque_from_command": BOOL,
    "gain": _num(),
    "resample_rate": POSITIVE,
    "resample_max_gap": POSITIVE,
    "lowpass_cutoff": NON_NEGATIVE,  # 0: none; not given: chosen from the record
    "decimate": _int(1, INT32),
    "trim_s": NON_NEGATIVE,
    "diff": _choice("savgol", "central", "tvreg"),
    "diff_window_s": POSITIVE,
    "tv_alpha": POSITIVE,
    "tv_order": _choice(1, 2),
    "tv_second_alpha": POSITIVE,
    "reintegrate": BOOL,
    "tv_force_alpha": POSITIVE,
    "derivatives": _choice("position", "velocity"),
    "horizon_s": NON_NEGATIVE,
}

OPTIONS: dict[str, dict[str, Rule]] = {
    "fit": {**_FIT_COMMON, "model": STR, "method": _choice("lsq", "grid", "two-stage"),
            "alpha": POSITIVE, "fit_alpha": BOOL},
    "compare": {**_FIT_COMMON, "models": Rule("names"), "criterion": _choice("aicc", "bic")},
    "fit-joint": {
        **_JOINT_PREP,
        "method": _choice("idim", "sr3", "oe"),
        "init": Rule("str_or_object"),
        "gravity": BOOL, "offset": BOOL, "asymmetric": BOOL,
        "v_deadband": NON_NEGATIVE,
        "K": NON_NEGATIVE,
        "n_viscous": _int(0, 8),
        "delta": Rule("numbers", 0, True),
        "sigma0_init": Rule("numbers", 0, True),
        "aic_observations": _int(0, INT32),
        "output": _choice("position", "velocity", "both"),
        "jacobian": _choice("sensitivities", "central_differences"),
        "segment_s": NON_NEGATIVE,
        "max_iterations": _int(1, INT32),
        "closed_loop": BOOL,
        "controller": Rule("str_or_object"),
        "max_step": POSITIVE,
    },
    "fit-actuator": {
        "actuator": STR,
        "models": Rule("names"),
        "validation": STR,
        "trials": _int(1, 2**63 - 1),
        "time_budget": NON_NEGATIVE,
        "seed": _int(0, 2**64 - 1),
        "threads": _int(1, INT32),
        "restarts": _int(0, INT32),
        "sigma0": POSITIVE,
        "velocity_weight": NON_NEGATIVE,
        "current_weight": _num(),
        "ranges": Rule("ranges"),
        "tolerance": NON_NEGATIVE,
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
