// frictionlab: MODEL.json reader and writer (include/frictionlab/io/model_json.hpp).
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/format.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "json_fields.hpp"
#include "text.hpp"

namespace frictionlab::io {
namespace {

using detail::JsonFields;
using nlohmann::json;
using nlohmann::ordered_json;

// Keys of the Stribeck curve in a model's params object (docs/models.md, "Model file names").
const std::vector<std::string> kFcKeys = {"Fc", "Fc_pos", "Fc_neg"};
const std::vector<std::string> kCurveKeys = {"Fc",     "Fc_pos", "Fc_neg", "Fs",   "Fs_pos",
                                             "Fs_neg", "vs",     "alpha",  "shape"};

// Renames applied to issue names and messages, in order (e.g. Fc_pos -> Fc when the file used
// the symmetric key).
using Renames = std::vector<std::pair<std::string, std::string>>;

using detail::replace_all;  // text.hpp

// Read a level given either symmetrically (`sym`) or per side (`pos`, `neg`). Returns whether
// the symmetric key was used (or neither, i.e. the default).
bool read_level(const JsonFields& f, const std::string& sym, const std::string& pos,
                const std::string& neg, double& vpos, double& vneg) {
  if (f.has(sym)) {
    if (f.has(pos) || f.has(neg))
      f.fail(sym, "give either " + sym + " or both " + pos + " and " + neg + ", not both forms");
    vpos = vneg = f.number(sym, vpos);
    return true;
  }
  if (f.has(pos) != f.has(neg)) {
    const std::string& missing = f.has(pos) ? neg : pos;
    const std::string& given = f.has(pos) ? pos : neg;
    f.fail(missing, "missing: " + given + " is given, so " + missing +
                        " is required too (or give the symmetric " + sym + ")");
  }
  if (!f.has(pos)) return vpos == vneg;
  vpos = f.number(pos, vpos);
  vneg = f.number(neg, vneg);
  return false;
}

StribeckShape read_shape(const JsonFields& f, StribeckShape def) {
  const std::string s =
      f.string("shape", def == StribeckShape::exponential ? "exponential" : "rational");
  if (s == "exponential") return StribeckShape::exponential;
  if (s == "rational") return StribeckShape::rational;
  f.fail("shape", "must be \"exponential\" or \"rational\", got \"" + s + "\"");
}

// Read the curve keys into c. Returns the renames that map the curve's field names back to the
// keys used in the file.
Renames read_curve(const JsonFields& f, StribeckCurve<double>& c) {
  Renames r;
  if (read_level(f, "Fc", "Fc_pos", "Fc_neg", c.Fc_pos, c.Fc_neg) && f.has("Fc"))
    r.insert(r.end(), {{"Fc_pos", "Fc"}, {"Fc_neg", "Fc"}});
  if (read_level(f, "Fs", "Fs_pos", "Fs_neg", c.Fs_pos, c.Fs_neg) && f.has("Fs"))
    r.insert(r.end(), {{"Fs_pos", "Fs"}, {"Fs_neg", "Fs"}});
  c.vs = f.number("vs", c.vs);
  c.alpha = f.number("alpha", c.alpha);
  c.shape = read_shape(f, c.shape);
  return r;
}

// Element arrays of the Maxwell-slip and GMS models: `n` optional; every given array has n
// entries; arrays not given keep their one-element default (only possible for n = 1).
template <std::size_t N>
int read_elements(const JsonFields& f,
                  const std::vector<std::pair<std::string, std::array<double, N>*>>& arrays) {
  constexpr int kMax = static_cast<int>(N);
  const bool n_given = f.has("n");
  const int n = f.integer("n", 1);
  if (n_given && (n < 1 || n > kMax))
    f.fail("n", "must be between 1 and " + std::to_string(kMax) + ", got " + std::to_string(n));
  long len = -1;
  std::string first;
  std::vector<std::vector<double>> values(arrays.size());
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    const std::string& key = arrays[a].first;
    if (!f.has(key)) continue;
    values[a] = f.numbers(key);
    const long sz = static_cast<long>(values[a].size());
    if (sz > kMax)
      f.fail(key, "has " + std::to_string(sz) + " entries; at most " + std::to_string(kMax) +
                      " elements are supported");
    if (len < 0) {
      len = sz;
      first = key;
    } else if (sz != len) {
      f.fail(key, "has " + std::to_string(sz) + " entries but " + first + " has " +
                      std::to_string(len) + " (one entry per element)");
    }
  }
  if (n_given && len >= 0 && len != n)
    f.fail("n", "n = " + std::to_string(n) + " but " + first + " has " + std::to_string(len) +
                    " entries");
  const int count = n_given ? n : (len < 0 ? 1 : static_cast<int>(len));
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    const std::string& key = arrays[a].first;
    if (!f.has(key)) {
      if (count > 1)
        f.fail(key, "missing: required for n = " + std::to_string(count) +
                        " elements (an array of " + std::to_string(count) + " numbers)");
      continue;
    }
    std::copy(values[a].begin(), values[a].end(), arrays[a].second->begin());
  }
  return count;
}

