// frictionlab workflows: simulate_batch: many LuGre parameter sets driven by one velocity
// record at once (docs/simulation.md, "Batch simulation"), SIMD over the sets
// (models/lugre/batch.hpp). For fleet runs (one trajectory, the parameters of many joints) and
// population-based searches (CMA-ES: one generation of candidates on one record).
//
// Typed inputs in memory, a typed result out; nothing is printed or written.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::workflows {

/// The largest result simulate_batch accepts: P * N <= 2^28 forces (2 GiB of doubles).
inline constexpr double kMaxBatchValues = 268435456.0;

struct SimulateBatchOutcome {
  std::size_t sets = 0;     ///< P, the number of parameter sets
  std::size_t samples = 0;  ///< N, the number of samples of the record
  /// Friction force [N] of set i at sample k in F[i * samples + k] (a P x N row-major matrix).
  std::vector<double> F;
  /// Bristle deflection z [m] of every set at the last sample t[N-1].
  std::vector<double> z_final;
  /// The SIMD path taken: "portable", "avx2" or "avx512" (workflows/batch_simd.hpp).
  std::string simd;
  /// Accepted but doubtful parameters (check(params)'s warnings, e.g. a set that is not
  /// passive), each prefixed "parameter set i: ".
  std::vector<std::string> warnings;
};

/// Drive every LuGre parameter set of `sets` from its zero state along the record (t, v): the
/// velocity held over each interval (Hold::zoh) and the exact step, in double precision
/// (LuGreBatch<double>) on the widest SIMD path of this CPU, batch_simd() (the environment
/// variable FRICTIONLAB_BATCH_SIMD=portable forces the portable one). Each row of F equals
/// simulate_model's F for that set with Method::exact, Hold::zoh, max_substep 0, up to rounding
/// (measured on every path: tests/test_lugre_batch.cpp).
/// Progress: one report per block of samples with the fraction done; cancel is polled between
/// blocks (Cancelled: nothing returned).
/// Throws std::invalid_argument if `sets` is empty; if a set has a parameter error of
/// check(params) ("parameter set i: parameter 'NAME': ..."); if t and v differ in length or
/// hold fewer than 2 samples; if a time or velocity is not finite or exceeds
/// data::kMaxMagnitude ("sample k: ..."); if t is not strictly increasing ("sample k: ...");
/// if P * N exceeds kMaxBatchValues; if FRICTIONLAB_BATCH_SIMD holds an unknown value.
/// std::runtime_error if a force is not finite or exceeds data::kMaxMagnitude (naming the set
/// and the sample).
SimulateBatchOutcome simulate_batch(std::span<const LuGre<double>::Params> sets,
                                    std::span<const double> t, std::span<const double> v,
                                    const Progress& progress = {});

}  // namespace frictionlab::workflows
