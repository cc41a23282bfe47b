// frictionlab signal: position and velocity by integrating a de-noised acceleration, with the
// integration constants fitted by least squares (docs/preprocessing.md, "Re-integration").
//
// Stender, Oberst & Hoffmann 2019 (Vibration 2(1), "Recovery of differential equations from
// impulse response time series data for model identification and feature extraction") and
// reference 004 (sec. 5.1: position and velocity "obtained by double-time integration of the
// de-noised acceleration"; torque de-noised by TVRegDiff of the torque, then integration in
// time): integrating a smooth derivative does not amplify noise, and the signal and its
// derivatives are then consistent (qd is the integral of qdd, q the integral of qd).
//
// reintegrate(t, a, q_meas[, v_meas]) with a on any strictly increasing grid, h_i = t_{i+1} - t_i:
//   V_0 = 0,  V_{i+1} = V_i + h_i (a_i + a_{i+1}) / 2                 (trapezoidal rule)
//   Q_0 = 0,  Q_{i+1} = Q_i + h_i V_i + h_i^2 (2 a_i + a_{i+1}) / 6    (exact double integral)
// i.e. V and Q are the exact first and second integrals of the piecewise-linear interpolant of
// a, so velocity' = a and position' = velocity hold exactly between samples, and a cubic
// position (linear acceleration) is reproduced to rounding on any grid. Then
//   velocity = v0 + V,  position = q0 + v0 (t - t_0) + Q,
// with the constants by least squares over the samples:
//   without v_meas: (q0, v0) = argmin sum_i (q0 + v0 (t_i - t_0) + Q_i - q_meas_i)^2;
//   with v_meas:    v0 = mean(v_meas - V), then q0 = mean(q_meas - v0 (t - t_0) - Q)
//                   (each constant from the channel that measures it; no weighting between
//                   channels of different units is needed).
//
// integrate_fit(t, d, x_meas): the single integral x = c + (trapezoidal cumulative integral of
// d), c = mean(x_meas - integral): the paper's de-noising of a signal (torque) from its
// TV-regularised derivative. tvreg(...).smoothed (tvreg.hpp) is the same construction with the
// constant fitted jointly with the derivative.
//
// Host side: allocates, throws std::invalid_argument (sizes, non-finite values, t not strictly
// increasing, fewer than 2 samples; naming the argument).
#pragma once

#include <span>
#include <vector>

namespace frictionlab::signal {

struct Reintegrated {
  std::vector<double> position;      ///< q0 + v0 (t - t_0) + Q [X]
  std::vector<double> velocity;      ///< v0 + V [X/s]
  std::vector<double> acceleration;  ///< the input a [X/s^2]
  double q0 = 0;                     ///< fitted position at t_0 [X]
  double v0 = 0;                     ///< fitted velocity at t_0 [X/s]
  double position_rms = 0;           ///< sqrt(mean (position - q_meas)^2) [X]
  double velocity_rms = 0;           ///< sqrt(mean (velocity - v_meas)^2) [X/s]; 0 without v_meas
};

/// Position and velocity from the acceleration, constants by least squares against the measured
/// position (and velocity, if v_meas is not empty). All spans have the size of t (n >= 2).
Reintegrated reintegrate(std::span<const double> t, std::span<const double> acceleration,
                         std::span<const double> position, std::span<const double> velocity = {});

/// c + cumulative trapezoidal integral of `derivative`, c = mean(reference - integral).
std::vector<double> integrate_fit(std::span<const double> t, std::span<const double> derivative,
                                  std::span<const double> reference);

}  // namespace frictionlab::signal
