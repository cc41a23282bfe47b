// frictionlab Python module: fit_joint and eval_joint (workflows/joint.hpp) and their results
// (workflows_common.hpp; docs/python.md).
#include "workflows_joint.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/joint_outputs.hpp"
#include "frictionlab/workflows/joint.hpp"
#ifdef FRICTIONLAB_HAVE_MUJOCO
#include "frictionlab/mujoco/replay.hpp"
#endif
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

/// A joint model from a dict (the "joint" object, or a JOINT.json / joint_fit.json object with
/// a "joint" key), a path (io::read_joint_file) or a FitJointOutcome.
sim::JointModel joint_from_python(const py::handle& obj, const std::string& name) {
  if (py::isinstance<workflows::FitJointOutcome>(obj))
    return obj.cast<const workflows::FitJointOutcome&>().model;
  io::JointFile f;
  if (const auto path = as_path(obj)) {
    f = io::read_joint_file(*path);
  } else if (py::isinstance<py::dict>(obj)) {
    nlohmann::json j = python_to_json(obj);
    f = j.contains("joint") ? io::parse_joint_json(j.dump(), name) : io::joint_from_json(j, name);
  } else {
    throw std::invalid_argument(name +
                                ": expected a joint object (dict), a JOINT.json or "
                                "joint_fit.json path, or a FitJointOutcome");
  }
  warn_all(f.warnings, 2);
  return f.model;
}

/// A velocity column that would not be read is an error, not silently ignored (the CLI's
/// --velocity without --use-velocity): fit_joint and eval_joint read it only with
/// derivatives='velocity'.
void check_velocity_is_read(const py::kwargs& kwargs, const data::PreprocessOptions& preprocess) {
  if (!kwargs.contains("velocity") || kwargs["velocity"].is_none()) return;
  if (preprocess.derivatives == data::DerivativesFrom::velocity) return;
  throw std::invalid_argument(
      "velocity=" + py::repr(kwargs["velocity"]).cast<std::string>() +
      " is read only with derivatives='velocity' (qd = the measured velocity, qdd its "
      "derivative); without it qd and qdd come from the position: add "
      "derivatives='velocity', or drop velocity");
}

