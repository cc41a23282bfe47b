// frictionlab workflows: the run-time choice of the batch simulation's SIMD path
// (include/frictionlab/workflows/batch_simd.hpp). Compiled with the default (portable) flags:
// it only asks the CPU and hands out the tables of the wide translation units
// (src/workflows/simd/lugre_batch_wide.cpp), which it never calls itself.
#include "frictionlab/workflows/batch_simd.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace frictionlab::workflows {

// The wide paths' tables (src/workflows/simd/lugre_batch_wide.cpp; FRICTIONLAB_HAVE_SIMD_*
// from src/CMakeLists.txt when the compiler builds them).
#if FRICTIONLAB_HAVE_SIMD_AVX2
namespace simd_avx2 {
const lugre_batch::Kernels<double>& kernels_double() noexcept;
const lugre_batch::Kernels<float>& kernels_float() noexcept;
}  // namespace simd_avx2
#endif
#if FRICTIONLAB_HAVE_SIMD_AVX512
namespace simd_avx512 {
const lugre_batch::Kernels<double>& kernels_double() noexcept;
const lugre_batch::Kernels<float>& kernels_float() noexcept;
}  // namespace simd_avx512
#endif

std::string_view batch_simd_name(BatchSimd simd) noexcept {
  return name_of(kBatchSimdNames, simd, "portable");
}

bool batch_simd_available(BatchSimd simd) noexcept {
  switch (simd) {
    case BatchSimd::portable:
      return true;
#if FRICTIONLAB_HAVE_SIMD_AVX2
    case BatchSimd::avx2:
      __builtin_cpu_init();
      // __builtin_cpu_supports also asks the OS (XGETBV) whether it saves the wide registers.
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if FRICTIONLAB_HAVE_SIMD_AVX512
    case BatchSimd::avx512:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
             __builtin_cpu_supports("fma");
#endif
    default:
      return false;
  }
}

BatchSimd batch_simd() {
  BatchSimd cap = BatchSimd::avx512;
  if (const char* env = std::getenv("FRICTIONLAB_BATCH_SIMD"); env != nullptr && *env != '\0') {
    const std::string_view e(env);
    const auto named = parse_name(kBatchSimdNames, e);
    if (!named)
      throw std::invalid_argument("FRICTIONLAB_BATCH_SIMD = '" + std::string(e) + "': must be " +
                                  known_names(kBatchSimdNames, ", ", " or ") +
                                  " (the widest SIMD path the batch simulation may take)");
    cap = *named;
  }
  for (BatchSimd s : {BatchSimd::avx512, BatchSimd::avx2})
    if (static_cast<int>(s) <= static_cast<int>(cap) && batch_simd_available(s)) return s;
  return BatchSimd::portable;
}

template <class S>
const lugre_batch::Kernels<S>& lugre_batch_kernels(BatchSimd simd) {
  if (!batch_simd_available(simd))
    throw std::invalid_argument("batch simulation: the SIMD path '" +
                                std::string(batch_simd_name(simd)) +
                                "' is not available (not built, or this CPU lacks it)");
  constexpr bool dbl = std::is_same_v<S, double>;
  switch (simd) {
#if FRICTIONLAB_HAVE_SIMD_AVX2
    case BatchSimd::avx2:
      if constexpr (dbl)
        return simd_avx2::kernels_double();
      else
        return simd_avx2::kernels_float();
#endif
#if FRICTIONLAB_HAVE_SIMD_AVX512
    case BatchSimd::avx512:
      if constexpr (dbl)
        return simd_avx512::kernels_double();
      else
        return simd_avx512::kernels_float();
#endif
    default:
      return lugre_batch::kPortable<S>;
  }
}

template const lugre_batch::Kernels<double>& lugre_batch_kernels<double>(BatchSimd);
template const lugre_batch::Kernels<float>& lugre_batch_kernels<float>(BatchSimd);

}  // namespace frictionlab::workflows
