// frictionlab: the SIMD kernel of LuGreBatch (lugre/batch.hpp): a block of samples for every
// set, one Eigen packet of sets at a time, on raw pointers (docs/simulation.md, "Batch
// simulation"; the equations and the discretisation: lugre/batch.hpp).
//
// The kernel is a template on the packet type (Eigen::internal::Packet2d, Packet4d, Packet8d,
// ... : 2, 4, 8 doubles per instruction) and on a tag naming the compiled path, so that one
// source serves every instruction set: lugre/batch.hpp instantiates it on the packet of the
// flags it is compiled with (SSE2 for the default x86-64 flags, the portable path), and
// src/workflows/simd/lugre_batch_wide.cpp, compiled once with -mavx2 -mfma and once with
// -mavx512f, on the wider packets; workflows/batch_simd.hpp picks one at run time.
//
// One definition rule: a translation unit compiled with -mavx2 must not define an out-of-line
// copy of an inline function or template that portable code also uses (std::abs, an Eigen
// helper on Packet2d, ...): the linker keeps one copy of each such weak symbol, maybe the AVX2
// one, and portable code would then run AVX2 instructions and crash on a CPU without them.
// Hence the kernel
//   - touches only raw pointers and packets (no allocation, no Eigen::Array, no resize),
//   - is instantiated by the wide TU on a tag from an anonymous namespace (its symbols have
//     internal linkage there), and
//   - runs, on the wide paths, as block_flat (FRICTIONLAB_FLATTEN, GCC/clang `flatten`): every
//     call inside it, Eigen's pexp/plog included, is inlined, so that the wide TU emits no
//     out-of-line copy of them.
// The test lugre_batch_simd_symbols_<path> (tests/simd/check_symbols.cmake) lists the wide object's
// symbols with nm and fails if it defines any global symbol outside its own namespace.
//
// Needs Eigen/Core; no allocation, no I/O, no exceptions.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <cstddef>
#include <type_traits>

#if defined(__GNUC__) || defined(__clang__)
#define FRICTIONLAB_FLATTEN __attribute__((flatten))
#else
#define FRICTIONLAB_FLATTEN
#endif

