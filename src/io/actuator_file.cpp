// frictionlab: ACTUATOR.json (see io/actuator_file.hpp; format in docs/actuators.md).
#include "frictionlab/io/actuator_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "builtin_actuators_text.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/limits.hpp"
#include "frictionlab/names.hpp"
#include "frictionlab/sim/servo_limits.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using detail::json;
using ojson = nlohmann::ordered_json;  // keeps the documented key order when writing

/// A unit a key accepts and its factor to the SI unit the simulator uses.
struct Unit {
  std::string_view name;
  double factor = 1.0;
};

constexpr double kDeg = std::numbers::pi / 180.0;

// The document being read: its file, key lines, and where the problems are.
class Reader {
 public:
  Reader(std::string_view text, std::string file)
      : file_(std::move(file)),
        top_(detail::parse_json_text(text, file_)),
        lines_(text),
        top_line_(first_line(text)) {}

  const json& top() const { return top_; }

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    std::string pointer = "/" + key;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    // A key of the top-level object that is missing has no parent key: the line is the one
    // where that object starts (a missing nested key gets the line of its parent's key).
    const long line = lines_.line(pointer);
    throw InputError(file_, line > 0 ? line : top_line_, 0, "key '" + key + "': " + message);
  }

  // The object at `key` (dotted), or nullptr if absent; fail if not an object.
  const json* object(const json& parent, const std::string& key, const std::string& name,
                     bool required) const {
    const auto it = parent.find(name);
    if (it == parent.end()) {
      if (required) fail(key, "missing (an object is required)");
      return nullptr;
    }
    if (!it->is_object()) fail(key, "expected an object, got " + detail::type_of(*it));
    return &*it;
  }

  void only(const json& obj, const std::string& prefix,
            std::initializer_list<std::string_view> allowed) const {
    for (const auto& [k, v] : obj.items()) {
      (void)v;
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        std::string list = "unknown key (expected one of: ";
        const std::size_t head = list.size();
        for (auto a : allowed) {
          if (list.size() > head) list += ", ";
          list += a;
        }
        list += ')';
        std::string key = prefix;
        if (!key.empty()) key += '.';
        key += k;
        fail(key, list);
      }
    }
  }

  std::string string(const json& obj, const std::string& key, const std::string& name,
                     bool required) const {
    const auto it = obj.find(name);
    if (it == obj.end()) {
      if (required) fail(key, "missing (a string is required)");
      return {};
    }
    if (!it->is_string()) fail(key, "expected a string, got " + detail::type_of(*it));
    return it->get<std::string>();
  }

  double number(const json& j, const std::string& key) const {
    if (!j.is_number()) fail(key, "expected a number, got " + detail::type_of(j));
    const double x = j.get<double>();
    if (const auto problem = limit_problem(x); !problem.empty()) fail(key, problem);
    return x;
  }

  // A quantity {"value", "range", "unit", "source"}: its value and range in the SI unit.
  struct Quantity {
    bool present = false;
    std::optional<double> value;
    std::optional<sim::ServoRange> range;
  };
  Quantity quantity(const json& parent, const std::string& key, const std::string& name,
                    std::initializer_list<Unit> units, sim::ServoActuator& out) const {
    Quantity q;
    const json* o = object(parent, key, name, false);
    if (o == nullptr) return q;
    q.present = true;
    only(*o, key, {"value", "range", "unit", "source"});
    std::string accepted;
    for (const auto& u : units)
      accepted += (accepted.empty() ? "'" : ", '") + std::string(u.name) + "'";
    const std::string unit = string(*o, key + ".unit", "unit", false);
    if (!o->contains("unit")) fail(key + ".unit", "missing (one of " + accepted + ")");
    const auto u =
        std::find_if(units.begin(), units.end(), [&](const Unit& x) { return x.name == unit; });
    if (u == units.end())
      fail(key + ".unit", "unit '" + unit + "' is not accepted here (one of " + accepted + ")");
    if (const auto v = o->find("value"); v != o->end())
      q.value = number(*v, key + ".value") * u->factor;
    if (const auto r = o->find("range"); r != o->end()) {
      if (!r->is_array() || r->size() != 2)
        fail(key + ".range",
             "expected [lo, hi], got " + (r->is_array() ? "an array of " + std::to_string(r->size())
                                                        : detail::type_of(*r)));
      const double lo = number((*r)[0], key + ".range") * u->factor;
      const double hi = number((*r)[1], key + ".range") * u->factor;
      if (!(lo < hi))
        fail(key + ".range",
             "need lo < hi, got [" + format_exact(lo) + ", " + format_exact(hi) + "]");
      q.range = sim::ServoRange{lo, hi};
    }
    if (!q.value && !q.range) fail(key, "needs a \"value\" or a \"range\"");
    if (q.value && q.range && (*q.value < q.range->lo || *q.value > q.range->hi))
      fail(key + ".value", "the value " + format_exact(*q.value) + " lies outside its range [" +
                               format_exact(q.range->lo) + ", " + format_exact(q.range->hi) + "]");
    source(*o, key, out);
    return q;
  }

  // The object's optional "source" (a string), kept under `key`.
  void source(const json& obj, const std::string& key, sim::ServoActuator& out) const {
    if (const auto s = obj.find("source"); s != obj.end()) {
      if (!s->is_string()) fail(key + ".source", "expected a string, got " + detail::type_of(*s));
      out.sources.emplace_back(key, s->get<std::string>());
    }
  }

  // A known constant: a value (no range).
  double known(const json& parent, const std::string& key, const std::string& name,
               std::initializer_list<Unit> units, double def, bool required,
               sim::ServoActuator& out) const {
    const Quantity q = quantity(parent, key, name, units, out);
    if (!q.present) {
      if (required) fail(key, "missing (a constant is required: {\"value\": X, \"unit\": U})");
      return def;
    }
    if (q.range)
      fail(key + ".range", "this constant is known, not identified: give its \"value\" only");
    return *q.value;
  }

  // A motor constant: identified within a range, nominal optional.
  sim::ServoConstant identified(const json& parent, const std::string& key, const std::string& name,
                                std::initializer_list<Unit> units, sim::ServoActuator& out) const {
    const Quantity q = quantity(parent, key, name, units, out);
    if (!q.present) fail(key, "missing (a motor constant is required)");
    if (!q.range)
      fail(key,
           "needs a \"range\" [lo, hi]: fit-actuator identifies it within that range (give "
           "the published value as \"value\" too)");
    return {*q.range, q.value};
  }

 private:
  // The line (1-based) of the first character that is not white space: where the parsed
  // top-level value starts.
  static long first_line(std::string_view text) {
    const auto at = text.find_first_not_of(" \t\r\n");
    const std::string_view before = text.substr(0, at == std::string_view::npos ? text.size() : at);
    return 1 + static_cast<long>(std::count(before.begin(), before.end(), '\n'));
  }

  std::string file_;
  json top_;  // parsed (and so checked: syntax, nesting depth) before the key lines are indexed
  detail::JsonKeyLines lines_;
  long top_line_;
};

