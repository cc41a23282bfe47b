// frictionlab: SYSTEM.json reader (include/frictionlab/io/system_json.hpp).
#include "frictionlab/io/system_json.hpp"

#include <cmath>
#include <filesystem>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {

namespace {
// "lugre, dahl or elasto-plastic": the models a system can carry (sim::CoupledModels).
std::string coupled_or() {
  std::string s = join_list(model_names<sim::CoupledModels>());
  if (const auto last = s.rfind(", "); last != std::string::npos) s.replace(last, 2, " or ");
  return s;
}
}  // namespace
namespace {

using detail::JsonFields;
using nlohmann::json;

// Value checks of the mechanical parameters (ranges from sim/systems.hpp).
double finite(const JsonFields& f, const std::string& key, double def) {
  const double x = f.number(key, def);
  if (!std::isfinite(x)) f.fail(key, "must be a finite number, got " + format_exact(x));
  return x;
}
double positive(const JsonFields& f, const std::string& key, double def) {
  const double x = finite(f, key, def);
  if (!(x > 0)) f.fail(key, "must be > 0, got " + format_exact(x));
  return x;
}
double nonnegative(const JsonFields& f, const std::string& key, double def) {
  const double x = finite(f, key, def);
  if (!(x >= 0)) f.fail(key, "must be >= 0, got " + format_exact(x));
  return x;
}

void read_torque_csv(const std::string& json_file, const std::string& rel, sim::JointSpec& s) {
  const std::filesystem::path p(detail::path_beside(json_file, rel));
  const CsvTable t = read_csv(p.string());
  require_strictly_increasing(t, "t");
  const auto& tau = t.column("tau");
  if (t.rows() < 2)
    throw InputError(p.string(), 0, 0,
                     "the torque record needs at least 2 rows, found " + std::to_string(t.rows()));
  s.tau_t = t.column("t");
  s.tau = tau;
}

}  // namespace

SystemFile parse_system_json(std::string_view text, const std::string& file) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(j, file, {detail::JsonKind::system});
  if (!j.is_object())
    detail::fail_file(file, "",
                      "expected a JSON object {\"system\": ..., \"params\": {...}, \"friction\": "
                      "{...}}, got " +
                          detail::type_of(j));
  SystemFile out;
  if (!j.contains("system") || !j["system"].is_string())
    detail::fail_file(file, "", "missing key 'system' (a string: stick-slip or joint)");
  const std::string sys = j["system"].get<std::string>();
  if (sys == "stick-slip") {
    out.kind = sim::SystemKind::stick_slip;
  } else if (sys == "joint") {
    out.kind = sim::SystemKind::joint;
  } else {
    detail::fail_file(file, "", "unknown system '" + sys + "' (known systems: stick-slip, joint)");
  }
  std::vector<std::string> top = {"system", "params", "friction", "description"};
  if (out.kind == sim::SystemKind::joint) top.push_back("torque_csv");
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const auto& k : top) known = known || k == it.key();
    if (!known)
      detail::fail_file(file, "",
                        "unknown key '" + it.key() + "' for system '" + sys +
                            "' (allowed: " + join_list(top) + ")");
  }
  if (j.contains("description") && !j["description"].is_string())
    detail::fail_file(
        file, "", "key 'description': expected a string, got " + detail::type_of(j["description"]));
  const json* params = nullptr;
  if (j.contains("params")) {
    params = &j["params"];
    if (!params->is_object())
      detail::fail_file(file, "",
                        "key 'params': expected an object, got " + detail::type_of(*params));
  }

  if (out.kind == sim::SystemKind::stick_slip) {
    const JsonFields f(params, file, "", "system 'stick-slip'",
                       {"m", "k", "v_drive", "belt", "x0", "v0", "t_end"});
    auto& s = out.stick_slip;
    s.m = positive(f, "m", s.m);
    s.k = positive(f, "k", s.k);
    s.v_drive = finite(f, "v_drive", s.v_drive);
    s.belt = f.boolean("belt", s.belt);
    s.x0 = finite(f, "x0", s.x0);
    s.v0 = finite(f, "v0", s.v0);
    s.t_end = positive(f, "t_end", s.t_end);
  } else {
    const JsonFields f(
        params, file, "", "system 'joint'",
        {"I", "mgCx", "mgCy", "q0", "qd0", "t_end", "tau_offset", "tau_amp", "tau_freq"});
    auto& s = out.joint;
    s.I = positive(f, "I", s.I);
    s.mgCx = finite(f, "mgCx", s.mgCx);
    s.mgCy = finite(f, "mgCy", s.mgCy);
    s.q0 = finite(f, "q0", s.q0);
    s.qd0 = finite(f, "qd0", s.qd0);
    s.t_end = positive(f, "t_end", s.t_end);
    s.tau_offset = finite(f, "tau_offset", s.tau_offset);
    s.tau_amp = finite(f, "tau_amp", s.tau_amp);
    s.tau_freq = nonnegative(f, "tau_freq", s.tau_freq);
    if (j.contains("torque_csv")) {
      if (!j["torque_csv"].is_string())
        detail::fail_file(file, "",
                          "key 'torque_csv': expected a string (a CSV file name), got " +
                              detail::type_of(j["torque_csv"]));
      for (const char* k : {"tau_offset", "tau_amp", "tau_freq"})
        if (f.has(k))
          f.fail(k,
                 "cannot be combined with torque_csv (the torque is either the record or the "
                 "sine)");
      read_torque_csv(file, j["torque_csv"].get<std::string>(), s);
    }
  }

  if (!j.contains("friction"))
    detail::fail_file(file, "",
                      "missing key 'friction' (a model object {\"model\": \"lugre\", \"params\": "
                      "{...}}; " +
                          coupled_or() + ")");
  ModelFile m = model_from_json(j["friction"], file, "friction");
  out.friction_model = model_name(m.spec);
  out.warnings = std::move(m.warnings);
  bool coupled = false;
  visit_model(m.spec, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    // (a fold over the list: clang rejects the discarded branch of a nested generic lambda)
    if constexpr ([]<class... Cs>(ModelList<Cs...>) {
                    return (std::is_same_v<Cs, I> || ...);
                  }(sim::CoupledModels{})) {
      out.friction = p;
      coupled = true;
    }
  });
  if (!coupled)
    detail::fail_file(file, "friction",
                      "model '" + out.friction_model +
                          "' cannot be coupled to a mechanical system (supported: " +
                          join_list(model_names<sim::CoupledModels>()) + ")");
  return out;
}

SystemFile read_system_file(const std::string& path) {
  return parse_system_json(read_text_file(path, "a SYSTEM.json file"), path);
}

}  // namespace frictionlab::io
