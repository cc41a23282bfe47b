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
# A record: a CSV path, a pandas DataFrame or a dict of arrays, with the columns a CSV would have.
RecordLike = Union[str, PathLike, Any]


def _one_record(obj: Any) -> bool:
    """Whether ``obj`` is one record (a path, a DataFrame, a dict) rather than a list of them."""
    return isinstance(obj, (str, PathLike, dict)) or hasattr(obj, "columns")


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

    @property
    def friction(self) -> Dict[str, Any]:
        """robot_fit.json's "friction": ``{"model": "linear"}``, or for a model of the registry
        its rounds and per joint the fit.json object of that joint's friction fit."""
        return self.raw["friction"]

    @property
    def drive_gains(self) -> Optional[Dict[str, Any]]:
        """robot_fit.json's "drive_gains": None, or the gains identified with a ``loaded``
        record (``gains``, ``least_squares`` and ``payload`` as parameter objects)."""
        return self.raw["drive_gains"]

    @property
    def consistent(self) -> Optional[Dict[str, Any]]:
        """robot_fit.json's "consistent": None, or with ``consistent=True`` the link inertials
        (``links``: mass, com, inertia per joint), ``distance`` and ``relative_error_percent``."""
        return self.raw["consistent"]

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


def fit_robot(robot: Path, record: RecordLike,
              validate: Optional[Sequence[RecordLike]] = None, *, time: str = "time",
              position: str = "q", velocity: str = "dq", torque: str = "tau",
              current: str = "", layout: str = "",
              gains: Sequence[float] = (), resample_rate: float = 0.0,
              lowpass: Optional[float] = None, trim: float = 0.0, armature: bool = False,
              viscous: bool = True, coulomb: bool = True, offset: bool = True,
              weighted: bool = True, friction: str = "linear",
              loaded: Optional[RecordLike] = None,
              payload_mass: Optional[float] = None,
              consistent: bool = False, load_dependent: bool = False) -> FitRobotOutcome:
    """Identify a robot arm's base inertial parameters and joint friction from a record
    (``frictionlab fit-robot``; the options are its options, by the same names: ``--resample``
    is ``resample_rate``, ``--ols`` is ``weighted=False``, ``--no-offset`` is ``offset=False``).

    robot: a .urdf or ROBOT.json path; record, validate (one or a list), loaded: CSV paths, pandas
    DataFrames or dicts of float arrays, with the columns ``time``, ``position``/``velocity``/
    ``torque`` + joint number (or ``current`` with ``gains`` [N m/A], or ``layout="ur"``: the
    log's columns by position); ``lowpass=None`` chooses the low-pass from the record, 0 is none;
    ``friction``: "linear" or a model of the registry per joint ("stribeck", "lugre", ...);
    ``loaded`` with ``payload_mass`` [kg]: a second record with currents and that payload on the
    last link: the drive gains are identified with the dynamics (``--loaded``, ``--payload-mass``);
    ``consistent``: also the physically consistent link inertials (``--consistent``);
    ``load_dependent``: each joint's Coulomb level grows with the torque it carries, Fc + mu |tau|
    (``--load-dependent``; linear friction only).
    Errors are ``frictionlab.Error`` with the command's messages; Ctrl-C stops the fit."""
    if validate is not None and _one_record(validate):
        validate = [validate]
    d = _frictionlab._fit_robot(robot, record, list(validate or []), time=time,
                                position=position, velocity=velocity, torque=torque,
                                current=current, layout=layout, gains=list(gains),
                                resample_rate=resample_rate, lowpass=lowpass, trim=trim,
                                armature=armature, viscous=viscous, coulomb=coulomb,
                                offset=offset, weighted=weighted, friction=friction,
                                loaded=loaded, payload_mass=payload_mass or 0.0,
                                consistent=consistent, load_dependent=load_dependent)
    return _outcome(d)


@dataclass(frozen=True)
class ExcitationCheck:
    """What a trajectory determines (excitation.json's ``check``): the base regressor's
    condition number (None: a base parameter is not excited), per base parameter its
    ``separation`` in [0, 1] (1: orthogonal to the others), per joint range, peaks and velocity
    reversals, and the flags."""
    samples: int
    rank: int
    condition_number: Optional[float]
    separation: Dict[str, float]
    range: Dict[str, float]
    peak_velocity: Dict[str, float]
    peak_acceleration: Dict[str, float]
    reversals: Dict[str, int]
    flags: Tuple[str, ...]
    preprocessing: str = ""


