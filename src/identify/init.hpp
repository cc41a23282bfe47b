// frictionlab identify: the initial guess of a fit (init.cpp; docs/identification.md,
// "Initial guess").
#pragma once

#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "progress.hpp"

namespace frictionlab::identify::detail {

/// Natural-value initial guess for the family (static least squares on near-steady samples
/// with vs and alpha scanned, then scans of the dynamic parameters). Entries of `natural` that
/// are not NaN are given (fixed or already known) and kept; the NaN entries are initialised.
/// Returns the complete natural vector. `threads`: for the scans' simulations (0: every core).
std::vector<double> initial_guess(const Family& fam, const ModelChoice& model, const FitData& d,
                                  const SteadySelection& sel, std::vector<double> natural,
                                  const Progress& progress, int threads = 0);

}  // namespace frictionlab::identify::detail
