# Type stubs of frictionlab._frictionlab (docs/python.md): the models here, the records and
# workflows in _workflows.pyi (re-exported at the end). test_stubs.py checks every public name,
# class, method and argument name of both against the compiled module (CONTRIBUTING.md).
from __future__ import annotations

import os
from typing import Any, Callable, ClassVar, Generic, Mapping, Sequence, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

class Error(ValueError): ...
class FrictionlabWarning(UserWarning): ...

# ==== models: parameters, one-sample functions, simulate, coupled systems (bind_models.cpp) ====

_Array = npt.NDArray[np.float64]
_ArrayIn = npt.NDArray[np.float64] | npt.NDArray[np.float32]
_Path = str | os.PathLike[str]

class ModelParams:
    """The parameters of any registered model. Every model's Params class (LuGreParams, ...) has
    all that is declared here, with its own keys as properties."""
    @property
    def model_name(self) -> str: ...
    model: ClassVar[str]  # the model's name, e.g. 'lugre'
    keys: ClassVar[tuple[str, ...]]  # the MODEL.json keys, in documentation order
    def check(self) -> list[str]:
        """Validate (library's rules and messages); raise Error; return warnings."""
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def write(self, path: _Path) -> None: ...
    # A staticmethod of each Params class (LuGreParams.from_dict(d)), declared as a classmethod
    # so that it returns that class.
    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self: ...
    def replace(self, **kwargs: Any) -> Self: ...
    def __eq__(self, other: object) -> bool: ...

class _StribeckCurve(ModelParams):
    """The keys of the Stribeck curve (StribeckCurve, docs/models.md) of every model that has one;
    a stub-only base: at run time each Params class has them itself."""
    Fc: float
    Fc_pos: float
    Fc_neg: float
    Fs: float
    Fs_pos: float
    Fs_neg: float
    vs: float
    alpha: float
    shape: str

# The model classes (bind_model in bind_models.cpp) have the same functions on one sample, typed
# once here on stub-only generic bases over the model's Params class _P and State class _S. At
# run time they are staticmethods; they are declared as classmethods, called the same way
# (LuGre.force(p, x, v)), because type checkers bind a class's type parameters in a classmethod
# and not in a staticmethod.
_P = TypeVar("_P", bound=ModelParams)
_S = TypeVar("_S")

