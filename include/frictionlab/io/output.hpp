// frictionlab: writing output files without losing anything (docs/file-formats.md, "Output
// files").
//
// Rules:
//   - a regular output file (or a new path) is first written completely to a temporary file in
//     its target directory (".NAME.tmp-PID-N", flushed and fsync'ed) and then renamed over the
//     target, so the target is either its previous content or the complete new content, never a
//     partial file; a failure removes the temporary file, and so does SIGINT/SIGTERM/SIGHUP/SIGPIPE
//     once remove_temp_files_on_signals was called;
//   - a stream (a character or block device, a FIFO, a socket, "-", /dev/stdout, /dev/stderr,
//     /dev/fd/N, /proc/self/fd/N: is_stream_output) is written directly, never created,
//     truncated or replaced; it must exist and be writable;
//   - a set of files (a results directory) is written through one OutputFiles: every file is
//     written to its temporary first, and only when all were written are the streams written and
//     the files renamed into place; a failure before that leaves every target as it was (and
//     removes the directories the set created). The renames themselves are not one atomic step: a
//     rename that fails after others succeeded (a disk error between two renames) can still leave
//     a mixed set;
//   - a target that is a symbolic link (a chain of them, also dangling) is followed: the file it
//     points to is written and the links kept; the mode of a replaced file is kept; an existing
//     file without write permission is refused (also for root), as cp and shell redirection do;
//   - "-" (kStdout) means the standard output for single-file outputs (write_text_output);
//   - before any long work, the caller checks its output locations (check_output_file,
//     check_output_directory), that they are distinct (check_outputs_distinct) and that no output
//     is one of its inputs (check_outputs_not_inputs). With protect_every_input_read on, every
//     file the io layer reads (note_input: also the files named inside input files) is an input
//     too: reading a checked output, or writing a file read, is refused.
// Errors are io::InputError naming the path ("PATH: cannot write: REASON").
//
// POSIX (open, fsync, rename); host side.
#pragma once

#include <cstddef>
#include <filesystem>
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

/// True if `path` is written as a stream (rules above): "-", a path naming a descriptor
/// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or an existing file (links followed)
/// that is neither a regular file nor a directory.
bool is_stream_output(const std::string& path);

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
  /// A stream (is_stream_output) is only kept, and written at commit().
  /// Throws InputError naming `path` if `path` is an existing directory, a read-only file, a
  /// protected input (or an input read, protect_every_input_read), was already written in this
  /// set, or the temporary file cannot be created or written.
  void write(const std::string& path, std::string_view text);

  /// Write the streams, then rename every written file into place, in the order written. Throws
  /// InputError naming the target if a stream cannot be written or a rename fails (the files not
  /// yet renamed are removed). Call at most once.
  void commit();

  /// The target paths, in the order written.
  std::vector<std::string> paths() const;

 private:
  struct Pending {
    std::string path;    // as given
    std::string target;  // the file replaced (symbolic links followed); a stream: the path
    std::string temp;    // the temporary file beside it (none for a stream)
    std::size_t slot;    // its entry in the table the signal handler cleans up
    bool stream;         // written directly at commit()
    std::string text;    // a stream's text, kept until commit()
  };
  void check_target(const std::string& path, const std::string& target) const;
  void create_parents(const std::string& path, const std::filesystem::path& dir);
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
/// Outputs that are "-" are skipped; so are inputs that are "-". Also refuses an input read
/// (protect_every_input_read) and remembers the outputs for note_input.
void check_outputs_not_inputs(const std::vector<NamedPath>& inputs,
                              const std::vector<NamedPath>& outputs);

/// Throws InputError if more than one output is "-" (they would be mixed on the standard output),
/// two outputs are the same file (same_file), or two outputs are the same stream
/// (same_stream: "-" and /dev/stdout, /dev/fd/1 and /dev/stdout, one FIFO or terminal named
/// twice), naming both outputs.
void check_outputs_distinct(const std::vector<NamedPath>& outputs);

/// True if `a` and `b` are written to the same stream: "-" is the file of descriptor 1 (fstat),
/// any other path the file it names (stat, links and /dev/fd/N followed); the same st_dev and
/// st_ino. /dev/null is never the same stream (what goes there is discarded, never mixed: "-"
/// and /dev/stdout on a standard output sent to /dev/null are accepted; the path /dev/null named
/// twice is still refused by same_file).
bool same_stream(const std::string& a, const std::string& b);

/// Check a file of a results directory before any work: when its directory exists,
/// check_output_file(path, label); otherwise check_output_directory on that directory (it is
/// created when the files are written), naming `path`.
void check_output_in_directory(const std::string& path, const std::string& label = "");

/// Check that a single-file output can be written before any work is done: "-" is accepted; a
/// stream must exist and be writable ("PATH: cannot write: REASON"); otherwise the path (links
/// followed) must not be an existing directory or read-only file, and its parent must be an
/// existing, writable directory (InputError "PATH: is a directory, not a file" / "PATH: is
/// read-only (no write permission); remove it or choose another path" / "PATH: the directory DIR
/// does not exist" / "PATH: DIR is not a directory" / "PATH: cannot write in DIR: REASON").
/// With protect_every_input_read on, the path is remembered as an output (note_input), named by
/// `label` (the option, e.g. "--output") in its messages.
void check_output_file(const std::string& path, const std::string& label = "");

/// Check that a results directory can be created or written into before any work is done: if it
/// exists it must be a directory and writable; otherwise its nearest existing ancestor must be a
/// writable directory (InputError "DIR: is a file, not a directory" / "DIR: cannot create it:
/// ANCESTOR is not a directory" / "DIR: cannot write in ANCESTOR: REASON").
void check_output_directory(const std::string& dir);

/// From now on (for the whole process), every input the io layer reads is protected: note_input
/// remembers it and check_outputs_not_inputs / OutputFiles::write refuse it as an output. The CLI
/// turns this on once; the Python module does not (a session may read and later rewrite a file).
void protect_every_input_read();

/// Called by the io layer for every file it reads (io::read_text_file, .mat files). With
/// protect_every_input_read on, remembers `path` and throws the "the output ... is the input ..."
/// InputError if it is an output already checked (check_output_file, check_outputs_not_inputs);
/// else does nothing.
void note_input(const std::string& path);

/// Install handlers of SIGINT, SIGTERM, SIGHUP and SIGPIPE (those not ignored) that remove the
/// temporary files being written and then end the process with the same signal, its default
/// action (so the exit status says which signal). For programs (the CLI), once, at start-up.
void remove_temp_files_on_signals();

}  // namespace frictionlab::io
