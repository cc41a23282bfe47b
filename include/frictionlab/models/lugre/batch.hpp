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
//             s(r) = exp(-r^alpha) (exponential) or 1 / (1 + r^alpha) (rational)  (stribeck_curve.hpp)
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
// math, SSE2 with the default x86-64 flags: 2 doubles or 4 floats per packet), pow(r, alpha) is
// exp(alpha log r) (r for alpha == 1, r*r for alpha == 2: the fast paths taken when every set
// has that alpha), r = |v| (1/vs), and the step uses the exp form above instead of phi1 =
// -expm1(-x)/x (no division, no series; 1 - exp(-x) loses relative accuracy for small x, but
// only in the increment z_ss - z, whose absolute error stays at the rounding of z itself).
// Measured agreement with the scalar model: tests/test_lugre_batch.cpp (<= 1e-12 of the largest
// |F| in double, 1e-5 in float); speed: benchmarks/bench_batch.cpp (docs/benchmarks.md).
//
// Layout: one array per parameter, padded to a whole number of packet pairs with copies of set
// 0 (computed, never written out); simulate() stores the forces of 32 samples at a time into a
// buffer and copies them out row by row.
//
// Needs Eigen (Eigen/Core; a target linking frictionlab::integrate or Eigen3::Eigen): unlike
// the rest of the models folder, which needs the standard library only, this header is not
// included by the façade lugre.hpp. The constructor allocates the per-set arrays; sample() and
// simulate() allocate nothing, do no I/O and do not throw. One LuGreBatch per thread.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <cstddef>
#include <span>

#include "frictionlab/models/lugre/model.hpp"

namespace frictionlab {

template <class S>
class LuGreBatch {
 public:
  using Scalar = S;
  using Params = typename LuGre<S>::Params;
  using Array = Eigen::Array<S, Eigen::Dynamic, 1>;
  using Index = Eigen::Index;

  LuGreBatch() = default;

  /// The sets, each from the zero state z = 0. Allocates; `sets` must be valid (see above).
  explicit LuGreBatch(std::span<const Params> sets) : P_(static_cast<Index>(sets.size())) {
    // Every array holds a whole number of packets: the lanes past P repeat set 0 (valid
    // parameters, so that they compute finite numbers) and are never written out.
    const Index Pp = (P_ + 2 * kW - 1) / (2 * kW) * (2 * kW);
    for (Array* a : {&sigma0_, &sigma1_, &sigma2_, &Fc_pos_, &Fc_neg_, &dF_pos_, &dF_neg_, &inv_vs_, &inv_sigma0_,
                     &alpha_, &rational_, &vd_, &z_})
      a->resize(Pp);
    bool all1 = true, all2 = true;
    for (Index i = 0; i < Pp; ++i) {
      const Params& p = sets[static_cast<std::size_t>(i < P_ ? i : 0)];
      sigma0_[i] = p.sigma0;
      sigma1_[i] = p.sigma1;
      sigma2_[i] = p.sigma2;
      Fc_pos_[i] = p.curve.Fc_pos;
      Fc_neg_[i] = p.curve.Fc_neg;
      dF_pos_[i] = p.curve.Fs_pos - p.curve.Fc_pos;
      dF_neg_[i] = p.curve.Fs_neg - p.curve.Fc_neg;
      inv_vs_[i] = S(1) / p.curve.vs;
      inv_sigma0_[i] = S(1) / p.sigma0;
      alpha_[i] = p.curve.alpha;
      rational_[i] = p.curve.shape == StribeckShape::rational ? S(1) : S(0);
      vd_[i] = p.vd;
      all1 = all1 && p.curve.alpha == S(1);
      all2 = all2 && p.curve.alpha == S(2);
      any_rational_ = any_rational_ || p.curve.shape == StribeckShape::rational;
      all_rational_ = all_rational_ && p.curve.shape == StribeckShape::rational;
      any_vd_ = any_vd_ || p.vd > S(0);
    }
    if (P_ == 0) all_rational_ = false;
    alpha_kind_ = all1 ? 1 : all2 ? 2 : 0;
    z_.setZero();
    buf_.resize(Pp * kBlock);
  }

