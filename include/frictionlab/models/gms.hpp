// frictionlab: the generalized Maxwell-slip (GMS) model. The pieces live in models/gms/.
#pragma once

#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/gms/validation.hpp"
