// frictionlab: strict JSON object reading (see json_fields.hpp).
#include "json_fields.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <set>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab::io::detail {

std::string type_of(const json& j) {
  if (j.is_number()) return "number";
  if (j.is_boolean()) return "boolean";
  return j.type_name();
}

namespace {

// 1-based line and column of the 0-based byte offset `i` in `text`.
void line_col(std::string_view text, std::size_t i, long& line, long& col) {
  if (i > text.size()) i = text.size();
  line = 1;
  std::size_t line_start = 0;
  for (std::size_t k = 0; k < i; ++k)
    if (text[k] == '\n') {
      ++line;
      line_start = k + 1;
    }
  col = static_cast<long>(i - line_start) + 1;
}

// The message of a nlohmann parse_error without its "[json.exception...] parse error at line L,
// column C: " prefix.
std::string parse_error_tail(const std::string& what) {
  const auto pos = what.find("column ");
  if (pos != std::string::npos) {
    const auto colon = what.find(": ", pos);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

// The deepest nesting of arrays and objects a JSON file may have: no frictionlab file nests
// more than 6 levels; 256 keeps every later walk of the document (which may recurse) far from
// the stack's end however the text was made.
constexpr int kMaxJsonDepth = 256;

// InputError at the bracket that opens level kMaxJsonDepth + 1, found by one pass over the text
// (brackets inside strings skipped) before the parser sees it.
void require_json_depth(std::string_view text, const std::string& file) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        long line = 0, col = 0;
        line_col(text, i, line, col);
        throw InputError(file, line, col,
                         "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                             " levels of arrays and objects (no frictionlab file nests more "
                             "than a few)");
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

}  // namespace

json parse_json_text(std::string_view text, const std::string& file) {
  require_text(text, file, "JSON");
  require_json_depth(text, file);
  // Duplicate keys: nlohmann keeps the last value silently; track the keys of every open object.
  std::vector<std::set<std::string>> keys;
  std::vector<std::string> names;  // the key under which each open object sits
  std::string last_key = "the top level";
  std::string duplicate, duplicate_in;
  json::parser_callback_t cb = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        keys.emplace_back();
        names.push_back(keys.size() == 1 ? std::string("the top level") : quote_text(last_key));
        break;
      case json::parse_event_t::object_end:
        if (!keys.empty()) {
          keys.pop_back();
          names.pop_back();
        }
        break;
      case json::parse_event_t::key:
        if (parsed.is_string() && !keys.empty()) {
          last_key = parsed.get<std::string>();
          if (!keys.back().insert(last_key).second && duplicate.empty()) {
            duplicate = last_key;
            duplicate_in = names.back();
          }
        }
        break;
      default:
        break;
    }
    return true;
  };
  json j;
  try {
    j = json::parse(text.begin(), text.end(), cb, /*allow_exceptions=*/true,
                    /*ignore_comments=*/false);
  } catch (const json::parse_error& e) {
    long line = 0, col = 0;
    line_col(text, e.byte > 0 ? e.byte - 1 : 0, line, col);
    throw InputError(file, line, col,
                     "JSON syntax error: " + printable_text(parse_error_tail(e.what()), 300));
  } catch (const json::out_of_range& e) {
    // Number overflow (e.g. 1e400): locate the literal named in the message.
    const std::string what = e.what();
    const auto q1 = what.find('\''), q2 = what.rfind('\'');
    long line = 0, col = 0;
    if (q1 != std::string::npos && q2 > q1) {
      const auto lit = what.substr(q1 + 1, q2 - q1 - 1);
      const auto at = text.find(lit);
      if (at != std::string_view::npos) line_col(text, at, line, col);
    }
    const auto bracket = what.find("] ");
    throw InputError(
        file, line, col,
        "JSON number error: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
  }
  if (!duplicate.empty())
    throw InputError(file, 0, 0, "duplicate key " + quote_text(duplicate) + " in " + duplicate_in);
  return j;
}

void fail_key(const std::string& file, const std::string& key, const std::string& message) {
  throw InputError(file, 0, 0, "key " + quote_text(key) + ": " + message);
}

const json& member(const json& obj, const std::string& file, const std::string& key) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail_key(file, key, "missing");
  return *it;
}

void fail_file(const std::string& file, const std::string& context, const std::string& message) {
  throw InputError(file, 0, 0, context.empty() ? message : context + ": " + message);
}

JsonFields::JsonFields(const json* obj, std::string file, std::string context, std::string owner,
                       std::vector<std::string> allowed)
    : obj_(obj),
      file_(std::move(file)),
      context_(std::move(context)),
      owner_(std::move(owner)),
      allowed_(std::move(allowed)) {
  if (obj_ == nullptr) return;
  for (auto it = obj_->begin(); it != obj_->end(); ++it) {
    bool known = false;
    for (const auto& a : allowed_) known = known || a == it.key();
    if (!known)
      fail(it.key(), "unknown parameter for " + owner_ + " (allowed: " + join_list(allowed_) + ")");
  }
}

bool JsonFields::has(const std::string& key) const {
  return obj_ != nullptr && obj_->contains(key);
}

const json& JsonFields::at(const std::string& key) const { return obj_->at(key); }

void JsonFields::fail(const std::string& key, const std::string& message) const {
  throw InputError::parameter(file_, key, message, context_);
}

namespace {

// data::kMaxMagnitude: beyond it no parameter is physical and simulations stop being finite.
std::string beyond_limit(double x) {
  // Appended, not operator+ on a literal: that trips a g++ 12 -Wrestrict false positive.
  std::string s(1, '|');
  s.append(format_exact(x)).append("| is beyond the limit ");
  s.append(format_exact(data::kMaxMagnitude));
  s.append(" of any parameter (SI units; docs/file-formats.md, \"Magnitude limits\")");
  return s;
}

}  // namespace

double JsonFields::number(const std::string& key, double def) const {
  if (!has(key)) return def;
  const json& j = at(key);
  if (!j.is_number()) fail(key, "expected a number, got " + type_of(j));
  const double x = j.get<double>();
  if (std::abs(x) > data::kMaxMagnitude) fail(key, beyond_limit(x));
  return x;
}

bool JsonFields::boolean(const std::string& key, bool def) const {
  if (!has(key)) return def;
  const json& j = at(key);
  if (!j.is_boolean()) fail(key, "expected true or false, got " + type_of(j));
  return j.get<bool>();
}

int JsonFields::integer(const std::string& key, int def) const {
  if (!has(key)) return def;
  const json& j = at(key);
  if (j.is_number_integer()) {
    const auto x = j.get<long long>();
    if (x < -1000000000LL || x > 1000000000LL) fail(key, "integer out of range");
    return static_cast<int>(x);
  }
  if (j.is_number()) fail(key, "expected an integer, got " + format_exact(j.get<double>()));
  fail(key, "expected an integer, got " + type_of(j));
}

std::string JsonFields::string(const std::string& key, const std::string& def) const {
  if (!has(key)) return def;
  const json& j = at(key);
  if (!j.is_string()) fail(key, "expected a string, got " + type_of(j));
  return j.get<std::string>();
}

std::vector<double> JsonFields::numbers(const std::string& key) const {
  const json& j = at(key);
  if (!j.is_array()) fail(key, "expected an array of numbers, got " + type_of(j));
  if (j.empty()) fail(key, "expected a non-empty array of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number())
      fail(key, "entry " + std::to_string(i) + ": expected a number, got " + type_of(j[i]));
    const double x = j[i].get<double>();
    if (std::abs(x) > data::kMaxMagnitude)
      fail(key, "entry " + std::to_string(i) + ": " + beyond_limit(x));
    out.push_back(x);
  }
  return out;
}

namespace {

// An input iterator over a text that records how far the JSON lexer has read (it reads one
// character at a time and, for a key, stops at its closing quote).
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  CountingIterator(const char* p, const char** last) : p_(p), last_(last) {}
  const char& operator*() const {
    *last_ = p_;
    return *p_;
  }
  CountingIterator& operator++() {
    ++p_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator c = *this;
    ++p_;
    return c;
  }
  bool operator==(const CountingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const CountingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** last_;
};

// SAX handler: the pointer of every key and the byte offset where the lexer was.
struct KeyLineSax {
  struct Frame {
    bool array = false;
    long index = -1;
    std::string key;
  };
  const char* begin = nullptr;
  const char** last = nullptr;
  std::vector<Frame> stack;
  std::vector<std::pair<std::string, std::size_t>> keys;

