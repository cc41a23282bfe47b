// frictionlab CLI: what `fit` and `compare` share: reading a record with the
// command line's channels, the workflow options the command line describes,
// progress on stderr, and the number format of their tables.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::cli {

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

/// identify::FitOptions from the command line's problem, model, method, units,
/// warm-up, starts and loss. Throws std::invalid_argument / identify::FitError
/// for values that are not accepted.
identify::FitOptions identify_options(const FitOptions& o);

/// --resample, --max-gap, --lowpass, --velocity-from-position.
data::PreprocessOptions preprocess_options(const FitOptions& o);

/// Progress messages as "frictionlab: MESSAGE" lines on stderr; never cancels.
workflows::Progress stderr_progress();

/// "frictionlab: warning: ..." for each warning (print_warning).
void print_warnings(const std::vector<std::string>& warnings);

/// "%.5g", or "-" for a value that is not finite.
std::string fmt(double x);

}  // namespace frictionlab::cli
