// frictionlab identify: model and method names.
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/identify/options.hpp"

namespace frictionlab::identify {

const std::vector<std::string>& fit_model_names() {
  static const std::vector<std::string> names = {
      "coulomb",        "coulomb-asym",   "viscous",           "coulomb-viscous",
      "coulomb-viscous-asym", "stribeck", "stribeck-asym",     "stribeck-rational",
      "lugre",          "lugre-asym",     "lugre-rational",    "dahl",
      "elasto-plastic", "elasto-plastic-asym", "maxwell-slip", "gms"};
  return names;
}

namespace {

std::string all_names() {
  std::string s;
  for (const auto& n : fit_model_names()) s += (s.empty() ? "" : ", ") + n;
  return s + " (maxwell-slip and gms take an element count, e.g. gms:4)";
}

}  // namespace

ModelChoice parse_model(std::string_view name) {
  ModelChoice m;
  std::string_view base = name;
  int elements = 0;
  if (const auto colon = name.find(':'); colon != std::string_view::npos) {
    base = name.substr(0, colon);
    const auto num = name.substr(colon + 1);
    const auto r = std::from_chars(num.data(), num.data() + num.size(), elements);
    if (r.ec != std::errc() || r.ptr != num.data() + num.size() || elements < 1 ||
        elements > kMaxFitElements)
      throw FitError("model '" + std::string(name) + "': the element count must be an integer 1.." +
                     std::to_string(kMaxFitElements));
    if (base != "maxwell-slip" && base != "gms")
      throw FitError("model '" + std::string(name) +
                     "': only maxwell-slip and gms take an element count");
  }
  auto ends = [&](std::string_view suffix) {
    if (base.size() > suffix.size() && base.substr(base.size() - suffix.size()) == suffix) {
      base.remove_suffix(suffix.size());
      return true;
    }
    return false;
  };
  if (ends("-asym")) m.asymmetric = true;
  if (ends("-rational")) m.shape = StribeckShape::rational;
  if (base == "coulomb") m.kind = ModelKind::coulomb;
  else if (base == "viscous") m.kind = ModelKind::viscous;
  else if (base == "coulomb-viscous") m.kind = ModelKind::coulomb_viscous;
  else if (base == "stribeck") m.kind = ModelKind::stribeck;
  else if (base == "lugre") m.kind = ModelKind::lugre;
  else if (base == "dahl") m.kind = ModelKind::dahl;
  else if (base == "elasto-plastic") m.kind = ModelKind::elasto_plastic;
  else if (base == "maxwell-slip") m.kind = ModelKind::maxwell_slip;
  else if (base == "gms") m.kind = ModelKind::gms;
  else
    throw FitError("unknown model '" + std::string(name) + "'; known: " + all_names());
  const bool has_fs = m.kind == ModelKind::stribeck || m.kind == ModelKind::lugre ||
                      m.kind == ModelKind::elasto_plastic || m.kind == ModelKind::gms;
  const bool has_fc = m.kind != ModelKind::viscous && m.kind != ModelKind::dahl &&
                      m.kind != ModelKind::maxwell_slip;
  if ((m.asymmetric && !has_fc) || (m.shape == StribeckShape::rational && !has_fs))
    throw FitError("unknown model '" + std::string(name) + "'; known: " + all_names());
  if (elements > 0) m.elements = elements;
  return m;
}

std::string model_name(const ModelChoice& m) {
  std::string s;
  switch (m.kind) {
    case ModelKind::coulomb: s = "coulomb"; break;
    case ModelKind::viscous: s = "viscous"; break;
    case ModelKind::coulomb_viscous: s = "coulomb-viscous"; break;
    case ModelKind::stribeck: s = "stribeck"; break;
    case ModelKind::lugre: s = "lugre"; break;
    case ModelKind::dahl: s = "dahl"; break;
    case ModelKind::elasto_plastic: s = "elasto-plastic"; break;
    case ModelKind::maxwell_slip: s = "maxwell-slip"; break;
    case ModelKind::gms: s = "gms"; break;
  }
  if (m.shape == StribeckShape::rational) s += "-rational";
  if (m.asymmetric) s += "-asym";
  if (m.kind == ModelKind::maxwell_slip || m.kind == ModelKind::gms)
  {
    s += ':';
    s += std::to_string(m.elements);
  }
  return s;
}

FitMethod parse_method(std::string_view name) {
  if (name == "lsq") return FitMethod::lsq;
  if (name == "grid") return FitMethod::grid;
  if (name == "two-stage") return FitMethod::two_stage;
  throw FitError("unknown method '" + std::string(name) + "'; known: lsq, grid, two-stage");
}

std::string method_name(FitMethod m) {
  switch (m) {
    case FitMethod::lsq: return "lsq";
    case FitMethod::grid: return "grid";
    case FitMethod::two_stage: return "two-stage";
  }
  return "?";
}

}  // namespace frictionlab::identify
