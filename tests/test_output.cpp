// io/output.hpp: all-or-nothing output files, and the checks of output locations. The truth is
// the file system itself: what is on disk after a write that failed (nothing new, the previous
// content intact, no temporary file left) or succeeded (exactly the text written).
#include "frictionlab/io/output.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "frictionlab/io/csv.hpp"

namespace fs = std::filesystem;
using frictionlab::io::InputError;
using frictionlab::io::NamedPath;
using frictionlab::io::OutputFiles;

namespace {

class OutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("frictionlab_test_output_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string path(const std::string& name) const { return (dir / name).string(); }
  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void put(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
  }
  // Every entry of `d` (recursively), as relative paths.
  std::vector<std::string> entries(const fs::path& d) const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(d))
      out.push_back(fs::relative(e.path(), d).string());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir;
};

// A message of an InputError thrown by f, or "" if none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(OutputTest, WriteReplacesWholeFileAndLeavesNoTemporary) {
  put(path("a.txt"), "old content that is longer than the new one\n");
  frictionlab::io::write_file_atomic(path("a.txt"), "new\n");
  EXPECT_EQ(slurp(path("a.txt")), "new\n");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"a.txt"});
}

TEST_F(OutputTest, SetIsInvisibleUntilCommit) {
  put(path("b.txt"), "previous b\n");
  {
    OutputFiles files;
    files.write(path("a.txt"), "A");
    files.write(path("sub/b.txt"), "B");
    files.write(path("b.txt"), "new b");
    // Nothing is in place before commit: a.txt does not exist, b.txt is unchanged.
    EXPECT_FALSE(fs::exists(path("a.txt")));
    EXPECT_EQ(slurp(path("b.txt")), "previous b\n");
    files.commit();
    EXPECT_EQ(files.paths(),
              (std::vector<std::string>{path("a.txt"), path("sub/b.txt"), path("b.txt")}));
  }
  EXPECT_EQ(slurp(path("a.txt")), "A");
  EXPECT_EQ(slurp(path("sub/b.txt")), "B");
  EXPECT_EQ(slurp(path("b.txt")), "new b");
  EXPECT_EQ(entries(dir), (std::vector<std::string>{"a.txt", "b.txt", "sub", "sub/b.txt"}));
}

TEST_F(OutputTest, FailureMidwayLeavesPreviousContentAndNoTemporaries) {
  put(path("a.txt"), "previous a\n");
  put(path("blocker"), "a regular file where a directory is needed\n");
  const auto before = entries(dir);
  const std::string msg = error_of([&] {
    OutputFiles files;
    files.write(path("a.txt"), "new a");           // written to its temporary
    files.write(path("new/deeper/c.txt"), "c");    // creates new/ and new/deeper/
    files.write(path("blocker/b.txt"), "fails");   // ENOTDIR: the set fails midway
    files.commit();
  });
  EXPECT_EQ(msg, path("blocker/b.txt") + ": cannot write: Not a directory");
  EXPECT_EQ(slurp(path("a.txt")), "previous a\n");
  EXPECT_EQ(entries(dir), before);  // no temporary file, no created directory left
}

TEST_F(OutputTest, DirectoryTargetIsRefusedBeforeAnythingIsRenamed) {
  fs::create_directories(path("model.json"));
  put(path("fit.json"), "previous fit\n");
  const std::string msg = error_of([&] {
    OutputFiles files;
    files.write(path("fit.json"), "new fit");
    files.write(path("model.json"), "{}");
    files.commit();
  });
  EXPECT_EQ(msg, path("model.json") + ": is a directory, not a file");
  EXPECT_EQ(slurp(path("fit.json")), "previous fit\n");
  EXPECT_EQ(entries(dir), (std::vector<std::string>{"fit.json", "model.json"}));
}

TEST_F(OutputTest, ProtectedInputIsNeverReplaced) {
  put(path("in.json"), "input\n");
  fs::create_symlink(path("in.json"), path("link.json"));
  const std::string msg = error_of([&] {
    OutputFiles files;
    files.protect({{"--init", path("in.json")}});
    files.write(path("other.json"), "x");
    files.write(path("link.json"), "y");
    files.commit();
  });
  EXPECT_EQ(msg, path("link.json") + ": the output is the input " + path("in.json") +
                     " (--init); writing it would replace the input (choose another output path)");
  EXPECT_EQ(slurp(path("in.json")), "input\n");
  EXPECT_FALSE(fs::exists(path("other.json")));
}