/// The preprocessing and validation options fit_joint and eval_joint share.
template <class O>
void add_prep_options(OptionTable<O>& t) {
  using PP = data::PreprocessOptions;
  auto pp = [](O& o) -> PP& { return o.prep.preprocess; };
  t.template add<bool>(
      "torque_from_command", [](O& o) -> bool& { return o.prep.torque_from_command; },
      "tau = gain * the record's current (command) channel, else its force "
      "(default False)");
  t.template add<double>(
      "gain", [](O& o) -> double& { return o.prep.gain; },
      "gain of the command [N m per unit] (default 1)");
  t.template add<double>(
      "resample_rate", [pp](O& o) -> double& { return pp(o).resample_rate; },
      "resample to this uniform rate first [Hz], > 0 (default: keep the samples)");
  t.template add<double>(
      "resample_max_gap", [pp](O& o) -> double& { return pp(o).resample_max_gap; },
      "resampling: the longest step to interpolate across [s] (0: 10 median "
      "steps; a longer gap is an error; inf: any)");
  t.custom(
      "lowpass_cutoff",
      [](O& o, const py::handle& h) {
        o.prep.preprocess.lowpass_cutoff = option_cast<double>("lowpass_cutoff", h);
        o.prep.choose_lowpass = false;
      },
      "zero-phase Butterworth low-pass of position, velocity and torque [Hz]; 0: none; not "
      "given: 5 x the motion's bandwidth, chosen from the record (outcome.lowpass)");
  t.template add<int>(
      "decimate", [pp](O& o) -> int& { return pp(o).decimate; },
      "keep every N-th sample after filtering (default 1)");
  t.template add<double>(
      "trim_s", [pp](O& o) -> double& { return pp(o).trim_s; },
      "seconds dropped at both ends after filtering [s] (default 0)");
  t.custom(
      "diff",
      [](O& o, const py::handle& h) {
        o.prep.preprocess.diff.method =
            choice("diff", option_cast<std::string>("diff", h),
                   std::vector<std::pair<std::string, signal::DiffMethod>>{
                       {"savgol", signal::DiffMethod::savgol},
                       {"central", signal::DiffMethod::central},
                       {"tvreg", signal::DiffMethod::tvreg}});
      },
      "differentiator for qd, qdd: 'savgol' (default), 'central' or 'tvreg'");
  t.template add<double>(
      "diff_window_s", [pp](O& o) -> double& { return pp(o).diff_window_s; },
      "savgol window [s] (default 0.02)");
  t.template add<double>(
      "tv_alpha", [pp](O& o) -> double& { return pp(o).diff.tv.alpha; },
      "tvreg: regularisation weight [rad s^(order+1)]");
  t.template add<int>(
      "tv_order", [pp](O& o) -> int& { return pp(o).diff.tv.order; },
      "tvreg: 2 (default) or 1 (TVRegDiff twice)");
  t.template add<double>(
      "tv_second_alpha", [pp](O& o) -> double& { return pp(o).diff.tv_second_alpha; },
      "tvreg order 1: weight of the second TVRegDiff [rad s]");
  t.template add<bool>(
      "reintegrate", [pp](O& o) -> bool& { return pp(o).reintegrate; },
      "q, qd from the double integral of the de-noised qdd");
  t.template add<double>(
      "tv_force_alpha", [pp](O& o) -> double& { return pp(o).tv_force_alpha; },
      "TV de-noising weight of the torque [N m s^2], > 0 (default: none)");
  t.custom(
      "derivatives",
      [](O& o, const py::handle& h) {
        o.prep.preprocess.derivatives =
            choice("derivatives", option_cast<std::string>("derivatives", h),
                   std::vector<std::pair<std::string, data::DerivativesFrom>>{
                       {"position", data::DerivativesFrom::position},
                       {"velocity", data::DerivativesFrom::velocity}});
      },
      "qd, qdd from the 'position' (default) or qdd from the measured 'velocity'");
  t.template add<double>(
      "horizon_s", [](O& o) -> double& { return o.eval.horizon_s; },
      "validation: restart the simulation from the measured state every this "
      "many seconds [s] (0, default: one open-loop simulation)");
  for (const auto& name : record_spec_names())
    t.custom(
        name, [](O&, const py::handle&) {},
        "the " + name + " column / variable when a record is given as a file or DataFrame" +
            (name == "time" ? " (default 't')" : ""));
}

