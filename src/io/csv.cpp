#include "frictionlab/io/csv.hpp"
