// frictionlab identify: synthetic records with known truth (docs/identification.md,
// "Synthetic records").
#include "frictionlab/identify/synthetic.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"

namespace frictionlab::identify {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr std::array<double, 14> kLevels = {0.02, -0.02, 0.05, -0.05, 0.1,  -0.1, 0.2,
                                            -0.2, 0.4,   -0.4, 0.7,   -0.7, 1.0,  -1.0};

struct Phase {
  double TA, slot, tr, TB, lambda;
};

Phase phase(const Excitation& e) {
  Phase p;
  p.TA = e.plateau_fraction * e.duration;
  p.slot = p.TA / static_cast<double>(kLevels.size());
  p.tr = std::min(0.25 * p.slot, 0.2);
  p.TB = std::max(e.duration - p.TA, 1e-12);
  p.lambda = std::log(e.min_amplitude) / p.TB;
  return p;
}

/// Where t < p.TA falls in part A's staircase: tau [s] since its slot began, and the level
/// before the slot's ramp and the slot's own level [m/s].
struct Stair {
  double tau, prev, next;
};

Stair stair(const Excitation& e, const Phase& p, double t) {
  const auto j = std::min(static_cast<std::size_t>(t / p.slot), kLevels.size() - 1);
  return {t - static_cast<double>(j) * p.slot, j == 0 ? 0.0 : kLevels[j - 1] * e.v_max,
          kLevels[j] * e.v_max};
}

/// Record times, fine-grid truth simulation of `truth`, sampled friction force and position.
data::Record simulate_truth(const ModelSpec& truth, const SyntheticOptions& o,
                            std::vector<double>& F) {
  const auto& e = o.excitation;
  if (!(e.duration > 0 && e.rate_hz > 0 && o.oversample >= 1))
    throw std::invalid_argument("synthetic record: duration, rate and oversample must be > 0");
  const long n = static_cast<long>(std::floor(e.duration * e.rate_hz + 1e-9)) + 1;
  const long os = o.oversample;
  const long nf = (n - 1) * os + 1;
  const double hf = 1.0 / (e.rate_hz * static_cast<double>(os));
  std::vector<double> tf(static_cast<std::size_t>(nf)), vf(static_cast<std::size_t>(nf));
  for (long j = 0; j < nf; ++j) {
    tf[static_cast<std::size_t>(j)] = static_cast<double>(j) * hf;
    vf[static_cast<std::size_t>(j)] = excitation_velocity(e, tf[static_cast<std::size_t>(j)]);
  }
  data::Record r;
  r.source = "synthetic";
  r.t.resize(static_cast<std::size_t>(n));
  r.velocity.resize(static_cast<std::size_t>(n));
  r.position.resize(static_cast<std::size_t>(n));
  F.assign(static_cast<std::size_t>(n), 0.0);
  double x = 0;
  for (long j = 0; j < nf; ++j) {
    if (j > 0)
      x += 0.5 * (vf[static_cast<std::size_t>(j)] + vf[static_cast<std::size_t>(j - 1)]) * hf;
    if (j % os == 0) {
      const auto k = static_cast<std::size_t>(j / os);
      r.t[k] = static_cast<double>(k) / e.rate_hz;
      r.velocity[k] = vf[static_cast<std::size_t>(j)];
      r.position[k] = x;
    }
  }
  visit_model(truth, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    using M = model_of_t<typename I::Params>;
    drive<M>(p, typename M::State{}, tf.data(), vf.data(), nf, Method::exact, Hold::linear, 0.0,
             [&](long j, double f, const typename M::State&) {
               if (j % os == 0) F[static_cast<std::size_t>(j / os)] = f;
             });
  });
  return r;
}

}  // namespace

double excitation_velocity(const Excitation& e, double t) {
  const Phase p = phase(e);
  if (t < p.TA) {
    const auto [tau, prev, next] = stair(e, p, t);
    if (tau < p.tr) return prev + (next - prev) * 0.5 * (1 - std::cos(kPi * tau / p.tr));
    return next;
  }
  const double tau = t - p.TA;
  return -e.v_max * std::exp(p.lambda * tau) * std::cos(2 * kPi * e.frequency * tau);
}

double excitation_acceleration(const Excitation& e, double t) {
  const Phase p = phase(e);
  if (t < p.TA) {
    const auto [tau, prev, next] = stair(e, p, t);
    if (tau < p.tr) return (next - prev) * 0.5 * std::sin(kPi * tau / p.tr) * kPi / p.tr;
    return 0;
  }
  const double tau = t - p.TA;
  const double w = 2 * kPi * e.frequency;
  return -e.v_max * std::exp(p.lambda * tau) *
         (p.lambda * std::cos(w * tau) - w * std::sin(w * tau));
}

data::Record synthetic_friction_record(const ModelSpec& truth, const SyntheticOptions& opt) {
  std::vector<double> F;
  data::Record r = simulate_truth(truth, opt, F);
  std::mt19937_64 rng(opt.seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  r.force.resize(F.size());
  for (std::size_t k = 0; k < F.size(); ++k) r.force[k] = F[k] + opt.noise_std * noise(rng);
  return r;
}

data::Record synthetic_sensorless_record(const LuGre<double>::Params& truth, double Km,
                                         const SyntheticOptions& opt) {
  std::vector<double> F;
  data::Record r = simulate_truth(ModelSpec{truth}, opt, F);
  std::mt19937_64 rng(opt.seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  r.force.resize(F.size());
  r.current.resize(F.size());
  for (std::size_t k = 0; k < F.size(); ++k) {
    const double t = r.t[k];
    const double tau = opt.inertia * excitation_acceleration(opt.excitation, t) +
                       opt.load_amplitude1 * std::sin(2 * kPi * 0.13 * t) +
                       opt.load_amplitude2 * std::sin(2 * kPi * 0.71 * t + 1.0);
    r.current[k] = (tau + F[k]) / Km;
    r.force[k] = tau + opt.noise_std * noise(rng);
  }
  return r;
}

}  // namespace frictionlab::identify
