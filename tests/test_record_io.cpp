// Measured records: loading (io/record_io.hpp: CSV by column name or index, .mat v5 and v7.3
// via libmatio as named vectors or reference 000's 4xN / Nx4 matrix), every loader error message
// (file, line/column or variable), the record checks and report (data/checks.hpp) including the
// jitter of the real pendulum record, and record preprocessing (data/preprocess.hpp).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab {
namespace {

using io::InputError;
using io::MatClass;
using io::MatVariable;
using io::MatVersion;
using io::RecordSpec;

const std::string kPendulum = std::string(FRICTIONLAB_SOURCE_DIR) +
                              "/../shared/data/pendulum_dfki/gravcomp_data_measured.csv";

// One directory per test: CTest runs the tests of this file in parallel processes.
std::string temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path d = std::filesystem::path(FRICTIONLAB_BINARY_DIR) / "tests" /
                                  "record_io_tmp" /
                                  (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::create_directories(d);
  return d.string();
}

std::string temp_file(const std::string& name) { return temp_dir() + "/" + name; }

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The message of the InputError thrown by f ("(no error)" / "(other: ...)" otherwise).
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("(other: ") + e.what() + ")";
  }
  return "(no error)";
}

template <class F>
std::string invalid_argument(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return std::string("(InputError: ") + e.what() + ")";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// ---- CSV -------------------------------------------------------------------------------------

const char* const kCsv =
    "# pendulum excerpt\n"
    "time,position,velocity,torque\n"
    "0,0.1,1,0.5\n"
    "0.001,0.101,1.5,0.25\n"
    "0.002,0.1025,-2,-0.125\n";

TEST(RecordCsv, ByName) {
  const data::Record r = io::parse_record_csv(
      kCsv, "p.csv", {.time = "time", .velocity = "velocity", .force = "torque"});
  EXPECT_EQ(r.source, "p.csv");
  EXPECT_EQ(r.t, (std::vector<double>{0, 0.001, 0.002}));
  EXPECT_EQ(r.velocity, (std::vector<double>{1, 1.5, -2}));
  EXPECT_EQ(r.force, (std::vector<double>{0.5, 0.25, -0.125}));
  EXPECT_TRUE(r.position.empty());
  EXPECT_TRUE(r.current.empty());
}

TEST(RecordCsv, ByIndex) {
  const data::Record r =
      io::parse_record_csv(kCsv, "p.csv", {.time = "0", .position = "1", .force = "3"});
  EXPECT_EQ(r.t, (std::vector<double>{0, 0.001, 0.002}));
  EXPECT_EQ(r.position, (std::vector<double>{0.1, 0.101, 0.1025}));
  EXPECT_EQ(r.force, (std::vector<double>{0.5, 0.25, -0.125}));
  EXPECT_TRUE(r.velocity.empty());
  // names and indices mixed (the same column twice is an error: RecordCsv.Errors)
  const data::Record m =
      io::parse_record_csv(kCsv, "p.csv", {.time = "time", .velocity = "2", .force = "torque"});
  EXPECT_EQ(m.velocity, (std::vector<double>{1, 1.5, -2}));
  EXPECT_EQ(m.force, r.force);
}

TEST(RecordCsv, FromFileAndDispatch) {
  const std::string path = temp_file("rec.csv");
  write_text(path, kCsv);
  const data::Record r = io::read_record(path, {.time = "time", .velocity = "velocity"});
  EXPECT_EQ(r.source, path);
  EXPECT_EQ(r.velocity.size(), 3u);
  // unknown extension, text content -> CSV
  const std::string dat = temp_file("rec.dat");
  write_text(dat, kCsv);
  EXPECT_EQ(io::read_record(dat, {.time = "0", .velocity = "2"}).velocity, r.velocity);
}

TEST(RecordCsv, Errors) {
  // missing column: file, header line, the columns found
  EXPECT_EQ(
      input_error([] { io::parse_record_csv(kCsv, "p.csv", {.time = "time", .velocity = "v"}); }),
      "p.csv:2: no column 'v' (columns found: time, position, velocity, torque)");
  EXPECT_EQ(input_error([] { io::parse_record_csv(kCsv, "p.csv", {.time = "t"}); }),
            "p.csv:2: no column 't' (columns found: time, position, velocity, torque)");
  // index out of range
  EXPECT_EQ(input_error([] { io::parse_record_csv(kCsv, "p.csv", {.time = "0", .force = "4"}); }),
            "p.csv:2: column index 4 out of range: the file has 4 columns (0-based indices 0: "
            "time, 1: position, 2: velocity, 3: torque)");
  // time not strictly increasing: line and field of the first violation
  EXPECT_EQ(input_error([] {
              io::parse_record_csv("t,v\n0,1\n0.1,2\n0.1,3\n", "q.csv",
                                   {.time = "t", .velocity = "v"});
            }),
            "q.csv:4:1: column 't' must be strictly increasing: 0.1 follows 0.1 (line 3)");
  EXPECT_EQ(input_error([] {
              io::parse_record_csv("v,t\n1,0\n2,-1\n", "q.csv", {.time = "1", .velocity = "0"});
            }),
            "q.csv:3:2: column 't' must be strictly increasing: -1 follows 0 (line 2)");
  // the strict CSV rules apply (csv.hpp)
  EXPECT_EQ(input_error([] { io::parse_record_csv("t,v\n0,nan\n", "q.csv", {.time = "t"}); }),
            "q.csv:2:2: non-finite value 'nan' (column 'v')");
  // one column read as two channels (by name or index): the options name the same column
  EXPECT_EQ(input_error([] {
              io::parse_record_csv(kCsv, "p.csv",
                                   {.time = "time", .velocity = "velocity", .force = "2"});
            }),
            "p.csv:2: velocity and force name the same column 2 'velocity': each channel needs "
            "its own column");
  EXPECT_EQ(
      input_error([] { io::parse_record_csv(kCsv, "p.csv", {.time = "time", .position = "0"}); }),
      "p.csv:2: time and position name the same column 0 'time': each channel needs its "
      "own column");
  // file errors
  EXPECT_EQ(input_error([] { io::read_record_csv("/nonexistent/r.csv", {.time = "t"}); }),
            "/nonexistent/r.csv: cannot open: No such file or directory");
  // spec errors (std::invalid_argument, before the file is read)
  EXPECT_EQ(invalid_argument([] { io::read_record_csv("/nonexistent/r.csv", {.velocity = "v"}); }),
            "no time column given for /nonexistent/r.csv");
  EXPECT_EQ(invalid_argument([] { io::read_record_csv("r.csv", {.time = "t", .matrix = "data"}); }),
            "a matrix variable ('data') applies to .mat files only, not to the CSV file r.csv");
}

// Only regular files are read: a device or FIFO is refused before it is opened, also where
// the type of a file without a known extension is sniffed from its first bytes.
TEST(RecordCsv, DevicesAndFifosAreRefusedBeforeTheyAreOpened) {
  EXPECT_EQ(input_error([] { io::read_record("/dev/zero", {.time = "t"}); }),
            "/dev/zero: is a character device, not a regular file: expected a record file (.csv "
            "or .mat) (frictionlab reads its inputs from regular files, not from devices, pipes "
            "or sockets)");
  // no extension (sniffed), .csv and .mat: each refused before an open that would block
  for (const std::string name : {"pipe", "pipe.csv", "pipe.mat"}) {
    const std::string fifo = temp_file(name);
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string what =
        name.ends_with(".mat") ? "a MATLAB .mat file" : "a record file (.csv or .mat)";
    EXPECT_EQ(input_error([&] { io::read_record(fifo, {.time = "t"}); }),
              fifo + ": is a FIFO (named pipe), not a regular file: expected " + what +
                  " (frictionlab reads its inputs from regular files, not from devices, pipes "
                  "or sockets)");
  }
  const std::string dir = temp_file("runs");
  std::filesystem::create_directories(dir);
  EXPECT_EQ(input_error([&] { io::read_record(dir, {.time = "t"}); }),
            dir + ": is a directory, expected a record file (.csv or .mat)");
}

// A .mat file named .csv is named as one, not its header dumped as column names.
TEST(RecordCsv, MatFileNamedCsv) {
  const std::string mat = temp_file("rec.mat");
  io::write_mat(mat, {{"t", {1, 3}, {0, 1, 2}, {}, MatClass::double_array}}, MatVersion::v5);
  const std::string csv = temp_file("rec.csv");
  std::filesystem::copy_file(mat, csv, std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(input_error([&] { io::read_record(csv, {.time = "t"}); }),
            csv +
                ": looks like a binary file (MATLAB .mat?), not CSV text; a MATLAB record is "
                "read as one when its name ends in .mat");
}

// The column index message of a record of 1,000,000 columns lists 8 and counts the rest.
TEST(RecordCsv, WideHeaderMessagesAreShort) {
  std::string header;
  for (int i = 0; i < 1'000'000; ++i) header += (i ? ",c" : "c") + std::to_string(i);
  const std::string message =
      input_error([&] { io::parse_record_csv(header + "\n", "w.csv", {.time = "0"}); });
  EXPECT_EQ(message.substr(0, 40), "w.csv:1: the file has a header line (c0,");
  EXPECT_LT(message.size(), 1000u);
  std::string row = "0";
  for (int i = 1; i < 1'000'000; ++i) row += ",0";
  const std::string index = input_error([&] {
    io::parse_record_csv(header + "\n" + row + "\n", "w.csv", {.time = "0", .force = "1000000"});
  });
  EXPECT_NE(index.find("column index 1000000 out of range: the file has 1000000 columns "
                       "(0-based indices 0: c0, 1: c1, 2: c2, 3: c3, 4: c4, 5: c5, 6: c6, 7: "
                       "c7, ... and 999992 more)"),
            std::string::npos)
      << index.substr(0, 300);
}

// ---- .mat ------------------------------------------------------------------------------------

constexpr MatVersion kVersions[] = {MatVersion::v5, MatVersion::v73};

std::string vname(MatVersion v) { return v == MatVersion::v5 ? "v5" : "v73"; }

MatVariable row(const std::string& name, const std::vector<double>& x,
                MatClass c = MatClass::double_array) {
  return {name, {1, x.size()}, x, {}, c};
}
MatVariable column(const std::string& name, const std::vector<double>& x) {
  return {name, {x.size(), 1}, x, {}, MatClass::double_array};
}

// A small record: t, current i, velocity v, torque tau.
struct Channels {
  std::vector<double> t, i, v, tau;
};
Channels channels(std::size_t n) {
  Channels c;
  for (std::size_t k = 0; k < n; ++k) {
    const double t = 0.001 * static_cast<double>(k);
    c.t.push_back(t);
    c.i.push_back(0.1 + std::sin(7 * t));
    c.v.push_back(2 * std::cos(5 * t) - 0.3);
    c.tau.push_back(0.05 * static_cast<double>(k) - 1.0 / 3.0);
  }
  return c;
}

TEST(RecordMat, NamedVectorsRoundTrip) {
  const Channels c = channels(50);
  for (MatVersion ver : kVersions) {
    const std::string path = temp_file("named_" + vname(ver) + ".mat");
    std::vector<double> x_int = {0, 1, 2};
    io::write_mat(path,
                  {row("time", c.t), column("cur", c.i), row("vel", c.v), column("tau", c.tau),
                   row("label_like", {1, 2}, MatClass::int32_array)},
                  ver);
    EXPECT_EQ(io::mat_variable_names(path).size(), 5u);
    const data::Record r = io::read_record_mat(
        path, {.time = "time", .velocity = "vel", .current = "cur", .force = "tau"});
    EXPECT_EQ(r.source, path);
    EXPECT_EQ(r.t, c.t) << vname(ver);
    EXPECT_EQ(r.current, c.i) << vname(ver);
    EXPECT_EQ(r.velocity, c.v) << vname(ver);
    EXPECT_EQ(r.force, c.tau) << vname(ver);
    EXPECT_TRUE(r.position.empty());
    // dispatch by extension
    EXPECT_EQ(io::read_record(path, {.time = "time", .velocity = "vel"}).velocity, c.v);
  }
}

TEST(RecordMat, Version4NamedVectors) {
  const Channels c = channels(20);
  const std::string path = temp_file("named_v4.mat");
  io::write_mat(path, {row("t", c.t), column("F", c.tau)}, MatVersion::v4);
  const data::Record r = io::read_record(path, {.time = "t", .force = "F"});
  EXPECT_EQ(r.t, c.t);
  EXPECT_EQ(r.force, c.tau);
}

TEST(RecordMat, SingleAndIntegerClassesConvert) {
  for (MatVersion ver : kVersions) {
    const std::string path = temp_file("classes_" + vname(ver) + ".mat");
    io::write_mat(path,
                  {row("t", {0, 0.5, 1.25}, MatClass::single_array),
                   row("x", {-3, 7, 100000}, MatClass::int32_array)},
                  ver);
    const data::Record r = io::read_record_mat(path, {.time = "t", .position = "x"});
    EXPECT_EQ(r.t, (std::vector<double>{0, 0.5, 1.25}));
    EXPECT_EQ(r.position, (std::vector<double>{-3, 7, 100000}));
  }
}

TEST(RecordMat, MatrixLayouts4xNAndNx4) {
  const Channels c = channels(37);
  const std::size_t n = c.t.size();
  std::vector<double> m4n(4 * n), mn4(4 * n);  // column-major
  for (std::size_t k = 0; k < n; ++k) {
    const double row4[4] = {c.t[k], c.i[k], c.v[k], c.tau[k]};
    for (std::size_t ch = 0; ch < 4; ++ch) {
      m4n[ch + 4 * k] = row4[ch];  // 4 x N: element (ch, k)
      mn4[k + n * ch] = row4[ch];  // N x 4: element (k, ch)
    }
  }
  for (MatVersion ver : kVersions) {
    for (bool wide : {true, false}) {
      const std::string path = temp_file(std::string(wide ? "m4n_" : "mn4_") + vname(ver) + ".mat");
      const MatVariable data{"data",
                             wide ? std::vector<std::size_t>{4, n} : std::vector<std::size_t>{n, 4},
                             wide ? m4n : mn4,
                             {},
                             MatClass::double_array};
      // the only variable: found without any spec
      io::write_mat(path, {data}, ver);
      data::Record r = io::read_record_mat(path, {});
      EXPECT_EQ(r.t, c.t) << vname(ver) << wide;
      EXPECT_EQ(r.current, c.i);
      EXPECT_EQ(r.velocity, c.v);
      EXPECT_EQ(r.force, c.tau);
      EXPECT_TRUE(r.position.empty());
      // among other variables: by name
      io::write_mat(path, {row("notes", {1, 2, 3}), data}, ver);
      r = io::read_record(path, {.matrix = "data"});
      EXPECT_EQ(r.t, c.t) << vname(ver) << wide;
      EXPECT_EQ(r.force, c.tau);
    }
  }
}

// time_default is a default, not a choice: it does not select the named-vector layout (the
// matrix, by name or as the only variable, is read as without it), it stands in for an empty
// `time` when channels are named (.mat and CSV), and a `time` given with `matrix` stays an error.
TEST(RecordMat, TimeDefaultIsNotAChoice) {
  const Channels c = channels(23);
  const std::size_t n = c.t.size();
  std::vector<double> m4n(4 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const double row4[4] = {c.t[k], c.i[k], c.v[k], c.tau[k]};
    for (std::size_t ch = 0; ch < 4; ++ch) m4n[ch + 4 * k] = row4[ch];
  }
  const MatVariable data{"data", {4, n}, m4n, {}, MatClass::double_array};
  const std::string path = temp_file("time_default.mat");
  io::write_mat(path, {data}, MatVersion::v5);
  const data::Record alone = io::read_record_mat(path, {.time_default = "t"});
  EXPECT_EQ(alone.t, c.t);
  EXPECT_EQ(alone.force, c.tau);
  const data::Record named = io::read_record(path, {.matrix = "data", .time_default = "t"});
  EXPECT_EQ(named.t, c.t);
  EXPECT_EQ(named.current, c.i);
  EXPECT_EQ(invalid_argument([&] {
              io::read_record_mat(path, {.time = "t", .matrix = "data", .time_default = "t"});
            }),
            "give either a matrix variable ('data') or variable names per channel for " + path +
                ", not both");

  const std::string vectors = temp_file("time_default_vectors.mat");
  io::write_mat(vectors, {row("t", c.t), row("v", c.v)}, MatVersion::v5);
  const data::Record r = io::read_record_mat(vectors, {.velocity = "v", .time_default = "t"});
  EXPECT_EQ(r.t, c.t);
  EXPECT_EQ(r.velocity, c.v);
  EXPECT_EQ(invalid_argument([&] { io::read_record_mat(vectors, {.velocity = "v"}); }),
            "no time variable given for " + vectors);

  const data::Record csv =
      io::parse_record_csv("t,v\n0,1\n0.5,2\n", "d.csv", {.velocity = "v", .time_default = "t"});
  EXPECT_EQ(csv.t, (std::vector<double>{0, 0.5}));
  EXPECT_EQ(csv.velocity, (std::vector<double>{1, 2}));
  // A given time wins over the default.
  const data::Record given =
      io::parse_record_csv("s,t\n0,5\n0.5,6\n", "d.csv", {.time = "s", .time_default = "t"});
  EXPECT_EQ(given.t, (std::vector<double>{0, 0.5}));
}

// The InputError of reading `vars` written to a file of version `ver` with `spec`.
std::string mat_error(MatVersion ver, const std::vector<MatVariable>& vars, const RecordSpec& spec,
                      std::string& path) {
  path = temp_file("err_" + vname(ver) + ".mat");
  std::filesystem::remove(path);
  io::write_mat(path, vars, ver);
  return input_error([&] { io::read_record_mat(path, spec); });
}

TEST(RecordMat, NamedVectorErrors) {
  const RecordSpec spec{.time = "t", .velocity = "v"};
  const std::vector<double> t = {0, 1, 2, 3}, v = {1, 2, 3, 4};
  for (MatVersion ver : kVersions) {
    SCOPED_TRACE(vname(ver));
    std::string p;
    std::string e = mat_error(ver, {row("t", t), row("F", v)}, spec, p);
    EXPECT_TRUE(e == p + ": no variable 'v' (variables found: t, F)" ||
                e == p + ": no variable 'v' (variables found: F, t)")  // v7.3 lists sorted
        << e;
    e = mat_error(ver, {row("t", t), row("v", v)}, {.time = "t", .velocity = "v", .force = "v"}, p);
    EXPECT_EQ(e, p + ": velocity and force name the same variable 'v': each channel needs its "
                     "own variable");
    e = mat_error(ver, {row("t", t), row("v", {1, 0, 2, 0}, MatClass::char_array)}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': has class char; expected a real numeric array (double, "
                     "single or integer)");
    e = mat_error(ver, {row("t", t), row("v", {1, 0, 1, 1}, MatClass::logical_array)}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': has class logical; expected a real numeric array (double, "
                     "single or integer)");
    e = mat_error(ver, {row("t", t), row("v", v, MatClass::cell)}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': has class cell; expected a real numeric array (double, "
                     "single or integer)");
    e = mat_error(ver, {row("t", t), row("v", v, MatClass::structure)}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': has class struct; expected a real numeric array (double, "
                     "single or integer)");
    e = mat_error(ver, {row("t", t), MatVariable{"v", {1, 4}, v, {0, 1, 0, 0}}}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': is complex; expected real values");
    e = mat_error(ver, {row("t", t), row("v", {0, 1, 0, 2}, MatClass::sparse_double)}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': is sparse; store it as a full (dense) numeric array");
    e = mat_error(ver, {row("t", t), MatVariable{"v", {0, 0}, {}}}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': is empty (0x0)");
    e = mat_error(ver, {row("t", t), MatVariable{"v", {2, 2}, v}}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': is not a vector: 2x2 (expected 1xN or Nx1)");
    e = mat_error(ver, {row("t", t), MatVariable{"v", {1, 2, 2}, v}}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': is not a vector: 1x2x2 (expected 1xN or Nx1)");
    e = mat_error(ver, {row("t", t), row("v", {1, 2, std::nan(""), 4})}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': non-finite value NaN at element 3");
    e = mat_error(ver, {row("t", t), row("v", {1, -HUGE_VAL, 3, 4})}, spec, p);
    EXPECT_EQ(e, p + ": variable 'v': non-finite value -Inf at element 2");
    e = mat_error(ver, {row("t", {0, 1, 1, 2}), row("v", v)}, spec, p);
    EXPECT_EQ(e, p + ": variable 't': time must be strictly increasing: element 3 (1) follows "
                     "element 2 (1)");
    e = mat_error(ver, {row("t", t), row("v", {1, 2, 3})}, spec, p);
    EXPECT_EQ(e, p + ": variables of different lengths: 't' has 4 elements, 'v' has 3");
    e = mat_error(ver, {row("t", t), row("v", v)}, {.time = "t", .velocity = "1"}, p);
    EXPECT_TRUE(e == p + ": '1' is a column index; variables of a .mat file are chosen by name "
                         "(variables found: t, v)")
        << e;
    e = mat_error(ver, {row("t", t), row("v", v)}, {}, p);
    EXPECT_EQ(e, p + ": give the variable names of the channels or the matrix variable "
                     "(variables found: t, v)");
  }
}

TEST(RecordMat, MatrixErrors) {
  for (MatVersion ver : kVersions) {
    SCOPED_TRACE(vname(ver));
    std::string p;
    std::vector<double> m(16, 1.0);
    std::string e = mat_error(ver, {MatVariable{"data", {4, 4}, m}}, {}, p);
    EXPECT_EQ(e, p + ": variable 'data': is 4x4: the orientation (4xN or Nx4) is ambiguous with "
                     "N = 4 samples; store more samples");
    m.assign(15, 1.0);
    e = mat_error(ver, {MatVariable{"data", {3, 5}, m}}, {}, p);
    EXPECT_EQ(e, p + ": variable 'data': is 3x5: expected a 4xN or Nx4 matrix of time [s], "
                     "current [A], velocity [rad/s], torque [N m]");
    // 4 x 5: sample k in column k; NaN at velocity (row 3) of sample 2
    std::vector<double> w = {0, 1, 1,   1, 0.1, 1, std::nan(""), 1, 0.2, 1,
                             1, 1, 0.3, 1, 1,   1, 0.4,          1, 1,   1};
    e = mat_error(ver, {MatVariable{"data", {4, 5}, w}}, {}, p);
    EXPECT_EQ(e, p + ": variable 'data': non-finite value NaN at row 3, column 2 (velocity, "
                     "sample 2)");
    // 5 x 4: time in column 1, not increasing at sample 4
    std::vector<double> tall = {0, 0.1, 0.2, 0.2, 0.3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    e = mat_error(ver, {MatVariable{"data", {5, 4}, tall}}, {.matrix = "data"}, p);
    EXPECT_EQ(e, p + ": variable 'data': time (column 1) must be strictly increasing: sample 4 "
                     "(0.2) follows sample 3 (0.2)");
    e = mat_error(ver, {MatVariable{"data", {5, 4}, tall}}, {.matrix = "M"}, p);
    EXPECT_EQ(e, p + ": no variable 'M' (variables found: data)");
    e = mat_error(ver, {MatVariable{"data", {4, 5}, w, {}, MatClass::char_array}}, {}, p);
    EXPECT_EQ(e, p + ": variable 'data': has class char; expected a real numeric array (double, "
                     "single or integer)");
  }
}

TEST(RecordMat, FileAndSpecErrors) {
  EXPECT_EQ(input_error([] { io::read_record_mat("/nonexistent/r.mat", {}); }),
            "/nonexistent/r.mat: cannot open: No such file or directory");
  const std::string junk = temp_file("junk.mat");
  write_text(junk, "t,v\n0,1\n");
  EXPECT_EQ(input_error([&] { io::read_record_mat(junk, {.time = "t"}); }),
            junk +
                ": not a MATLAB .mat file (libmatio reads versions 4, 5 and 7.3) or it is "
                "damaged");
  EXPECT_EQ(
      invalid_argument([] { io::read_record_mat("r.mat", {.time = "t", .matrix = "d"}); }),
      "give either a matrix variable ('d') or variable names per channel for r.mat, not both");
  EXPECT_EQ(invalid_argument([] { io::read_record_mat("r.mat", {.velocity = "v"}); }),
            "no time variable given for r.mat");
  EXPECT_EQ(invalid_argument([] {
              io::write_mat(temp_file("w.mat"), {MatVariable{"x", {2, 2}, {1}}}, MatVersion::v5);
            }),
            "write_mat: variable 'x' has 1 values for 4 elements");
}

// ---- checks ----------------------------------------------------------------------------------

data::Record uniform_record(std::size_t n, double rate = 1000.0) {
  data::Record r;
  r.source = "rec.csv";
  for (std::size_t k = 0; k < n; ++k) {
    const double t = static_cast<double>(k) / rate;
    r.t.push_back(t);
    r.position.push_back(std::sin(2 * std::numbers::pi * t));  // 1 Hz
    r.velocity.push_back(2 * std::numbers::pi * std::cos(2 * std::numbers::pi * t));
    r.force.push_back(0.1 * t);
  }
  return r;
}

template <class F>
std::string record_error(F&& f, std::size_t* sample = nullptr) {
  try {
    f();
  } catch (const data::RecordError& e) {
    if (sample) *sample = e.sample();
    return e.what();
  }
  return "(no error)";
}

TEST(CheckRecord, Errors) {
  data::Record r = uniform_record(100);
  r.force.pop_back();
  EXPECT_EQ(record_error([&] { data::check_record(r); }),
            "rec.csv: channel 'force' has 99 samples, 'time' has 100 (every channel must have one "
            "value per time)");

  r = uniform_record(100);
  r.current.clear();
  EXPECT_EQ(record_error([&] { data::check_record(r, {.need_current = true}); }),
            "rec.csv: no current channel (required here; channels present: time, position, "
            "velocity, force; give its column with --current COLUMN; Python current=)");
  r.velocity.clear();
  r.position.clear();
  EXPECT_EQ(record_error([&] { data::check_record(r, {.need_motion = true}); }),
            "rec.csv: no velocity or position channel (required here; channels present: time, "
            "force; give its column with --velocity or --position COLUMN; Python velocity= or "
            "position=)");
  EXPECT_EQ(record_error([&] { data::check_record(data::Record{}); }),
            "record: no time channel (required here; channels present: none; give its column with "
            "--time COLUMN; Python time=)");

  r = uniform_record(19);
  EXPECT_EQ(record_error([&] { data::check_record(r); }),
            "rec.csv: the record has 19 samples; at least 20 are required");
  EXPECT_NO_THROW(data::check_record(r, {.min_samples = 19}));

  r = uniform_record(100);
  r.velocity[41] = std::numeric_limits<double>::quiet_NaN();
  std::size_t sample = 0;
  EXPECT_EQ(record_error([&] { data::check_record(r); }, &sample),
            "rec.csv: sample 42: non-finite value nan in channel 'velocity' (t = 0.041 s)");
  EXPECT_EQ(sample, 42u);
  r = uniform_record(100);
  r.t[7] = HUGE_VAL;
  EXPECT_EQ(record_error([&] { data::check_record(r); }),
            "rec.csv: sample 8: non-finite value inf in channel 'time'");

  r = uniform_record(100);
  r.t[30] = r.t[29];
  EXPECT_EQ(record_error([&] { data::check_record(r); }, &sample),
            "rec.csv: sample 31: time is not strictly increasing: t = 0.029 s follows t = 0.029 s "
            "(sample 30)");
  EXPECT_EQ(sample, 31u);
}

TEST(CheckRecord, ReportOfAUniformRecord) {
  const data::Record r = uniform_record(2001);  // 2 s at 1 kHz, 1 Hz sine: v changes sign 2x
  const data::RecordReport rep = data::check_record(r, {.needs_reversals = true});
  EXPECT_EQ(rep.samples, 2001u);
  EXPECT_NEAR(rep.duration, 2.0, 1e-12);
  EXPECT_NEAR(rep.sample_rate, 1000.0, 1e-6);
  EXPECT_NEAR(rep.dt_median, 1e-3, 1e-15);
  EXPECT_LT(rep.jitter_max, 1e-9);
  EXPECT_EQ(rep.channels, (std::vector<std::string>{"time", "position", "velocity", "force"}));
  // cos(2 pi t) changes sign at t = 0.25, 0.75, 1.25, 1.75
  EXPECT_EQ(rep.velocity_sign_changes, 4u);
  EXPECT_EQ(rep.velocity_reversals, 4u);
  EXPECT_FALSE(rep.motion_from_position);
  EXPECT_TRUE(rep.warnings.empty());
}

TEST(CheckRecord, Warnings) {
  data::Record r = uniform_record(200);  // 0.2 s of cos(2 pi t) > 0: no reversal
  data::RecordReport rep = data::check_record(r, {.needs_reversals = true});
  EXPECT_EQ(rep.velocity_sign_changes, 0u);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0],
            "rec.csv: velocity never changes sign: the dynamic parameters are not identifiable "
            "from this record");
  // static models do not need reversals
  EXPECT_TRUE(data::check_record(r).warnings.empty());

  // without velocity: from the position increments
  r.velocity.clear();
  rep = data::check_record(r, {.needs_reversals = true});
  EXPECT_TRUE(rep.motion_from_position);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0],
            "rec.csv: velocity (from the position increments) never changes sign: the dynamic "
            "parameters are not identifiable from this record");

  // sign changes only in the noise band
  r = uniform_record(200);
  for (std::size_t k = 0; k < r.velocity.size(); ++k)
    r.velocity[k] = k < 100 ? 1.0 : (k % 2 ? 1e-3 : -1e-3);
  rep = data::check_record(r, {.needs_reversals = true});
  EXPECT_GT(rep.velocity_sign_changes, 90u);
  EXPECT_EQ(rep.velocity_reversals, 0u);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0],
            "rec.csv: velocity changes sign only inside +-1% of its maximum |v| = 1 (noise at "
            "standstill): the dynamic parameters are not identifiable from this record");

  // zero velocity
  r.velocity.assign(r.t.size(), 0.0);
  rep = data::check_record(r);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0], "rec.csv: the velocity is zero everywhere");

  // jitter: one step of 3 ms in a 1 kHz record
  r = uniform_record(100);
  for (std::size_t k = 50; k < r.t.size(); ++k) r.t[k] += 2e-3;
  rep = data::check_record(r);
  EXPECT_NEAR(rep.jitter_max, 2.0, 1e-9);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0],
            "rec.csv: the sample step varies by up to 200% of its median 0.001 s (from 0.001 s to "
            "0.003 s, largest deviation before sample 51); Savitzky-Golay differentiation and "
            "low-pass filtering need a uniform rate: resample first (--resample HZ; Python "
            "resample_rate=HZ)");
}

