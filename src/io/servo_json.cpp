// frictionlab: BAM servo logs and parameter files (see io/servo_json.hpp).
#include "frictionlab/io/servo_json.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>

#include "frictionlab/format.hpp"
#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/limits.hpp"
#include "frictionlab/models/validation.hpp"
#include "frictionlab/sim/servo_limits.hpp"
#include "frictionlab/sim/servo_params.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& file, const std::string& message) {
  throw InputError(file, 0, 0, message);
}

std::string entry_prefix(std::size_t i) { return "entry " + std::to_string(i) + ": "; }

double header_number(const json& top, const std::string& file, const char* key, bool required,
                     double def) {
  if (!top.contains(key)) {
    if (required) fail(file, std::string("key '") + key + "': missing (a number is required)");
    return def;
  }
  const json& j = top.at(key);
  if (!j.is_number())
    fail(file, std::string("key '") + key + "': expected a number, got " + detail::type_of(j));
  return j.get<double>();
}

std::string header_string(const json& top, const std::string& file, const char* key) {
  if (!top.contains(key)) return {};
  const json& j = top.at(key);
  if (!j.is_string())
    fail(file, std::string("key '") + key + "': expected a string, got " + detail::type_of(j));
  return j.get<std::string>();
}

const std::vector<std::string> kHeaderKeys{"mass",       "length", "arm_mass",     "kp",
                                           "kd",         "ki",     "vin",          "motor",
                                           "trajectory", "dt",     "current_unit", "entries"};
const std::vector<std::string> kRequiredEntryKeys{"position", "goal_position", "timestamp",
                                                  "torque_enable"};
const std::vector<std::string> kOptionalEntryKeys{"speed", "current", "load", "input_volts",
                                                  "temp"};

}  // namespace

