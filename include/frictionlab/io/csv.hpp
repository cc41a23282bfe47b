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
// 1-based field index as column (0 where not applicable).
//
// Writer: header line and rows, numbers in the shortest form that reads back to the same
// double (std::to_chars), so write -> read round-trips bit-exactly.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/io/errors.hpp"

namespace frictionlab::io {

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
};

/// Parse CSV text; `file` is the name used in error messages.
CsvTable parse_csv(std::string_view text, const std::string& file);

/// Read and parse a CSV file; InputError if it cannot be opened.
CsvTable read_csv(const std::string& path);

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

/// Check that `path` names something a reader can open as a file: InputError "PATH: cannot
/// open: REASON" if it does not exist or cannot be read, "PATH: is a directory, expected
/// WHAT" (e.g. WHAT = "a MODEL.json file") if it is a directory.
void require_input_file(const std::string& path, std::string_view what = "a file");

/// Read a whole file into a string (InputError "cannot open ..." if it cannot be read, "is a
/// directory, expected WHAT" for a directory: require_input_file).
std::string read_text_file(const std::string& path, std::string_view what = "a file");

/// Write a string to a file, all or nothing (io::write_file_atomic, io/output.hpp: a temporary
/// file beside it renamed into place; InputError "PATH: cannot write: REASON" on failure).
void write_text_file(const std::string& path, std::string_view text);

/// Create a directory and its parents if missing (InputError "PATH: cannot create the
/// directory: REASON" on failure).
void make_directories(const std::string& path);

}  // namespace frictionlab::io
