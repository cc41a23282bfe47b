// frictionlab: P LuGre parameter sets driven by one common velocity record at once, SIMD over
// the sets (docs/simulation.md, "Batch simulation"; workflows/batch.hpp wraps it).
//
// The model is the one of lugre/model.hpp (Canudas de Wit, Olsson, Astrom, Lischinsky, IEEE TAC
// 40(3), 1995; Astrom & Canudas de Wit, IEEE CSM 28(6), 2008; docs/models.md, "LuGre"), for every
// set i = 0..P-1 with its own parameters and state z_i [m]:
//
//   dz_i/dt = v - a_i(v) z_i,   a_i(v) = sigma0_i |v| / g_i(v)                         [1/s]
//   F_i     = sigma0_i z_i + sigma1_i(v) dz_i/dt + sigma2_i v                            [N]
//   g_i(v)  = Fc_i + (Fs_i - Fc_i) s_i(|v| / vs_i), on the side of sgn(v) (v = 0: the v > 0 side)
//             s(r) = exp(-r^alpha) (exponential) or 1 / (1 + r^alpha) (rational)
//             (stribeck_curve.hpp)
//   sigma1_i(v) = sigma1_i exp(-(v / vd_i)^2) if vd_i > 0, else sigma1_i
//
// Units: z [m], v [m/s], t and h [s], forces [N], sigma0 [N/m], sigma1 and sigma2 [N s/m].
// Every parameter of LuGre<S>::Params is supported (asymmetric curves, either shape, any
// alpha > 0, vd >= 0); the parameters must be valid (check(params), lugre/validation.hpp, has
// no error: the batch checks nothing and never throws in a step).
//
// Discretisation: the exact update of lugre/model.hpp (LuGre::step) for the velocity held over
// each sample interval (Hold::zoh, integrate/stepper.hpp's drive with Method::exact), in the
// form model.hpp derives it from:
//   z_i(t + h) = z_ss + (z_i - z_ss) exp(-a_i h),   z_ss = sgn(v) g_i(v) / sigma0_i      [m]
// (equal to LuGre::step's z + h phi1(a h) (v - a z); at v = 0, a = 0 and z is kept), and F_i at
// a sample from the state and the velocity at that sample, as LuGre::force. Differences from
// the scalar code, all at the rounding level: exp and log are Eigen's vectorised ones (packet
// math, SSE2 with the default x86-64 flags: 2 doubles or 4 floats per packet; wider packets on
// the AVX2 and AVX-512 paths, where a*b+c may also be one rounding, FMA), pow(r, alpha) is
// exp(alpha log r) (r for alpha == 1, r*r for alpha == 2: the fast paths taken when every set
// has that alpha), r = |v| (1/vs), and the step uses the exp form above instead of phi1 =
// -expm1(-x)/x (no division, no series; 1 - exp(-x) loses relative accuracy for small x, but
// only in the increment z_ss - z, whose absolute error stays at the rounding of z itself).
// Measured agreement with the scalar model: tests/test_lugre_batch.cpp (<= 1e-12 of the largest
// |F| in double, 1e-5 in float); speed: benchmarks/bench_batch.cpp (docs/benchmarks.md).
//
// Layout: one array per parameter, padded to a multiple of lugre_batch::kLanePad<S> lanes (two
// 64-byte packets) with copies of set 0 (computed, never written out), each aligned to 64 bytes;
// simulate() stores the forces of 32 samples at a time into a buffer and copies them out row by
// row. The SIMD kernel itself (raw pointers and packets) is lugre/batch_kernel.hpp: by default
// the portable one, compiled with the flags of the including code; workflows/batch_simd.hpp
// hands the constructor the AVX2 or AVX-512 kernels where the CPU has them (simulate_batch does).
//
// Needs Eigen (Eigen/Core; a target linking frictionlab::integrate or Eigen3::Eigen): unlike
// the rest of the models folder, which needs the standard library only, this header is not
// included by the façade lugre.hpp. The constructor allocates the per-set arrays; sample() and
// simulate() allocate nothing, do no I/O and do not throw. One LuGreBatch per thread.
#pragma once

#include <Eigen/Core>

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <span>

#include "frictionlab/models/lugre/batch_kernel.hpp"
#include "frictionlab/models/lugre/model.hpp"