ServoLogRead parse_servo_log(std::string_view text, const std::string& file,
                             const ServoLogReadOptions& options) {
  const json top = detail::parse_json_text(text, file);
  detail::require_kind(top, file, {detail::JsonKind::servo_log});
  if (!top.is_object())
    fail(file, "expected a JSON object (a BAM log), got " + detail::type_of(top));
  ServoLogRead out;
  data::ServoLog& log = out.log;
  log.file = file;
  for (auto it = top.begin(); it != top.end(); ++it)
    if (std::find(kHeaderKeys.begin(), kHeaderKeys.end(), it.key()) == kHeaderKeys.end())
      out.ignored_keys.push_back(it.key());
  log.mass = header_number(top, file, "mass", true, 0.0);
  log.length = header_number(top, file, "length", true, 0.0);
  log.arm_mass = header_number(top, file, "arm_mass", false, 0.0);
  log.kp = header_number(top, file, "kp", true, 0.0);
  log.kd = header_number(top, file, "kd", false, 0.0);
  log.ki = header_number(top, file, "ki", false, 0.0);
  if (top.contains("vin")) log.vin = header_number(top, file, "vin", true, 0.0);
  // not used by the models (it stays among the ignored keys): kept for `actuator check`
  if (const auto mt = top.find("max_torque"); mt != top.end() && mt->is_number())
    log.max_torque = mt->get<double>();
  log.dt = header_number(top, file, "dt", false, 0.0);
  if (top.contains("dt") && !(log.dt > 0.0))
    fail(file, "key 'dt': must be > 0, got " + format_exact(log.dt));
  log.motor = header_string(top, file, "motor");
  log.trajectory = header_string(top, file, "trajectory");
  log.current_unit = header_string(top, file, "current_unit");
  if (top.contains("current_unit") && log.current_unit != "A" && log.current_unit != "mA")
    fail(file, "key 'current_unit': expected \"A\" or \"mA\", got \"" + log.current_unit + "\"");
  if (log.current_unit.empty()) log.current_unit = options.current_unit;
  if (!top.contains("entries"))
    fail(file, "key 'entries': missing (an array of entries is required)");
  const json& entries = top.at("entries");
  if (!entries.is_array())
    fail(file, "key 'entries': expected an array, got " + detail::type_of(entries));
  const std::size_t n = entries.size();
  if (n < 2) fail(file, "key 'entries': needs at least 2 entries, got " + std::to_string(n));

  // Optional channels: decided by entry 0, then required (or forbidden) in every entry.
  std::map<std::string, std::vector<double>*> optional{{"speed", &log.speed},
                                                       {"current", &log.current},
                                                       {"load", &log.load},
                                                       {"input_volts", &log.input_volts},
                                                       {"temp", &log.temp}};
  std::set<std::string> ignored_entry_keys;
  std::map<std::string, bool> has;
  for (const auto& [key, v] : optional) {
    has[key] = entries[0].is_object() && entries[0].contains(key);
    if (has[key]) v->reserve(n);
  }
  log.position.reserve(n);
  log.goal_position.reserve(n);
  log.timestamp.reserve(n);
  log.torque_enable.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const json& e = entries[i];
    if (!e.is_object())
      fail(file, entry_prefix(i) + "expected an object, got " + detail::type_of(e));
    auto number = [&](const std::string& key) {
      const json& j = e.at(key);
      if (!j.is_number())
        fail(file,
             entry_prefix(i) + "key '" + key + "': expected a number, got " + detail::type_of(j));
      const double x = j.get<double>();
      if (!std::isfinite(x)) fail(file, entry_prefix(i) + "key '" + key + "': not finite");
      return x;
    };
    for (const auto& key : kRequiredEntryKeys)
      if (!e.contains(key)) fail(file, entry_prefix(i) + "key '" + key + "': missing");
    log.position.push_back(number("position"));
    log.goal_position.push_back(number("goal_position"));
    log.timestamp.push_back(number("timestamp"));
    const json& te = e.at("torque_enable");
    if (te.is_boolean()) {
      log.torque_enable.push_back(te.get<bool>() ? 1 : 0);
    } else if (te.is_number() && (te.get<double>() == 0.0 || te.get<double>() == 1.0)) {
      log.torque_enable.push_back(te.get<double>() == 1.0 ? 1 : 0);
    } else {
      fail(file, entry_prefix(i) + "key 'torque_enable': expected true, false, 0 or 1, got " +
                     (te.is_number() ? format_exact(te.get<double>()) : detail::type_of(te)));
    }
    for (const auto& [key, v] : optional) {
      const bool here = e.contains(key);
      if (here != has[key])
        fail(file,
             entry_prefix(i) + "key '" + key + "': " +
                 (here ? "present, but entry 0 has none (a channel is in every entry or in none)"
                       : "missing (entry 0 has it: a channel is in every entry or in none)"));
      if (here) v->push_back(number(key));
    }
    for (auto it = e.begin(); it != e.end(); ++it) {
      const auto& k = it.key();
      if (std::find(kRequiredEntryKeys.begin(), kRequiredEntryKeys.end(), k) ==
              kRequiredEntryKeys.end() &&
          !optional.count(k))
        ignored_entry_keys.insert(k);
    }
  }
  for (const auto& k : ignored_entry_keys) out.ignored_keys.push_back("entries[]." + k);
  if (!log.current.empty() && log.current_unit.empty())
    out.ignored_keys.push_back("entries[].current (its unit is not known: give \"current_unit\")");
  std::sort(out.ignored_keys.begin(), out.ignored_keys.end());
  for (std::size_t i = 1; i < n; ++i)
    if (log.timestamp[i] < log.timestamp[i - 1])
      fail(file, entry_prefix(i) + "key 'timestamp': decreases (" +
                     format_exact(log.timestamp[i - 1]) + " then " +
                     format_exact(log.timestamp[i]) + ")");
  const auto problems = data::check_servo_log(log);
  if (!problems.empty()) fail(file, problems.front());
  return out;
}

ServoLogRead read_servo_log(const std::string& path, const ServoLogReadOptions& options) {
  return parse_servo_log(read_text_file(path, "a BAM log (.json)"), path, options);
}

