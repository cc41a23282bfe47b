// frictionlab Python module: what eval_joint returns to Python (workflows_joint.cpp binds it,
// pickling.cpp pickles it).
#pragma once

#include <string>

#include "frictionlab/sim/joint_model.hpp"
#include "frictionlab/workflows/joint.hpp"

namespace frictionlab::python {

/// eval_joint's outcome with the model and its label (what joint_eval.json names).
struct EvalJointResult {
  workflows::EvalJointOutcome outcome;
  sim::JointModel model;
  std::string joint_file;
};

}  // namespace frictionlab::python
