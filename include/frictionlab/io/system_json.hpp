// frictionlab: SYSTEM.json files for `frictionlab simulate --system` (docs/file-formats.md,
// "SYSTEM.json"; the systems: docs/simulation.md).
//
//   {"system": "stick-slip",
//    "params": {"m": 1, "k": 2, "v_drive": 0.1, "belt": false, "x0": 0, "v0": 0, "t_end": 20},
//    "friction": {"model": "lugre", "params": {...}}}
//
//   {"system": "joint",
//    "params": {"I": 0.05, "mgCx": 0, "mgCy": 0, "q0": 0, "qd0": 0, "t_end": 10,
//               "tau_offset": 0, "tau_amp": 1, "tau_freq": 0.5},
//    "torque_csv": "torque.csv",        (optional: columns t, tau; path relative to the JSON file;
//                                        excludes tau_offset, tau_amp, tau_freq)
//    "friction": {...}}
//
// The friction object is a MODEL.json object (io/model_json.hpp) naming lugre, dahl or
// elasto-plastic. Missing parameters take the defaults of sim::StickSlipSpec / sim::JointSpec.
// Errors are InputErrors naming the file and the parameter ("friction: " for friction ones).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/sim/systems.hpp"

namespace frictionlab::io {

struct SystemFile {
  sim::SystemKind kind = sim::SystemKind::stick_slip;
  sim::StickSlipSpec stick_slip{};  ///< used if kind == stick_slip
  sim::JointSpec joint{};           ///< used if kind == joint
  sim::FrictionParams friction{};
  std::string friction_model;         ///< "lugre", "dahl" or "elasto-plastic"
  std::vector<std::string> warnings;  ///< friction parameter warnings, formatted with the file
};

/// Read a SYSTEM.json file (a torque_csv is read relative to the file's directory).
SystemFile read_system_file(const std::string& path);

/// Parse SYSTEM.json text; `file` names it in messages and locates a relative torque_csv.
SystemFile parse_system_json(std::string_view text, const std::string& file);

}  // namespace frictionlab::io
