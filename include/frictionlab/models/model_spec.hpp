// frictionlab: ModelSpec, the parameters of any friction model in double precision, and the one
// table of model names (the names of MODEL.json files, `simulate --model` and docs/models.md).
// Header-only, std and models only: io reads and writes it (io/model_json.hpp), sim runs it over
// a sampled input (sim/model_run.hpp), identify returns a fitted one (io::model_spec).
#pragma once

#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "frictionlab/models/dahl.hpp"
#include "frictionlab/models/elastoplastic.hpp"
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/maxwell_slip.hpp"
#include "frictionlab/models/stribeck.hpp"
#include "frictionlab/models/validation.hpp"

namespace frictionlab {

/// Which special case of StaticFriction a static model names.
enum class StaticKind { coulomb, viscous, coulomb_viscous, stribeck };

/// The name of a static kind ("coulomb", "viscous", "coulomb-viscous", "stribeck").
inline const char* static_kind_name(StaticKind k) {
  switch (k) {
    case StaticKind::coulomb:
      return "coulomb";
    case StaticKind::viscous:
      return "viscous";
    case StaticKind::coulomb_viscous:
      return "coulomb-viscous";
    case StaticKind::stribeck:
      return "stribeck";
  }
  return "stribeck";
}

struct StaticSpec {
  StaticKind kind = StaticKind::stribeck;
  StaticFriction<double>::Params params{};
};

/// The parameters of any model a MODEL.json file can describe, in double precision.
using ModelSpec = std::variant<StaticSpec, LuGre<double>::Params, Dahl<double>::Params,
                               ElastoPlastic<double>::Params, MaxwellSlip<double>::Params,
                               ModifiedStribeck<double>::Params, GMS<double>::Params,
                               JointLuGre<double>::Params>;

/// All model names, in documentation order (docs/models.md).
inline const std::vector<std::string>& model_names() {
  static const std::vector<std::string> names = {
      "coulomb", "viscous",        "coulomb-viscous", "stribeck",          "lugre",
      "dahl",    "elasto-plastic", "maxwell-slip",    "modified-stribeck", "gms",
      "joint-lugre"};
  return names;
}

/// The name of the model in `spec` ("lugre", "coulomb-viscous", ...).
inline std::string model_name(const ModelSpec& spec) {
  return std::visit(
      [](const auto& p) -> std::string {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, StaticSpec>) {
          return static_kind_name(p.kind);
        } else if constexpr (std::is_same_v<P, LuGre<double>::Params>) {
          return "lugre";
        } else if constexpr (std::is_same_v<P, Dahl<double>::Params>) {
          return "dahl";
        } else if constexpr (std::is_same_v<P, ElastoPlastic<double>::Params>) {
          return "elasto-plastic";
        } else if constexpr (std::is_same_v<P, MaxwellSlip<double>::Params>) {
          return "maxwell-slip";
        } else if constexpr (std::is_same_v<P, ModifiedStribeck<double>::Params>) {
          return "modified-stribeck";
        } else if constexpr (std::is_same_v<P, GMS<double>::Params>) {
          return "gms";
        } else {
          static_assert(std::is_same_v<P, JointLuGre<double>::Params>);
          return "joint-lugre";
        }
      },
      spec);
}

/// check() of models/validation.hpp for the model in `spec`.
inline std::vector<ParamIssue> check(const ModelSpec& spec) {
  return std::visit(
      [](const auto& p) -> std::vector<ParamIssue> {
        if constexpr (std::is_same_v<std::decay_t<decltype(p)>, StaticSpec>) {
          return check(p.params);
        } else {
          return check(p);
        }
      },
      spec);
}

}  // namespace frictionlab