namespace {

// `paths` with every directory replaced by its *.json files in name order (except `skip`);
// a directory without one is an error "directory has no .json WHAT".
std::vector<std::string> json_files(const std::vector<std::string>& paths, const char* what,
                                    const char* skip) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> here;
      for (const auto& e : fs::directory_iterator(p, ec))
        if (e.is_regular_file() && e.path().extension() == ".json" &&
            (skip == nullptr || e.path().filename() != skip))
          here.push_back(e.path().string());
      if (ec) throw InputError(p, 0, 0, "cannot list directory: " + ec.message());
      if (here.empty()) throw InputError(p, 0, 0, std::string("directory has no .json ") + what);
      std::sort(here.begin(), here.end());
      files.insert(files.end(), here.begin(), here.end());
    } else {
      files.push_back(p);
    }
  }
  return files;
}

}  // namespace

std::vector<std::string> servo_param_paths(const std::vector<std::string>& paths) {
  return json_files(paths, "parameter file", "summary.json");
}

std::vector<ServoLogRead> read_servo_logs(const std::vector<std::string>& paths,
                                          const ServoLogReadOptions& options) {
  const auto files = json_files(paths, "log", nullptr);
  std::vector<ServoLogRead> out;
  out.reserve(files.size());
  for (const auto& f : files) out.push_back(read_servo_log(f, options));
  return out;
}

ServoLogSet read_servo_log_set(const std::vector<std::string>& paths,
                               const ServoLogReadOptions& options) {
  ServoLogSet set;
  std::map<std::string, std::size_t> unused;  // key -> number of logs that have it
  std::size_t n = 0;
  for (auto& r : read_servo_logs(paths, options)) {
    for (const auto& k : r.ignored_keys) ++unused[k];
    set.logs.push_back(std::move(r.log));
    ++n;
  }
  if (!unused.empty()) {
    std::vector<std::string> items;
    items.reserve(unused.size());
    for (const auto& [k, count] : unused)
      items.push_back(
          count == n ? k : k + " (" + std::to_string(count) + " of " + std::to_string(n) + ")");
    set.warnings.push_back("keys the models do not use, in " +
                           (n == 1 ? set.logs.front().file : std::to_string(n) + " logs") + ": " +
                           join_list(items));
  }
  return set;
}

namespace {

// Built-in families sold in versions for different supplies under one name (the logs' "motor"
// does not tell which): the name, then the versions.
const std::vector<std::pair<std::string, std::vector<std::string>>> kSupplyVersions{
    {"sts3215", {"sts3215", "sts3215-12v"}},
};

/// The version of `named` (a built-in that has versions by supply) whose supply voltage is the
/// nearest to the mean logged input_volts; `named` itself when it has none or nothing is
/// logged. `choice` (if given) receives what was chosen and why, for every ambiguous name.
sim::ServoActuator choose_by_supply(const sim::ServoActuator& named, const std::string& motor,
                                    const std::vector<data::ServoLog>& logs, std::string* choice) {
  const auto family = std::find_if(kSupplyVersions.begin(), kSupplyVersions.end(),
                                   [&](const auto& v) { return v.first == named.name; });
  if (family == kSupplyVersions.end()) return named;
  std::vector<sim::ServoActuator> versions;
  std::string supplies;
  for (const auto& name : family->second) {
    versions.push_back(*builtin_actuator(name));
    supplies += (supplies.empty() ? "" : ", ") + format_number(versions.back().constants.vin) +
                " V '" + name + "'";
  }
  double sum = 0.0;
  std::size_t n = 0;
  for (const auto& l : logs)
    for (const double v : l.input_volts) {
      sum += v;
      ++n;
    }
  const std::string head = "the logs' motor " + quote_text(motor) +
                           " names versions for several supplies (" + supplies + ")";
  if (n == 0) {
    if (choice)
      *choice = head + " and no log has input_volts: '" + named.name + "' (" +
                format_number(named.constants.vin) + " V) is used";
    return named;
  }
  const double mean = sum / static_cast<double>(n);
  const auto nearest =
      std::min_element(versions.begin(), versions.end(), [&](const auto& a, const auto& b) {
        return std::abs(a.constants.vin - mean) < std::abs(b.constants.vin - mean);
      });
  if (choice)
    *choice = head + "; their input_volts average " + format_number(mean, 4) + " V: '" +
              nearest->name + "' is used";
  return *nearest;
}

}  // namespace

