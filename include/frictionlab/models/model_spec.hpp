// frictionlab: ModelSpec, the parameters of any friction model in double precision, with the one
// table of model names (model_names, model_name) and check(spec). They are defined by the model
// registry (models/registry.hpp); this header keeps the name ModelSpec users include.
#pragma once

#include "frictionlab/models/registry.hpp"
