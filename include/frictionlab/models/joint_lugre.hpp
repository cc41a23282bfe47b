// frictionlab: the joint LuGre model (reference 004). The pieces live in models/joint_lugre/.
#pragma once

#include "frictionlab/models/joint_lugre/model.hpp"
#include "frictionlab/models/joint_lugre/validation.hpp"