// The warnings a model object accepts: its "accepted_warnings" {ID: REASON} (header of
// include/frictionlab/io/model_json.hpp); each ID must name a warning a file can accept and
// each REASON must say why, in a non-empty string.
using Accepted = std::vector<std::string>;

Accepted accepted_warnings(const json& j, const std::string& file, const std::string& context) {
  Accepted ids;
  if (!j.contains("accepted_warnings")) return ids;
  const json& a = j["accepted_warnings"];
  if (!a.is_object())
    detail::fail_file(file, context,
                      "key 'accepted_warnings': expected an object {\"" + std::string(kNotPassive) +
                          "\": \"why the set is kept\"}, got " + detail::type_of(a));
  for (auto it = a.begin(); it != a.end(); ++it) {
    if (it.key() != kNotPassive)
      detail::fail_file(file, context,
                        "accepted_warnings: unknown warning '" + it.key() +
                            "' (a file may accept: " + std::string(kNotPassive) + ")");
    if (!it.value().is_string() || it.value().get<std::string>().empty())
      detail::fail_file(file, context,
                        "accepted_warnings." + it.key() +
                            ": expected a non-empty string saying why the warning is accepted");
    ids.push_back(it.key());
  }
  return ids;
}

// Throw for the errors among `issues`; return the warnings not accepted, formatted.
std::vector<std::string> report(std::vector<ParamIssue> issues, const Renames& renames,
                                const std::string& file, const std::string& context,
                                const Accepted& accepted) {
  std::erase_if(issues, [&](const ParamIssue& i) {
    return i.warning && !i.id.empty() &&
           std::find(accepted.begin(), accepted.end(), i.id) != accepted.end();
  });
  for (auto& i : issues)
    for (const auto& [from, to] : renames) {
      replace_all(i.param, from, to);
      replace_all(i.message, from, to);
    }
  std::vector<ParamIssue> unique;
  for (auto& i : issues) {
    const bool dup = std::any_of(unique.begin(), unique.end(), [&](const ParamIssue& u) {
      return u.param == i.param && u.message == i.message && u.warning == i.warning;
    });
    if (!dup) unique.push_back(std::move(i));
  }
  std::string errors;
  std::string first_param;
  std::vector<std::string> warnings;
  for (const auto& i : unique) {
    const std::string d = InputError::parameter_detail(i.param, i.message, context);
    if (i.warning) {
      warnings.push_back(InputError::format(file, 0, 0, d));
    } else if (first_param.empty()) {
      first_param = i.param;
      errors = d;
    } else {
      errors += "\n" + InputError::format(file, 0, 0, d);
    }
  }
  if (!first_param.empty()) throw InputError(file, 0, 0, errors).with_param(first_param);
  return warnings;
}

// ---- writer helpers ----

void write_level(ordered_json& o, const char* sym, const char* pos, const char* neg, double vpos,
                 double vneg) {
  if (vpos == vneg) {
    o[sym] = vpos;
  } else {
    o[pos] = vpos;
    o[neg] = vneg;
  }
}

void write_curve(ordered_json& o, const StribeckCurve<double>& c) {
  write_level(o, "Fc", "Fc_pos", "Fc_neg", c.Fc_pos, c.Fc_neg);
  write_level(o, "Fs", "Fs_pos", "Fs_neg", c.Fs_pos, c.Fs_neg);
  o["vs"] = c.vs;
  o["alpha"] = c.alpha;
  o["shape"] = c.shape == StribeckShape::exponential ? "exponential" : "rational";
}

