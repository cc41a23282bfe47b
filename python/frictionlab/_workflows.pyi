# Type stubs of the records and workflows of frictionlab._frictionlab (bind_records.cpp,
# bind_workflows.cpp, workflows_*.cpp). Options are keyword arguments with the C++ option names;
# help(frictionlab.fit) lists them with defaults and units.
import os
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]
ArrayIn = Union[npt.NDArray[np.float64], npt.NDArray[np.float32]]
PathLike = Union[str, os.PathLike]
# A robot arm's record: a CSV path, a pandas DataFrame or a dict of arrays (column name: array).
ArmRecordLike = Union[str, os.PathLike, Any]
RecordLike = Union["Record", PathLike, dict, Any]  # Any: a pandas DataFrame
Progress = Union[None, bool, Callable[[str, float], Any]]

from ._frictionlab import Error

class Record:
    def __init__(self, t: ArrayIn, position: Optional[ArrayIn] = ..., velocity: Optional[ArrayIn] = ...,
                 force: Optional[ArrayIn] = ..., current: Optional[ArrayIn] = ...,
                 acceleration: Optional[ArrayIn] = ..., temperature: Optional[ArrayIn] = ...,
                 source: str = ...) -> None: ...
    t: Array  # [s]
    position: Array  # [m | rad]
    velocity: Array  # [m/s | rad/s]
    acceleration: Array  # [m/s^2 | rad/s^2]
    current: Array  # [A]
    force: Array  # [N | N m]
    temperature: Array  # [degC]
    source: str
    def __len__(self) -> int: ...
    @staticmethod
    def read(path: PathLike, *, time: str = ..., position: str = ..., velocity: str = ...,
             current: str = ..., force: str = ..., temperature: str = ...,
             matrix: str = ...) -> Record: ...
    @staticmethod
    def from_dataframe(df: Any, *, time: str = ..., position: str = ..., velocity: str = ...,
                       current: str = ..., force: str = ..., temperature: str = ...,
                       source: str = ...) -> Record: ...
    def to_dataframe(self) -> Any: ...

class ParameterEstimate:
    name: str; field: str; unit: str; value: float; std_error: float
    ci_low: float; ci_high: float; fixed: bool; at_bound: bool; at_limit: bool
    undetermined: bool; hac_std_error: float; hac_ci_low: float; hac_ci_high: float

class Metrics:
    n: int; ssr: float; rmse: float; nrmse: float; r2: float; max_abs: float

class ResidualWhiteness:
    lags: int; ljung_box_q: float; ljung_box_p: float; acf1: float

class Reliability:
    standard_errors: bool; reasons: list[str]; whiteness: ResidualWhiteness
    hac_lags: int; hac_ratio_max: float

class IdentifiabilityFlag:
    parameter: str; kind: str; other: str; value: float; message: str

class DataSummary:
    n: int; n_used: int; duration: float; rate_hz: float; dt_max: float
    reversals: int; v_max_abs: float

class StartSummary:
    initial_cost: float; final_cost: float; iterations: int; converged: bool; origin: str

class FitResult:
    model_name: str; problem: str; method: str; params: dict; Km: Optional[float]
    parameters: list[ParameterEstimate]; correlation: Array; covariance: Array; condition_number: float
    sigma: float; num_estimated: int; training: Metrics; aicc: float; bic: float
    reliability: Reliability; identifiability: list[IdentifiabilityFlag]
    passive: Optional[bool]; passivity_message: str
    run_time_s: float; iterations: int; converged: bool; termination: str
    starts: list[StartSummary]; nested_model: str; data: DataSummary; warnings: list[str]
    warmup_s: float; hold: str
    def model_json(self) -> str: ...

class NamedMetrics:
    name: str; metrics: Metrics; training_name: str; same_as_training: str

class FrictionVelocity:
    velocity: Array; measured: Array; simulated: Array; static_curve: Array

class FitOutcome:
    input: str; result: FitResult; training: Record; prediction: Array; residual: Array
    friction: FrictionVelocity; validation: list[NamedMetrics]; warnings: list[str]
    parameters: list[ParameterEstimate]; correlation: Array; covariance: Array; aicc: float; bic: float
    model: dict; verdict: Verdict
    def model_json(self) -> str: ...
    def to_json(self) -> str: ...
    def write(self, dir: PathLike, plots: bool = ...) -> list[str]: ...
    def report(self, path: PathLike, title: str = ...) -> str: ...
    def report_html(self, title: str = ...) -> str: ...
    def _repr_html_(self) -> str: ...