  std::string pointer_of_parent() const {
    std::string p;
    for (std::size_t i = 0; i + 1 < stack.size(); ++i) {
      const auto& f = stack[i];
      p += '/';
      p += f.array ? std::to_string(f.index) : f.key;
    }
    return p;
  }
  void value() {
    if (!stack.empty() && stack.back().array) ++stack.back().index;
  }
  bool null() {
    value();
    return true;
  }
  bool boolean(bool) {
    value();
    return true;
  }
  bool number_integer(json::number_integer_t) {
    value();
    return true;
  }
  bool number_unsigned(json::number_unsigned_t) {
    value();
    return true;
  }
  bool number_float(json::number_float_t, const std::string&) {
    value();
    return true;
  }
  bool string(std::string&) {
    value();
    return true;
  }
  bool binary(json::binary_t&) {
    value();
    return true;
  }
  bool start_object(std::size_t) {
    value();
    stack.push_back({false, -1, {}});
    return true;
  }
  bool end_object() {
    stack.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    value();
    stack.push_back({true, -1, {}});
    return true;
  }
  bool end_array() {
    stack.pop_back();
    return true;
  }
  bool key(std::string& k) {
    stack.back().key = k;
    std::string p;
    for (const auto& f : stack) {
      p += '/';
      p += f.array ? std::to_string(f.index) : f.key;
    }
    keys.emplace_back(std::move(p), static_cast<std::size_t>(*last - begin));
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }
};

}  // namespace

JsonKeyLines::JsonKeyLines(std::string_view text) {
  const char* last = text.data();
  KeyLineSax sax;
  sax.begin = text.data();
  sax.last = &last;
  json::sax_parse(CountingIterator(text.data(), &last),
                  CountingIterator(text.data() + text.size(), &last), &sax);
  // offsets to lines in one pass (the keys come in text order)
  long line = 1;
  std::size_t at = 0;
  for (auto& [pointer, offset] : sax.keys) {
    for (; at < offset && at < text.size(); ++at)
      if (text[at] == '\n') ++line;
    lines_.emplace_back(std::move(pointer), line);
  }
  std::sort(lines_.begin(), lines_.end());
}

long JsonKeyLines::line(std::string pointer) const {
  while (!pointer.empty()) {
    auto it = std::lower_bound(lines_.begin(), lines_.end(), pointer,
                               [](const auto& a, const std::string& b) { return a.first < b; });
    if (it != lines_.end() && it->first == pointer) return it->second;
    pointer.resize(pointer.rfind('/'));
  }
  return 0;
}

JsonKind json_kind(const json& j) {
  if (!j.is_object()) return JsonKind::unknown;
  if (const auto f = j.find("format"); f != j.end()) {
    if (!f->is_string()) return JsonKind::unknown;
    const std::string& name = f->get_ref<const std::string&>();
    if (name == "frictionlab-fit") return JsonKind::fit;
    if (name == "frictionlab-joint-fit") return JsonKind::joint_fit;
    if (name == "frictionlab-joint-eval") return JsonKind::joint_eval;
    if (name == "frictionlab-compare") return JsonKind::compare;
    if (name == "frictionlab-estimator") return JsonKind::estimator;
    if (name == "frictionlab-actuator-eval") return JsonKind::actuator_eval;
    if (name == "frictionlab-actuator") return JsonKind::actuator;
    if (name == "frictionlab-robot-fit") return JsonKind::robot_fit;
    if (name == "frictionlab-mujoco") return JsonKind::mujoco_friction;
    return JsonKind::unknown;
  }
  if (j.contains("entries")) return JsonKind::servo_log;
  if (j.contains("system")) return JsonKind::system;
  if (j.contains("joint")) return JsonKind::joint;
  if (j.contains("recommended") && j.contains("models")) return JsonKind::actuator_summary;
  if (const auto m = j.find("model"); m != j.end() && m->is_string())
    return j.contains("actuator") ? JsonKind::servo_params : JsonKind::model;
  if (j.contains("kp") && j.contains("kd")) return JsonKind::controller;
  bool all_evals = !j.empty();
  for (const auto& [key, v] : j.items()) {
    (void)key;
    all_evals = all_evals && v.is_object() && v.contains("per_log");
  }
  return all_evals ? JsonKind::actuator_eval : JsonKind::unknown;
}

// The kinds in words for messages (describe).
constexpr std::array<Named<JsonKind>, 17> kJsonKindDescriptions{{
    {JsonKind::unknown, "a JSON document of no known kind"},
    {JsonKind::model, "a MODEL.json (a friction model)"},
    {JsonKind::system, "a SYSTEM.json (a coupled system for simulate --system)"},
    {JsonKind::joint, "a JOINT.json (a joint model)"},
    {JsonKind::joint_fit, "a joint_fit.json from `fit-joint`"},
    {JsonKind::joint_eval, "a joint_eval.json from `eval-joint`"},
    {JsonKind::controller, "a CONTROLLER.json (PD gains)"},
    {JsonKind::fit, "a fit.json from `fit`"},
    {JsonKind::compare, "a compare.json from `compare`"},
    {JsonKind::estimator, "an ESTIMATOR.json from `export json`"},
    {JsonKind::servo_params,
     "an actuator parameter file (BAM's keys; fit-actuator writes m1.json .. m6.json)"},
    {JsonKind::servo_log, "a BAM servo log"},
    {JsonKind::actuator_summary, "a summary.json from `fit-actuator`"},
    {JsonKind::actuator_eval, "an evaluation from `eval-actuator --json`"},
    {JsonKind::actuator, "an ACTUATOR.json (a servo's description)"},
    {JsonKind::robot_fit, "a robot_fit.json from `fit-robot`"},
    {JsonKind::mujoco_friction, "a MUJOCO.json (frictionlab friction inside MuJoCo)"},
}};
static_assert(names_every(kJsonKindDescriptions, JsonKind::actuator_eval));

std::string describe(JsonKind kind) {
  return std::string(name_of(kJsonKindDescriptions, kind, "a JSON document of no known kind"));
}

std::string path_beside(const std::string& json_file, const std::string& path) {
  // operator/ keeps an absolute right-hand side as it is
  return (std::filesystem::path(json_file).parent_path() / path).string();
}

void require_kind(const json& j, const std::string& file,
                  std::initializer_list<JsonKind> accepted) {
  const JsonKind k = json_kind(j);
  if (k == JsonKind::unknown) return;
  std::string wanted;
  std::size_t i = 0;
  for (const JsonKind a : accepted) {
    if (a == k) return;
    wanted += (i == 0 ? "" : i + 1 == accepted.size() ? " or " : ", ") + describe(a);
    ++i;
  }
  throw InputError(file, 0, 0, "this is " + describe(k) + ", not " + wanted);
}

std::map<std::string, RobotFitParameter> robot_fit_parameters(const json& j,
                                                              const std::string& file) {
  std::map<std::string, RobotFitParameter> out;
  try {
    for (const json& p : member(j, file, "parameters"))
      out[p.at("name").get<std::string>()] = {p.at("value").get<double>(),
                                              p.value("expression", ""), p.at("terms").size() == 1};
  } catch (const json::exception& e) {
    fail_key(file, "parameters", std::string("malformed: ") + e.what());
  }
  return out;
}

}  // namespace frictionlab::io::detail
