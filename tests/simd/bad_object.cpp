// A deliberately bad wide object (compiled with -mavx2 -mfma by tests/lugre_batch_simd.cmake,
// never linked): taking the address of the inline template frictionlab::sgn<double>
// (models/common.hpp, which every portable model uses) makes the compiler emit an out-of-line
// weak copy of it, compiled for AVX2. The test lugre_batch_simd_symbols_catches checks that
// tests/simd/check_symbols.cmake rejects it.
#include "frictionlab/models/common.hpp"

namespace frictionlab::workflows::simd_bad {

using SignFn = double (*)(const double&) noexcept;

SignFn sign_function() { return &frictionlab::sgn<double>; }

}  // namespace frictionlab::workflows::simd_bad
