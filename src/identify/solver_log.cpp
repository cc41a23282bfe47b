// frictionlab identify: Ceres's glog lines captured (solver_log.hpp).
#include "solver_log.hpp"

#include <glog/logging.h>

#include <mutex>

namespace frictionlab::identify {
namespace {

/// The lines of the solve running on this thread, or nullptr when none is capturing.
thread_local std::vector<std::string>* captured = nullptr;

/// A glog sink that hands every line of WARNING and above to the capturing solve of the thread
/// that logged it (LogSink::send runs on that thread).
class CaptureSink final : public google::LogSink {
 public:
  void send(google::LogSeverity severity, const char* /*full_filename*/,
            const char* /*base_filename*/, int /*line*/, const struct ::tm* /*tm_time*/,
            const char* message, std::size_t message_len) override {
    if (captured != nullptr && severity >= google::GLOG_WARNING)
      captured->emplace_back(message, message_len);
  }
};

/// glog initialised without output (unless the host program did it), and the sink added: once.
void install_sink() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!google::IsGoogleLoggingInitialized()) {
      FLAGS_logtostderr = false;
      FLAGS_alsologtostderr = false;
      FLAGS_stderrthreshold = google::GLOG_FATAL;
      google::InitGoogleLogging("frictionlab");
      for (google::LogSeverity s :
           {google::GLOG_INFO, google::GLOG_WARNING, google::GLOG_ERROR, google::GLOG_FATAL})
        google::SetLogDestination(s, "");  // "": no log file of this severity
    }
    static CaptureSink sink;  // lives as long as the process: glog keeps a pointer
    google::AddLogSink(&sink);
  });
}

}  // namespace

std::vector<std::string> solve_quietly(const ceres::Solver::Options& options,
                                       ceres::Problem* problem, ceres::Solver::Summary* summary) {
  install_sink();
  std::vector<std::string> lines;
  std::vector<std::string>* const outer = captured;  // a solve inside a solve's callback
  captured = &lines;
  try {
    ceres::Solve(options, problem, summary);
  } catch (...) {
    captured = outer;
    throw;
  }
  captured = outer;
  return lines;
}

}  // namespace frictionlab::identify
