// frictionlab: synthetic identification records with known truth (tests, benchmarks, the
// README's quick start). The truth is simulated with the library's exact step at a step
// `oversample` times finer than the record's, on the analytic excitation velocity, then sampled
// at the record rate; Gaussian noise of a documented standard deviation is added to the measured
// channel only (docs/identification.md, "Synthetic records").
#pragma once

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/result.hpp"

namespace frictionlab::identify {

/// The excitation velocity (docs/identification.md): from rest, a staircase of constant-velocity
/// plateaus at +-{0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 1} v_max (alternating sign, raised-cosine
/// transitions) over the first `plateau_fraction` of the duration, then
/// -v_max A(tau) cos(2 pi f tau) with A decaying geometrically from 1 to `min_amplitude`.
struct Excitation {
  double duration = 20;   ///< [s]
  double rate_hz = 1000;  ///< record sample rate [Hz]
  double v_max = 1;       ///< [m/s | rad/s]
  double plateau_fraction = 0.5;
  double frequency = 1;         ///< oscillation frequency f [Hz]
  double min_amplitude = 0.02;  ///< final relative amplitude of the oscillation
};

/// v(t) of the excitation [m/s | rad/s] and its derivative [m/s^2 | rad/s^2].
double excitation_velocity(const Excitation& e, double t);
double excitation_acceleration(const Excitation& e, double t);

struct SyntheticOptions {
  Excitation excitation{};
  int oversample = 20;   ///< truth step = record step / oversample
  double noise_std = 0;  ///< std of the Gaussian noise added to `force` [N | Nm]
  unsigned seed = 1;     ///< noise seed (std::mt19937_64)
  // Sensorless records: joint torque tau = J dv/dt + A1 sin(2 pi 0.13 t) + A2 sin(2 pi 0.71 t + 1)
  // (an inertial plus a slowly varying load, independent of the friction), current
  // i = (tau + F) / Km without noise, measured torque tau + noise.
  double inertia = 0.05;         ///< J [kg m^2]
  double load_amplitude1 = 3.0;  ///< A1 [Nm]
  double load_amplitude2 = 1.5;  ///< A2 [Nm]
};

/// Record with t, position, velocity and force = F(v) + noise for the model `truth`.
data::Record synthetic_friction_record(const ModelSpec& truth, const SyntheticOptions& opt);

/// Record with t, position, velocity, current and force = joint torque + noise (reference 000's
/// channels) for LuGre friction `truth` and torque constant Km [Nm/A].
data::Record synthetic_sensorless_record(const LuGre<double>::Params& truth, double Km,
                                         const SyntheticOptions& opt);

}  // namespace frictionlab::identify
