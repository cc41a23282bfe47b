// frictionlab: a log of a servo driving a pendulum test bench, in the form of the BAM
// actuator-modelling package (reference 002; file format in docs/actuators.md, reader in
// io/servo_json.hpp). Plain data plus host-side helpers: resampling of a raw log to a fixed step
// (as bam/process.py does), checks, selection by kp / trajectory / file. No file I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/sim/servo.hpp"

namespace frictionlab::data {

struct ServoLog {
  std::string file;  ///< where it came from (path), for messages and selection
  // header
  double mass = 0.0;          ///< tip mass [kg]
  double length = 0.0;        ///< pendulum length [m]
  double arm_mass = 0.0;      ///< arm mass [kg] (BAM: 0 when the log has none)
  double kp = 0.0;            ///< firmware gain
  double kd = 0.0;            ///< firmware derivative gain (0 when the log has none; laws pd, pid)
  double ki = 0.0;            ///< firmware integral gain (0 when the log has none; law pid)
  std::optional<double> vin;  ///< supply voltage [V]; empty: the actuator's default
  /// The recorder's "max_torque" header (kscale's ktune: the torque limit it set, 100.0 in its
  /// logs; unit not documented), when it is a number. Not modelled: read only so that
  /// `actuator check` can say that a log with another value is outside the simulation.
  std::optional<double> max_torque;
  std::string motor;       ///< actuator name as logged (e.g. "xl330")
  std::string trajectory;  ///< e.g. "sin_sin", "lift_and_drop", "up_and_down", "sin_time_square"
  double dt = 0.0;         ///< fixed step [s] of a processed log; 0 = raw (timestamps only)
  // entries (one value per entry; optional channels are empty when the log has none)
  std::vector<double> timestamp;             ///< [s]
  std::vector<double> position;              ///< measured joint angle [rad]
  std::vector<double> speed;                 ///< measured joint velocity [rad/s] (optional)
  std::vector<double> goal_position;         ///< commanded angle [rad]
  std::vector<unsigned char> torque_enable;  ///< 0 / 1
  /// measured motor current (optional), in `current_unit`: a second output the fit can match
  /// (identify::ServoLossOptions::current_weight)
  std::vector<double> current;
  /// "A" or "mA"; empty: unknown (the current is then not used)
  std::string current_unit;
  /// The factor from `current` to amps; 0 when the log has no current (one per entry) or its
  /// unit is unknown: then the current is not used.
  double current_to_amps() const noexcept {
    if (current.empty() || current.size() != position.size()) return 0.0;
    return current_unit == "A" ? 1.0 : current_unit == "mA" ? 1e-3 : 0.0;
  }
  std::vector<double> load;         ///< raw load register (optional; not used by the models)
  std::vector<double> input_volts;  ///< measured supply [V] (optional; not used by the models)
  /// temperature [deg C] (optional; used by parameters with a temperature law, sim/servo.hpp)
  std::vector<double> temp;

  std::size_t size() const noexcept { return position.size(); }
  bool processed() const noexcept { return dt > 0.0; }
};

/// Problems with a log's content (not its syntax): every entry's channels present with the same
/// length; every number within the magnitude policy and its plausible range
/// (sim/servo_limits.hpp: mass, arm_mass, length, kp, kd, ki, vin, dt, position, goal_position,
/// timestamp, speed, temp, current in amps when its unit is known; only the magnitude for the
/// channels the models do not use); at least two entries, timestamps non-decreasing. Each
/// message names the entry index and key ("entry 12: key 'position': 1e+300 rad is outside the
/// plausible range [-1e+06, 1e+06] rad"). Empty: no problem.
std::vector<std::string> check_servo_log(const ServoLog& log);

/// Resample a raw log to the fixed step dt [s] exactly as bam/process.py does: times
/// t_k = k dt for k = 0 .. ceil(T / dt) - 1 with T the last timestamp; every numeric channel
/// linearly interpolated between the two raw entries around t_k (extrapolated from the first two
/// before the first timestamp); torque_enable = interpolated value > 0.5. Requires strictly
/// increasing timestamps (std::invalid_argument naming the entry otherwise) and dt within
/// sim::servo_limits::kStep.
ServoLog resample_servo_log(const ServoLog& raw, double dt);

/// Which logs to use: each non-empty list restricts the selection (a log is kept if its kp is in
/// `kp`, its trajectory in `trajectory`, and its file name (with or without directory) in
/// `files`).
struct ServoLogFilter {
  std::vector<double> kp;
  std::vector<std::string> trajectory;
  std::vector<std::string> files;
  bool empty() const noexcept { return kp.empty() && trajectory.empty() && files.empty(); }
};

bool servo_log_selected(const ServoLog& log, const ServoLogFilter& filter);

/// The logs kept by the filter, in their order.
std::vector<ServoLog> select_servo_logs(const std::vector<ServoLog>& logs,
                                        const ServoLogFilter& filter);

/// The simulator's view of a processed log (sim::servo_rollout): step, kp, vin (the log's, else
/// `default_vin`), bench, initial state (first position; first speed, or 0 without speeds as
/// BAM), goals, torque_enable and temperatures (empty without 'temp'). The log must outlive the
/// view.
sim::ServoRunInput servo_run_input(const ServoLog& log, double default_vin);

}  // namespace frictionlab::data
