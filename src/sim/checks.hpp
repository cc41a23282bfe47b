// frictionlab sim (private): parameter checks and messages shared by the simulations
// (systems.cpp, joint_model.cpp). Messages: "<sys>: parameter '<name>' must be > 0 (got 0)",
// "<sys>: friction parameter '<name>' <message of models/validation.hpp>".
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/integrate/newton.hpp"
#include "frictionlab/models/temperature_dependence.hpp"
#include "frictionlab/models/temperature_levels.hpp"
#include "frictionlab/models/validation.hpp"

namespace frictionlab::sim::detail {

/// throw std::invalid_argument("<sys>: parameter '<name>' <what>").
[[noreturn]] inline void bad(const char* sys, const std::string& name, const std::string& what) {
  throw std::invalid_argument(std::string(sys) + ": parameter '" + name + "' " + what);
}

struct Checker {
  const char* sys;

  void finite(const std::string& name, double x) const {
    if (!std::isfinite(x)) bad(sys, name, "must be finite (got " + format_exact(x) + ")");
  }
  void positive(const std::string& name, double x) const {
    finite(name, x);
    if (!(x > 0)) bad(sys, name, "must be > 0 (got " + format_exact(x) + ")");
  }
  void nonnegative(const std::string& name, double x) const {
    finite(name, x);
    if (!(x >= 0)) bad(sys, name, "must be >= 0 (got " + format_exact(x) + ")");
  }
};

/// Friction parameters: the errors of models/validation.hpp's check (warnings such as
/// non-passivity are the io layer's to report).
template <class P>
void check_friction(const char* sys, const P& p) {
  for (const ParamIssue& i : check(p))
    if (!i.warning)
      throw std::invalid_argument(std::string(sys) + ": friction parameter '" + i.param + "' " +
                                  i.message);
}

/// Newton settings of the trbdf2 integrator: full Newton (df/dy by ceres::Jet at every iterate),
/// at most 8 corrections per stage, converged when every correction component is below
/// 1e-10 (1 + |y_i|) on the scaled state (x [m], v [m/s], s = z / z_b [-]).
inline constexpr NewtonSettings kTrBdf2Newton{8, 1e-10, 1e-10,
                                              NewtonSettings::Jacobian::each_iteration};

/// std::invalid_argument("<what>: at T = ... degC the linear temperature law's scale ... is not
/// positive ...") where a law's scale is not positive at T [degC].
inline void check_scale_positive(const std::string& what, const TemperatureDependence<double>& law,
                                 double T) {
  if (!temperature_scale_positive(law, T))
    throw std::invalid_argument(what + ": at T = " + format_exact(T) +
                                " degC the linear temperature law's scale 1 + k (T - T_ref) is "
                                "not positive (kT = " +
                                format_exact(law.kT) + " 1/K, kT_v = " + format_exact(law.kT_v) +
                                " 1/K, T_ref = " + format_exact(law.T_ref) +
                                " degC): the law does not hold this far from T_ref");
}

/// Model parameters p at temperature T [degC] under `law`: the levels its folder names scaled
/// by level_scale, its viscous term by viscous_scale (models/<model>/temperature.hpp);
/// check_scale_positive's error, naming `what`, where a linear law's scale is not positive.
template <class P>
P params_at(P p, const TemperatureDependence<double>& law, double T, const std::string& what) {
  check_scale_positive(what, law, T);
  scale_levels(p, level_scale(law, T), viscous_scale(law, T));
  return p;
}

}  // namespace frictionlab::sim::detail
