// frictionlab: MODEL.json reader and writer (include/frictionlab/io/model_json.hpp).
#include "frictionlab/io/model_json.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using detail::JsonFields;
using nlohmann::json;
using nlohmann::ordered_json;

// Keys of the Stribeck curve in a model's params object (docs/models.md, "Model file names").
const std::vector<std::string> kFcKeys = {"Fc", "Fc_pos", "Fc_neg"};
const std::vector<std::string> kCurveKeys = {"Fc",     "Fc_pos", "Fc_neg", "Fs",   "Fs_pos",
                                             "Fs_neg", "vs",     "alpha",  "shape"};

std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Renames applied to issue names and messages, in order (e.g. Fc_pos -> Fc when the file used
// the symmetric key).
using Renames = std::vector<std::pair<std::string, std::string>>;

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

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

// Throw for the errors among `issues`; return the warnings, formatted.
std::vector<std::string> report(std::vector<ParamIssue> issues, const Renames& renames,
                                const std::string& file, const std::string& context) {
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

// ---- readers, one per model name ----

ModelFile read_static(StaticKind kind, const json* params, const std::string& file,
                      const std::string& context, const std::string& name) {
  StaticSpec s;
  s.kind = kind;
  auto& p = s.params;
  Renames renames;
  std::vector<std::string> allowed;
  switch (kind) {
    case StaticKind::coulomb:
      allowed = concat({kFcKeys, {"v_smooth", "smoothing"}});
      break;
    case StaticKind::viscous:
      allowed = {"sigma2"};
      break;
    case StaticKind::coulomb_viscous:
      allowed = concat({kFcKeys, {"sigma2", "v_smooth", "smoothing"}});
      break;
    case StaticKind::stribeck:
      allowed = concat({kCurveKeys, {"sigma2", "v_smooth", "smoothing"}});
      break;
  }
  const JsonFields f(params, file, context, "model '" + name + "'", allowed);
  if (kind == StaticKind::viscous) {
    p.curve.Fc_pos = p.curve.Fc_neg = p.curve.Fs_pos = p.curve.Fs_neg = 0;
  } else if (kind == StaticKind::stribeck) {
    renames = read_curve(f, p.curve);
  } else {
    // Coulomb level only: Fs = Fc, so curve issues about Fs are issues about Fc.
    const bool sym = read_level(f, "Fc", "Fc_pos", "Fc_neg", p.curve.Fc_pos, p.curve.Fc_neg);
    p.curve.Fs_pos = p.curve.Fc_pos;
    p.curve.Fs_neg = p.curve.Fc_neg;
    renames = {{"Fs_pos", "Fc_pos"}, {"Fs_neg", "Fc_neg"}};
    if (sym) renames.insert(renames.end(), {{"Fc_pos", "Fc"}, {"Fc_neg", "Fc"}});
  }
  if (kind != StaticKind::coulomb) p.sigma2 = f.number("sigma2", p.sigma2);
  if (kind != StaticKind::viscous) {
    p.v_smooth = f.number("v_smooth", p.v_smooth);
    const std::string sm = f.string("smoothing", "tanh");
    if (sm == "atan") {
      p.smoothing = SignSmoothing::atan;
    } else if (sm != "tanh") {
      f.fail("smoothing", "must be \"tanh\" or \"atan\", got \"" + sm + "\"");
    }
  }
  ModelFile out{s, {}};
  out.warnings = report(frictionlab::check(p), renames, file, context);
  return out;
}

ModelFile read_lugre(const json* params, const std::string& file, const std::string& context) {
  const std::vector<std::string> velocity_keys =
      concat({{"sigma0", "sigma1", "sigma2"}, kCurveKeys, {"vd"}});
  const std::vector<std::string> displacement_keys = {"sigma0", "sigma1", "sigma2", "a1",
                                                      "a2",     "vs",     "alpha"};
  const bool displacement = params != nullptr && (params->contains("a1") || params->contains("a2"));
  LuGre<double>::Params p;
  if (displacement) {
    // Displacement-unit form (docs/models.md, LuGre): a1, a2 [m] instead of Fc, Fs, rational
    // shape implied.
    const JsonFields f(params, file, context, "model 'lugre' in the displacement form (a1, a2)",
                       displacement_keys);
    for (const char* k : {"a1", "a2"})
      if (!f.has(k)) f.fail(k, "missing: the displacement form needs both a1 and a2");
    LuGreDisplacementForm<double> d;
    d.sigma0 = f.number("sigma0", p.sigma0);
    d.sigma1 = f.number("sigma1", p.sigma1);
    d.sigma2 = f.number("sigma2", p.sigma2);
    d.a1 = f.number("a1", 0);
    d.a2 = f.number("a2", 0);
    d.vs = f.number("vs", p.curve.vs);
    d.alpha = f.number("alpha", p.curve.alpha);
    auto warnings = report(frictionlab::check(d), {}, file, context);
    return ModelFile{lugre_from_displacement_form(d), std::move(warnings)};
  }
  const JsonFields f(params, file, context, "model 'lugre'", velocity_keys);
  p.sigma0 = f.number("sigma0", p.sigma0);
  p.sigma1 = f.number("sigma1", p.sigma1);
  p.sigma2 = f.number("sigma2", p.sigma2);
  const Renames renames = read_curve(f, p.curve);
  p.vd = f.number("vd", p.vd);
  auto warnings = report(frictionlab::check(p), renames, file, context);
  return ModelFile{p, std::move(warnings)};
}

ModelFile read_dahl(const json* params, const std::string& file, const std::string& context) {
  const JsonFields f(params, file, context, "model 'dahl'", {"sigma0", "Fc", "n"});
  Dahl<double>::Params p;
  p.sigma0 = f.number("sigma0", p.sigma0);
  p.Fc = f.number("Fc", p.Fc);
  p.n = f.number("n", p.n);
  auto warnings = report(frictionlab::check(p), {}, file, context);
  return ModelFile{p, std::move(warnings)};
}

ModelFile read_elasto_plastic(const json* params, const std::string& file,
                              const std::string& context) {
  const JsonFields f(params, file, context, "model 'elasto-plastic'",
                     concat({{"sigma0", "sigma1", "sigma2"}, kCurveKeys, {"z_ba"}}));
  ElastoPlastic<double>::Params p;
  p.sigma0 = f.number("sigma0", p.sigma0);
  p.sigma1 = f.number("sigma1", p.sigma1);
  p.sigma2 = f.number("sigma2", p.sigma2);
  const Renames renames = read_curve(f, p.curve);
  p.z_ba = f.number("z_ba", p.z_ba);
  auto warnings = report(frictionlab::check(p), renames, file, context);
  return ModelFile{p, std::move(warnings)};
}

ModelFile read_maxwell_slip(const json* params, const std::string& file,
                            const std::string& context) {
  const JsonFields f(params, file, context, "model 'maxwell-slip'", {"n", "k", "Delta", "sigma2"});
  MaxwellSlip<double>::Params p;
  p.n = read_elements<MaxwellSlip<double>::kMaxElements>(f, {{"k", &p.k}, {"Delta", &p.Delta}});
  p.sigma2 = f.number("sigma2", p.sigma2);
  auto warnings = report(frictionlab::check(p), {}, file, context);
  return ModelFile{p, std::move(warnings)};
}

ModelFile read_modified_stribeck(const json* params, const std::string& file,
                                 const std::string& context) {
  const JsonFields f(params, file, context, "model 'modified-stribeck'",
                     concat({{"k", "sigma2"}, kCurveKeys}));
  ModifiedStribeck<double>::Params p;
  p.k = f.number("k", p.k);
  p.sigma2 = f.number("sigma2", p.sigma2);
  const Renames renames = read_curve(f, p.curve);
  auto warnings = report(frictionlab::check(p), renames, file, context);
  return ModelFile{p, std::move(warnings)};
}

ModelFile read_gms(const json* params, const std::string& file, const std::string& context) {
  const JsonFields f(params, file, context, "model 'gms'",
                     concat({{"n", "k", "nu", "C", "sigma2"}, kCurveKeys}));
  GMS<double>::Params p;
  p.n = read_elements<GMS<double>::kMaxElements>(f, {{"k", &p.k}, {"nu", &p.nu}});
  p.C = f.number("C", p.C);
  p.sigma2 = f.number("sigma2", p.sigma2);
  const Renames renames = read_curve(f, p.curve);
  auto warnings = report(frictionlab::check(p), renames, file, context);
  return ModelFile{p, std::move(warnings)};
}

// Joint LuGre (reference 004; models/joint_lugre.hpp): cv and Fs/delta are arrays whose
// lengths give n_viscous and n_stribeck (an empty array: no such terms).
ModelFile read_joint_lugre(const json* params, const std::string& file,
                           const std::string& context) {
  using M = JointLuGre<double>;
  const JsonFields f(params, file, context, "model 'joint-lugre'",
                     {"sigma0", "sigma1", "Fc", "cv", "Fs", "delta", "Omega_s", "K"});
  M::Params p;
  p.sigma0 = f.number("sigma0", p.sigma0);
  p.sigma1 = f.number("sigma1", p.sigma1);
  p.Fc = f.number("Fc", p.Fc);
  p.Omega_s = f.number("Omega_s", p.Omega_s);
  p.K = f.number("K", p.K);
  // An array that may be empty (JsonFields::numbers wants at least one entry).
  auto array = [&](const std::string& key, std::size_t max) {
    std::vector<double> v;
    if (!f.has(key)) return v;
    const json& a = params->at(key);
    if (!(a.is_array() && a.empty())) v = f.numbers(key);
    if (v.size() > max)
      f.fail(key, "has " + std::to_string(v.size()) + " entries; at most " +
                      std::to_string(max) + " are supported");
    return v;
  };
  const auto cv = array("cv", M::kMaxViscous);
  const auto Fs = array("Fs", M::kMaxStribeck);
  const auto delta = array("delta", M::kMaxStribeck);
  if (f.has("cv")) {
    p.n_viscous = static_cast<int>(cv.size());
    std::copy(cv.begin(), cv.end(), p.cv.begin());
  }
  if (Fs.size() != delta.size())
    f.fail(Fs.size() < delta.size() ? "Fs" : "delta",
           "Fs and delta must have the same number of entries (one per Stribeck term), got " +
               std::to_string(Fs.size()) + " and " + std::to_string(delta.size()));
  p.n_stribeck = static_cast<int>(Fs.size());
  std::copy(Fs.begin(), Fs.end(), p.Fs.begin());
  std::copy(delta.begin(), delta.end(), p.delta.begin());
  auto warnings = report(frictionlab::check(p), {}, file, context);
  return ModelFile{p, std::move(warnings)};
}

// ---- writer ----

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

ordered_json static_params(const StaticSpec& s) {
  const auto& p = s.params;
  const auto& c = p.curve;
  ordered_json o = ordered_json::object();
  auto require = [&](bool ok, const char* what) {
    if (!ok)
      throw std::invalid_argument(std::string("to_json: a '") + static_kind_name(s.kind) +
                                  "' model needs " + what);
  };
  switch (s.kind) {
    case StaticKind::coulomb:
      require(c.Fs_pos == c.Fc_pos && c.Fs_neg == c.Fc_neg && p.sigma2 == 0,
              "Fs = Fc and sigma2 = 0");
      write_level(o, "Fc", "Fc_pos", "Fc_neg", c.Fc_pos, c.Fc_neg);
      o["v_smooth"] = p.v_smooth;
      if (p.smoothing == SignSmoothing::atan) o["smoothing"] = "atan";
      break;
    case StaticKind::viscous:
      require(c.Fc_pos == 0 && c.Fc_neg == 0 && c.Fs_pos == 0 && c.Fs_neg == 0, "Fc = Fs = 0");
      o["sigma2"] = p.sigma2;
      break;
    case StaticKind::coulomb_viscous:
      require(c.Fs_pos == c.Fc_pos && c.Fs_neg == c.Fc_neg, "Fs = Fc");
      write_level(o, "Fc", "Fc_pos", "Fc_neg", c.Fc_pos, c.Fc_neg);
      o["sigma2"] = p.sigma2;
      o["v_smooth"] = p.v_smooth;
      if (p.smoothing == SignSmoothing::atan) o["smoothing"] = "atan";
      break;
    case StaticKind::stribeck:
      write_curve(o, c);
      o["sigma2"] = p.sigma2;
      o["v_smooth"] = p.v_smooth;
      if (p.smoothing == SignSmoothing::atan) o["smoothing"] = "atan";
      break;
  }
  return o;
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

ModelFile model_from_json(const json& j, const std::string& file, const std::string& context) {
  if (!j.is_object())
    detail::fail_file(
        file, context,
        "expected a JSON object {\"model\": ..., \"params\": {...}}, got " + detail::type_of(j));
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "model" && it.key() != "params" && it.key() != "description")
      detail::fail_file(file, context,
                        "unknown key '" + it.key() + "' (allowed: model, params, description)");
  if (!j.contains("model"))
    detail::fail_file(file, context,
                      "missing key 'model' (one of: " + detail::join(model_names()) + ")");
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
  const std::string name = j["model"].get<std::string>();
  if (name == "coulomb") return read_static(StaticKind::coulomb, params, file, context, name);
  if (name == "viscous") return read_static(StaticKind::viscous, params, file, context, name);
  if (name == "coulomb-viscous")
    return read_static(StaticKind::coulomb_viscous, params, file, context, name);
  if (name == "stribeck") return read_static(StaticKind::stribeck, params, file, context, name);
  if (name == "lugre") return read_lugre(params, file, context);
  if (name == "dahl") return read_dahl(params, file, context);
  if (name == "elasto-plastic") return read_elasto_plastic(params, file, context);
  if (name == "maxwell-slip") return read_maxwell_slip(params, file, context);
  if (name == "modified-stribeck") return read_modified_stribeck(params, file, context);
  if (name == "gms") return read_gms(params, file, context);
  if (name == "joint-lugre") return read_joint_lugre(params, file, context);
  detail::fail_file(
      file, context,
      "unknown model '" + name + "' (known models: " + detail::join(model_names()) + ")");
}

ModelFile parse_model_json(std::string_view text, const std::string& file) {
  return model_from_json(detail::parse_json_text(text, file), file);
}

ModelFile read_model_file(const std::string& path) {
  return parse_model_json(read_text_file(path), path);
}

ordered_json to_json(const ModelSpec& spec) {
  ordered_json params = std::visit(Overloaded{
                                       [](const StaticSpec& s) { return static_params(s); },
                                       [](const LuGre<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["sigma0"] = p.sigma0;
                                         o["sigma1"] = p.sigma1;
                                         o["sigma2"] = p.sigma2;
                                         write_curve(o, p.curve);
                                         o["vd"] = p.vd;
                                         return o;
                                       },
                                       [](const Dahl<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["sigma0"] = p.sigma0;
                                         o["Fc"] = p.Fc;
                                         o["n"] = p.n;
                                         return o;
                                       },
                                       [](const ElastoPlastic<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["sigma0"] = p.sigma0;
                                         o["sigma1"] = p.sigma1;
                                         o["sigma2"] = p.sigma2;
                                         write_curve(o, p.curve);
                                         o["z_ba"] = p.z_ba;
                                         return o;
                                       },
                                       [](const MaxwellSlip<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["n"] = p.n;
                                         o["k"] = first_n(p.k, p.n);
                                         o["Delta"] = first_n(p.Delta, p.n);
                                         o["sigma2"] = p.sigma2;
                                         return o;
                                       },
                                       [](const ModifiedStribeck<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["k"] = p.k;
                                         o["sigma2"] = p.sigma2;
                                         write_curve(o, p.curve);
                                         return o;
                                       },
                                       [](const GMS<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["n"] = p.n;
                                         o["k"] = first_n(p.k, p.n);
                                         o["nu"] = first_n(p.nu, p.n);
                                         o["C"] = p.C;
                                         o["sigma2"] = p.sigma2;
                                         write_curve(o, p.curve);
                                         return o;
                                       },
                                       [](const JointLuGre<double>::Params& p) {
                                         ordered_json o = ordered_json::object();
                                         o["sigma0"] = p.sigma0;
                                         o["sigma1"] = p.sigma1;
                                         o["Fc"] = p.Fc;
                                         o["cv"] = first_n(p.cv, p.n_viscous);
                                         o["Fs"] = first_n(p.Fs, p.n_stribeck);
                                         o["delta"] = first_n(p.delta, p.n_stribeck);
                                         o["Omega_s"] = p.Omega_s;
                                         o["K"] = p.K;
                                         return o;
                                       },
                                   },
                                   spec);
  ordered_json o = ordered_json::object();
  o["model"] = model_name(spec);
  o["params"] = std::move(params);
  return o;
}

std::string to_json_text(const ModelSpec& spec) { return to_json(spec).dump(2) + "\n"; }

}  // namespace frictionlab::io
