// frictionlab identify: the load rule (identify/load_rule.hpp).
#include "frictionlab/identify/load_rule.hpp"

#include <algorithm>
#include <cmath>

#include "frictionlab/format.hpp"
#include "frictionlab/models/load_dependence.hpp"

namespace frictionlab::identify {

namespace {

/// The RMS and the standard deviation of the values of both sides [N m].
struct Spread {
  double rms = 0, sd = 0;
};

Spread spread_of(std::span<const double> drive, std::span<const double> back) {
  double sum = 0, sum_sq = 0;
  for (const auto side : {drive, back})
    for (const double x : side) {
      sum += x;
      sum_sq += x * x;
    }
  const double n = static_cast<double>(std::max<std::size_t>(drive.size() + back.size(), 1));
  return {std::sqrt(sum_sq / n), std::sqrt(std::max(sum_sq / n - (sum / n) * (sum / n), 0.0))};
}

}  // namespace

void LoadSides::add(double tau, double qd) {
  if (qd == 0) return;
  (is_driving(tau, qd > 0) ? drive : back).push_back(std::abs(tau));
}

double load_relative_spread(std::span<const double> drive, std::span<const double> back) {
  const Spread s = spread_of(drive, back);
  return s.rms > 0 ? s.sd / s.rms : 0.0;
}

std::string load_undetermined_reason(std::span<const double> drive, std::span<const double> back) {
  const auto nd = static_cast<long>(drive.size()), nb = static_cast<long>(back.size());
  if (nd < kLoadMinSamples || nb < kLoadMinSamples)
    return std::to_string(nd) + " moving samples are driven by the motor and " +
           std::to_string(nb) + " back-driven (at least " + std::to_string(kLoadMinSamples) +
           " of each are needed). Record motion where the load also drives the joint (lowering "
           "a payload, braking)";
  const Spread s = spread_of(drive, back);
  if (s.sd < kLoadMinSpread * s.rms)
    return "the load |tau| hardly varies (standard deviation " + format_number(s.sd) +
           " N m, below " + format_number(kLoadMinSpread) + " x its RMS " + format_number(s.rms) +
           " N m), so a rise with the load cannot be told from the Coulomb level. Record the "
           "joint against loads of different size (two payloads, or a gravity load that changes "
           "along the motion)";
  return {};
}

}  // namespace frictionlab::identify