namespace frictionlab {

template <class S>
class LuGreBatch {
 public:
  using Scalar = S;
  using Params = typename LuGre<S>::Params;
  using Array = Eigen::Array<S, Eigen::Dynamic, 1>;
  using Index = Eigen::Index;
  using Kernels = lugre_batch::Kernels<S>;

  LuGreBatch() = default;

  /// The sets, each from the zero state z = 0, stepped by `kernels` (a path of
  /// workflows::lugre_batch_kernels; by default the portable one). Allocates; `sets` must be
  /// valid (see above).
  explicit LuGreBatch(std::span<const Params> sets,
                      const Kernels& kernels = lugre_batch::kPortable<S>)
      : P_(static_cast<Index>(sets.size())), kernels_(&kernels) {
    // Every array holds a whole number of packet pairs of the widest path: the lanes past P
    // repeat set 0 (valid parameters, so that they compute finite numbers) and are never
    // written out.
    constexpr long pad = lugre_batch::kLanePad<S>;
    Pp_ = (static_cast<long>(P_) + pad - 1) / pad * pad;
    allocate();
    bool all1 = true, all2 = true;
    for (long i = 0; i < Pp_; ++i) {
      const Params& p = sets[static_cast<std::size_t>(i < P_ ? i : 0)];
      lane(kSigma0)[i] = p.sigma0;
      lane(kSigma1)[i] = p.sigma1;
      lane(kSigma2)[i] = p.sigma2;
      lane(kFcPos)[i] = p.curve.Fc_pos;
      lane(kFcNeg)[i] = p.curve.Fc_neg;
      lane(kDFPos)[i] = p.curve.Fs_pos - p.curve.Fc_pos;
      lane(kDFNeg)[i] = p.curve.Fs_neg - p.curve.Fc_neg;
      lane(kInvVs)[i] = S(1) / p.curve.vs;
      lane(kInvSigma0)[i] = S(1) / p.sigma0;
      lane(kAlpha)[i] = p.curve.alpha;
      lane(kRational)[i] = p.curve.shape == StribeckShape::rational ? S(1) : S(0);
      lane(kVd)[i] = p.vd;
      lane(kZ)[i] = S(0);
      all1 = all1 && p.curve.alpha == S(1);
      all2 = all2 && p.curve.alpha == S(2);
      any_rational_ = any_rational_ || p.curve.shape == StribeckShape::rational;
      all_rational_ = all_rational_ && p.curve.shape == StribeckShape::rational;
      any_vd_ = any_vd_ || p.vd > S(0);
    }
    if (P_ == 0) all_rational_ = false;
    alpha_kind_ = all1 ? 1 : all2 ? 2 : 0;
  }

  LuGreBatch(const LuGreBatch& o)
      : P_(o.P_),
        Pp_(o.Pp_),
        kernels_(o.kernels_),
        alpha_kind_(o.alpha_kind_),
        any_rational_(o.any_rational_),
        all_rational_(o.all_rational_),
        any_vd_(o.any_vd_) {
    allocate();
    if (size_ > 0) std::memcpy(mem_.get(), o.mem_.get(), size_ * sizeof(S));
  }
  LuGreBatch& operator=(const LuGreBatch& o) {
    if (this != &o) *this = LuGreBatch(o);
    return *this;
  }
  LuGreBatch(LuGreBatch&&) noexcept = default;
  LuGreBatch& operator=(LuGreBatch&&) noexcept = default;

  /// Number of parameter sets P.
  Index size() const noexcept { return P_; }
  /// The states z_i [m], i < P (set them to start from another state than zero).
  Eigen::Map<const Array> z() const noexcept { return {lane(kZ), P_}; }
  Eigen::Map<Array> z() noexcept { return {lane(kZ), P_}; }
  /// Whether every set has alpha == 1 (1), every set alpha == 2 (2), or neither (0): the fast
  /// path sample() takes.
  int alpha_kind() const noexcept { return alpha_kind_; }
  /// The kernels' path ("portable", "avx2", "avx512") and its sets per packet.
  const char* simd() const noexcept { return kernels_->name; }
  int simd_width() const noexcept { return kernels_->width; }

  /// One sample: F_i at the present state and the velocity v [m/s] into F[i * stride] [N], then
  /// the exact update over h [s] with v held (h = 0: the state is kept).
  void sample(const S& v, const S& h, S* F, Index stride) noexcept {
    const S t[2] = {S(0), h};  // t[1] - t[0] == h exactly
    kernel()(lanes(), t, &v, 0, 1, 2, buf());
    for (Index i = 0; i < P_; ++i) F[i * stride] = buf()[i];
  }

