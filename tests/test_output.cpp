// io/output.hpp: all-or-nothing output files, and the checks of output locations. The truth is
// the file system itself: what is on disk after a write that failed (nothing new, the previous
// content intact, no temporary file left) or succeeded (exactly the text written).
#include "frictionlab/io/output.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "expect_message.hpp"
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

// The message of an InputError thrown by f, or "no error" if none.
std::string error_of(const std::function<void()>& f) {
  return frictionlab::testing::message_or_no_error<InputError>(f);
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
    files.write(path("a.txt"), "new a");          // written to its temporary
    files.write(path("new/deeper/c.txt"), "c");   // creates new/ and new/deeper/
    files.write(path("blocker/b.txt"), "fails");  // ENOTDIR: the set fails midway
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
    frictionlab::io::check_outputs_not_inputs(
        {{"--model", path("m.json")}, {"--input", path("same.csv")}},
        {{"--output", path("same.csv")}});
  });
  EXPECT_EQ(msg, path("same.csv") + ": the output (--output) is the input " + path("same.csv") +
                     " (--input); writing it would replace the input (choose another output path)");
  EXPECT_EQ(error_of([&] {
              frictionlab::io::check_outputs_not_inputs({{"--input", path("same.csv")}},
                                                        {{"--output", "-"}});
            }),
            "no error");
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

TEST_F(OutputTest, TwoOutputsOnOneStreamAreAnError) {
  using frictionlab::io::check_outputs_distinct;
  using frictionlab::io::same_stream;
  // A pipe as the standard output, as under a shell's `| cmd`: "-", /dev/stdout and /dev/fd/1
  // are that pipe; another pipe is another stream.
  int out[2], other[2];
  ASSERT_EQ(::pipe(out), 0);
  ASSERT_EQ(::pipe(other), 0);
  const int saved = ::dup(STDOUT_FILENO);
  ASSERT_GE(::dup2(out[1], STDOUT_FILENO), 0);
  const std::string other_path = "/dev/fd/" + std::to_string(other[1]);
  EXPECT_TRUE(same_stream("-", "/dev/stdout"));
  EXPECT_TRUE(same_stream("/dev/fd/1", "-"));
  EXPECT_FALSE(same_stream("-", other_path));
  const std::string both = error_of([] {
    check_outputs_distinct({{"--output", "-"}, {"--plot", "/dev/stdout"}});
  });
  const std::string apart = error_of([&] {
    check_outputs_distinct({{"--output", "-"}, {"--plot", other_path}});
  });
  ::dup2(saved, STDOUT_FILENO);
  for (const int fd : {saved, out[0], out[1], other[0], other[1]}) ::close(fd);
  EXPECT_EQ(both,
            "/dev/stdout: the output (--plot) is the same stream as the output - (--output); the "
            "two would interleave on it: write one of them to a file");
  EXPECT_EQ(apart, "no error");
  // A FIFO named through a link is the FIFO; what goes to /dev/null is discarded, never mixed
  // (`--output - --plot /dev/stdout > /dev/null` passes).
  ASSERT_EQ(::mkfifo(path("f").c_str(), 0644), 0);
  fs::create_symlink(path("f"), path("l"));
  EXPECT_TRUE(same_stream(path("f"), path("l")));
  EXPECT_FALSE(same_stream("/dev/null", "/dev/null"));
}

TEST_F(OutputTest, FilesOfAResultsDirectoryAreCheckedBeforeTheWork) {
  using frictionlab::io::check_output_in_directory;
  put(path("file"), "x");
  fs::create_directories(path("o/model.json"));
  EXPECT_EQ(error_of([&] { check_output_in_directory(path("o/model.json"), "--out"); }),
            path("o/model.json") + ": is a directory, not a file");
  EXPECT_EQ(error_of([&] { check_output_in_directory(path("file/m/model.json")); }),
            path("file/m/model.json") + ": " + path("file/m") +
                ": cannot create it: " + path("file") + " is not a directory");
  EXPECT_EQ(error_of([&] { check_output_in_directory(path("new/m/model.json")); }), "no error");
  EXPECT_FALSE(fs::exists(path("new")));  // checking creates nothing
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
  EXPECT_EQ(error_of([&] { check_output_file(path("o.csv")); }), "no error");
  EXPECT_EQ(error_of([&] { check_output_file("-"); }), "no error");
  EXPECT_TRUE(entries(dir) == (std::vector<std::string>{"d", "file"}));  // checks write nothing
}

TEST_F(OutputTest, OutputDirectoryLocationChecks) {
  using frictionlab::io::check_output_directory;
  put(path("file"), "x");
  EXPECT_EQ(error_of([&] { check_output_directory(path("file")); }),
            path("file") + ": is a file, not a directory");
  EXPECT_EQ(error_of([&] { check_output_directory(path("file/sub")); }),
            path("file/sub") + ": cannot create it: " + path("file") + " is not a directory");
  EXPECT_EQ(error_of([&] { check_output_directory(path("new/deeper")); }), "no error");
  EXPECT_EQ(error_of([&] { check_output_directory(dir.string()); }), "no error");
  EXPECT_FALSE(fs::exists(path("new")));  // checking creates nothing
}