template <std::size_t N>
ordered_json first_n(const std::array<double, N>& a, int n) {
  ordered_json arr = ordered_json::array();
  for (int i = 0; i < n && i < static_cast<int>(N); ++i)
    arr.push_back(a[static_cast<std::size_t>(i)]);
  return arr;
}

// ---- the field kinds of models/fields.hpp, read and written ----

// Reads the keys a descriptor's fields() names into its Params, collecting the renames of the
// levels given with symmetric keys.
struct Reader {
  const JsonFields& f;
  const json* params;
  Renames& renames;

  void number(std::string_view key, double& x, Unit) { x = f.number(std::string(key), x); }
  void curve(StribeckCurve<double>& c) {
    const Renames r = read_curve(f, c);
    renames.insert(renames.end(), r.begin(), r.end());
  }
  // Coulomb level only: Fs = Fc, so curve issues about Fs are issues about Fc.
  void coulomb_level(StribeckCurve<double>& c) {
    const bool sym = read_level(f, "Fc", "Fc_pos", "Fc_neg", c.Fc_pos, c.Fc_neg);
    c.Fs_pos = c.Fc_pos;
    c.Fs_neg = c.Fc_neg;
    renames.insert(renames.end(), {{"Fs_pos", "Fc_pos"}, {"Fs_neg", "Fc_neg"}});
    if (sym) renames.insert(renames.end(), {{"Fc_pos", "Fc"}, {"Fc_neg", "Fc"}});
  }
  void smoothing(SignSmoothing& s) {
    const std::string sm = f.string("smoothing", "tanh");
    if (sm == "atan") {
      s = SignSmoothing::atan;
    } else if (sm != "tanh") {
      f.fail("smoothing", "must be \"tanh\" or \"atan\", got \"" + sm + "\"");
    }
  }
  template <class A, class... B>
  void elements(int& n, const Elements<A>& first, const Elements<B>&... rest) {
    static_assert((std::is_same_v<A, B> && ...), "element arrays of one model have one size");
    n = read_elements<std::tuple_size_v<A>>(
        f, {{std::string(first.key), &first.values}, {std::string(rest.key), &rest.values}...});
  }
  // An array that may be empty (JsonFields::numbers wants at least one entry).
  std::vector<double> optional_array(const std::string& key, std::size_t max) const {
    std::vector<double> v;
    if (!f.has(key)) return v;
    const json& a = params->at(key);
    if (!(a.is_array() && a.empty())) v = f.numbers(key);
    if (v.size() > max)
      f.fail(key, "has " + std::to_string(v.size()) + " entries; at most " + std::to_string(max) +
                      " are supported");
    return v;
  }
  template <std::size_t N>
  void array(std::string_view key, int& count, std::array<double, N>& a, Unit) {
    const std::string k(key);
    const auto v = optional_array(k, N);
    if (!f.has(k)) return;
    count = static_cast<int>(v.size());
    std::copy(v.begin(), v.end(), a.begin());
  }
  template <std::size_t N1, std::size_t N2>
  void array_pair(std::string_view key1, std::string_view key2, std::string_view what, int& count,
                  std::array<double, N1>& a1, std::array<double, N2>& a2, Unit, Unit) {
    const std::string k1(key1), k2(key2);
    const auto v1 = optional_array(k1, N1);
    const auto v2 = optional_array(k2, N2);
    if (v1.size() != v2.size())
      f.fail(v1.size() < v2.size() ? k1 : k2,
             k1 + " and " + k2 + " must have the same number of entries (one per " +
                 std::string(what) + "), got " + std::to_string(v1.size()) + " and " +
                 std::to_string(v2.size()));
    count = static_cast<int>(v1.size());
    std::copy(v1.begin(), v1.end(), a1.begin());
    std::copy(v2.begin(), v2.end(), a2.begin());
  }
};