class CompareRow:
    model: str; fit: FitResult; validation: list[NamedMetrics]; validation_rmse: float
    score: float; criterion: float; delta: float

class CompareOutcome:
    input: str; validation_names: list[str]; problem: str; criterion: str
    ranked_by_validation: bool; rows: list[CompareRow]; best_by_criterion: int
    criterion_agrees: bool; has_best: bool; warnings: list[str]; verdict: Verdict
    def to_json(self, out: PathLike = ...) -> str: ...
    def write(self, dir: PathLike) -> list[str]: ...
    def report(self, path: PathLike, title: str = ...) -> str: ...

def fit(training: RecordLike, validation: Union[None, RecordLike, Sequence[RecordLike]] = ...,
        *, progress: Progress = ..., **options: Any) -> FitOutcome: ...
def compare(training: RecordLike, validation: Union[None, RecordLike, Sequence[RecordLike]] = ...,
            *, progress: Progress = ..., **options: Any) -> CompareOutcome: ...

class ChannelError:
    rel: float; rmse: float; max_abs: float

class JointEvaluation:
    source: str; torque: ChannelError; position: ChannelError; velocity: ChannelError
    tau_pred: Array; q_sim: Array; qd_sim: Array; unconverged_stages: int

class JointData:
    source: str; t: Array; q: Array; qd: Array; qdd: Array; tau: Array
    q_des: Array; qd_des: Array; tau_ff: Array
    def __len__(self) -> int: ...

class StaticCurvePoint:
    qd: float; measured: float; model: float; duration: float

class JointSteadyCurve:
    qd: Array; friction: Array

class VerdictReason:
    grade: str; rule: str; text: str; hint: str

class Verdict:
    grade: str; reasons: list[VerdictReason]
    def line(self) -> str: ...
    def to_dict(self) -> dict: ...  # {"grade", "line", "reasons": [{"grade", "rule", "text", "hint"}]}

class JointLowpassChoice:
    cutoff_hz: float; candidate_hz: float; bandwidth_hz: float; noise_share: float
    noise_dominated: bool; sample_rate_hz: float; source: str

class FitJointOutcome:
    method: str; input: str; training_data: JointData; validation_data: list[JointData]
    model: dict; parameters: list[ParameterEstimate]; reliability: Optional[Reliability]
    training: JointEvaluation; validation: list[JointEvaluation]; static_curve: list[StaticCurvePoint]
    steady_curve: JointSteadyCurve; run_time_s: float; warnings: list[str]
    verdict: Verdict; lowpass: Optional[JointLowpassChoice]
    method_details: dict
    def to_json(self) -> str: ...
    def write(self, dir: PathLike, plots: bool = ...) -> list[str]: ...
    def report(self, path: PathLike, title: str = ...) -> str: ...

class EvalJointOutcome:
    data: list[JointData]; evaluations: list[JointEvaluation]; model: dict; joint_file: str
    verdict: Verdict; lowpass: list[Optional[JointLowpassChoice]]; warnings: list[str]
    def to_json(self) -> str: ...
    def write(self, dir: PathLike, plots: bool = ...) -> list[str]: ...
    def report(self, path: PathLike, title: str = ...) -> str: ...

def fit_joint(training: RecordLike, validation: Union[None, RecordLike, Sequence[RecordLike]] = ...,
              *, desired: Optional[RecordLike] = ..., progress: Progress = ...,
              **options: Any) -> FitJointOutcome: ...
def eval_joint(model: Union[FitJointOutcome, dict, PathLike],
               records: Union[RecordLike, Sequence[RecordLike]], *, progress: Progress = ...,
               **options: Any) -> EvalJointOutcome: ...
def mujoco_replay_joint(model: Union[FitJointOutcome, dict, PathLike],
                        records: Union[RecordLike, Sequence[RecordLike]], *,
                        progress: Progress = ..., **options: Any) -> dict[str, Any]: ...

class ActuatorModelOutcome:
    name: str; n_parameters: int; parameters: list[ParameterEstimate]; train_mae: float
    validation_mae: float; evaluations: int; seconds: float; params: dict; at_bound: list[str]
    failed: str; temperature: bool
    def params_json(self) -> str: ...

class FitActuatorOutcome:
    actuator: str; validation: str; validated: bool; logs: list[str]; threads: int
    models: list[ActuatorModelOutcome]; recommended: Optional[str]; reason: str; warnings: list[str]
    actuator_choice: str; verdict: Verdict; train_log_mean: float; validation_log_mean: float
    current_weight: float; temperature: Optional[dict[str, Any]]
    def to_json(self) -> str: ...
    def write(self, dir: PathLike) -> None: ...
    def report(self, path: PathLike, title: str = ...) -> str: ...

