// frictionlab: excitation.json, an arm excitation design or the check of a trajectory
// (docs/file-formats.md, "excitation.json"; identify/robot_excite.hpp):
//   {"format": "frictionlab-excitation", "version": 1, "robot": FILE,
//    "trajectory": {"period": T, "harmonics": L, "q0": {JOINT: X}, "start": {JOINT: X},
//                   "a": {JOINT: [a_1..a_L]}, "b": {JOINT: [b_1..b_L]}},   (designs only)
//    "record": FILE,                                                     (checks only)
//    "check": {"samples": N, "rank": R, "condition_number": X | null,
//              "separation": {PARAMETER: e}, "range": {JOINT: X}, "peak_velocity": {JOINT: X},
//              "peak_acceleration": {JOINT: X}, "reversals": {JOINT: N}, "flags": [...]},
//    "evaluations": N, "seconds": X}                                     (designs only)
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/identify/robot_excite.hpp"

namespace frictionlab::io {

/// excitation.csv's columns of a sampled trajectory: time, q1..qn, dq1..dqn, ddq1..ddqn (the
/// names fit-robot reads by default).
std::pair<std::vector<std::string>, std::vector<const std::vector<double>*>> excitation_columns(
    const data::ArmSamples& samples);

nlohmann::ordered_json excitation_check_to_json(const identify::ExcitationCheck& check,
                                                const std::vector<std::string>& joints);

nlohmann::ordered_json excitation_design_to_json(const identify::ExcitationDesign& design,
                                                 const std::vector<std::string>& joints,
                                                 const std::string& robot_file);

}  // namespace frictionlab::io