  /// The record t[k], v[k], k = 0..n-1, from the present state: F_i at sample k into
  /// F[i * ldF + k] (a P x n row-major matrix for ldF = n), the state advanced over every
  /// interval t[k+1] - t[k] with v[k] held; z() is then the state at t[n-1] (as
  /// integrate/stepper.hpp's drive: the last sample is not stepped over).
  void simulate(const S* t, const S* v, long n, S* F, long ldF) noexcept {
    simulate_range(t, v, 0, n, n, F, ldF);
  }

  /// Samples k0..k1-1 of a record of n samples (simulate in pieces, e.g. to poll a cancel flag
  /// between them): the step after sample k uses t[k+1], so k1 < n steps over [t[k1-1], t[k1]].
  void simulate_range(const S* t, const S* v, long k0, long k1, long n, S* F, long ldF) noexcept {
    // kBlock samples at a time into buf() (sample-major, aligned packet stores), then copied
    // out row by row: storing each sample straight into the P rows would touch P cache lines
    // per sample, all in the same cache set when ldF is a power of two.
    const lugre_batch::BlockFn<S> run = kernel();
    const lugre_batch::Lanes<S> d = lanes();
    S* const b = buf();
    for (long b0 = k0; b0 < k1; b0 += kBlock) {
      const long b1 = b0 + kBlock < k1 ? b0 + kBlock : k1;
      run(d, t, v, b0, b1, n, b);
      for (Index i = 0; i < P_; ++i) {
        S* row = F + i * ldF;
        for (long k = b0; k < b1; ++k) row[k] = b[(k - b0) * Pp_ + i];
      }
    }
  }

 private:
  static constexpr long kBlock = 32;  // samples per block of simulate_range
  // The arrays, in this order, Pp_ lanes each, then the buffer of kBlock samples.
  enum LaneArray : long {
    kSigma0,
    kSigma1,
    kSigma2,
    kFcPos,
    kFcNeg,
    kDFPos,
    kDFNeg,
    kInvVs,
    kInvSigma0,
    kAlpha,
    kRational,
    kVd,
    kZ,
    kNumArrays
  };
  struct AlignedDelete {
    void operator()(S* p) const noexcept {
      ::operator delete[](p, std::align_val_t(lugre_batch::kAlign));
    }
  };

  void allocate() {
    size_ = static_cast<std::size_t>(Pp_) * (kNumArrays + kBlock);
    mem_.reset(size_ > 0 ? static_cast<S*>(::operator new[](size_ * sizeof(S),
                                                            std::align_val_t(lugre_batch::kAlign)))
                         : nullptr);
  }
  S* lane(long a) noexcept { return mem_.get() + a * Pp_; }
  const S* lane(long a) const noexcept { return mem_.get() + a * Pp_; }
  S* buf() noexcept { return lane(kNumArrays); }
  lugre_batch::Lanes<S> lanes() noexcept {
    return {lane(kSigma0),    lane(kSigma1),
            lane(kSigma2),    lane(kFcPos),
            lane(kFcNeg),     lane(kDFPos),
            lane(kDFNeg),     lane(kInvVs),
            lane(kInvSigma0), lane(kAlpha),
            lane(kRational),  lane(kVd),
            lane(kZ),         Pp_};
  }
  // The kernel of the present sets' fast path (alpha 1, 2 or any; shape all exponential, all
  // rational or mixed; vd all zero or not).
  lugre_batch::BlockFn<S> kernel() const noexcept {
    const int shape = all_rational_ ? 1 : any_rational_ ? 2 : 0;
    return kernels_->fn[alpha_kind_][shape][any_vd_ ? 1 : 0];
  }

  Index P_ = 0;
  long Pp_ = 0;  // lanes per array: P rounded up to a multiple of kLanePad<S>
  std::size_t size_ = 0;
  std::unique_ptr<S[], AlignedDelete> mem_;
  const Kernels* kernels_ = &lugre_batch::kPortable<S>;
  int alpha_kind_ = 0;
  bool any_rational_ = false, all_rational_ = true, any_vd_ = false;
};

}  // namespace frictionlab