class EvalActuatorLog:
    name: str; kp: float; trajectory: str; range: float; samples: int

class EvalActuatorColumn:
    label: str; file: str; mae: Array; mean: float; pooled: float

class EvalActuatorOutcome:
    logs: list[EvalActuatorLog]; params: list[EvalActuatorColumn]; best: Optional[str]
    verdict: Verdict
    def to_json(self) -> str: ...
    def write(self, path: PathLike) -> str: ...
    def report(self, path: PathLike, title: str = ...) -> str: ...

def fit_actuator(logs: Union[PathLike, Sequence[PathLike]], *, progress: Progress = ...,
                 **options: Any) -> FitActuatorOutcome: ...
def eval_actuator(logs: Union[PathLike, Sequence[PathLike]],
                  params: Union[PathLike, Sequence[PathLike]], *, progress: Progress = ...,
                  **options: Any) -> EvalActuatorOutcome: ...
def mujoco_replay(params: PathLike, logs: Union[PathLike, Sequence[PathLike]], *,
                  timestep: float = ..., **options: Any) -> dict[str, Any]: ...

class ActuatorFinding:
    log: str; logs: list[str]; check: str; warning: bool; message: str

class ActuatorLogCheck:
    log: str; kp: float; nominal_mae: float; fitted_mae: float; saturated: float

class ActuatorCheckOutcome:
    actuator: str; nominal_mae: float; fitted_mae: float; nominal: dict[str, float]
    fitted: dict[str, float]; logs: list[ActuatorLogCheck]; findings: list[ActuatorFinding]
    warnings: int

def builtin_actuator_names() -> list[str]: ...
def actuator_json(actuator: str) -> str: ...
def check_actuator(actuator: str, logs: Union[PathLike, Sequence[PathLike]], *,
                   progress: Progress = ..., evaluations: int = ..., threads: int | None = ...,
                   **options: Any) -> ActuatorCheckOutcome: ...

class ExportText:
    text: str; warnings: list[str]; notes: list[str]

class CExport:
    header_file: str; source_file: str; header: str; source: str; warnings: list[str]
    notes: list[str]; adaptive_notes: list[str]
    def write(self, dir: PathLike) -> list[str]: ...

class MujocoExport:
    xml: str; notes: list[str]

ExportSource = Union[FitOutcome, dict, PathLike]

def export_xml(source: ExportSource, *, Km: Optional[float] = ..., label: Optional[str] = ...) -> ExportText: ...
def export_json(source: ExportSource, *, Km: Optional[float] = ..., hold: Optional[str] = ...,
                label: Optional[str] = ..., joint: Optional[str] = ...) -> ExportText: ...
def export_estimator_params(source: ExportSource, *, Km: Optional[float] = ...,
                            hold: Optional[str] = ..., label: Optional[str] = ...,
                            joint: Optional[str] = ...) -> dict: ...
def adaptive_estimate(source: ExportSource, current: ArrayIn, velocity: ArrayIn,
                      dt: Union[float, ArrayIn], *, temperature: Optional[ArrayIn] = ...,
                      tau_ref: Optional[ArrayIn] = ..., Km: Optional[float] = ...,
                      hold: Optional[str] = ..., label: Optional[str] = ...,
                      joint: Optional[str] = ..., memory_s: float = ..., v_min: float = ...,
                      trace_max: float = ..., T_ref: float = ...,
                      P0: Optional[dict[str, float]] = ...,
                      adapt: Optional[Sequence[str]] = ...,
                      single_precision: bool = ...) -> dict[str, Any]: ...
def export_c(source: ExportSource, *, Km: Optional[float] = ..., hold: Optional[str] = ...,
             name: str = ..., single_precision: bool = ...,
             label: Optional[str] = ..., joint: Optional[str] = ...,
             adaptive: bool = ...,
             temperature: Optional[Union[FitJointOutcome, dict, PathLike]] = ...,
             temperature_ref: Optional[float] = ...) -> CExport: ...
def export_mujoco(source: ExportSource, *, joint: Optional[str] = ..., gear: float = ...,
                  form: Optional[str] = ..., label: Optional[str] = ...) -> MujocoExport: ...