class _Model(Generic[_P, _S]):
    name: ClassVar[str]
    num_states: ClassVar[int]
    @classmethod
    def force(cls, params: _P, state: _S, v: float) -> float: ...
    @classmethod
    def steady_force(cls, params: _P, v: float) -> float: ...
    @classmethod
    def step(cls, params: _P, state: _S, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> _S: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class _DynamicModel(_Model[_P, _S]):
    """A model with a state (num_states > 0)."""
    @classmethod
    def state_bound(cls, params: _P) -> float: ...

# The State classes by their members. Each model's State is its own class: the type parameter _M
# (the model) keeps one model's State from passing for another's (LuGre.State = _ZState[LuGre]).
_M = TypeVar("_M")

class _StaticState(Generic[_M]):
    """The (empty) state of a static model."""
    def __init__(self, z: None = None, slipping: None = None) -> None: ...

class _ZState(Generic[_M]):
    def __init__(self, z: float | Sequence[float] | None = None, slipping: None = None) -> None: ...
    z: float

class _ElementsState(Generic[_M]):
    def __init__(self, z: Sequence[float] | None = None, slipping: None = None) -> None: ...
    z: list[float]

class _GMSState:
    def __init__(self, z: Sequence[float] | None = None, slipping: Sequence[bool] | None = None) -> None: ...
    z: list[float]
    slipping: list[bool]

class CoulombParams(ModelParams):
    def __init__(self, *, Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., v_smooth: float = ..., smoothing: str = ...) -> None: ...
    Fc: float
    Fc_pos: float
    Fc_neg: float
    v_smooth: float
    smoothing: str

class Coulomb(_Model[CoulombParams, _StaticState[Coulomb]]):
    Params: ClassVar[type[CoulombParams]]
    State = _StaticState[Coulomb]

class ViscousParams(ModelParams):
    def __init__(self, *, sigma2: float = ...) -> None: ...
    sigma2: float

class Viscous(_Model[ViscousParams, _StaticState[Viscous]]):
    Params: ClassVar[type[ViscousParams]]
    State = _StaticState[Viscous]

class CoulombViscousParams(ModelParams):
    def __init__(self, *, Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., sigma2: float = ..., v_smooth: float = ..., smoothing: str = ...) -> None: ...
    Fc: float
    Fc_pos: float
    Fc_neg: float
    sigma2: float
    v_smooth: float
    smoothing: str

class CoulombViscous(_Model[CoulombViscousParams, _StaticState[CoulombViscous]]):
    Params: ClassVar[type[CoulombViscousParams]]
    State = _StaticState[CoulombViscous]

class StribeckParams(_StribeckCurve):
    def __init__(self, *, Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ..., sigma2: float = ..., v_smooth: float = ..., smoothing: str = ...) -> None: ...
    sigma2: float
    v_smooth: float
    smoothing: str

class Stribeck(_Model[StribeckParams, _StaticState[Stribeck]]):
    Params: ClassVar[type[StribeckParams]]
    State = _StaticState[Stribeck]

class LuGreParams(_StribeckCurve):
    def __init__(self, *, sigma0: float = ..., sigma1: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ..., vd: float = ...) -> None: ...
    sigma0: float
    sigma1: float
    sigma2: float
    vd: float

class LuGre(_DynamicModel[LuGreParams, _ZState[LuGre]]):
    Params: ClassVar[type[LuGreParams]]
    State = _ZState[LuGre]

class DahlParams(ModelParams):
    def __init__(self, *, sigma0: float = ..., Fc: float = ..., n: float = ...) -> None: ...
    sigma0: float
    Fc: float
    n: float

class Dahl(_DynamicModel[DahlParams, _ZState[Dahl]]):
    Params: ClassVar[type[DahlParams]]
    State = _ZState[Dahl]

class ElastoPlasticParams(_StribeckCurve):
    def __init__(self, *, sigma0: float = ..., sigma1: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ..., z_ba: float = ...) -> None: ...
    sigma0: float
    sigma1: float
    sigma2: float
    z_ba: float

class ElastoPlastic(_DynamicModel[ElastoPlasticParams, _ZState[ElastoPlastic]]):
    Params: ClassVar[type[ElastoPlasticParams]]
    State = _ZState[ElastoPlastic]

class MaxwellSlipParams(ModelParams):
    def __init__(self, *, n: int = ..., k: list[float] = ..., Delta: list[float] = ..., sigma2: float = ...) -> None: ...
    n: int
    k: list[float]
    Delta: list[float]
    sigma2: float

class MaxwellSlip(_DynamicModel[MaxwellSlipParams, _ElementsState[MaxwellSlip]]):
    Params: ClassVar[type[MaxwellSlipParams]]
    State = _ElementsState[MaxwellSlip]

class ModifiedStribeckParams(_StribeckCurve):
    def __init__(self, *, k: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ...) -> None: ...
    k: float
    sigma2: float

class ModifiedStribeck(_DynamicModel[ModifiedStribeckParams, _ZState[ModifiedStribeck]]):
    Params: ClassVar[type[ModifiedStribeckParams]]
    State = _ZState[ModifiedStribeck]

class GMSParams(_StribeckCurve):
    def __init__(self, *, n: int = ..., k: list[float] = ..., nu: list[float] = ..., C: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ...) -> None: ...
    n: int
    k: list[float]
    nu: list[float]
    C: float
    sigma2: float

class GMS(_DynamicModel[GMSParams, _GMSState]):
    Params: ClassVar[type[GMSParams]]
    State = _GMSState

class JointLuGreParams(ModelParams):
    def __init__(self, *, sigma0: float = ..., sigma1: float = ..., Fc: float = ..., cv: list[float] = ..., Fs: list[float] = ..., delta: list[float] = ..., Omega_s: float = ..., K: float = ...) -> None: ...
    sigma0: float
    sigma1: float
    Fc: float
    cv: list[float]
    Fs: list[float]
    delta: list[float]
    Omega_s: float
    K: float

class JointLuGre(_DynamicModel[JointLuGreParams, _ZState[JointLuGre]]):
    Params: ClassVar[type[JointLuGreParams]]
    State = _ZState[JointLuGre]

def model_names() -> list[str]: ...
def read_model(path: _Path) -> ModelParams: ...
def parse_model_json(text: str, file: str = "<string>") -> ModelParams: ...
def model_from_dict(d: Mapping[str, Any]) -> ModelParams: ...

class SimulateModelOutcome:
    model: str
    hold: str
    t: _Array
    x: _Array | None
    v: _Array
    F: _Array
    state_names: list[str]
    states: list[_Array]
    state_bound: float
    bound_exceeded: int
    warnings: list[str]

def simulate(model: ModelParams | _Path, t: _ArrayIn, v: _ArrayIn | None = None, *,
             x: _ArrayIn | None = None, temperature: _ArrayIn | None = None,
             temperature_law: dict[str, Any] | None = None, hold: str | None = None,
             method: str = "exact", max_substep: float | None = None,
             progress: None | bool | Callable[[str, float], Any] = None) -> SimulateModelOutcome:
    """Drive a model from its zero state along (t [s], v [m/s]) or (t, x [m]); F [N]. With a
    temperature law (a MODEL.json's "temperature", or temperature_law= with Params), its levels
    at temperature [degC] at every t."""

def simulate_batch(params: Sequence[LuGreParams], t: _ArrayIn, v: _ArrayIn, *,
                   progress: None | bool | Callable[[str, float], Any] = None) -> _Array:
    """P LuGre sets along one record (t [s], v [m/s]), velocity held (zoh): F [N], shape (P, N)."""

class SimOptions:
    integrator: str
    h: float
    output_dt: float
    rtol: float
    atol: float
    def __init__(self, *, integrator: str = "trbdf2", h: float = 1e-3, output_dt: float = 0.0,
                 rtol: float = 1e-8, atol: float = 1e-10) -> None: ...

class StickSlipSpec:
    m: float
    k: float
    v_drive: float
    belt: bool
    x0: float
    v0: float
    t_end: float
    def __init__(self, *, m: float = 1.0, k: float = 2.0, v_drive: float = 0.1, belt: bool = False,
                 x0: float = 0.0, v0: float = 0.0, t_end: float = 20.0) -> None: ...

class JointSpec:
    I: float
    mgCx: float
    mgCy: float
    tau_t: _Array
    tau: _Array
    tau_offset: float
    tau_amp: float
    tau_freq: float
    q0: float
    qd0: float
    t_end: float
    def __init__(self, *, I: float = 0.05, mgCx: float = 0.0, mgCy: float = 0.0,
                 tau_t: _ArrayIn | None = None, tau: _ArrayIn | None = None, tau_offset: float = 0.0,
                 tau_amp: float = 1.0, tau_freq: float = 0.5, q0: float = 0.0, qd0: float = 0.0,
                 t_end: float = 10.0) -> None: ...

class SystemTrajectory:
    t: _Array
    x: _Array
    v: _Array
    F: _Array
    state_names: list[str]
    states: list[_Array]
    steps: int
    rhs_evals: int
    unconverged_stages: int
    warnings: list[str]

class SystemFile:
    system: str
    spec: StickSlipSpec | JointSpec
    friction: ModelParams

def simulate_stick_slip(spec: StickSlipSpec, friction: ModelParams | _Path,
                        options: SimOptions = ..., *,
                        progress: None | bool | Callable[[str, float], Any] = None) -> SystemTrajectory: ...
def simulate_joint(spec: JointSpec, friction: ModelParams | _Path,
                   options: SimOptions = ..., *,
                   progress: None | bool | Callable[[str, float], Any] = None) -> SystemTrajectory: ...
def read_system(path: _Path) -> SystemFile: ...
def simulate_system(system: SystemFile | _Path, options: SimOptions = ..., *,
                    progress: None | bool | Callable[[str, float], Any] = None) -> SystemTrajectory: ...

# ==== end of models ====

# ==== records and workflows (bind_records.cpp, bind_workflows.cpp) ====
from ._workflows import *