OptionTable<workflows::FitJointOptions>& fit_joint_table() {
  static OptionTable<workflows::FitJointOptions> t("fit_joint");
  static bool done = false;
  if (done) return t;
  done = true;
  using O = workflows::FitJointOptions;
  t.custom(
      "method",
      [](O& o, const py::handle& h) {
        o.method = workflows::parse_joint_method(option_cast<std::string>("method", h));
      },
      "'idim' (default), 'sr3' or 'oe'");
  t.custom(
      "init", [](O&, const py::handle&) {},
      "oe's start: 'idim', 'sr3', or a joint model (dict, JOINT.json / joint_fit.json path, "
      "FitJointOutcome)");
  t.template add<bool>(
      "gravity", [](O& o) -> bool& { return o.structure.gravity; },
      "gravity terms mgCx, mgCy (default True)");
  t.template add<bool>(
      "offset", [](O& o) -> bool& { return o.structure.offset; },
      "constant torque offset (default True)");
  t.template add<bool>(
      "asymmetric", [](O& o) -> bool& { return o.idim.asymmetric; },
      "idim: separate Coulomb levels Fc_pos, Fc_neg (needs offset=False)");
  t.template add<bool>(
      "load_dependent", [](O& o) -> bool& { return o.idim.load_dependent; },
      "idim (and oe from idim): Coulomb level rising with the load |tau| (mu_drive while the "
      "motor drives the joint, mu_back while it is back-driven)");
  t.custom(
      "temperature_law",
      [](O& o, const py::handle& h) {
        o.idim.temperature_law = choice(
            "temperature_law", option_cast<std::string>("temperature_law", h),
            std::vector<std::pair<std::string, TemperatureLaw>>{
                {"linear", TemperatureLaw::linear}, {"exponential", TemperatureLaw::exponential}});
      },
      "idim: friction levels scaled by the records' temperature, 'linear' 1 + k (T - T_ref) or "
      "'exponential' exp(k (T - T_ref)) (k = kT, kT_v [1/K]; the records need a temperature)");
  t.custom(
      "temperature_ref",
      [](O& o, const py::handle& h) {
        o.idim.temperature_ref = option_cast<double>("temperature_ref", h);
      },
      "idim: the reference temperature T_ref of the fitted levels [degC] (default: the mean "
      "temperature of the moving samples)");
  t.template add<double>(
      "v_deadband", [](O& o) -> double& { return o.idim.v_deadband; },
      "idim: leave out samples with |qd| <= this [rad/s]");
  t.template add<double>(
      "K", [](O& o) -> double& { return o.sr3.K; },
      "sr3: tanh(K qd) in place of sgn(qd) [s/rad] (0: sgn)");
  t.template add<int>(
      "n_viscous", [](O& o) -> int& { return o.sr3.n_viscous; },
      "sr3: viscous library qd .. qd^N (default 3)");
  t.template add<std::vector<double>>(
      "delta", [](O& o) -> std::vector<double>& { return o.sr3.delta; },
      "sr3: Stribeck exponents of the library (default [0.5, 1, 2, 4])");
  t.template add<std::vector<double>>(
      "sigma0_init", [](O& o) -> std::vector<double>& { return o.sr3.sigma0_init; },
      "sr3: initial sigma0 values [N m/rad]");
  t.template add<int>(
      "aic_observations", [](O& o) -> int& { return o.sr3.aic_observations; },
      "sr3: number of AIC observations (0: max(40, columns + 10))");
  t.custom(
      "output",
      [](O& o, const py::handle& h) {
        using Out = identify::JointOeOptions::Output;
        o.oe.output = choice(
            "output", option_cast<std::string>("output", h),
            std::vector<std::pair<std::string, Out>>{
                {"position", Out::position}, {"velocity", Out::velocity}, {"both", Out::both}});
      },
      "oe: fit 'position', 'velocity' or 'both' (default)");
  t.custom(
      "jacobian",
      [](O& o, const py::handle& h) {
        using Jac = identify::JointOeOptions::Jacobian;
        o.oe.jacobian = choice("jacobian", option_cast<std::string>("jacobian", h),
                               std::vector<std::pair<std::string, Jac>>{
                                   {"sensitivities", Jac::sensitivities},
                                   {"central_differences", Jac::central_differences}});
      },
      "oe: the Jacobian by forward 'sensitivities' of the simulation (default; LuGre "
      "friction) or by 'central_differences'");
  t.template add<double>(
      "segment_s", [](O& o) -> double& { return o.oe.segment_s; },
      "oe: multiple-shooting segment length [s] (0: whole; default 0.25)");
  t.template add<int>(
      "max_iterations", [](O& o) -> int& { return o.oe.max_iterations; },
      "oe: largest number of solver iterations (default 50)");
  t.template add<bool>(
      "closed_loop", [](O& o) -> bool& { return o.oe.closed_loop; },
      "oe: simulate under the controller (needs desired=)");
  t.custom(
      "controller",
      [](O& o, const py::handle& h) {
        if (py::isinstance<py::str>(h) && h.cast<std::string>() == "fit") return;
        o.fit_controller = false;
        if (const auto path = as_path(h)) {
          o.oe.controller = io::read_controller_file(*path);
          o.controller_label = *path;
        } else {
          o.oe.controller = io::parse_controller_json(python_to_json(h).dump(), "controller");
          o.controller_label = "controller";
        }
      },
      "closed loop: 'fit' (default: gains by least squares) or a CONTROLLER.json (dict "
      "or path)");
  t.custom(
      "max_step",
      [](O& o, const py::handle& h) {
        o.oe.max_step = o.eval.max_step = option_cast<double>("max_step", h);
      },
      "largest simulation step of oe and of the validation [s] (default 0.001)");
  add_prep_options(t);
  return t;
}

