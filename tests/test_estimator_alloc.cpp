// The estimator's per-cycle functions never allocate: the allocation trap (allocation_trap.hpp)
// is armed around step() calls of the C++ estimator (float and double, every input mode, with a
// correction), set_params/reset, and the C API. A first test proves that the trap does catch an
// allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <new>

#include "allocation_trap.hpp"
#include "estimator_fixtures.hpp"
#include "frictionlab/estimator/adaptive_estimator.h"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/estimator/torque_estimator.h"
#include "frictionlab/estimator/torque_estimator.hpp"

namespace frictionlab {
namespace {

using testing::Trap;

TEST(EstimatorAllocation, TheTrapCatchesAnAllocation) {
  void* (*volatile op_new)(std::size_t) = &::operator new;
  long n = 0;
  {
    Trap trap;
    void* p = op_new(32);
    n = trap.count();
    ::operator delete(p);
  }
  EXPECT_GE(n, 1);  // operator new, and the malloc it calls where malloc is trapped too
#if FRICTIONLAB_TRAP_MALLOC
  void* (*volatile c_malloc)(std::size_t) = &std::malloc;
  {
    Trap trap;
    void* p = c_malloc(32);
    n = trap.count();
    std::free(p);
  }
  EXPECT_EQ(n, 1);
#endif
}

template <class S>
void run_trapped(const estimator::EstimatorParams<double>& pd, const test::RecordedInput& rec,
                 long& allocations, double& checksum) {
  auto e = estimator::make_estimator<S>(pd);  // host side: may allocate
  auto q = estimator::convert<S>(pd);
  q.friction.sigma0 *= S(2);
  const std::size_t n = rec.t.size();
  Trap trap;
  e.reset(S(0), static_cast<S>(rec.v[0]));
  for (std::size_t k = 1; k < n; ++k) {
    const S dt = static_cast<S>(rec.t[k] - rec.t[k - 1]);
    const S u = k % 1000 < 10 ? S(1e-4) : S(0);
    const auto a = e.step(static_cast<S>(rec.i[k]), static_cast<S>(rec.v[k]), dt, u);
    const auto b = e.step_displacement(static_cast<S>(rec.i[k]),
                                       static_cast<S>(rec.x[k] - rec.x[k - 1]), dt, u);
    checksum += static_cast<double>(a.torque + b.torque);
    if (k == n / 2) {
      (void)e.set_params(q);
      e.reset(e.state().z, e.state().v_prev);
    }
  }
  allocations += trap.count();
}

TEST(EstimatorAllocation, StepNeverAllocates) {
  const auto pl = test::joint_params(Hold::linear);
  const auto rec = test::pendulum_record(pl.Km);
  long allocations = 0;
  double checksum = 0;
  for (const auto& p : {pl, test::joint_params(Hold::zoh), test::joint_params_vd()}) {
    run_trapped<float>(p, rec, allocations, checksum);
    run_trapped<double>(p, rec, allocations, checksum);
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_TRUE(std::isfinite(checksum));
}

TEST(EstimatorAllocation, CApiNeverAllocates) {
  const auto p = test::joint_params();
  const auto rec = test::pendulum_record(p.Km);
  const auto c = estimator::to_c_params<fl_estimator_params_f32>(p);
  const auto c64 = estimator::to_c_params<fl_estimator_params_f64>(test::joint_params(Hold::zoh));
  fl_estimator_f32 e32;
  fl_estimator_f64 e64;
  double checksum = 0;
  long n = 0;
  {
    Trap trap;
    (void)fl_estimator_f32_init(&e32, &c);
    (void)fl_estimator_f64_init(&e64, &c64);
    for (std::size_t k = 1; k < rec.t.size(); ++k) {
      const double dt = rec.t[k] - rec.t[k - 1];
      checksum += static_cast<double>(fl_estimator_f32_step(&e32, static_cast<float>(rec.i[k]),
                                                            static_cast<float>(rec.v[k]),
                                                            static_cast<float>(dt), 0.0f)
                                          .torque);
      checksum +=
          fl_estimator_f64_step_displacement(&e64, rec.i[k], rec.x[k] - rec.x[k - 1], dt, 0.0)
              .torque;
    }
    (void)fl_estimator_f32_set_params(&e32, &c);
    fl_estimator_f32_reset(&e32, 0.0f, 0.0f);
    n = trap.count();
  }
  EXPECT_EQ(n, 0);
  EXPECT_TRUE(std::isfinite(checksum));
}

TEST(EstimatorAllocation, AdaptiveNeverAllocates) {
  const auto p = test::joint_params();
  const auto rec = test::pendulum_record(p.Km);
  const auto c = estimator::to_c_params<fl_estimator_params_f32>(p);
  fl_adaptive_f32 a;
  fl_adaptive_options_f32 o;
  double checksum = 0;
  long n = 0;
  {
    Trap trap;
    fl_adaptive_f32_default_options(&o);
    (void)fl_adaptive_f32_init(&a, &c, &o);
    for (std::size_t k = 1; k < rec.t.size(); ++k) {
      const auto r =
          fl_adaptive_f32_step(&a, static_cast<float>(rec.i[k]), static_cast<float>(rec.v[k]),
                               static_cast<float>(rec.t[k] - rec.t[k - 1]), 25.0f, 0.1f, 1);
      checksum += static_cast<double>(r.torque);
    }
    (void)fl_adaptive_f32_freeze(&a, 0u);
    fl_adaptive_f32_enable(&a, 0);
    n = trap.count();
  }
  EXPECT_EQ(n, 0);
  EXPECT_TRUE(std::isfinite(checksum));
}

}  // namespace
}  // namespace frictionlab
