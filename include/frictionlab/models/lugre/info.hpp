// frictionlab: the registry descriptor of the LuGre model (what a descriptor holds:
// models/fields.hpp).
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/lugre/fit.hpp"
#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/models/lugre/validation.hpp"

namespace frictionlab {

struct LuGreInfo : PlainInfo<LuGre<double>::Params> {
  static constexpr std::string_view name = "lugre";
  static constexpr FitFacts fit{
      .fit = true, .asym = true, .rational = true, .list_asym = true, .list_rational = true};
  using Fit = LuGreFit;  ///< the fit parameterisation (fit.hpp)

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma0", p.sigma0, Unit::stiffness);
    v.number("sigma1", p.sigma1, Unit::damping);
    v.number("sigma2", p.sigma2, Unit::damping);
    v.curve(p.curve);
    v.number("vd", p.vd, Unit::velocity);
  }

  /// The displacement-unit form (docs/models.md, LuGre): a model file with a1 or a2 is read in
  /// this form (both required) and converted with lugre_from_displacement_form.
  struct AltForm {
    using Params = LuGreDisplacementForm<double>;
    static constexpr std::string_view label = "the displacement form (a1, a2)";
    static constexpr std::string_view missing =
        "missing: the displacement form needs both a1 and a2";
    static constexpr std::array<std::string_view, 2> keys = {"a1", "a2"};
    static Params defaults() {
      const LuGreInfo::Params p{};
      return Params{p.sigma0, p.sigma1, p.sigma2, 0, 0, p.curve.vs, p.curve.alpha};
    }
    template <class P, class V>
    static void fields(P& d, V& v) {
      v.number("sigma0", d.sigma0, Unit::stiffness);
      v.number("sigma1", d.sigma1, Unit::damping);
      v.number("sigma2", d.sigma2, Unit::damping);
      v.number("a1", d.a1, Unit::displacement);
      v.number("a2", d.a2, Unit::displacement);
      v.number("vs", d.vs, Unit::velocity);
      v.number("alpha", d.alpha, Unit::none);
    }
    static std::vector<ParamIssue> check(const Params& d) { return frictionlab::check(d); }
    static LuGreInfo::Params convert(const Params& d) { return lugre_from_displacement_form(d); }
  };
};

}  // namespace frictionlab
