// frictionlab workflows: the SIMD path of the batch simulation (LuGreBatch,
// models/lugre/batch.hpp), chosen at run time (docs/simulation.md, "Batch simulation").
//
// LuGreBatch's kernel (models/lugre/batch_kernel.hpp) is compiled three times: with the flags of
// the code that includes it (portable: SSE2, 2 doubles or 4 floats per packet, with the default
// x86-64 flags), and, on x86-64, in src/workflows/simd/lugre_batch_wide.cpp once with
// -mavx2 -mfma (4 doubles or 8 floats) and once with -mavx512f (8 doubles or 16 floats). The
// widest path this CPU runs is taken (__builtin_cpu_supports); the environment variable
// FRICTIONLAB_BATCH_SIMD=portable|avx2|avx512 caps it (portable: the portable path everywhere,
// e.g. to compare the paths on one machine). simulate_batch (workflows/batch.hpp) and Python's
// frictionlab.simulate_batch take batch_simd().
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "frictionlab/models/lugre/batch.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab::workflows {

enum class BatchSimd { portable, avx2, avx512 };

/// The paths' names (FRICTIONLAB_BATCH_SIMD, BatchResult::simd), narrowest first.
inline constexpr std::array<Named<BatchSimd>, 3> kBatchSimdNames{
    {{BatchSimd::portable, "portable"}, {BatchSimd::avx2, "avx2"}, {BatchSimd::avx512, "avx512"}}};
static_assert(names_every(kBatchSimdNames, BatchSimd::avx512));

/// "portable", "avx2", "avx512".
std::string_view batch_simd_name(BatchSimd simd) noexcept;

/// Whether this build holds the path and this CPU runs it (the portable path: always).
bool batch_simd_available(BatchSimd simd) noexcept;

/// The path simulate_batch takes: the widest available one, no wider than
/// FRICTIONLAB_BATCH_SIMD says when it is set. Throws std::invalid_argument if that variable
/// holds another value than portable, avx2 or avx512.
BatchSimd batch_simd();

/// The kernels of a path (S = double or float), for LuGreBatch's constructor. Throws
/// std::invalid_argument if the path is not available (batch_simd_available).
template <class S>
const lugre_batch::Kernels<S>& lugre_batch_kernels(BatchSimd simd);

/// A LuGreBatch on the given path (by default batch_simd()).
template <class S>
LuGreBatch<S> make_lugre_batch(std::span<const typename LuGre<S>::Params> sets,
                               BatchSimd simd = batch_simd()) {
  return LuGreBatch<S>(sets, lugre_batch_kernels<S>(simd));
}

}  // namespace frictionlab::workflows
