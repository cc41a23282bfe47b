// frictionlab: strict CSV reading and writing of numeric tables (docs/file-formats.md, "CSV").
//
// Reader rules:
//   - optional UTF-8 byte-order mark; lines end in LF or CRLF;
//   - blank lines and lines starting with '#' (after optional whitespace) may precede the header;
//   - the header is the first other line: comma-separated column names, each optionally
//     surrounded by whitespace and by double quotes; names must be non-empty and unique;
//   - every following line is a data row with exactly as many fields as the header, each a
//     finite decimal number (parsed strictly with std::from_chars: "1.0abc", "", "nan", "inf",
//     "1e999" are errors); an optional leading '+' and surrounding whitespace are allowed;
//   - blank lines are allowed only at the end of the file; nothing is ever skipped silently.
// Every violation throws io::InputError with the file name, the 1-based line number and the
// 1-based field index as column (0 where not applicable). Fields and names are quoted in
// messages with quote_text / join_names (printable, bounded); a text that is binary (a NUL byte
// in its first KiB, a MATLAB or HDF5 header) is refused as a whole before its lines are read.
//
// Input files (require_input_file, read_text_file: every reader of a file goes through them):
// only regular files are read (a directory, a device such as /dev/zero, a FIFO or a socket is
// refused before it is opened), and none larger than the limit of its kind (kMaxRecordFileBytes,
// kMaxJsonFileBytes; docs/file-formats.md, "Limits").
//
// Writer: header line and rows, numbers in the shortest form that reads back to the same
// double (std::to_chars), so write -> read round-trips bit-exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/io/errors.hpp"

namespace frictionlab::io {

/// The largest record file (CSV or .mat) read [bytes]: 1 GiB, some 40 million rows of
/// t,v,F. Parsed, a CSV file takes about twice its size in memory; a larger one is refused
/// before it is read.
inline constexpr std::uintmax_t kMaxRecordFileBytes = std::uintmax_t{1} << 30;
/// The largest JSON file read (MODEL.json, SYSTEM.json, logs, results) [bytes]: 256 MiB. A
/// parsed JSON document takes up to ten times its text in memory.
inline constexpr std::uintmax_t kMaxJsonFileBytes = std::uintmax_t{256} << 20;

struct CsvTable {
  std::string file;                          ///< file name used in error messages
  long header_line = 0;                      ///< 1-based line number of the header
  std::vector<std::string> names;            ///< column names, in file order
  std::vector<std::vector<double>> columns;  ///< columns[c][r]: column c, data row r
  std::vector<long> row_lines;               ///< 1-based line number of every data row

  std::size_t rows() const noexcept { return row_lines.size(); }
  bool has(std::string_view name) const noexcept;
  /// Index of a column; throws InputError ("no column 'v' (columns found: t, x)") if absent.
  std::size_t index(std::string_view name) const;
  /// The values of a column; throws InputError if absent.
  const std::vector<double>& column(std::string_view name) const;
  /// The column names for a message: join_names(names) (at most 8, then "... and N more").
  std::string names_for_message() const;
};

/// Parse CSV text; `file` is the name used in error messages. header = false: a file without a
/// header line (as the UR controller logs), every line after blank or comment lines is data,
/// the columns are named "column 1", "column 2", ... and header_line is 0.
CsvTable parse_csv(std::string_view text, const std::string& file, bool header = true);

/// Read and parse a CSV file; InputError if it cannot be opened.
CsvTable read_csv(const std::string& path, bool header = true);

/// Require column `name` to be strictly increasing (InputError at the line and field of the
/// first value that is not larger than its predecessor). Values are finite by construction.
void require_strictly_increasing(const CsvTable& table, std::string_view name);

/// CSV text of a table: header `names`, then one row per index. All columns must have the same
/// length and finite values (std::invalid_argument naming the column and row otherwise).
std::string format_csv(const std::vector<std::string>& names,
                       const std::vector<const std::vector<double>*>& columns);

/// Write format_csv(...) to `path`, or to the standard output if `path` is "-"
/// (io::write_text_output; InputError if it cannot be written).
void write_csv(const std::string& path, const std::vector<std::string>& names,
               const std::vector<const std::vector<double>*>& columns);

/// Check that `path` names a regular file a reader can open, of at most `max_bytes` bytes, and
/// return its size. InputError:
///   "PATH: cannot open: REASON"                  it does not exist or cannot be read;
///   "PATH: is a directory, expected WHAT"        (e.g. WHAT = "a MODEL.json file");
///   "PATH: is a character device, not a regular file: expected WHAT (...)"   also a block
///                                                device, a FIFO (named pipe) or a socket;
///   "PATH: is 2 GiB (N bytes), more than the limit of 1 GiB for WHAT (...)".
/// Nothing is opened before the type is known, so a FIFO never blocks.
std::uintmax_t require_input_file(const std::string& path, std::string_view what = "a file",
                                  std::uintmax_t max_bytes = kMaxJsonFileBytes);

/// Read a whole file into a string: require_input_file(path, what, max_bytes), then at most
/// `max_bytes` bytes (a file that grew past it while read is refused the same way).
std::string read_text_file(const std::string& path, std::string_view what = "a file",
                           std::uintmax_t max_bytes = kMaxJsonFileBytes);

/// Refuse a text that is binary where `kind` text ("CSV", "JSON") is expected: InputError
/// "FILE: looks like a binary file (MATLAB .mat?), not CSV text; ..." for a MATLAB v5/v7.3 or
/// HDF5 header, a gzip or zip archive, UTF-16 text, or a NUL byte within the first KiB.
void require_text(std::string_view text, const std::string& file, std::string_view kind);

/// Write a string to a file, all or nothing (io::write_file_atomic, io/output.hpp: a temporary
/// file beside it renamed into place; InputError "PATH: cannot write: REASON" on failure).
void write_text_file(const std::string& path, std::string_view text);

/// Create a directory and its parents if missing (InputError "PATH: cannot create the
/// directory: REASON" on failure).
void make_directories(const std::string& path);

}  // namespace frictionlab::io
