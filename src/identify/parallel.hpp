// frictionlab: the library's threads, in one place (private: not installed). The number of
// threads a `threads` option means, parallel passes over indices (for_each_index), work started
// now and collected later (Task), and work that needs threads of its own (run_on_own_threads).
//
// The passes and the tasks run on the process's helper threads (parallel.cpp): at most one
// fewer than the cores, started on first use and kept. A caller never waits for a helper to
// become free: what no helper has taken when the caller needs it, the caller runs itself. So the
// results do not depend on the number of threads or the scheduling, and passes and tasks started
// from inside other passes or tasks cannot deadlock.
//
// Compiled into frictionlab::identify; workflows (the layer above) includes it as
// "../identify/parallel.hpp".
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

namespace frictionlab::parallel {

/// Threads to use for `threads` (<= 0: every core, at least 1).
inline int resolve_threads(int threads) {
  return threads > 0 ? threads
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

/// Runs `work` on the calling thread and at the same time on up to `helpers` of the process's
/// helper threads that are idle, and returns once every run of it has returned. `work` must not
/// throw.
void run_with_helpers(std::size_t helpers, const std::function<void()>& work);

/// f(i) for i = 0..n-1 on up to `threads` threads (<= 0: every core), the calling one included
/// (run_with_helpers), handed out in the order of i. Each i must write its own outputs only: the
/// results then do not depend on the number of threads or the scheduling. The first exception
/// thrown by f is rethrown here once every thread has stopped (no new index starts after it).
template <class F>
void for_each_index(std::size_t n, int threads, const F& f) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto worker = [&]() {
    for (std::size_t i = next++; i < n && !failed; i = next++) {
      try {
        f(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  const std::size_t used =
      std::min<std::size_t>(static_cast<std::size_t>(resolve_threads(threads)), n);
  run_with_helpers(used > 1 ? used - 1 : 0, worker);
  if (error) std::rethrow_exception(error);
}

namespace detail {
struct HelperJob;

/// `work` offered to one idle helper thread from construction; wait() runs it on the calling
/// thread if no helper has taken it yet, else waits for the helper to finish it. The destructor
/// waits too. `work` must not throw.
class Background {
 public:
  explicit Background(std::function<void()> work);
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  ~Background();
  void wait();

 private:
  std::function<void()> work_;
  std::unique_ptr<HelperJob> job_;
};
}  // namespace detail

/// The value of f() computed on a helper thread while the caller goes on (or by get() on the
/// calling thread, when no helper was free to take it): std::async's future without a thread
/// started per call. Empty when default-constructed (valid() false). The destructor of a task
/// not collected waits for it. f must be copyable.
template <class T>
class Task {
 public:
  Task() = default;
  template <class F>
  explicit Task(F f) : state_(std::make_unique<State>()) {
    State* s = state_.get();
    s->run.emplace([s, f = std::move(f)]() mutable {
      try {
        s->value.emplace(f());
      } catch (...) {
        s->error = std::current_exception();
      }
    });
  }
  bool valid() const { return state_ != nullptr; }
  /// f()'s value, or what f threw; once (the task is empty afterwards).
  T get() {
    const std::unique_ptr<State> s = std::move(state_);
    s->run->wait();
    if (s->error) std::rethrow_exception(s->error);
    return std::move(*s->value);
  }

 private:
  struct State {
    std::optional<T> value;
    std::exception_ptr error;
    std::optional<detail::Background> run;  // last: waited for before value goes
  };
  std::unique_ptr<State> state_;
};

/// Task<decltype(f())>(f): f() started on an idle helper thread.
template <class F>
auto start_task(F f) -> Task<std::invoke_result_t<F&>> {
  return Task<std::invoke_result_t<F&>>(std::move(f));
}

/// Runs `work` on `n` threads of its own (started here and joined before returning) while the
/// calling thread runs `lead`: for work that blocks waiting on other work, which the helper
/// threads must not do. If `lead` throws, `stop` is called (it must make every `work` return
/// soon), the threads are joined and the exception rethrown. `work` must not throw.
void run_on_own_threads(std::size_t n, const std::function<void()>& work,
                        const std::function<void()>& lead, const std::function<void()>& stop);

}  // namespace frictionlab::parallel

namespace frictionlab::identify::detail {

// The thread helpers by the names the identification sources use.
using parallel::for_each_index;
using parallel::resolve_threads;
using parallel::run_with_helpers;

}  // namespace frictionlab::identify::detail
