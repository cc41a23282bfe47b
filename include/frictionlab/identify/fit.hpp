// frictionlab: identification of friction parameters from a measured record.
//
//   FitResult r = identify::fit(record, options);   // lsq (default), grid or two-stage
//   Metrics m   = identify::evaluate(r, validation_record);
//
// Problems, methods, equations, defaults, uncertainty formulas and measured accuracy:
// docs/identification.md.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"

namespace frictionlab::identify {

/// Fit the model of `opt` to `rec` (channels: t, velocity, force; current for the sensorless
/// problem). Throws FitError for unusable input (missing or mismatched channels, non-finite
/// values, time not strictly increasing, too few samples, method not available for the
/// model, too few constant-velocity segments for two-stage). Soft problems (no velocity
/// reversal for a dynamic model, non-identifiable parameters, non-passive LuGre set, solver
/// not converged) are listed in FitResult::warnings.
FitResult fit(const data::Record& rec, const FitOptions& opt);
/// What fit's `at_optimum` is called with: the result with the optimum's values (params, Km,
/// parameters, training metrics) and not yet its statistics, and `prediction`: predict(result,
/// rec) at every sample up to rounding, y - the residuals the solver ended with, when the fit
/// has them without a simulation of its own (no warm-up, no robust loss); else empty.
using AtOptimum = std::function<void(const FitResult& result, std::span<const double> prediction)>;
/// The same, calling `at_optimum` once on the calling thread when the optimum's values are in the
/// result and its statistics are not yet computed (standard errors, HAC, whiteness: milliseconds
/// on a long record), so that a caller can start work that needs only the values on other
/// threads meanwhile (workflows::fit: the prediction, the friction against velocity). Not called
/// by method grid (no statistics).
FitResult fit(const data::Record& rec, const FitOptions& opt, const AtOptimum& at_optimum);

/// The fitted model's prediction of the measured channel (friction force, or joint torque
/// Km*current - F for the sensorless problem) at every sample of `rec`, simulated from rest at
/// rec.t[0] with the result's scheme. Throws FitError if `rec` lacks a needed channel.
std::vector<double> predict(const FitResult& r, const data::Record& rec);

/// Metrics of predict(r, rec) against rec.force, over the samples after the result's warm-up.
Metrics evaluate(const FitResult& r, const data::Record& rec);

/// The fitted model's steady-state (static) friction F_ss(v) [N | Nm] (for plots: the static
/// curve over the data).
double steady_force(const FitResult& r, double v);
/// steady_force at every velocity of v (the model chosen once for all of them).
std::vector<double> steady_force(const FitResult& r, std::span<const double> v);

}  // namespace frictionlab::identify
