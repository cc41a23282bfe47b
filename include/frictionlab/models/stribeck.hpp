// frictionlab: the static models coulomb, viscous, coulomb-viscous, stribeck (StaticFriction) and
// the Stribeck curve. The pieces live in models/stribeck/.
#pragma once

#include "frictionlab/models/stribeck/model.hpp"
#include "frictionlab/models/stribeck/validation.hpp"
#include "frictionlab/models/stribeck_curve.hpp"