def export_actuator_mujoco(source: PathLike, *, kp: float, vin: Optional[float] = ...,
                           form: str = ..., ctrlrange: Optional[tuple[float, float]] = ...,
                           joint: str = ...) -> MujocoExport: ...
def export_actuator_bam(source: PathLike) -> ExportText: ...
def _excite(robot: PathLike, *, period: float = ..., harmonics: int = ..., margin: float = ...,
            velocity_limits: Sequence[float] = ..., acceleration_limits: Sequence[float] = ...,
            evaluations: int = ..., seed: int = ..., threads: int = ..., armature: bool = ...,
            viscous: bool = ..., coulomb: bool = ..., offset: bool = ..., rate: float = ...,
            periods: int = ...) -> dict[str, Any]: ...
def _check_excitation(robot: PathLike, record: ArmRecordLike, *, time: str = ..., position: str = ...,
                      velocity: str = ..., torque: str = ..., current: str = ...,
                      layout: str = ..., gains: Sequence[float] = ..., resample_rate: float = ...,
                      lowpass: Optional[float] = ..., trim: float = ..., armature: bool = ...,
                      viscous: bool = ..., coulomb: bool = ..., offset: bool = ...) -> dict[str, Any]: ...
def _option_rule(name: str) -> Optional[dict[str, Any]]: ...
def _fit_robot(robot: PathLike, record: ArmRecordLike, validate: Sequence[ArmRecordLike] = ..., *,
               time: str = ..., position: str = ..., velocity: str = ..., torque: str = ...,
               current: str = ..., layout: str = ..., gains: Sequence[float] = ...,
               resample_rate: float = ..., lowpass: Optional[float] = ..., trim: float = ...,
               armature: bool = ..., viscous: bool = ..., coulomb: bool = ..., offset: bool = ...,
               weighted: bool = ..., friction: str = ..., loaded: Optional[ArmRecordLike] = ...,
               payload_mass: float = ..., consistent: bool = ...,
               load_dependent: bool = ...) -> dict[str, Any]: ...

# ---- plots and page pieces (bind_plots.cpp; io/plot_svg.hpp, io/report_html.hpp) ----

class PlotSeries:
    name: str
    y: list[float]
    x: list[float]  # its own abscissa; empty: the plot's
    lo: list[float]  # interval bars (both empty: none)
    hi: list[float]
    color: str  # "#rrggbb"; empty: the palette's next
    points: bool
    markers: bool
    dashed: bool
    bold: bool
    continues: bool
    note: str
    tooltip: str
    attributes: dict[str, str]
    def __init__(self, name: str = ..., y: Sequence[float] = ..., *, x: Sequence[float] = ...,
                 lo: Sequence[float] = ..., hi: Sequence[float] = ..., color: str = ...,
                 points: bool = ..., markers: bool = ..., dashed: bool = ..., bold: bool = ...,
                 continues: bool = ..., note: str = ..., tooltip: str = ...,
                 attributes: dict[str, str] = ...) -> None: ...

class PlotPanel:
    ylabel: str
    series: list[PlotSeries]
    counts: bool
    def __init__(self, ylabel: str = ..., series: Sequence[PlotSeries] = ..., *,
                 counts: bool = ...) -> None: ...

class PlotMargins:
    left: float
    right: float
    top: float
    gap: float
    bottom: float
    def __init__(self, *, left: float = 90.0, right: float = 20.0, top: float = 40.0,
                 gap: float = 30.0, bottom: float = 50.0) -> None: ...

class Plot:
    panels: list[PlotPanel]
    x: list[float]
    title: str
    xlabel: str
    width: int  # [px]
    panel_height: int  # [px]
    xticks: list[float]
    xtick_labels: list[str]
    margins: PlotMargins
    font_size: int  # [px]
    legend_width: int  # [px]; 0: legend rows above each panel
    attributes: dict[str, str]
    id_prefix: str
    def __init__(self, panels: Sequence[PlotPanel] = ..., x: Sequence[float] = ..., *,
                 title: str = ..., xlabel: str = ..., width: int = 900, panel_height: int = 200,
                 xticks: Sequence[float] = ..., xtick_labels: Sequence[str] = ...,
                 margins: PlotMargins = ..., font_size: int = 12, legend_width: int = 0,
                 attributes: dict[str, str] = ..., id_prefix: str = ...) -> None: ...

def render_svg(plot: Plot) -> str: ...
def nice_ticks(lo: float, hi: float, target: int = 6, extend: bool = True) -> list[float]: ...
def escape_markup(text: str) -> str: ...
def report_css() -> str: ...