TEST(CheckRecord, TimeUnitWarnings) {
  // A 10 s record at 100 Hz written in milliseconds: integer times 0, 10, ..., 10000.
  data::Record r;
  r.source = "ms.csv";
  for (int k = 0; k <= 1000; ++k) {
    r.t.push_back(10.0 * k);
    r.velocity.push_back(std::sin(0.001 * r.t.back()));
  }
  data::RecordReport rep = data::check_record(r);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0],
            "ms.csv: the time column looks like milliseconds: integer times, median sample step "
            "10 over 10000 (frictionlab expects seconds: read as seconds this is a 10000 s record "
            "sampled at 0.1 Hz; divide the time by 1000)");
  // Slower than 1 Hz without the millisecond pattern (a short span of integers, or fractions).
  r.t.resize(50);
  r.velocity.resize(50);
  for (std::size_t k = 0; k < r.t.size(); ++k) r.t[k] = 2.5 * static_cast<double>(k);
  rep = data::check_record(r);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_EQ(rep.warnings[0],
            "ms.csv: the median sample step 2.5 over 122.5 s is a sampling rate of 0.4 Hz, "
            "implausibly slow for friction identification: is the time column in seconds? "
            "(frictionlab expects seconds)");
  // 1 Hz exactly, and any faster rate, is not doubted.
  for (std::size_t k = 0; k < r.t.size(); ++k) r.t[k] = static_cast<double>(k);
  EXPECT_TRUE(data::check_record(r).warnings.empty());
}

