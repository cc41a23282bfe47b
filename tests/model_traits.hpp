// Test-side description of every friction model for the typed property suite
// (tests/test_model_properties.cpp). One `Family` struct per model configuration:
//
//   template <class S> using M = Model<S>;        the model type for scalar S
//   template <class S> static M<S>::Params params(const S* theta);   parameters from the
//                      differentiable vector theta (kTheta entries), rest fixed
//   static constexpr std::array<double, kTheta> theta0;   nominal values
//   static constexpr double v_scale;      typical velocity [m/s] of a test input
//   static constexpr double h_fine;       step of the high-accuracy reference
//   static constexpr Method reference;    scheme of the independent reference solution
//   static constexpr double expected_order;  for Hold::linear with the exact step
//   static constexpr double h_order_max;  largest step of the order test (h, h/2, h/4, h/8);
//                      chosen in the asymptotic regime (for LuGre below the step at which
//                      step_linear starts splitting steps that sweep through the Stribeck region)
//   template <class S> static bool within_bound(p, x, tol)  the state invariant
//   template <class S> static double state_max(x)           largest |state| (for messages)
#pragma once

#include <array>
#include <cmath>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace frictionlab::testing {

struct StribeckExpFamily {
  static constexpr const char* name = "stribeck-exp";
  template <class S>
  using M = StaticFriction<S>;
  static constexpr int kTheta = 5;
  static constexpr std::array<double, kTheta> theta0{1.0, 1.5, 0.01, 0.4, 2.0};  // Fc Fs vs sigma2 alpha
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.curve = StribeckCurve<S>::symmetric(th[0], th[1], th[2], th[4]);
    p.sigma2 = th[3];
    return p;
  }
  static constexpr double v_scale = 0.05;
  static constexpr double h_fine = 1e-5;
  static constexpr Method reference = Method::exact;
  static constexpr double expected_order = 0;  // no state
  static constexpr double h_order_max = 4e-3;
  template <class S>
  static bool within_bound(const typename M<S>::Params&, const typename M<S>::State&, double) {
    return true;
  }
  template <class S>
  static double state_max(const typename M<S>::State&) { return 0; }
};

struct StribeckRationalSmoothFamily : StribeckExpFamily {
  static constexpr const char* name = "stribeck-rational-smooth";
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.curve = StribeckCurve<S>::symmetric(th[0], th[1], th[2], th[4], StribeckShape::rational);
    p.sigma2 = th[3];
    p.v_smooth = S(1e-4);
    return p;
  }
};

struct LuGreFamily {
  static constexpr const char* name = "lugre";
  template <class S>
  using M = LuGre<S>;
  // sigma0 sigma1 sigma2 Fc Fs vs: the parameter set of Canudas de Wit et al. 1995 (ref 003).
  static constexpr int kTheta = 6;
  static constexpr std::array<double, kTheta> theta0{1e5, 316.227766, 0.4, 1.0, 1.5, 0.001};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.sigma0 = th[0];
    p.sigma1 = th[1];
    p.sigma2 = th[2];
    p.curve = StribeckCurve<S>::symmetric(th[3], th[4], th[5], S(2));
    return p;
  }
  static constexpr double v_scale = 0.01;
  static constexpr double h_fine = 1e-6;
  static constexpr Method reference = Method::rk4;
  static constexpr double expected_order = 2;
  // Input |dv/dt| <= 0.16 m/s^2: no split (|dv| < vs/8 per step) for h < 0.78 ms.
  static constexpr double h_order_max = 4e-4;
  template <class S>
  static bool within_bound(const typename M<S>::Params& p, const typename M<S>::State& x,
                           double tol) {
    return std::abs(double(x.z)) <= double(M<S>::state_bound(p)) * (1 + tol);
  }
  template <class S>
  static double state_max(const typename M<S>::State& x) { return std::abs(double(x.z)); }
};

/// LuGre with every option on: asymmetric Fc/Fs, rational shape, velocity-dependent damping.
struct LuGreAsymFamily : LuGreFamily {
  static constexpr const char* name = "lugre-asym-rational-vd";
  static constexpr int kTheta = 6;
  static constexpr std::array<double, kTheta> theta0{2e4, 150.0, 0.8, 1.0, 1.6, 0.002};
  template <class S>
  static typename M<S>::Params params(const S* th) {
    typename M<S>::Params p;
    p.sigma0 = th[0];
    p.sigma1 = th[1];
    p.sigma2 = th[2];
    p.curve = StribeckCurve<S>{th[3], S(0.7) * th[3], th[4], S(1.2) * th[4], th[5], S(1.5),
                               StribeckShape::rational};
    p.vd = S(0.004);
    return p;
  }
};

}  // namespace frictionlab::testing
