// frictionlab identify: the progress and cancel hooks of a fit as the identification sources
// call them (FitOptions::progress, FitOptions::cancel).
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "frictionlab/identify/cancel.hpp"

namespace frictionlab::identify::detail {

/// FitOptions::progress serialised by a mutex, and FitOptions::cancel (polled without a lock:
/// the hook is thread-safe).
class Progress {
 public:
  explicit Progress(std::function<void(std::string_view)> f, std::function<bool()> cancel = {})
      : f_(std::move(f)), cancel_(std::move(cancel)) {}
  void operator()(const std::string& msg) const {
    if (!f_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    f_(msg);
  }
  bool enabled() const { return static_cast<bool>(f_); }
  /// Whether the caller asked the fit to stop (FitOptions::cancel).
  bool cancelled() const { return cancel_ && cancel_(); }
  /// Throws Cancelled if cancelled().
  void check() const {
    if (cancelled()) throw Cancelled();
  }

 private:
  std::function<void(std::string_view)> f_;
  std::function<bool()> cancel_;
  mutable std::mutex mutex_;
};

}  // namespace frictionlab::identify::detail
