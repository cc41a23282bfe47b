// frictionlab: a joint record (data::Record: t, position, velocity, and the torque in `force` or
// a command in `current`) turned into the data the joint methods use (JointData: t, q, qd, qdd,
// tau) (docs/joint-identification.md, "Preprocessing"):
//   1. torque: tau = force, or tau = gain * command (a commanded current or torque with a known
//      gain: motor constant times gear ratio [N m per unit]);
//   2. the record (position; the measured velocity only with derivatives from velocity; tau as
//      its force) through data::preprocess with options.preprocess (data/preprocess.hpp,
//      docs/preprocessing.md "Record preprocessing"): resampling, the zero-phase low-pass of
//      every channel (Gautier's "parallel filtering": the regressor and the torque stay
//      consistent), qd and qdd by the chosen differentiator (savgol with its window in seconds,
//      central, or tvreg), re-integration, TV de-noising of tau, decimation, trimming;
//   3. its channels copied into JointData: q = position, qd = velocity, qdd = acceleration,
//      tau = force.
// The joint needs derivatives (from position, the default, or from the measured velocity).
//
// Host side: allocates, throws FitError naming the record and the option.
#pragma once

#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/joint.hpp"

namespace frictionlab::identify {

struct JointPrepOptions {
  /// The pipeline; the joint's defaults: qd, qdd from q by savgol (cubic) over 0.02 s.
  data::PreprocessOptions preprocess{.derivatives = data::DerivativesFrom::position,
                                     .diff_window_s = 0.02};
  bool torque_from_command = false;  ///< tau = gain * record.current (else record.force)
  double gain = 1.0;                 ///< [N m per command unit]
};

/// The JointData of a record (see the header). Throws FitError.
JointData joint_data(const data::Record& rec, const JointPrepOptions& opt);

/// Attach the desired trajectory of a closed-loop record (JointData::q_des, qd_des, tau_ff;
/// identify/joint_oe.hpp) to `d`, already preprocessed with `prep`. `desired` holds t [s],
/// position = q_des [rad], velocity = qd_des [rad/s] and force = the feedforward torque tau_ff
/// [N m] (no force channel: tau_ff = 0). It goes through the same resampling and low-pass as the
/// record (prep.preprocess.resample_rate, lowpass_cutoff, lowpass_order, uniform_tolerance:
/// stages 1-2 of data::preprocess, so that the controller relation holds between the filtered
/// signals) and is linearly interpolated onto d.t. Throws FitError naming desired.source if a
/// channel is missing or its time range does not cover d.t.
void attach_desired(JointData& d, const data::Record& desired, const JointPrepOptions& prep);

}  // namespace frictionlab::identify
