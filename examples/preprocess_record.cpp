// Load a measured record, check it, and preprocess it: resample to a uniform 1 kHz grid,
// zero-phase low-pass at 20 Hz, and velocity from position by Savitzky-Golay
// (docs/preprocessing.md). Usage: preprocess_record [RECORD.csv|.mat]; default: the DFKI
// pendulum's gravity-compensation run in ../shared/data (real data, not redistributed here).
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/io/record_io.hpp"

int main(int argc, char** argv) {
  using namespace frictionlab;
  const std::string path = argc > 1
                               ? argv[1]
                               : std::string(FRICTIONLAB_SOURCE_DIR) +
                                     "/../shared/data/pendulum_dfki/gravcomp_data_measured.csv";
  if (argc <= 1 && !std::filesystem::exists(path)) {
    std::printf("no record at %s: nothing to do\n", path.c_str());
    return 0;
  }
  try {
    data::Record r =
        io::read_record(path, {.time = "time", .position = "position", .force = "torque"});
    const data::RecordReport rep =
        data::check_record(r, {.need_motion = true, .need_force = true, .needs_reversals = true});
    for (const auto& w : rep.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    // SG, window 21, cubic:
    r = data::preprocess(r, {.resample_rate = 1000,
                             .lowpass_cutoff = 20,
                             .derivatives = data::DerivativesFrom::position});
    std::printf("%s: %zu samples after preprocessing, velocity from position\n", path.c_str(),
                r.size());
    return r.velocity.size() == r.size() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
