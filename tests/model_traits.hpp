// Test-side description of every friction model for the typed property suite
// (tests/test_model_properties.cpp). One `Family` struct per model configuration. It derives from
// FamilyOf<Model, Accuracy{...}> (or ScalarStateFamily / ElementStateFamily below), which gives
//
//   template <class S> using M = Model<S>;        the model type for scalar S
//   static constexpr double v_scale;      typical velocity [m/s] of a test input
//   static constexpr double h_fine;       step of the high-accuracy reference
//   static constexpr Method reference;    scheme of the independent reference solution
//   static constexpr double expected_order;  for Hold::linear with the exact step
//   static constexpr double h_order_max;  largest step of the order test (h, h/2, h/4, h/8);
//                      chosen in the asymptotic regime (for LuGre below the step at which
//                      step_linear starts splitting steps that sweep through the Stribeck region)
//   static constexpr double zoh_rel_tol;  piecewise-constant-input test: relative tolerance
//                      between one step and 100 substeps per held interval (rounding for the
//                      exact updates; the measured first-order blend error for elasto-plastic)
//
// from the Accuracy fields of the same names, and itself declares
//
//   static constexpr const char* name;
//   template <class S> static M<S>::Params params(const S* theta);   parameters from the
//                      differentiable vector theta (kTheta entries), rest fixed
//   static constexpr std::array<double, kTheta> theta0;   nominal values
//   template <class S> static bool within_bound(p, x, tol)  the state invariant
//   template <class S> static double state_max(x)           largest |state| (for messages)
//
// (the last two given by ScalarStateFamily for a state z with |z| <= M::state_bound(p), and
// state_max by ElementStateFamily for an array of element deflections).
// Optional (defaults in test_model_properties.cpp):
//   static constexpr double h_steady;    step of the steady-state test (default 0.05 s)
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/dahl.hpp"
#include "frictionlab/models/elastoplastic.hpp"
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/maxwell_slip.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace frictionlab::testing {

/// The accuracy settings of a family (documented above); zoh_rel_tol defaults to rounding.
struct Accuracy {
  double v_scale;
  double h_fine;
  Method reference;
  double expected_order;
  double h_order_max;
  double zoh_rel_tol = 1e-9;
};

/// The model template and the accuracy settings, as the static members the suite reads.
template <template <class> class Model, Accuracy A>
struct FamilyOf {
  template <class S>
  using M = Model<S>;
  static constexpr double v_scale = A.v_scale;
  static constexpr double h_fine = A.h_fine;
  static constexpr Method reference = A.reference;
  static constexpr double expected_order = A.expected_order;
  static constexpr double h_order_max = A.h_order_max;
  static constexpr double zoh_rel_tol = A.zoh_rel_tol;
};

/// Single-state families whose state is z with |z| <= M::state_bound(p).
template <template <class> class Model, Accuracy A>
struct ScalarStateFamily : FamilyOf<Model, A> {
  template <class S>
  static bool within_bound(const typename Model<S>::Params& p, const typename Model<S>::State& x,
                           double tol) {
    return std::abs(double(x.z)) <= double(Model<S>::state_bound(p)) * (1 + tol);
  }
  template <class S>
  static double state_max(const typename Model<S>::State& x) {
    return std::abs(double(x.z));
  }
};

/// Multi-element families: the state is an array of element deflections z_i.
template <template <class> class Model, Accuracy A>
struct ElementStateFamily : FamilyOf<Model, A> {
  template <class S>
  static double state_max(const typename Model<S>::State& x) {
    double m = 0;
    for (const auto& z : x.z) m = std::max(m, std::abs(double(z)));
    return m;
  }
};

/// sigma0, sigma1, sigma2 = th[0], th[1], th[2] and the Stribeck curve: the parameters LuGre and
/// elasto-plastic share.
template <class P, class S>
P bristle_params(const S* th, const StribeckCurve<S>& curve) {
  P p;
  p.sigma0 = th[0];
  p.sigma1 = th[1];
  p.sigma2 = th[2];
  p.curve = curve;
  return p;
}

template <class S>
using MaxwellSlip8 = MaxwellSlip<S, 8>;
template <class S>
using GMS8 = GMS<S, 8>;

struct StribeckExpFamily : FamilyOf<StaticFriction, Accuracy{.v_scale = 0.05,
                                                             .h_fine = 1e-5,
                                                             .reference = Method::exact,
                                                             .expected_order = 0 /* no state */,
                                                             .h_order_max = 4e-3}> {
  static constexpr const char* name = "stribeck-exp";
  static constexpr int kTheta = 5;
  static constexpr std::array<double, kTheta> theta0{1.0, 1.5, 0.01, 0.4,
                                                     2.0};  // Fc Fs vs sigma2 alpha
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.curve = StribeckCurve<S>::symmetric(th[0], th[1], th[2], th[4]);
    p.sigma2 = th[3];
    return p;
  }
  template <class S>
  static bool within_bound(const typename M<S>::Params&, const typename M<S>::State&, double) {
    return true;
  }
  template <class S>
  static double state_max(const typename M<S>::State&) {
    return 0;
  }
};

