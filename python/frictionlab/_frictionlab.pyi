# Type stubs of frictionlab._frictionlab (docs/python.md): the models here, the records and
# workflows in _workflows.pyi (re-exported at the end). test_stubs.py checks every public name,
# class, method and argument name of both against the compiled module (CONTRIBUTING.md).
from __future__ import annotations

import os
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np
import numpy.typing as npt

class Error(ValueError): ...
class FrictionlabWarning(UserWarning): ...

# ==== models: parameters, one-sample functions, simulate, coupled systems (bind_models.cpp) ====

_Array = npt.NDArray[np.float64]
_ArrayIn = npt.NDArray[np.float64] | npt.NDArray[np.float32]
_Path = str | os.PathLike[str]

class ModelParams:
    """The parameters of any registered model."""
    @property
    def model_name(self) -> str: ...
    def check(self) -> list[str]:
        """Validate (library's rules and messages); raise Error; return warnings."""
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def write(self, path: _Path) -> None: ...
    def __eq__(self, other: object) -> bool: ...

class CoulombParams(ModelParams):
    model: ClassVar[str]  # 'coulomb'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., v_smooth: float = ..., smoothing: str = ...) -> None: ...
    Fc: float
    Fc_pos: float
    Fc_neg: float
    v_smooth: float
    smoothing: str
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> CoulombParams: ...
    def replace(self, **kwargs: Any) -> CoulombParams: ...

