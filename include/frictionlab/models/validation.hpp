// frictionlab: parameter validation of every model: check(params) of each model folder
// (models/<model>/validation.hpp) and the shared building blocks (models/param_checks.hpp).
#pragma once

#include "frictionlab/models/param_checks.hpp"
#include "frictionlab/models/actuator_budgets/validation.hpp"
#include "frictionlab/models/dahl/validation.hpp"
#include "frictionlab/models/elastoplastic/validation.hpp"
#include "frictionlab/models/gms/validation.hpp"
#include "frictionlab/models/joint_lugre/validation.hpp"
#include "frictionlab/models/lugre/validation.hpp"
#include "frictionlab/models/maxwell_slip/validation.hpp"
#include "frictionlab/models/modified_stribeck/validation.hpp"
#include "frictionlab/models/stribeck/validation.hpp"