const std::initializer_list<Unit> kVolts{{"V", 1.0}};
const std::initializer_list<Unit> kTorqueConstant{{"Nm/A", 1.0}, {"N m/A", 1.0}, {"V s/rad", 1.0}};
const std::initializer_list<Unit> kOhm{{"ohm", 1.0}, {"Ohm", 1.0}};
const std::initializer_list<Unit> kInertia{{"kg m^2", 1.0}, {"kg m2", 1.0}};
const std::initializer_list<Unit> kNone{{"-", 1.0}};
const std::initializer_list<Unit> kSeconds{{"s", 1.0}, {"ms", 1e-3}};
const std::initializer_list<Unit> kPerSecond{{"1/s", 1.0}};
const std::initializer_list<Unit> kAmps{{"A", 1.0}, {"mA", 1e-3}};

const char* law_name(sim::ServoLaw law) { return name_of(sim::kServoLawNames, law, "p").data(); }

}  // namespace

std::vector<std::pair<std::string, std::string>> check_actuator(const sim::ServoActuator& a) {
  namespace lim = sim::servo_limits;
  std::vector<std::pair<std::string, std::string>> out;
  const auto& c = a.constants;
  auto within = [&](double x, const Limit& r, const char* key) {
    if (auto problem = limit_problem(x, r); !problem.empty()) out.emplace_back(key, problem);
  };
  within(c.vin, lim::kSupply, "supply_voltage");
  within(c.error_gain, lim::kErrorGain, "control.error_gain");
  within(c.max_pwm, lim::kMaxPwm, "control.max_pwm");
  within(c.max_current, lim::kMaxCurrent, "control.max_current");
  within(c.kd_gain, lim::kKdGain, "control.kd_gain");
  within(c.ki_gain, lim::kKiGain, "control.ki_gain");
  within(c.deadband, lim::kDeadband, "control.deadband");
  if (c.period != 0.0) within(c.period, lim::kStep, "control.period");  // 0: not given
  // a motor constant: its range and its published value within the plausible range
  auto constant = [&](const sim::ServoConstant& q, const Limit& r, const char* key) {
    if (!limit_problem(q.range.lo, r).empty() || !limit_problem(q.range.hi, r).empty())
      out.emplace_back(key, "a physical constant: the range [" + format_exact(q.range.lo) + ", " +
                                format_exact(q.range.hi) +
                                "] must lie within the plausible range " + limit_text(r));
    else if (q.nominal)
      within(*q.nominal, r, key);
  };
  constant(a.kt, lim::kTorqueConstant, "motor.torque_constant");
  constant(a.R, lim::kResistance, "motor.resistance");
  constant(a.armature, lim::kArmature, "motor.armature");
  if (a.gear_ratio != 0.0) within(a.gear_ratio, lim::kGearRatio, "motor.gear_ratio");  // 0: none
  if (a.counts_per_turn != 0)
    within(static_cast<double>(a.counts_per_turn), lim::kCountsPerTurn, "encoder.counts_per_turn");
  if (c.law == sim::ServoLaw::p && c.kd_gain != 0)
    out.emplace_back("control.kd_gain", "law 'p' has no derivative term (use law 'pd' or 'pid')");
  if (c.law != sim::ServoLaw::pid && c.ki_gain != 0)
    out.emplace_back("control.ki_gain", "only law 'pid' has an integral term");
  return out;
}

