// frictionlab: all-or-nothing output files and the checks of output locations (rules in
// include/frictionlab/io/output.hpp).
#include "frictionlab/io/output.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
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

// The file that writing `p` writes: a chain of symbolic links is followed to its end, also when
// that end does not exist yet (a dangling link), so that the links are kept. A relative link is
// read relative to the directory of the link. At most 40 links (Linux's MAXSYMLINKS); a longer
// chain is left as it is and fails when opened (ELOOP).
fs::path resolve_target(const fs::path& p) {
  fs::path t = p;
  for (int i = 0; i < 40; ++i) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(t, ec))) return t;
    const fs::path next = fs::read_symlink(t, ec);
    if (ec) return t;
    t = next.is_absolute() ? next : (parent_of(t) / next).lexically_normal();
  }
  return t;
}

// Paths that name an open file descriptor of this process (a pipe given as >(cmd), a
// redirection): always written as streams, never replaced.
bool names_descriptor(const std::string& path) {
  return path == "/dev/stdout" || path == "/dev/stderr" || path.rfind("/dev/fd/", 0) == 0 ||
         path.rfind("/proc/self/fd/", 0) == 0;
}

// True if `st` (of an existing file) has no write permission at all. Checked on the mode bits
// because root passes access(W_OK) on any file.
bool read_only(const std::string& path, const struct stat& st) {
  return (st.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0;
}

[[noreturn]] void throw_read_only(const std::string& path) {
  throw InputError(path, 0, 0,
                   "is read-only (no write permission); remove it or choose another path");
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

// ---- the temporary files being written, for the signal handler ----
// A fixed table of slots, claimed and released with atomic compare-and-swap only, so the handler
// (remove_temp_files_on_signals) may read it at any moment: async-signal-safe, no allocation, no
// lock. A slot is 0 (free), 1 (its path being copied in) or 2 (a temporary file the handler
// removes). With every slot taken a temporary file is simply not registered (it then survives a
// signal, as before); 64 is far more than any command writes at once.
constexpr std::size_t kTempSlots = 64;
struct TempSlot {
  std::atomic<int> state{0};
  char path[4096] = {};
};
TempSlot temp_slots[kTempSlots];

// The slot index of `temp`, or kTempSlots if none was free or the path is too long.
std::size_t register_temp(const std::string& temp) {
  if (temp.size() >= sizeof(TempSlot::path)) return kTempSlots;
  for (std::size_t i = 0; i < kTempSlots; ++i) {
    int expected = 0;
    if (!temp_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(temp_slots[i].path, temp.c_str(), temp.size() + 1);
    temp_slots[i].state.store(2);
    return i;
  }
  return kTempSlots;
}

void release_temp(std::size_t slot) noexcept {
  if (slot < kTempSlots) temp_slots[slot].state.store(0);
}

extern "C" void remove_temps_and_reraise(int sig) {
  const int saved = errno;
  for (auto& slot : temp_slots)
    if (slot.state.load() == 2) ::unlink(slot.path);
  errno = saved;
  ::signal(sig, SIG_DFL);  // async-signal-safe; the default action then ends the process
  ::raise(sig);
}

// ---- the inputs of this process and its planned outputs (protect_every_input_read) ----
struct Registry {
  std::mutex mutex;
  bool on = false;
  std::vector<std::string> inputs;  // every input read, as given
  std::vector<NamedPath> outputs;   // every output checked before the work
};
Registry& registry() {
  static Registry r;
  return r;
}

// Write all of `text` to the stream `path` (a device, FIFO, socket or descriptor): opened without
// creating or truncating it, never replaced.
void write_stream(const std::string& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError(path, 0, 0, "cannot write: " + errno_text(errno));
  const bool ok = write_all(fd, text);
  const int err = errno;
  if (::close(fd) != 0 || !ok)
    throw InputError(path, 0, 0, "cannot write: " + errno_text(ok ? errno : err));
}

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
    throw InputError(path, 0, 0, "cannot write in " + dir.string() + ": " + errno_text(errno));
}

std::string labelled(const NamedPath& p) {
  return p.label.empty() ? p.path : p.path + " (" + p.label + ")";
}

[[noreturn]] void throw_output_is_input(const NamedPath& out, const NamedPath& in) {
  throw InputError(out.path, 0, 0,
                   "the output" + (out.label.empty() ? "" : " (" + out.label + ")") +
                       " is the input " + labelled(in) +
                       "; writing it would replace the input (choose another output path)");
}

// Remember `out` as an output of this process (when protect_every_input_read is on), keeping
// the first label given for it.
void plan_output(const NamedPath& out) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.on || is_stdout(out.path)) return;
  for (auto& known : r.outputs)
    if (known.path == out.path) {
      if (known.label.empty()) known.label = out.label;
      return;
    }
  r.outputs.push_back(out);
}

