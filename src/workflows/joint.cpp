// frictionlab workflows: fit_joint and eval_joint (include/frictionlab/workflows/joint.hpp).
#include "frictionlab/workflows/joint.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/joint_parameters.hpp"
#include "frictionlab/workflows/validate.hpp"

namespace frictionlab::workflows {
namespace {

JointSteadyCurve steady_curve(const sim::JointModel& m, const identify::JointData& d) {
  double lo = 0, hi = 0;
  for (double x : d.qd) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  constexpr int n = 401;
  JointSteadyCurve c;
  for (int i = 0; i < n; ++i) {
    const double x = lo + (hi - lo) * i / (n - 1);
    c.qd.push_back(x);
    c.friction.push_back(identify::steady_friction(m, x));
  }
  return c;
}

/// The controller of a closed-loop oe: fitted on the training record or as given, with the
/// share of the training torque it explains.
JointControllerReport controller_of(const FitJointOptions& o, const identify::JointData& train) {
  JointControllerReport c;
  c.source = o.controller_label;
  if (o.fit_controller) {
    const auto cf = identify::fit_joint_controller(train);
    c.controller = cf.controller;
    c.torque_rel_error = cf.rel_error;
  } else {
    c.controller = o.oe.controller;
    c.torque_rel_error =
        identify::channel_error(train.tau, identify::controller_torque(c.controller, train)).rel;
  }
  return c;
}

/// `prep` with the low-pass chosen from `rec` where none is given (identify::choose_joint_lowpass).
identify::JointPrepOptions with_lowpass(const identify::JointPrepOptions& prep,
                                        const data::Record& rec,
                                        std::optional<identify::JointLowpassChoice>& choice) {
  identify::JointPrepOptions p = prep;
  choice = identify::choose_joint_lowpass(rec, prep);
  if (choice) p.preprocess.lowpass_cutoff = choice->cutoff_hz;
  return p;
}

/// The sampling warnings of a record as read (data::check_record: time unit, jitter), appended
/// to `out` once each. Called after identify::joint_data accepted the record: a check that
/// refuses it here (e.g. a non-finite value in a channel the joint does not use) adds nothing.
void append_record_warnings(const data::Record& rec, const identify::JointPrepOptions& prep,
                            std::vector<std::string>& out) {
  data::CheckOptions co;
  co.min_samples = 2;
  co = data::checks_before_preprocessing(co, prep.preprocess);
  try {
    for (std::string& w : data::check_record(rec, co).warnings)
      if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
  } catch (const data::RecordError&) {
  }
}

}  // namespace

std::string joint_method_name(JointMethod m) {
  return std::string(name_of(kJointMethodNames, m, "?"));
}

JointMethod parse_joint_method(std::string_view name) {
  if (const auto m = parse_name(kJointMethodNames, name)) return *m;
  throw std::invalid_argument("the joint method must be " +
                              known_names(kJointMethodNames, ", ", " or ") + ", got '" +
                              std::string(name) + "'");
}

namespace {

/// The records as the fit sees them (preprocessed, the low-pass chosen where needed) and every
/// record's sampling warnings.
void prepare_joint_data(const data::Record& training, const std::vector<data::Record>& validation,
                        const std::optional<data::Record>& desired, const FitJointOptions& o,
                        const Progress& progress, FitJointOutcome& s) {
  s.input = training.source;
  const identify::JointPrepOptions prep = with_lowpass(o.prep, training, s.lowpass);
  progress.say("preprocessing: " + data::describe(prep.preprocess));
  s.training_data = identify::joint_data(training, prep);
  if (desired) identify::attach_desired(s.training_data, *desired, prep);
  for (const auto& rec : validation) {
    progress.check();
    s.validation_data.push_back(identify::joint_data(rec, prep));
  }
  progress.check();
  s.warnings = o.input_warnings;
  append_record_warnings(training, o.prep, s.warnings);
  for (const auto& rec : validation) append_record_warnings(rec, o.prep, s.warnings);
}

/// The start (idim or sr3, or the model given) and, for idim and sr3, the result.
void start_model(const FitJointOptions& o, std::span<const identify::JointData> train_span,
                 const Progress& progress, FitJointOutcome& s) {
  const bool oe = o.method == JointMethod::oe;
  if (o.method == JointMethod::idim || (oe && o.init == JointInit::idim)) {
    identify::JointIdimOptions io = o.idim;
    io.structure = o.structure;
    s.idim = identify::fit_joint_idim(train_span, io);
    s.model = s.idim->model;
    s.parameters = s.idim->parameters;
    s.reliability = s.idim->reliability;
    s.flags = s.idim->flags;
    s.warnings.insert(s.warnings.end(), s.idim->warnings.begin(), s.idim->warnings.end());
  } else if (o.method == JointMethod::sr3 || (oe && o.init == JointInit::sr3)) {
    identify::JointSr3Options so = o.sr3;
    so.structure = o.structure;
    s.sr3 = identify::fit_joint_sr3(train_span, s.validation_data, so);
    s.model = s.sr3->model;
    s.parameters = s.sr3->parameters;
    s.flags = s.sr3->flags;
    s.warnings.insert(s.warnings.end(), s.sr3->warnings.begin(), s.sr3->warnings.end());
    // The scan's candidates that cannot be chosen (joint_fit.json's "scan" marks each): a
    // detail of the search, not of the result.
    const auto inadmissible = std::count_if(s.sr3->scan.begin(), s.sr3->scan.end(),
                                            [](const auto& row) { return !row.admissible; });
    if (inadmissible > 0)
      progress.say("sr3: " + std::to_string(inadmissible) + " of " +
                   std::to_string(s.sr3->scan.size()) +
                   " lambda values gave an inadmissible "
                   "static model (g <= 0 somewhere) and were not selectable");
  } else {
    s.model = o.init_model;
  }
  progress.check();
}

/// oe's start: the model, with the dependences FitJointOptions::idim asks for and the start
/// lacks (from sr3 or a JOINT.json): a temperature law with kT = kT_v = 0 at T_ref, the option's
/// or the mean temperature of the training records' moving samples (idim's rule); a load
/// dependence with mu = 0. oe estimates them with the rest.
identify::JointModel with_dependences(const FitJointOptions& o,
                                      std::span<const identify::JointData> train_span,
                                      const identify::JointModel& start) {
  identify::JointModel out = start;
  if (o.idim.temperature_law && !start.temperature)
    out.temperature = TemperatureDependence<double>{
        *o.idim.temperature_law,
        o.idim.temperature_ref.value_or(
            identify::moving_temperatures(train_span, o.idim.v_deadband).mean),
        0.0, 0.0};
  if (o.idim.load_dependent && !start.load) out.load = LoadDependence<double>{};
  return out;
}

/// The output-error refinement of the start; the evaluation of the model it keeps on the
/// training record when it made one.
std::optional<identify::JointEvaluation> refine_oe(const FitJointOptions& o,
                                                   std::span<const identify::JointData> train_span,
                                                   const Progress& progress, FitJointOutcome& s) {
  const identify::JointData& train = train_span.front();
  std::optional<identify::JointEvaluation> kept_eval;  // of s.model, when oe already has it
  {
    JointOeRun run;
    run.init = o.init == JointInit::idim  ? std::string("idim")
               : o.init == JointInit::sr3 ? std::string("sr3")
                                          : o.init_label;
    run.closed_loop = o.oe.closed_loop;
    identify::JointOeOptions oo = o.oe;
    oo.progress = progress;
    if (o.oe.closed_loop) {
      run.controller = controller_of(o, train);
      oo.controller = run.controller->controller;
      const auto& c = run.controller->controller;
      progress.say("controller (" + run.controller->source + "): kp " + format_display(c.kp) +
                   " N m/rad, kd " + format_display(c.kd) + " N m s/rad, kff " +
                   format_display(c.kff) + ", bias " + format_display(c.bias) +
                   " N m; it explains the training torque to ||e||/||tau|| = " +
                   format_display(run.controller->torque_rel_error));
    }
    run.start_torque_rel_error =
        identify::channel_error(train.tau, identify::inverse_torque(s.model, train)).rel;
    progress.check();
    run.result = identify::fit_joint_oe(train_span, with_dependences(o, train_span, s.model), oo);
    s.warnings.insert(s.warnings.end(), run.result.warnings.begin(), run.result.warnings.end());
    // A refinement never returns worse than its start: open loop, the refined model must
    // simulate the channels oe fits at least as well as the start does on the training record
    // (sum of the squared relative errors); else the start is kept.
    if (!o.oe.closed_loop) {
      const identify::JointEvaluation start = identify::evaluate_joint(s.model, train, o.eval);
      const identify::JointEvaluation refined =
          identify::evaluate_joint(run.result.model, train, o.eval);
      const auto score = [&](const identify::JointEvaluation& e) {
        const auto out = o.oe.output;
        double v = 0;
        if (out != identify::JointOeOptions::Output::velocity) v += e.position.rel * e.position.rel;
        if (out != identify::JointOeOptions::Output::position) v += e.velocity.rel * e.velocity.rel;
        return std::isfinite(v) ? v : std::numeric_limits<double>::infinity();
      };
      run.start_score = score(start);
      run.refined_score = score(refined);
      run.start_position_rel = start.position.rel;
      run.start_velocity_rel = start.velocity.rel;
      run.refined_position_rel = refined.position.rel;
      run.refined_velocity_rel = refined.velocity.rel;
      kept_eval = run.refined_score <= run.start_score ? refined : start;  // the kept model's
      run.kept_start = !(run.refined_score <= run.start_score);
    }
    if (!run.kept_start) {
      s.model = run.result.model;
      s.parameters = run.result.parameters;
      s.reliability = run.result.reliability;
      s.flags = run.result.flags;
    } else if (s.parameters.empty()) {
      // A start read from a file has no estimates: its values, without standard errors.
      for (const auto& jp : identify::joint_parameters(s.model)) {
        identify::ParameterEstimate e;
        e.name = e.field = jp.name;
        e.unit = jp.unit;
        e.value = jp.value;
        e.std_error = e.ci_low = e.ci_high = std::numeric_limits<double>::quiet_NaN();
        s.parameters.push_back(e);
      }
    }
    s.oe = std::move(run);
    progress.check();
  }

  return kept_eval;
}

/// The kept model on every record, its static and steady curves, and the verdict.
void evaluate_kept_model(const FitJointOptions& o, const identify::JointData& train,
                         const std::optional<identify::JointEvaluation>& kept_eval,
                         const Progress& progress, FitJointOutcome& s) {
  s.training = kept_eval ? *kept_eval : identify::evaluate_joint(s.model, train, o.eval);
  // The output error fits the simulated motion; on a record whose motion the open-loop model
  // cannot follow (e.g. a joint under a position controller) it can buy that fit with a
  // friction that no longer explains the torque: say so.
  if (s.oe && s.training.torque.rel > 1.5 * s.oe->start_torque_rel_error)
    s.warnings.push_back("oe raised the training torque error ||e||/||tau|| from " +
                         format_display(s.oe->start_torque_rel_error) + " (" + s.oe->init +
                         ") to " + format_display(s.training.torque.rel) +
                         ": the refined model fits the simulated motion at the expense of the "
                         "torque; compare both on the validation records");
  for (const auto& d : s.validation_data) {
    progress.check();
    s.validation.push_back(identify::evaluate_joint(s.model, d, o.eval));
  }
  s.static_curve = identify::static_curve_check(s.model, train);
  s.steady_curve = steady_curve(s.model, train);
  s.verdict = joint_fit_verdict(s);
}

}  // namespace

FitJointOutcome fit_joint(const data::Record& training, const std::vector<data::Record>& validation,
                          const std::optional<data::Record>& desired, const FitJointOptions& o,
                          const Progress& progress) {
  validate(o);
  const auto t0 = std::chrono::steady_clock::now();
  const bool oe = o.method == JointMethod::oe;
  if (oe && o.init == JointInit::none)
    throw std::invalid_argument("oe needs a start: init idim, sr3 or a model");
  if (oe && o.oe.closed_loop && !desired)
    throw std::invalid_argument(
        "closed-loop oe needs the desired record (the controller's "
        "desired trajectory and feedforward torque)");
  progress.check();
  FitJointOutcome s;
  s.method = o.method;
  prepare_joint_data(training, validation, desired, o, progress, s);
  const identify::JointData& train = s.training_data;
  const std::span<const identify::JointData> train_span(&train, 1);

  start_model(o, train_span, progress, s);
  std::optional<identify::JointEvaluation> kept_eval;  // of s.model, when oe already has it
  if (oe) kept_eval = refine_oe(o, train_span, progress, s);
  evaluate_kept_model(o, train, kept_eval, progress, s);
  s.run_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

EvalJointOutcome eval_joint(const sim::JointModel& model, const std::vector<data::Record>& records,
                            const EvalJointOptions& o, const Progress& progress) {
  validate(o);
  EvalJointOutcome r;
  r.warnings = o.input_warnings;
  for (const auto& rec : records) {
    progress.check();
    r.lowpass.emplace_back();
    r.data.push_back(identify::joint_data(rec, with_lowpass(o.prep, rec, r.lowpass.back())));
    append_record_warnings(rec, o.prep, r.warnings);
    r.evaluations.push_back(identify::evaluate_joint(model, r.data.back(), o.eval));
  }
  r.verdict = joint_eval_verdict(r);
  return r;
}

}  // namespace frictionlab::workflows
