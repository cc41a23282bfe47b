// frictionlab workflows: verdicts on results (include/frictionlab/workflows/verdict.hpp).
#include "frictionlab/workflows/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/joint_parameters.hpp"
#include "frictionlab/workflows/joint.hpp"

namespace frictionlab::workflows {
namespace {

// The joint rules' thresholds (header).
constexpr double kTorqueBad = 0.7;         // torque ||e||/||y|| [-]
constexpr double kTorqueDoubtful = 0.45;   // [-]
constexpr double kLeaves = 1.0;            // position ||e||/||y|| [-]
constexpr double kPositionDoubtful = 0.3;  // [-]
constexpr double kGeneraliseRatio = 2.0;   // validation / training torque error [-]
constexpr double kGeneraliseFloor = 0.3;   // [-]

std::string num(double x) { return format_display(x, 3); }

std::string label(const identify::JointEvaluation& e) {
  return e.source.empty() ? std::string("the record") : e.source;
}

/// torque: the inverse model's torque error on the records that decide.
void torque_rule(Verdict& v, const std::vector<const identify::JointEvaluation*>& deciding) {
  for (const auto* e : deciding) {
    const double r = e->torque.rel;
    if (std::isfinite(r) && r <= kTorqueDoubtful) continue;
    v.add(
        {!std::isfinite(r) || r > kTorqueBad ? Grade::bad : Grade::doubtful, "torque",
         "the model explains little of the torque on " + label(*e) + ": ||e||/||tau|| = " + num(r),
         "check the joint's structure (--no-gravity, --no-offset), the torque channel and its "
         "sign, and the low-pass of the derivatives (--lowpass HZ)"});
  }
}

/// leaves / position: the simulation from the applied torque against the measured motion.
void position_rule(Verdict& v, const std::vector<const identify::JointEvaluation*>& records) {
  for (const auto* e : records) {
    const double r = e->position.rel;
    if (std::isfinite(r) && r <= kPositionDoubtful) continue;
    if (!std::isfinite(r) || r > kLeaves) {
      const bool torque_fails = !(e->torque.rel <= kTorqueDoubtful);
      const std::string found = "the simulation from the applied torque leaves " + label(*e) +
                                " (position ||e||/||q|| = " + num(r) + ")";
      if (torque_fails)
        v.add({Grade::bad, "leaves", found + " and the model does not explain its torque",
               "see the torque error"});
      else
        v.add({Grade::doubtful, "leaves",
               found + " although the model explains its torque (||e||/||tau|| = " +
                   num(e->torque.rel) +
                   "): an open-loop simulation of a gravity-compensated or "
                   "unstable motion drifts",
               "judge the prediction with --horizon S (restart from the measured state every S "
               "seconds)"});
    } else {
      v.add({Grade::doubtful, "leaves",
             "the simulated motion follows " + label(*e) +
                 " only roughly: position ||e||/||q|| = " + num(r),
             "compare the prediction plot; --horizon S for an S-seconds-ahead prediction"});
    }
  }
}

/// generalises: validation torque errors against the training one.
void generalise_rule(Verdict& v, const identify::JointEvaluation& train,
                     const std::vector<identify::JointEvaluation>& validation) {
  for (const auto& e : validation)
    if (e.torque.rel > kGeneraliseFloor && e.torque.rel > kGeneraliseRatio * train.torque.rel)
      v.add({Grade::doubtful, "generalises",
             "the torque error on " + label(e) + " (" + num(e.torque.rel) + ") is more than " +
                 num(kGeneraliseRatio) + " times the training record's (" + num(train.torque.rel) +
                 ")",
             "the model fits the training record's peculiarities: a longer or richer training "
             "record, or fewer terms"});
}

/// physical / determined: the estimates against the signs the joint model needs.
void parameter_rules(Verdict& v, const FitJointOutcome& s) {
  static const std::set<std::string> strictly{"I", "sigma0", "sigma1", "Fc", "Omega_s"};
  std::set<std::string> positive;
  for (const auto& p : identify::joint_parameters(s.model))
    if (p.positive) positive.insert(p.name);
  for (const auto& p : s.parameters) {
    if (!positive.contains(p.name) || p.fixed) continue;
    const bool strict = strictly.contains(p.name);
    if (strict ? !(p.value > 0) : !(p.value >= 0)) {
      v.add({Grade::bad, "physical",
             p.name + " = " + num(p.value) + " " + p.unit +
                 (strict ? ": must be > 0" : ": must be >= 0"),
             "a richer record (more motion, both directions) or another method"});
    } else if (std::isfinite(p.ci_low) && p.ci_low <= 0 && std::isfinite(p.std_error)) {
      v.add({Grade::doubtful, "determined",
             p.name + " is not determined by the record: its 95 % interval [" + num(p.ci_low) +
                 ", " + num(p.ci_high) + "] " + p.unit + " reaches 0",
             "a record with more motion at the velocities where this term acts"});
    }
  }
}

/// bound / determined: what the method found the record does not determine (FitJointOutcome::
/// flags): a coefficient on its bound 0 is a note, the others doubtful.
void flag_rules(Verdict& v, const std::vector<identify::IdentifiabilityFlag>& flags) {
  for (const auto& f : flags) {
    const bool presliding = f.parameter == "sigma0" || f.parameter == "sigma1";
    const bool temperature = f.parameter == "kT" || f.parameter == "kT_v";
    const std::string excite =
        presliding    ? "record motion with slow reversals to excite the presliding regime"
        : temperature ? "records over a wider temperature range (from a cold start until warm)"
        : f.parameter == "mu"
            ? "records with driven and back-driven motion under loads of different size"
            : "a record with more motion where this term acts";
    if (f.kind == "bound")
      v.add({Grade::good, "bound", f.message, ""});
    else if (f.kind == "limit")
      v.add({Grade::doubtful, "bound", f.message,
             "--sigma0-init with values beyond that edge, or " + excite});
    else if (f.kind == "condition")
      v.add({Grade::doubtful, "determined", f.message,
             "fewer terms (--no-offset, --no-gravity) or a record with more motion"});
    else
      v.add({Grade::doubtful, "determined", f.message, excite});
  }
}

/// oe: a refinement that did not improve on its start, which is kept.
void oe_rule(Verdict& v, const JointOeRun& run) {
  if (!run.kept_start) return;
  v.add({Grade::good, "oe",
         "oe did not improve on its start (" + run.init +
             "): the training position / velocity errors ||e||/||y|| went from " +
             num(run.start_position_rel) + " / " + num(run.start_velocity_rel) + " to " +
             num(run.refined_position_rel) + " / " + num(run.refined_velocity_rel) +
             " (open-loop simulation); the start model is kept and reported",
         "--segment 0 (oe then fits the whole record's open-loop simulation, which judges it), "
         "or a record with more motion"});
}

/// simulation: Newton iterations of the validation simulation that did not converge.
void simulation_rule(Verdict& v, const std::vector<const identify::JointEvaluation*>& records) {
  for (const auto* e : records)
    if (e->unconverged_stages > 0)
      v.add({Grade::doubtful, "simulation",
             std::to_string(e->unconverged_stages) + " TR-BDF2 stages of the simulation of " +
                 label(*e) + " ended without a converged Newton iteration",
             "a smaller simulation step (--max-step)"});
}

/// lowpass: the note of the low-pass choice made for the user.
void lowpass_note(Verdict& v, const identify::JointLowpassChoice& c) {
  const std::string from = c.source.empty() ? std::string("the record") : c.source;
  const std::string band =
      "99.9 % of the position's power lies below " + num(c.bandwidth_hz) + " Hz";
  const std::string share = num(100 * c.noise_share) +
                            " % of the raw acceleration's power lies above " + num(c.candidate_hz) +
                            " Hz";
  std::string text;
  if (c.cutoff_hz > 0)
    text = "the derivatives were low-passed at " + num(c.cutoff_hz) + " Hz, chosen from " + from +
           " (" + band + "; " + share + ": noise)";
  else if (!c.noise_dominated)
    text = "no low-pass: the acceleration of " + from + " is not noise-dominated (" + share + ")";
  else
    text = "no low-pass: the motion of " + from + " fills the band (" + band + ")";
  v.add({Grade::good, "lowpass", text, "--lowpass HZ to set it, --lowpass 0 for none"});
}

std::vector<const identify::JointEvaluation*> all_of(
    const std::vector<identify::JointEvaluation>& es) {
  std::vector<const identify::JointEvaluation*> out;
  out.reserve(es.size());
  for (const auto& e : es) out.push_back(&e);
  return out;
}

}  // namespace

std::string grade_name(Grade g) { return std::string(name_of(kGradeNames, g, "?")); }

void Verdict::add(VerdictReason r) {
  grade = std::max(grade, r.grade);
  const auto at = std::find_if(reasons.begin(), reasons.end(),
                               [&](const VerdictReason& x) { return x.grade < r.grade; });
  reasons.insert(at, std::move(r));
}

std::string Verdict::line() const {
  std::string s = grade_name(grade);
  Grade shown = grade;
  bool first = true;
  for (const auto& r : reasons) {
    if (r.grade == Grade::good) continue;
    if (first) {
      s += ": ";
      first = false;
    } else if (r.grade != shown) {
      s += "; " + grade_name(r.grade) + ": ";
      shown = r.grade;
    } else {
      s += "; ";
    }
    s += r.text + (r.hint.empty() ? "" : " (try: " + r.hint + ")");
  }
  return s;
}

Verdict joint_fit_verdict(const FitJointOutcome& s) {
  Verdict v;
  std::vector<const identify::JointEvaluation*> records{&s.training};
  for (const auto& e : s.validation) records.push_back(&e);
  torque_rule(v, s.validation.empty() ? records : all_of(s.validation));
  position_rule(v, records);
  generalise_rule(v, s.training, s.validation);
  parameter_rules(v, s);
  flag_rules(v, s.flags);
  if (s.oe) oe_rule(v, *s.oe);
  simulation_rule(v, records);
  if (s.lowpass) lowpass_note(v, *s.lowpass);
  return v;
}

Verdict joint_eval_verdict(const EvalJointOutcome& s) {
  Verdict v;
  const auto records = all_of(s.evaluations);
  torque_rule(v, records);
  position_rule(v, records);
  simulation_rule(v, records);
  for (const auto& c : s.lowpass)
    if (c) lowpass_note(v, *c);
  return v;
}

}  // namespace frictionlab::workflows
