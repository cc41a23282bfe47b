// frictionlab Python module: fit_actuator and eval_actuator (workflows/actuator.hpp) and their
// results (workflows_common.hpp; docs/python.md).
#include <cmath>
#include <filesystem>

#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/actuator_json.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "workflows_common.hpp"
#ifdef FRICTIONLAB_HAVE_MUJOCO
#include "frictionlab/mujoco/replay.hpp"
#endif

namespace frictionlab::python {

namespace {

std::vector<std::string> paths_of(const py::handle& obj, const std::string& name) {
  std::vector<std::string> out;
  if (const auto p = as_path(obj)) return {*p};
  if (!py::isinstance<py::list>(obj) && !py::isinstance<py::tuple>(obj))
    throw std::invalid_argument(name + ": expected a path or a list of paths");
  for (const py::handle x : obj) {
    const auto p = as_path(x);
    if (!p) throw std::invalid_argument(name + ": expected paths, got " + std::string(py::repr(x)));
    out.push_back(*p);
  }
  return out;
}

/// A comma-separated str or a list of items (str / numbers) as the CLI's comma-separated text.
std::string list_text(const py::handle& h) {
  if (py::isinstance<py::str>(h)) return h.cast<std::string>();
  std::string s;
  for (const py::handle x : h) {
    std::string item =
        py::isinstance<py::str>(x) ? x.cast<std::string>() : std::string(py::repr(x));
    s += (s.empty() ? "" : ",") + item;
  }
  return s;
}

/// The logs at `logs` (files or directories of .json logs: io::read_servo_log_set) selected by
/// kp / trajectory / files and resampled (workflows::prepare_servo_logs); warnings as Python
/// warnings.
std::vector<data::ServoLog> load_logs(const py::handle& logs, const py::kwargs& kw) {
  auto text = [&](const char* k) {
    return kw.contains(k) && !kw[k].is_none() ? list_text(kw[k]) : std::string();
  };
  workflows::ServoLogPreparation prep;
  prep.filter = workflows::parse_servo_log_filter(text("kp"), text("trajectory"), text("files"));
  if (kw.contains("resample") && !kw["resample"].is_none())
    prep.resample = option_cast<double>("resample", kw["resample"]);
  io::ServoLogReadOptions read;
  if (kw.contains("current_unit") && !kw["current_unit"].is_none())
    read.current_unit =
        choice("current_unit", option_cast<std::string>("current_unit", kw["current_unit"]),
               std::vector<std::pair<std::string, std::string>>{{"A", "A"}, {"mA", "mA"}});
  io::ServoLogSet set = io::read_servo_log_set(paths_of(logs, "logs"), read);
  auto prepared = workflows::prepare_servo_logs(std::move(set.logs), prep);
  std::vector<std::string> warnings = set.warnings;
  warnings.insert(warnings.end(), prepared.warnings.begin(), prepared.warnings.end());
  warn_all(warnings, 2);
  return std::move(prepared.logs);
}

const std::vector<std::string> kLogOptions{"kp", "trajectory", "files", "resample", "current_unit"};

/// Throw std::invalid_argument "FUNCTION: unknown option 'K' (options: OWN, kp, trajectory,
/// ...)" for a keyword argument that is not one of kLogOptions; `own` lists the function's own
/// keyword options first ("" for none, else ending in ", ").
void require_log_options(const py::kwargs& kwargs, const std::string& function,
                         const std::string& own) {
  for (const auto& item : kwargs) {
    const std::string k = py::str(item.first);
    if (std::find(kLogOptions.begin(), kLogOptions.end(), k) != kLogOptions.end()) continue;
    std::string message = function;
    message.append(": unknown option '").append(k).append("' (options: ").append(own);
    throw std::invalid_argument(message.append("kp, trajectory, files, resample, current_unit)"));
  }
}
constexpr const char* kLogDoc =
    "    kp, trajectory, files: use only the logs with these kp values, trajectory names, file "
    "names (lists or comma-separated str)\n"
    "    resample: step [s] to resample raw logs (no 'dt') to, as BAM's process.py (0: the logs "
    "must be processed)\n"
    "    current_unit: 'A' or 'mA', the unit of entries[].current in logs without 'current_unit'\n";

// The keyword arguments of fit_actuator: the workflow's options and the actuator reference that
// io::servo_actuator_for_logs resolves (as the CLI's --actuator and generic options).
struct FitActuatorArguments {
  workflows::FitActuatorOptions w;
  std::string actuator;
  std::string temperature_law;  ///< "linear", "exponential"; empty: none (w.temperature)
  bool temperature_viscous = false;
  sim::ServoConstants generic{sim::ServoDrive::voltage, 0.0, 0.0, 1.0, 0.0};
};

OptionTable<FitActuatorArguments>& fit_actuator_table() {
  static OptionTable<FitActuatorArguments> t("fit_actuator");
  static bool done = false;
  if (done) return t;
  done = true;
  using O = FitActuatorArguments;
  t.template add<std::string>(
      "actuator", [](O& o) -> std::string& { return o.actuator; },
      "a built-in actuator ('xl330', 'sts3215', ...: actuator_names()), the path of an "
      "ACTUATOR.json, or 'generic' (default: the logs' motor)");
  t.custom(
      "models",
      [](O& o, const py::handle& h) {
        o.w.models = workflows::parse_actuator_models(list_text(h));
      },
      "models to fit: a list ['m1', 'm3'] or a str 'm1,m3' / 'm1..m6' (default all)");
  t.custom(
      "validation",
      [](O& o, const py::handle& h) {
        o.w.validation =
            workflows::parse_servo_validation(option_cast<std::string>("validation", h));
      },
      "'leave-kp-out' (default), 'kp=VALUE', 'kfold=K' or 'none'");
  t.template add<long>(
      "trials", [](O& o) -> long& { return o.w.trials; },
      "objective evaluations per fit (CMA-ES budget; default 3000)");
  t.template add<double>(
      "time_budget", [](O& o) -> double& { return o.w.time_budget; },
      "wall time per fit [s] (0: none)");
  t.template add<std::uint64_t>(
      "seed", [](O& o) -> std::uint64_t& { return o.w.seed; }, "random seed (default 1)");
  t.template add<int>(
      "threads", [](O& o) -> int& { return o.w.threads; },
      "evaluation threads, >= 1 (default: all cores)");
  t.template add<int>(
      "restarts", [](O& o) -> int& { return o.w.restarts; }, "IPOP restarts per fit (default 9)");
  t.template add<double>(
      "sigma0", [](O& o) -> double& { return o.w.sigma0; },
      "initial CMA-ES step in the normalised box (default 0.25)");
  t.template add<double>(
      "velocity_weight", [](O& o) -> double& { return o.w.velocity_weight; },
      "weight of the mean absolute velocity error in the loss [s] (default 0)");
  t.template add<double>(
      "current_weight", [](O& o) -> double& { return o.w.current_weight; },
      "weight of the mean absolute motor-current error in the loss [rad/A] "
      "(default -1: automatic when the logs have a current of known unit)");
  t.custom(
      "ranges",
      [](O& o, const py::handle& h) {
        o.w.ranges.clear();
        if (py::isinstance<py::dict>(h)) {
          for (const auto& kv : py::reinterpret_borrow<py::dict>(h)) {
            const auto lohi = kv.second.cast<std::pair<double, double>>();
            o.w.ranges.push_back(
                workflows::parse_servo_bound(std::string(py::str(kv.first)) + "=" +
                                             std::string(py::repr(py::float_(lohi.first))) + ":" +
                                             std::string(py::repr(py::float_(lohi.second)))));
          }
        } else {
          for (const py::handle x : h)
            o.w.ranges.push_back(
                workflows::parse_servo_bound(option_cast<std::string>("ranges", x)));
        }
      },
      "search-range overrides: {KEY: (lo, hi)} or ['KEY=LO:HI', ...]");
  t.custom(
      "temperature_law",
      [](O& o, const py::handle& h) {
        o.temperature_law =
            h.is_none() ? std::string()
                        : choice("temperature_law", option_cast<std::string>("temperature_law", h),
                                 std::vector<std::pair<std::string, std::string>>{
                                     {"linear", "linear"}, {"exponential", "exponential"}});
      },
      "'linear' or 'exponential': also fit every model with a temperature-dependent friction "
      "(MODEL+T; the CLI's --temperature-law; default None: none)");
  t.template add<bool>(
      "temperature_viscous", [](O& o) -> bool& { return o.temperature_viscous; },
      "with temperature_law: fit kT_v, the viscous term's own coefficient, too (default False: "
      "held at 0)");
  t.template add<double>(
      "tolerance", [](O& o) -> double& { return o.w.tolerance; },
      "recommend the fewest parameters within this fraction of the best "
      "validation MAE (default 0.02)");
  t.custom(
      "drive",
      [](O& o, const py::handle& h) {
        o.generic.drive = choice(
            "drive", option_cast<std::string>("drive", h),
            std::vector<std::pair<std::string, sim::ServoDrive>>{
                {"voltage", sim::ServoDrive::voltage}, {"current", sim::ServoDrive::current}});
      },
      "generic actuator: 'voltage' (default) or 'current'");
  t.template add<double>(
      "error_gain", [](O& o) -> double& { return o.generic.error_gain; },
      "generic actuator: duty (or A) per kp*rad");
  t.template add<double>(
      "max_pwm", [](O& o) -> double& { return o.generic.max_pwm; },
      "generic actuator: duty limit (default 1)");
  t.template add<double>(
      "max_current", [](O& o) -> double& { return o.generic.max_current; },
      "generic actuator: current-limit window [A]");
  t.template add<double>(
      "vin", [](O& o) -> double& { return o.generic.vin; },
      "generic actuator: supply voltage for logs without 'vin' [V]");
  return t;
}

// A parameter set as a dict of its BAM keys (those of its model, voltage drive).
py::dict param_dict(const sim::ServoParams& p) {
  py::dict d;
  for (auto k : sim::servo_param_keys(p.model, sim::ServoDrive::voltage))
    d[py::str(std::string(k))] = sim::servo_param(p, k);
  return d;
}

/// The temperature law of the arguments into the workflow's options (the CLI's rules).
void apply_temperature(FitActuatorArguments& a) {
  if (a.temperature_law.empty()) {
    if (a.temperature_viscous)
      throw std::invalid_argument("fit_actuator: temperature_viscous needs temperature_law");
    return;
  }
  a.w.temperature.emplace();
  (void)parse_temperature_law(a.temperature_law, a.w.temperature->law);
  a.w.temperature->viscous = a.temperature_viscous;
}

/// The JSON object of an actuator result from the library's JSON text of it (`text`), for its
/// report.
template <class T>
auto parsed(std::string (*text)(const T&)) {
  return [text](const T& r) { return nlohmann::ordered_json::parse(text(r)); };
}

}  // namespace

void bind_actuator(py::module_& m) {
  using workflows::ActuatorModelOutcome;
  py::class_<ActuatorModelOutcome>(m, "ActuatorModelOutcome", "One fitted actuator model.")
      .def_readonly("name", &ActuatorModelOutcome::name,
                    "'m1' .. 'm6', with the temperature law 'm1+T' .. 'm6+T'")
      .def_readonly("temperature", &ActuatorModelOutcome::temperature,
                    "fitted with the temperature law")
      .def_readonly("n_parameters", &ActuatorModelOutcome::n_parameters,
                    "number of identified parameters")
      .def_property_readonly(
          "parameters",
          [](const py::object& s) {
            return ref_list(s.cast<const ActuatorModelOutcome&>().parameters, s);
          },
          "the estimates (ParameterEstimate: name = BAM key, unit, value; no standard errors: NaN; "
          "at_limit: at an end of its search range), as FitOutcome.parameters")
      .def_readonly("train_mae", &ActuatorModelOutcome::train_mae,
                    "position MAE pooled over all entries of the training logs [rad]")
      .def_readonly("validation_mae", &ActuatorModelOutcome::validation_mae,
                    "pooled over the validation logs [rad]; < 0: no validation")
      .def_readonly("evaluations", &ActuatorModelOutcome::evaluations)
      .def_readonly("seconds", &ActuatorModelOutcome::seconds, "[s]")
      .def_property_readonly(
          "params",
          [](const ActuatorModelOutcome& r) {
            return py::module_::import("json").attr("loads")(io::servo_params_json(r.params));
          },
          "the parameter file (NAME.json) as a dict")
      .def(
          "params_json",
          [](const ActuatorModelOutcome& r) { return io::servo_params_json(r.params); },
          "The parameter file's text (the CLI's NAME.json).")
      .def_readonly("at_bound", &ActuatorModelOutcome::at_bound)
      .def_readonly(
          "failed", &ActuatorModelOutcome::failed,
          "why the model is not ranked (its fit failed or its error is not finite); empty: ranked");
  using workflows::FitActuatorOutcome;
  py::class_<FitActuatorOutcome> fit(m, "FitActuatorOutcome", R"doc(
What fit_actuator returns (workflows::FitActuatorOutcome). to_json() is the CLI's summary.json,
write(dir) writes the CLI's output directory (m*.json, summary.json).
)doc");
  fit.def_readonly("actuator", &FitActuatorOutcome::actuator)
      .def_readonly("actuator_choice", &FitActuatorOutcome::actuator_choice,
                    "how the description was chosen from the logged supply ('': as named)")
      .def_readonly("verdict", &FitActuatorOutcome::verdict,
                    "the Verdict on this fit (docs/verdicts.md)")
      .def_readonly("train_log_mean", &FitActuatorOutcome::train_log_mean,
                    "the recommended model's mean of the per-log MAEs on the training logs [rad] "
                    "(eval_actuator's mean; train_mae is pooled over entries)")
      .def_readonly("validation_log_mean", &FitActuatorOutcome::validation_log_mean,
                    "the same on the validation logs [rad] (NaN: none)")
      .def_readonly("validation", &FitActuatorOutcome::validation)
      .def_readonly("validated", &FitActuatorOutcome::validated)
      .def_readonly("logs", &FitActuatorOutcome::logs)
      .def_readonly("threads", &FitActuatorOutcome::threads)
      .def_readonly("current_weight", &FitActuatorOutcome::current_weight,
                    "weight of the motor-current term in the loss [rad/A] (0: none)")
      .def_property_readonly(
          "temperature",
          [](const FitActuatorOutcome& f) -> py::object {
            const auto& t = f.temperature;
            if (t.law.empty()) return py::none();  // no temperature law asked for
            py::dict d;
            d["law"] = t.law;
            d["viscous"] = t.viscous;
            d["T_ref"] = t.check.T_ref;
            d["T_min"] = t.check.T_min;
            d["T_max"] = t.check.T_max;
            d["spread"] = t.check.spread;
            d["kp_correlation"] = t.check.kp_correlation;
            d["within_kp_spread"] = t.check.within_kp_spread;
            d["undetermined"] = t.undetermined;
            d["confounded"] = t.check.confounded;
            return py::object(std::move(d));
          },
          "the temperature law's check of the training logs (summary.json's 'temperature': "
          "law, T_ref [degC], spread [K], kp_correlation, undetermined, confounded, ...); None "
          "without temperature_law")
      .def_property_readonly(
          "models",
          [](const py::object& s) {
            py::list l;
            for (const auto& r : s.cast<const FitActuatorOutcome&>().models)
              l.append(py::cast(&r, py::return_value_policy::reference_internal, s));
            return l;
          })
      .def_property_readonly("recommended",
                             [](const FitActuatorOutcome& f) -> py::object {
                               const auto* rec = f.recommended_model();
                               if (!rec) return py::none();  // no model has a finite error
                               return py::str(rec->name);
                             })
      .def_readonly("reason", &FitActuatorOutcome::reason)
      .def_readonly("warnings", &FitActuatorOutcome::warnings)
      .def("to_json", &io::fit_actuator_summary_json, "The CLI's summary.json text.")
      .def(
          "write",
          [](const FitActuatorOutcome& f, const py::object& dir) {
            io::write_fit_actuator(path_argument(dir, "dir"), f);
          },
          py::arg("dir"), "Write NAME.json for every model and summary.json into dir.");
  def_report(fit, "summary.json", parsed(&io::fit_actuator_summary_json),
             "Write the identification report of the run (the page `fit-actuator --report` "
             "writes): the models ranked, the recommendation, its parameters, every log "
             "re-simulated with it; returns the path.");

  py::class_<workflows::EvalActuatorLog>(m, "EvalActuatorLog")
      .def_readonly("name", &workflows::EvalActuatorLog::name)
      .def_readonly("kp", &workflows::EvalActuatorLog::kp)
      .def_readonly("trajectory", &workflows::EvalActuatorLog::trajectory)
      .def_readonly("range", &workflows::EvalActuatorLog::range,
                    "max - min of the measured position [rad]")
      .def_readonly("samples", &workflows::EvalActuatorLog::samples, "entries compared");
  py::class_<workflows::EvalActuatorColumn>(m, "EvalActuatorColumn")
      .def_readonly("label", &workflows::EvalActuatorColumn::label)
      .def_readonly("file", &workflows::EvalActuatorColumn::file)
      .def_property_readonly("mae", view_of(&workflows::EvalActuatorColumn::mae), "per log [rad]")
      .def_readonly("mean", &workflows::EvalActuatorColumn::mean, "mean of the per-log MAEs [rad]")
      .def_readonly(
          "pooled", &workflows::EvalActuatorColumn::pooled,
          "MAE pooled over all entries of the logs [rad] (fit_actuator's train_mae measure)");
  using workflows::EvalActuatorOutcome;
  py::class_<EvalActuatorOutcome> eval(
      m, "EvalActuatorOutcome", "What eval_actuator returns; to_json() is the CLI's --json file.");
  eval.def_readonly("logs", &EvalActuatorOutcome::logs)
      .def_property_readonly(
          "params",
          [](const py::object& s) {
            py::list l;
            for (const auto& c : s.cast<const EvalActuatorOutcome&>().params)
              l.append(py::cast(&c, py::return_value_policy::reference_internal, s));
            return l;
          })
      .def_property_readonly(
          "best",
          [](const EvalActuatorOutcome& e) -> py::object {
            if (!e.best) return py::none();
            return py::str(e.params.at(*e.best).label);
          },
          "label of the set with the lowest finite mean MAE; None when no set has one")
      .def_readonly("verdict", &EvalActuatorOutcome::verdict,
                    "the Verdict on the evaluation (docs/verdicts.md)")
      .def("to_json", &io::eval_actuator_json, "The CLI's eval-actuator --json text.")
      .def(
          "write",
          [](const EvalActuatorOutcome& e, const py::object& path) {
            std::string p = path_argument(path, "path");
            io::write_eval_actuator(p, e);
            return p;
          },
          py::arg("path"), "Write the CLI's --json file; returns the path.");
  def_report(eval, "eval-actuator", parsed(&io::eval_actuator_json),
             "Write the report of the evaluation (the page `eval-actuator --report` writes): the "
             "per-log errors of every set, the lowest mean, every log re-simulated with every set; "
             "returns the path.");

  m.def(
      "fit_actuator",
      [](const py::object& logs, const py::object& progress, const py::kwargs& kwargs) {
        FitActuatorArguments a;
        fit_actuator_table().apply(a, kwargs, kLogOptions);
        apply_temperature(a);
        const std::vector<data::ServoLog> l = load_logs(logs, kwargs);
        a.w.actuator = io::servo_actuator_for_logs(a.actuator, a.generic, l, &a.w.actuator_choice);
        return run_released(progress, [&](const workflows::Progress& p) {
          return workflows::fit_actuator(l, a.w, p);
        });
      },
      py::arg("logs"), py::kw_only(), py::arg("progress") = py::none(),
      (std::string(R"doc(fit_actuator(logs, *, progress=None, **options) -> FitActuatorOutcome

Fit the servo actuator models M1..M6 to pendulum logs with CMA-ES, validate and recommend one
(workflows::fit_actuator; the CLI's `fit-actuator`; docs/actuators.md). logs: BAM log files or
directories of .json logs (a path or a list).
)doc") +
       kProgressDoc + "\n" + fit_actuator_table().doc() + kLogDoc)
          .c_str());
  m.def(
      "eval_actuator",
      [](const py::object& logs, const py::object& params, const py::object& progress,
         const py::kwargs& kwargs) {
        require_log_options(kwargs, "eval_actuator", "");
        const std::vector<workflows::ServoParamSet> sets =
            io::read_servo_param_sets(paths_of(params, "params"));
        const std::vector<data::ServoLog> l = load_logs(logs, kwargs);
        return run_released(progress, [&](const workflows::Progress& p) {
          return workflows::eval_actuator(l, sets, p);
        });
      },
      py::arg("logs"), py::arg("params"), py::kw_only(), py::arg("progress") = py::none(),
      (std::string(
           R"doc(eval_actuator(logs, params, *, progress=None, **options) -> EvalActuatorOutcome

The mean absolute position error [rad] of the closed-loop re-simulation of every log with every
parameter set (workflows::eval_actuator; the CLI's `eval-actuator`). params: parameter files
(m1.json, ...) or directories of them (a path or a list); each is labelled by its file name
without .json.
)doc") +
       kProgressDoc + "\nOptions (keyword arguments):\n" + kLogDoc)
          .c_str());

  m.def(
      "mujoco_replay",
      [](const py::object& params, const py::object& logs, double timestep,
         const py::kwargs& kwargs) -> py::dict {
        require_log_options(kwargs, "mujoco_replay", "timestep, ");
        if (!(timestep > 0.0) || !std::isfinite(timestep))
          throw std::invalid_argument("timestep: must be > 0 [s]");
#ifdef FRICTIONLAB_HAVE_MUJOCO
        const io::ActuatorSource source = io::read_actuator_source(path_argument(params, "params"));
        const mujoco::ServoReplay r =
            mujoco::replay_servo_logs(source, load_logs(logs, kwargs), timestep);
        py::list per_log;
        for (const mujoco::ServoReplayLog& l : r.logs)
          per_log.append(py::dict(
              py::arg("file") = l.file, py::arg("kp") = l.kp, py::arg("trajectory") = l.trajectory,
              py::arg("torque_off") = l.torque_off, py::arg("exported") = l.exported,
              py::arg("inside") = l.inside, py::arg("own") = l.own));
        return py::dict(py::arg("mujoco_version") = r.mujoco_version,
                        py::arg("timestep") = r.timestep, py::arg("exported") = r.exported,
                        py::arg("inside") = r.inside, py::arg("own") = r.own,
                        py::arg("logs") = per_log, py::arg("summary") = mujoco::replay_summary(r));
#else
        (void)params;
        (void)logs;
        throw std::runtime_error(
            "mujoco_replay: this frictionlab was built without MuJoCo (Debian: libmujoco-dev; "
            "scripts/install-deps.sh installs it)");
#endif
      },
      py::arg("params"), py::arg("logs"), py::kw_only(), py::arg("timestep") = 1e-3,
      (std::string(
           R"doc(mujoco_replay(params, logs, *, timestep=0.001, **options) -> dict

A fitted actuator's logs replayed in MuJoCo (mujoco::replay_servo_logs; the CLI's
`export mujoco --replay`): each log at its own kp and vin in the logs' pendulum bench, Euler at
`timestep` [s], once with the exported position-form fragment and once with frictionlab's friction
inside MuJoCo, beside frictionlab's own simulation. params: a parameter file of fit-actuator, its
summary.json or output directory. Returns {"mujoco_version", "timestep", "exported", "inside",
"own" (mean MAE [rad]), "logs": [{"file", "kp", "trajectory", "torque_off", "exported",
"inside", "own"}], "summary"}. RuntimeError in a build without MuJoCo.

Options (keyword arguments):
)doc") +
       kLogDoc)
          .c_str());

  py::class_<workflows::ActuatorFinding>(m, "ActuatorFinding", "One finding of check_actuator.")
      .def_readonly("log", &workflows::ActuatorFinding::log,
                    "file name; '' for all the logs or a finding several logs share")
      .def_readonly("logs", &workflows::ActuatorFinding::logs,
                    "the file names of the logs it is about; [] for the whole set")
      .def_readonly("check", &workflows::ActuatorFinding::check,
                    "'gravity', 'kp', 'offset', 'saturation', 'supply', 'gains', 'current' or "
                    "'max_torque'")
      .def_readonly("warning", &workflows::ActuatorFinding::warning,
                    "True: looks inconsistent; False: a note")
      .def_readonly("message", &workflows::ActuatorFinding::message)
      .def("__repr__", [](const workflows::ActuatorFinding& f) {
        return std::string(f.warning ? "warning: " : "note: ") +
               (f.log.empty() ? "" : f.log + ": ") + f.check + ": " + f.message;
      });
  py::class_<workflows::ActuatorLogCheck>(m, "ActuatorLogCheck", "check_actuator on one log.")
      .def_readonly("log", &workflows::ActuatorLogCheck::log)
      .def_readonly("kp", &workflows::ActuatorLogCheck::kp)
      .def_readonly("nominal_mae", &workflows::ActuatorLogCheck::nominal_mae, "[rad]")
      .def_readonly("fitted_mae", &workflows::ActuatorLogCheck::fitted_mae, "[rad]")
      .def_readonly("saturated", &workflows::ActuatorLogCheck::saturated, "share of entries [-]");
  py::class_<workflows::ActuatorCheckOutcome>(
      m, "ActuatorCheckOutcome", "What check_actuator returns (workflows::ActuatorCheckOutcome).")
      .def_readonly("actuator", &workflows::ActuatorCheckOutcome::actuator)
      .def_readonly("nominal_mae", &workflows::ActuatorCheckOutcome::nominal_mae, "[rad]")
      .def_readonly("fitted_mae", &workflows::ActuatorCheckOutcome::fitted_mae, "[rad]")
      .def_property_readonly(
          "nominal", [](const workflows::ActuatorCheckOutcome& o) { return param_dict(o.nominal); },
          "the nominal M1 parameters (BAM keys)")
      .def_property_readonly(
          "fitted", [](const workflows::ActuatorCheckOutcome& o) { return param_dict(o.fitted); },
          "the quick M1 fit (BAM keys)")
      .def_readonly("logs", &workflows::ActuatorCheckOutcome::logs)
      .def_readonly("findings", &workflows::ActuatorCheckOutcome::findings)
      .def_readonly("warnings", &workflows::ActuatorCheckOutcome::warnings);
  m.def("builtin_actuator_names", &io::builtin_actuator_names,
        "The names of the built-in actuators (data/actuators/NAME.json; "
        "io::builtin_actuator_names).");
  m.def(
      "actuator_json",
      [](const std::string& reference) {
        const std::string_view text = io::builtin_actuator_text(reference);
        if (!text.empty()) return std::string(text);
        return io::actuator_json(io::resolve_actuator(reference, "", "actuator_json"));
      },
      py::arg("actuator"),
      "The ACTUATOR.json text of a built-in name (its shipped file) or of a file (read, checked "
      "and written back; io::actuator_json).");
  m.def(
      "check_actuator",
      [](const std::string& actuator, const py::object& logs, const py::object& progress,
         long evaluations, const py::object& threads, const py::kwargs& kwargs) {
        require_log_options(kwargs, "check_actuator", "evaluations, threads, ");
        workflows::ActuatorCheckOptions o;
        workflows::check_option("evaluations", static_cast<double>(evaluations));
        o.evaluations = evaluations;
        if (!threads.is_none()) {  // (None: every core)
          o.threads = option_cast<int>("threads", threads);
          workflows::check_option("threads", o.threads);
        }
        const auto a = io::resolve_actuator(actuator, "", "check_actuator");
        const std::vector<data::ServoLog> l = load_logs(logs, kwargs);
        return run_released(progress, [&](const workflows::Progress& p) {
          return workflows::check_actuator(a, l, o, p);
        });
      },
      py::arg("actuator"), py::arg("logs"), py::kw_only(), py::arg("progress") = py::none(),
      py::arg("evaluations") = 600, py::arg("threads") = py::none(),
      (std::string(
           R"doc(check_actuator(actuator, logs, *, progress=None, evaluations=600, threads=None, **options) -> ActuatorCheckOutcome

Check logs against an actuator description before a long fit (workflows::check_actuator; the
CLI's `actuator check`): nominal simulation, a quick M1 fit and the hypotheses gravity reversed,
kp scaled, offset, saturation, supply, gains, current. actuator: a built-in name or the path of
an ACTUATOR.json; logs: BAM log files or directories.
)doc") +
       kProgressDoc + "\nOptions (keyword arguments):\n" + kLogDoc)
          .c_str());
}

}  // namespace frictionlab::python
