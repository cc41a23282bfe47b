// frictionlab io (private): the adaptive estimator's part of the C code `export c --adaptive`
// writes (estimator_c_code; include/frictionlab/estimator/adaptive_estimator.h).
#pragma once

#include <string>

#include "frictionlab/io/estimator_export.hpp"

namespace frictionlab::io::detail {

/// A C literal of x in the target precision: float values are rounded to float first and written
/// with 9 significant digits (which read back to the same float), doubles with 17.
std::string c_literal(double x, bool single);

/// The adaptive estimator's declarations (for NAME.h, after the estimator's; they need
/// NAME_params_t) and code (for NAME.c, after the estimator's): templates with estimator_c_code's
/// placeholders (@N@, @NU@, @T@, @SRC@), the start's values filled in.
struct AdaptiveCCode {
  std::string declarations, code;
};
AdaptiveCCode adaptive_c_code(const AdaptiveStart& start, bool single);

}  // namespace frictionlab::io::detail
