// CSV reader and writer (io/csv.hpp): every error case with its exact FILE:LINE:COLUMN, the
// accepted variants (comments, quotes, CRLF, BOM, trailing blank lines), and the bit-exact
// write -> read round trip.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"

namespace frictionlab::io {
namespace {

// A text that parse_csv must reject, as "in.csv", with an InputError at (line, column) whose
// message is exactly "in.csv[:line[:column]]: <detail>" with `detail_part` inside the detail.
struct BadCsv {
  const char* group;  // what is wrong (the test name is <group>_<index>)
  const char* text;
  long line;
  long column;
  const char* detail_part;
};

const BadCsv kBadCsv[] = {
    {"EmptyFileAndNoHeader", "", 0, 0, "empty file: expected a header line"},
    {"EmptyFileAndNoHeader", "# only a comment\n\n   \n# another\n", 0, 0, "no header line"},
    {"BadColumnNames", "t,v,t\n", 1, 3, "duplicate column name 't' (also column 1)"},
    {"BadColumnNames", "t,,v\n", 1, 2, "empty column name"},
    {"BadColumnNames", "t, \"\" ,v\n", 1, 2, "empty column name"},
    {"BadColumnNames", "t,   \n0,1\n", 1, 2, "empty column name"},
    {"BadColumnNames", "\"t,v\n", 1, 1, "unterminated quote"},
    {"BadColumnNames", "t,v\"x\n", 1, 2, "stray quote"},
    {"BadColumnNames", "# c\n\"t\",\"t\"\n", 2, 2, "duplicate column name 't'"},
    {"WrongFieldCount", "t,v\n0,1\n1\n", 3, 2, "expected 2 fields (t, v), found 1"},
    {"WrongFieldCount", "t,v\n0,1\n1,2,3\n", 3, 3, "expected 2 fields (t, v), found 3"},
    {"WrongFieldCount", "t,v\n0,1\n1,2,\n", 3, 3, "found 3"},
    {"WrongFieldCount", "t,v\n1,5\n1,5,0\n", 3, 3, "found 3"},
    {"EmptyCells", "t,v\n0,\n", 2, 2, "empty cell (column 'v')"},
    {"EmptyCells", "t,v\n0,1\n ,2\n", 3, 1, "empty cell (column 't')"},
    {"EmptyCells", "t,v\r\n0,1\r\n1,\t\r\n", 3, 2, "empty cell (column 'v')"},
    {"NonNumericCells", "t,v\n0,1.0abc\n", 2, 2, "not a number: '1.0abc' (column 'v')"},
    {"NonNumericCells", "t,v\n0,abc\n", 2, 2, "not a number: 'abc'"},
    {"NonNumericCells", "t,v\n0,1\n1,0x10\n", 3, 2, "not a number: '0x10'"},
    {"NonNumericCells", "t,v\n0,1 2\n", 2, 2, "not a number: '1 2'"},
    {"NonNumericCells", "t,v\n0,+-1\n", 2, 2, "not a number: '+-1'"},
    {"NonNumericCells", "t,v\n0,+\n", 2, 2, "not a number: '+'"},
    {"NonNumericCells", "t,v\n0,\"1\"\n", 2, 2, "not a number: '\"1\"'"},
    {"NonNumericCells", "t,v\n0,1e\n", 2, 2, "not a number: '1e'"},
    {"NonNumericCells", "t,v\n0,1\n1,2\n2,--3\n", 4, 2, "not a number"},
    {"NonFiniteCells", "t,v\n0,nan\n", 2, 2, "non-finite value 'nan' (column 'v')"},
    {"NonFiniteCells", "t,v\n0,NaN\n", 2, 2, "non-finite value 'NaN'"},
    {"NonFiniteCells", "t,v\n0,inf\n", 2, 2, "non-finite value 'inf'"},
    {"NonFiniteCells", "t,v\n-Infinity,0\n", 2, 1, "non-finite value '-Infinity' (column 't')"},
    {"NonFiniteCells", "t,v\n0,1e999\n", 2, 2, "number out of the range of double: '1e999'"},
    {"NonFiniteCells", "t,v\n0,-1e400\n", 2, 2, "out of the range"},
    {"BlankAndCommentLinesInsideTheData", "t,v\n0,1\n\n1,2\n", 3, 0, "blank line inside the data"},
    {"BlankAndCommentLinesInsideTheData", "t,v\n0,1\n   \n\n1,2\n", 3, 0,
     "blank line inside the data"},
    {"BlankAndCommentLinesInsideTheData", "t,v\n0,1\n# note\n1,2\n", 3, 0,
     "comment lines are allowed only before the header"},
    // Quoted input is printable: a tab, DEL and a byte that is not UTF-8 are written \xNN.
    {"PrintableQuotes", "t,v\n0,1\x7F\n", 2, 2, "not a number: '1\\x7F' (column 'v')"},
    {"PrintableQuotes",
     "t,v\n0,\xFF\xFE"
     "1\n",
     2, 2, "not a number: '\\xFF\\xFE1'"},
    {"PrintableQuotes", "t\tv\n0\t1\n", 1, 0, "one column named 't\\x09v'"},
    {"PrintableQuotes",
     "t,v\n0,1\xE2\x80\xAE"
     "2\n",
     2, 2, "'1\\xE2\\x80\\xAE2'"},  // U+202E
};

class CsvReadError : public ::testing::TestWithParam<BadCsv> {};

TEST_P(CsvReadError, NamesTheFileLineAndColumn) {
  const BadCsv& c = GetParam();
  try {
    (void)parse_csv(c.text, "in.csv");
    ADD_FAILURE() << "no error for:\n" << c.text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "in.csv");
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_EQ(e.column(), c.column) << e.what();
    std::string prefix = "in.csv";
    if (c.line > 0) prefix += ":" + std::to_string(c.line);
    if (c.line > 0 && c.column > 0) prefix += ":" + std::to_string(c.column);
    EXPECT_EQ(std::string(e.what()), prefix + ": " + e.detail());
    EXPECT_NE(e.detail().find(c.detail_part), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << c.detail_part;
  }
}

INSTANTIATE_TEST_SUITE_P(CsvRead, CsvReadError, ::testing::ValuesIn(kBadCsv),
                         [](const ::testing::TestParamInfo<BadCsv>& c) {
                           return std::string(c.param.group) + "_" + std::to_string(c.index);
                         });

// Binary texts are refused as a whole, naming what they look like (io::require_text).
TEST(CsvRead, BinaryTextIsRefusedAsAWhole) {
  const std::pair<std::string, std::string> cases[] = {
      {std::string("t,v\n0\0,1\n", 10),
       "in.csv: looks like a binary file (a NUL byte at byte 6), not CSV text; frictionlab reads "
       "CSV files as UTF-8 text"},
      {std::string("MATLAB 5.0 MAT-file, Platform: posix\0\0\x01IM", 42),
       "in.csv: looks like a binary file (MATLAB .mat?), not CSV text; a MATLAB record is read "
       "as one when its name ends in .mat"},
      {std::string("\x89HDF\r\n\x1A\n\0\0", 10),
       "in.csv: looks like a binary file (HDF5: a MATLAB v7.3 .mat?), not CSV text; a MATLAB "
       "record is read as one when its name ends in .mat"},
      {std::string("\x1F\x8B\x08\0", 4), "in.csv: looks like a binary file (gzip-compressed?)"},
      {std::string("\xFF\xFEt\0,\0v\0", 8), "in.csv: is UTF-16 text"}};
  for (const auto& [text, message] : cases) {
    try {
      (void)parse_csv(text, "in.csv");
      ADD_FAILURE() << message;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).substr(0, message.size()), message);
      EXPECT_EQ(e.line(), 0);
    }
  }
  // A NUL beyond the first KiB: the text is read and the cell quoted, \x00 in the message.
  std::string late = "t,v\n";
  while (late.size() < 1100) late += "0,1\n";
  late += std::string("1,2\0\n", 5);
  try {
    (void)parse_csv(late, "in.csv");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":2: not a number: '2\\x00' (column 'v')"),
              std::string::npos)
        << e.what();
  }
  // "MATLAB" as a column name is not a MATLAB header.
  EXPECT_EQ(parse_csv("MATLAB,t\n1,2\n", "in.csv").names[0], "MATLAB");
}

