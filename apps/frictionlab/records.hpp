// frictionlab CLI: what `fit` and `compare` share: their options (bound straight onto the
// workflow's option structs), reading a record with the command line's channels, the workflow
// options the command line describes, and the number format of their tables.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/workflows/fit.hpp"

namespace CLI {
class App;
}

namespace frictionlab::cli {

/// The time column / variable of fit and compare when --time is not given (a default, not a
/// choice: io::RecordSpec::time_default).
inline constexpr const char* kDefaultTime = "t";

struct FitOptions {
  std::string input, out = "frictionlab-fit";
  std::vector<std::string> validate;
  /// --time, --position, --velocity, --current, --force, --matrix: column names or 0-based
  /// indices (CSV), variable names (.mat); empty: not given.
  io::RecordSpec channels = default_channels();
  /// The choices parsed into `workflow.fit` by workflow_options.
  std::string problem = "friction", model = "lugre", method = "lsq", loss = "none";
  std::string hold;  ///< --hold linear|zoh; "" not given (identify::FitOptions::hold)
  /// --rotary, --warmup, --starts, --spread, --threads (workflow.fit) and --resample, --max-gap,
  /// --lowpass, --velocity-from-position (workflow.preprocess), bound onto it directly.
  workflows::FitOptions workflow;
  bool no_plots = false;
  std::string report;  ///< --report FILE.html (fit, compare): the identification report; "" none

  static io::RecordSpec default_channels() {
    io::RecordSpec spec;
    // std::string(...): operator=(const char*) here trips a g++ 12 -Wrestrict false positive.
    spec.time_default = std::string(kDefaultTime);
    return spec;
  }
};

struct CompareOptions {
  /// Record, channels, problem, preprocessing, warm-up, starts and loss, as for `fit`; `model`
  /// and `method` are not used (every model of `models` is fitted by lsq).
  FitOptions fit = compare_defaults();
  std::string models = "coulomb-viscous,stribeck,lugre,lugre-asym";  ///< comma-separated
  std::string criterion = "aicc";                                    ///< aicc | bic

  static FitOptions compare_defaults() {
    FitOptions f;
    f.out = "frictionlab-compare";
    return f;
  }
};

/// --input RECORD (required), --validate RECORD... and --out DIR on `cmd`: a training record,
/// its validation records and the results directory (fit, compare, fit-joint).
void add_training_records(CLI::App* cmd, std::string& input, std::vector<std::string>& validate,
                          std::string& out);
/// The files of add_training_records as named inputs ("--input", "--validate").
std::vector<io::NamedPath> training_record_paths(const std::string& input,
                                                 const std::vector<std::string>& validate);

/// The options `fit` and `compare` share (records, channels, problem, preprocessing, lsq) on
/// `cmd`, bound onto `o`; `is_fit` adds --model, --method and --no-plots.
void add_record_options(CLI::App* cmd, FitOptions& o, bool is_fit);

/// The record at `path` read with the channels of `o` (io::read_record; --time defaults to
/// "t" without selecting the named .mat layout), named by `path`. Throws io::InputError /
/// std::invalid_argument like io::read_record.
workflows::NamedRecord read_input(const FitOptions& o, const std::string& path);

/// --input and every --validate record (read_input), in order.
struct Inputs {
  workflows::NamedRecord training;
  std::vector<workflows::NamedRecord> validation;
};
Inputs read_inputs(const FitOptions& o);

/// --input and every --validate path, labelled with their options (the inputs the outputs
/// must never replace: io::check_outputs_not_inputs, io::OutputFiles::protect).
std::vector<io::NamedPath> input_paths(const FitOptions& o);

/// The workflow's options: `o.workflow` with the command line's problem, model, method, hold
/// and loss parsed into it (the sensorless problem is always rotary). Throws
/// std::invalid_argument / identify::FitError for values that are not accepted.
workflows::FitOptions workflow_options(const FitOptions& o);

/// "%.5g", or "-" for a value that is not finite.
std::string fmt(double x);

}  // namespace frictionlab::cli
