// LuGreBatch's sample() and simulate() allocate nothing (models/lugre/batch.hpp): this test
// binary builds Eigen with EIGEN_RUNTIME_NO_MALLOC and an eigen_assert that counts failures
// instead of aborting (it works in Release, where eigen_assert is otherwise off), and forbids
// Eigen's heap allocations around the calls. A first test proves that the trap catches one.
// (Its own binary: no other translation unit may see this eigen_assert.)
#define EIGEN_RUNTIME_NO_MALLOC
namespace frictionlab_test {
inline int eigen_failures = 0;
}
#define eigen_assert(x) \
  do {                  \
    if (!(x)) ++frictionlab_test::eigen_failures; \
  } while (false)

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "frictionlab/models/lugre/batch.hpp"

namespace frictionlab {
namespace {

TEST(LuGreBatchAlloc, TheTrapCatchesAnEigenAllocation) {
  frictionlab_test::eigen_failures = 0;
  Eigen::internal::set_is_malloc_allowed(false);
  Eigen::ArrayXd a(100);
  Eigen::internal::set_is_malloc_allowed(true);
  a.setZero();
  EXPECT_GT(frictionlab_test::eigen_failures, 0);
}

template <class S>
void no_allocation() {
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
  LuGreBatch<S> b(sets);  // allocates (before the trap)
  frictionlab_test::eigen_failures = 0;
  Eigen::internal::set_is_malloc_allowed(false);
  b.simulate(t.data(), v.data(), 500, F.data(), 500);
  b.sample(S(-0.02), S(1e-3), F.data(), 500);
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(frictionlab_test::eigen_failures, 0);
  for (S f : F) ASSERT_TRUE(std::isfinite(f));
}

TEST(LuGreBatchAlloc, SimulateAndSampleAllocateNothing) {
  no_allocation<double>();
  no_allocation<float>();
}

}  // namespace
}  // namespace frictionlab
