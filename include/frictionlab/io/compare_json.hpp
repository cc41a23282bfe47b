// frictionlab io: the output directory of a `compare` (docs/cli.md, "compare").
//
//   DIR/compare.json   {"format": "frictionlab-compare", "version": 1, "input",
//   "validation":
//                       [names], "problem", "method": "lsq", "criterion":
//                       "aicc" | "bic", "ranked_by": "validation_rmse" |
//                       "training_rmse", "best", "best_by_criterion" (null if
//                       no criterion is finite), "criterion_agrees", "rows":
//                       [{"rank" (1 = best), "model", "p", "training_rmse",
//                       "validation_rmse", "aicc", "bic", "delta", "model_json"
//                       (its path), "fit": the fit.json object of the model}]}
//   DIR/<model>/model.json   each model's MODEL.json (FitResult::params), <model>
//   from
//                            compare_model_directory.
// Non-finite numbers are written as null.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/workflows/compare.hpp"

namespace frictionlab::io {

/// The directory name of a model: its name with ':' replaced by '_' ("gms:4" ->
/// "gms_4").
std::string compare_model_directory(const std::string& model);

/// The files write_compare_outputs writes for `models` in `dir`: compare.json, then each model's
/// DIR/MODEL/model.json (compare_model_directory), in the order given.
std::vector<std::string> compare_output_paths(const std::string& dir,
                                              const std::vector<std::string>& models);

/// DIR/compare.json: the file write_compare_outputs writes in `dir` whatever the models (for the
/// checks before the work).
std::string compare_json_path(const std::string& dir);

/// The compare.json object; model_json_paths[k] is the "model_json" of
/// c.rows[k] (std::invalid_argument if the counts differ).
nlohmann::ordered_json compare_to_json(const workflows::CompareOutcome& c,
                                       const std::vector<std::string>& model_json_paths);

/// Create `dir` and DIR/<model>/ if missing, write every row's model.json and
/// compare.json, all or nothing (io::OutputFiles, io/output.hpp). Returns the paths
/// written: compare.json first, then the model.json files in rank order. Throws
/// InputError if a directory or a file cannot be written, or a file would replace one of
/// `inputs` (OutputFiles::protect).
/// With a `report` path, the identification report of the comparison (io::report_html of the
/// compare.json written: the ranking, the recommendation and every model's section) is written
/// too, in the same set.
std::vector<std::string> write_compare_outputs(const std::string& dir,
                                               const workflows::CompareOutcome& c,
                                               const std::vector<NamedPath>& inputs = {},
                                               const std::string& report = {},
                                               const ReportOptions& report_options = {});

}  // namespace frictionlab::io
