// frictionlab identify: method grid, reference 000's grid search (grid.cpp).
#pragma once

#include <string>
#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "progress.hpp"

namespace frictionlab::identify::detail {

/// The grid method (reference 000). Returns the natural parameter vector of the LuGre family.
struct GridRun {
  std::vector<double> natural;
  std::vector<std::string> notes;  ///< warnings (Fs reflected, Euler unstable points, ...)
  int passes = 0;
};
GridRun run_grid(const Family& fam, const FitData& d, const FitOptions& opt, double alpha,
                 const std::vector<double>& init_natural, const Progress& progress);

}  // namespace frictionlab::identify::detail
