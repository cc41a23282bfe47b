// frictionlab fuzz targets (docs/fuzzing.md): one function per parser of the io layer, shared by
// the libFuzzer executables (fuzz_main.cpp) and the regression test of the inputs they found
// (tests/test_fuzz_regressions.cpp).
//
// A target feeds one input through a reader exactly as the CLI does (text + a file name, or, for
// .mat files, a file holding the bytes) and, where the reader accepts it, checks what it
// returned (finite numbers, consistent sizes, a round trip through the matching writer).
// A target returns normally when the input is accepted and lets io::InputError, the readers'
// documented error, propagate when it is rejected. Anything else is a finding: another
// exception type, a failed check (reported on stderr, then std::abort()), and everything the
// sanitizers report (memory errors, undefined behaviour, leaks) or libFuzzer does (a hang).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace frictionlab::fuzz {

using TargetFunction = void (*)(std::string_view input);

struct Target {
  const char* name;  ///< the executable is fuzz_NAME; its corpus fuzz/corpus/NAME
  const char* what;  ///< the formats and readers it covers
  TargetFunction run;
};

/// Every target, in the order scripts/fuzz.sh runs them.
const std::vector<Target>& targets();

/// The target called `name` (std::invalid_argument if there is none).
const Target& target(std::string_view name);

}  // namespace frictionlab::fuzz