sim::ServoActuator servo_actuator_for_logs(const std::string& reference,
                                           const sim::ServoConstants& generic,
                                           const std::vector<data::ServoLog>& logs,
                                           std::string* choice) {
  if (reference == "generic") {
    if (!(generic.error_gain > 0))
      throw std::invalid_argument("--actuator generic needs --error-gain > 0");
    if (auto problem = check_servo_constants(generic); !problem.empty()) {
      // the key as the command line spells it: max_pwm -> --max-pwm
      std::replace(problem.begin(), problem.begin() + static_cast<long>(problem.find(':')), '_',
                   '-');
      throw std::invalid_argument("--" + problem);
    }
    return sim::generic_servo_actuator(generic);
  }
  if (!reference.empty()) return resolve_actuator(reference, "", "--actuator");
  // the logs' "motor": one and the same for all (a path is taken from the first log's directory)
  std::set<std::string> motors;
  for (const auto& l : logs) motors.insert(l.motor);
  if (logs.empty() || motors.size() != 1 || motors.begin()->empty()) {
    std::string list;
    for (const auto& m : motors) list += (list.empty() ? "'" : ", '") + m + "'";
    throw std::invalid_argument(
        "--actuator: not given and the logs do not name one actuator ('motor'" +
        (motors.empty() ? std::string() : ": " + list) + ")");
  }
  const auto& first = logs.front();
  const auto named =
      resolve_actuator(*motors.begin(), std::filesystem::path(first.file).parent_path().string(),
                       first.file + ": key 'motor'");
  return choose_by_supply(named, *motors.begin(), logs, choice);
}

// ---- parameter files ----

std::vector<std::string> check_servo_params(const sim::ServoParams& p, sim::ServoDrive drive) {
  std::vector<std::string> out;
  auto add = [&](std::string_view key, const std::string& msg) {
    out.push_back("parameter '" + std::string(key) + "': " + msg);
  };
  for (auto key : sim::servo_param_keys(p, drive))
    if (auto problem = limit_problem(sim::servo_param(p, key), sim::servo_limits::param_limit(key));
        !problem.empty())
      add(key, problem);
  if (p.temperature)
    if (auto problem = limit_problem(p.temperature->T_ref, sim::servo_limits::param_limit("T_ref"));
        !problem.empty())
      add("T_ref", problem);
  if (!out.empty()) return out;
  for (const auto& issue : check(p.friction))
    if (!issue.warning) add(sim::servo_param_key_of_symbol(issue.param), issue.message);
  return out;
}

std::string check_servo_constants(const sim::ServoConstants& c) {
  namespace lim = sim::servo_limits;
  const std::pair<const char*, std::pair<double, Limit>> checks[] = {
      {"error_gain", {c.error_gain, lim::kErrorGain}},
      {"max_pwm", {c.max_pwm, lim::kMaxPwm}},
      {"max_current", {c.max_current, lim::kMaxCurrent}},
  };
  for (const auto& [key, v] : checks)
    if (auto problem = limit_problem(v.first, v.second); !problem.empty())
      return std::string(key) + ": " + problem;
  if (c.vin != 0.0)
    if (auto problem = limit_problem(c.vin, lim::kSupply); !problem.empty())
      return "vin: " + problem;
  return {};
}

