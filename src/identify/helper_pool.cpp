// frictionlab identify: the threads that for_each_index's work runs on besides the caller's
// (internal.hpp, run_with_helpers). A fit runs a dozen short parallel passes (the static pairs,
// the scans, every Jacobian's time segments, the HAC windows), each a millisecond or less on the
// 30 s record; starting and joining a thread for each cost about 35 us of it. The helpers are
// started once per process, on first use, and wait for work between passes.
//
// The caller of a pass always works on it itself and waits only for helpers that took part of
// it and are running: a pass never waits for a helper to become free. Tickets of a pass that no
// helper took before the caller ran out of work are withdrawn. So passes started from inside
// other passes (the multi-start's solves, each with its own Jacobian passes) cannot deadlock:
// a thread waits only on threads that are working, on passes nested inside its own.
//
// fork(): a child process has only the forking thread. The helpers' state is taken over by the
// child at its fork, with the lock held across fork (pthread_atfork), and replaced by a new, empty
// one there; the old one is left as is (its threads do not exist in the child).
#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "internal.hpp"

namespace frictionlab::identify::detail {

namespace {

class HelperPool {
 public:
  /// Runs `work` on the calling thread and on up to `helpers` idle helper threads at once.
  void run(std::size_t helpers, const std::function<void()>& work) {
    Job job(&work, helpers);
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
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    if (job.unclaimed > 0) {
      queue_.erase(std::find(queue_.begin(), queue_.end(), &job));
      job.unclaimed = 0;
    }
    job.finished.wait(lock, [&job] { return job.running == 0; });
  }

  std::mutex& mutex() { return mutex_; }

 private:
  struct Job {
    Job(const std::function<void()>* w, std::size_t helpers) : work(w), unclaimed(helpers) {}
    const std::function<void()>* work;
    std::size_t unclaimed;  ///< helpers that may still join
    std::size_t running = 0;
    std::condition_variable finished;
  };

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

}  // namespace frictionlab::identify::detail
