// frictionlab: the threads that for_each_index's work and the tasks run on besides the caller's
// (parallel.hpp: run_with_helpers, Task, run_on_own_threads). A fit runs a dozen short parallel
// passes (the static pairs, the scans, every Jacobian's time segments, the HAC windows), too
// short to start and join a thread for each (docs/benchmarks.md). The helpers are started once
// per process, on first use, and wait for work between passes.
//
// The caller of a pass always works on it itself and waits only for helpers that took part of
// it and are running: a pass never waits for a helper to become free. Tickets of a pass that no
// helper took before the caller ran out of work are withdrawn; so is a task that no helper took
// before the caller asked for its value, which the caller then runs itself. So passes started from
// inside other passes (the multi-start's solves, each with its own Jacobian passes) cannot
// deadlock: a thread waits only on threads that are working, on passes nested inside its own.
//
// fork(): a child process has only the forking thread. The helpers' state is taken over by the
// child at its fork, with the lock held across fork (pthread_atfork), and replaced by a new, empty
// one there; the old one is left as is (its threads do not exist in the child).
#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "parallel.hpp"

namespace frictionlab::parallel {

namespace detail {

/// Work offered to `unclaimed` helpers; `running` of them have taken it and not yet returned.
struct HelperJob {
  HelperJob(const std::function<void()>* w, std::size_t helpers) : work(w), unclaimed(helpers) {}
  const std::function<void()>* work;
  std::size_t unclaimed;  ///< helpers that may still join
  std::size_t running = 0;
  std::condition_variable finished;
};

}  // namespace detail

namespace {

using Job = detail::HelperJob;

class HelperPool {
 public:
  /// Runs `work` on the calling thread and on up to `helpers` idle helper threads at once.
  void run(std::size_t helpers, const std::function<void()>& work) {
    Job job(&work, helpers);
    offer(job);
    work();
    withdraw_or_wait(job);
  }

  /// Queues `job` for up to job.unclaimed helpers and wakes them.
  void offer(Job& job) {
    const std::size_t helpers = job.unclaimed;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      start_threads(helpers);
      queue_.push_back(&job);
    }
    if (helpers == 1) {
      wake_.notify_one();
    } else {
      wake_.notify_all();
    }
  }

  /// Withdraws the tickets of `job` that no helper took (true if there were any), then waits
  /// for the helpers running it.
  bool withdraw_or_wait(Job& job) {
    std::unique_lock<std::mutex> lock(mutex_);
    const bool withdrawn = job.unclaimed > 0;
    if (withdrawn) {
      queue_.erase(std::find(queue_.begin(), queue_.end(), &job));
      job.unclaimed = 0;
    }
    job.finished.wait(lock, [&job] { return job.running == 0; });
    return withdrawn;
  }

  std::mutex& mutex() { return mutex_; }

 private:
  /// Up to hardware_concurrency() - 1 helpers (as many as asked for so far); mutex_ held.
  void start_threads(std::size_t wanted) {
    const std::size_t most = std::max(1u, std::thread::hardware_concurrency()) - 1;
    while (threads_ < std::min(wanted, most)) {
      std::thread([this] { serve(); }).detach();
      ++threads_;
    }
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [this] { return !queue_.empty(); });
      Job* job = queue_.front();
      if (--job->unclaimed == 0) queue_.pop_front();
      ++job->running;
      lock.unlock();
      (*job->work)();  // (for_each_index's work catches what its tasks throw)
      lock.lock();
      // The caller may return (and `job` go) as soon as this lock is released after this.
      if (--job->running == 0) job->finished.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job*> queue_;
  std::size_t threads_ = 0;
};

HelperPool* the_pool = nullptr;  // leaked on purpose: helpers may still wait on it at exit
std::once_flag pool_once;

void lock_for_fork() { the_pool->mutex().lock(); }
void unlock_in_parent() { the_pool->mutex().unlock(); }
void renew_in_child() {
  // the forking thread holds the old pool's lock; the old pool stays as it is (leaked)
  the_pool = new HelperPool;
}

HelperPool& pool() {
  std::call_once(pool_once, [] {
    the_pool = new HelperPool;
    pthread_atfork(lock_for_fork, unlock_in_parent, renew_in_child);
  });
  return *the_pool;
}

}  // namespace

void run_with_helpers(std::size_t helpers, const std::function<void()>& work) {
  if (helpers == 0) {
    work();
    return;
  }
  pool().run(helpers, work);
}

namespace detail {

Background::Background(std::function<void()> work)
    : work_(std::move(work)), job_(std::make_unique<HelperJob>(&work_, 1)) {
  pool().offer(*job_);
}

Background::~Background() { wait(); }

void Background::wait() {
  if (!job_) return;
  if (pool().withdraw_or_wait(*job_)) work_();
  job_.reset();
}

}  // namespace detail

void run_on_own_threads(std::size_t n, const std::function<void()>& work,
                        const std::function<void()>& lead, const std::function<void()>& stop) {
  std::vector<std::thread> threads;
  const auto join_all = [&threads] {
    for (auto& t : threads) t.join();
  };
  try {
    for (std::size_t i = 0; i < n; ++i) threads.emplace_back(work);
    lead();
  } catch (...) {
    stop();
    join_all();
    throw;
  }
  join_all();
}

}  // namespace frictionlab::parallel
