// frictionlab: all-or-nothing output files and the checks of output locations (rules in
// include/frictionlab/io/output.hpp).
#include "frictionlab/io/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace frictionlab::io {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int e) { return std::strerror(e); }

// The directory a file path lives in ("." for a bare name).
fs::path parent_of(const fs::path& p) {
  const fs::path parent = p.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// The file that writing `path` replaces: a symbolic link is resolved (the link is kept).
fs::path resolve_target(const fs::path& p) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(p, ec))) {
    const fs::path t = fs::weakly_canonical(p, ec);
    if (!ec) return t;
  }
  return p;
}

// Write all of `text` to `fd`; false on failure (errno set).
bool write_all(int fd, std::string_view text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::atomic<unsigned long> temp_counter{0};

// Nearest existing ancestor of `p` (p itself if it exists).
fs::path existing_ancestor(fs::path p) {
  std::error_code ec;
  p = fs::absolute(p, ec);
  while (!p.empty() && !fs::exists(fs::symlink_status(p, ec)) && p != p.root_path())
    p = p.parent_path();
  return p;
}

void require_writable_dir(const std::string& path, const fs::path& dir) {
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(path, 0, 0,
                     "cannot write in " + dir.string() + ": " + errno_text(errno));
}

std::string labelled(const NamedPath& p) {
  return p.label.empty() ? p.path : p.path + " (" + p.label + ")";
}

}  // namespace

bool is_stdout(std::string_view path) noexcept { return path == kStdout; }

OutputFiles::~OutputFiles() {
  if (!committed_) rollback();
}

void OutputFiles::rollback() noexcept {
  for (const auto& p : pending_) ::unlink(p.temp.c_str());
  pending_.clear();
  for (auto it = created_dirs_.rbegin(); it != created_dirs_.rend(); ++it)
    ::rmdir(it->c_str());  // only if empty: never removes anything else
  created_dirs_.clear();
}

void OutputFiles::write(const std::string& path, std::string_view text) {
  if (committed_) throw std::logic_error("OutputFiles::write after commit");
  if (path.empty()) throw InputError(path, 0, 0, "empty output path");
  const fs::path target = resolve_target(fs::path(path));
  std::error_code ec;
  if (fs::is_directory(fs::status(target, ec)))
    throw InputError(path, 0, 0, "is a directory, not a file");
  check_outputs_not_inputs(inputs_, {{"", path}});
  for (const auto& p : pending_)
    if (p.target == target.string() || same_file(p.target, target.string()))
      throw InputError(path, 0, 0, "written twice in one set of outputs");

  // Missing parent directories, remembered so that a failure removes them again.
  const fs::path dir = parent_of(target);
  std::vector<fs::path> missing;
  for (fs::path d = dir; create_dirs_ && !d.empty() && !fs::exists(fs::symlink_status(d, ec));
       d = d.parent_path()) {
    missing.push_back(d);
    if (d == d.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) != 0 && errno != EEXIST)
      throw InputError(path, 0, 0,
                       "cannot create the directory " + it->string() + ": " + errno_text(errno));
    created_dirs_.push_back(it->string());
  }

  // Built by appending: operator+ on temporaries here trips a g++ 12 -Wrestrict false positive.
  std::string name(1, '.');
  name.append(target.filename().string()).append(".tmp-");
  name.append(std::to_string(::getpid())).append("-");
  name.append(std::to_string(temp_counter.fetch_add(1)));
  const std::string temp = (dir / name).string();
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError(path, 0, 0, "cannot write: " + errno_text(errno));
  pending_.push_back({path, target.string(), temp});
  // Keep the mode of a file that is replaced.
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) (void)::fchmod(fd, st.st_mode & 07777);
  const bool ok = write_all(fd, text) && ::fsync(fd) == 0;
  const int err = errno;
  if (::close(fd) != 0 || !ok)
    throw InputError(path, 0, 0, "cannot write: " + errno_text(ok ? errno : err));
}

