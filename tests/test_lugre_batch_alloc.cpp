// LuGreBatch's sample() and simulate() allocate nothing (models/lugre/batch.hpp), on every SIMD
// path this CPU has (workflows/batch_simd.hpp): this test binary builds Eigen with
// EIGEN_RUNTIME_NO_MALLOC and an eigen_assert that counts failures instead of aborting (it works
// in Release, where eigen_assert is otherwise off), and forbids Eigen's heap allocations around
// the calls; it also replaces the global operator new with one that counts its calls. A first
// test proves that the traps catch an allocation.
// (Its own binary: no other translation unit may see this eigen_assert.)
#define EIGEN_RUNTIME_NO_MALLOC
namespace frictionlab_test {
inline int eigen_failures = 0;
}
#define eigen_assert(x)                           \
  do {                                            \
    if (!(x)) ++frictionlab_test::eigen_failures; \
  } while (false)

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "frictionlab/models/lugre/batch.hpp"
#include "frictionlab/workflows/batch_simd.hpp"

namespace frictionlab_test {
std::atomic<long> news{0};  // calls of the global operator new (not the aligned one)
}

void* operator new(std::size_t n) {
  ++frictionlab_test::news;
  if (void* p = std::malloc(n > 0 ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace frictionlab {
namespace {

TEST(LuGreBatchAlloc, TheTrapCatchesAnEigenAllocation) {
  frictionlab_test::eigen_failures = 0;
  Eigen::internal::set_is_malloc_allowed(false);
  Eigen::ArrayXd a(100);
  Eigen::internal::set_is_malloc_allowed(true);
  a.setZero();
  EXPECT_GT(frictionlab_test::eigen_failures, 0);
  const long before = frictionlab_test::news;
  auto* v = new std::vector<double>(100);
  EXPECT_GE(frictionlab_test::news - before, 2);
  delete v;
}

template <class S>
void no_allocation(workflows::BatchSimd simd) {
  SCOPED_TRACE(std::string(workflows::batch_simd_name(simd)));
  std::vector<typename LuGre<S>::Params> sets(9);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    sets[i].sigma0 = S(1e4) * S(i + 1);
    sets[i].curve.alpha = i % 3 == 0 ? S(1.37) : S(2);
    sets[i].curve.Fc_neg = S(0.8);
    if (i % 4 == 1) sets[i].curve.shape = StribeckShape::rational;
    if (i % 2 == 1) sets[i].vd = S(0.01);
  }
  std::vector<S> t, v;
  for (int k = 0; k < 500; ++k) {
    t.push_back(S(k) * S(1e-3));
    v.push_back(k % 50 == 0 ? S(0) : S(0.01 * std::sin(k * 0.05)));
  }
  std::vector<S> F(sets.size() * t.size());
  LuGreBatch<S> b(sets, workflows::lugre_batch_kernels<S>(simd));  // allocates (before the trap)
  frictionlab_test::eigen_failures = 0;
  const long before = frictionlab_test::news;
  Eigen::internal::set_is_malloc_allowed(false);
  b.simulate(t.data(), v.data(), 500, F.data(), 500);
  b.sample(S(-0.02), S(1e-3), F.data(), 500);
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(frictionlab_test::news - before, 0);
  EXPECT_EQ(frictionlab_test::eigen_failures, 0);
  for (S f : F) ASSERT_TRUE(std::isfinite(f));
}

TEST(LuGreBatchAlloc, SimulateAndSampleAllocateNothing) {
  using workflows::BatchSimd;
  for (BatchSimd simd : {BatchSimd::portable, BatchSimd::avx2, BatchSimd::avx512}) {
    if (!workflows::batch_simd_available(simd)) {
      std::printf("[   INFO   ] SIMD path %s not available here: skipped\n",
                  std::string(workflows::batch_simd_name(simd)).c_str());
      continue;
    }
    no_allocation<double>(simd);
    no_allocation<float>(simd);
  }
}

}  // namespace
}  // namespace frictionlab