struct StribeckRationalSmoothFamily : StribeckExpFamily {
  static constexpr const char* name = "stribeck-rational-smooth";
  template <class S>
  static typename M<S>::Params params(const S* th) {
    auto p = StribeckExpFamily::params<S>(th);
    p.curve = StribeckCurve<S>::symmetric(th[0], th[1], th[2], th[4], StribeckShape::rational);
    p.v_smooth = S(1e-4);
    return p;
  }
};

// Input |dv/dt| <= 0.16 m/s^2: no split (|dv| < vs/8 per step) for h < 0.78 ms.
struct LuGreFamily : ScalarStateFamily<LuGre, Accuracy{.v_scale = 0.01,
                                                       .h_fine = 1e-6,
                                                       .reference = Method::rk4,
                                                       .expected_order = 2,
                                                       .h_order_max = 4e-4}> {
  static constexpr const char* name = "lugre";
  // sigma0 sigma1 sigma2 Fc Fs vs: the parameter set of Canudas de Wit et al. 1995 (ref 003).
  static constexpr int kTheta = 6;
  static constexpr std::array<double, kTheta> theta0{1e5, 316.227766, 0.4, 1.0, 1.5, 0.001};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    return bristle_params<typename M<S>::Params>(
        th, StribeckCurve<S>::symmetric(th[3], th[4], th[5], S(2)));
  }
};

/// LuGre with every option on: asymmetric Fc/Fs, rational shape, velocity-dependent damping.
struct LuGreAsymFamily : LuGreFamily {
  static constexpr const char* name = "lugre-asym-rational-vd";
  static constexpr std::array<double, kTheta> theta0{2e4, 150.0, 0.8, 1.0, 1.6, 0.002};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    auto p = bristle_params<typename M<S>::Params>(
        th, StribeckCurve<S>{th[3], S(0.7) * th[3], th[4], S(1.2) * th[4], th[5], S(1.5),
                             StribeckShape::rational});
    p.vd = S(0.004);
    return p;
  }
};

/// Dahl with a non-unit exponent (exercises the log1p branch of the exact solution).
/// Rate independent and split at reversals (Dahl::step_linear): exact for a piecewise-linear
/// velocity; the error left is that of the linear interpolation of the input: order 2.
struct DahlFamily : ScalarStateFamily<Dahl, Accuracy{.v_scale = 0.01,
                                                     .h_fine = 1e-6,
                                                     .reference = Method::rk4,
                                                     .expected_order = 2,
                                                     .h_order_max = 4e-4}> {
  static constexpr const char* name = "dahl";
  static constexpr int kTheta = 3;  // sigma0 Fc n
  static constexpr std::array<double, kTheta> theta0{1e5, 1.0, 1.5};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    return typename M<S>::Params{th[0], th[1], th[2]};
  }
  // For n > 1 the approach to Fc is algebraic, u ~ (c xi)^(-1/(n-1)): a long path is needed.
  static constexpr double h_steady = 50.0;
};

/// Exponential Euler substeps on the blend region (elastoplastic.hpp): second order. The blend
/// substeps are not exact for a held input: 1 step vs 100 substeps per 10 ms interval differ by
/// the first-order blend error (measured 2.5e-3 relative, see the test's output).
struct ElastoPlasticFamily : ScalarStateFamily<ElastoPlastic, Accuracy{.v_scale = 0.01,
                                                                       .h_fine = 1e-6,
                                                                       .reference = Method::rk4,
                                                                       .expected_order = 2,
                                                                       .h_order_max = 4e-4,
                                                                       .zoh_rel_tol = 5e-3}> {
  static constexpr const char* name = "elasto-plastic";
  static constexpr int kTheta = 7;  // sigma0 sigma1 sigma2 Fc Fs vs z_ba
  static constexpr std::array<double, kTheta> theta0{1e5, 316.227766, 0.4, 1.0, 1.5, 0.001, 5e-6};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    auto p = bristle_params<typename M<S>::Params>(
        th, StribeckCurve<S>::symmetric(th[3], th[4], th[5], S(2)));
    p.z_ba = th[6];
    return p;
  }
};

