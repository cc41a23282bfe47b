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
// each sample interval (Hold::zoh, integrate/stepper.hpp's drive with Method::exact):
//   z_i(t + h) = z_i + h phi1(a_i h) (v - a_i z_i),   phi1(x) = (1 - exp(-x)) / x,
// and F_i at a sample is computed from the state and the velocity at that sample, as
// LuGre::force. The same operations in the same order as the scalar model, except for the
// elementary functions: exp and log are Eigen's vectorised ones, pow(r, alpha) is exp(alpha
// log r) (r itself for alpha == 1, r*r for alpha == 2: the fast paths used when every set has
// that alpha), and phi1 is evaluated from exp(-x) as (1 - exp(-x)) / x for x >= 0.1 and by its
// Taylor series sum_n (-x)^n / (n+1)! (10 terms; LuGre's 3-term series below 1e-4) otherwise,
// instead of expm1. Measured agreement with the scalar model: tests/test_lugre_batch.cpp.
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
  explicit LuGreBatch(std::span<const Params> sets) {
    const auto P = static_cast<Index>(sets.size());
    for (Array* a : {&sigma0_, &sigma1_, &sigma2_, &Fc_pos_, &Fc_neg_, &dF_pos_, &dF_neg_,
                     &vs_, &alpha_, &rational_, &vd_, &z_, &ra_, &s_, &a_, &zdot_, &damp_,
                     &F_, &phi_})
      a->resize(P);
    bool all1 = true, all2 = true;
    for (Index i = 0; i < P; ++i) {
      const Params& p = sets[static_cast<std::size_t>(i)];
      sigma0_[i] = p.sigma0;
      sigma1_[i] = p.sigma1;
      sigma2_[i] = p.sigma2;
      Fc_pos_[i] = p.curve.Fc_pos;
      Fc_neg_[i] = p.curve.Fc_neg;
      dF_pos_[i] = p.curve.Fs_pos - p.curve.Fc_pos;
      dF_neg_[i] = p.curve.Fs_neg - p.curve.Fc_neg;
      vs_[i] = p.curve.vs;
      alpha_[i] = p.curve.alpha;
      rational_[i] = p.curve.shape == StribeckShape::rational ? S(1) : S(0);
      vd_[i] = p.vd;
      all1 = all1 && p.curve.alpha == S(1);
      all2 = all2 && p.curve.alpha == S(2);
      any_rational_ = any_rational_ || p.curve.shape == StribeckShape::rational;
      all_rational_ = all_rational_ && p.curve.shape == StribeckShape::rational;
      any_vd_ = any_vd_ || p.vd > S(0);
    }
    if (P == 0) all_rational_ = false;
    alpha_kind_ = all1 ? 1 : all2 ? 2 : 0;
    z_.setZero();
  }

  /// Number of parameter sets P.
  Index size() const noexcept { return z_.size(); }
  /// The states z_i [m] (set them to start from another state than zero).
  const Array& z() const noexcept { return z_; }
  Array& z() noexcept { return z_; }
  /// Whether every set has alpha == 1 (1), every set alpha == 2 (2), or neither (0): the fast
  /// path sample() takes.
  int alpha_kind() const noexcept { return alpha_kind_; }

  /// One sample: F_i at the present state and the velocity v [m/s] into F[i * stride] [N], then
  /// the exact update over h [s] with v held (h = 0: the state is kept).
  void sample(const S& v, const S& h, S* F, Index stride) noexcept {
    dispatch([&](auto run) { (this->*run)(v, h, F, stride); });
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
    dispatch([&](auto run) {
      for (long k = k0; k < k1; ++k) {
        const S h = k + 1 < n ? t[k + 1] - t[k] : S(0);
        (this->*run)(v[k], h, F + k, static_cast<Index>(ldF));
      }
    });
  }

 private:
  using Kernel = void (LuGreBatch::*)(const S&, const S&, S*, Index) noexcept;

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

  // phi1(x) = (1 - exp(-x)) / x for x >= 0 into phi_ (see the header): the scalar model's
  // 3-term series below 1e-4, a 10-term Taylor series below 0.1, (1 - exp(-x)) / x above.
  template <class X>
  void phi1(const X& x) noexcept {
    // Taylor coefficients (-1)^n / (n+1)!, n = 2..9 (the remainder below 0.1 is < 0.1^10/11! =
    // 2.5e-18); written as one expression so that Eigen evaluates it in one pass, no temporary.
    const S c2 = S(1) / S(6), c3 = S(-1) / S(24), c4 = S(1) / S(120), c5 = S(-1) / S(720),
            c6 = S(1) / S(5040), c7 = S(-1) / S(40320), c8 = S(1) / S(362880),
            c9 = S(-1) / S(3628800);
    const auto taylor =
        S(1) +
        x * (S(-0.5) +
             x * (c2 + x * (c3 + x * (c4 + x * (c5 + x * (c6 + x * (c7 + x * (c8 + x * c9))))))));
    phi_ = (x < S(1e-4))
               .select(S(1) - x / S(2) + x * x / S(6),
                       (x < S(0.1)).select(taylor, (S(1) - (-x).exp()) / x));
  }

  template <int kAlpha, int kShape, bool kVd>
  void kernel(const S& v, const S& h, S* F, Index stride) noexcept {
    using std::abs;
    const S av = abs(v);
    const bool pos = !(v < S(0));
    const Array& Fc = pos ? Fc_pos_ : Fc_neg_;
    const Array& dF = pos ? dF_pos_ : dF_neg_;
    // r^alpha, r = |v| / vs  (r == 0: 0, as pow)
    if constexpr (kAlpha == 1) {
      ra_ = av / vs_;
    } else if constexpr (kAlpha == 2) {
      ra_ = (av / vs_).square();
    } else {
      if (av > S(0)) {
        ra_ = av / vs_;
        ra_ = (ra_ > S(0)).select((alpha_ * ra_.log()).exp(), S(0));
      } else {
        ra_.setZero();
      }
    }
    // s(r) and g = Fc + (Fs - Fc) s
    if constexpr (kShape == 0) {
      s_ = Fc + dF * (-ra_).exp();
    } else if constexpr (kShape == 1) {
      s_ = Fc + dF * (S(1) / (S(1) + ra_));
    } else {
      s_ = Fc + dF * (rational_ > S(0)).select(S(1) / (S(1) + ra_), (-ra_).exp());
    }
    a_ = sigma0_ * av / s_;  // s_ holds g here
    zdot_ = v - a_ * z_;
    if constexpr (kVd) {
      damp_ = (vd_ > S(0)).select(sigma1_ * (-((v / vd_).square())).exp(), sigma1_);
      F_ = sigma0_ * z_ + damp_ * zdot_ + sigma2_ * v;
    } else {
      F_ = sigma0_ * z_ + sigma1_ * zdot_ + sigma2_ * v;
    }
    const Index P = z_.size();
    for (Index i = 0; i < P; ++i) F[i * stride] = F_[i];
    if (h > S(0)) {
      phi1(a_ * h);
      z_ += h * phi_ * zdot_;
    }
  }

  Array sigma0_, sigma1_, sigma2_, Fc_pos_, Fc_neg_, dF_pos_, dF_neg_, vs_, alpha_,
      rational_, vd_;
  Array z_;
  Array ra_, s_, a_, zdot_, damp_, F_, phi_;  // work arrays (no allocation in a step)
  int alpha_kind_ = 0;
  bool any_rational_ = false, all_rational_ = true, any_vd_ = false;
};

}  // namespace frictionlab
