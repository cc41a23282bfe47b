// frictionlab identify: the numeric record a fit works on (FitData), made and checked from a
// data::Record by data.cpp.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/models/common.hpp"

namespace frictionlab::identify::detail {

/// The numeric record a fit works on.
struct FitData {
  std::vector<double> t, v, i, y;
  bool sensorless = false;
  long first = 0;  ///< first sample with a residual (warm-up)
  /// The input velocity between samples in the fit's simulation (FitOptions::hold): what the
  /// cost, the starts and the statistics simulate with (the coarse scans of the initial guess
  /// always hold it: init.cpp).
  Hold hold = Hold::linear;
  long n() const { return static_cast<long>(t.size()); }
  long m() const { return n() - first; }
};

/// Validated numeric data (throws FitError naming the channel and sample).
FitData prepare_data(const data::Record& rec, ProblemKind problem, double warmup_s);
DataSummary summarize(const FitData& d);

double max_abs(const std::vector<double>& x);
double median(std::vector<double> x);

}  // namespace frictionlab::identify::detail
