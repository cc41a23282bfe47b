// frictionlab Python module: pickling of the records and of every result the workflows return
// (fit, compare, fit_joint, eval_joint, fit_actuator, eval_actuator, check_actuator, export_*),
// so they cross a process pool (docs/python.md, "Pickling"). The state of an object is a tuple of
// its C++ members in declaration order, each member as: a number, bool or str as itself; an enum
// as its int; std::optional as None or the value; std::vector<double> as the bytes of its doubles
// (exact, NaN and infinities included); another vector as a list; a nested struct as its tuple;
// a ModelSpec as its MODEL.json text (io::model_json, which reads back what it writes); a plain
// block of numbers (a joint model, servo parameters and constants: Bytes below) as its bytes,
// their count checked; in the envelope of pickle_state.hpp (a state of another version or layout
// is refused with a message).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "frictionlab/workflows/compare.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/joint.hpp"
#include "pickle_state.hpp"
#include "workflows_joint.hpp"

namespace frictionlab::python {

namespace py = pybind11;

namespace {

// ---- the members of each struct, in declaration order (one list for writing and reading) ----

/// S is T or const T: one `members` overload serves both writing (const) and reading.
template <class S, class T>
concept Of = std::is_same_v<std::remove_const_t<S>, T>;

void members(Of<data::Record> auto& r, auto&& v) {
  v(r.source, r.t, r.position, r.velocity, r.acceleration, r.current, r.force, r.temperature);
}
void members(Of<identify::ParameterEstimate> auto& e, auto&& v) {
  v(e.name, e.field, e.unit, e.value, e.std_error, e.ci_low, e.ci_high, e.fixed, e.at_bound,
    e.at_limit, e.undetermined, e.hac_std_error, e.hac_ci_low, e.hac_ci_high);
}
void members(Of<identify::Metrics> auto& m, auto&& v) {
  v(m.n, m.ssr, m.rmse, m.nrmse, m.r2, m.max_abs, m.rms);
}
void members(Of<identify::ResidualWhiteness> auto& w, auto&& v) {
  v(w.lags, w.ljung_box_q, w.ljung_box_p, w.acf1);
}
void members(Of<identify::Reliability> auto& r, auto&& v) {
  v(r.standard_errors, r.reasons, r.whiteness, r.hac_lags, r.hac_ratio_max, r.outliers);
}
void members(Of<identify::IdentifiabilityFlag> auto& f, auto&& v) {
  v(f.parameter, f.kind, f.other, f.value, f.message);
}
void members(Of<identify::DataSummary> auto& d, auto&& v) {
  v(d.n, d.n_used, d.duration, d.rate_hz, d.dt_max, d.reversals, d.v_max_abs);
}
void members(Of<identify::StartSummary> auto& s, auto&& v) {
  v(s.initial_cost, s.final_cost, s.iterations, s.converged, s.origin);
}
void members(Of<identify::ModelChoice> auto& m, auto&& v) {
  v(m.name, m.asymmetric, m.shape, m.alpha, m.fit_alpha, m.elements);
}
void members(Of<identify::FitResult> auto& r, auto&& v) {
  v(r.model, r.model_name, r.problem, r.method, r.params, r.Km, r.parameters, r.correlation,
    r.condition_number, r.sigma, r.num_estimated, r.training, r.aicc, r.bic, r.reliability,
    r.identifiability, r.passive, r.passivity_message, r.run_time_s, r.iterations, r.converged,
    r.termination, r.starts, r.nested_model, r.data, r.warnings, r.scheme, r.hold, r.warmup_s);
}
void members(Of<workflows::VerdictReason> auto& r, auto&& v) { v(r.grade, r.rule, r.text, r.hint); }
void members(Of<workflows::Verdict> auto& d, auto&& v) { v(d.grade, d.reasons); }
void members(Of<workflows::NamedMetrics> auto& m, auto&& v) {
  v(m.name, m.metrics, m.training_name, m.same_as_training);
}
void members(Of<workflows::FrictionVelocity> auto& f, auto&& v) {
  v(f.velocity, f.measured, f.simulated, f.static_curve);
}
void members(Of<workflows::FitOutcome> auto& f, auto&& v) {
  v(f.input, f.result, f.training, f.prediction, f.residual, f.friction, f.validation, f.warnings,
    f.verdict);
}
void members(Of<workflows::CompareRow> auto& r, auto&& v) {
  v(r.model, r.fit, r.validation, r.validation_rmse, r.score, r.criterion, r.delta);
}
void members(Of<workflows::CompareOutcome> auto& c, auto&& v) {
  v(c.input, c.validation_names, c.problem, c.criterion, c.ranked_by_validation, c.rows, c.has_best,
    c.training, c.best_by_criterion, c.criterion_agrees, c.warnings, c.verdict);
}

// fit_joint, eval_joint
void members(Of<identify::ChannelError> auto& e, auto&& v) { v(e.rel, e.rmse, e.max_abs); }
void members(Of<identify::JointEvaluation> auto& e, auto&& v) {
  v(e.source, e.torque, e.position, e.velocity, e.tau_pred, e.q_sim, e.qd_sim,
    e.unconverged_stages);
}
void members(Of<identify::JointData> auto& d, auto&& v) {
  v(d.source, d.t, d.q, d.qd, d.qdd, d.tau, d.q_des, d.qd_des, d.tau_ff);
}
void members(Of<identify::StaticCurvePoint> auto& p, auto&& v) {
  v(p.qd, p.measured, p.model, p.duration);
}
void members(Of<workflows::JointSteadyCurve> auto& c, auto&& v) { v(c.qd, c.friction); }
void members(Of<identify::JointLowpassChoice> auto& c, auto&& v) {
  v(c.cutoff_hz, c.candidate_hz, c.bandwidth_hz, c.noise_share, c.noise_dominated, c.sample_rate_hz,
    c.source);
}
void members(Of<identify::JointIdimResult> auto& r, auto&& v) {
  v(r.model, r.parameters, r.n_used, r.sigma, r.training, r.condition_number, r.reliability,
    r.warnings);
}
void members(Of<identify::JointSr3ScanRow> auto& r, auto&& v) {
  v(r.lambda, r.threshold, r.start, r.Omega_s, r.n_active, r.n_zero, r.xi, r.active,
    r.train_rel_error, r.validation_rss, r.aic, r.aic_r, r.admissible, r.converged);
}
void members(Of<identify::JointSr3Iteration> auto& i, auto&& v) {
  v(i.start, i.outer, i.inner, i.rel_error, i.xi_u, i.sigma0, i.sigma1, i.Omega_s, i.Fc,
    i.accepted);
}
void members(Of<identify::JointSr3StartSummary> auto& s, auto&& v) {
  v(s.sigma0_init, s.rel_error, s.outer_iterations, s.converged, s.rejected_step2, s.sigma0,
    s.sigma1);
}
void members(Of<identify::JointSr3Result> auto& r, auto&& v) {
  v(r.model, r.parameters, r.static_model, r.candidates, r.active, r.scan, r.chosen, r.lambda,
    r.aic_observations, r.static_velocity_floor, r.static_samples, r.held_out, r.history, r.starts,
    r.chosen_start, r.static_rel_error, r.rel_error, r.warnings, r.seconds);
}
void members(Of<identify::JointOeResult> auto& r, auto&& v) {
  v(r.model, r.parameters, r.reliability, r.initial_cost, r.final_cost, r.iterations, r.converged,
    r.termination, r.condition_number, r.residuals, r.segments, r.warnings);
}
void members(Of<identify::JointController> auto& c, auto&& v) { v(c.kp, c.kd, c.kff, c.bias); }
void members(Of<workflows::JointControllerReport> auto& c, auto&& v) {
  v(c.source, c.controller, c.torque_rel_error);
}
void members(Of<workflows::JointOeRun> auto& r, auto&& v) {
  v(r.init, r.closed_loop, r.controller, r.start_torque_rel_error, r.result, r.start_score,
    r.refined_score, r.kept_start);
}
void members(Of<workflows::FitJointOutcome> auto& f, auto&& v) {
  v(f.method, f.input, f.training_data, f.validation_data, f.model, f.parameters, f.reliability,
    f.idim, f.sr3, f.oe, f.training, f.validation, f.static_curve, f.steady_curve, f.run_time_s,
    f.lowpass, f.verdict, f.warnings);
}
void members(Of<workflows::EvalJointOutcome> auto& e, auto&& v) {
  v(e.data, e.evaluations, e.lowpass, e.verdict, e.warnings);
}
void members(Of<EvalJointResult> auto& e, auto&& v) { v(e.outcome, e.model, e.joint_file); }

// fit_actuator, eval_actuator, check_actuator
void members(Of<sim::ServoActuator> auto& a, auto&& v) {
  v(a.name, a.description, a.origin, a.constants, a.kt, a.R, a.armature, a.gear_ratio,
    a.counts_per_turn, a.sources);
}
void members(Of<sim::ServoSetup> auto& s, auto&& v) { v(s.actuator, s.params); }
void members(Of<workflows::ActuatorModelOutcome> auto& m, auto&& v) {
  v(m.model, m.name, m.n_parameters, m.parameters, m.train_mae, m.validation_mae, m.evaluations,
    m.seconds, m.params, m.at_bound, m.failed, m.temperature);
}
void members(Of<workflows::ActuatorTemperatureOutcome> auto& t, auto&& v) {
  v(t.law, t.viscous, t.check, t.undetermined);
}
void members(Of<workflows::ActuatorLogSeries> auto& s, auto&& v) {
  v(s.log, s.kp, s.trajectory, s.role, s.mae, s.range, s.t, s.position, s.goal_position,
    s.simulated);
}
void members(Of<workflows::FitActuatorOutcome> auto& f, auto&& v) {
  v(f.actuator, f.actuator_choice, f.current_weight, f.validation, f.validated, f.logs, f.threads,
    f.models, f.recommended, f.reason, f.warnings, f.recommended_series, f.train_log_mean,
    f.validation_log_mean, f.verdict, f.recommended_temperature, f.temperature);
}
void members(Of<workflows::EvalActuatorLog> auto& l, auto&& v) {
  v(l.name, l.kp, l.trajectory, l.range, l.samples);
}
void members(Of<workflows::EvalActuatorColumn> auto& c, auto&& v) {
  v(c.label, c.file, c.mae, c.mean, c.pooled);
}
void members(Of<workflows::EvalActuatorSeries> auto& s, auto&& v) {
  v(s.t, s.position, s.goal_position, s.simulated);
}
void members(Of<workflows::EvalActuatorOutcome> auto& e, auto&& v) {
  v(e.logs, e.params, e.best, e.series, e.verdict);
}
void members(Of<workflows::ActuatorFinding> auto& f, auto&& v) {
  v(f.log, f.check, f.warning, f.message, f.logs);
}
void members(Of<workflows::ActuatorLogCheck> auto& c, auto&& v) {
  v(c.log, c.kp, c.nominal_mae, c.fitted_mae, c.saturated);
}
void members(Of<workflows::ActuatorCheckOutcome> auto& c, auto&& v) {
  v(c.actuator, c.nominal, c.fitted, c.nominal_mae, c.fitted_mae, c.logs, c.findings, c.warnings);
}

// export_xml, export_c, export_mujoco
void members(Of<io::ExportText> auto& e, auto&& v) { v(e.text, e.warnings, e.notes); }
void members(Of<io::CExport> auto& e, auto&& v) {
  v(e.header_file, e.source_file, e.header, e.source, e.warnings, e.notes, e.adaptive_notes);
}
void members(Of<io::MujocoExport> auto& e, auto&& v) { v(e.xml, e.notes); }

template <class T>
concept Struct = requires(const T& t) {
  members(t, [](const auto&...) {});
};

/// Plain blocks of numbers (doubles, ints, bools, enums, std::array, a std::variant of such)
/// pickled as their bytes: exact, and their size checked when read back.
template <class T>
struct Bytes : std::false_type {};
template <>
struct Bytes<sim::JointModel> : std::true_type {};
template <>
struct Bytes<sim::ServoParams> : std::true_type {};
template <>
struct Bytes<sim::ServoConstants> : std::true_type {};
template <>
struct Bytes<sim::ServoConstant> : std::true_type {};
template <>
struct Bytes<identify::ServoTemperatureCheck> : std::true_type {};

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

// ---- writing ----

template <class T>
py::object to_state(const T& x) {
  if constexpr (Struct<T>) {
    py::list l;
    members(x, [&l](const auto&... m) { (l.append(to_state(m)), ...); });
    return py::tuple(l);
  } else if constexpr (Bytes<T>::value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return py::bytes(reinterpret_cast<const char*>(&x), sizeof(T));
  } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
    return py::cast(x);
  } else if constexpr (std::is_same_v<T, ModelSpec>) {
    return py::str(io::to_json_text(x));
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    return py::bytes(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(double));
  } else if constexpr (is_vector<T>::value) {
    py::list l;
    for (const auto& e : x) l.append(to_state(e));
    return l;
  } else if constexpr (is_optional<T>::value) {
    return x ? to_state(*x) : py::none();
  } else if constexpr (std::is_enum_v<T>) {
    return py::int_(static_cast<long>(x));
  } else {
    return py::cast(x);
  }
}

// ---- reading ----

template <class T>
void from_state(const py::handle& h, T& x) {
  if constexpr (Struct<T>) {
    const auto t = h.cast<py::tuple>();
    std::size_t k = 0;
    members(x, [&](auto&... m) {
      if (t.size() != sizeof...(m))
        throw std::invalid_argument("pickle: a state of another layout");
      (from_state(t[k++], m), ...);
    });
  } else if constexpr (Bytes<T>::value) {
    const std::string b = h.cast<py::bytes>();
    if (b.size() != sizeof(T)) throw std::invalid_argument("pickle: a state of another layout");
    std::memcpy(static_cast<void*>(&x), b.data(), sizeof(T));
  } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
    x = h.cast<std::vector<bool>>();
  } else if constexpr (std::is_same_v<T, ModelSpec>) {
    x = io::parse_model_json(h.cast<std::string>(), "pickle").spec;
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    const std::string b = h.cast<py::bytes>();
    if (b.size() % sizeof(double) != 0)
      throw std::invalid_argument("pickle: a state of another layout");
    x.resize(b.size() / sizeof(double));
    if (!b.empty()) std::memcpy(x.data(), b.data(), b.size());
  } else if constexpr (is_vector<T>::value) {
    x.clear();
    for (const py::handle e : h) from_state(e, x.emplace_back());
  } else if constexpr (is_optional<T>::value) {
    if (h.is_none()) {
      x.reset();
    } else {
      from_state(h, x.emplace());
    }
  } else if constexpr (std::is_enum_v<T>) {
    x = static_cast<T>(h.cast<long>());
  } else {
    x = h.cast<T>();
  }
}

