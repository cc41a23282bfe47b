// The inputs the fuzzers found (docs/fuzzing.md), fed through the same readers as the fuzz
// target that found them (fuzz/targets.hpp): fuzz/regressions/TARGET/NAME.error must be rejected
// with an io::InputError, NAME.ok accepted (every check of the target passing). Under the
// sanitizer build (scripts/test.sh --sanitize) a memory error or undefined behaviour fails the
// test as it failed the fuzzer. Also: every committed seed of fuzz/corpus/ goes through its
// target accepted or cleanly rejected (a seed may be meant for another reader of the target).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frictionlab/io/errors.hpp"
#include "targets.hpp"

namespace frictionlab::fuzz {
namespace {

namespace fs = std::filesystem;
const fs::path kFuzz = fs::path(FRICTIONLAB_SOURCE_DIR) / "fuzz";

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzRegressions, EveryFoundInputIsCleanlyRejectedOrAccepted) {
  const std::vector<fs::path> inputs = files_under(kFuzz / "regressions");
  ASSERT_FALSE(inputs.empty()) << "no regression inputs under " << kFuzz / "regressions";
  for (const fs::path& p : inputs) {
    SCOPED_TRACE(p.string());
    const std::string name = p.parent_path().filename().string();
    const Target& t = target(name);  // the folder names the target
    const std::string input = read_bytes(p);
    if (p.extension() == ".error") {
      EXPECT_THROW(t.run(input), io::InputError);
    } else {
      ASSERT_EQ(p.extension(), ".ok") << "a regression input is NAME.error or NAME.ok";
      EXPECT_NO_THROW(t.run(input));
    }
  }
}

TEST(FuzzRegressions, CommittedSeedsAreAcceptedOrCleanlyRejected) {
  const std::vector<fs::path> seeds = files_under(kFuzz / "corpus");
  ASSERT_FALSE(seeds.empty());
  for (const fs::path& p : seeds) {
    SCOPED_TRACE(p.string());
    const Target& t = target(p.parent_path().filename().string());
    EXPECT_NO_THROW(try { t.run(read_bytes(p)); } catch (const io::InputError&){});
  }
}

TEST(FuzzRegressions, UnknownTargetIsAnError) {
  EXPECT_THROW(target("no-such-target"), std::invalid_argument);
  EXPECT_EQ(&target("csv"), &targets().front());
}

}  // namespace
}  // namespace frictionlab::fuzz