  /// Number of parameter sets P.
  Index size() const noexcept { return P_; }
  /// The states z_i [m], i < P (set them to start from another state than zero).
  auto z() const noexcept { return z_.head(P_); }
  auto z() noexcept { return z_.head(P_); }
  /// Whether every set has alpha == 1 (1), every set alpha == 2 (2), or neither (0): the fast
  /// path sample() takes.
  int alpha_kind() const noexcept { return alpha_kind_; }

  /// One sample: F_i at the present state and the velocity v [m/s] into F[i * stride] [N], then
  /// the exact update over h [s] with v held (h = 0: the state is kept).
  void sample(const S& v, const S& h, S* F, Index stride) noexcept {
    dispatch([&](auto run) { (this->*run)(v, h, buf_.data()); });
    for (Index i = 0; i < P_; ++i) F[i * stride] = buf_[i];
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
  void simulate_range(const S* t, const S* v, long k0, long k1, long n, S* F,
                      long ldF) noexcept {
    // kBlock samples at a time into buf_ (sample-major, aligned packet stores), then copied
    // out row by row: storing each sample straight into the P rows would touch P cache lines
    // per sample, all in the same cache set when ldF is a power of two.
    const Index Pp = sigma0_.size();
    dispatch([&](auto run) {
      for (long b0 = k0; b0 < k1; b0 += kBlock) {
        const long b1 = b0 + kBlock < k1 ? b0 + kBlock : k1;
        for (long k = b0; k < b1; ++k) {
          const S h = k + 1 < n ? t[k + 1] - t[k] : S(0);
          (this->*run)(v[k], h, buf_.data() + (k - b0) * Pp);
        }
        for (Index i = 0; i < P_; ++i) {
          S* row = F + i * ldF;
          for (long k = b0; k < b1; ++k) row[k] = buf_[(k - b0) * Pp + i];
        }
      }
    });
  }

 private:
  using Packet = typename Eigen::internal::packet_traits<S>::type;
  static constexpr int kW = Eigen::internal::unpacket_traits<Packet>::size;  // sets per packet
  using Kernel = void (LuGreBatch::*)(const S&, const S&, S*) noexcept;
  static constexpr long kBlock = 32;  // samples per block of simulate_range

  // Calls f with the kernel of the present sets' fast path (alpha 1, 2 or any; shape all
  // exponential, all rational or mixed; vd all zero or not).
  template <class F>
  void dispatch(F&& f) noexcept {
    const int shape = all_rational_ ? 1 : any_rational_ ? 2 : 0;
    const auto pick = [&]<int A>() -> Kernel {
      if (shape == 0) return any_vd_ ? &LuGreBatch::kernel<A, 0, true> : &LuGreBatch::kernel<A, 0, false>;
      if (shape == 1) return any_vd_ ? &LuGreBatch::kernel<A, 1, true> : &LuGreBatch::kernel<A, 1, false>;
      return any_vd_ ? &LuGreBatch::kernel<A, 2, true> : &LuGreBatch::kernel<A, 2, false>;
    };
    const Kernel k = alpha_kind_ == 1   ? pick.template operator()<1>()
                     : alpha_kind_ == 2 ? pick.template operator()<2>()
                                        : pick.template operator()<0>();
    f(k);
  }

  // One sample for every set, one SIMD packet of W sets at a time (Eigen's packet math: the
  // functions Eigen's array expressions use, here in one pass so that the transcendental
  // functions and the selections all stay vectorised; Eigen 3.4's select() on arrays is not).
  struct Consts {
    Packet v, av, h, zero, one, sv;
    const S* Fc;
    const S* dF;
  };

  template <int kAlpha, int kShape, bool kVd>
  void kernel(const S& v, const S& h, S* out) noexcept {
    namespace ei = Eigen::internal;
    using std::abs;
    const bool pos = !(v < S(0));  // the v > 0 side of the curve at v = 0, as stribeck_g
    const Consts c{ei::pset1<Packet>(v),      ei::pset1<Packet>(abs(v)),
                   ei::pset1<Packet>(h),      ei::pset1<Packet>(S(0)),
                   ei::pset1<Packet>(S(1)),   ei::pset1<Packet>(sgn(v)),
                   (pos ? Fc_pos_ : Fc_neg_).data(), (pos ? dF_pos_ : dF_neg_).data()};
    // Two independent packets per iteration: their long dependency chains (exp -> g -> a ->
    // exp) overlap in the CPU.
    const Index Pp = sigma0_.size();
    if (h > S(0)) {
      for (Index j = 0; j < Pp; j += 2 * kW) {
        packet<kAlpha, kShape, kVd, true>(j, c, out);
        packet<kAlpha, kShape, kVd, true>(j + kW, c, out);
      }
    } else {
      for (Index j = 0; j < Pp; j += 2 * kW) {
        packet<kAlpha, kShape, kVd, false>(j, c, out);
        packet<kAlpha, kShape, kVd, false>(j + kW, c, out);
      }
    }
  }

  template <int kAlpha, int kShape, bool kVd, bool kStep>
  EIGEN_STRONG_INLINE void packet(Index j, const Consts& c, S* out) noexcept {
    namespace ei = Eigen::internal;
    const Packet &pv = c.v, &pav = c.av, &ph = c.h, &zero = c.zero, &one = c.one, &psv = c.sv;
    const S* Fc = c.Fc;
    const S* dF = c.dF;
    {
      // r^alpha, r = |v| / vs (pow(0, alpha) = 0)
      const Packet r = ei::pmul(pav, ei::pload<Packet>(inv_vs_.data() + j));
      Packet ra;
      if constexpr (kAlpha == 1) {
        ra = r;
      } else if constexpr (kAlpha == 2) {
        ra = ei::pmul(r, r);
      } else {
        ra = ei::pselect(ei::pcmp_lt(zero, r),
                         ei::pexp(ei::pmul(ei::pload<Packet>(alpha_.data() + j), ei::plog(r))),
                         zero);
      }
      // g = Fc + (Fs - Fc) s(r)
      Packet shape;
      if constexpr (kShape == 0) {
        shape = ei::pexp(ei::pnegate(ra));
      } else if constexpr (kShape == 1) {
        shape = ei::pdiv(one, ei::padd(one, ra));
      } else {
        shape = ei::pselect(ei::pcmp_lt(zero, ei::pload<Packet>(rational_.data() + j)),
                            ei::pdiv(one, ei::padd(one, ra)), ei::pexp(ei::pnegate(ra)));
      }
      const Packet g = ei::padd(ei::pload<Packet>(Fc + j), ei::pmul(ei::pload<Packet>(dF + j), shape));
      const Packet s0 = ei::pload<Packet>(sigma0_.data() + j);
      const Packet a = ei::pdiv(ei::pmul(s0, pav), g);  // sigma0 |v| / g
      const Packet z = ei::pload<Packet>(z_.data() + j);
      const Packet zdot = ei::psub(pv, ei::pmul(a, z));
      Packet damp = ei::pload<Packet>(sigma1_.data() + j);
      if constexpr (kVd) {
        const Packet vd = ei::pload<Packet>(vd_.data() + j);
        const Packet q = ei::pdiv(pv, vd);
        damp = ei::pselect(ei::pcmp_lt(zero, vd), ei::pmul(damp, ei::pexp(ei::pnegate(ei::pmul(q, q)))),
                           damp);
      }
      const Packet f = ei::padd(ei::padd(ei::pmul(s0, z), ei::pmul(damp, zdot)),
                                ei::pmul(ei::pload<Packet>(sigma2_.data() + j), pv));
      ei::pstore(out + j, f);
      if constexpr (kStep) {
        // z_ss + (z - z_ss) exp(-a h), z_ss = sgn(v) g / sigma0
        const Packet E = ei::pexp(ei::pnegate(ei::pmul(a, ph)));
        const Packet zss = ei::pmul(psv, ei::pmul(g, ei::pload<Packet>(inv_sigma0_.data() + j)));
        ei::pstore(z_.data() + j, ei::padd(zss, ei::pmul(ei::psub(z, zss), E)));
      }
    }
  }

  Array sigma0_, sigma1_, sigma2_, Fc_pos_, Fc_neg_, dF_pos_, dF_neg_, inv_vs_, inv_sigma0_, alpha_,
      rational_, vd_;
  Array z_;
  Array buf_;  // forces of a block of samples, sample-major (simulate_range, sample)
  Index P_ = 0;
  int alpha_kind_ = 0;
  bool any_rational_ = false, all_rational_ = true, any_vd_ = false;
};

}  // namespace frictionlab
