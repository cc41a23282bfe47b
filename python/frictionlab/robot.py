"""Robot arm identification from Python (docs/robot-identification.md, "Python").

``fit_robot`` runs the same workflow as ``frictionlab fit-robot`` and returns a
:class:`FitRobotOutcome`: plain dataclasses (picklable, comparable) built from the object that
the command writes as robot_fit.json, with the same names.
"""
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _frictionlab

Path = Union[str, PathLike]


@dataclass(frozen=True)
class RobotParameter:
    """One base parameter: ``value`` of ``expression`` (its own parameter plus the dependent ones
    it absorbs, as (name, coefficient) ``terms``) with its standard error."""
    name: str
    expression: str
    terms: Tuple[Tuple[str, float], ...]
    unit: str
    value: float
    std_error: float
    relative_std_error_percent: Optional[float]
    poorly_determined: bool


@dataclass(frozen=True)
class RobotValidation:
    """The fit's torque prediction on one validation record."""
    record: str
    samples: int
    relative_error_percent: float
    rms_error: Dict[str, float]


@dataclass(frozen=True)
class FitRobotOutcome:
    """The result of :func:`fit_robot` (robot_fit.json's keys as attributes)."""
    robot: str
    record: str
    joints: Tuple[str, ...]
    samples: int
    preprocessing: str
    lowpass_hz: float
    standard_parameters: int
    rank: int
    condition_number: Optional[float]
    relative_error_percent: float
    rms_error: Dict[str, float]
    sigma: Dict[str, float]
    parameters: Tuple[RobotParameter, ...]
    validation: Tuple[RobotValidation, ...]
    flags: Tuple[str, ...]
    verdict: Dict[str, Any]
    seconds: float
    raw: Dict[str, Any] = field(repr=False, compare=False)

    def parameter(self, name: str) -> RobotParameter:
        """The base parameter called ``name`` ("Fc_q4"); KeyError naming the known ones."""
        for p in self.parameters:
            if p.name == name:
                return p
        raise KeyError(f"no base parameter {name!r} (the fit has: "
                       + ", ".join(p.name for p in self.parameters[:8]) + ", ...)")

    def to_dict(self) -> Dict[str, Any]:
        """robot_fit.json's object."""
        return self.raw


def _outcome(d: Dict[str, Any]) -> FitRobotOutcome:
    params = tuple(RobotParameter(p["name"], p["expression"],
                                  tuple((t[0], float(t[1])) for t in p["terms"]), p["unit"],
                                  p["value"], p["std_error"], p["relative_std_error_percent"],
                                  p["poorly_determined"]) for p in d["parameters"])
    validation = tuple(RobotValidation(v["record"], v["samples"], v["relative_error_percent"],
                                       dict(v["rms_error"])) for v in d["validation"])
    return FitRobotOutcome(
        robot=d["robot"], record=d["record"], joints=tuple(d["joints"]), samples=d["samples"],
        preprocessing=d["preprocessing"], lowpass_hz=d["lowpass_hz"],
        standard_parameters=d["standard_parameters"], rank=d["rank"],
        condition_number=d["condition_number"],
        relative_error_percent=d["relative_error_percent"], rms_error=dict(d["rms_error"]),
        sigma=dict(d["sigma"]), parameters=params, validation=validation,
        flags=tuple(d["flags"]), verdict=d["verdict"], seconds=d["seconds"], raw=d)


def fit_robot(robot: Path, record: Path, validate: Optional[Sequence[Path]] = None, *,
              time: str = "time", position: str = "q", velocity: str = "dq",
              torque: str = "tau", current: str = "", layout: str = "",
              gains: Sequence[float] = (), resample_rate: float = 0.0,
              lowpass: Optional[float] = None, trim: float = 0.0, armature: bool = False,
              viscous: bool = True, coulomb: bool = True, offset: bool = True,
              weighted: bool = True) -> FitRobotOutcome:
    """Identify a robot arm's base inertial parameters and joint friction from a record
    (``frictionlab fit-robot``; the options are its options, by the same names: ``--resample``
    is ``resample_rate``, ``--ols`` is ``weighted=False``, ``--no-offset`` is ``offset=False``).

    robot: a .urdf or ROBOT.json path; record, validate: CSV paths with the columns ``time``,
    ``position``/``velocity``/``torque`` + joint number (or ``current`` with ``gains`` [N m/A],
    or ``layout="ur"``); ``lowpass=None`` chooses the low-pass from the record, 0 is none.
    Errors are ``frictionlab.Error`` with the command's messages; Ctrl-C stops the fit."""
    if isinstance(validate, (str, PathLike)):
        validate = [validate]
    d = _frictionlab._fit_robot(robot, record, list(validate or []), time=time,
                                position=position, velocity=velocity, torque=torque,
                                current=current, layout=layout, gains=list(gains),
                                resample_rate=resample_rate, lowpass=lowpass, trim=trim,
                                armature=armature, viscous=viscous, coulomb=coulomb,
                                offset=offset, weighted=weighted)
    return _outcome(d)