void OutputFiles::commit() {
  if (committed_) throw std::logic_error("OutputFiles::commit called twice");
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (std::rename(pending_[i].temp.c_str(), pending_[i].target.c_str()) != 0) {
      const int err = errno;
      const std::string path = pending_[i].path;
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i));
      created_dirs_.clear();  // earlier files are in place: keep their directories
      rollback();
      throw InputError(path, 0, 0, "cannot write: " + errno_text(err));
    }
  }
  committed_ = true;
}

std::vector<std::string> OutputFiles::paths() const {
  std::vector<std::string> out;
  for (const auto& p : pending_) out.push_back(p.path);
  return out;
}

void write_file_atomic(const std::string& path, std::string_view text) {
  OutputFiles files(/*create_directories=*/false);
  files.write(path, text);
  files.commit();
}

void write_text_output(const std::string& path, std::string_view text) {
  if (!is_stdout(path)) return write_file_atomic(path, text);
  std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
  std::cout.flush();
  if (!std::cout) throw InputError("standard output", 0, 0, "write error");
}

bool same_file(const std::string& a, const std::string& b) {
  if (is_stdout(a) || is_stdout(b) || a.empty() || b.empty()) return false;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    const bool eq = fs::equivalent(a, b, ec);
    if (!ec) return eq;
  }
  std::error_code ea, eb;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), ea);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), eb);
  return !ea && !eb && ca == cb;
}

void check_outputs_not_inputs(const std::vector<NamedPath>& inputs,
                              const std::vector<NamedPath>& outputs) {
  for (const auto& out : outputs)
    for (const auto& in : inputs)
      if (same_file(out.path, in.path))
        throw InputError(out.path, 0, 0,
                         "the output" + (out.label.empty() ? "" : " (" + out.label + ")") +
                             " is the input " + labelled(in) +
                             "; writing it would replace the input (choose another output path)");
}

void check_outputs_distinct(const std::vector<NamedPath>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      if (is_stdout(outputs[i].path) && is_stdout(outputs[j].path))
        throw InputError("standard output", 0, 0,
                         "two outputs go to it (" + outputs[i].label + " - and " +
                             outputs[j].label + " -); write one of them to a file");
      if (same_file(outputs[i].path, outputs[j].path))
        throw InputError(outputs[j].path, 0, 0,
                         "the output" +
                             (outputs[j].label.empty() ? "" : " (" + outputs[j].label + ")") +
                             " is also the output " + labelled(outputs[i]) +
                             "; give each output its own path");
    }
}

void check_output_file(const std::string& path) {
  if (is_stdout(path)) return;
  if (path.empty()) throw InputError(path, 0, 0, "empty output path");
  const fs::path target = resolve_target(fs::path(path));
  std::error_code ec;
  if (fs::is_directory(fs::status(target, ec)))
    throw InputError(path, 0, 0, "is a directory, not a file");
  const fs::path dir = parent_of(target);
  const fs::file_status ds = fs::status(dir, ec);
  if (!fs::exists(ds))
    throw InputError(path, 0, 0, "the directory " + dir.string() + " does not exist");
  if (!fs::is_directory(ds))
    throw InputError(path, 0, 0, dir.string() + " is not a directory");
  require_writable_dir(path, dir);
}

void check_output_directory(const std::string& dir) {
  if (dir.empty()) throw InputError(dir, 0, 0, "empty output directory");
  std::error_code ec;
  const fs::file_status s = fs::status(dir, ec);
  if (fs::exists(s)) {
    if (!fs::is_directory(s)) throw InputError(dir, 0, 0, "is a file, not a directory");
    require_writable_dir(dir, fs::path(dir));
    return;
  }
  const fs::path anc = existing_ancestor(fs::path(dir));
  if (!fs::is_directory(fs::status(anc, ec)))
    throw InputError(dir, 0, 0, "cannot create it: " + anc.string() + " is not a directory");
  require_writable_dir(dir, anc);
}

}  // namespace frictionlab::io
