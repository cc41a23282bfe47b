// frictionlab workflows: arm identification (workflows/robot.hpp).
#include "frictionlab/workflows/robot.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/joint_data.hpp"

namespace frictionlab::workflows {

namespace {

/// The joint rule's candidate cutoff (identify::choose_joint_lowpass: 5 times the position's
/// bandwidth), the largest over the joints, and whether any joint's raw acceleration is mostly
/// noise above it.
identify::JointLowpassChoice joint_rule(const data::ArmRecord& record,
                                        const data::PreprocessOptions& pp) {
  identify::JointPrepOptions prep;
  prep.preprocess = pp;
  identify::JointLowpassChoice worst;
  for (std::size_t j = 0; j < record.q.size(); ++j) {
    data::Record one;
    one.source = record.source + " (joint '" + record.joints[j] + "')";
    one.t = record.t;
    one.position = record.q[j];
    const auto c = identify::choose_joint_lowpass(one, prep);
    if (!c) continue;
    worst.sample_rate_hz = c->sample_rate_hz;
    worst.candidate_hz = std::max(worst.candidate_hz, c->candidate_hz);
    worst.noise_dominated = worst.noise_dominated || c->noise_dominated;
  }
  return worst;
}

/// One cutoff for every joint (the relation between the joints survives only a filter they
/// share): none, and the 1-2-5 cutoffs from the joint rule's candidate up to a tenth of the
/// sample rate, each fitted; the one whose fit leaves the smallest torque error wins. A
/// position-bandwidth rule alone filters the torque's Coulomb steps and the excitation's ramps
/// away while sign(qd) keeps them sharp (docs/robot-identification.md, "Low-pass").
double scan_arm_lowpass(const robot::RobotModel& model, const data::ArmRecord& record,
                        data::PreprocessOptions pp, const identify::RobotFitOptions& fit,
                        const identify::JointLowpassChoice& rule) {
  std::vector<double> candidates{0};
  for (double decade = 1; decade <= 1e4; decade *= 10)
    for (double m : {1.0, 2.0, 5.0})
      if (m * decade >= rule.candidate_hz && m * decade <= 0.1 * rule.sample_rate_hz)
        candidates.push_back(m * decade);
  double best = 0, best_error = std::numeric_limits<double>::infinity();
  identify::RobotFitOptions plain = fit;
  plain.load = false;  // the cutoff is the filter's choice: the load-free fit, one solve each
  for (double cutoff : candidates) {
    pp.lowpass_cutoff = cutoff;
    const double e =
        identify::fit_robot(model, data::preprocess_arm(record, pp), plain).relative_error_percent;
    if (e < best_error) best = cutoff, best_error = e;
  }
  return best;
}

}  // namespace

namespace {

/// A record with joint torques: as it is, or its currents through the drive gains.
data::ArmRecord with_torques(const data::ArmRecord& r, const std::vector<double>& gains) {
  if (r.has_torque()) {
    if (!gains.empty())
      throw data::RecordError(r.source, 0, "force",
                              "the record has joint torques: drive gains apply to motor currents");
    return r;
  }
  if (gains.empty())
    throw data::RecordError(r.source, 0, "current",
                            "the record has motor currents: give the drive gains that make "
                            "them joint torques (--gains K1,...,Kn in N m/A)");
  return data::currents_to_torques(r, gains);
}

/// The preprocessing of a record with torques: derivatives from the velocity where recorded,
/// and the low-pass given or, with none given, chosen by scan_arm_lowpass.
struct ArmPreprocessing {
  data::PreprocessOptions options;
  bool lowpass_chosen = false;
  double suggested_lowpass_hz = 0;
};
ArmPreprocessing choose_preprocessing(const robot::RobotModel& model, const data::ArmRecord& record,
                                      const FitRobotOptions& options) {
  ArmPreprocessing out{options.preprocess};
  data::PreprocessOptions& pp = out.options;
  pp.derivatives =
      record.has_velocity() ? data::DerivativesFrom::velocity : data::DerivativesFrom::position;
  if (pp.lowpass_cutoff == 0) {
    const identify::JointLowpassChoice rule = joint_rule(record, pp);
    if (rule.noise_dominated) out.suggested_lowpass_hz = rule.candidate_hz;
    if (options.choose_lowpass && rule.sample_rate_hz > 0) {
      pp.lowpass_cutoff = scan_arm_lowpass(model, record, pp, options.fit, rule);
      out.lowpass_chosen = pp.lowpass_cutoff > 0;
    }
  }
  return out;
}

/// The report's series: every k-th sample of the training record (at most 3000), its torque
/// and the model's.
void keep_prediction(const data::ArmSamples& s, const std::vector<std::vector<double>>& predicted,
                     FitRobotOutcome& out) {
  const std::size_t stride = std::max<std::size_t>(1, (s.size() + 2999) / 3000);
  out.report_measured.assign(predicted.size(), {});
  out.report_predicted.assign(predicted.size(), {});
  for (std::size_t k = 0; k < s.size(); k += stride) {
    out.report_t.push_back(s.t[k]);
    for (std::size_t j = 0; j < predicted.size(); ++j) {
      out.report_measured[j].push_back(s.effort[j][k]);
      out.report_predicted[j].push_back(predicted[j][k]);
    }
  }
}

/// The consistent inertials nearest to the outcome's fit and the torque error they give.
void make_consistent(const robot::RobotModel& model, const data::ArmSamples& samples,
                     const identify::RobotFitOptions& fit, FitRobotOutcome& out) {
  out.consistent = identify::physically_consistent(model, out.result, fit);
  identify::RobotFitResult moved = out.result;
  for (std::size_t i = 0; i < moved.parameters.size(); ++i)
    moved.parameters[i].value = out.consistent->base[i];
  out.consistent_relative_error_percent =
      identify::predict_robot(model, moved, samples, fit).relative_error_percent;
}

/// The options of identify::fit_robot_friction for the workflow's.
identify::RobotFrictionOptions friction_options(const FitRobotOptions& o) {
  identify::RobotFrictionOptions f;
  f.friction.model = identify::parse_model(o.friction);
  f.fit = o.fit;
  return f;
}

/// The arm with a registry friction model per joint: the outcome's result is the rigid-body
/// stage with the whole model's error figures.
void fit_with_friction_model(const robot::RobotModel& model, const data::ArmSamples& samples,
                             const FitRobotOptions& options, FitRobotOutcome& out) {
  out.friction = identify::fit_robot_friction(model, samples, friction_options(options));
  out.friction_model = options.friction;
  out.result = out.friction->rigid;
  out.result.relative_error_percent = out.friction->relative_error_percent;
  out.result.rms_error = out.friction->rms_error;
}

}  // namespace

FitRobotOutcome fit_robot(const robot::RobotModel& model, const data::ArmRecord& raw_record,
                          const FitRobotOptions& options,
                          const std::vector<data::ArmRecord>& raw_validate) {
  const auto start = std::chrono::steady_clock::now();
  data::check_arm_record(raw_record);
  for (const auto& v : raw_validate) data::check_arm_record(v);
  if (options.friction != "linear") identify::check_model(identify::parse_model(options.friction));
  if (options.consistent && options.friction != "linear")
    throw std::invalid_argument("consistent inertials are found for linear friction only");
  if (options.fit.load && options.friction != "linear")
    throw std::invalid_argument(
        "load-dependent friction is fitted with linear friction only (the Coulomb level Fc + "
        "mu |tau|): leave out --friction, or --load-dependent");
  const data::ArmRecord record = with_torques(raw_record, options.drive_gains);
  std::vector<data::ArmRecord> validate;
  validate.reserve(raw_validate.size());
  for (const auto& v : raw_validate) validate.push_back(with_torques(v, options.drive_gains));
  FitRobotOutcome out;
  out.joints = record.joints;
  const ArmPreprocessing prep = choose_preprocessing(model, record, options);
  const data::PreprocessOptions& pp = prep.options;
  out.suggested_lowpass_hz = prep.suggested_lowpass_hz;
  out.lowpass_chosen = prep.lowpass_chosen;
  out.lowpass_hz = pp.lowpass_cutoff;
  out.preprocessing = data::describe(pp);
  const data::ArmSamples samples = data::preprocess_arm(record, pp);
  if (options.friction == "linear") {
    out.result = identify::fit_robot(model, samples, options.fit);
    keep_prediction(
        samples, identify::predict_robot(model, out.result, samples, options.fit).predicted, out);
    for (const auto& v : validate)
      out.validation.push_back(
          {v.source,
           identify::predict_robot(model, out.result, data::preprocess_arm(v, pp), options.fit)});
    if (options.consistent) make_consistent(model, samples, options.fit, out);
  } else {
    fit_with_friction_model(model, samples, options, out);
    keep_prediction(
        samples,
        identify::predict_robot_friction(model, *out.friction, samples, friction_options(options))
            .predicted,
        out);
    for (const auto& v : validate)
      out.validation.push_back({v.source, identify::predict_robot_friction(
                                              model, *out.friction, data::preprocess_arm(v, pp),
                                              friction_options(options))});
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.verdict = robot_fit_verdict(out);
  return out;
}

namespace {

/// The preprocessing of records with currents (no torque to scan cutoffs with): the low-pass
/// given, or the joint rule's candidate where a joint's acceleration is mostly noise.
data::PreprocessOptions current_preprocessing(const data::ArmRecord& record,
                                              const FitRobotOptions& options,
                                              FitRobotOutcome& out) {
  data::PreprocessOptions pp = options.preprocess;
  pp.derivatives =
      record.has_velocity() ? data::DerivativesFrom::velocity : data::DerivativesFrom::position;
  if (pp.lowpass_cutoff == 0 && options.choose_lowpass) {
    const identify::JointLowpassChoice rule = joint_rule(record, pp);
    if (rule.noise_dominated) {
      pp.lowpass_cutoff = rule.candidate_hz;
      out.lowpass_chosen = true;
    }
  }
  out.lowpass_hz = pp.lowpass_cutoff;
  out.preprocessing = data::describe(pp);
  return pp;
}

}  // namespace

FitRobotOutcome fit_robot_gains(const robot::RobotModel& model, const data::ArmRecord& unloaded,
                                const data::ArmRecord& loaded, double payload_mass,
                                const FitRobotOptions& options,
                                const std::vector<data::ArmRecord>& validate) {
  const auto start = std::chrono::steady_clock::now();
  for (const auto* r : {&unloaded, &loaded}) {
    data::check_arm_record(*r);
    if (r->has_torque())
      throw data::RecordError(r->source, 0, "current",
                              "the record has joint torques: drive gains are identified from "
                              "motor currents");
  }
  if (!options.drive_gains.empty() || options.friction != "linear" || options.fit.load)
    throw std::invalid_argument(
        "drive gains are identified with linear, load-free friction and without given gains");
  FitRobotOutcome out;
  out.joints = unloaded.joints;
  const data::PreprocessOptions pp = current_preprocessing(unloaded, options, out);
  identify::DriveGainOptions o;
  o.fit = options.fit;
  o.payload_mass = payload_mass;
  identify::DriveGainResult g = identify::fit_robot_gains(model, data::preprocess_arm(unloaded, pp),
                                                          data::preprocess_arm(loaded, pp), o);
  out.result = std::move(g.fit);
  out.drive_gains = std::move(g.gains);
  out.least_squares_gains = std::move(g.least_squares_gains);
  out.payload = std::move(g.payload);
  out.loaded_source = loaded.source;
  out.payload_mass = payload_mass;
  std::vector<double> gains;
  for (const auto& k : out.drive_gains) gains.push_back(k.value);
  const data::ArmSamples torques = data::preprocess_arm(with_torques(unloaded, gains), pp);
  keep_prediction(torques,
                  identify::predict_robot(model, out.result, torques, options.fit).predicted, out);
  for (const auto& v : validate)
    out.validation.push_back(
        {v.source,
         identify::predict_robot(model, out.result,
                                 data::preprocess_arm(with_torques(v, gains), pp), options.fit)});
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.verdict = robot_fit_verdict(out);
  return out;
}

CheckRobotRecordOutcome check_robot_record(const robot::RobotModel& model,
                                           const data::ArmRecord& raw_record,
                                           const FitRobotOptions& options) {
  data::check_arm_record(raw_record);
  const data::ArmRecord record = with_torques(raw_record, options.drive_gains);
  const ArmPreprocessing prep = choose_preprocessing(model, record, options);
  CheckRobotRecordOutcome out;
  out.joints = record.joints;
  out.lowpass_hz = prep.options.lowpass_cutoff;
  out.lowpass_chosen = prep.lowpass_chosen;
  out.preprocessing = data::describe(prep.options);
  out.check =
      identify::check_excitation(model, data::preprocess_arm(record, prep.options), options.fit);
  return out;
}

namespace {

/// The verdict's reasons of a fit with a friction model per joint: the rounds, the gain over
/// the linear friction, and each joint's fit that its own reliability rules doubt.
void friction_reasons(const FitRobotOutcome& o, Verdict& v) {
  const identify::RobotFrictionResult& f = *o.friction;
  if (!f.converged)
    v.add({Grade::doubtful, "friction",
           "the rounds of rigid body and friction did not settle in " + std::to_string(f.rounds),
           "a record with more velocity reversals, or --friction linear"});
  v.add({Grade::good, "friction",
         o.friction_model + " friction per joint: torque error " +
             format_fixed(f.relative_error_percent, 3) + " % against " +
             format_fixed(f.linear_relative_error_percent, 3) + " % with linear friction (" +
             std::to_string(f.rounds) + " rounds; standard errors conditional on the other block)",
         ""});
  for (std::size_t j = 0; j < f.friction.size(); ++j) {
    const identify::Reliability& r = f.friction[j].reliability;
    if (!r.standard_errors && !r.reasons.empty())
      v.add({Grade::doubtful, "friction",
             "joint " + o.joints[j] + "'s " + o.friction_model + " friction: " + r.reasons.front(),
             "--friction linear, or a simpler model of the registry"});
  }
}

/// The verdict's reasons of a load-dependent fit: the rounds, and the joints whose mu is held at
/// 0 because the record shows no rise (those the record does not determine are flags).
void load_reasons(const FitRobotOutcome& o, Verdict& v) {
  const identify::RobotFitResult& r = o.result;
  if (!r.load_converged)
    v.add({Grade::doubtful, "load",
           "the instrumental-variable rounds of the load coefficients did not settle in " +
               std::to_string(r.load_rounds),
           "fit without --load-dependent"});
  for (const std::string& n : r.load_notes) v.add({Grade::good, "load", n, ""});
}

/// The verdict's reasons of identified drive gains: how far least squares was from them (what
/// the noise in the currents does to it) and the gains the record hardly determines.
void gain_reasons(const FitRobotOutcome& o, Verdict& v) {
  double worst = 0;
  std::string poor;
  for (std::size_t j = 0; j < o.drive_gains.size(); ++j) {
    const auto& k = o.drive_gains[j];
    worst = std::max(worst, std::abs(o.least_squares_gains[j].value / k.value - 1));
    if (!(k.relative_std_error_percent <= 5)) poor += (poor.empty() ? "" : ", ") + k.name;
  }
  v.add({Grade::good, "gains",
         "drive gains identified with the " + format_number(o.payload_mass, 4) + " kg payload of " +
             o.loaded_source +
             " by instrumental variables (plain least squares differed by up to " +
             format_fixed(100 * worst, 1) + " %: the noise in the currents)",
         ""});
  if (!poor.empty())
    v.add({Grade::doubtful, "gains",
           "drive gains with a relative standard error above 5 %: " + poor,
           "a payload whose centre of mass is farther from the joint axes, or a longer record"});
}

}  // namespace

Verdict robot_fit_verdict(const FitRobotOutcome& o) {
  Verdict v;
  // The deciding error: the worst validation record's, else the training record's.
  double decide = o.result.relative_error_percent;
  std::string where = "training record";
  for (const auto& val : o.validation)
    if (val.prediction.relative_error_percent >= decide || where == "training record") {
      decide = val.prediction.relative_error_percent;
      where = "validation record " + val.source;
    }
  const double e = decide / 100;
  const std::string err = "torque error " + format_fixed(decide, 2) +
                          " % of the measured torque (all joints, " + where + ")";
  if (e > 0.7)
    v.add({Grade::bad, "torque", err + ": the model explains little of the torque",
           "check the joint order, signs and units of the record against the robot description"});
  else if (e > 0.35)
    v.add({Grade::doubtful, "torque", err, "check the record's units and the robot description"});
  for (const std::string& f : o.result.flags)
    v.add({Grade::doubtful, "determined", f,
           "record an excitation trajectory that moves every joint through its range with "
           "velocity reversals (frictionlab excite designs one and checks a record)"});
  if (o.lowpass_chosen)
    v.add({Grade::good, "lowpass",
           "low-pass " + format_number(o.lowpass_hz, 3) +
               " Hz on every joint, the cutoff whose fit left the smallest torque error",
           "--lowpass HZ to set it"});
  if (o.lowpass_hz == 0 && o.suggested_lowpass_hz > 0)
    v.add(
        {Grade::doubtful, "lowpass",
         "the accelerations were differentiated without a low-pass filter from a record whose "
         "acceleration is mostly noise",
         "--lowpass " + format_number(o.suggested_lowpass_hz, 3) + " (chosen from its spectrum)"});
  if (o.friction) friction_reasons(o, v);
  if (o.result.load_rounds > 0) load_reasons(o, v);
  if (!o.drive_gains.empty()) gain_reasons(o, v);
  if (o.consistent)
    v.add({Grade::good, "consistent",
           "physically consistent inertials: " + format_number(o.consistent->distance, 3) +
               " standard errors from the fit, torque error " +
               format_fixed(o.consistent_relative_error_percent, 3) + " % (the fit's " +
               format_fixed(o.result.relative_error_percent, 3) + " %)" +
               (o.consistent->undetermined.empty()
                    ? std::string()
                    : "; " + std::to_string(o.consistent->undetermined.size()) +
                          " standard parameters enter no base parameter (e.g. " +
                          o.consistent->undetermined.front() +
                          "): their values come from the prior, not the record"),
           ""});
  v.add(
      {Grade::good, "validation", "no validation record: the error is the training record's", ""});
  return v;
}

}  // namespace frictionlab::workflows