TEST(CsvRead, QuotedInputIsPrintableAndBounded) {
  EXPECT_EQ(quote_text(std::string("a\0b", 3)), "'a\\x00b'");
  EXPECT_EQ(quote_text("caf\xC3\xA9"), "'caf\xC3\xA9'");       // valid UTF-8 kept
  EXPECT_EQ(quote_text("\xC0\xAF"), "'\\xC0\\xAF'");           // overlong '/'
  EXPECT_EQ(quote_text("\xED\xA0\x80"), "'\\xED\\xA0\\x80'");  // a surrogate
  EXPECT_EQ(quote_text("\xC2\x85"), "'\\xC2\\x85'");           // C1 control NEL
  EXPECT_EQ(quote_text(std::string(100, 'a')), "'" + std::string(60, 'a') + "...'");
  const std::string long_binary(1000, '\x01');
  EXPECT_LE(quote_text(long_binary).size(), 60u + 5u);
  // a multi-byte character is never cut in its middle
  std::string accents;
  for (int i = 0; i < 40; ++i) accents += "\xC3\xA9";
  EXPECT_EQ(printable_text(accents), accents.substr(0, 60) + "...");
  EXPECT_EQ(join_names({"a", "b"}), "a, b");
  std::vector<std::string> many;
  for (int i = 0; i < 20; ++i) many.push_back("c" + std::to_string(i));
  EXPECT_EQ(join_names(many), "c0, c1, c2, c3, c4, c5, c6, c7, ... and 12 more");
  // every InputError is printable line by line, newlines kept
  const InputError e("f.csv", 2, 0, std::string("x\0y\nz\x1B[31m", 10));
  EXPECT_EQ(std::string(e.what()), "f.csv:2: x\\x00y\nz\\x1B[31m");
  EXPECT_EQ(e.detail(), "x\\x00y\nz\\x1B[31m");
}

