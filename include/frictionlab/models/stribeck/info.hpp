// frictionlab: the registry descriptors of the static models coulomb, viscous, coulomb-viscous and
// stribeck (models/fields.hpp says what a descriptor holds). All four share StaticFriction's
// Params; a StaticSpec names which of them a parameter set is.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/stribeck/fit.hpp"
#include "frictionlab/models/stribeck/model.hpp"
#include "frictionlab/models/stribeck/validation.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab {

/// The parameters of a static model and which static model they are.
struct StaticSpec {
  StaticKind kind = StaticKind::stribeck;
  StaticFriction<double>::Params params{};
};

template <StaticKind K>
struct StaticInfo {
  using Params = StaticFriction<double>::Params;
  using Spec = StaticSpec;
  static constexpr StaticKind kind = K;
  static constexpr std::string_view name = K == StaticKind::coulomb           ? "coulomb"
                                           : K == StaticKind::viscous         ? "viscous"
                                           : K == StaticKind::coulomb_viscous ? "coulomb-viscous"
                                                                              : "stribeck";
  static constexpr FitFacts fit{.fit = true,
                                .asym = K != StaticKind::viscous,
                                .rational = K == StaticKind::stribeck,
                                .elements = false,
                                .list_asym = K != StaticKind::viscous,
                                .list_rational = K == StaticKind::stribeck};
  using Fit = StaticFit<K>;  ///< the fit parameterisation (fit.hpp)

  static bool matches(const Spec& s) { return s.kind == K; }
  static Spec spec(const Params& p) { return StaticSpec{K, p}; }
  static Params& params(Spec& s) { return s.params; }
  static const Params& params(const Spec& s) { return s.params; }

  static Params defaults() {
    Params p;
    if (K == StaticKind::viscous)
      p.curve.Fc_pos = p.curve.Fc_neg = p.curve.Fs_pos = p.curve.Fs_neg = 0;
    return p;
  }

  template <class P, class V>
  static void fields(P& p, V& v) {
    if constexpr (K == StaticKind::viscous) {
      v.number("sigma2", p.sigma2, Unit::damping);
    } else {
      if constexpr (K == StaticKind::stribeck) {
        v.curve(p.curve);
      } else {
        v.coulomb_level(p.curve);
      }
      if constexpr (K != StaticKind::coulomb) v.number("sigma2", p.sigma2, Unit::damping);
      v.number("v_smooth", p.v_smooth, Unit::velocity);
      v.smoothing(p.smoothing);
    }
  }

  static std::vector<ParamIssue> check(const Params& p) { return frictionlab::check(p); }

  /// What a parameter set needs to be written under this name (nullptr: nothing).
  static const char* write_requirement(const Params& p) {
    const auto& c = p.curve;
    switch (K) {
      case StaticKind::coulomb:
        return c.Fs_pos == c.Fc_pos && c.Fs_neg == c.Fc_neg && p.sigma2 == 0
                   ? nullptr
                   : "Fs = Fc and sigma2 = 0";
      case StaticKind::viscous:
        return c.Fc_pos == 0 && c.Fc_neg == 0 && c.Fs_pos == 0 && c.Fs_neg == 0 ? nullptr
                                                                                : "Fc = Fs = 0";
      case StaticKind::coulomb_viscous:
        return c.Fs_pos == c.Fc_pos && c.Fs_neg == c.Fc_neg ? nullptr : "Fs = Fc";
      case StaticKind::stribeck:
        return nullptr;
    }
    return nullptr;
  }
};

using CoulombInfo = StaticInfo<StaticKind::coulomb>;
using ViscousInfo = StaticInfo<StaticKind::viscous>;
using CoulombViscousInfo = StaticInfo<StaticKind::coulomb_viscous>;
using StribeckInfo = StaticInfo<StaticKind::stribeck>;

/// The static kinds' names (their descriptors' `name`).
inline constexpr std::array<Named<StaticKind>, 4> kStaticKindNames{{
    {StaticKind::coulomb, CoulombInfo::name},
    {StaticKind::viscous, ViscousInfo::name},
    {StaticKind::coulomb_viscous, CoulombViscousInfo::name},
    {StaticKind::stribeck, StribeckInfo::name},
}};
static_assert(names_every(kStaticKindNames, StaticKind::stribeck));

/// The name of a static kind ("coulomb", "viscous", "coulomb-viscous", "stribeck").
inline const char* static_kind_name(StaticKind k) {
  return name_of(kStaticKindNames, k, StribeckInfo::name).data();
}

}  // namespace frictionlab
