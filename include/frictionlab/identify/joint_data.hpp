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
//      tau = force, temperature = temperature (when the record has one: resampled, filtered and
//      decimated with the rest).
// The joint needs derivatives (from position, the default, or from the measured velocity).
//
// The low-pass when none is given (choose_joint_lowpass; docs/joint-identification.md,
// "Low-pass"): the acceleration is a second derivative, so a derivative filter's noise gain grows
// as f^2 and a 300 Hz record differentiated without a low-pass gives an acceleration that is
// noise. With savgol or central derivatives and no cutoff given:
//   1. the motion's bandwidth f_b: 99.9 % of the detrended position's power lies below it
//      (signal/spectrum.hpp), on the grid the pipeline uses;
//   2. the candidate cutoff: 5 f_b, the usual practice of a cutoff a few times the motion's
//      bandwidth (Gautier 1997, "Dynamic identification of robots with power model"), rounded
//      to 1, 2 or 5 times a power of ten;
//   3. the need: the share of the power of the position's second difference (the raw
//      acceleration) above the candidate. Above one half, the acceleration is mostly noise and
//      the candidate is used; else none (a zero-phase filter's edges distort a clean record's
//      acceleration more than its noise does). A candidate above a fifth of the sample rate
//      filters nothing the derivative filter does not: none either.
// tvreg regularises the derivatives itself: no choice.
//
#pragma once

#include <optional>
#include <string>

#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/joint.hpp"

namespace frictionlab::identify {

struct JointPrepOptions {
  /// The pipeline; the joint's defaults: qd, qdd from q by savgol (cubic) over 0.02 s.
  data::PreprocessOptions preprocess{.derivatives = data::DerivativesFrom::position,
                                     .diff_window_s = 0.02};
  /// preprocess.lowpass_cutoff == 0 with savgol or central derivatives: the caller chooses a
  /// cutoff with choose_joint_lowpass (true) or differentiates unfiltered (false).
  bool choose_lowpass = true;
  bool torque_from_command = false;  ///< tau = gain * record.current (else record.force)
  double gain = 1.0;                 ///< [N m per command unit]
};

/// The low-pass chosen for a record (header).
struct JointLowpassChoice {
  double cutoff_hz = 0;     ///< the chosen cutoff [Hz]; 0: none (see candidate_hz, noise_share)
  double candidate_hz = 0;  ///< 5 x bandwidth_hz rounded to 1-2-5 [Hz]
  double bandwidth_hz = 0;  ///< 99.9 % of the position's power lies below it [Hz]
  /// The share of the raw acceleration's power above candidate_hz [-] (used above 0.5).
  double noise_share = 0;
  bool noise_dominated = false;  ///< noise_share > 0.5
  double sample_rate_hz = 0;     ///< of the grid the spectrum was taken on [Hz]
  std::string source;            ///< the record it was chosen from
};

/// The low-pass `rec` needs (header), or none when the options need no choice (a cutoff given,
/// choose_lowpass false, tvreg or no derivatives). The spectrum is taken on the grid the pipeline
/// uses (resample_rate, or the record's median step). Throws FitError naming the record if it has
/// no position channel or fewer than 8 samples.
std::optional<JointLowpassChoice> choose_joint_lowpass(const data::Record& rec,
                                                       const JointPrepOptions& opt);

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
