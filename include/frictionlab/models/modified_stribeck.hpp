// frictionlab: the modified Stribeck model. The pieces live in models/modified_stribeck/.
#pragma once

#include "frictionlab/models/modified_stribeck/model.hpp"
#include "frictionlab/models/modified_stribeck/validation.hpp"
