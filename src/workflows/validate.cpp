#include "frictionlab/workflows/validate.hpp"

#include <climits>
#include <cmath>
#include <vector>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/format.hpp"

namespace frictionlab::workflows {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

OptionRule integer_rule(std::string_view name, double lo, double hi = kInf, double unset = kNone) {
  return {name, true, lo, false, hi, unset};
}
OptionRule real_rule(std::string_view name, double lo, bool lo_open, double unset = kNone) {
  return {name, false, lo, lo_open, kInf, unset};
}

/// The rules, one per option name (a name means the same thing in every workflow that has it).
/// Units and meanings: the structs' members (identify/options.hpp, data/preprocess.hpp,
/// workflows/actuator.hpp, identify/joint_*.hpp).
const std::vector<OptionRule>& rules() {
  static const std::vector<OptionRule> r{
      // identify::FitOptions and LsqOptions (fit, compare)
      real_rule("warmup_s", 0, false),
      integer_rule("starts", 1, kInf, 0),  // 0: the model's number (automatic)
      real_rule("spread", 1, false),
      integer_rule("max_iterations", 1),    // also JointOeOptions::max_iterations
      real_rule("loss_scale", 0, true, 0),  // 0: from the residuals
      integer_rule("threads", 1, kInf, 0),  // 0: every core (also fit_actuator)
      // data::PreprocessOptions (fit, compare, fit_joint, eval_joint)
      real_rule("resample_rate", 0, true, 0),   // 0: keep the samples
      real_rule("lowpass_cutoff", 0, true, 0),  // 0: no low-pass
      integer_rule("decimate", 1),
      real_rule("trim_s", 0, false),
      real_rule("diff_window_s", 0, true, 0),   // 0: the differentiator's window in samples
      real_rule("tv_force_alpha", 0, true, 0),  // 0: no TV de-noising of the force
      // SimulateModelOptions
      real_rule("max_substep", 0, true, 0),  // 0: one step per sample
      // fit_joint, eval_joint
      real_rule("max_step", 0, true),
      real_rule("horizon_s", 0, false),
      real_rule("segment_s", 0, false),
      real_rule("v_deadband", 0, false),
      real_rule("temperature_ref", data::kAbsoluteZero, false),  // [degC]
      real_rule("K", 0, false),
      integer_rule("n_viscous", 0, 8),
      integer_rule("aic_observations", 0),
      // FitActuatorOptions
      integer_rule("trials", 1),
      integer_rule("evaluations", 1),  // ActuatorCheckOptions
      real_rule("time_budget", 0, false),
      integer_rule("restarts", 0),
      real_rule("sigma0", 0, true),
      real_rule("velocity_weight", 0, false),
      real_rule("tolerance", 0, false),
  };
  return r;
}

std::string number_text(double x) { return std::isnan(x) ? "nan" : format_exact(x); }

bool within(const OptionRule& r, double x) {
  if (!std::isfinite(x)) return false;
  if (r.integer && (x != std::floor(x) || x < INT_MIN || x > INT_MAX)) return false;
  return (r.lo_open ? x > r.lo : x >= r.lo) && x <= r.hi;
}

/// validate's check of one field: its unset value, or within the rule.
void check_field(std::string_view name, double value) {
  const OptionRule& r = option_rule(name);
  if (!std::isnan(r.unset) && value == r.unset) return;
  if (!within(r, value)) throw OptionError(r, value);
}

void validate_preprocess(const data::PreprocessOptions& p) {
  check_field("resample_rate", p.resample_rate);
  check_field("lowpass_cutoff", p.lowpass_cutoff);
  check_field("decimate", p.decimate);
  check_field("trim_s", p.trim_s);
  check_field("diff_window_s", p.diff_window_s);
  check_field("tv_force_alpha", p.tv_force_alpha);
}

void validate_fit_part(const identify::FitOptions& f, const data::PreprocessOptions& p) {
  check_field("warmup_s", f.warmup_s);
  check_field("starts", f.lsq.starts);
  check_field("spread", f.lsq.spread);
  check_field("max_iterations", f.lsq.max_iterations);
  check_field("loss_scale", f.lsq.loss_scale);
  check_field("threads", f.lsq.threads);
  validate_preprocess(p);
}

void validate_joint_eval(const identify::JointEvalOptions& e) {
  check_field("max_step", e.max_step);
  check_field("horizon_s", e.horizon_s);
}

}  // namespace

