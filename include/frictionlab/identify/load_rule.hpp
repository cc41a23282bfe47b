// frictionlab identify: whether the loads a fit sees can determine a load-dependent Coulomb
// level (models/load_dependence.hpp): one rule for the joint (idim) and the arm fits.
//
// The load is the torque |tau| [N m] the joint carries. A coefficient mu of g0 + mu |tau| is
// told apart from the Coulomb level g0 only where |tau| varies, and from the joint's other
// terms only where the motor drives the joint (tau qd > 0) and where the load drives it
// (tau qd < 0), the two sides on which the level moves in opposite directions relative to
// tau. The rule: at least kLoadMinSamples moving samples on each side, and a standard deviation
// of |tau| of at least kLoadMinSpread times its RMS over them.
//
// Host side: allocates.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace frictionlab::identify {

inline constexpr long kLoadMinSamples = 20;
inline constexpr double kLoadMinSpread = 0.05;

/// The loads |tau| [N m] of moving samples, split by the direction of the power flow: driven
/// (tau qd > 0, models/load_dependence.hpp's is_driving) and back-driven.
struct LoadSides {
  std::vector<double> drive, back;
  /// The sample with applied torque tau [N m] at velocity qd [rad/s]; none at qd = 0.
  void add(double tau, double qd);
};

/// Why the loads |tau| [N m] of the driven (`drive`) and back-driven (`back`) moving samples do
/// not determine a load coefficient, ending with what to record instead; empty when they do.
std::string load_undetermined_reason(std::span<const double> drive, std::span<const double> back);

/// The spread of |tau| over both sides relative to its RMS [-] (0 without samples).
double load_relative_spread(std::span<const double> drive, std::span<const double> back);

}  // namespace frictionlab::identify