// The keys a descriptor's fields() names, in order (the allowed keys of its params object).
struct KeyLister {
  std::vector<std::string> keys;
  void add(std::string_view k) { keys.emplace_back(k); }
  template <class T>
  void number(std::string_view key, const T&, Unit) {
    add(key);
  }
  void curve(const StribeckCurve<double>&) {
    keys.insert(keys.end(), kCurveKeys.begin(), kCurveKeys.end());
  }
  void coulomb_level(const StribeckCurve<double>&) {
    keys.insert(keys.end(), kFcKeys.begin(), kFcKeys.end());
  }
  void smoothing(const SignSmoothing&) { add("smoothing"); }
  template <class... E>
  void elements(const int&, const E&... e) {
    add("n");
    (add(e.key), ...);
  }
  template <class A>
  void array(std::string_view key, const int&, const A&, Unit) {
    add(key);
  }
  template <class A1, class A2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, const int&, const A1&,
                  const A2&, Unit, Unit) {
    add(k1);
    add(k2);
  }
};

template <class I, class P>
std::vector<std::string> keys_of() {
  KeyLister l;
  P p{};
  I::fields(p, l);
  return l.keys;
}

// Read the params object of model I (its alternative form if it has one and the object uses it).
template <class I>
ModelFile read_model(const json* params, const std::string& file, const std::string& context,
                     const Accepted& accepted) {
  const std::string owner = "model '" + std::string(I::name) + "'";
  if constexpr (requires { typename I::AltForm; }) {
    using A = typename I::AltForm;
    bool alt = false;
    for (const auto k : A::keys)
      alt = alt || (params != nullptr && params->contains(std::string(k)));
    if (alt) {
      const JsonFields f(params, file, context, owner + " in " + std::string(A::label),
                         keys_of<A, typename A::Params>());
      for (const auto k : A::keys)
        if (!f.has(std::string(k))) f.fail(std::string(k), std::string(A::missing));
      typename A::Params d = A::defaults();
      Renames renames;
      Reader r{f, params, renames};
      A::fields(d, r);
      auto warnings = report(A::check(d), renames, file, context, accepted);
      return ModelFile{I::spec(A::convert(d)), std::move(warnings), std::nullopt};
    }
  }
  const JsonFields f(params, file, context, owner, keys_of<I, typename I::Params>());
  typename I::Params p = I::defaults();
  Renames renames;
  Reader r{f, params, renames};
  I::fields(p, r);
  auto warnings = report(I::check(p), renames, file, context, accepted);
  return ModelFile{I::spec(p), std::move(warnings), std::nullopt};
}

// Writes the keys a descriptor's fields() names.
struct Writer {
  ordered_json& o;
  void number(std::string_view key, double x, Unit) { o[std::string(key)] = x; }
  void curve(const StribeckCurve<double>& c) { write_curve(o, c); }
  void coulomb_level(const StribeckCurve<double>& c) {
    write_level(o, "Fc", "Fc_pos", "Fc_neg", c.Fc_pos, c.Fc_neg);
  }
  void smoothing(SignSmoothing s) {
    if (s == SignSmoothing::atan) o["smoothing"] = "atan";
  }
  template <class... E>
  void elements(int n, const E&... e) {
    o["n"] = n;
    ((o[std::string(e.key)] = first_n(e.values, n)), ...);
  }
  template <class A>
  void array(std::string_view key, int count, const A& a, Unit) {
    o[std::string(key)] = first_n(a, count);
  }
  template <class A1, class A2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, int count,
                  const A1& a1, const A2& a2, Unit, Unit) {
    o[std::string(k1)] = first_n(a1, count);
    o[std::string(k2)] = first_n(a2, count);
  }
};

}  // namespace

