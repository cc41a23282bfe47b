// frictionlab: forward sensitivities of the generalized Maxwell-slip (GMS) model's step (GMS::step
// at the held velocity: v0, or (v0 + v1) / 2 for a linearly interpolated input, as
// integrate/stepper.hpp's advance takes it) and of its force, along NL directions in parameter
// space and with respect to the element deflections, in plain arithmetic: the fit's fast path
// (models/fit_form.hpp, "Sensitivity"; docs/identification.md, "Jacobian"). Same equations and
// units as model.hpp; tested against the Jet derivatives and central differences
// (tests/test_model_properties.cpp, tests/test_segmented_jacobian.cpp).
//
// Fields q (E the element arrays' size): LuGre's (LuGreField, lugre/sensitivity.hpp; of them GMS
// uses sigma2 and the curve, whose g(v) and dg come from lugre_g_grad), then k_i [N/m], nu_i [-]
// (i < E) and C [N/s], in the order of GmsSensitivity::fields. Directions d = 0..NL-1: the seeds
// e_q = dq/dd; a direction whose seeds are all 0 carries the derivative with respect to an
// element deflection the simulation started from (dz_i/dz_s,i = 1 at the start).
//
// At the held velocity v != 0, s = sgn(v), g = g(v), a = C / g [1/s], x = a h,
// ph = h phi1(x) [s] (phi1_neg), per element i with F_i = k_i z_i [N] (dF_i = z_i e_k + k_i dz_i):
//   stick for the whole step: z+ = z + v h,             dz+ = dz
//   threshold reached:        z+ = s nu_i g / k_i,      dz+ = (s (e_nu g + nu_i dg) - z+ e_k) / k_i
//   slip:                     z+ = (F_i + ph r) / k_i,  r = C s nu_i - a F_i,
//                             dz+ = (dF_i + dph r + ph dr - z+ e_k) / k_i,
//                             da = (e_C - a dg) / g, dph = h^2 phi1'(x) da,
//                             dr = e_C s nu_i + C s e_nu - da F_i - a dF_i.
// The regime (stick/slip, each element's flag) is chosen by the same comparisons as GMS::step:
// a kink of the path, whose one-sided derivative is taken. At v = 0 nothing moves.
// Force: F = sigma2 v + sum_i k_i z_i [N],  dF = v e_sigma2 + sum_i (k_i dz_i + z_i e_k_i);
// sigma2 enters the force only (kForceFields), every other field moves the states.
// The state array is the deflections z_0..z_{E-1} [m] and then the regime flags (1 = slipping,
// 0 = sticking): the flags are carried, never differentiated. The step is not affine in the
// states: a fit's segments start from the states of the value simulation.
#pragma once

#include <array>
#include <cstddef>

#include "frictionlab/models/gms/model.hpp"
#include "frictionlab/models/lugre/sensitivity.hpp"
#include "frictionlab/models/sensitivity_states.hpp"

namespace frictionlab {

/// The seeds dq/dd of the NL directions for the fields of GmsSensitivity<E>: LuGre's (their
/// seeds, as lugre_g_grad reads them), then k_i, nu_i and C.
template <int E, int NL>
struct GmsSeeds {
  LuGreSeeds<double, NL> lugre;
  std::array<LuGreSens<double, NL>, E> e_k{};
  std::array<LuGreSens<double, NL>, E> e_nu{};
  LuGreSens<double, NL> e_C{};

