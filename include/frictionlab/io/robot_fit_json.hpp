// frictionlab: robot_fit.json, the result of an arm identification (docs/file-formats.md,
// "robot_fit.json"; workflows/robot.hpp):
//   {"format": "frictionlab-robot-fit", "version": 1, "robot": FILE, "record": FILE,
//    "joints": [...], "samples": N, "preprocessing": "...", "lowpass_hz": X,
//    "standard_parameters": P, "rank": R, "condition_number": X, "relative_error_percent": X,
//    "rms_error": {JOINT: N m}, "sigma": {JOINT: N m},
//    "parameters": [{"name", "expression", "terms": [[NAME, COEFFICIENT], ...], "unit", "value",
//                    "std_error", "relative_std_error_percent", "poorly_determined"}],
//    "flags": [...], "verdict": {...}, "seconds": X}
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "frictionlab/workflows/robot.hpp"

namespace frictionlab::io {

nlohmann::ordered_json robot_fit_to_json(const workflows::FitRobotOutcome& outcome,
                                         const std::string& robot_file,
                                         const std::string& record_file);

}  // namespace frictionlab::io