namespace frictionlab::lugre_batch {

/// Alignment [bytes] of every lane array (LuGreBatch allocates them so): a whole cache line,
/// enough for the widest packet (AVX-512, 64 bytes).
inline constexpr std::size_t kAlign = 64;
/// Lanes per array are a multiple of this (two packets of the widest path: the kernels do two
/// packets per iteration).
template <class S>
inline constexpr long kLanePad = static_cast<long>(2 * kAlign / sizeof(S));

/// The tag of the portable path (the packet of the flags lugre/batch.hpp is compiled with).
struct Portable {};

/// The sets, one array per parameter, Pp lanes each (Pp a multiple of kLanePad<S>, each array
/// aligned to kAlign; the lanes past the last set repeat a valid set). dF = Fs - Fc.
template <class S>
struct Lanes {
  const S *sigma0, *sigma1, *sigma2, *Fc_pos, *Fc_neg, *dF_pos, *dF_neg, *inv_vs, *inv_sigma0,
      *alpha, *rational, *vd;
  S* z;  ///< the states [m]
  long Pp;
};

/// Samples k0..k1-1 of the record t[0..n-1], v[0..n-1]: F of every lane at sample k into
/// out[(k - k0) * Pp + lane] (out aligned to kAlign), then the exact step over t[k+1] - t[k]
/// (none after the last sample, k = n - 1).
template <class S>
using BlockFn = void (*)(const Lanes<S>& d, const S* t, const S* v, long k0, long k1, long n,
                         S* out) noexcept;

/// The kernels of one compiled path: fn[alpha][shape][vd] for alpha 0 (any), 1 or 2 in every
/// set; shape 0 all exponential, 1 all rational, 2 mixed; vd 0 none > 0, 1 some > 0.
template <class S>
struct Kernels {
  BlockFn<S> fn[3][3][2];
  int width;         ///< sets per packet
  const char* name;  ///< "portable", "avx2", "avx512"
};

namespace detail {

template <class Packet>
using Scalar = typename Eigen::internal::unpacket_traits<Packet>::type;

template <class Packet>
struct SampleConsts {
  Packet v, av, h, zero, one, sv;
  const Scalar<Packet>* Fc;
  const Scalar<Packet>* dF;
};

// One packet of W sets at lane j: F into out + j, the step when kStep.
template <class Packet, class Tag, int kAlpha, int kShape, bool kVd, bool kStep>
EIGEN_STRONG_INLINE void packet(const Lanes<Scalar<Packet>>& d, long j,
                                const SampleConsts<Packet>& c, Scalar<Packet>* out) noexcept {
  namespace ei = Eigen::internal;
  const Packet &pv = c.v, &pav = c.av, &ph = c.h, &zero = c.zero, &one = c.one, &psv = c.sv;
  // r^alpha, r = |v| / vs (pow(0, alpha) = 0)
  const Packet r = ei::pmul(pav, ei::pload<Packet>(d.inv_vs + j));
  Packet ra;
  if constexpr (kAlpha == 1) {
    ra = r;
  } else if constexpr (kAlpha == 2) {
    ra = ei::pmul(r, r);
  } else {
    ra = ei::pselect(ei::pcmp_lt(zero, r),
                     ei::pexp(ei::pmul(ei::pload<Packet>(d.alpha + j), ei::plog(r))), zero);
  }
  // g = Fc + (Fs - Fc) s(r)
  Packet shape;
  if constexpr (kShape == 0) {
    shape = ei::pexp(ei::pnegate(ra));
  } else if constexpr (kShape == 1) {
    shape = ei::pdiv(one, ei::padd(one, ra));
  } else {
    shape = ei::pselect(ei::pcmp_lt(zero, ei::pload<Packet>(d.rational + j)),
                        ei::pdiv(one, ei::padd(one, ra)), ei::pexp(ei::pnegate(ra)));
  }
  const Packet g =
      ei::padd(ei::pload<Packet>(c.Fc + j), ei::pmul(ei::pload<Packet>(c.dF + j), shape));
  const Packet s0 = ei::pload<Packet>(d.sigma0 + j);
  const Packet a = ei::pdiv(ei::pmul(s0, pav), g);  // sigma0 |v| / g
  const Packet z = ei::pload<Packet>(d.z + j);
  const Packet zdot = ei::psub(pv, ei::pmul(a, z));
  Packet damp = ei::pload<Packet>(d.sigma1 + j);
  if constexpr (kVd) {
    const Packet vd = ei::pload<Packet>(d.vd + j);
    const Packet q = ei::pdiv(pv, vd);
    damp = ei::pselect(ei::pcmp_lt(zero, vd), ei::pmul(damp, ei::pexp(ei::pnegate(ei::pmul(q, q)))),
                       damp);
  }
  const Packet f = ei::padd(ei::padd(ei::pmul(s0, z), ei::pmul(damp, zdot)),
                            ei::pmul(ei::pload<Packet>(d.sigma2 + j), pv));
  ei::pstore(out + j, f);
  if constexpr (kStep) {
    // z_ss + (z - z_ss) exp(-a h), z_ss = sgn(v) g / sigma0
    const Packet E = ei::pexp(ei::pnegate(ei::pmul(a, ph)));
    const Packet zss = ei::pmul(psv, ei::pmul(g, ei::pload<Packet>(d.inv_sigma0 + j)));
    ei::pstore(d.z + j, ei::padd(zss, ei::pmul(ei::psub(z, zss), E)));
  }
}

// A block of samples (BlockFn). Tag only names the compiled path (see the top of the file).
// The portable path uses it as it is; the wide paths use block_flat below.
template <class Packet, class Tag, int kAlpha, int kShape, bool kVd>
void block(const Lanes<Scalar<Packet>>& d, const Scalar<Packet>* t, const Scalar<Packet>* v,
           long k0, long k1, long n, Scalar<Packet>* out) noexcept {
  namespace ei = Eigen::internal;
  using S = Scalar<Packet>;
  constexpr long W = ei::unpacket_traits<Packet>::size;
  static_assert(2 * W <= kLanePad<S>, "kLanePad holds two packets of the widest path");
  for (long k = k0; k < k1; ++k, out += d.Pp) {
    const S vk = v[k];
    const S h = k + 1 < n ? t[k + 1] - t[k] : S(0);
    const bool pos = !(vk < S(0));  // the v > 0 side of the curve at v = 0, as stribeck_g
    const S sv = vk > S(0) ? S(1) : vk < S(0) ? S(-1) : S(0);  // sgn(v), common.hpp
    const SampleConsts<Packet> c{ei::pset1<Packet>(vk),     ei::pset1<Packet>(std::abs(vk)),
                                 ei::pset1<Packet>(h),      ei::pset1<Packet>(S(0)),
                                 ei::pset1<Packet>(S(1)),   ei::pset1<Packet>(sv),
                                 pos ? d.Fc_pos : d.Fc_neg, pos ? d.dF_pos : d.dF_neg};
    // Two independent packets per iteration: their long dependency chains (exp -> g -> a ->
    // exp) overlap in the CPU.
    if (h > S(0)) {
      for (long j = 0; j < d.Pp; j += 2 * W) {
        packet<Packet, Tag, kAlpha, kShape, kVd, true>(d, j, c, out);
        packet<Packet, Tag, kAlpha, kShape, kVd, true>(d, j + W, c, out);
      }
    } else {
      for (long j = 0; j < d.Pp; j += 2 * W) {
        packet<Packet, Tag, kAlpha, kShape, kVd, false>(d, j, c, out);
        packet<Packet, Tag, kAlpha, kShape, kVd, false>(d, j + W, c, out);
      }
    }
  }
}

// block with every call inside it inlined (FRICTIONLAB_FLATTEN): what the wide translation
// units need (see the top of the file). Not for the portable path: its out-of-line copies are
// the ordinary ones, and flattening there only multiplies the compile time (under the
// sanitizers' instrumentation, minutes per translation unit).
template <class Packet, class Tag, int kAlpha, int kShape, bool kVd>
FRICTIONLAB_FLATTEN void block_flat(const Lanes<Scalar<Packet>>& d, const Scalar<Packet>* t,
                                    const Scalar<Packet>* v, long k0, long k1, long n,
                                    Scalar<Packet>* out) noexcept {
  block<Packet, Tag, kAlpha, kShape, kVd>(d, t, v, k0, k1, n, out);
}

template <class Packet, class Tag, int kAlpha, int kShape>
constexpr void fill_vd(Kernels<Scalar<Packet>>& k) {
  if constexpr (std::is_same_v<Tag, Portable>) {
    k.fn[kAlpha][kShape][0] = &block<Packet, Tag, kAlpha, kShape, false>;
    k.fn[kAlpha][kShape][1] = &block<Packet, Tag, kAlpha, kShape, true>;
  } else {
    k.fn[kAlpha][kShape][0] = &block_flat<Packet, Tag, kAlpha, kShape, false>;
    k.fn[kAlpha][kShape][1] = &block_flat<Packet, Tag, kAlpha, kShape, true>;
  }
}

template <class Packet, class Tag, int kAlpha>
constexpr void fill_shape(Kernels<Scalar<Packet>>& k) {
  fill_vd<Packet, Tag, kAlpha, 0>(k);
  fill_vd<Packet, Tag, kAlpha, 1>(k);
  fill_vd<Packet, Tag, kAlpha, 2>(k);
}

}  // namespace detail

/// The 18 kernels of one packet type. Evaluate it as a constant (constexpr variable): the
/// wide translation units call nothing at run time.
template <class Packet, class Tag>
constexpr Kernels<detail::Scalar<Packet>> make_kernels(const char* name) {
  Kernels<detail::Scalar<Packet>> k{};
  detail::fill_shape<Packet, Tag, 0>(k);
  detail::fill_shape<Packet, Tag, 1>(k);
  detail::fill_shape<Packet, Tag, 2>(k);
  k.width = Eigen::internal::unpacket_traits<Packet>::size;
  k.name = name;
  return k;
}

/// The portable kernels: Eigen's default packet for S (SSE2 with the default x86-64 flags).
template <class S>
inline constexpr Kernels<S> kPortable =
    make_kernels<typename Eigen::internal::packet_traits<S>::type, Portable>("portable");

}  // namespace frictionlab::lugre_batch