namespace {

const std::vector<std::string> kGenericKeys{"drive", "error_gain", "max_pwm", "max_current", "vin"};
/// A temperature law's keys (not BAM's; docs/actuators.md): all or none.
const std::vector<std::string> kTemperatureKeys{"temperature_law", "T_ref", "kT", "kT_v"};

/// The temperature law of a parameter file: none without its keys; else every one of
/// kTemperatureKeys, the law "linear" or "exponential".
std::optional<TemperatureDependence<double>> temperature_law_of(const json& top,
                                                                const std::string& file) {
  std::vector<std::string> given;
  for (const auto& k : kTemperatureKeys)
    if (top.contains(k)) given.push_back(k);
  if (given.empty()) return std::nullopt;
  for (const auto& k : kTemperatureKeys)
    if (!top.contains(k))
      throw InputError::parameter(file, k,
                                  "missing (a temperature law needs temperature_law, T_ref, kT "
                                  "and kT_v; given: " +
                                      join_list(given) + ")");
  const json& law = top.at("temperature_law");
  TemperatureDependence<double> t;
  if (!law.is_string() || !parse_temperature_law(law.get<std::string>(), t.law))
    throw InputError::parameter(
        file, "temperature_law",
        "expected \"linear\" or \"exponential\", got " +
            (law.is_string() ? "\"" + law.get<std::string>() + "\"" : detail::type_of(law)));
  for (const auto& [key, field] :
       {std::pair<const char*, double*>{"T_ref", &t.T_ref}, {"kT", &t.kT}, {"kT_v", &t.kT_v}}) {
    if (!top.at(key).is_number())
      throw InputError::parameter(file, key,
                                  "expected a number, got " + detail::type_of(top.at(key)));
    *field = top.at(key).get<double>();
  }
  return t;
}

}  // namespace

sim::ServoSetup parse_servo_params(std::string_view text, const std::string& file) {
  const json top = detail::parse_json_text(text, file);
  detail::require_kind(top, file, {detail::JsonKind::servo_params});
  if (!top.is_object())
    fail(file, "expected a JSON object (a BAM parameter file), got " + detail::type_of(top));
  auto param_fail = [&](const std::string& key, const std::string& msg) -> void {
    throw InputError::parameter(file, key, msg);
  };
  auto str = [&](const char* key) {
    if (!top.contains(key)) param_fail(key, "missing");
    if (!top.at(key).is_string())
      param_fail(key, "expected a string, got " + detail::type_of(top.at(key)));
    return top.at(key).get<std::string>();
  };
  sim::ServoSetup f;
  const std::string model = str("model");
  if (!sim::parse_actuator_model(model, f.params.model))
    param_fail("model", "unknown model '" + model + "' (m1, m2, m3, m4, m5, m6)");
  const std::string actuator = str("actuator");
  const bool generic = actuator == "generic";
  const bool embedded = top.contains("actuator_description");
  auto number = [&](const std::string& key) {
    const json& j = top.at(key);
    if (!j.is_number()) param_fail(key, "expected a number, got " + detail::type_of(j));
    return j.get<double>();
  };
  if (generic) {
    sim::ServoConstants c{sim::ServoDrive::voltage, 0.0, 0.0, 1.0, 0.0};
    if (top.contains("drive")) {
      const std::string d = str("drive");
      if (d == "voltage")
        c.drive = sim::ServoDrive::voltage;
      else if (d == "current")
        c.drive = sim::ServoDrive::current;
      else
        param_fail("drive", "expected \"voltage\" or \"current\", got \"" + d + "\"");
    }
    if (!top.contains("error_gain"))
      param_fail("error_gain", "missing (required for a generic actuator)");
    c.error_gain = number("error_gain");
    if (!(c.error_gain > 0))
      param_fail("error_gain", "must be > 0, got " + format_exact(c.error_gain));
    if (top.contains("max_pwm")) c.max_pwm = number("max_pwm");
    if (!(c.max_pwm > 0 && c.max_pwm <= 1))
      param_fail("max_pwm", "must be in (0, 1], got " + format_exact(c.max_pwm));
    if (top.contains("max_current")) c.max_current = number("max_current");
    if (!(c.max_current >= 0))
      param_fail("max_current",
                 "must be >= 0 (0 = no current limit), got " + format_exact(c.max_current));
    c.vin = top.contains("vin") ? number("vin") : 0.0;
    if (top.contains("vin") && !(c.vin > 0))
      param_fail("vin", "must be > 0, got " + format_exact(c.vin));
    if (const auto problem = check_servo_constants(c); !problem.empty()) {
      const auto colon = problem.find(':');
      param_fail(problem.substr(0, colon), problem.substr(colon + 2));
    }
    f.actuator = sim::generic_servo_actuator(c);
  } else if (embedded) {
    const json& d = top.at("actuator_description");
    if (!d.is_object())
      param_fail("actuator_description",
                 "expected an object (an ACTUATOR.json), got " + detail::type_of(d));
    f.actuator = parse_actuator(d.dump(2), file + " (its actuator_description)");
    if (f.actuator.name != actuator)
      param_fail("actuator", "'" + actuator +
                                 "' differs from the name of its actuator_description ('" +
                                 f.actuator.name + "')");
    f.actuator.origin = file;
  } else {
    const std::string dir = std::filesystem::path(file).parent_path().string();
    f.actuator = resolve_actuator(actuator, dir, file + ": parameter 'actuator'");
  }
  const auto keys = sim::servo_param_keys(f.params.model, f.actuator.constants.drive);
  for (auto it = top.begin(); it != top.end(); ++it) {
    const std::string& k = it.key();
    if (k == "model" || k == "actuator" || (embedded && k == "actuator_description")) continue;
    if (std::find(kTemperatureKeys.begin(), kTemperatureKeys.end(), k) != kTemperatureKeys.end())
      continue;
    if (generic && std::find(kGenericKeys.begin(), kGenericKeys.end(), k) != kGenericKeys.end())
      continue;
    if (k == "command_delay") {
      if (number(k) != 0.0)
        param_fail(k, "a non-zero command delay (newer BAM) is not supported; got " +
                          format_exact(number(k)));
      continue;
    }
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      std::string allowed;
      for (auto key : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(key);
      std::string msg = "not a parameter of model " + model;
      msg += " with actuator '";
      msg += actuator;
      msg += "' (its keys: ";
      msg += allowed;
      msg += ")";
      param_fail(k, msg);
    }
    *sim::servo_param(f.params, k) = number(k);
  }
  for (auto key : keys)
    if (!top.contains(std::string(key)))
      param_fail(std::string(key), "missing (model " + model + ")");
  f.params.temperature = temperature_law_of(top, file);
  const auto problems = check_servo_params(f.params, f.actuator.constants.drive);
  if (!problems.empty()) fail(file, problems.front());
  return f;
}

