// frictionlab workflows: progress reports and cancellation, shared by every workflow
// (docs/architecture.md, "Progress and cancellation").
//
// A workflow takes typed inputs (records in memory, option structs) and returns a typed result;
// it never prints and never touches a file. What it is doing goes to Progress::report, and a
// caller that wants it to stop says so through Progress::cancel: the workflow polls it between
// units of work (a start, a model, a fold, a segment) and throws Cancelled, returning nothing
// partial. The type is the identifications' (identify/progress.hpp): a workflow hands its
// Progress to the identification it runs as it is.
#pragma once

#include "frictionlab/identify/progress.hpp"

namespace frictionlab::workflows {

using identify::Cancelled;
using identify::Progress;
using identify::ProgressEvent;

}  // namespace frictionlab::workflows
