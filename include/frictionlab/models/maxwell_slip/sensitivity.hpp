// frictionlab: forward sensitivities of the Maxwell-slip model's linear-input step
// (MaxwellSlip::step_linear: the exact update of each monotone part of the path) and of its
// force, along NL directions in parameter space and with respect to the element states, in plain
// arithmetic: the fit's fast path (models/fit_form.hpp, "Sensitivity"; docs/identification.md,
// "Jacobian"). Same equations and units as model.hpp; tested against the Jet derivatives and
// central differences (tests/test_model_properties.cpp, tests/test_segmented_jacobian.cpp).
//
// Fields q (E the element arrays' size): sigma2 [N s/m], k_i [N/m], Delta_i [m] (i < E), in the
// order of MaxwellSlipSensitivity::fields. Directions d = 0..NL-1: the seeds e_q = dq/dd; a
// direction whose seeds are all 0 carries the derivative with respect to a state the simulation
// started from (dz_i/dz_s,i = 1 at the start).
//
// One monotone part of displacement dx [m] (dx does not depend on the parameters), element i,
// y = z_i + dx:
//   y >  Delta_i:  z_i+ =  Delta_i,  dz_i+ =  e_Delta_i
//   y < -Delta_i:  z_i+ = -Delta_i,  dz_i+ = -e_Delta_i
//   otherwise:     z_i+ = y,         dz_i+ = dz_i
// (the same comparisons as elastoslide: at |y| = Delta_i exactly the element sticks, the
// one-sided derivative of a kink). Force: F = sigma2 v + sum_i k_i z_i [N],
//   dF = v e_sigma2 + sum_i (k_i dz_i + z_i e_k_i).
// Only Delta moves the states (kStateFields); sigma2 and k_i enter the force only
// (kForceFields, their columns by force_field). The step is not affine in the states (the
// clamps): a fit's segments start from the states of the value simulation.
#pragma once

#include <array>
#include <cstddef>

#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/sensitivity_states.hpp"

namespace frictionlab {

/// The seeds dq/dd of the NL directions for the fields of MaxwellSlipSensitivity<E>.
template <int E, int NL>
struct MaxwellSlipSeeds {
  std::array<std::array<double, NL>, 1 + 2 * E> e{};

  void set(int field, int direction, double value) noexcept {
    e[static_cast<std::size_t>(field)][static_cast<std::size_t>(direction)] = value;
  }
};

/// What the Maxwell-slip model needs at a sample: the velocity alone (rate independent).
struct MaxwellSlipAt {
  double v;
};

/// What the generic fit may use of the Maxwell-slip model with element arrays of size E
/// (models/fit_form.hpp, "Sensitivity"): one state per element, the first p.n of them used.
template <int E>
struct MaxwellSlipSensitivity {
  using Params = typename MaxwellSlip<double, E>::Params;
  static constexpr int kStates = E;
  static constexpr int kFields = 1 + 2 * E;
  static constexpr bool kAffineStep = false;
  /// Field indices: sigma2, then k_i, then Delta_i.
  static constexpr int kSigma2 = 0;
  static constexpr int k_field(int i) { return 1 + i; }
  static constexpr int delta_field(int i) { return 1 + E + i; }
  static constexpr std::array<int, E> kStateFields = [] {
    std::array<int, E> a{};
    for (int i = 0; i < E; ++i) a[static_cast<std::size_t>(i)] = delta_field(i);
    return a;
  }();
  static constexpr std::array<int, 1 + E> kForceFields = [] {
    std::array<int, 1 + E> a{};
    for (int i = 0; i <= E; ++i) a[static_cast<std::size_t>(i)] = i;
    return a;
  }();
  template <int NL>
  using Seeds = MaxwellSlipSeeds<E, NL>;
  template <int NL>
  using At = MaxwellSlipAt;
  using State = std::array<double, E>;
  template <int NL>
  using DState = std::array<std::array<double, NL>, E>;
  /// The element states of the force's sample (force_field's dF/dk_i = z_i).
  struct ForceParts {
    const State* z = nullptr;
  };

