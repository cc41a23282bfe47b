// frictionlab: the one progress and cancellation type of the library (docs/architecture.md,
// "Progress and cancellation"). Every long call takes a Progress: the identifications
// (FitOptions::progress, JointOeOptions::progress, CmaesOptions::progress,
// fit_and_select_servo_models), the workflows (workflows::Progress is this type) and the
// exports. The call reports what it is doing through Progress::report, and a caller that wants
// it to stop says so through Progress::cancel: the call polls it between its units of work (a
// start, a solver iteration, a candidate start point, a CMA-ES generation, a model, a fold, a
// block of samples), throws Cancelled and returns nothing partial.
#pragma once

#include <functional>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace frictionlab::identify {

/// Thrown by a call whose Progress::cancel returned true. Nothing partial is returned.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

/// One report of a long call.
struct ProgressEvent {
  /// One line for a person, without a newline ("lugre: start 2 of 3", "grid stage 1 (...)").
  /// The text is valid during the report only (copy it to keep it).
  std::string_view message;
  /// The fraction of the whole call done so far, in [0, 1]; negative when the call cannot
  /// tell (an iterative solve whose iteration count is not known in advance).
  double fraction = -1.0;
  /// An optimiser's objective evaluations so far (CMA-ES: all runs, warm starts excluded);
  /// negative when the call does not count them.
  long evaluations = -1;
  /// The best objective value so far, in the objective's units (CMA-ES: the servo loss in
  /// rad); NaN when the call has none.
  double best = std::numeric_limits<double>::quiet_NaN();
};

/// How a long call reports what it is doing and learns that it should stop. Both members may
/// be empty. A call documents the threads it uses them from: report is called from the calling
/// thread or, serialised by the call, from its worker threads; cancel may be called from worker
/// threads, possibly at once, so it must be thread-safe and cheap (e.g. read an atomic flag).
/// An exception thrown by either (e.g. Cancelled from report) stops the call and is passed on.
struct Progress {
  /// Receives each report.
  std::function<void(const ProgressEvent&)> report;
  /// Polled between units of work; returning true stops the call with Cancelled.
  std::function<bool()> cancel;

  /// report(event) if a report callback is set.
  void say(const ProgressEvent& event) const {
    if (report) report(event);
  }
  /// report({message, fraction}) if a report callback is set.
  void say(std::string_view message, double fraction = -1.0) const {
    if (report) report(ProgressEvent{message, fraction});
  }
  /// Whether the caller asked the call to stop (cancel is set and returns true).
  bool cancelled() const { return cancel && cancel(); }
  /// Throws Cancelled if cancelled().
  void check() const {
    if (cancelled()) throw Cancelled();
  }
};

}  // namespace frictionlab::identify