sim::ServoSetup read_servo_params(const std::string& path) {
  return parse_servo_params(read_text_file(path, "an actuator parameter file (.json)"), path);
}

std::string servo_params_json(const sim::ServoSetup& f) {
  const auto& c = f.actuator.constants;
  nlohmann::ordered_json j;
  for (auto key : sim::servo_param_keys(f.params.model, c.drive))
    j[std::string(key)] = sim::servo_param(f.params, key);
  if (const auto& t = f.params.temperature) {
    j["temperature_law"] = std::string(temperature_law_name(t->law));
    j["T_ref"] = t->T_ref;
    j["kT"] = t->kT;
    j["kT_v"] = t->kT_v;
  }
  j["model"] = std::string(sim::actuator_model_name(f.params.model));
  j["actuator"] = f.actuator.name;
  if (f.actuator.name == "generic") {
    j["drive"] = c.drive == sim::ServoDrive::voltage ? "voltage" : "current";
    j["error_gain"] = c.error_gain;
    j["max_pwm"] = c.max_pwm;
    if (c.max_current > 0) j["max_current"] = c.max_current;
    if (c.vin > 0) j["vin"] = c.vin;
  } else if (f.actuator.origin != "built in") {
    // not a built-in family: the file carries its description, so that it can be used anywhere
    j["actuator_description"] = nlohmann::ordered_json::parse(actuator_json(f.actuator));
  }
  return j.dump(4) + "\n";
}

void write_servo_params(const std::string& path, const sim::ServoSetup& f) {
  write_text_file(path, servo_params_json(f));
}

}  // namespace frictionlab::io
