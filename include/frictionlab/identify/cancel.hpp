// frictionlab: cancellation of a long identification or workflow. The caller hands a hook
// (identify::FitOptions::cancel, workflows::Progress::cancel) that the work polls between its
// units (a start, a solver iteration, a candidate start point, a model, a segment); when the hook
// returns true the work throws Cancelled and returns nothing partial.
#pragma once

#include <stdexcept>

namespace frictionlab::identify {

/// Thrown by work whose cancel hook returned true. Nothing partial is returned.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace frictionlab::identify
