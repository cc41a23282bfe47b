// frictionlab: the Dahl model. The pieces live in models/dahl/.
#pragma once

#include "frictionlab/models/dahl/model.hpp"
#include "frictionlab/models/dahl/validation.hpp"
