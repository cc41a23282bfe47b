// frictionlab: the Maxwell-slip model (and, as before the model folders, the modified Stribeck
// model). The pieces live in models/maxwell_slip/.
#pragma once

#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/maxwell_slip/validation.hpp"
#include "frictionlab/models/modified_stribeck.hpp"
