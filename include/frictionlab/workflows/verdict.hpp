// frictionlab workflows: the verdict on a result: good, doubtful or bad, with the reasons and
// what to try (docs/verdicts.md). The rules read an outcome only; they
// compute nothing new and never change the result.
//
// A verdict's grade is its worst reason's; a result with no reason is good. Reasons of grade
// good are notes (e.g. a low-pass chosen for the user) that say how the result was made.
//
// Joint rules, on the training record and every validation record (fit_joint), or on every
// record (eval_joint); e = ||measured - predicted|| / ||measured|| of a channel:
//   torque       the inverse model's torque error: e > 0.7 bad (the model explains little of the
//                torque), e > 0.45 doubtful; on a fit with validation records the validation
//                records decide (the training record's error is what the fit minimised);
//   leaves       the simulation from the applied torque: position e > 1 (the simulated motion
//                leaves the record): bad where the torque rule also fails, else doubtful (the
//                model explains the torque but an open-loop simulation drifts: a neutral or
//                unstable record); e > 0.3 doubtful;
//   generalises  validation torque error > 2 x the training one and > 0.3: doubtful;
//   physical     a parameter the model needs positive (I, sigma0, sigma1, Fc, Omega_s) <= 0, or
//                one it needs non-negative (Fv, Fc_pos, Fc_neg) < 0: bad;
//   determined   a positive parameter whose 95 % interval reaches 0 or below: doubtful;
//   bound        (fit_joint) a friction coefficient the method held at its bound 0 (idim): a
//                note; sigma0 at the edge of sr3's extended start grid: doubtful;
//   determined   (fit_joint) sigma0 not determined (sr3: the training error flat over the
//                starts), a parameter without effect on the simulated output or J^T J singular
//                (oe): doubtful;
//   oe           oe did not improve on its start, which is kept: a note;
//   simulation   TR-BDF2 stages whose Newton iteration did not converge: doubtful;
//   lowpass      a low-pass chosen from the record (identify::choose_joint_lowpass): a note.
//
// Actuator rules (fit_actuator: the recommended model; eval_actuator: the set with the lowest
// mean); e = position MAE / range of motion of a log (max - min of its measured position), so
// that an error is judged against the motion it is an error of:
//   error        e of the deciding logs (the validation logs when there are any, else all),
//                from the pooled MAE over the mean range: e > 0.25 bad (the model does not
//                reproduce the motion), e > 0.1 doubtful; a log with e > 0.35: doubtful (that
//                log is not reproduced);
//   generalises  validation MAE > 1.5 x the training MAE and e(validation) > 0.05: doubtful;
//   bounds       a parameter of the recommended model at an end of its search range: doubtful
//                (the logs do not determine it, or the range or the description is wrong);
//   failed       a model whose fit failed or whose error is not finite: doubtful; no model
//                (no set) with a finite error: bad;
//   margin       other models whose ranking error is within 2 % of the recommended model's
//                (the logs do not separate them), else a richer model with a lower error that
//                the tolerance passed over; a set within 2 % of the lowest mean: a note;
//   actuator     the description chosen for the user from the logged supply: a note;
//   temperature  (fit with a temperature law) the training logs' temperature spread below 3 K:
//                doubtful (kT held at 0, what to record); the recommended model's law against
//                its plain model: a note with both errors; the temperature correlated with kp
//                (|r| >= 0.8): doubtful when the recommended model has the law, else a note.
// Fit rules (fit, and the recommended model of a compare), with e = RMSE / RMS of the measured
// channel (identify::Metrics::rms; force, or joint torque for the sensorless problem):
//   error        e on the validation records (the training record without any): e > 0.7 bad
//                (the model explains little of the signal), e > 0.35 doubtful;
//   generalises  a validation e > 2 x the training e and > 0.2: doubtful;
//   validation   no validation record, or one that is the training record (same file or same
//                samples; fit): a note (the error is the one the fit minimised);
//   whiteness    coloured residuals (Ljung-Box p < 0.01 and lag-1 autocorrelation > 0.5 or HAC /
//                white-noise standard error > 2; not at rounding level, e > 1e-6): a note (the
//                HAC standard errors apply);
//   outliers     residuals beyond 10 robust standard deviations (identify's reliability): doubtful;
//   bound        a parameter at the edge of its search region: doubtful; on its bound 0: a note;
//   determined   identifiability flags other than bounds (per parameter, or of the fit): doubtful;
//   solver       the solver stopped without convergence: doubtful;
//   nested       the best optimum reached from the optimum of the model this one contains
//                (FitResult::nested_model): a note;
//   passive      a fitted LuGre set that is not passive: a note.
// Comparison rules: no model with a finite ranking error: bad (`best`); else the fit rules on the
// recommended model (rows[0]), its name before each reason, then
//   ranking      another model's criterion (AICc or BIC) within 2 of the recommended one's:
//                doubtful (the record does not tell them apart); the criterion preferring
//                another model: a note.
//
// Host side: allocates; no I/O.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "frictionlab/names.hpp"

namespace frictionlab::workflows {

struct FitJointOutcome;
struct EvalJointOutcome;
struct FitActuatorOutcome;
struct EvalActuatorOutcome;
struct FitOutcome;
struct CompareOutcome;

enum class Grade { good, doubtful, bad };

/// The grades' names (verdict lines, reports, JSON).
inline constexpr std::array<Named<Grade>, 3> kGradeNames{
    {{Grade::good, "good"}, {Grade::doubtful, "doubtful"}, {Grade::bad, "bad"}}};
static_assert(names_every(kGradeNames, Grade::bad));

/// "good", "doubtful" or "bad".
std::string grade_name(Grade g);

/// One reason of a verdict.
struct VerdictReason {
  Grade grade = Grade::good;
  std::string rule;  ///< the rule's name in the header ("torque", "leaves", ...)
  std::string text;  ///< what was found, with its numbers
  std::string hint;  ///< what to try; may be empty
};

struct Verdict {
  Grade grade = Grade::good;
  std::vector<VerdictReason> reasons;  ///< worst first, in rule order within a grade

  /// One line: "good", or "bad: TEXT (HINT); doubtful: TEXT" over the reasons that are not notes.
  std::string line() const;
  /// Add a reason, keeping the order of `reasons` and the grade.
  void add(VerdictReason r);
};

/// The verdict on a joint fit (header).
Verdict joint_fit_verdict(const FitJointOutcome& outcome);
/// The verdict on a joint model evaluated on records (header).
Verdict joint_eval_verdict(const EvalJointOutcome& outcome);
/// The verdict on a friction-model fit (header, "Fit rules").
Verdict fit_verdict(const FitOutcome& outcome);
/// The verdict on a comparison: the recommended model's and the ranking's (header).
Verdict compare_verdict(const CompareOutcome& outcome);

/// The verdict on an actuator fit (header; src/workflows/verdict_actuator.cpp).
Verdict actuator_fit_verdict(const FitActuatorOutcome& outcome);
/// The verdict on parameter sets evaluated on servo logs (header).
Verdict actuator_eval_verdict(const EvalActuatorOutcome& outcome);

}  // namespace frictionlab::workflows