OptionTable<workflows::EvalJointOptions>& eval_joint_table() {
  static OptionTable<workflows::EvalJointOptions> t("eval_joint");
  static bool done = false;
  if (done) return t;
  done = true;
  t.template add<double>(
      "max_step", [](workflows::EvalJointOptions& o) -> double& { return o.eval.max_step; },
      "largest simulation step [s] (default 0.001)");
  add_prep_options(t);
  return t;
}

void bind_joint_results(py::module_& m) {
  using identify::ChannelError;
  py::class_<ChannelError>(m, "ChannelError", "Error of one channel (identify::ChannelError).")
      .def_readonly("rel", &ChannelError::rel, "||p - y|| / ||y|| [-]")
      .def_readonly("rmse", &ChannelError::rmse, "[channel unit]")
      .def_readonly("max_abs", &ChannelError::max_abs, "[channel unit]");
  using identify::JointEvaluation;
  py::class_<JointEvaluation>(m, "JointEvaluation",
                              "A joint model on one record (identify::JointEvaluation).")
      .def_readonly("source", &JointEvaluation::source)
      .def_readonly("torque", &JointEvaluation::torque, "[N m]")
      .def_readonly("position", &JointEvaluation::position, "[rad]")
      .def_readonly("velocity", &JointEvaluation::velocity, "[rad/s]")
      .def_property_readonly("tau_pred", view_of(&JointEvaluation::tau_pred),
                             "inverse-model torque [N m]")
      .def_property_readonly("q_sim", view_of(&JointEvaluation::q_sim), "simulated position [rad]")
      .def_property_readonly("qd_sim", view_of(&JointEvaluation::qd_sim),
                             "simulated velocity [rad/s]")
      .def_readonly("unconverged_stages", &JointEvaluation::unconverged_stages);
  using identify::JointData;
  py::class_<JointData>(m, "JointData", "A preprocessed joint record (identify::JointData).")
      .def_readonly("source", &JointData::source)
      .def_property_readonly("t", view_of(&JointData::t), "[s]")
      .def_property_readonly("q", view_of(&JointData::q), "[rad]")
      .def_property_readonly("qd", view_of(&JointData::qd), "[rad/s]")
      .def_property_readonly("qdd", view_of(&JointData::qdd), "[rad/s^2]")
      .def_property_readonly("tau", view_of(&JointData::tau), "[N m]")
      .def_property_readonly("q_des", view_of(&JointData::q_des), "[rad]")
      .def_property_readonly("qd_des", view_of(&JointData::qd_des), "[rad/s]")
      .def_property_readonly("tau_ff", view_of(&JointData::tau_ff), "[N m]")
      .def("__len__", &JointData::size);
  using identify::StaticCurvePoint;
  py::class_<StaticCurvePoint>(m, "StaticCurvePoint")
      .def_readonly("qd", &StaticCurvePoint::qd, "[rad/s]")
      .def_readonly("measured", &StaticCurvePoint::measured, "[N m]")
      .def_readonly("model", &StaticCurvePoint::model, "[N m]")
      .def_readonly("duration", &StaticCurvePoint::duration, "[s]");
  using workflows::JointSteadyCurve;
  py::class_<JointSteadyCurve>(m, "JointSteadyCurve")
      .def_property_readonly("qd", view_of(&JointSteadyCurve::qd), "[rad/s]")
      .def_property_readonly("friction", view_of(&JointSteadyCurve::friction), "[N m]");

  using identify::JointLowpassChoice;
  py::class_<JointLowpassChoice>(m, "JointLowpassChoice",
                                 "The low-pass chosen from a record when none was given "
                                 "(docs/joint-identification.md, \"Low-pass\").")
      .def_readonly("cutoff_hz", &JointLowpassChoice::cutoff_hz, "[Hz]; 0: none")
      .def_readonly("candidate_hz", &JointLowpassChoice::candidate_hz,
                    "5 x bandwidth_hz rounded to 1-2-5 [Hz]")
      .def_readonly("bandwidth_hz", &JointLowpassChoice::bandwidth_hz,
                    "99.9 % of the position's power lies below it [Hz]")
      .def_readonly("noise_share", &JointLowpassChoice::noise_share,
                    "share of the raw acceleration's power above candidate_hz [-]")
      .def_readonly("noise_dominated", &JointLowpassChoice::noise_dominated, "noise_share > 0.5")
      .def_readonly("sample_rate_hz", &JointLowpassChoice::sample_rate_hz, "[Hz]")
      .def_readonly("source", &JointLowpassChoice::source);

  using workflows::FitJointOutcome;
  py::class_<FitJointOutcome> fit(m, "FitJointOutcome", R"doc(
What fit_joint returns (workflows::FitJointOutcome): the joint model (`model`, the JOINT.json
"joint" object as a dict), its parameters with standard errors and intervals, the training and
validation errors, the static curve and the method's details. to_json() is the CLI's
joint_fit.json text, write(dir) writes the CLI's output directory.
)doc");
  fit.def_property_readonly(
         "method", [](const FitJointOutcome& r) { return workflows::joint_method_name(r.method); })
      .def_readonly("input", &FitJointOutcome::input)
      .def_readonly("training_data", &FitJointOutcome::training_data)
      .def_property_readonly("validation_data",
                             [](const py::object& s) {
                               return ref_list(s.cast<const FitJointOutcome&>().validation_data, s);
                             })
      .def_property_readonly(
          "model",
          [](const FitJointOutcome& r) { return json_to_python(io::joint_to_json(r.model)); },
          "the joint model: the JOINT.json \"joint\" object (dict)")
      .def_property_readonly("parameters",
                             [](const py::object& s) {
                               return ref_list(s.cast<const FitJointOutcome&>().parameters, s);
                             })
      .def_readonly("reliability", &FitJointOutcome::reliability,
                    "whether the parameters' white-noise standard errors can be trusted "
                    "(Reliability): idim's, or oe's when its result is kept; None for sr3 and a "
                    "start read from a file")
      .def_readonly("training", &FitJointOutcome::training)
      .def_property_readonly("validation",
                             [](const py::object& s) {
                               return ref_list(s.cast<const FitJointOutcome&>().validation, s);
                             })
      .def_readonly("static_curve", &FitJointOutcome::static_curve)
      .def_readonly("steady_curve", &FitJointOutcome::steady_curve)
      .def_readonly("run_time_s", &FitJointOutcome::run_time_s, "[s]")
      .def_readonly("warnings", &FitJointOutcome::warnings)
      .def_readonly("verdict", &FitJointOutcome::verdict, "the Verdict on this fit")
      .def_readonly("lowpass", &FitJointOutcome::lowpass,
                    "the JointLowpassChoice made from the training record when no lowpass_cutoff "
                    "was given, else None")
      .def_property_readonly(
          "method_details",
          [](const FitJointOutcome& r) {
            return json_to_python(io::joint_fit_to_json(r)["method_details"]);
          },
          "joint_fit.json's method_details (idim, sr3, oe)")
      .def(
          "to_json",
          [](const FitJointOutcome& r) { return io::joint_fit_to_json(r).dump(2) + "\n"; },
          "The CLI's joint_fit.json text.")
      .def(
          "write",
          [](const FitJointOutcome& r, const py::object& dir, bool plots) {
            return io::write_fit_joint(path_argument(dir, "dir"), r, plots);
          },
          py::arg("dir"), py::arg("plots") = true,
          "Write the CLI's output directory (joint_fit.json, predictions, plots).");
  def_report(fit, &FitJointOutcome::input, &io::joint_fit_to_json,
             "Write the identification report of the joint fit (the page `fit-joint --report` "
             "writes); returns the path.");

  py::class_<EvalJointResult> eval(m, "EvalJointOutcome", R"doc(
What eval_joint returns (workflows::EvalJointOutcome): the preprocessed records (`data`) and
the model's errors on each (`evaluations`). to_json() is the CLI's joint_eval.json text.
)doc");
  eval.def_property_readonly("data",
                             [](const py::object& s) {
                               return ref_list(s.cast<const EvalJointResult&>().outcome.data, s);
                             })
      .def_property_readonly("evaluations",
                             [](const py::object& s) {
                               return ref_list(s.cast<const EvalJointResult&>().outcome.evaluations,
                                               s);
                             })
      .def_property_readonly(
          "model",
          [](const EvalJointResult& r) { return json_to_python(io::joint_to_json(r.model)); })
      .def_readonly("joint_file", &EvalJointResult::joint_file)
      .def_property_readonly(
          "verdict", [](const EvalJointResult& r) { return r.outcome.verdict; },
          "the Verdict on the model on these records")
      .def_property_readonly(
          "lowpass", [](const EvalJointResult& r) { return r.outcome.lowpass; },
          "per record: the JointLowpassChoice made for it, or None")
      .def_property_readonly(
          "warnings", [](const EvalJointResult& r) { return r.outcome.warnings; },
          "Every warning of the evaluation (joint_eval.json's \"warnings\").")
      .def(
          "to_json",
          [](const EvalJointResult& r) {
            return io::joint_eval_to_json(r.outcome, r.model, r.joint_file).dump(2) + "\n";
          },
          "The CLI's joint_eval.json text.")
      .def(
          "write",
          [](const EvalJointResult& r, const py::object& dir, bool plots) {
            return io::write_eval_joint(path_argument(dir, "dir"), r.outcome, r.model, r.joint_file,
                                        plots);
          },
          py::arg("dir"), py::arg("plots") = true, "Write the CLI's output directory.");
  def_report(
      eval, &EvalJointResult::joint_file,
      [](const EvalJointResult& r) {
        return io::joint_eval_to_json(r.outcome, r.model, r.joint_file);
      },
      "Write the report of the evaluation (the page `eval-joint --report` writes); returns the "
      "path.");
}

}  // namespace