TEST(CheckRecord, RealPendulumRecordJitter) {
  if (!std::filesystem::exists(kPendulum)) GTEST_SKIP() << "no shared data at " << kPendulum;
  const data::Record r = io::read_record_csv(
      kPendulum,
      {.time = "time", .position = "position", .velocity = "velocity", .force = "torque"});
  ASSERT_EQ(r.size(), 30000u);
  const data::RecordReport rep =
      data::check_record(r, {.need_motion = true, .need_force = true, .needs_reversals = true});
  std::printf(
      "[ measured ] gravcomp_data_measured.csv: %zu samples, %.4f s, median dt %.6g s "
      "(%.2f Hz), dt %.6g..%.6g s, jitter max %.3f, std %.4f, velocity sign changes %zu, "
      "reversals %zu\n",
      rep.samples, rep.duration, rep.dt_median, rep.sample_rate, rep.dt_min, rep.dt_max,
      rep.jitter_max, rep.jitter_std, rep.velocity_sign_changes, rep.velocity_reversals);
  // the published description: ~1 kHz, 30 s, steps 1.0 to 5.5 ms
  EXPECT_NEAR(rep.dt_median, 1.0e-3, 0.01e-3);
  EXPECT_NEAR(rep.dt_min, 1.0e-3, 0.01e-3);
  EXPECT_NEAR(rep.dt_max, 5.5e-3, 0.05e-3);
  EXPECT_NEAR(rep.duration, 30.0, 0.5);
  EXPECT_NEAR(rep.jitter_max, rep.dt_max / rep.dt_median - 1.0, 1e-12);
  EXPECT_GT(rep.jitter_max, 4.0);
  EXPECT_GT(rep.velocity_reversals, 0u);
  ASSERT_EQ(rep.warnings.size(), 1u);
  EXPECT_NE(rep.warnings[0].find("the sample step varies by up to"), std::string::npos);

  // Savitzky-Golay refuses the raw record and names the jitter; after resampling it works.
  try {
    (void)signal::differentiate(r.t, r.position);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Savitzky-Golay differentiation needs uniform sampling: "
                                         "the sample step varies by up to 44"),
              std::string::npos)
        << e.what();
  }
  const data::Record u = data::preprocess(r, {.resample_rate = 1000.0,
                                              .lowpass_cutoff = 20.0,
                                              .derivatives = data::DerivativesFrom::position});
  const data::RecordReport ur = data::check_record(u);
  EXPECT_LT(ur.jitter_max, 1e-9);
  EXPECT_TRUE(ur.warnings.empty());
  EXPECT_EQ(u.velocity.size(), u.t.size());
}