sim::ServoActuator parse_actuator(std::string_view text, const std::string& file) {
  const Reader r(text, file);
  const json& top = r.top();
  detail::require_kind(top, file, {detail::JsonKind::actuator});
  if (!top.is_object())
    throw InputError(file, 0, 0,
                     "expected a JSON object (an ACTUATOR.json), got " + detail::type_of(top));
  r.only(top, "",
         {"format", "version", "name", "description", "drive", "supply_voltage", "motor", "encoder",
          "control"});
  if (r.string(top, "format", "format", true) != "frictionlab-actuator")
    r.fail("format", "expected \"frictionlab-actuator\"");
  if (!top.contains("version")) r.fail("version", "missing (1)");
  if (!top.at("version").is_number_integer() || top.at("version").get<long>() != 1)
    r.fail("version", "unsupported version " + top.at("version").dump() +
                          " (this frictionlab reads version 1)");
  sim::ServoActuator a;
  a.origin = file;
  a.name = r.string(top, "name", "name", true);
  if (a.name.empty() || a.name.find_first_of("/\\ \t") != std::string::npos ||
      a.name.ends_with(".json"))
    r.fail("name", "expected a name without spaces or slashes that does not end in .json, got '" +
                       a.name + "'");
  a.description = r.string(top, "description", "description", false);
  auto& c = a.constants;
  const std::string drive = r.string(top, "drive", "drive", true);
  if (drive == "voltage")
    c.drive = sim::ServoDrive::voltage;
  else if (drive == "current")
    c.drive = sim::ServoDrive::current;
  else
    r.fail("drive", "unknown drive '" + drive +
                        "' (voltage: the firmware commands a PWM duty; current: a current)");
  c.vin = r.known(top, "supply_voltage", "supply_voltage", kVolts, 0.0, true, a);

  const json* motor = r.object(top, "motor", "motor", true);
  r.only(*motor, "motor", {"torque_constant", "resistance", "armature", "gear_ratio"});
  a.kt = r.identified(*motor, "motor.torque_constant", "torque_constant", kTorqueConstant, a);
  a.R = r.identified(*motor, "motor.resistance", "resistance", kOhm, a);
  a.armature = r.identified(*motor, "motor.armature", "armature", kInertia, a);
  a.gear_ratio = r.known(*motor, "motor.gear_ratio", "gear_ratio", kNone, 0.0, false, a);
  if (motor->contains("gear_ratio") && !(a.gear_ratio > 0))
    r.fail("motor.gear_ratio.value", "must be > 0, got " + format_exact(a.gear_ratio));

  if (const json* enc = r.object(top, "encoder", "encoder", false)) {
    r.only(*enc, "encoder", {"counts_per_turn", "source"});
    if (const auto n = enc->find("counts_per_turn"); n != enc->end()) {
      if (!n->is_number_integer() || n->get<long>() <= 0)
        r.fail("encoder.counts_per_turn", "expected a positive integer, got " + n->dump());
      a.counts_per_turn = n->get<long>();
    }
    r.source(*enc, "encoder", a);
  }

  const json* ctl = r.object(top, "control", "control", true);
  r.only(*ctl, "control",
         {"law", "error_gain", "error_gain_from", "kd_gain", "ki_gain", "deadband", "max_pwm",
          "max_current", "period"});
  const std::string law = r.string(*ctl, "control.law", "law", true);
  if (const auto named = parse_name(sim::kServoLawNames, law))
    c.law = *named;
  else
    r.fail("control.law",
           "unknown law '" + law + "' (" + known_names(sim::kServoLawNames, ", ", " or ") + ")");
  const bool voltage = c.drive == sim::ServoDrive::voltage;
  const bool has_gain = ctl->contains("error_gain"), has_from = ctl->contains("error_gain_from");
  if (has_gain == has_from)
    r.fail(has_gain ? "control.error_gain_from" : "control.error_gain",
           has_gain
               ? "give either error_gain or error_gain_from, not both"
               : "missing (the duty (or current) per kp per rad of error; or error_gain_from)");
  if (has_gain) {
    c.error_gain = r.known(*ctl, "control.error_gain", "error_gain",
                           voltage ? std::initializer_list<Unit>{{"1/rad", 1.0}}
                                   : std::initializer_list<Unit>{{"A/rad", 1.0}},
                           0.0, true, a);
  } else {
    const json* from = r.object(*ctl, "control.error_gain_from", "error_gain_from", true);
    r.only(*from, "control.error_gain_from", {"kp_divisor", "output_full_scale", "source"});
    if (a.counts_per_turn <= 0) r.fail("control.error_gain_from", "needs encoder.counts_per_turn");
    auto positive = [&](const char* name) {
      const std::string key = std::string("control.error_gain_from.") + name;
      if (!from->contains(name)) r.fail(key, "missing (a number > 0)");
      const double x = r.number(from->at(name), key);
      if (const auto problem = limit_problem(x, sim::servo_limits::kScale); !problem.empty())
        r.fail(key, problem);
      return x;
    };
    const double divisor = positive("kp_divisor"), full = positive("output_full_scale");
    r.source(*from, "control.error_gain_from", a);
    // counts per rad, divided by the firmware's kp divisor and the output register's full scale
    c.error_gain =
        (static_cast<double>(a.counts_per_turn) / (2.0 * std::numbers::pi)) / (divisor * full);
  }
  c.kd_gain = r.known(*ctl, "control.kd_gain", "kd_gain", kSeconds, 0.0, false, a);
  c.ki_gain = r.known(*ctl, "control.ki_gain", "ki_gain", kPerSecond, 0.0, false, a);
  {
    const double count = a.counts_per_turn > 0
                             ? 2.0 * std::numbers::pi / static_cast<double>(a.counts_per_turn)
                             : 0.0;
    if (ctl->contains("deadband") && ctl->at("deadband").is_object() &&
        ctl->at("deadband").value("unit", "") == "counts" && count == 0.0)
      r.fail("control.deadband.unit", "'counts' needs encoder.counts_per_turn");
    c.deadband = r.known(*ctl, "control.deadband", "deadband",
                         {{"rad", 1.0}, {"deg", kDeg}, {"counts", count}}, 0.0, false, a);
  }
  if (voltage) {
    c.max_pwm = r.known(*ctl, "control.max_pwm", "max_pwm", kNone, 1.0, false, a);
    c.max_current = r.known(*ctl, "control.max_current", "max_current", kAmps, 0.0, false, a);
  } else {
    for (const char* k : {"max_pwm", "max_current"})
      if (ctl->contains(k))
        r.fail(std::string("control.") + k,
               "applies to a voltage drive only (a current drive's limit is the identified "
               "current_limit)");
  }
  c.period = r.known(*ctl, "control.period", "period", kSeconds, 0.0, false, a);
  if (const auto problems = check_actuator(a); !problems.empty()) {
    const auto& [key, msg] = problems.front();
    r.fail(key, msg);
  }
  return a;
}