class Coulomb:
    Params: ClassVar[type[CoulombParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: None = None, slipping: None = None) -> None: ...
    @staticmethod
    def force(params: CoulombParams, state: Coulomb.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: CoulombParams, v: float) -> float: ...
    @staticmethod
    def step(params: CoulombParams, state: Coulomb.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> Coulomb.State: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class ViscousParams(ModelParams):
    model: ClassVar[str]  # 'viscous'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, sigma2: float = ...) -> None: ...
    sigma2: float
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ViscousParams: ...
    def replace(self, **kwargs: Any) -> ViscousParams: ...

class Viscous:
    Params: ClassVar[type[ViscousParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: None = None, slipping: None = None) -> None: ...
    @staticmethod
    def force(params: ViscousParams, state: Viscous.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: ViscousParams, v: float) -> float: ...
    @staticmethod
    def step(params: ViscousParams, state: Viscous.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> Viscous.State: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class CoulombViscousParams(ModelParams):
    model: ClassVar[str]  # 'coulomb-viscous'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., sigma2: float = ..., v_smooth: float = ..., smoothing: str = ...) -> None: ...
    Fc: float
    Fc_pos: float
    Fc_neg: float
    sigma2: float
    v_smooth: float
    smoothing: str
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> CoulombViscousParams: ...
    def replace(self, **kwargs: Any) -> CoulombViscousParams: ...

class CoulombViscous:
    Params: ClassVar[type[CoulombViscousParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: None = None, slipping: None = None) -> None: ...
    @staticmethod
    def force(params: CoulombViscousParams, state: CoulombViscous.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: CoulombViscousParams, v: float) -> float: ...
    @staticmethod
    def step(params: CoulombViscousParams, state: CoulombViscous.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> CoulombViscous.State: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class StribeckParams(ModelParams):
    model: ClassVar[str]  # 'stribeck'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ..., sigma2: float = ..., v_smooth: float = ..., smoothing: str = ...) -> None: ...
    Fc: float
    Fc_pos: float
    Fc_neg: float
    Fs: float
    Fs_pos: float
    Fs_neg: float
    vs: float
    alpha: float
    shape: str
    sigma2: float
    v_smooth: float
    smoothing: str
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> StribeckParams: ...
    def replace(self, **kwargs: Any) -> StribeckParams: ...

class Stribeck:
    Params: ClassVar[type[StribeckParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: None = None, slipping: None = None) -> None: ...
    @staticmethod
    def force(params: StribeckParams, state: Stribeck.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: StribeckParams, v: float) -> float: ...
    @staticmethod
    def step(params: StribeckParams, state: Stribeck.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> Stribeck.State: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class LuGreParams(ModelParams):
    model: ClassVar[str]  # 'lugre'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, sigma0: float = ..., sigma1: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ..., vd: float = ...) -> None: ...
    sigma0: float
    sigma1: float
    sigma2: float
    Fc: float
    Fc_pos: float
    Fc_neg: float
    Fs: float
    Fs_pos: float
    Fs_neg: float
    vs: float
    alpha: float
    shape: str
    vd: float
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> LuGreParams: ...
    def replace(self, **kwargs: Any) -> LuGreParams: ...

class LuGre:
    Params: ClassVar[type[LuGreParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: float | Sequence[float] | None = None, slipping: None = None) -> None: ...
        z: float
    @staticmethod
    def force(params: LuGreParams, state: LuGre.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: LuGreParams, v: float) -> float: ...
    @staticmethod
    def step(params: LuGreParams, state: LuGre.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> LuGre.State: ...
    @staticmethod
    def state_bound(params: LuGreParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class DahlParams(ModelParams):
    model: ClassVar[str]  # 'dahl'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, sigma0: float = ..., Fc: float = ..., n: float = ...) -> None: ...
    sigma0: float
    Fc: float
    n: float
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> DahlParams: ...
    def replace(self, **kwargs: Any) -> DahlParams: ...

class Dahl:
    Params: ClassVar[type[DahlParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: float | Sequence[float] | None = None, slipping: None = None) -> None: ...
        z: float
    @staticmethod
    def force(params: DahlParams, state: Dahl.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: DahlParams, v: float) -> float: ...
    @staticmethod
    def step(params: DahlParams, state: Dahl.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> Dahl.State: ...
    @staticmethod
    def state_bound(params: DahlParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class ElastoPlasticParams(ModelParams):
    model: ClassVar[str]  # 'elasto-plastic'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, sigma0: float = ..., sigma1: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ..., z_ba: float = ...) -> None: ...
    sigma0: float
    sigma1: float
    sigma2: float
    Fc: float
    Fc_pos: float
    Fc_neg: float
    Fs: float
    Fs_pos: float
    Fs_neg: float
    vs: float
    alpha: float
    shape: str
    z_ba: float
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ElastoPlasticParams: ...
    def replace(self, **kwargs: Any) -> ElastoPlasticParams: ...

class ElastoPlastic:
    Params: ClassVar[type[ElastoPlasticParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: float | Sequence[float] | None = None, slipping: None = None) -> None: ...
        z: float
    @staticmethod
    def force(params: ElastoPlasticParams, state: ElastoPlastic.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: ElastoPlasticParams, v: float) -> float: ...
    @staticmethod
    def step(params: ElastoPlasticParams, state: ElastoPlastic.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> ElastoPlastic.State: ...
    @staticmethod
    def state_bound(params: ElastoPlasticParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class MaxwellSlipParams(ModelParams):
    model: ClassVar[str]  # 'maxwell-slip'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, n: int = ..., k: list[float] = ..., Delta: list[float] = ..., sigma2: float = ...) -> None: ...
    n: int
    k: list[float]
    Delta: list[float]
    sigma2: float
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> MaxwellSlipParams: ...
    def replace(self, **kwargs: Any) -> MaxwellSlipParams: ...

class MaxwellSlip:
    Params: ClassVar[type[MaxwellSlipParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: list[float] | Sequence[float] | None = None, slipping: Sequence[bool] | None = None) -> None: ...
        z: list[float]
    @staticmethod
    def force(params: MaxwellSlipParams, state: MaxwellSlip.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: MaxwellSlipParams, v: float) -> float: ...
    @staticmethod
    def step(params: MaxwellSlipParams, state: MaxwellSlip.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> MaxwellSlip.State: ...
    @staticmethod
    def state_bound(params: MaxwellSlipParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class ModifiedStribeckParams(ModelParams):
    model: ClassVar[str]  # 'modified-stribeck'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, k: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ...) -> None: ...
    k: float
    sigma2: float
    Fc: float
    Fc_pos: float
    Fc_neg: float
    Fs: float
    Fs_pos: float
    Fs_neg: float
    vs: float
    alpha: float
    shape: str
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ModifiedStribeckParams: ...
    def replace(self, **kwargs: Any) -> ModifiedStribeckParams: ...

class ModifiedStribeck:
    Params: ClassVar[type[ModifiedStribeckParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: float | Sequence[float] | None = None, slipping: None = None) -> None: ...
        z: float
    @staticmethod
    def force(params: ModifiedStribeckParams, state: ModifiedStribeck.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: ModifiedStribeckParams, v: float) -> float: ...
    @staticmethod
    def step(params: ModifiedStribeckParams, state: ModifiedStribeck.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> ModifiedStribeck.State: ...
    @staticmethod
    def state_bound(params: ModifiedStribeckParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class GMSParams(ModelParams):
    model: ClassVar[str]  # 'gms'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, n: int = ..., k: list[float] = ..., nu: list[float] = ..., C: float = ..., sigma2: float = ..., Fc: float = ..., Fc_pos: float = ..., Fc_neg: float = ..., Fs: float = ..., Fs_pos: float = ..., Fs_neg: float = ..., vs: float = ..., alpha: float = ..., shape: str = ...) -> None: ...
    n: int
    k: list[float]
    nu: list[float]
    C: float
    sigma2: float
    Fc: float
    Fc_pos: float
    Fc_neg: float
    Fs: float
    Fs_pos: float
    Fs_neg: float
    vs: float
    alpha: float
    shape: str
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> GMSParams: ...
    def replace(self, **kwargs: Any) -> GMSParams: ...

class GMS:
    Params: ClassVar[type[GMSParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: list[float] | Sequence[float] | None = None, slipping: Sequence[bool] | None = None) -> None: ...
        z: list[float]
        slipping: list[bool]
    @staticmethod
    def force(params: GMSParams, state: GMS.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: GMSParams, v: float) -> float: ...
    @staticmethod
    def step(params: GMSParams, state: GMS.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> GMS.State: ...
    @staticmethod
    def state_bound(params: GMSParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

class JointLuGreParams(ModelParams):
    model: ClassVar[str]  # 'joint-lugre'
    keys: ClassVar[tuple[str, ...]]
    def __init__(self, *, sigma0: float = ..., sigma1: float = ..., Fc: float = ..., cv: list[float] = ..., Fs: list[float] = ..., delta: list[float] = ..., Omega_s: float = ..., K: float = ...) -> None: ...
    sigma0: float
    sigma1: float
    Fc: float
    cv: list[float]
    Fs: list[float]
    delta: list[float]
    Omega_s: float
    K: float
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> JointLuGreParams: ...
    def replace(self, **kwargs: Any) -> JointLuGreParams: ...

class JointLuGre:
    Params: ClassVar[type[JointLuGreParams]]
    name: ClassVar[str]
    num_states: ClassVar[int]
    class State:
        def __init__(self, z: float | Sequence[float] | None = None, slipping: None = None) -> None: ...
        z: float
    @staticmethod
    def force(params: JointLuGreParams, state: JointLuGre.State, v: float) -> float: ...
    @staticmethod
    def steady_force(params: JointLuGreParams, v: float) -> float: ...
    @staticmethod
    def step(params: JointLuGreParams, state: JointLuGre.State, v0: float, h: float, v1: float | None = None, method: str = 'exact') -> JointLuGre.State: ...
    @staticmethod
    def state_bound(params: JointLuGreParams) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...

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
             x: _ArrayIn | None = None, hold: str | None = None, method: str = "exact",
             max_substep: float | None = None,
             progress: None | bool | Callable[[str, float], Any] = None) -> SimulateModelOutcome:
    """Drive a model from its zero state along (t [s], v [m/s]) or (t, x [m]); F [N]."""

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