// ---- preprocessing ---------------------------------------------------------------------------

TEST(Preprocess, ResampleFilterDifferentiate) {
  // irregular grid, position a slow sine: resampled, filtered well below the cutoff (gain
  // |H|^2 ~ 1 at 1 Hz for fc = 50 Hz), velocity by SG close to the analytic one.
  data::Record r;
  r.source = "irregular";
  double t = 0;
  for (int k = 0; k < 3000; ++k) {
    r.t.push_back(t);
    r.position.push_back(std::sin(2 * std::numbers::pi * t));
    r.force.push_back(2.0);
    t += 1e-3 * (1.0 + 0.5 * ((k * 7) % 3));
  }
  const data::Record p = data::preprocess(r, {.resample_rate = 500.0,
                                              .lowpass_cutoff = 50.0,
                                              .derivatives = data::DerivativesFrom::position});
  EXPECT_EQ(p.source, "irregular");
  ASSERT_GT(p.t.size(), 100u);
  EXPECT_NEAR(p.t[1] - p.t[0], 2e-3, 1e-15);
  double err_v = 0, err_f = 0;
  for (std::size_t k = 0; k < p.t.size(); ++k) {
    err_v = std::max(err_v, std::abs(p.velocity[k] - 2 * std::numbers::pi *
                                                         std::cos(2 * std::numbers::pi * p.t[k])));
    err_f = std::max(err_f, std::abs(p.force[k] - 2.0));
  }
  EXPECT_LT(err_f, 1e-12);  // constants pass unchanged
  // linear interpolation of the position (steps up to 2 ms) bends the slope by up to
  // ~h w^2 / 2 ~ 0.04 between samples; SG smoothing leaves 0.3 % of the amplitude (measured)
  EXPECT_LT(err_v, 5e-3 * 2 * std::numbers::pi);
  // filtering a non-uniform record is refused with the jitter
  try {
    (void)data::preprocess(r, {.lowpass_cutoff = 50.0});
    ADD_FAILURE() << "no error";
  } catch (const data::RecordError& e) {
    EXPECT_NE(
        std::string(e.what()).find(
            "irregular: low-pass filtering: low-pass filtering needs "
            "uniform sampling: the sample step varies by up to 33.3333% of its median 0.0015 s"),
        std::string::npos)
        << e.what();
  }
  try {
    r.position.clear();
    (void)data::preprocess(r, {.derivatives = data::DerivativesFrom::position});
    ADD_FAILURE() << "no error";
  } catch (const data::RecordError& e) {
    EXPECT_EQ(std::string(e.what()),
              "irregular: derivatives from position: the record has no position channel");
  }
}

}  // namespace
}  // namespace frictionlab