TemperatureDependence<double> temperature_law_from_json(const nlohmann::json& j,
                                                        const std::string& file,
                                                        const std::string& context) {
  if (!j.is_object())
    detail::fail_file(file, context, "expected an object, got " + detail::type_of(j));
  const detail::JsonFields f(&j, file, context, "the temperature dependence",
                             {"law", "T_ref", "kT", "kT_v"});
  TemperatureDependence<double> out;
  if (!f.has("law") || !j["law"].is_string() ||
      !parse_temperature_law(j["law"].get<std::string>(), out.law))
    f.fail("law", "must be \"linear\" or \"exponential\"" +
                      (f.has("law") ? ", got " + j["law"].dump() : std::string(" (missing)")));
  const std::pair<const char*, double*> numbers[] = {
      {"T_ref", &out.T_ref}, {"kT", &out.kT}, {"kT_v", &out.kT_v}};
  for (const auto& [k, dst] : numbers) {
    if (!f.has(k))
      f.fail(k, std::string("missing: ") +
                    (std::string_view(k) == "T_ref"
                         ? "the reference temperature of the levels [degC]"
                         : "the relative change per kelvin [1/K] (give 0 for none)"));
    *dst = f.number(k, 0);
    if (!std::isfinite(*dst)) f.fail(k, "must be a finite number, got " + j[k].dump());
  }
  return out;
}

nlohmann::ordered_json temperature_law_json(const TemperatureDependence<double>& law) {
  return {{"law", std::string(temperature_law_name(law.law))},
          {"T_ref", law.T_ref},
          {"kT", law.kT},
          {"kT_v", law.kT_v}};
}

ModelFile model_from_json(const json& j, const std::string& file, const std::string& context,
                          ModelTemperature temperature) {
  if (!j.is_object())
    detail::fail_file(
        file, context,
        "expected a JSON object {\"model\": ..., \"params\": {...}}, got " + detail::type_of(j));
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "model" && it.key() != "params" && it.key() != "description" &&
        it.key() != "accepted_warnings" && it.key() != "temperature")
      detail::fail_file(file, context,
                        "unknown key '" + it.key() +
                            "' (allowed: model, params, description, accepted_warnings, "
                            "temperature)");
  if (j.contains("temperature") && temperature == ModelTemperature::refused)
    detail::fail_file(
        file, context,
        "key 'temperature': a model's temperature law runs only in `simulate --model "
        "MODEL.json --temperature COLUMN` (Python simulate(..., temperature=...)); here "
        "give a model without one (its levels at the temperature you want: "
        "docs/models.md, \"Temperature-dependent friction\")");
  if (!j.contains("model"))
    detail::fail_file(file, context,
                      "missing key 'model' (one of: " + join_list(model_names()) + ")");
  if (!j["model"].is_string())
    detail::fail_file(file, context,
                      "key 'model': expected a string, got " + detail::type_of(j["model"]));
  if (j.contains("description") && !j["description"].is_string())
    detail::fail_file(
        file, context,
        "key 'description': expected a string, got " + detail::type_of(j["description"]));
  const json* params = nullptr;
  if (j.contains("params")) {
    params = &j["params"];
    if (!params->is_object())
      detail::fail_file(file, context,
                        "key 'params': expected an object, got " + detail::type_of(*params));
  }
  const Accepted accepted = accepted_warnings(j, file, context);
  const std::string name = j["model"].get<std::string>();
  ModelFile out;
  if (!with_model(name, [&]<class I>(std::type_identity<I>) {
        out = read_model<I>(params, file, context, accepted);
      }))
    detail::fail_file(
        file, context,
        "unknown model '" + name + "' (known models: " + join_list(model_names()) + ")");
  if (j.contains("temperature"))
    out.temperature = temperature_law_from_json(
        j["temperature"], file, context.empty() ? "temperature" : context + ": temperature");
  return out;
}

ModelFile parse_model_json(std::string_view text, const std::string& file,
                           ModelTemperature temperature) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(j, file, {detail::JsonKind::model});
  return model_from_json(j, file, "", temperature);
}

ModelFile read_model_file(const std::string& path, ModelTemperature temperature) {
  return parse_model_json(read_text_file(path, "a MODEL.json file"), path, temperature);
}

ordered_json to_json(const ModelSpec& spec) {
  ordered_json o = ordered_json::object();
  visit_model(spec, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    if (const char* needs = I::write_requirement(p))
      throw std::invalid_argument("to_json: a '" + std::string(I::name) + "' model needs " + needs);
    ordered_json params = ordered_json::object();
    Writer w{params};
    I::fields(p, w);
    o["model"] = std::string(I::name);
    o["params"] = std::move(params);
  });
  return o;
}

std::string to_json_text(const ModelSpec& spec) { return to_json(spec).dump(2) + "\n"; }

}  // namespace frictionlab::io