const OptionRule* find_option_rule(std::string_view name) {
  for (const auto& r : rules())
    if (r.name == name) return &r;
  return nullptr;
}

const OptionRule& option_rule(std::string_view name) {
  if (const OptionRule* r = find_option_rule(name)) return *r;
  throw std::logic_error("no range for the option '" + std::string(name) + "'");
}

std::string describe(const OptionRule& r) {
  const std::string what = r.integer ? "an integer" : "a number";
  if (std::isinf(r.hi)) return what + (r.lo_open ? " > " : " >= ") + format_exact(r.lo);
  return what + " between " + format_exact(r.lo) + " and " + format_exact(r.hi);
}

OptionError::OptionError(const OptionRule& rule, double value)
    : std::invalid_argument(std::string(rule.name) + "=" + number_text(value) + ": must be " +
                            describe(rule)),
      option_(rule.name) {}

void check_option(std::string_view name, double value) {
  const OptionRule& r = option_rule(name);
  if (!within(r, value)) throw OptionError(r, value);
}

void validate(const FitOptions& o) { validate_fit_part(o.fit, o.preprocess); }

void validate(const CompareOptions& o) { validate_fit_part(o.fit, o.preprocess); }

void validate(const SimulateModelOptions& o) { check_field("max_substep", o.max_substep); }

void validate(const FitJointOptions& o) {
  validate_preprocess(o.prep.preprocess);
  check_field("v_deadband", o.idim.v_deadband);
  check_field("K", o.sr3.K);
  check_field("n_viscous", o.sr3.n_viscous);
  check_field("aic_observations", o.sr3.aic_observations);
  check_field("segment_s", o.oe.segment_s);
  check_field("max_iterations", o.oe.max_iterations);
  validate_joint_eval(o.eval);
  if (o.idim.load_dependent &&
      (o.method == JointMethod::sr3 || (o.method == JointMethod::oe && o.init == JointInit::none)))
    throw std::invalid_argument(
        "load_dependent: the load-dependent Coulomb level is fitted by idim (static friction) or "
        "by oe started from idim or sr3 (LuGre); sr3 alone selects the LuGre model without a "
        "load term: add --method oe --init sr3");
  if (o.idim.temperature_law &&
      (o.method == JointMethod::sr3 || (o.method == JointMethod::oe && o.init == JointInit::none)))
    throw std::invalid_argument(
        "temperature_law: temperature-dependent friction is fitted by idim (static friction) or "
        "by oe started from idim or sr3 (LuGre); sr3 alone selects the LuGre model at one "
        "temperature: add --method oe --init sr3");
  if (o.idim.temperature_ref && !o.idim.temperature_law)
    throw std::invalid_argument("temperature_ref: needs temperature_law");
  if (o.idim.temperature_ref) check_field("temperature_ref", *o.idim.temperature_ref);
  if (o.idim.load_dependent && o.idim.temperature_law)
    throw std::invalid_argument(
        "temperature_law: load-dependent and temperature-dependent friction are not fitted "
        "together: fit one dependence at a time");
}

void validate(const EvalJointOptions& o) {
  validate_preprocess(o.prep.preprocess);
  validate_joint_eval(o.eval);
}

void validate(const FitActuatorOptions& o) {
  check_field("trials", static_cast<double>(o.trials));
  check_field("time_budget", o.time_budget);
  check_field("threads", o.threads);
  check_field("restarts", o.restarts);
  check_field("sigma0", o.sigma0);
  check_field("velocity_weight", o.velocity_weight);
  check_field("tolerance", o.tolerance);
}

void validate(const ActuatorCheckOptions& o) {
  check_field("evaluations", static_cast<double>(o.evaluations));
  check_field("threads", o.threads);
}

}  // namespace frictionlab::workflows
