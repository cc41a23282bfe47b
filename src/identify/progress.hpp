// frictionlab identify: a fit's Progress (identify/progress.hpp) as the identification sources
// use it from several threads at once.
#pragma once

#include <memory>
#include <mutex>

#include "frictionlab/identify/progress.hpp"

namespace frictionlab::identify::detail {

/// `p` with its report serialised by a mutex of its own (the scans, grid passes and starts
/// report from worker threads); cancel is `p`'s (thread-safe by contract, polled without a
/// lock). An empty report stays empty, so `if (s.report)` still skips building a message.
inline Progress serialised(const Progress& p) {
  Progress s;
  s.cancel = p.cancel;
  if (p.report)
    s.report = [report = p.report, m = std::make_shared<std::mutex>()](const ProgressEvent& e) {
      const std::lock_guard<std::mutex> lock(*m);
      report(e);
    };
  return s;
}

}  // namespace frictionlab::identify::detail