// The inputs read so far by this process (empty unless protect_every_input_read is on).
std::vector<NamedPath> inputs_read() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<NamedPath> out;
  for (const auto& p : r.inputs) out.push_back({"", p});
  return out;
}

// Throws if an output is one of `inputs` or an input this process read (protect_every_input_read).
void refuse_inputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  const std::vector<NamedPath> read = inputs_read();
  for (const auto& out : outputs) {
    for (const auto& in : inputs)
      if (same_file(out.path, in.path)) throw_output_is_input(out, in);
    for (const auto& in : read)
      if (same_file(out.path, in.path)) throw_output_is_input(out, in);
  }
}

}  // namespace

bool is_stdout(std::string_view path) noexcept { return path == kStdout; }

bool is_stream_output(const std::string& path) {
  if (is_stdout(path) || names_descriptor(path)) return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

OutputFiles::~OutputFiles() {
  if (!committed_) rollback();
}

void OutputFiles::rollback() noexcept {
  for (const auto& p : pending_) {
    if (p.stream) continue;
    ::unlink(p.temp.c_str());
    release_temp(p.slot);
  }
  pending_.clear();
  for (auto it = created_dirs_.rbegin(); it != created_dirs_.rend(); ++it)
    ::rmdir(it->c_str());  // only if empty: never removes anything else
  created_dirs_.clear();
}

void OutputFiles::check_target(const std::string& path, const std::string& target) const {
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw InputError(path, 0, 0, "is a directory, not a file");
  if (exists && S_ISREG(st.st_mode) && read_only(target, st)) throw_read_only(path);
  refuse_inputs(inputs_, {{"", path}});
  for (const auto& p : pending_)
    if (p.target == target || same_file(p.target, target))
      throw InputError(path, 0, 0, "written twice in one set of outputs");
}

void OutputFiles::create_parents(const std::string& path, const fs::path& dir) {
  std::error_code ec;
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
}

void OutputFiles::write(const std::string& path, std::string_view text) {
  if (committed_) throw std::logic_error("OutputFiles::write after commit");
  if (path.empty()) throw InputError(path, 0, 0, "empty output path");
  if (is_stream_output(path)) {  // written at commit(), as a stream, through the path as given
    check_target(path, path);
    pending_.push_back({path, path, "", kTempSlots, true, std::string(text)});
    return;
  }
  const fs::path target = resolve_target(fs::path(path));
  check_target(path, target.string());
  const fs::path dir = parent_of(target);
  create_parents(path, dir);

  // Built by appending: operator+ on temporaries here trips a g++ 12 -Wrestrict false positive.
  std::string name(1, '.');
  name.append(target.filename().string()).append(".tmp-");
  name.append(std::to_string(::getpid())).append("-");
  name.append(std::to_string(temp_counter.fetch_add(1)));
  const std::string temp = (dir / name).string();
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError(path, 0, 0, "cannot write: " + errno_text(errno));
  pending_.push_back({path, target.string(), temp, register_temp(temp), false, {}});
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
  // Streams first: they cannot be taken back, and a failure still leaves every file as it was.
  for (const auto& p : pending_)
    if (p.stream) write_stream(p.target, p.text);
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].stream) continue;
    if (std::rename(pending_[i].temp.c_str(), pending_[i].target.c_str()) != 0) {
      const int err = errno;
      const std::string path = pending_[i].path;
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i));
      created_dirs_.clear();  // earlier files are in place: keep their directories
      rollback();
      throw InputError(path, 0, 0, "cannot write: " + errno_text(err));
    }
    release_temp(pending_[i].slot);
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
  // A path that does not exist yet: compare where writing it would go (dangling links followed).
  std::error_code ea, eb;
  const fs::path ca = fs::weakly_canonical(fs::absolute(resolve_target(a)), ea);
  const fs::path cb = fs::weakly_canonical(fs::absolute(resolve_target(b)), eb);
  return !ea && !eb && ca == cb;
}

