// frictionlab data: record checks and summary (include/frictionlab/data/checks.hpp).
#include "frictionlab/data/checks.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::data {
namespace {

struct Channel {
  const char* name;
  const std::vector<double>* values;
};

std::vector<Channel> channels_of(const Record& r) {
  return {{"time", &r.t},
          {"position", &r.position},
          {"velocity", &r.velocity},
          {"acceleration", &r.acceleration},
          {"current", &r.current},
          {"force", &r.force},
          {"temperature", &r.temperature}};
}

std::string present(const Record& r) {
  std::string s;
  for (const Channel& c : channels_of(r)) {
    if (c.values->empty()) continue;
    if (!s.empty()) s += ", ";
    s += c.name;
  }
  return s.empty() ? "none" : s;
}

int sgn(double x) { return (x > 0) - (x < 0); }

/// A time column that is probably not in seconds (docs/file-formats.md, "Time unit"): integer
/// times stepping by 1..10 over a span beyond kMsSpan look like milliseconds; otherwise a median
/// step beyond kSlowStep is a sampling rate below 1 Hz, implausible for friction, joint and
/// sensorless records (their dynamics last milliseconds to seconds). "" when neither holds.
std::string time_unit_warning(const std::vector<double>& t, const signal::SamplingStats& s) {
  constexpr double kSlowStep = 1;   // [s]
  constexpr double kMsSpan = 1000;  // [time units]
  const bool integers =
      std::all_of(t.begin(), t.end(), [](double x) { return x == std::round(x); });
  const std::string found =
      "median sample step " + format_number(s.dt_median) + " over " + format_number(s.duration);
  if (integers && s.dt_median >= 1 && s.dt_median <= 10 && s.duration > kMsSpan)
    return "the time column looks like milliseconds: integer times, " + found +
           " (frictionlab expects seconds: read as seconds this is a " + format_number(s.duration) +
           " s record sampled at " + format_number(s.sample_rate) + " Hz; divide the time by 1000)";
  if (s.dt_median > kSlowStep)
    return "the " + found + " s is a sampling rate of " + format_number(s.sample_rate) +
           " Hz, implausibly slow for friction identification: is the time column in seconds? "
           "(frictionlab expects seconds)";
  return "";
}

}  // namespace

RecordError::RecordError(std::string source, std::size_t sample, std::string channel,
                         const std::string& message)
    : std::invalid_argument(
          source + ": " + (sample > 0 ? "sample " + std::to_string(sample) + ": " : "") + message),
      source_(std::move(source)),
      sample_(sample),
      channel_(std::move(channel)),
      detail_(message) {}

std::string source_name(const Record& record) {
  return record.source.empty() ? std::string("record") : record.source;
}

void check_temperature_channel(const Record& r) {
  for (std::size_t k = 0; k < r.temperature.size(); ++k)
    if (r.temperature[k] < kAbsoluteZero)
      throw RecordError(source_name(r), k + 1, "temperature",
                        "temperature " + format_number(r.temperature[k]) +
                            " degC is below absolute zero (" + format_number(kAbsoluteZero) +
                            " degC): the channel must be in degrees Celsius" +
                            (k < r.t.size() ? " (t = " + format_number(r.t[k]) + " s)" : ""));
}

