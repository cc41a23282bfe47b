// frictionlab: a model's forward sensitivities (Fit::Sensitivity, models/fit_form.hpp) seen with
// its state as an array, whatever the model declares: a model with one state (LuGre, Dahl,
// elasto-plastic) writes its step as z+ = step(z, dz), a model with several (Maxwell slip: one
// deflection per element) declares kStates and states(p) and steps the arrays in place; a model
// whose state also holds what is not differentiated (GMS: each element's regime) declares
// kArrayStates, the array's size, with the kStates differentiable states first. The fit's
// sensitivity pass (identify) and the model tests use this one form.
#pragma once

#include <array>
#include <cstddef>

namespace frictionlab {

/// Whether Sens steps an array of states (declares kStates).
template <class Sens>
concept MultiStateSensitivity = requires {
  Sens::kStates;
};

template <class Sens>
struct SensitivityStates {
  /// The largest number of states (array sizes).
  static constexpr int kStates = [] {
    if constexpr (MultiStateSensitivity<Sens>) {
      return Sens::kStates;
    } else {
      return 1;
    }
  }();
  /// The size of the state array: kStates, or more where the model carries flags after them.
  static constexpr int kArrayStates = [] {
    if constexpr (requires { Sens::kArrayStates; }) {
      return Sens::kArrayStates;
    } else {
      return kStates;
    }
  }();
  /// The largest number of directions the fit may carry through the step (the parameters that
  /// move the states and the start states): 8 unless the model asks for more.
  static constexpr int kMaxLanes = [] {
    if constexpr (requires { Sens::kMaxLanes; }) {
      return Sens::kMaxLanes;
    } else {
      return 8;
    }
  }();
  using State = std::array<double, kArrayStates>;
  /// dz[i][d]: the derivative of state i along direction d.
  template <int NL>
  using DState = std::array<std::array<double, NL>, kStates>;

  /// The states the parameters p use (<= kStates): for Maxwell slip its element count.
  template <class P>
  static int states(const P& p) {
    if constexpr (MultiStateSensitivity<Sens>) {
      return Sens::states(p);
    } else {
      (void)p;
      return 1;
    }
  }

  /// The force and its sensitivities dF along the directions (Sens::force).
  template <int NL>
  static double force(const typename Sens::Params& p,
                      const typename Sens::template Seeds<NL>& seeds, const State& z,
                      const DState<NL>& dz, const typename Sens::template At<NL>& w,
                      std::array<double, NL>& dF, typename Sens::ForceParts& parts) noexcept {
    if constexpr (MultiStateSensitivity<Sens>) {
      return Sens::template force<NL>(p, seeds, z, dz, w, dF, parts);
    } else {
      return Sens::template force<NL>(p, seeds, z[0], dz[0], w, dF, parts);
    }
  }

  /// The step from w0 to w1 over h [s]: z and dz in and out (Sens::step).
  template <int NL>
  static void step(const typename Sens::Params& p, const typename Sens::template Seeds<NL>& seeds,
                   State& z, DState<NL>& dz, const typename Sens::template At<NL>& w0,
                   const typename Sens::template At<NL>& w1, double h,
                   std::array<double, NL>* dx_sum) noexcept {
    if constexpr (MultiStateSensitivity<Sens>) {
      Sens::template step<NL>(p, seeds, z, dz, w0, w1, h, dx_sum);
    } else {
      z[0] = Sens::template step<NL>(p, seeds, z[0], dz[0], w0, w1, h, dx_sum);
    }
  }
};

/// The force of n parallel spring elements and a viscous term, with its sensitivities along NL
/// directions (Maxwell slip and GMS, each model's force() in the same order):
///   F = sigma2 v + sum_i k_i z_i,   dF = v e_sigma2 + sum_i (k_i dz_i + z_i e_k(i)),
/// e_sigma2 the seed of sigma2 and e_k(i) that of k_i (an array of NL values).
template <int NL, class K, class State, class DState, class Ek>
double spring_elements_force(double sigma2, const K& k, int n, double v,
                             const std::array<double, NL>& e_sigma2, const State& z,
                             const DState& dz, Ek e_k, std::array<double, NL>& dF) noexcept {
  constexpr auto un = static_cast<std::size_t>(NL);
  double f = sigma2 * v;
  for (std::size_t d = 0; d < un; ++d) dF[d] = v * e_sigma2[d];
  for (int i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const auto& ek = e_k(i);
    f += k[ui] * z[ui];
    for (std::size_t d = 0; d < un; ++d) dF[d] += k[ui] * dz[ui][d] + z[ui] * ek[d];
  }
  return f;
}

}  // namespace frictionlab