void check_outputs_not_inputs(const std::vector<NamedPath>& inputs,
                              const std::vector<NamedPath>& outputs) {
  refuse_inputs(inputs, outputs);
  for (const auto& out : outputs) plan_output(out);
}

void protect_every_input_read() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.on = true;
}

void note_input(const std::string& path) {
  if (path.empty() || is_stdout(path)) return;
  std::vector<NamedPath> outputs;
  {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.on) return;
    r.inputs.push_back(path);
    outputs = r.outputs;
  }
  for (const auto& out : outputs)
    if (same_file(out.path, path)) throw_output_is_input(out, {"", path});
}

void remove_temp_files_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = remove_temps_and_reraise;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // a second signal during the clean-up takes the default action
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    struct sigaction previous {};
    // A signal ignored by the parent (nohup, a shell's background job) stays ignored.
    if (::sigaction(sig, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

namespace {

// The file `path` is written to, as stat sees it: "-" is descriptor 1's. False if there is none.
bool stream_identity(const std::string& path, struct stat& st) {
  if (is_stdout(path)) return ::fstat(STDOUT_FILENO, &st) == 0;
  return ::stat(path.c_str(), &st) == 0;
}

bool is_dev_null(const struct stat& st) {
  struct stat null {};
  return ::stat("/dev/null", &null) == 0 && st.st_dev == null.st_dev && st.st_ino == null.st_ino;
}

}  // namespace

bool same_stream(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  struct stat sa {
  }, sb{};
  if (!stream_identity(a, sa) || !stream_identity(b, sb)) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !is_dev_null(sa);
}

void check_outputs_distinct(const std::vector<NamedPath>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const NamedPath& a = outputs[i];
      const NamedPath& b = outputs[j];
      if (is_stdout(a.path) && is_stdout(b.path))
        throw InputError("standard output", 0, 0,
                         "two outputs go to it (" + a.label + " - and " + b.label +
                             " -); write one of them to a file");
      if (same_file(a.path, b.path))
        throw InputError(b.path, 0, 0,
                         "the output" + (b.label.empty() ? "" : " (" + b.label + ")") +
                             " is also the output " + labelled(a) +
                             "; give each output its own path");
      // One stream named twice ("-" and /dev/stdout, a FIFO or a terminal): the two texts would
      // interleave on it.
      if ((is_stream_output(a.path) || is_stream_output(b.path)) && same_stream(a.path, b.path))
        throw InputError(b.path, 0, 0,
                         "the output" + (b.label.empty() ? "" : " (" + b.label + ")") +
                             " is the same stream as the output " + labelled(a) +
                             "; the two would interleave on it: write one of them to a file");
    }
}

namespace {

// A stream output (device, FIFO, socket, descriptor) must exist and be writable: it is never
// created.
void check_stream_output(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(path, 0, 0, "cannot write: " + errno_text(errno));
  if (::access(path.c_str(), W_OK) != 0)
    throw InputError(path, 0, 0, "cannot write: " + errno_text(errno));
}

}  // namespace

void check_output_file(const std::string& path, const std::string& label) {
  if (is_stdout(path)) return;
  if (path.empty()) throw InputError(path, 0, 0, "empty output path");
  if (is_stream_output(path)) {
    check_stream_output(path);
    plan_output({label, path});
    return;
  }
  const fs::path target = resolve_target(fs::path(path));
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError(path, 0, 0, "is a directory, not a file");
    if (read_only(target.string(), st)) throw_read_only(path);
  }
  const fs::path dir = parent_of(target);
  std::error_code ec;
  const fs::file_status ds = fs::status(dir, ec);
  if (!fs::exists(ds))
    throw InputError(path, 0, 0, "the directory " + dir.string() + " does not exist");
  if (!fs::is_directory(ds)) throw InputError(path, 0, 0, dir.string() + " is not a directory");
  require_writable_dir(path, dir);
  plan_output({label, path});
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

void check_output_in_directory(const std::string& path, const std::string& label) {
  const fs::path dir = parent_of(resolve_target(fs::path(path)));
  std::error_code ec;
  if (fs::is_directory(fs::status(dir, ec))) return check_output_file(path, label);
  try {
    check_output_directory(dir.string());
  } catch (const InputError& e) {
    throw InputError(path, 0, 0, e.what());
  }
}

}  // namespace frictionlab::io
