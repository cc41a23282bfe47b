#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::workflows {

void Progress::say(std::string_view message, double fraction) const {
  if (report) report(message, fraction);
}

void Progress::check() const {
  if (cancel && cancel()) throw Cancelled();
}

}  // namespace frictionlab::workflows
