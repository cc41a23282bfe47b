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

namespace frictionlab::io {

/// The fitted friction model as a MODEL.json spec (static kinds keep their name).
ModelSpec model_spec(const identify::FitResult& r);

/// A validation record's name and its metrics.
using ValidationEntry = std::pair<std::string, identify::Metrics>;

/// The fit.json object of a result; `input` names the training record.
nlohmann::ordered_json fit_to_json(const identify::FitResult& r, const std::string& input,
                                   const std::vector<ValidationEntry>& validation);

}  // namespace frictionlab::io
