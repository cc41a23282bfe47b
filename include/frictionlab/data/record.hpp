// frictionlab: a measured trajectory, as the identification layer consumes it.
//
// Plain data (no file I/O: loaders in io/record_io.hpp, checks in data/checks.hpp,
// resampling / filtering / differentiation in data/preprocess.hpp; docs/preprocessing.md).
// Channels that a record does not have are empty vectors; every non-empty channel has the length
// of t (data::check_record verifies this, finiteness and strictly increasing time).
// Units: SI, rotary or linear as the user's axis: position [m | rad], velocity [m/s | rad/s],
// acceleration [m/s^2 | rad/s^2], force [N | N m], current [A], time [s].
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace frictionlab::data {

struct Record {
  std::string source;                ///< where it came from (file name), for messages
  std::vector<double> t;             ///< time [s], strictly increasing
  std::vector<double> position;      ///< position [m | rad] (optional)
  std::vector<double> velocity;      ///< velocity [m/s | rad/s] (optional if position is given)
  std::vector<double> acceleration;  ///< [m/s^2 | rad/s^2] (optional; data::preprocess fills it)
  std::vector<double> current;       ///< motor current [A] (sensorless-torque problem)
  std::vector<double> force;         ///< measured friction force or joint torque [N | N m]
  std::vector<double> temperature;   ///< temperature of the joint or gearbox [degC] (optional)

  std::size_t size() const noexcept { return t.size(); }
};

}  // namespace frictionlab::data
