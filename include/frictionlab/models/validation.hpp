// frictionlab: parameter validation of every model: check(params) of each registered model folder
// (models/<model>/validation.hpp, reached through the registry), of the actuator budgets, and the
// shared building blocks (models/param_checks.hpp).
#pragma once

#include "frictionlab/models/actuator_budgets/validation.hpp"
#include "frictionlab/models/param_checks.hpp"
#include "frictionlab/models/registry.hpp"
