// frictionlab identify: the multi-start Ceres solve of method lsq (lsq.cpp;
// docs/identification.md, "lsq").
#pragma once

#include <string>
#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "linearisation.hpp"
#include "progress.hpp"
#include "robust.hpp"

namespace frictionlab::identify::detail {

/// Result of a (multi-start) Ceres solve.
struct LsqRun {
  std::vector<double> theta;  ///< internal, full
  std::vector<int> at_limit;  ///< indices of theta on their search box (best start)
  std::vector<StartSummary> starts;
  int best = 0;
  int iterations = 0;
  bool converged = false;
  std::string termination;
  Linearisation last;  ///< the best start's last Jacobian evaluation (at theta or before it)
};

/// A start given by the caller (the embedded optimum of a nested model), run after the others.
struct ExtraStart {
  std::vector<double> theta;  ///< internal, full; empty: none
  std::string origin;         ///< what it is, for StartSummary::origin
};

LsqRun run_lsq(const Family& fam, const FitData& d, const std::vector<double>& theta0,
               const std::vector<int>& free, const LsqOptions& opt, const Robust& loss,
               const Progress& progress, const std::string& label, const ExtraStart& extra = {});

/// Robust loss scale (opt.loss_scale or 1.5 * 1.4826 * MAD of the residuals at theta0).
Robust make_robust(const Family& fam, const FitData& d, const std::vector<double>& theta0,
                   const LsqOptions& opt);

}  // namespace frictionlab::identify::detail
