// frictionlab identify: a fit's result at its optimum: values, metrics, standard errors and
// reliability of a Family's estimates (docs/identification.md, "Results").
#pragma once

#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/result.hpp"
#include "linearisation.hpp"
#include "robust.hpp"

namespace frictionlab::identify::detail {

/// Fill parameters, standard errors, intervals, correlation, condition number, sigma, metrics,
/// information criteria of `r` from the Jacobian at theta (free: estimated internal indices).
/// Also fills r.reliability (whiteness, HAC standard errors, the reasons the standard errors
/// cannot be trusted); `at_limit`: theta indices that ended on their search box. `threads`: for
/// the Jacobian (Family::make_cost; 0: every core), J^T J and the HAC windows. `known`: the
/// solver's last evaluation of the same cost (LsqRun::last), used instead of a new one when it was
/// made at theta itself (its arrays are then moved out: it is left empty). `at_values`: called with
/// r once its values are set, before the statistics, and the prediction y - residuals when there is
/// no warm-up and no robust loss (identify::fit's at_optimum).
void fill_statistics(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const std::vector<int>& free,
                     const Robust& loss, const std::vector<int>& at_limit = {}, int threads = 0,
                     Linearisation* known = nullptr, const AtOptimum& at_values = {});

/// Fill parameters (values only; standard errors NaN) and metrics without a Jacobian. The
/// training metrics come from `residuals` (y - prediction at theta for the samples from d.first
/// on, unweighted) when given, else from a simulation at theta.
void fill_values_only(FitResult& r, const Family& fam, const FitData& d,
                      const std::vector<double>& theta, const std::vector<int>& estimated,
                      const std::vector<double>* residuals = nullptr);

}  // namespace frictionlab::identify::detail