// ---- streams, links, read-only files, inputs read, signals ----

bool is_char_device(const char* p) {
  struct stat st {};
  return ::stat(p, &st) == 0 && S_ISCHR(st.st_mode);
}

TEST_F(OutputTest, FifoIsWrittenAsAStreamAndKept) {
  ASSERT_EQ(::mkfifo(path("f").c_str(), 0644), 0);
  const int reader = ::open(path("f").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  frictionlab::io::write_file_atomic(path("f"), "through the fifo\n");
  char buf[64] = {};
  const ssize_t n = ::read(reader, buf, sizeof buf);
  ::close(reader);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0), "through the fifo\n");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(path("f"))));
  EXPECT_EQ(entries(dir), std::vector<std::string>{"f"});  // no temporary file beside it
}

TEST_F(OutputTest, PipeNamedByDevFdIsWrittenAsAStream) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string p = "/dev/fd/" + std::to_string(fds[1]);
  EXPECT_TRUE(frictionlab::io::is_stream_output(p));
  EXPECT_NO_THROW(frictionlab::io::check_output_file(p));
  frictionlab::io::write_text_output(p, "piped\n");
  ::close(fds[1]);
  char buf[16] = {};
  const ssize_t n = ::read(fds[0], buf, sizeof buf);
  ::close(fds[0]);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0), "piped\n");
  // A descriptor that is not open is found by the check, before any work.
  EXPECT_NE(error_of([] {
              frictionlab::io::check_output_file("/dev/fd/987");
            }).find("/dev/fd/987: cannot write:"),
            std::string::npos);
}

TEST_F(OutputTest, DevNullStaysADeviceAndDevFullIsAWriteError) {
  ASSERT_TRUE(is_char_device("/dev/null"));
  frictionlab::io::write_file_atomic("/dev/null", "discarded\n");
  EXPECT_TRUE(is_char_device("/dev/null"));
  if (!is_char_device("/dev/full")) GTEST_SKIP() << "no /dev/full";
  EXPECT_EQ(error_of([] { frictionlab::io::write_file_atomic("/dev/full", "x\n"); }),
            "/dev/full: cannot write: No space left on device");
  EXPECT_TRUE(is_char_device("/dev/full"));
  EXPECT_TRUE(is_char_device("/dev/null"));
}

TEST_F(OutputTest, DanglingSymbolicLinkIsFollowedAndKept) {
  fs::create_symlink("new.csv", path("link.csv"));
  frictionlab::io::write_file_atomic(path("link.csv"), "through the link\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("link.csv"))));
  EXPECT_EQ(slurp(path("new.csv")), "through the link\n");
}

TEST_F(OutputTest, TwoOutputsThroughADanglingLinkAreOneFile) {
  fs::create_symlink("x.out", path("y.svg"));  // x.out does not exist yet
  EXPECT_TRUE(frictionlab::io::same_file(path("x.out"), path("y.svg")));
  EXPECT_NE(error_of([&] {
              frictionlab::io::check_outputs_distinct(
                  {{"--output", path("x.out")}, {"--plot", path("y.svg")}});
            }).find("is also the output"),
            std::string::npos);
}

TEST_F(OutputTest, ReadOnlyFileIsRefusedAndKept) {
  put(path("ro.csv"), "keep me\n");
  fs::permissions(path("ro.csv"),
                  fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string msg =
      path("ro.csv") + ": is read-only (no write permission); remove it or choose another path";
  EXPECT_EQ(error_of([&] { frictionlab::io::check_output_file(path("ro.csv")); }), msg);
  EXPECT_EQ(error_of([&] { frictionlab::io::write_file_atomic(path("ro.csv"), "new\n"); }), msg);
  EXPECT_EQ(slurp(path("ro.csv")), "keep me\n");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"ro.csv"});
}

// Process-wide switches: each runs in a child process (a death test), not in this one.
TEST_F(OutputTest, EveryInputReadIsProtected) {
  put(path("in.csv"), "t,v\n0,1\n");
  const std::string in = path("in.csv"), out = path("out.csv");
  EXPECT_EXIT(
      {
        frictionlab::io::protect_every_input_read();
        (void)frictionlab::io::read_text_file(in);
        const std::string w = error_of([&] { frictionlab::io::write_file_atomic(in, "x"); });
        frictionlab::io::check_output_file(out, "--output");
        const std::string r = error_of([&] { (void)frictionlab::io::read_text_file(out); });
        const bool ok = w == in + ": the output is the input " + in +
                                 "; writing it would replace the input (choose another output "
                                 "path)" &&
                        r.rfind(out + ": the output (--output) is the input " + out, 0) == 0;
        std::exit(ok ? 0 : 3);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_EQ(slurp(in), "t,v\n0,1\n");
}

TEST_F(OutputTest, SignalRemovesTheTemporaryFilesAndEndsTheProcess) {
  const std::string target = path("big.csv");
  EXPECT_EXIT(
      {
        frictionlab::io::remove_temp_files_on_signals();
        OutputFiles files;
        files.write(target, "written, not yet renamed\n");
        ::raise(SIGTERM);
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_TRUE(entries(dir).empty());
}

}  // namespace
