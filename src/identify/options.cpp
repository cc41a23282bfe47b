// frictionlab identify: model and method names (the model names and which variants each takes:
// the model registry, models/registry.hpp).
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/models/registry.hpp"

namespace frictionlab::identify {

const std::vector<std::string>& fit_model_names() {
  static const std::vector<std::string> names = frictionlab::fit_model_names();
  return names;
}

namespace {

// The fit facts of a registered model name (fit = false if none or not fittable).
FitFacts facts_of(std::string_view name) {
  FitFacts f;
  with_model(name, [&]<class I>(std::type_identity<I>) { f = I::fit; });
  return f;
}

// "maxwell-slip and gms": the models that take an element count.
std::string element_models() {
  std::vector<std::string> names;
  for_each_model([&]<class I>(std::type_identity<I>) {
    if (I::fit.fit && I::fit.elements) names.emplace_back(I::name);
    return false;
  });
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

std::string all_names() {
  const std::string s = join_list(fit_model_names());
  const auto& names = fit_model_names();
  std::string example;
  for (auto it = names.rbegin(); it != names.rend() && example.empty(); ++it)
    if (facts_of(*it).elements) example = *it + ":4";
  return s + " (" + element_models() + " take an element count, e.g. " + example + ")";
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
    const FitFacts f = facts_of(base);
    if (!(f.fit && f.elements))
      throw FitError("model '" + std::string(name) + "': only " + element_models() +
                     " take an element count");
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
  const FitFacts f = facts_of(base);
  if (!f.fit || (m.asymmetric && !f.asym) || (m.shape == StribeckShape::rational && !f.rational))
    throw FitError("unknown model '" + std::string(name) + "'; known: " + all_names());
  m.name = std::string(base);
  if (elements > 0) m.elements = elements;
  return m;
}

void check_model(const ModelChoice& m) {
  const FitFacts f = facts_of(m.name);
  if (!f.fit) throw FitError("unknown model '" + m.name + "'; known: " + all_names());
  if (m.asymmetric && !f.asym)
    throw FitError("model " + m.name + " has no asymmetric variant (asymmetric = true)");
  if (m.shape == StribeckShape::rational && !f.rational)
    throw FitError("model " + m.name + " has no rational Stribeck variant (shape = rational)");
  if (f.elements && (m.elements < 1 || m.elements > kMaxFitElements))
    throw FitError("model " + model_name(m) + ": the element count must be 1.." +
                   std::to_string(kMaxFitElements));
  if (m.alpha && !(*m.alpha > 0 && std::isfinite(*m.alpha)))
    throw FitError("alpha must be a finite number > 0, got " + format_number(*m.alpha));
}

std::string model_name(const ModelChoice& m) {
  std::string s = m.name;
  if (m.shape == StribeckShape::rational) s += "-rational";
  if (m.asymmetric) s += "-asym";
  if (facts_of(m.name).elements) {
    s += ':';
    s += std::to_string(m.elements);
  }
  return s;
}

Hold parse_hold(std::string_view name) {
  if (const auto h = parse_name(kHoldNames, name)) return *h;
  throw FitError("unknown hold '" + std::string(name) + "'; known: " + known_names(kHoldNames));
}

FitMethod parse_method(std::string_view name) {
  if (const auto m = parse_name(kFitMethodNames, name)) return *m;
  throw FitError("unknown method '" + std::string(name) +
                 "'; known: " + known_names(kFitMethodNames));
}

std::string method_name(FitMethod m) { return std::string(name_of(kFitMethodNames, m, "?")); }

}  // namespace frictionlab::identify