sim::ServoActuator read_actuator(const std::string& path) {
  return parse_actuator(read_text_file(path, "an ACTUATOR.json file"), path);
}

std::vector<std::string> builtin_actuator_names() {
  std::vector<std::string> names;
  for (const auto& b : detail::kBuiltinActuators) names.emplace_back(b.name);
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// A name as its spellings compare: lower case, without '-', '_', '.' and spaces ("STS3215-12V",
// "sts3215_12v" -> "sts321512v").
std::string name_key(std::string_view name) {
  std::string k;
  for (const char ch : name)
    if (ch != '-' && ch != '_' && ch != '.' && ch != ' ')
      k += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return k;
}

// Names other tools give the built-in families (compared by name_key): the kscalelabs sysid
// tools write the 12 V STS3215 as "sts3215v12".
constexpr std::pair<std::string_view, std::string_view> kActuatorAliases[] = {
    {"sts3215v12", "sts3215-12v"},
    {"sts3215v74", "sts3215"},
};

}  // namespace

std::string builtin_actuator_name(std::string_view reference) {
  const std::string key = name_key(reference);
  for (const auto& b : detail::kBuiltinActuators)
    if (name_key(b.name) == key) return std::string(b.name);
  for (const auto& [alias, name] : kActuatorAliases)
    if (alias == key) return std::string(name);
  return {};
}

