// frictionlab CLI: what `fit` and `compare` share: loading a record with the command line's
// channels, preprocessing and checks, and the identify::FitOptions the command line describes.
#pragma once

#include <string>

#include "commands.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/options.hpp"

namespace frictionlab::cli {

/// Read `path` with the channels of `o` (io::read_record), preprocess it (--resample,
/// --lowpass, --velocity-from-position) and check it (velocity and force; current for
/// --problem sensorless). Warnings of the check are printed on stderr. Throws io::InputError /
/// std::invalid_argument like the library calls.
data::Record load_record(const FitOptions& o, const std::string& path);

/// identify::FitOptions from the command line's problem, model, method, units, warm-up, starts
/// and loss; progress messages go to stderr. Throws std::invalid_argument / identify::FitError
/// for values that are not accepted.
identify::FitOptions identify_options(const FitOptions& o);

/// "%.5g", or "-" for a value that is not finite.
std::string fmt(double x);

}  // namespace frictionlab::cli
