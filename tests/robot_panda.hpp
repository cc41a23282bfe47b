// The Panda of ../shared/data/robot_panda (Gaz et al. 2019) for the arm tests: its kinematics
// from the DH table, and its real excitation record as the arm fits take it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/robot_description.hpp"

namespace frictionlab::testing {

inline const std::filesystem::path kPandaData =
    std::filesystem::path(FRICTIONLAB_SOURCE_DIR) / ".." / "shared" / "data" / "robot_panda";

/// The Panda's kinematics (panda_dh.json; its link mass properties are made up).
inline robot::RobotModel panda_model() {
  return io::read_robot((kPandaData / "panda_dh.json").string()).model;
}

/// excitation_1.csv resampled to 1 kHz with a 10 Hz zero-phase low-pass (the documented fit).
inline data::ArmSamples panda_record(const robot::RobotModel& m) {
  std::vector<std::string> names;
  for (const auto& j : m.joints) names.push_back(j.name);
  data::PreprocessOptions pre;
  pre.resample_rate = 1000;
  pre.lowpass_cutoff = 10;
  return data::preprocess_arm(
      io::read_arm_record((kPandaData / "excitation_1.csv").string(), names), pre);
}

}  // namespace frictionlab::testing