TEST_F(OutputTest, SymbolicLinkTargetIsReplacedAndLinkKept) {
  put(path("real.csv"), "old\n");
  fs::create_symlink("real.csv", path("link.csv"));
  frictionlab::io::write_file_atomic(path("link.csv"), "new\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("link.csv"))));
  EXPECT_EQ(slurp(path("real.csv")), "new\n");
}

TEST_F(OutputTest, ModeOfReplacedFileIsKept) {
  put(path("x.sh"), "old\n");
  fs::permissions(path("x.sh"), fs::perms::owner_all | fs::perms::group_read);
  frictionlab::io::write_text_file(path("x.sh"), "new\n");
  EXPECT_EQ(fs::status(path("x.sh")).permissions(), fs::perms::owner_all | fs::perms::group_read);
}

TEST_F(OutputTest, SameFileSeesThroughLinksDotsAndHardLinks) {
  put(path("a.csv"), "t\n");
  fs::create_symlink(path("a.csv"), path("s.csv"));
  fs::create_hard_link(path("a.csv"), path("h.csv"));
  using frictionlab::io::same_file;
  EXPECT_TRUE(same_file(path("a.csv"), path("s.csv")));
  EXPECT_TRUE(same_file(path("a.csv"), path("h.csv")));
  EXPECT_TRUE(same_file(path("a.csv"), (dir / "." / "sub" / ".." / "a.csv").string()));
  EXPECT_TRUE(same_file(path("new.csv"), (dir / "x" / ".." / "new.csv").string()));
  EXPECT_FALSE(same_file(path("a.csv"), path("b.csv")));
  EXPECT_FALSE(same_file("-", "-"));
}

TEST_F(OutputTest, OutputThatIsAnInputNamesBoth) {
  put(path("same.csv"), "t,v\n");
  const std::string msg = error_of([&] {
    frictionlab::io::check_outputs_not_inputs({{"--model", path("m.json")},
                                               {"--input", path("same.csv")}},
                                              {{"--output", path("same.csv")}});
  });
  EXPECT_EQ(msg, path("same.csv") + ": the output (--output) is the input " + path("same.csv") +
                     " (--input); writing it would replace the input (choose another output path)");
  EXPECT_EQ(error_of([&] {
              frictionlab::io::check_outputs_not_inputs({{"--input", path("same.csv")}},
                                                        {{"--output", "-"}});
            }),
            "");
}

TEST_F(OutputTest, TwoOutputsOnStandardOutputAreAnError) {
  EXPECT_EQ(error_of([] {
              frictionlab::io::check_outputs_distinct({{"--output", "-"}, {"--plot", "-"}});
            }),
            "standard output: two outputs go to it (--output - and --plot -); write one of them "
            "to a file");
  EXPECT_EQ(error_of([&] {
              frictionlab::io::check_outputs_distinct(
                  {{"--output", path("o.csv")}, {"--plot", path("o.csv")}});
            }),
            path("o.csv") + ": the output (--plot) is also the output " + path("o.csv") +
                " (--output); give each output its own path");
}

TEST_F(OutputTest, OutputFileLocationChecks) {
  using frictionlab::io::check_output_file;
  put(path("file"), "x");
  fs::create_directories(path("d"));
  EXPECT_EQ(error_of([&] { check_output_file(path("d")); }),
            path("d") + ": is a directory, not a file");
  EXPECT_EQ(error_of([&] { check_output_file(path("missing/o.csv")); }),
            path("missing/o.csv") + ": the directory " + path("missing") + " does not exist");
  EXPECT_EQ(error_of([&] { check_output_file(path("file/o.csv")); }),
            path("file/o.csv") + ": " + path("file") + " is not a directory");
  EXPECT_EQ(error_of([&] { check_output_file(path("o.csv")); }), "");
  EXPECT_EQ(error_of([&] { check_output_file("-"); }), "");
  EXPECT_TRUE(entries(dir) == (std::vector<std::string>{"d", "file"}));  // checks write nothing
}

TEST_F(OutputTest, OutputDirectoryLocationChecks) {
  using frictionlab::io::check_output_directory;
  put(path("file"), "x");
  EXPECT_EQ(error_of([&] { check_output_directory(path("file")); }),
            path("file") + ": is a file, not a directory");
  EXPECT_EQ(error_of([&] { check_output_directory(path("file/sub")); }),
            path("file/sub") + ": cannot create it: " + path("file") + " is not a directory");
  EXPECT_EQ(error_of([&] { check_output_directory(path("new/deeper")); }), "");
  EXPECT_EQ(error_of([&] { check_output_directory(dir.string()); }), "");
  EXPECT_FALSE(fs::exists(path("new")));  // checking creates nothing
}

}  // namespace
