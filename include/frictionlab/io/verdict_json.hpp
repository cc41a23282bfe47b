// frictionlab io: a verdict (workflows/verdict.hpp) in a result file:
//   "verdict": {"grade": "good" | "doubtful" | "bad", "line": "...",
//               "reasons": [{"grade": ..., "rule": ..., "text": ..., "hint": ...}, ...]}
// (docs/verdicts.md).
#pragma once

#include <nlohmann/json.hpp>

#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::io {

/// The verdict's JSON object (header).
nlohmann::ordered_json verdict_to_json(const workflows::Verdict& v);

}  // namespace frictionlab::io
