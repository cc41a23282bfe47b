// frictionlab: the actuator friction budgets M1..M6. The pieces live in models/actuator_budgets/.
#pragma once

#include "frictionlab/models/actuator_budgets/model.hpp"
#include "frictionlab/models/actuator_budgets/validation.hpp"
