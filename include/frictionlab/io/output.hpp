// frictionlab: writing output files without losing anything (docs/file-formats.md, "Output
// files").
//
// Rules:
//   - every output file is first written completely to a temporary file in its target directory
//     (".NAME.tmp-PID-N", flushed and fsync'ed) and then renamed over the target, so the target is
//     either its previous content or the complete new content, never a partial file; a failure
//     removes the temporary file;
//   - a set of files (a results directory) is written through one OutputFiles: every file is
//     written to its temporary first, and only when all were written are they renamed into place;
//     a failure before that leaves every target as it was (and removes the directories the set
//     created). The renames themselves are not one atomic step: a rename that fails after others
//     succeeded (a disk error between two renames) can still leave a mixed set;
//   - a target that is a symbolic link is resolved: the file it points to is replaced and the link
//     kept; the mode of a replaced file is kept;
//   - "-" (kStdout) means the standard output for single-file outputs (write_text_output);
//   - before any long work, the caller checks its output locations (check_output_file,
//     check_output_directory) and that no output is one of its inputs (check_outputs_not_inputs).
// Errors are io::InputError naming the path ("PATH: cannot write: REASON").
//
// POSIX (open, fsync, rename); host side.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frictionlab/io/errors.hpp"

namespace frictionlab::io {

/// The path that means the standard output for a single-file output.
inline constexpr std::string_view kStdout = "-";

/// True if `path` is "-" (the standard output).
bool is_stdout(std::string_view path) noexcept;

/// A path with the words that name it for the user (e.g. the command-line option, "--input");
/// `label` may be empty.
struct NamedPath {
  std::string label;
  std::string path;
};

/// Files written all or nothing (rules above). Not copyable; the destructor removes the temporary
/// files and the directories created by write() unless commit() succeeded.
class OutputFiles {
 public:
  /// `create_directories`: write() creates missing parent directories (a results directory);
  /// false: a missing parent directory is an error (a single output file).
  explicit OutputFiles(bool create_directories = true) : create_dirs_(create_directories) {}
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  /// Inputs the set must never replace: write() refuses a path that is one of them
  /// (check_outputs_not_inputs) before anything is renamed, so the inputs stay intact.
  void protect(std::vector<NamedPath> inputs) { inputs_ = std::move(inputs); }

  /// Write `text` to a temporary file beside `path` (creating missing parent directories if
  /// constructed so).
  /// Throws InputError naming `path` if `path` is an existing directory, a protected input, was
  /// already written in this set, or the temporary file cannot be created or written.
  void write(const std::string& path, std::string_view text);

  /// Rename every written file into place, in the order written. Throws InputError naming the
  /// target if a rename fails (the files not yet renamed are removed). Call at most once.
  void commit();

  /// The target paths, in the order written.
  std::vector<std::string> paths() const;

 private:
  struct Pending {
    std::string path;    // as given
    std::string target;  // the file replaced (a symbolic link resolved)
    std::string temp;    // the temporary file beside it
  };
  void rollback() noexcept;
  std::vector<Pending> pending_;
  std::vector<std::string> created_dirs_;  // in creation order (parents first)
  std::vector<NamedPath> inputs_;
  bool create_dirs_ = true;
  bool committed_ = false;
};

/// Write `text` to `path` as a set of one file (OutputFiles without creating directories): the
/// target is replaced only by the complete text. Same errors as OutputFiles::write / commit;
/// a missing directory is "PATH: cannot write: No such file or directory".
void write_file_atomic(const std::string& path, std::string_view text);

/// Write `text` to the standard output if `path` is "-", else write_file_atomic(path, text).
/// Throws InputError ("standard output: write error") if the standard output fails.
void write_text_output(const std::string& path, std::string_view text);

/// True if `a` and `b` name the same file: the same existing file (std::filesystem::equivalent:
/// symbolic links, hard links, "." and "..") or, if either does not exist, the same
/// std::filesystem::weakly_canonical path. "-" (kStdout) is never the same as a file.
bool same_file(const std::string& a, const std::string& b);

/// Throws InputError naming both paths if an output is the same file as an input (same_file):
/// "OUT: the output (LABEL) is the input IN (LABEL); writing it would replace the input".
/// Outputs that are "-" are skipped; so are inputs that are "-".
void check_outputs_not_inputs(const std::vector<NamedPath>& inputs,
                              const std::vector<NamedPath>& outputs);

/// Throws InputError if more than one output is "-" (they would be mixed on the standard output)
/// or two outputs are the same file (same_file).
void check_outputs_distinct(const std::vector<NamedPath>& outputs);

/// Check that a single-file output can be written before any work is done: "-" is accepted; the
/// path must not be an existing directory, and its parent must be an existing, writable directory
/// (InputError "PATH: is a directory, not a file" / "PATH: the directory DIR does not exist" /
/// "PATH: DIR is not a directory" / "PATH: cannot write in DIR: REASON").
void check_output_file(const std::string& path);

/// Check that a results directory can be created or written into before any work is done: if it
/// exists it must be a directory and writable; otherwise its nearest existing ancestor must be a
/// writable directory (InputError "DIR: is a file, not a directory" / "DIR: cannot create it:
/// ANCESTOR is not a directory" / "DIR: cannot write in ANCESTOR: REASON").
void check_output_directory(const std::string& dir);

}  // namespace frictionlab::io
