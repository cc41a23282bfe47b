// frictionlab identify (private): the parameter table of identify/joint_parameters.hpp with, for
// every entry, where its value sits in a JointModel, for the methods that set parameters
// (joint_oe.cpp). joint_parameters() is this table without the references.
#pragma once

#include <functional>
#include <vector>

#include "frictionlab/identify/joint_parameters.hpp"

namespace frictionlab::identify::detail {

struct JointParameterSlot {
  JointParameter info;  ///< name, unit, flags, and the value in the model the table was made of
  /// The same parameter in any model of the same structure and friction kind (number of
  /// Stribeck and viscous terms, Coulomb symmetry).
  std::function<double&(JointModel&)> ref;
};

/// The table of `m` (order of identify/joint_parameters.hpp).
std::vector<JointParameterSlot> joint_parameter_slots(const JointModel& m);

}  // namespace frictionlab::identify::detail
