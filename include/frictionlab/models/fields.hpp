// frictionlab: how a model folder describes its parameters to the generic code of the other
// layers (std only). Every model folder has an info.hpp with a descriptor struct (LuGreInfo,
// DahlInfo, ...) registered in models/registry.hpp; the descriptor says:
//
//   using Params = ...;                       the double-precision parameter struct (a ModelSpec
//   using Spec = ...;                         alternative: Params, or StaticSpec for the static
//   kinds;
//                                             PlainInfo<Params> below gives the usual members)
//   static constexpr std::string_view name;   the model name (MODEL.json "model", docs/models.md)
//   static bool matches(const Spec&);          whether a Spec is this model (static kinds share
//   one) static Params defaults();                  the documented defaults of a model file
//   template <class P, class V> static void fields(P& p, V& v);
//                                              the MODEL.json keys in documentation order, as calls
//                                              of the field kinds below; io reads and writes a
//                                              model file through them, and param_table() lists
//                                              them
//   static std::vector<ParamIssue> check(const Params&);   validation (models/<m>/validation.hpp)
//   static const char* write_requirement(const Params&);   nullptr, or what a writable set needs
//   static constexpr FitFacts fit;             the names `fit --model` accepts for it (none: empty)
//
// Field kinds (the calls fields() makes on a visitor v; keys are docs/models.md names):
//   v.number(key, double&, Unit)                     one number
//   v.curve(StribeckCurve<double>&)                  the curve keys: Fc or Fc_pos + Fc_neg, Fs or
//                                                    Fs_pos + Fs_neg, vs, alpha, shape
//   v.coulomb_level(StribeckCurve<double>&)          Fc or Fc_pos + Fc_neg, with Fs = Fc
//   v.smoothing(SignSmoothing&)                      "tanh" (default, not written) or "atan"
//   v.elements(int& n, Elements{key, array&, Unit}...)   n and one array per element parameter
//                                                    (Maxwell slip, GMS), 1 <= n <= array size
//   v.array(key, int& count, array&, Unit)           an array of 0..size entries (count = length)
//   v.array_pair(key1, key2, what, int& count, array1&, array2&, Unit1, Unit2)
//                                                    two arrays of equal length, one entry per
//                                                    `what`
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "frictionlab/models/param_checks.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab {

/// The physical kind of a parameter (translational unit; rotary joints: N -> Nm, m -> rad;
/// `other`: a unit the list does not name, given in docs/models.md).
enum class Unit { none, force, velocity, displacement, stiffness, damping, force_rate, other };

/// The translational unit texts of docs/models.md ("N", "m/s", ...; "-" for none).
inline constexpr std::array<Named<Unit>, 8> kUnitTexts{{
    {Unit::none, "-"},
    {Unit::force, "N"},
    {Unit::velocity, "m/s"},
    {Unit::displacement, "m"},
    {Unit::stiffness, "N/m"},
    {Unit::damping, "N s/m"},
    {Unit::force_rate, "N/s"},
    {Unit::other, "see docs/models.md"},
}};
static_assert(names_every(kUnitTexts, Unit::other));

/// The unit texts for a rotary joint (N -> Nm, m -> rad: "Nm", "rad/s", "Nm/rad", ...).
inline constexpr std::array<Named<Unit>, 8> kRotaryUnitTexts{{
    {Unit::none, "-"},
    {Unit::force, "Nm"},
    {Unit::velocity, "rad/s"},
    {Unit::displacement, "rad"},
    {Unit::stiffness, "Nm/rad"},
    {Unit::damping, "Nm s/rad"},
    {Unit::force_rate, "Nm/s"},
    {Unit::other, "see docs/models.md"},
}};
static_assert(names_every(kRotaryUnitTexts, Unit::other));

/// The translational unit text of docs/models.md ("N", "m/s", ...; "-" for none).
constexpr std::string_view unit_text(Unit u) { return name_of(kUnitTexts, u, "-"); }

/// The unit text for a rotary joint (N -> Nm, m -> rad: "Nm", "rad/s", "Nm/rad", ...) or, with
/// rotary = false, the translational one.
constexpr std::string_view unit_text(Unit u, bool rotary) {
  return name_of(rotary ? kRotaryUnitTexts : kUnitTexts, u, "-");
}

/// An element parameter array of v.elements(): its key, the array (a std::array, const when
/// written) and its unit.
template <class A>
struct Elements {
  std::string_view key;
  A& values;
  Unit unit;
};
template <class A>
Elements(std::string_view, A&, Unit) -> Elements<A>;

/// Which identification names a model takes (docs/identification.md, "Models").
struct FitFacts {
  bool fit = false;       ///< identify::fit can fit it
  bool asym = false;      ///< "NAME-asym" accepted (separate levels per side)
  bool rational = false;  ///< "NAME-rational" accepted (rational Stribeck shape)
  bool elements = false;  ///< "NAME:n" accepted (element count)
  /// The names listed in messages and --help: NAME, NAME-asym, NAME-rational (in this order).
  bool list_asym = false;
  bool list_rational = false;
};

/// check(p) found for P's namespace (models/<model>/validation.hpp), for descriptors.
template <class P>
std::vector<ParamIssue> check_params(const P& p) {
  return check(p);
}

/// The members shared by the descriptor of every model whose Spec is its own Params: derive
/// from it and add name, fields() and, for a fittable model, fit.
template <class P>
struct PlainInfo {
  using Params = P;
  using Spec = P;
  static constexpr FitFacts fit{};
  static bool matches(const Spec&) { return true; }
  static Spec spec(const Params& p) { return p; }
  static Params& params(Spec& s) { return s; }
  static const Params& params(const Spec& s) { return s; }
  static Params defaults() { return Params{}; }
  static std::vector<ParamIssue> check(const Params& p) { return check_params(p); }
  static const char* write_requirement(const Params&) { return nullptr; }
};

}  // namespace frictionlab
