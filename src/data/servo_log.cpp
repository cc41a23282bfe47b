// frictionlab: servo logs (see data/servo_log.hpp).
#include "frictionlab/data/servo_log.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "frictionlab/format.hpp"
#include "frictionlab/limits.hpp"
#include "frictionlab/sim/servo_limits.hpp"

namespace frictionlab::data {
namespace {

namespace lim = sim::servo_limits;

// "key 'KEY': PROBLEM" when x breaks the magnitude policy or its plausible range.
void check_header(std::vector<std::string>& out, const char* key, double x, const Limit& r) {
  if (auto p = limit_problem(x, r); !p.empty())
    out.push_back(std::string("key '") + key + "': " + std::move(p));
}

// A channel: given for every entry or for none (unless required), each value within `r` after
// the factor `to_si` (1: the channel is in SI units already); the first problem only.
void check_channel(std::vector<std::string>& out, std::size_t n, const char* key,
                   const std::vector<double>& v, bool required, const Limit& r, double to_si) {
  if (v.empty() && !required) return;
  if (v.size() != n) {
    out.push_back(std::string("'") + key + "' is given for " + std::to_string(v.size()) + " of " +
                  std::to_string(n) + " entries");
    return;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (auto p = limit_problem(v[i] * to_si, r); !p.empty()) {
      if (to_si != 1.0 && std::isfinite(v[i])) p += " (in A)";
      out.push_back("entry " + std::to_string(i) + ": key '" + key + "': " + std::move(p));
      return;
    }
}

}  // namespace

std::vector<std::string> check_servo_log(const ServoLog& log) {
  std::vector<std::string> out;
  check_header(out, "mass", log.mass, lim::kMass);
  check_header(out, "length", log.length, lim::kLength);
  check_header(out, "arm_mass", log.arm_mass, lim::kMass);
  check_header(out, "kp", log.kp, lim::kKp);
  check_header(out, "kd", log.kd, lim::kKdKi);
  check_header(out, "ki", log.ki, lim::kKdKi);
  if (log.vin) check_header(out, "vin", *log.vin, lim::kSupply);
  if (log.dt != 0.0) check_header(out, "dt", log.dt, lim::kStep);
  if (log.max_torque) check_header(out, "max_torque", *log.max_torque, kAnyNumber);
  const std::size_t n = log.position.size();
  if (n < 2) out.push_back("needs at least 2 entries, got " + std::to_string(n));
  check_channel(out, n, "position", log.position, true, lim::kAngle, 1.0);
  check_channel(out, n, "goal_position", log.goal_position, true, lim::kAngle, 1.0);
  check_channel(out, n, "timestamp", log.timestamp, true, lim::kTimestamp, 1.0);
  check_channel(out, n, "speed", log.speed, false, lim::kSpeed, 1.0);
  // a current of unknown unit is not used: only the magnitude policy applies to it
  const double amps = log.current_unit == "A" ? 1.0 : log.current_unit == "mA" ? 1e-3 : 0.0;
  check_channel(out, n, "current", log.current, false, amps > 0 ? lim::kCurrent : kAnyNumber,
                amps > 0 ? amps : 1.0);
  check_channel(out, n, "load", log.load, false, kAnyNumber, 1.0);
  check_channel(out, n, "input_volts", log.input_volts, false, kAnyNumber, 1.0);
  check_channel(out, n, "temp", log.temp, false, lim::kTemperature, 1.0);
  if (log.torque_enable.size() != n)
    out.push_back("'torque_enable' is given for " + std::to_string(log.torque_enable.size()) +
                  " of " + std::to_string(n) + " entries");
  if (log.timestamp.size() == n)
    for (std::size_t i = 1; i < n; ++i)
      if (log.timestamp[i] < log.timestamp[i - 1]) {
        out.push_back("entry " + std::to_string(i) + ": 'timestamp' decreases (" +
                      format_number(log.timestamp[i - 1], 10) + " then " +
                      format_number(log.timestamp[i], 10) + ")");
        break;
      }
  return out;
}

ServoLog resample_servo_log(const ServoLog& raw, double dt) {
  if (const auto p = limit_problem(dt, sim::servo_limits::kStep); !p.empty())
    throw std::invalid_argument("resample: dt: " + p);
  const std::size_t n = raw.timestamp.size();
  if (n < 2 || raw.position.size() != n)
    throw std::invalid_argument("resample: the log needs at least 2 entries with timestamps");
  for (std::size_t i = 1; i < n; ++i)
    if (!(raw.timestamp[i] > raw.timestamp[i - 1]))
      throw std::invalid_argument("resample: entry " + std::to_string(i) +
                                  ": 'timestamp' must increase strictly (" +
                                  format_number(raw.timestamp[i - 1], 10) + " then " +
                                  format_number(raw.timestamp[i], 10) + ")");
  const double duration = raw.timestamp.back();
  if (!(duration > 0.0)) throw std::invalid_argument("resample: the last timestamp must be > 0");
  // numpy.arange(0, duration, dt): ceil(duration / dt) samples.
  // 1e8 samples (800 MB per channel list, hours of simulation): beyond it a wrong unit of the
  // timestamps or of dt, not a log
  const double samples = std::ceil(duration / dt);
  if (samples > 1e8)
    throw std::invalid_argument("resample: " + format_number(duration) + " s at dt = " +
                                format_exact(dt) + " s is " + format_number(samples) +
                                " samples, more than the limit 1e+08 (check the units of the "
                                "timestamps and of dt)");
  const auto count = static_cast<std::size_t>(samples);
  ServoLog out = raw;
  out.dt = dt;
  auto clear = [&](std::vector<double>& v) {
    const bool has = !v.empty();
    v.clear();
    if (has) v.reserve(count);
    return has;
  };
  const bool has_speed = clear(out.speed), has_current = clear(out.current),
             has_load = clear(out.load), has_volts = clear(out.input_volts),
             has_temp = clear(out.temp);
  out.timestamp.clear();
  out.position.clear();
  out.goal_position.clear();
  out.torque_enable.clear();
  std::size_t frame = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const double t = static_cast<double>(k) * dt;
    while (frame + 2 < n && t > raw.timestamp[frame + 1]) ++frame;
    const double t1 = raw.timestamp[frame], t2 = raw.timestamp[frame + 1];
    const double w = (t - t1) / (t2 - t1);
    auto lerp = [&](const std::vector<double>& v) {
      return v[frame] + (v[frame + 1] - v[frame]) * w;
    };
    out.timestamp.push_back(t);
    out.position.push_back(lerp(raw.position));
    out.goal_position.push_back(lerp(raw.goal_position));
    if (has_speed) out.speed.push_back(lerp(raw.speed));
    if (has_current) out.current.push_back(lerp(raw.current));
    if (has_load) out.load.push_back(lerp(raw.load));
    if (has_volts) out.input_volts.push_back(lerp(raw.input_volts));
    if (has_temp) out.temp.push_back(lerp(raw.temp));
    const double e0 = raw.torque_enable[frame], e1 = raw.torque_enable[frame + 1];
    out.torque_enable.push_back(e0 + (e1 - e0) * w > 0.5 ? 1 : 0);
  }
  return out;
}

bool servo_log_selected(const ServoLog& log, const ServoLogFilter& filter) {
  if (!filter.kp.empty() &&
      std::find(filter.kp.begin(), filter.kp.end(), log.kp) == filter.kp.end())
    return false;
  if (!filter.trajectory.empty() && std::find(filter.trajectory.begin(), filter.trajectory.end(),
                                              log.trajectory) == filter.trajectory.end())
    return false;
  if (!filter.files.empty()) {
    const std::string base = std::filesystem::path(log.file).filename().string();
    bool found = false;
    for (const auto& f : filter.files) found = found || f == log.file || f == base;
    if (!found) return false;
  }
  return true;
}

std::vector<ServoLog> select_servo_logs(const std::vector<ServoLog>& logs,
                                        const ServoLogFilter& filter) {
  std::vector<ServoLog> out;
  for (const auto& l : logs)
    if (servo_log_selected(l, filter)) out.push_back(l);
  return out;
}

sim::ServoRunInput servo_run_input(const ServoLog& log, double default_vin) {
  sim::ServoRunInput in;
  in.dt = log.dt;
  in.kp = log.kp;
  in.kd = log.kd;
  in.ki = log.ki;
  in.vin = log.vin ? *log.vin : default_vin;
  in.bench = {log.mass, log.length, log.arm_mass};
  in.initial.q = log.position.empty() ? 0.0 : log.position.front();
  in.initial.qd = log.speed.empty() ? 0.0 : log.speed.front();
  in.goal = log.goal_position;
  in.torque_enable = log.torque_enable;
  in.temperature = log.temp;
  return in;
}

}  // namespace frictionlab::data
