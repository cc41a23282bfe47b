// frictionlab: a friction model's parameters at a temperature (docs/models.md,
// "Temperature-dependent friction"). The law (models/temperature_dependence.hpp) gives two
// scales at a temperature, one for the dry-friction levels and one for the viscous term; which
// parameters each scales is the model's to say, in its folder's temperature.hpp, as a
// specialisation of TemperatureLevels<Model>:
//
//   template <class S> struct TemperatureLevels<LuGre<S>> {
//     static void scale(typename LuGre<S>::Params& p, const S& level, const S& viscous);
//   };
//
// A model's stiffnesses, dampings of the bristles and shapes are not scaled: at T = T_ref every
// parameter keeps its value, and the temperature-free model is the case kT = kT_v = 0.
//
// Header only, any scalar, no allocation.
#pragma once

namespace frictionlab {

/// Specialised by each model folder's temperature.hpp (see the header comment).
template <class Model>
struct TemperatureLevels;

/// Whether model M's folder says which of its parameters a temperature law scales.
template <class M>
concept HasTemperatureLevels = requires {
  sizeof(TemperatureLevels<M>);
};

/// p (the Params of any model with a TemperatureLevels) with its dry-friction levels scaled by
/// `level` and its viscous term by `viscous`: a temperature law's level_scale and viscous_scale.
template <class P, class S>
void scale_levels(P& p, const S& level, const S& viscous) noexcept {
  TemperatureLevels<typename P::Model>::scale(p, level, viscous);
}

}  // namespace frictionlab
