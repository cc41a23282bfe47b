// frictionlab: the elasto-plastic model. The pieces live in models/elastoplastic/.
#pragma once

#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/elastoplastic/validation.hpp"