@dataclass(frozen=True)
class ExcitationDesign:
    """The result of :func:`excite`: the Fourier trajectory (``period``, ``q0``, ``start``,
    coefficients ``a``, ``b`` per joint), its check, and ``columns``: excitation.csv's columns
    (time, q1.., dq1.., ddq1..) as float64 arrays (``pandas.DataFrame(design.columns)``)."""
    period: float
    harmonics: int
    q0: Dict[str, float]
    start: Dict[str, float]
    a: Dict[str, Tuple[float, ...]]
    b: Dict[str, Tuple[float, ...]]
    check: ExcitationCheck
    evaluations: int
    seconds: float
    columns: Dict[str, Any] = field(repr=False, compare=False)
    raw: Dict[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """excitation.json's object."""
        return self.raw


def _check(d: Dict[str, Any], preprocessing: str = "") -> ExcitationCheck:
    return ExcitationCheck(
        samples=d["samples"], rank=d["rank"], condition_number=d["condition_number"],
        separation=dict(d["separation"]), range=dict(d["range"]),
        peak_velocity=dict(d["peak_velocity"]), peak_acceleration=dict(d["peak_acceleration"]),
        reversals=dict(d["reversals"]), flags=tuple(d["flags"]), preprocessing=preprocessing)


def excite(robot: Path, *, period: float = 10.0, harmonics: int = 5, margin: float = 0.95,
           velocity_limit: Optional[Sequence[float]] = None,
           acceleration_limit: Optional[Sequence[float]] = None, evaluations: int = 3000,
           seed: int = 1, threads: int = 1, armature: bool = False, viscous: bool = True,
           coulomb: bool = True, offset: bool = True, rate: float = 1000.0,
           periods: int = 1) -> ExcitationDesign:
    """Design an excitation trajectory for :func:`fit_robot` (``frictionlab excite``; the
    options are its options by the same names: ``--velocity-limit`` is ``velocity_limit``).
    Errors are ``frictionlab.Error`` with the command's messages."""
    r = _frictionlab._excite(robot, period=period, harmonics=harmonics, margin=margin,
                             velocity_limits=list(velocity_limit or []),
                             acceleration_limits=list(acceleration_limit or []),
                             evaluations=evaluations, seed=seed, threads=threads,
                             armature=armature, viscous=viscous, coulomb=coulomb, offset=offset,
                             rate=rate, periods=periods)
    d, t = r["design"], r["design"]["trajectory"]
    return ExcitationDesign(
        period=t["period"], harmonics=t["harmonics"], q0=dict(t["q0"]), start=dict(t["start"]),
        a={k: tuple(v) for k, v in t["a"].items()}, b={k: tuple(v) for k, v in t["b"].items()},
        check=_check(d["check"]), evaluations=d["evaluations"], seconds=d["seconds"],
        columns=dict(r["columns"]), raw=d)


def check_excitation(robot: Path, record: RecordLike, *, time: str = "time", position: str = "q",
                     velocity: str = "dq", torque: str = "tau", current: str = "",
                     layout: str = "", gains: Sequence[float] = (), resample_rate: float = 0.0,
                     lowpass: Optional[float] = None, trim: float = 0.0, armature: bool = False,
                     viscous: bool = True, coulomb: bool = True,
                     offset: bool = True) -> ExcitationCheck:
    """What a recorded trajectory determines (``frictionlab excite --check``), after the
    preprocessing :func:`fit_robot` gives it (record options as fit_robot's)."""
    d = _frictionlab._check_excitation(robot, record, time=time, position=position,
                                       velocity=velocity, torque=torque, current=current,
                                       layout=layout, gains=list(gains),
                                       resample_rate=resample_rate, lowpass=lowpass, trim=trim,
                                       armature=armature, viscous=viscous, coulomb=coulomb,
                                       offset=offset)
    return _check(d, d["preprocessing"])