  /// The fields in the order above (a Jet's derivative parts give dq/dtheta).
  template <class S>
  static std::array<S, kFields> fields(const typename MaxwellSlip<S, E>::Params& p) {
    std::array<S, kFields> q{};
    q[kSigma2] = p.sigma2;
    for (int i = 0; i < E; ++i) {
      q[static_cast<std::size_t>(k_field(i))] = p.k[static_cast<std::size_t>(i)];
      q[static_cast<std::size_t>(delta_field(i))] = p.Delta[static_cast<std::size_t>(i)];
    }
    return q;
  }
  template <class S>
  static bool covers(const typename MaxwellSlip<S, E>::Params& /*p*/) {
    return true;
  }
  /// The model's state as the array the pass steps, and back (the model itself has no array
  /// form: it would offer the explicit integrators, which its clamps defeat).
  static State to_array(const typename MaxwellSlip<double, E>::State& x) noexcept { return x.z; }
  static typename MaxwellSlip<double, E>::State from_array(const State& z) noexcept { return {z}; }
  /// The states p uses: one per element.
  template <class P>
  static int states(const P& p) {
    return p.n;
  }
  template <int NL>
  static At<NL> at(const Params& /*p*/, double v, const Seeds<NL>& /*seeds*/) noexcept {
    return {v};
  }
  /// F = sigma2 v + sum_i k_i z_i (MaxwellSlip::force, the same order) and dF.
  template <int NL>
  static double force(const Params& p, const Seeds<NL>& seeds, const State& z, const DState<NL>& dz,
                      const At<NL>& w, std::array<double, NL>& dF, ForceParts& parts) noexcept {
    parts.z = &z;
    return spring_elements_force<NL>(
        p.sigma2, p.k, p.n, w.v, seeds.e[kSigma2], z,
        dz, [&](int i) -> const auto& { return seeds.e[static_cast<std::size_t>(k_field(i))]; },
        dF);
  }
  /// dF/dq of force-only field kForceFields[i]: v for sigma2, z_j for k_j.
  template <int NL>
  static double force_field(const ForceParts& parts, const At<NL>& w, int i) noexcept {
    return i == 0 ? w.v : (*parts.z)[static_cast<std::size_t>(i - 1)];
  }
  /// The step from w0 to w1 over h [s] (MaxwellSlip::step_linear): z and dz in and out.
  template <int NL>
  static void step(const Params& p, const Seeds<NL>& seeds, State& z, DState<NL>& dz,
                   const At<NL>& w0, const At<NL>& w1, double h,
                   std::array<double, NL>* /*dx_sum*/) noexcept {
    double dx1, dx2;
    const bool split = split_at_reversal(w0.v, w1.v, h, dx1, dx2);
    step_dx<NL>(p, seeds, z, dz, dx1);
    if (split) step_dx<NL>(p, seeds, z, dz, dx2);
  }

 private:
  /// MaxwellSlip::step_dx (elastoslide per element) with the states' sensitivities.
  template <int NL>
  static void step_dx(const Params& p, const Seeds<NL>& seeds, State& z, DState<NL>& dz,
                      double dx) noexcept {
    for (int i = 0; i < p.n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const double cap = p.Delta[ui];
      const double y = z[ui] + dx;
      if (y > cap) {
        z[ui] = cap;
        dz[ui] = seeds.e[static_cast<std::size_t>(delta_field(i))];
      } else if (y < -cap) {
        z[ui] = -cap;
        for (std::size_t d = 0; d < static_cast<std::size_t>(NL); ++d)
          dz[ui][d] = -seeds.e[static_cast<std::size_t>(delta_field(i))][d];
      } else {
        z[ui] = y;
      }
    }
  }
};

}  // namespace frictionlab
