// frictionlab: a joint record (data::Record: t, position, velocity, and the torque in `force` or
// a command in `current`) turned into the data the joint methods use (JointData: t, q, qd, qdd,
// tau) (docs/joint-identification.md, "Preprocessing"). Steps, in order:
//   1. torque: tau = force, or tau = gain * command (a commanded current or torque with a known
//      gain: motor constant times gear ratio [N m per unit]);
//   2. resample_rate > 0: every channel linearly onto a uniform grid (signal/resample.hpp);
//      the later steps need uniform sampling (jitter <= 1 %, else an error saying to resample);
//   3. lowpass_hz > 0: zero-phase Butterworth low-pass (signal/butterworth.hpp) of q, of the
//      measured velocity when it is used, and of tau (the same filter on every channel, so that
//      the regressor and the torque stay consistent: Gautier's "parallel filtering");
//   4. derivatives: qd and qdd of q by the chosen method (signal/differentiate.hpp): savgol
//      (window diff_window_s seconds, polynomial order 3), central differences, or tvreg
//      (total-variation regularised, Chartrand 2011; order tv_order, weight tv_alpha in the
//      sample-rate independent "time" scaling of signal/tvreg.hpp); with use_measured_velocity,
//      qd is the measured velocity and qdd its derivative;
//   4a. reintegrate: q and qd replaced by the double integral of the de-noised qdd, integration
//      constants by least squares against the measured q (signal/reintegrate.hpp; reference 004
//      sec. 5.1), so that q, qd, qdd are consistent;
//   4b. tv_torque_alpha > 0: tau replaced by its TV-regularised de-noised form (tvreg order 1,
//      `smoothed`: the integral of the regularised derivative; reference 004 sec. 5.1);
//   5. decimate > 1: every decimate-th sample (after the low-pass, which must then be below the
//      new Nyquist frequency: checked);
//   6. trim_s > 0: that much time dropped at both ends (filter and differentiator edges).
//
// Host side: allocates, throws FitError naming the record and the option.
#pragma once

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/joint.hpp"

namespace frictionlab::identify {

enum class JointDiff { savgol, central, tvreg };

struct JointPrepOptions {
  bool torque_from_command = false;  ///< tau = gain * record.current (else record.force)
  double gain = 1.0;                 ///< [N m per command unit]
  double resample_rate = 0;          ///< [Hz]; 0: keep the samples
  double lowpass_hz = 0;             ///< [Hz]; 0: no filter
  int lowpass_order = 4;             ///< Butterworth order of one pass
  JointDiff diff = JointDiff::savgol;
  double diff_window_s = 0.02;       ///< savgol window [s] (odd number of samples, >= 5)
  double tv_alpha = 0;               ///< tvreg weight [rad s^(order+1)] (> 0 with tvreg)
  int tv_order = 2;                  ///< tvreg: 2 regularises qdd' (qd, qdd consistent), 1 qd'
  double tv_second_alpha = 0;        ///< tvreg order 1: weight of TVRegDiff of qd [rad s] (> 0)
  bool reintegrate = false;          ///< q, qd from the double integral of qdd (step 4a)
  double tv_torque_alpha = 0;        ///< [N m s^2]; > 0: TV de-noising of tau (step 4b)
  bool use_measured_velocity = false;
  int decimate = 1;
  double trim_s = 0;                 ///< [s] dropped at each end
};

/// The JointData of a record (see the header). Throws FitError.
JointData joint_data(const data::Record& rec, const JointPrepOptions& opt);

/// Attach the desired trajectory of a closed-loop record (JointData::q_des, qd_des, tau_ff;
/// identify/joint_oe.hpp) to `d`, already preprocessed with `prep`. `desired` holds t [s],
/// position = q_des [rad], velocity = qd_des [rad/s] and force = the feedforward torque tau_ff
/// [N m] (no force channel: tau_ff = 0). It goes through the same resampling and low-pass as the
/// record (prep.resample_rate, lowpass_hz, lowpass_order; steps 2-3, so that the controller
/// relation holds between the filtered signals), with its measured velocity, and is linearly
/// interpolated onto d.t. Throws FitError naming desired.source if a channel is missing or its
/// time range does not cover d.t.
void attach_desired(JointData& d, const data::Record& desired, const JointPrepOptions& prep);

}  // namespace frictionlab::identify
