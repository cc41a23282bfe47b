// frictionlab: the LuGre model. The pieces live in models/lugre/.
#pragma once

#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/models/lugre/validation.hpp"
