// frictionlab identify (private): Ceres's glog lines kept off the terminal.
//
// Ceres logs through glog, and some of its lines come at severity ERROR whatever
// Solver::Options::logging_type says ("Terminating: Residual and Jacobian evaluation failed.",
// raised by every solve whose start leaves the model's valid set). In a process that never
// initialised glog they reach stderr behind "WARNING: Logging before InitGoogleLogging() is
// written to STDERR", once per process: a fleet run's Dask workers each printed them. The
// library's messages already carry what they say (FitResult::termination holds Ceres's
// summary message).
//
// solve_quietly initialises glog once per process, unless the host program did (then its own
// settings stand): nothing to stderr below FATAL, no log files; and it captures the calling
// thread's lines of WARNING and above while the solve runs (a glog LogSink; Ceres's minimizer
// logs from the calling thread).
#pragma once

#include <string>
#include <vector>

#include <ceres/ceres.h>

namespace frictionlab::identify {

/// ceres::Solve(options, problem, summary) with its glog lines captured (header): the lines of
/// severity WARNING and above, in order.
std::vector<std::string> solve_quietly(const ceres::Solver::Options& options,
                                       ceres::Problem* problem, ceres::Solver::Summary* summary);

}  // namespace frictionlab::identify
