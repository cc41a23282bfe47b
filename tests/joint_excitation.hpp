// The two-sine excitation of the inverse-dynamics joint tests (a pendulum joint swung through
// +-1.2 rad, so that the gravity load changes along the motion and the velocity reverses):
//   q(t) = 0.8 sin(w1 t) + 0.4 sin(w2 t + 0.5) + 0.2 [rad], w1 = 2 pi 0.3, w2 = 2 pi 0.7 rad/s,
// with its exact derivatives, sampled at 1 kHz; the torque of a test's own model along it.
#pragma once

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "expect_message.hpp"
#include "frictionlab/identify/joint.hpp"
#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/io/joint_json.hpp"

namespace frictionlab::testing {

/// One sample of the motion: time [s], angle [rad], velocity [rad/s], acceleration [rad/s^2].
struct JointMotion {
  double t, q, qd, qdd;
};

inline JointMotion two_sine_motion(double t) {
  constexpr double kPi = 3.14159265358979323846;
  const double w1 = 2 * kPi * 0.3, w2 = 2 * kPi * 0.7;
  return {t, 0.8 * std::sin(w1 * t) + 0.4 * std::sin(w2 * t + 0.5) + 0.2,
          0.8 * w1 * std::cos(w1 * t) + 0.4 * w2 * std::cos(w2 * t + 0.5),
          -0.8 * w1 * w1 * std::sin(w1 * t) - 0.4 * w2 * w2 * std::sin(w2 * t + 0.5)};
}

/// The motion over [0, duration] s at 1 kHz with tau = torque(motion) [N m] plus Gaussian noise
/// of standard deviation `noise` [N m] (seeded), and, when `temperature` is given, the channel
/// temperature(t) [degC].
template <class Torque, class Temperature = std::nullptr_t>
identify::JointData two_sine_record(double duration, Torque&& torque, double noise = 0,
                                    unsigned seed = 1, Temperature&& temperature = nullptr) {
  identify::JointData d;
  d.source = "synthetic";
  std::mt19937 rng(seed);
  std::normal_distribution<double> e(0.0, noise);
  const long n = std::lround(duration * 1000);
  for (long k = 0; k <= n; ++k) {
    const JointMotion m = two_sine_motion(static_cast<double>(k) * 1e-3);
    d.t.push_back(m.t);
    d.q.push_back(m.q);
    d.qd.push_back(m.qd);
    d.qdd.push_back(m.qdd);
    if constexpr (!std::is_same_v<std::decay_t<Temperature>, std::nullptr_t>)
      d.temperature.push_back(temperature(m.t));
    d.tau.push_back(torque(m) + (noise > 0 ? e(rng) : 0.0));
  }
  return d;
}

/// The error of reading the JOINT.json text (a test failure when it reads).
inline std::string joint_json_message(const std::string& text) {
  return message_of<std::exception>(
      [&] { io::joint_from_json(nlohmann::json::parse(text), "JOINT.json"); });
}

}  // namespace frictionlab::testing