// A header of 1,000,000 columns is read in linear time (a hash set finds duplicates; CTest's
// timeout catches a quadratic scan, about 110 s before) and every message naming its columns
// stays short.
TEST(CsvRead, AMillionColumnHeaderIsLinearAndItsMessagesShort) {
  constexpr int kColumns = 1'000'000;
  std::string header;
  for (int i = 0; i < kColumns; ++i) header += (i ? ",c" : "c") + std::to_string(i);
  const CsvTable t = parse_csv(header + "\n", "w.csv");
  ASSERT_EQ(t.names.size(), static_cast<std::size_t>(kColumns));
  const std::string missing =
      frictionlab::testing::message_of<InputError>([&] { (void)t.index("v"); });
  EXPECT_LT(missing.size(), 1000u) << missing.substr(0, 2000);
  EXPECT_NE(missing.find("c7, ... and 999992 more)"), std::string::npos) << missing;
  const std::string short_row = frictionlab::testing::message_of<InputError>(
      [&] { (void)parse_csv(header + "\n1,2\n", "w.csv"); });
  EXPECT_LT(short_row.size(), 1000u);
  EXPECT_NE(short_row.find("w.csv:2:3: expected 1000000 fields (c0, "), std::string::npos);
  const std::string duplicate = frictionlab::testing::message_of<InputError>(
      [&] { (void)parse_csv(header + ",c999999\n", "w.csv"); });
  EXPECT_EQ(duplicate, "w.csv:1:1000001: duplicate column name 'c999999' (also column 1000000)");
}