RecordReport check_record(const Record& r, const CheckOptions& opt) {
  const std::string src = source_name(r);
  const std::size_t n = r.t.size();

  // 1. lengths
  for (const Channel& c : channels_of(r)) {
    if (c.values->empty() || c.values->size() == n) continue;
    throw RecordError(src, 0, c.name,
                      "channel '" + std::string(c.name) + "' has " +
                          std::to_string(c.values->size()) + " samples, 'time' has " +
                          std::to_string(n) + " (every channel must have one value per time)");
  }

  // 2. required channels
  // (`give`: the options that name the channel's column, the CLI's and Python's)
  auto require = [&](bool needed, bool ok, const char* name, const char* what, const char* give) {
    if (needed && !ok)
      throw RecordError(src, 0, name,
                        std::string("no ") + what + " channel (required here; channels present: " +
                            present(r) + "; give its column with " + give + ")");
  };
  require(true, n > 0, "time", "time", "--time COLUMN; Python time=");
  require(opt.need_motion, !r.velocity.empty() || !r.position.empty(), "velocity",
          "velocity or position", "--velocity or --position COLUMN; Python velocity= or position=");
  require(opt.need_velocity, !r.velocity.empty(), "velocity", "velocity",
          "--velocity COLUMN; Python velocity=");
  require(opt.need_position, !r.position.empty(), "position", "position",
          "--position COLUMN; Python position=");
  require(opt.need_force, !r.force.empty(), "force", "force/torque",
          "--force COLUMN, fit-joint --torque COLUMN; Python force=");
  require(opt.need_current, !r.current.empty(), "current", "current",
          "--current COLUMN; Python current=");

  // 3. too short
  const std::size_t min_n = std::max<std::size_t>(opt.min_samples, 2);
  if (n < min_n)
    throw RecordError(src, 0, "",
                      "the record has " + std::to_string(n) + " samples; at least " +
                          std::to_string(min_n) + " are required");

  // 4. non-finite values
  for (const Channel& c : channels_of(r)) {
    const auto& v = *c.values;
    for (std::size_t k = 0; k < v.size(); ++k)
      if (!std::isfinite(v[k]))
        throw RecordError(src, k + 1, c.name,
                          "non-finite value " + format_number(v[k]) + " in channel '" + c.name +
                              "'" +
                              (c.values != &r.t ? " (t = " + format_number(r.t[k]) + " s)" : ""));
      else if (std::abs(v[k]) > kMaxMagnitude)
        throw RecordError(src, k + 1, c.name,
                          "value " + format_number(v[k]) + " in channel '" + c.name +
                              "' is beyond the limit |x| <= " + format_number(kMaxMagnitude) +
                              " (SI units; not a physical record)" +
                              (c.values != &r.t ? " (t = " + format_number(r.t[k]) + " s)" : ""));
  }

  // 4b. a temperature below absolute zero is not one in degC
  check_temperature_channel(r);

  // 5. time strictly increasing
  for (std::size_t k = 1; k < n; ++k)
    if (!(r.t[k] > r.t[k - 1]))
      throw RecordError(src, k + 1, "time",
                        "time is not strictly increasing: t = " + format_number(r.t[k]) +
                            " s follows t = " + format_number(r.t[k - 1]) + " s (sample " +
                            std::to_string(k) + ")");

  RecordReport rep;
  const signal::SamplingStats s = signal::sampling_stats(r.t);
  rep.samples = n;
  rep.duration = s.duration;
  rep.dt_median = s.dt_median;
  rep.sample_rate = s.sample_rate;
  rep.dt_min = s.dt_min;
  rep.dt_max = s.dt_max;
  rep.jitter_max = s.jitter_max;
  rep.jitter_std = s.jitter_std;
  for (const Channel& c : channels_of(r))
    if (!c.values->empty()) rep.channels.emplace_back(c.name);

  if (s.jitter_max > opt.jitter_warning) {
    const std::size_t k = s.worst_step;
    rep.warnings.push_back(src + ": the sample step varies by up to " +
                           format_number(100 * s.jitter_max) + "% of its median " +
                           format_number(s.dt_median) + " s (from " + format_number(s.dt_min) +
                           " s to " + format_number(s.dt_max) +
                           " s, largest deviation before sample " + std::to_string(k + 1) +
                           "); Savitzky-Golay differentiation and low-pass filtering need a "
                           "uniform rate: resample first" +
                           kResampleHint);
  }

  if (std::string w = time_unit_warning(r.t, s); !w.empty()) rep.warnings.push_back(src + ": " + w);
  if (!r.temperature.empty() &&
      *std::min_element(r.temperature.begin(), r.temperature.end()) > kKelvinLike)
    rep.warnings.push_back(
        src + ": every temperature is above " + format_number(kKelvinLike) + " degC (lowest " +
        format_number(*std::min_element(r.temperature.begin(), r.temperature.end())) +
        "): is the channel in kelvin? frictionlab expects degrees Celsius "
        "(subtract 273.15)");

  // Motion signal for the sign counts: velocity, else position increments.
  std::vector<double> motion;
  if (!r.velocity.empty()) {
    motion = r.velocity;
  } else if (!r.position.empty()) {
    rep.motion_from_position = true;
    motion.resize(n - 1);
    for (std::size_t k = 1; k < n; ++k) motion[k - 1] = r.position[k] - r.position[k - 1];
  }
  if (!motion.empty()) {
    double vmax = 0;
    for (double v : motion) vmax = std::max(vmax, std::abs(v));
    int last = 0;
    for (double v : motion) {
      const int sv = sgn(v);
      if (sv == 0) continue;
      if (last != 0 && sv != last) ++rep.velocity_sign_changes;
      last = sv;
    }
    const double band = opt.reversal_deadband * vmax;
    int side = 0;
    for (double v : motion) {
      const int sv = v > band ? 1 : (v < -band ? -1 : 0);
      if (sv == 0) continue;
      if (side != 0 && sv != side) ++rep.velocity_reversals;
      side = sv;
    }
    const std::string what =
        rep.motion_from_position ? "velocity (from the position increments)" : "velocity";
    if (vmax == 0) {
      rep.warnings.push_back(src + ": the " + what + " is zero everywhere");
    } else if (opt.needs_reversals && rep.velocity_sign_changes == 0) {
      rep.warnings.push_back(src + ": " + what +
                             " never changes sign: the dynamic parameters are not identifiable "
                             "from this record");
    } else if (opt.needs_reversals && rep.velocity_reversals == 0) {
      rep.warnings.push_back(
          src + ": " + what + " changes sign only inside +-" +
          format_number(100 * opt.reversal_deadband) +
          "% of its maximum |v| = " + format_number(vmax) +
          " (noise at standstill): the dynamic parameters are not identifiable from this record");
    }
  }
  return rep;
}

}  // namespace frictionlab::data
