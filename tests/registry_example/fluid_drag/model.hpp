// The worked example of docs/architecture.md, "Adding a model": a model folder for fluid drag
// F = sigma2 * v + cd * v * |v| (viscous plus quadratic drag, no state). Built by
// tests/test_model_registry.cpp, which registers it in a test-only list.
#pragma once

#include "frictionlab/models/common.hpp"

namespace frictionlab::example {

template <class S>
struct FluidDrag {
  using Scalar = S;
  struct Params {
    using Model = FluidDrag;
    S sigma2{S(0.4)};  ///< viscous coefficient [N s/m], >= 0
    S cd{S(2)};        ///< quadratic drag coefficient [N s^2/m^2], >= 0
  };
  struct State {};
  static constexpr int kNumStates = 0;

  static S steady_force(const Params& p, const S& v) noexcept {
    return p.sigma2 * v + p.cd * v * absval(v);
  }
  static S force(const Params& p, const State&, const S& v) noexcept { return steady_force(p, v); }
  static State derivative(const Params&, const State& x, const S&) noexcept { return x; }
  static State step(const Params&, const State& x, const S&, const S&) noexcept { return x; }
};

template <class T>
typename FluidDrag<T>::Params cast_params(const typename FluidDrag<double>::Params& p) {
  return {T(p.sigma2), T(p.cd)};
}

}  // namespace frictionlab::example
