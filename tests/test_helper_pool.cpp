// for_each_index on the process's helper threads (identify/parallel.{hpp,cpp}):
// every index runs exactly once, from several calling threads at once and from passes nested
// in passes (more threads asked for than there are cores); the first exception comes back to the
// caller; tasks that wait for an earlier index to finish (the Jacobian's segments wait for the
// value simulation, task 0) do not deadlock; and a child process made by fork() after the
// helpers started runs passes of its own. Tasks (parallel::Task): the value or the exception of
// their work, whether a helper or the caller ran it, and tasks that wait on other tasks.
// run_on_own_threads: `stop` and the exception when the lead throws.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "parallel.hpp"

namespace frictionlab::identify::detail {
namespace {

/// for_each_index(n, threads) marks every index; true if each was marked exactly once.
bool each_once(std::size_t n, int threads) {
  std::vector<std::atomic<int>> seen(n);
  for_each_index(n, threads, [&](std::size_t i) { seen[i].fetch_add(1); });
  for (const auto& s : seen)
    if (s.load() != 1) return false;
  return true;
}

TEST(HelperPool, EveryIndexOnceForAnyThreadCount) {
  for (const int threads : {1, 2, 3, 8, 0})
    for (const std::size_t n : {0u, 1u, 2u, 7u, 1000u})
      EXPECT_TRUE(each_once(n, threads)) << threads << " " << n;
}

TEST(HelperPool, SeveralCallersAtOnce) {
  std::vector<std::thread> callers;
  callers.reserve(4);
  std::atomic<int> good{0};
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&good] {
      for (int r = 0; r < 50; ++r)
        if (each_once(257, 2)) good.fetch_add(1);
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(good.load(), 200);
}

TEST(HelperPool, NestedPasses) {
  // The multi-start's shape: solves in parallel, each with parallel passes of its own.
  std::vector<std::atomic<int>> seen(std::size_t{16} * 100);
  for_each_index(16, 4, [&](std::size_t i) {
    for_each_index(100, 4, [&](std::size_t j) {
      for_each_index(3, 2, [](std::size_t) {});
      seen[i * 100 + j].fetch_add(1);
    });
  });
  for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
}

TEST(HelperPool, TasksWaitingForTaskZeroFinish) {
  // Tasks 1.. wait until task 0 has run (handed out in order: task 0 has started whenever
  // another has), with more threads asked for than there are cores.
  for (int rep = 0; rep < 200; ++rep) {
    std::atomic<bool> zero_done{false};
    std::atomic<int> after{0};
    for_each_index(9, 8, [&](std::size_t i) {
      if (i == 0) {
        zero_done.store(true);
        zero_done.notify_all();
        return;
      }
      zero_done.wait(false);
      after.fetch_add(1);
    });
    ASSERT_EQ(after.load(), 8);
  }
}

TEST(HelperPool, TheFirstExceptionReachesTheCaller) {
  std::atomic<int> ran{0};
  EXPECT_THROW(for_each_index(1000, 2,
                              [&](std::size_t i) {
                                ran.fetch_add(1);
                                if (i == 37) throw std::runtime_error("task 37");
                                std::this_thread::sleep_for(std::chrono::microseconds(200));
                              }),
               std::runtime_error);
  EXPECT_LT(ran.load(), 100);      // no new index after the failure (but those already running)
  EXPECT_TRUE(each_once(100, 2));  // and the helpers still work
}

/// Whether the two tasks of a 2-thread pass ran at the same time (each waits up to 10 s for the
/// other to have started): a helper took one.
bool ran_together() {
  std::atomic<int> started{0};
  std::atomic<int> met{0};
  for_each_index(2, 2, [&](std::size_t) {
    started.fetch_add(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    if (started.load() == 2) met.fetch_add(1);
  });
  return met.load() == 2;
}

TEST(HelperPool, AForkedChildRunsPassesOfItsOwn) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: no helper threads";
  ASSERT_TRUE(ran_together());  // the helpers have started, and take work
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(30);  // a deadlock ends the child by SIGALRM: the status below is then not 0
    const bool ok = each_once(1000, 2) && each_once(10, 4) && ran_together();
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child was ended by signal "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(each_once(100, 2));  // the parent's helpers too
}

TEST(Tasks, ValuesAndExceptionsComeBack) {
  for (int rep = 0; rep < 200; ++rep) {
    parallel::Task<std::vector<int>> squares = parallel::start_task([] {
      std::vector<int> v(100);
      for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = i * i;
      return v;
    });
    parallel::Task<int> fails = parallel::start_task([]() -> int { throw std::logic_error("x"); });
    EXPECT_TRUE(squares.valid());
    const std::vector<int> v = squares.get();
    EXPECT_FALSE(squares.valid());
    ASSERT_EQ(v.size(), 100u);
    EXPECT_EQ(v[99], 9801);
    EXPECT_THROW(fails.get(), std::logic_error);
  }
}

TEST(Tasks, ATaskMayWaitForAnotherAndRunPasses) {
  // workflows::fit's shape: the second task takes the first's value; both inside a pass.
  for (int rep = 0; rep < 100; ++rep) {
    std::vector<long> sums(4, 0);
    for_each_index(4, 2, [&](std::size_t i) {
      parallel::Task<long> first = parallel::start_task([i] { return static_cast<long>(i) + 1; });
      parallel::Task<long> second = parallel::start_task([&first] {
        std::vector<long> part(10, 0);
        for_each_index(10, 2, [&](std::size_t j) { part[j] = static_cast<long>(j); });
        return first.get() + std::accumulate(part.begin(), part.end(), 0L);
      });
      sums[i] = second.get();
    });
    EXPECT_EQ(sums, (std::vector<long>{46, 47, 48, 49}));
  }
}

TEST(Tasks, ATaskNotCollectedIsWaitedFor) {
  std::atomic<int> ran{0};
  {
    parallel::Task<int> t = parallel::start_task([&ran] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return ran.fetch_add(1) + 1;
    });
  }
  EXPECT_EQ(ran.load(), 1);
}

TEST(OwnThreads, TheLeadsExceptionStopsTheWorkers) {
  std::mutex m;
  std::condition_variable cv;
  bool stop = false;
  std::atomic<int> returned{0};
  const auto work = [&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return stop; });
    returned.fetch_add(1);
  };
  const auto stop_all = [&] {
    const std::lock_guard<std::mutex> lock(m);
    stop = true;
    cv.notify_all();
  };
  EXPECT_THROW(parallel::run_on_own_threads(
                   3, work, [] { throw std::runtime_error("cancelled"); }, stop_all),
               std::runtime_error);
  EXPECT_EQ(returned.load(), 3);
  stop = false;
  parallel::run_on_own_threads(3, work, stop_all, [] {});
  EXPECT_EQ(returned.load(), 6);
}

}  // namespace
}  // namespace frictionlab::identify::detail