std::string_view builtin_actuator_text(std::string_view name) {
  const std::string canonical = builtin_actuator_name(name);
  for (const auto& b : detail::kBuiltinActuators)
    if (b.name == canonical) return b.text;
  return {};
}

std::optional<sim::ServoActuator> builtin_actuator(std::string_view name) {
  const std::string_view text = builtin_actuator_text(name);
  if (text.empty()) return std::nullopt;
  sim::ServoActuator a =
      parse_actuator(text, "data/actuators/" + builtin_actuator_name(name) + ".json");
  a.origin = "built in";
  return a;
}

sim::ServoActuator resolve_actuator(const std::string& reference, const std::string& base_dir,
                                    const std::string& where) {
  const bool path = reference.ends_with(".json") || reference.find('/') != std::string::npos;
  if (!path) {
    if (auto a = builtin_actuator(reference)) return *a;
    std::string names;
    for (const auto& n : builtin_actuator_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError(where, 0, 0,
                     "unknown actuator " + quote_text(reference) + " (built in: " + names +
                         "); to add one, write an ACTUATOR.json (docs/actuators.md, "
                         "\"ACTUATOR.json\") and give its path instead of a name");
  }
  std::filesystem::path p(reference);
  if (p.is_relative() && !base_dir.empty()) p = std::filesystem::path(base_dir) / p;
  std::error_code ec;
  if (!std::filesystem::exists(p, ec))
    throw InputError(where, 0, 0,
                     "actuator file " + quote_text(p.string(), 4096) + " does not exist");
  return read_actuator(p.string());  // a directory or a device: require_input_file says which
}

std::string actuator_json(const sim::ServoActuator& a) {
  ojson j = ojson::object();
  auto source = [&](const std::string& key, ojson& q) {
    for (const auto& [k, s] : a.sources)
      if (k == key) q["source"] = s;
  };
  auto quantity = [&](const std::string& key, double value, const char* unit) {
    ojson q{{"value", value}, {"unit", unit}};
    source(key, q);
    return q;
  };
  auto identified = [&](const std::string& key, const sim::ServoConstant& c, const char* unit) {
    ojson q = ojson::object();
    if (c.nominal) q["value"] = *c.nominal;
    q["range"] = {c.range.lo, c.range.hi};
    q["unit"] = unit;
    source(key, q);
    return q;
  };
  const auto& c = a.constants;
  j["format"] = "frictionlab-actuator";
  j["version"] = 1;
  j["name"] = a.name;
  if (!a.description.empty()) j["description"] = a.description;
  j["drive"] = c.drive == sim::ServoDrive::voltage ? "voltage" : "current";
  j["supply_voltage"] = quantity("supply_voltage", c.vin, "V");
  ojson motor = ojson::object();
  motor["torque_constant"] = identified("motor.torque_constant", a.kt, "Nm/A");
  motor["resistance"] = identified("motor.resistance", a.R, "ohm");
  motor["armature"] = identified("motor.armature", a.armature, "kg m^2");
  if (a.gear_ratio > 0) motor["gear_ratio"] = quantity("motor.gear_ratio", a.gear_ratio, "-");
  j["motor"] = motor;
  if (a.counts_per_turn > 0) {
    ojson enc{{"counts_per_turn", a.counts_per_turn}};
    source("encoder", enc);
    j["encoder"] = enc;
  }
  ojson ctl = ojson::object();
  ctl["law"] = law_name(c.law);
  // the derived gain is written as its value (its derivation's source kept)
  ojson gain = quantity("control.error_gain", c.error_gain,
                        c.drive == sim::ServoDrive::voltage ? "1/rad" : "A/rad");
  source("control.error_gain_from", gain);
  ctl["error_gain"] = gain;
  if (c.law != sim::ServoLaw::p) ctl["kd_gain"] = quantity("control.kd_gain", c.kd_gain, "s");
  if (c.law == sim::ServoLaw::pid) ctl["ki_gain"] = quantity("control.ki_gain", c.ki_gain, "1/s");
  if (c.deadband > 0) ctl["deadband"] = quantity("control.deadband", c.deadband, "rad");
  if (c.drive == sim::ServoDrive::voltage) {
    ctl["max_pwm"] = quantity("control.max_pwm", c.max_pwm, "-");
    if (c.max_current > 0) ctl["max_current"] = quantity("control.max_current", c.max_current, "A");
  }
  if (c.period > 0) ctl["period"] = quantity("control.period", c.period, "s");
  j["control"] = ctl;
  return j.dump(2) + "\n";
}

}  // namespace frictionlab::io
