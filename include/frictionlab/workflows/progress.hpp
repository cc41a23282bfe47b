// frictionlab workflows: progress reports and cancellation, shared by every workflow
// (docs/architecture.md, "Workflow layer").
//
// A workflow takes typed inputs (records in memory, option structs) and returns a typed result;
// it never prints and never touches a file. What it is doing goes to Progress::report, and a
// caller that wants it to stop says so through Progress::cancel: the workflow polls it between
// units of work (a start, a model, a fold, a segment) and throws Cancelled, returning nothing
// partial.
#pragma once

#include <functional>
#include <string_view>

#include "frictionlab/identify/cancel.hpp"

namespace frictionlab::workflows {

/// Thrown by a workflow whose Progress::cancel returned true, and by the identifications it
/// runs (identify::FitOptions::cancel is forwarded to Progress::cancel): one type, caught as
/// either name. Nothing partial is returned.
using Cancelled = identify::Cancelled;

/// How a workflow reports what it is doing and learns that it should stop. Both members may be
/// empty. They are called from the calling thread or, serialised by the workflow, from its
/// worker threads.
struct Progress {
  /// A line for a person ("lugre: start 2 of 3") and the fraction of the whole done so far, in
  /// [0, 1], or a negative value when the workflow cannot tell.
  std::function<void(std::string_view message, double fraction)> report;
  /// Polled between units of work, and within an identification at every start, candidate start
  /// point and solver iteration (from worker threads too, possibly at once: it must be
  /// thread-safe and cheap); returning true stops the workflow with Cancelled.
  std::function<bool()> cancel;

  /// report(message, fraction) if a report callback is set.
  void say(std::string_view message, double fraction = -1.0) const;
  /// Throws Cancelled if cancel() returns true.
  void check() const;
};

}  // namespace frictionlab::workflows
