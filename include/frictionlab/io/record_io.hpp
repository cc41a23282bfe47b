// frictionlab io: measured records from CSV and MATLAB .mat files (docs/file-formats.md,
// "Measured records (CSV and .mat)"), and a .mat writer (tests, exports).
//
// A RecordSpec says where each channel of a data::Record is in the file. Empty = not loaded.
//   CSV: a spec is a column name, or, if it is all digits, a 0-based column index ("0", "2").
//        Time: `time`, or `time_default` if `time` is empty.
//        The CSV rules are those of csv.hpp (strict; errors at FILE:LINE:COLUMN). A missing
//        column: "FILE:HEADER_LINE: no column 'v' (columns found: t, x)"; an index out of range
//        names the number of columns and lists them. Time must be strictly increasing
//        (FILE:LINE:COLUMN of the first violation). `matrix` must be empty.
//   .mat (v4, v5 and v7.3/HDF5, via libmatio), two layouts:
//     named vectors  any of time, position, velocity, current, force given (time_default
//                    stands in for an empty time, but alone selects nothing): each spec is a
//                    variable name; each variable a real numeric vector (1xN or Nx1; double,
//                    single or integer class, converted to double), all of the same length;
//     matrix         `matrix` names one real numeric 4xN or Nx4 variable in the layout of
//                    reference 000 (rows or columns: time [s], motor current [A], motor-side
//                    velocity [rad/s], joint torque [N m] -> Record t, current, velocity, force).
//                    4x4 is ambiguous and an error.
//     If no spec is given at all (time_default does not count) and the file holds exactly one
//     variable, it is read as the matrix. A named channel and `matrix` together are an error.
//     Errors: "FILE: variable 'v': ..." for a missing variable (listing the variables found),
//     the wrong class (char, cell, struct, logical, ...), complex, sparse, empty, not a
//     vector / not 4xN, a non-finite element (1-based element, or row and column), time not
//     strictly increasing, lengths that differ; "FILE: ..." when the file cannot be opened or is
//     not a MAT file.
// Loaders check what they can locate in the file (numbers, time order, lengths); the
// problem-specific checks (required channels, minimum length, jitter, reversals) are
// data::check_record's.
//
// Host side: allocates, throws InputError (file problems) or std::invalid_argument (a spec that
// is inconsistent in itself, e.g. no time column given).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/io/errors.hpp"

namespace frictionlab::io {

struct RecordSpec {
  std::string time{};         ///< time [s] (required for CSV and for named .mat vectors)
  std::string position{};     ///< [m | rad]
  std::string velocity{};     ///< [m/s | rad/s]
  std::string current{};      ///< [A]
  std::string force{};        ///< friction force or joint torque [N | N m]
  std::string temperature{};  ///< temperature of the joint or gearbox [degC]
  std::string matrix{};       ///< .mat only: the 4xN / Nx4 variable of reference 000's layout
  /// The time column / variable used when `time` is empty and the channels are named (CSV;
  /// .mat with a named channel). A default, not a choice: it does not select the named-vector
  /// layout of a .mat file, so a .mat file is read through `matrix`, or as its one variable,
  /// when no channel is named. Empty (the default): `time` is required.
  std::string time_default{};
};

/// Record from CSV text (`file`: the name in messages and Record::source). InputError
/// "FILE:LINE: the file has a header line (NAMES) but no data rows" for a header-only file.
data::Record parse_record_csv(std::string_view text, const std::string& file,
                              const RecordSpec& spec);

/// Record from a CSV file.
data::Record read_record_csv(const std::string& path, const RecordSpec& spec);

/// Record from a .mat file (v4, v5, v7.3).
data::Record read_record_mat(const std::string& path, const RecordSpec& spec);

/// By file type: ".mat" (any case) or a file starting with "MATLAB" -> read_record_mat, else
/// read_record_csv.
data::Record read_record(const std::string& path, const RecordSpec& spec);

/// The variable names of a .mat file, in the file's order (InputError if it cannot be read).
std::vector<std::string> mat_variable_names(const std::string& path);

/// v4: the old Level 4 format (double, char and sparse only; for the reader's v4 test).
enum class MatVersion { v4, v5, v73 };

/// What write_mat stores: real numeric arrays (the record layouts), and the other kinds only so
/// that tests can produce every reader error.
enum class MatClass {
  double_array,   ///< double (complex if imag is non-empty)
  single_array,   ///< single (complex if imag is non-empty)
  int32_array,    ///< int32 (values rounded toward zero)
  logical_array,  ///< logical (value != 0)
  char_array,     ///< char (each value a character code)
  sparse_double,  ///< sparse double, from the dense values (2-D only)
  cell,           ///< a 1x1 cell holding the values as a double array of `dims`
  structure,      ///< a 1x1 struct with one field "value" holding the double array
};

struct MatVariable {
  std::string name{};
  std::vector<std::size_t> dims{};  ///< at least 2 (MATLAB rank), e.g. {1, N}, {4, N}
  std::vector<double> real{};       ///< column-major (MATLAB order), product(dims) values
  std::vector<double> imag{};       ///< empty, or the imaginary parts (complex double/single)
  MatClass mat_class = MatClass::double_array;
};

/// Write the variables to a new .mat file (v4, v5 uncompressed, or v7.3). Throws
/// std::invalid_argument for inconsistent variables and InputError if matio cannot write.
void write_mat(const std::string& path, const std::vector<MatVariable>& variables,
               MatVersion version);

}  // namespace frictionlab::io