/// Exact for piecewise-linear input (MaxwellSlip::step_linear splits at reversals); the error
/// left is that of the linear interpolation of the input: order 2.
struct MaxwellSlipFamily : ElementStateFamily<MaxwellSlip8, Accuracy{.v_scale = 0.001,
                                                                     .h_fine = 1e-6,
                                                                     .reference = Method::exact,
                                                                     .expected_order = 2,
                                                                     .h_order_max = 4e-3}> {
  static constexpr const char* name = "maxwell-slip";
  static constexpr int kElements = 4;
  static constexpr int kTheta = 3;  // stiffness scale, slip deflection scale, sigma2
  static constexpr std::array<double, kTheta> theta0{2e4, 1e-5, 0.4};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.n = kElements;
    for (int i = 0; i < kElements; ++i) {
      p.k[i] = th[0] * S(1.0 + 0.5 * i);
      p.Delta[i] = th[1] * S(1.0 + i);
    }
    p.sigma2 = th[2];
    return p;
  }
  template <class S>
  static bool within_bound(const typename M<S>::Params& p, const typename M<S>::State& x,
                           double tol) {
    for (int i = 0; i < p.n; ++i)
      if (std::abs(double(x.z[i])) > double(p.Delta[i]) * (1 + tol)) return false;
    return true;
  }
};

/// The slip cap g(v)/k follows the input; the clipped state is Lipschitz, not smooth, in v:
/// first order in h.
struct ModifiedStribeckFamily
    : ScalarStateFamily<ModifiedStribeck, Accuracy{.v_scale = 0.01,
                                                   .h_fine = 1e-6,
                                                   .reference = Method::exact,
                                                   .expected_order = 1,
                                                   .h_order_max = 4e-4}> {
  static constexpr const char* name = "modified-stribeck";
  static constexpr int kTheta = 5;  // k sigma2 Fc Fs vs
  static constexpr std::array<double, kTheta> theta0{1e5, 0.4, 1.0, 1.5, 0.001};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.k = th[0];
    p.sigma2 = th[1];
    p.curve = StribeckCurve<S>::symmetric(th[2], th[3], th[4], S(2));
    return p;
  }
};

struct GMSFamily : ElementStateFamily<GMS8, Accuracy{.v_scale = 0.01,
                                                     .h_fine = 1e-6,
                                                     .reference = Method::exact,
                                                     .expected_order = 1,
                                                     .h_order_max = 4e-4}> {
  static constexpr const char* name = "gms";
  static constexpr int kElements = 4;
  static constexpr int kTheta = 6;  // stiffness scale, C, sigma2, Fc, Fs, vs
  static constexpr std::array<double, kTheta> theta0{5e4, 20.0, 0.4, 1.0, 1.5, 0.001};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.n = kElements;
    const double nu[kElements] = {0.1, 0.2, 0.3, 0.4};
    for (int i = 0; i < kElements; ++i) {
      p.k[i] = th[0] * S(1.0 + i);
      p.nu[i] = S(nu[i]);
    }
    p.C = th[1];
    p.sigma2 = th[2];
    p.curve = StribeckCurve<S>::symmetric(th[3], th[4], th[5], S(2));
    return p;
  }
  template <class S>
  static bool within_bound(const typename M<S>::Params& p, const typename M<S>::State& x,
                           double tol) {
    for (int i = 0; i < p.n; ++i) {
      const double Fi = std::abs(double(p.k[i] * x.z[i]));
      if (Fi > double(M<S>::element_force_bound(p, i)) * (1 + tol)) return false;
    }
    return true;
  }
};

/// The joint LuGre model of reference 004 (model A: exact sign) with two Stribeck terms, one of
/// them negative (a two-break curve), and a cubic viscous series.
struct JointLuGreFamily : ScalarStateFamily<JointLuGre, Accuracy{.v_scale = 0.05,
                                                                 .h_fine = 1e-6,
                                                                 .reference = Method::rk4,
                                                                 .expected_order = 2,
                                                                 .h_order_max = 4e-4}> {
  static constexpr const char* name = "joint-lugre";
  // sigma0 sigma1 Fc Fs[0] Omega_s cv[0]
  static constexpr int kTheta = 6;
  static constexpr std::array<double, kTheta> theta0{2e4, 40.0, 1.0, 0.6, 0.01, 0.5};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.sigma0 = th[0];
    p.sigma1 = th[1];
    p.Fc = th[2];
    p.n_stribeck = 2;
    p.Fs[0] = th[3];
    p.delta[0] = S(0.75);
    p.Fs[1] = S(-0.2);
    p.delta[1] = S(2.25);
    p.Omega_s = th[4];
    p.n_viscous = 3;
    p.cv[0] = th[5];
    p.cv[1] = S(0.02);
    p.cv[2] = S(0.01);
    return p;
  }
};

/// The same with tanh(K qd) in place of the sign (the paper's model B, K = 150 s/rad): the
/// bristles relax at rest too (joint_lugre.hpp).
struct JointLuGreTanhFamily : JointLuGreFamily {
  static constexpr const char* name = "joint-lugre-tanh";
  template <class S>
  static typename M<S>::Params params(const S* th) {
    auto p = JointLuGreFamily::params<S>(th);
    p.K = S(150);
    return p;
  }
};

}  // namespace frictionlab::testing