void bind_joint(py::module_& m) {
  bind_joint_results(m);
  m.def(
      "fit_joint",
      [](const py::object& training, const py::object& validation, const py::object& desired,
         const py::object& progress, const py::kwargs& kwargs) {
        workflows::FitJointOptions o;
        fit_joint_table().apply(o, kwargs);
        if (kwargs.contains("init") && !kwargs["init"].is_none()) {
          const py::handle init = kwargs["init"];
          if (py::isinstance<py::str>(init) && init.cast<std::string>() == "idim") {
            o.init = workflows::JointInit::idim;
          } else if (py::isinstance<py::str>(init) && init.cast<std::string>() == "sr3") {
            o.init = workflows::JointInit::sr3;
          } else {
            o.init = workflows::JointInit::model;
            o.init_model = joint_from_python(init, "init");
            o.init_label = as_path(init).value_or("init");
          }
        }
        check_velocity_is_read(kwargs, o.prep.preprocess);
        const io::RecordSpec spec = record_spec(kwargs, "t");
        const data::Record train = as_record(training, spec, "training");
        const std::vector<data::Record> val = as_records(validation, spec, "validation");
        std::optional<data::Record> des;
        if (!desired.is_none()) {
          io::RecordSpec ds;
          ds.time = spec.time.empty() ? "t" : spec.time;
          ds.position = "position";
          ds.velocity = "velocity";
          ds.force = "torque";
          des = as_record(desired, ds, "desired");
        }
        return run_released(progress, [&](const workflows::Progress& p) {
          return workflows::fit_joint(train, val, des, o, p);
        });
      },
      py::arg("training"), py::arg("validation") = py::none(), py::kw_only(),
      py::arg("desired") = py::none(), py::arg("progress") = py::none(),
      (std::string(
           R"doc(fit_joint(training, validation=None, *, desired=None, progress=None, **options) -> FitJointOutcome

Identify a robot joint (inertia, gravity terms, offset, friction) from a trajectory
(workflows::fit_joint; the CLI's `fit-joint`; docs/joint-identification.md). Records: a Record
(t [s], position [rad], force = applied torque [N m], or current = a command with
torque_from_command), a file path read with the channel options, a DataFrame or a dict of
arrays; validation may be a list. desired: the controller's desired trajectory (closed-loop oe;
a file is read with columns position, velocity, torque).
)doc") +
       kProgressDoc + "\n" + fit_joint_table().doc())
          .c_str());
  m.def(
      "eval_joint",
      [](const py::object& model, const py::object& records, const py::object& progress,
         const py::kwargs& kwargs) {
        workflows::EvalJointOptions o;
        eval_joint_table().apply(o, kwargs);
        check_velocity_is_read(kwargs, o.prep.preprocess);
        EvalJointResult r;
        r.model = joint_from_python(model, "model");
        r.joint_file = as_path(model).value_or("model");
        const std::vector<data::Record> recs =
            as_records(records, record_spec(kwargs, "t"), "records");
        r.outcome = run_released(progress, [&](const workflows::Progress& p) {
          return workflows::eval_joint(r.model, recs, o, p);
        });
        return r;
      },
      py::arg("model"), py::arg("records"), py::kw_only(), py::arg("progress") = py::none(),
      (std::string(R"doc(eval_joint(model, records, *, progress=None, **options) -> EvalJointOutcome

The error measures of a joint model on records (workflows::eval_joint; the CLI's
`eval-joint`): model is a FitJointOutcome, a "joint" dict or a JOINT.json / joint_fit.json path.
)doc") +
       kProgressDoc + "\n" + eval_joint_table().doc())
          .c_str());
  m.def(
      "mujoco_replay_joint",
      [](const py::object& model, const py::object& records, const py::object& progress,
         const py::kwargs& kwargs) -> py::dict {
        workflows::EvalJointOptions o;
        eval_joint_table().apply(o, kwargs);
        check_velocity_is_read(kwargs, o.prep.preprocess);
        const sim::JointModel joint = joint_from_python(model, "model");
        const std::vector<data::Record> recs =
            as_records(records, record_spec(kwargs, "t"), "records");
#ifdef FRICTIONLAB_HAVE_MUJOCO
        const mujoco::JointReplay r = run_released(progress, [&](const workflows::Progress& p) {
          const workflows::EvalJointOutcome ev = workflows::eval_joint(joint, recs, o, p);
          return mujoco::replay_joint_records(joint, ev.data, o.eval.horizon_s, o.eval.max_step);
        });
        py::list per_record;
        for (const mujoco::JointReplayRecord& rec : r.records)
          per_record.append(py::dict(py::arg("file") = rec.file, py::arg("exported") = rec.exported,
                                     py::arg("inside") = rec.inside, py::arg("own") = rec.own));
        return py::dict(py::arg("mujoco_version") = r.mujoco_version,
                        py::arg("max_step") = r.max_step, py::arg("horizon_s") = r.horizon_s,
                        py::arg("exported") = r.exported, py::arg("inside") = r.inside,
                        py::arg("own") = r.own, py::arg("records") = per_record,
                        py::arg("summary") = mujoco::replay_summary(r));
#else
        (void)progress;
        throw std::runtime_error(
            "mujoco_replay_joint: this frictionlab was built without MuJoCo (Debian: "
            "libmujoco-dev; scripts/install-deps.sh installs it)");
#endif
      },
      py::arg("model"), py::arg("records"), py::kw_only(), py::arg("progress") = py::none(),
      (std::string(
           R"doc(mujoco_replay_joint(model, records, *, progress=None, **options) -> dict

A joint model's records replayed in MuJoCo (mujoco::replay_joint_records; the CLI's
`eval-joint --mujoco`): the records preprocessed as eval_joint does, each replayed in a pendulum
with the model's inertia and gravity, driven by its torque, once with the exported joint form
(`export mujoco --form joint`: frictionloss, damping) and once with frictionlab's friction inside
MuJoCo, beside frictionlab's own simulation; steps of at most max_step, restarts every
horizon_s. model as for eval_joint. Returns {"mujoco_version", "max_step", "horizon_s",
"exported", "inside", "own" (mean MAE [rad]), "records": [{"file", "exported", "inside",
"own"}], "summary"}. RuntimeError in a build without MuJoCo.
)doc") +
       kProgressDoc + "\n" + eval_joint_table().doc())
          .c_str());
}

}  // namespace frictionlab::python