TEST(CsvRead, MissingColumnListsTheColumnsFound) {
  const CsvTable t = parse_csv("# c1\n# c2\nt, v\n0,1\n", "in.csv");
  EXPECT_EQ(t.header_line, 3);
  try {
    (void)t.column("x");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "in.csv:3: no column 'x' (columns found: t, v)");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 0);
  }
}

TEST(CsvRead, StrictlyIncreasingTime) {
  const CsvTable t = parse_csv("t,v\n0,1\n1,2\n1,3\n2,4\n", "in.csv");
  try {
    require_strictly_increasing(t, "t");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "in.csv:4:1: column 't' must be strictly increasing: 1 follows 1 (line 3)");
  }
  // Time in the second column, a decrease after comment lines: line and field of the violation.
  const CsvTable u = parse_csv("# c\nv,t\n0,0.5\n1,0.25\n", "in.csv");
  try {
    require_strictly_increasing(u, "t");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.column(), 2);
    EXPECT_NE(std::string(e.what()).find("0.25 follows 0.5 (line 3)"), std::string::npos);
  }
  EXPECT_NO_THROW(require_strictly_increasing(parse_csv("t\n0\n1e-9\n2\n", "in.csv"), "t"));
  EXPECT_THROW(require_strictly_increasing(t, "time"), InputError);  // missing column
}

TEST(CsvRead, AcceptedVariants) {
  // BOM, comments and blank lines before the header, quoted names with spaces around, CRLF,
  // whitespace around numbers, leading '+', exponents, -0, trailing blank lines, no final EOL.
  const std::string text =
      "\xEF\xBB\xBF# exported\r\n\r\n  # more\r\n \"t\" ,\t\"v\"\r\n 0 , +1.5\r\n1e-3,-0\r\n"
      "2.5,  -2E+2\r\n\r\n  \r\n";
  const CsvTable t = parse_csv(text, "in.csv");
  ASSERT_EQ(t.names, (std::vector<std::string>{"t", "v"}));
  EXPECT_EQ(t.header_line, 4);
  ASSERT_EQ(t.rows(), 3u);
  EXPECT_EQ(t.row_lines, (std::vector<long>{5, 6, 7}));
  EXPECT_EQ(t.column("t"), (std::vector<double>{0, 1e-3, 2.5}));
  EXPECT_EQ(t.column("v"), (std::vector<double>{1.5, 0, -200}));
  EXPECT_TRUE(std::signbit(t.column("v")[1]));

  const CsvTable u = parse_csv("t,v\n0,1\n1,2", "in.csv");  // no final newline
  EXPECT_EQ(u.rows(), 2u);
  const CsvTable h = parse_csv("a,b,c\n", "in.csv");  // header only: no rows, not an error
  EXPECT_EQ(h.rows(), 0u);
  EXPECT_EQ(h.columns.size(), 3u);
}

TEST(CsvRead, NothingIsDropped) {
  std::string text = "t,v\n";
  for (int k = 0; k < 1000; ++k) text += std::to_string(k) + "," + std::to_string(2 * k) + "\n";
  const CsvTable t = parse_csv(text, "in.csv");
  ASSERT_EQ(t.rows(), 1000u);
  for (int k = 0; k < 1000; ++k) {
    EXPECT_EQ(t.columns[0][static_cast<std::size_t>(k)], k);
    EXPECT_EQ(t.row_lines[static_cast<std::size_t>(k)], k + 2);
  }
}

