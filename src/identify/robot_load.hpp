// frictionlab identify (private): the arm fit with load-dependent Coulomb levels
// (RobotFitOptions::load; identify/robot_fit.hpp, header), by instrumental variables.
#pragma once

#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify::arm {

/// Each joint's load coefficient mu_JOINT in `r` (0 where it has none).
std::vector<double> load_coefficients(const robot::RobotModel& model, const RobotFitResult& r);

/// fit_robot with options.load (inputs checked by the caller).
RobotFitResult fit_load_dependent(const robot::RobotModel& model, const data::ArmSamples& samples,
                                  const RobotFitOptions& options);

}  // namespace frictionlab::identify::arm
