// frictionlab: fit.json, the record of an identification (docs/file-formats.md, "fit.json").
//
//   {"format": "frictionlab-fit", "version": 1,
//    "model": {MODEL.json object: "model", "params"},   usable by `frictionlab simulate`
//    "problem", "method", "Km" (sensorless), "parameters": [{name, field, unit, value,
//    std_error, ci95: [lo, hi], fixed, at_bound}], "correlation", "condition_number", "sigma",
//    "training": {metrics}, "validation": [{"file", metrics}], "aicc", "bic", "passive",
//    "run_time_s", "solver": {...}, "data": {...}, "warnings": [...]}
// Non-finite numbers (a standard error that is not available) are written as null.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/identify/result.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/report.hpp"

namespace frictionlab::io {

/// A validation record's name ("file" in fit.json) and its metrics.
using ValidationEntry = workflows::NamedMetrics;

/// "friction" | "sensorless": fit.json's (and compare.json's) "problem".
std::string problem_name(identify::ProblemKind p);

/// x, or null if x is not finite (how fit.json and compare.json write numbers).
nlohmann::ordered_json finite_or_null(double x);
/// An array of finite_or_null(x[i]) (the series of the result files' "report" objects).
nlohmann::ordered_json finite_or_null(const std::vector<double>& x);

/// The fit.json object of a result; `input` names the training record. For a
/// workflows::FitOutcome f: fit_to_json(f.result, f.input, f.validation).
nlohmann::ordered_json fit_to_json(const identify::FitResult& r, const std::string& input,
                                   const std::vector<ValidationEntry>& validation);
/// fit.json as `fit` writes it: fit_to_json(f.result, f.input, f.validation) with "warnings"
/// f.warnings (every warning of the run, the record checks' too) plus "report",
/// report_data_json(workflows::fit_report_data(f)), the data `frictionlab report` draws.
nlohmann::ordered_json fit_outcome_to_json(const workflows::FitOutcome& f);
/// fit.json's "report" object (docs/file-formats.md, "fit.json").
nlohmann::ordered_json report_data_json(const workflows::FitReportData& d);

}  // namespace frictionlab::io
