// frictionlab signal: decimation and the inverse-model filtering pipeline
// (include/frictionlab/signal/decimate.hpp).
#include "frictionlab/signal/decimate.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::signal {
namespace {

std::vector<double> every_kth(std::span<const double> x, std::size_t k) {
  std::vector<double> out;
  out.reserve(x.size() / k + 1);
  for (std::size_t i = 0; i < x.size(); i += k) out.push_back(x[i]);
  return out;
}

}  // namespace

std::vector<double> decimate(std::span<const double> x, int factor, double sample_rate_hz,
                             int order, double cutoff_ratio) {
  if (factor < 1)
    throw std::invalid_argument("decimation factor must be >= 1, got " + std::to_string(factor));
  if (!std::isfinite(cutoff_ratio) || !(cutoff_ratio > 0) || !(cutoff_ratio < 1))
    throw std::invalid_argument("decimation cutoff ratio must satisfy 0 < ratio < 1, got " +
                                format_number(cutoff_ratio));
  if (!std::isfinite(sample_rate_hz) || !(sample_rate_hz > 0))
    throw std::invalid_argument("decimation: sample rate must be finite and > 0 Hz, got " +
                                format_number(sample_rate_hz));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::invalid_argument("decimation: value is not finite at sample " + std::to_string(i) +
                                  " (0-based): " + format_number(x[i]));
  if (factor == 1) return {x.begin(), x.end()};
  const double fc = cutoff_ratio * sample_rate_hz / (2.0 * factor);
  const std::vector<double> y = lowpass_filtfilt(x, sample_rate_hz, fc, order);
  return every_kth(y, static_cast<std::size_t>(factor));
}

InverseModelSignals inverse_model_signals(std::span<const double> t, std::span<const double> q,
                                          std::span<const double> tau,
                                          const InverseModelOptions& o) {
  if (q.size() != t.size())
    throw std::invalid_argument("inverse-model filtering: position has " +
                                std::to_string(q.size()) + " samples, time " +
                                std::to_string(t.size()));
  if (!tau.empty() && tau.size() != t.size())
    throw std::invalid_argument("inverse-model filtering: torque has " +
                                std::to_string(tau.size()) + " samples, time " +
                                std::to_string(t.size()));
  if (!std::isfinite(o.cutoff_hz) || !(o.cutoff_hz > 0))
    throw std::invalid_argument("inverse-model filtering: cutoff_hz must be finite and > 0 Hz, got " +
                                format_number(o.cutoff_hz));
  if (o.decimation < 1)
    throw std::invalid_argument("inverse-model filtering: decimation must be >= 1, got " +
                                std::to_string(o.decimation));
  const SamplingStats s = require_uniform(t, o.uniform_tolerance, "inverse-model filtering");
  const double fs = 1.0 / s.dt_mean;
  for (std::size_t i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i]))
      throw std::invalid_argument("inverse-model filtering: position is not finite at sample " +
                                  std::to_string(i) + " (0-based)");

  const std::vector<double> qf = lowpass_filtfilt(q, fs, o.cutoff_hz, o.order);
  DiffOptions d;
  d.method = DiffMethod::central;
  const Derivatives der = differentiate(t, qf, d);

  InverseModelSignals out;
  auto dec = [&](std::span<const double> x) {
    return decimate(x, o.decimation, fs, o.decimation_order, o.decimation_cutoff_ratio);
  };
  out.q = dec(qf);
  out.qd = dec(der.first);
  out.qdd = dec(der.second);
  if (!tau.empty()) out.tau = dec(tau);
  out.t = every_kth(t, static_cast<std::size_t>(o.decimation));
  return out;
}

}  // namespace frictionlab::signal