/// py::pickle of T: pickle_state(to_state(x)).
template <class T>
void make_picklable(py::module_& m, const char* name) {
  auto cls = py::reinterpret_borrow<py::class_<T>>(m.attr(name));
  cls.def(py::pickle([](const T& x) { return pickle_state(to_state(x)); },
                     [name](const py::tuple& s) {
                       T x;
                       from_state(unpickle_state(s, name), x);
                       return x;
                     }));
}

}  // namespace

void bind_pickling(py::module_& m) {
  make_picklable<data::Record>(m, "Record");
  make_picklable<identify::ParameterEstimate>(m, "ParameterEstimate");
  make_picklable<identify::Metrics>(m, "Metrics");
  make_picklable<identify::ResidualWhiteness>(m, "ResidualWhiteness");
  make_picklable<identify::Reliability>(m, "Reliability");
  make_picklable<identify::IdentifiabilityFlag>(m, "IdentifiabilityFlag");
  make_picklable<identify::DataSummary>(m, "DataSummary");
  make_picklable<identify::StartSummary>(m, "StartSummary");
  make_picklable<identify::FitResult>(m, "FitResult");
  make_picklable<workflows::VerdictReason>(m, "VerdictReason");
  make_picklable<workflows::Verdict>(m, "Verdict");
  make_picklable<workflows::NamedMetrics>(m, "NamedMetrics");
  make_picklable<workflows::FrictionVelocity>(m, "FrictionVelocity");
  make_picklable<workflows::FitOutcome>(m, "FitOutcome");
  make_picklable<workflows::CompareRow>(m, "CompareRow");
  make_picklable<workflows::CompareOutcome>(m, "CompareOutcome");
  make_picklable<identify::ChannelError>(m, "ChannelError");
  make_picklable<identify::JointEvaluation>(m, "JointEvaluation");
  make_picklable<identify::JointData>(m, "JointData");
  make_picklable<identify::StaticCurvePoint>(m, "StaticCurvePoint");
  make_picklable<workflows::JointSteadyCurve>(m, "JointSteadyCurve");
  make_picklable<identify::JointLowpassChoice>(m, "JointLowpassChoice");
  make_picklable<workflows::FitJointOutcome>(m, "FitJointOutcome");
  make_picklable<EvalJointResult>(m, "EvalJointOutcome");
  make_picklable<workflows::ActuatorModelOutcome>(m, "ActuatorModelOutcome");
  make_picklable<workflows::FitActuatorOutcome>(m, "FitActuatorOutcome");
  make_picklable<workflows::EvalActuatorLog>(m, "EvalActuatorLog");
  make_picklable<workflows::EvalActuatorColumn>(m, "EvalActuatorColumn");
  make_picklable<workflows::EvalActuatorOutcome>(m, "EvalActuatorOutcome");
  make_picklable<workflows::ActuatorFinding>(m, "ActuatorFinding");
  make_picklable<workflows::ActuatorLogCheck>(m, "ActuatorLogCheck");
  make_picklable<workflows::ActuatorCheckOutcome>(m, "ActuatorCheckOutcome");
  make_picklable<io::ExportText>(m, "ExportText");
  make_picklable<io::CExport>(m, "CExport");
  make_picklable<io::MujocoExport>(m, "MujocoExport");
}

}  // namespace frictionlab::python