// Only regular files are read, and none above its kind's limit (require_input_file).
TEST(CsvRead, OnlyRegularFilesWithinTheLimitAreRead) {
  namespace fs = std::filesystem;
  using frictionlab::testing::message_of;
  EXPECT_EQ(message_of<InputError>([] { (void)read_csv("/dev/zero"); }),
            "/dev/zero: is a character device, not a regular file: expected a CSV file "
            "(frictionlab reads its inputs from regular files, not from devices, pipes or "
            "sockets)");
  const fs::path dir =
      fs::temp_directory_path() / ("frictionlab_test_csv_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub.csv");
  EXPECT_EQ(message_of<InputError>([&] { (void)read_csv((dir / "sub.csv").string()); }),
            (dir / "sub.csv").string() + ": is a directory, expected a CSV file");
  // A FIFO is refused before it is opened (an open would wait for a writer for ever).
  const std::string fifo = (dir / "pipe.csv").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(message_of<InputError>([&] {
              (void)read_csv(fifo);
            }).find(": is a FIFO (named pipe), not a regular file: expected a CSV file"),
            std::string::npos);
  // Sizes: sparse files just above each limit (no disk blocks written).
  const std::string big = (dir / "big.csv").string();
  std::ofstream(big) << "t,v\n";
  fs::resize_file(big, kMaxRecordFileBytes + 1);
  EXPECT_EQ(message_of<InputError>([&] { (void)read_csv(big); }),
            big +
                ": is 1073741825 bytes, more than the limit of 1 GiB (1073741824 bytes) for a "
                "CSV file (docs/file-formats.md, \"Limits\")");
  fs::resize_file(big, kMaxJsonFileBytes + 1);
  EXPECT_NE(message_of<InputError>([&] {
              (void)read_text_file(big, "a MODEL.json file");
            }).find("more than the limit of 256 MiB (268435456 bytes) for a MODEL.json file"),
            std::string::npos);
  fs::remove_all(dir);
}

TEST(CsvRead, UnreadableFile) {
  try {
    (void)read_csv("/nonexistent/dir/in.csv");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/dir/in.csv");
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TEST(CsvWrite, RoundTripIsBitExact) {
  std::vector<double> a = {0.0,
                           -0.0,
                           0.1,
                           1.0 / 3.0,
                           -2.5e-300,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(),
                           -std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::epsilon(),
                           123456789012345678.0,
                           316.227766};
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::uint64_t> any;
  std::vector<double> b;
  while (b.size() < a.size() + 5000) {
    const std::uint64_t r = any(rng);
    double x;
    std::memcpy(&x, &r, sizeof x);
    if (std::isfinite(x)) b.push_back(x);
  }
  std::uniform_real_distribution<double> u(-1, 1);
  a.resize(b.size());
  for (std::size_t i = 12; i < a.size(); ++i) a[i] = u(rng) * std::pow(10.0, u(rng) * 20);

  const auto dir = std::filesystem::temp_directory_path() / "frictionlab_test_csv";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "roundtrip.csv").string();
  write_csv(path, {"a", "b"}, {&a, &b});
  const CsvTable t = read_csv(path);
  ASSERT_EQ(t.names, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(t.rows(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(bits(t.columns[0][i]), bits(a[i])) << i << " " << format_exact(a[i]);
    ASSERT_EQ(bits(t.columns[1][i]), bits(b[i])) << i << " " << format_exact(b[i]);
  }
  std::filesystem::remove_all(dir);
}

TEST(CsvWrite, ShortestFormAndErrors) {
  EXPECT_EQ(format_exact(0.1), "0.1");
  EXPECT_EQ(format_exact(1e5), "1e+05");  // shortest form
  EXPECT_EQ(format_exact(123456.0), "123456");
  EXPECT_EQ(format_exact(-0.0), "-0");
  const std::vector<double> t = {0, 0.5}, v = {1, 2}, bad = {1, std::nan("")}, shorter = {1};
  EXPECT_EQ(format_csv({"t", "v"}, {&t, &v}), "t,v\n0,1\n0.5,2\n");
  EXPECT_THROW((void)format_csv({"t", "v"}, {&t, &bad}), std::invalid_argument);
  EXPECT_THROW((void)format_csv({"t", "v"}, {&t, &shorter}), std::invalid_argument);
  EXPECT_THROW((void)format_csv({"t"}, {&t, &v}), std::invalid_argument);
  EXPECT_THROW((void)format_csv({"t", "a,b"}, {&t, &v}), std::invalid_argument);
  EXPECT_THROW(write_csv("/nonexistent/dir/out.csv", {"t"}, {&t}), InputError);
}

}  // namespace
}  // namespace frictionlab::io