  void set(int field, int direction, double value) noexcept {
    const auto d = static_cast<std::size_t>(direction);
    if (field < kLuGreFields) {
      lugre.set(field, direction, value);
    } else if (field < kLuGreFields + E) {
      e_k[static_cast<std::size_t>(field - kLuGreFields)][d] = value;
    } else if (field < kLuGreFields + 2 * E) {
      e_nu[static_cast<std::size_t>(field - kLuGreFields - E)][d] = value;
    } else {
      e_C[d] = value;
    }
  }
};

/// What the generic fit may use of the GMS model with element arrays of size E
/// (models/fit_form.hpp, "Sensitivity"): one deflection per element (the first p.n of them
/// used), and the elements' regime flags carried in the state array after them.
template <int E>
struct GmsSensitivity {
  using Model = GMS<double, E>;
  using Params = typename Model::Params;
  static constexpr int kStates = E;
  /// The state array: the deflections, then the regime flags.
  static constexpr int kArrayStates = 2 * E;
  static constexpr int kFields = kLuGreFields + 2 * E + 1;
  static constexpr bool kAffineStep = false;
  /// Lanes the fit may carry: the curve, k_i, the weights and C of a few elements, and the
  /// elements' start states.
  static constexpr int kMaxLanes = 16;
  static constexpr int k_field(int i) { return kLuGreFields + i; }
  static constexpr int nu_field(int i) { return kLuGreFields + E + i; }
  static constexpr int kC = kLuGreFields + 2 * E;
  static constexpr std::array<int, 6 + 2 * E + 1> kStateFields = [] {
    std::array<int, 6 + 2 * E + 1> a{kQFcPos, kQFcNeg, kQFsPos, kQFsNeg, kQvs, kQalpha};
    for (std::size_t i = 0; i < static_cast<std::size_t>(2 * E + 1); ++i)
      a[6 + i] = kLuGreFields + static_cast<int>(i);
    return a;
  }();
  static constexpr std::array<int, 1> kForceFields{kQs2};
  template <int NL>
  using Seeds = GmsSeeds<E, NL>;
  /// The velocity alone: the force has no g(v), the step takes g at its held velocity.
  template <int NL>
  struct At {
    double v;
  };
  using State = std::array<double, kArrayStates>;
  template <int NL>
  using DState = std::array<std::array<double, NL>, E>;
  struct ForceParts {};

  /// The fields in the order above (a Jet's derivative parts give dq/dtheta); sigma0 and
  /// sigma1, which GMS does not have, are 0.
  template <class S>
  static std::array<S, kFields> fields(const typename GMS<S, E>::Params& p) {
    std::array<S, kFields> q{};
    const auto& c = p.curve;
    q[kQs2] = p.sigma2;
    q[kQFcPos] = c.Fc_pos;
    q[kQFcNeg] = c.Fc_neg;
    q[kQFsPos] = c.Fs_pos;
    q[kQFsNeg] = c.Fs_neg;
    q[kQvs] = c.vs;
    q[kQalpha] = c.alpha;
    for (int i = 0; i < E; ++i) {
      q[static_cast<std::size_t>(k_field(i))] = p.k[static_cast<std::size_t>(i)];
      q[static_cast<std::size_t>(nu_field(i))] = p.nu[static_cast<std::size_t>(i)];
    }
    q[kC] = p.C;
    return q;
  }
  template <class S>
  static bool covers(const typename GMS<S, E>::Params& /*p*/) {
    return true;
  }
  /// The model's state as the array the pass steps, and back.
  static State to_array(const typename Model::State& x) noexcept {
    State a{};
    for (std::size_t i = 0; i < static_cast<std::size_t>(E); ++i) {
      a[i] = x.z[i];
      a[static_cast<std::size_t>(E) + i] = x.slipping[i] ? 1.0 : 0.0;
    }
    return a;
  }
  static typename Model::State from_array(const State& a) noexcept {
    typename Model::State x{};
    for (std::size_t i = 0; i < static_cast<std::size_t>(E); ++i) {
      x.z[i] = a[i];
      x.slipping[i] = a[static_cast<std::size_t>(E) + i] != 0.0;
    }
    return x;
  }
  /// The states p uses: one deflection per element.
  template <class P>
  static int states(const P& p) {
    return p.n;
  }
  template <int NL>
  static At<NL> at(const Params& /*p*/, double v, const Seeds<NL>& /*seeds*/) noexcept {
    return {v};
  }
  /// F = sigma2 v + sum_i k_i z_i (GMS::force, the same order) and dF.
  template <int NL>
  static double force(const Params& p, const Seeds<NL>& seeds, const State& z, const DState<NL>& dz,
                      const At<NL>& w, std::array<double, NL>& dF, ForceParts& /*parts*/) noexcept {
    return spring_elements_force<NL>(
        p.sigma2, p.k, p.n, w.v, seeds.lugre.e[kQs2], z,
        dz, [&](int i) -> const auto& { return seeds.e_k[static_cast<std::size_t>(i)]; }, dF);
  }
  /// dF/dq of the force-only field sigma2: v.
  template <int NL>
  static double force_field(const ForceParts& /*parts*/, const At<NL>& w, int /*i*/) noexcept {
    return w.v;
  }
  /// The step from w0 to w1 over h [s] at the held velocity (w0.v + w1.v) / 2 (w0.v itself for
  /// a held input, w1 = w0): z and dz in and out.
  template <int NL>
  static void step(const Params& p, const Seeds<NL>& seeds, State& z, DState<NL>& dz,
                   const At<NL>& w0, const At<NL>& w1, double h,
                   std::array<double, NL>* /*dx_sum*/) noexcept {
    const double v = w0.v == w1.v ? w0.v : (w0.v + w1.v) / 2.0;
    if (v == 0.0) return;
    Slip<NL> sl;
    sl.s = sgn(v);
    sl.g = lugre_g_grad<double, NL>(p.curve, absval(v) / p.curve.vs, !(v < 0), seeds.lugre, sl.dg);
    const double a = p.C / sl.g;
    const double x = a * h;
    const double ph1 = phi1_neg(x);
    sl.ph = h * ph1;
    const double php = phi1_neg_derivative(x, 1.0 - x * ph1, ph1);
    for (std::size_t d = 0; d < static_cast<std::size_t>(NL); ++d) {
      sl.da[d] = (seeds.e_C[d] - a * sl.dg[d]) / sl.g;
      sl.dph[d] = h * h * php * sl.da[d];
    }
    sl.a = a;
    for (int i = 0; i < p.n; ++i) element_step<NL>(p, seeds, sl, z, dz, i, v, h);
  }

