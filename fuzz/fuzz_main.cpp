// libFuzzer entry point of one target (fuzz/targets.hpp), chosen at compile time by
// FRICTIONLAB_FUZZ_TARGET (a string: the target's name). io::InputError is the expected outcome
// of a malformed input; any other exception escapes and libFuzzer reports it as a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frictionlab/io/errors.hpp"
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const frictionlab::fuzz::TargetFunction run =
      frictionlab::fuzz::target(FRICTIONLAB_FUZZ_TARGET).run;
  try {
    run(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const frictionlab::io::InputError&) {
    // a clean rejection
  }
  return 0;
}
