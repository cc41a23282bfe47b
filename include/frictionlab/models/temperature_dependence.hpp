// frictionlab: temperature-dependent friction levels (docs/models.md, "Temperature-dependent
// friction").
//
// A gearbox's friction falls as it warms, mostly because its lubricant thins (Park et al.,
// Sensors 22, 2022: LuGre levels linear in the temperature over 19-51 degC; Wolf & Iskandar,
// DLR, over 24-50 degC). With T [degC] the temperature of the joint and T_ref [degC] a chosen
// reference, the dry-friction levels (Coulomb and Stribeck) and the viscous coefficient are
// scaled by
//
//   levels:   s(kT,   T - T_ref)        viscous:   s(kT_v, T - T_ref)
//
//   linear law:       s(k, dT) = 1 + k dT       (Park 2022; the adaptive estimator's kT)
//   exponential law:  s(k, dT) = exp(k dT)      (Arrhenius / Andrade-like: a lubricant's
//                                                viscosity falls exponentially with T)
//
// kT, kT_v [1/K] (usually < 0: less friction when warm). Both laws agree to first order in dT,
// and at T = T_ref every parameter keeps its meaning: the level at the reference temperature,
// so the temperature-free model is the special case kT = kT_v = 0. The linear law's scale must
// stay positive over the temperatures it is used at (temperature_scale_positive).
//
// Header only, any scalar, no allocation.
#pragma once

#include <cmath>
#include <string_view>

namespace frictionlab {

enum class TemperatureLaw { linear, exponential };

/// The coefficients of the temperature scale (header).
template <class S>
struct TemperatureDependence {
  TemperatureLaw law = TemperatureLaw::linear;
  S T_ref{0};  ///< reference temperature [degC]: the parameters are its levels
  S kT{0};     ///< relative change of the dry-friction levels per kelvin [1/K]
  S kT_v{0};   ///< relative change of the viscous coefficient per kelvin [1/K]
};

/// The law's name in files, options and messages: "linear", "exponential".
constexpr std::string_view temperature_law_name(TemperatureLaw law) noexcept {
  return law == TemperatureLaw::exponential ? "exponential" : "linear";
}

/// The law named "linear" or "exponential" into `law`; false (and `law` unchanged) if unknown.
constexpr bool parse_temperature_law(std::string_view s, TemperatureLaw& law) noexcept {
  if (s != "linear" && s != "exponential") return false;
  law = s == "linear" ? TemperatureLaw::linear : TemperatureLaw::exponential;
  return true;
}

/// The scale s(k, dT) of `law` (header) for a coefficient k [1/K] and dT = T - T_ref [K].
template <class S>
S temperature_scale(TemperatureLaw law, const S& k, const S& dT) noexcept {
  using std::exp;
  return law == TemperatureLaw::exponential ? S(exp(k * dT)) : S(S(1) + k * dT);
}

/// d s(k, dT) / d k [1/(1/K)]: dT (linear), dT exp(k dT) (exponential).
template <class S>
S temperature_scale_derivative(TemperatureLaw law, const S& k, const S& dT) noexcept {
  using std::exp;
  return law == TemperatureLaw::exponential ? S(dT * exp(k * dT)) : dT;
}

/// The scale of the dry-friction levels at temperature T [degC].
template <class S>
S level_scale(const TemperatureDependence<S>& p, const S& T) noexcept {
  return temperature_scale(p.law, p.kT, S(T - p.T_ref));
}

/// The scale of the viscous coefficient at temperature T [degC].
template <class S>
S viscous_scale(const TemperatureDependence<S>& p, const S& T) noexcept {
  return temperature_scale(p.law, p.kT_v, S(T - p.T_ref));
}

/// Whether both scales are positive at T [degC] (always for the exponential law; the linear law
/// turns negative beyond T_ref - 1/k, where its levels would push instead of resist).
template <class S>
bool temperature_scale_positive(const TemperatureDependence<S>& p, const S& T) noexcept {
  return level_scale(p, T) > S(0) && viscous_scale(p, T) > S(0);
}

}  // namespace frictionlab
