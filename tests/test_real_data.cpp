// Models driven by a measured velocity record: the DFKI pendulum's gravity-compensation run
// (../shared/data/pendulum_dfki/gravcomp_data_measured.csv, 30000 rows, ~1 kHz, real encoder
// velocity with noise, many reversals and sample-time jitter up to 5.5 ms).
//
// Oracles: (1) the strict CSV reader accepts the record and its time is strictly increasing;
// (2) the exact ZOH step is independent of substepping on the measured input (to rounding);
// (3) decimating the record to 10 ms, the exact step adds no error beyond the input's own
//     sampling: its distance to the full-rate run is within 1.25x of the distance of a
//     0.1 ms-substepped run on the same decimated input (the same criterion as the synthetic
//     test in test_lugre.cpp);
// (4) forward Euler at the record's own ~1 kHz rate leaves the LuGre state bound for a realistic
//     bristle stiffness, the exact step never does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/models/lugre.hpp"

namespace frictionlab {
namespace {

const std::string kRecord = std::string(FRICTIONLAB_SOURCE_DIR) +
                            "/../shared/data/pendulum_dfki/gravcomp_data_measured.csv";

/// A rotary LuGre set of plausible size for this joint [N m, rad, rad/s]: Fc and sigma2 near the
/// owners' published Coulomb/viscous values, sigma0 = 2e3 N m/rad (bristle deflection at Fs of
/// 0.1 mrad), a light bristle damping sigma1 = 0.05 N m s/rad (a large sigma1 multiplies the
/// measured velocity noise through dz/dt and would dominate every force comparison).
LuGre<double>::Params joint_lugre() {
  LuGre<double>::Params p{.sigma0 = 2e3,
                          .sigma1 = 0.05,
                          .sigma2 = 0.047,
                          .curve = StribeckCurve<double>::symmetric(0.18, 0.25, 0.1, 2.0)};
  return p;
}

struct Run {
  std::vector<double> F;
  double zmax = 0;
};

Run drive_record(const std::vector<double>& t, const std::vector<double>& v, Method m, Hold hold,
                 double max_substep) {
  using M = LuGre<double>;
  const auto p = joint_lugre();
  Run r;
  r.F.resize(t.size());
  drive<M>(p, M::State{}, t.data(), v.data(), static_cast<long>(t.size()), m, hold, max_substep,
           [&](long k, double f, const M::State& x) {
             r.F[static_cast<std::size_t>(k)] = f;
             r.zmax = std::max(r.zmax, std::abs(x.z));
           });
  return r;
}

class MeasuredPendulum : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kRecord)) GTEST_SKIP() << "no shared data at " << kRecord;
    const auto table = io::read_csv(kRecord);
    io::require_strictly_increasing(table, "time");
    t = table.column("time");
    v = table.column("velocity");
  }
  std::vector<double> t, v;
};

TEST_F(MeasuredPendulum, RecordIsReadStrictlyAndCompletely) {
  EXPECT_EQ(t.size(), 30000u);
  double vmax = 0;
  long reversals = 0;
  for (std::size_t k = 0; k < v.size(); ++k) {
    vmax = std::max(vmax, std::abs(v[k]));
    if (k > 0 && v[k] * v[k - 1] < 0) ++reversals;
  }
  EXPECT_GT(vmax, 1.0);       // rad/s: a real swing, not a resting record
  EXPECT_GT(reversals, 100);  // noisy velocity: many sign changes
}

TEST_F(MeasuredPendulum, ExactStepIgnoresSubsteppingOfTheHeldMeasuredInput) {
  const auto a = drive_record(t, v, Method::exact, Hold::zoh, 0);
  const auto b = drive_record(t, v, Method::exact, Hold::zoh, 1e-5);
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.F.size(); ++k) {
    diff = std::max(diff, std::abs(a.F[k] - b.F[k]));
    scale = std::max(scale, std::abs(b.F[k]));
  }
  RecordProperty("max_force_difference", std::to_string(diff));
  EXPECT_LE(diff, 1e-9 * scale);
}

TEST_F(MeasuredPendulum, TenMillisecondStepAddsNothingBeyondInputSampling) {
  // Full-rate reference (linear hold, 0.1 ms substeps).
  const auto ref = drive_record(t, v, Method::exact, Hold::linear, 1e-4);
  // The record decimated to every 10th sample (~10 ms).
  std::vector<double> td, vd;
  for (std::size_t k = 0; k < t.size(); k += 10) {
    td.push_back(t[k]);
    vd.push_back(v[k]);
  }
  const auto coarse = drive_record(td, vd, Method::exact, Hold::linear, 0);
  const auto sub = drive_record(td, vd, Method::exact, Hold::linear, 1e-4);
  double e_coarse = 0, e_sub = 0;
  for (std::size_t j = 0; j < td.size(); ++j) {
    e_coarse = std::max(e_coarse, std::abs(coarse.F[j] - ref.F[10 * j]));
    e_sub = std::max(e_sub, std::abs(sub.F[j] - ref.F[10 * j]));
  }
  RecordProperty("err_10ms_step", std::to_string(e_coarse));
  RecordProperty("err_input_sampling", std::to_string(e_sub));
  std::printf(
      "[measured] measured pendulum velocity, 10 ms: step %.4g N m, input sampling %.4g N m\n",
      e_coarse, e_sub);
  EXPECT_LE(e_coarse, 1.25 * e_sub);
}

TEST_F(MeasuredPendulum, ForwardEulerAtTheRecordRateLeavesTheBoundExactStepDoesNot) {
  const auto p = joint_lugre();
  const double bound = LuGre<double>::state_bound(p);
  const auto exact = drive_record(t, v, Method::exact, Hold::zoh, 0);
  const auto euler = drive_record(t, v, Method::forward_euler, Hold::zoh, 0);
  RecordProperty("exact_zmax_over_bound", std::to_string(exact.zmax / bound));
  RecordProperty("euler_zmax_over_bound", std::to_string(euler.zmax / bound));
  EXPECT_LE(exact.zmax, bound * (1 + 1e-12));
  EXPECT_FALSE(euler.zmax <= 2 * bound) << euler.zmax / bound;  // far outside, or non-finite
}

}  // namespace
}  // namespace frictionlab