 private:
  /// What every element's step shares at the held velocity: s, g, a = C / g, ph and their
  /// derivatives.
  template <int NL>
  struct Slip {
    double s = 0, g = 0, a = 0, ph = 0;
    LuGreSens<double, NL> dg{}, da{}, dph{};
  };

  /// GMS::step of element i (the same regime choice and z+) with its sensitivities.
  template <int NL>
  static void element_step(const Params& p, const Seeds<NL>& seeds, const Slip<NL>& sl, State& z,
                           DState<NL>& dz, int i, double v, double h) noexcept {
    constexpr auto un = static_cast<std::size_t>(NL);
    const auto ui = static_cast<std::size_t>(i);
    const auto flag = static_cast<std::size_t>(E) + ui;
    const double k = p.k[ui], nu = p.nu[ui], s = sl.s;
    const auto& ek = seeds.e_k[ui];
    const auto& enu = seeds.e_nu[ui];
    const double Fi = k * z[ui];
    const bool slipping = z[flag] != 0.0;
    const bool sticks = !slipping || (v > 0 && z[ui] < 0) || (v < 0 && z[ui] > 0);
    if (sticks) {
      const double Fn = Fi + k * v * h;
      if (s * Fn < nu * sl.g) {  // stuck for the whole step: dz+ = dz
        z[ui] += v * h;
        z[flag] = 0.0;
        return;
      }
      if (s * Fi < nu * sl.g) {  // the threshold reached within the step: stays there
        const double zn = s * nu * sl.g / k;
        for (std::size_t d = 0; d < un; ++d)
          dz[ui][d] = (s * (enu[d] * sl.g + nu * sl.dg[d]) - zn * ek[d]) / k;
        z[ui] = zn;
        z[flag] = 1.0;
        return;
      }
    }
    const double r = p.C * s * nu - sl.a * Fi;
    const double zn = (Fi + sl.ph * r) / k;
    for (std::size_t d = 0; d < un; ++d) {
      const double dFi = z[ui] * ek[d] + k * dz[ui][d];
      const double dr = seeds.e_C[d] * s * nu + p.C * s * enu[d] - sl.da[d] * Fi - sl.a * dFi;
      dz[ui][d] = (dFi + sl.dph[d] * r + sl.ph * dr - zn * ek[d]) / k;
    }
    z[ui] = zn;
    z[flag] = 1.0;
  }
};

}  // namespace frictionlab
