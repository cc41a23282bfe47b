// frictionlab workflows: LuGreBatch's kernel (models/lugre/batch_kernel.hpp) on a wider SIMD
// packet than the portable build's. src/CMakeLists.txt compiles this file twice, as the object
// libraries frictionlab_workflows_avx2 (-mavx2 -mfma: Packet4d, Packet8f) and
// frictionlab_workflows_avx512 (-mavx512f -mavx2 -mfma: Packet8d, Packet16f), each with
// FRICTIONLAB_SIMD_NS = simd_<path>, and adds both to frictionlab::workflows;
// src/workflows/batch_simd.cpp calls them only when the CPU has the instructions.
//
// One definition rule (models/lugre/batch_kernel.hpp, top): this translation unit must define
// no symbol that a portable one may also define, or the linker may hand portable code a copy
// with AVX instructions. So it includes Eigen/Core and the kernel only, instantiates the kernel
// on a tag of an anonymous namespace (internal linkage), evaluates the tables as constants
// (no code run, no guard variables) and defines two functions of its own namespace; it is
// compiled with -fno-exceptions (it throws nothing), so that it needs no reference to the C++
// personality routine either (DW.ref.__gxx_personality_v0, a weak data symbol).
// tests/simd/check_symbols.cmake (CTest lugre_batch_simd_symbols_<path>) checks the object with nm.
// GCC 12's avx512fintrin.h initialises its undefined-vector helpers from themselves
// (`__m512d __Y = __Y;`), which -Wmaybe-uninitialized reports wherever Eigen's AVX-512 exp and
// log are inlined (GCC bug 105593, fixed in GCC 13): off for this file, before the headers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "frictionlab/models/lugre/batch_kernel.hpp"

#ifndef FRICTIONLAB_SIMD_NS
#error "FRICTIONLAB_SIMD_NS (simd_avx2, simd_avx512) is set by src/CMakeLists.txt"
#endif

namespace {
struct Tag {};  // internal linkage: every kernel instantiated on it is local to this object
template <class S>
using Packet = typename Eigen::internal::packet_traits<S>::type;
}  // namespace

namespace frictionlab::workflows::FRICTIONLAB_SIMD_NS {

static_assert(Eigen::internal::packet_traits<double>::size >= 4,
              "compiled with at least -mavx2: 4 doubles per packet");

const lugre_batch::Kernels<double>& kernels_double() noexcept {
  static constexpr lugre_batch::Kernels<double> k =
      lugre_batch::make_kernels<Packet<double>, Tag>(FRICTIONLAB_SIMD_NAME);
  return k;
}

const lugre_batch::Kernels<float>& kernels_float() noexcept {
  static constexpr lugre_batch::Kernels<float> k =
      lugre_batch::make_kernels<Packet<float>, Tag>(FRICTIONLAB_SIMD_NAME);
  return k;
}

}  // namespace frictionlab::workflows::FRICTIONLAB_SIMD_NS
