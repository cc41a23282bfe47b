// frictionlab: the model registry, the one table of friction model names. io reads and writes
// MODEL.json through it (io/model_json), identify takes its fit names from it (identify/options),
// sim runs any ModelSpec (sim/model_run) and the CLI lists it in --help. Std only.
//
// A model is a folder models/<model>/ (model.hpp: Params, State, step/force templates, cast_params;
// validation.hpp: check(params); info.hpp: the descriptor of models/fields.hpp) and one line in
// `Models` below. docs/architecture.md, "Adding a model", walks through an example.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "frictionlab/models/dahl/info.hpp"
#include "frictionlab/models/elastoplastic/info.hpp"
#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/gms/info.hpp"
#include "frictionlab/models/joint_lugre/info.hpp"
#include "frictionlab/models/lugre/info.hpp"
#include "frictionlab/models/maxwell_slip/info.hpp"
#include "frictionlab/models/modified_stribeck/info.hpp"
#include "frictionlab/models/stribeck/info.hpp"

namespace frictionlab {

/// A list of model descriptors.
template <class... Infos>
struct ModelList {};

/// Every model a MODEL.json file can name, in documentation order (docs/models.md): one line per
/// model folder.
using Models = ModelList<CoulombInfo, ViscousInfo, CoulombViscousInfo, StribeckInfo,  //
                         LuGreInfo,                                                   //
                         DahlInfo,                                                    //
                         ElastoPlasticInfo,                                           //
                         MaxwellSlipInfo,                                             //
                         ModifiedStribeckInfo,                                        //
                         GmsInfo,                                                     //
                         JointLuGreInfo>;

namespace registry_detail {

template <class Variant, class... Ts>
struct unique_variant {
  using type = Variant;
};
template <class... Vs, class T, class... Ts>
struct unique_variant<std::variant<Vs...>, T, Ts...>
    : std::conditional_t<(std::is_same_v<T, Vs> || ...), unique_variant<std::variant<Vs...>, Ts...>,
                         unique_variant<std::variant<Vs..., T>, Ts...>> {};

template <class List>
struct spec_of;
template <class... Infos>
struct spec_of<ModelList<Infos...>> {
  using type = typename unique_variant<std::variant<>, typename Infos::Spec...>::type;
};

}  // namespace registry_detail

/// The parameters of any model of a list, in double precision: the distinct Spec types of its
/// descriptors in order (for Models: StaticSpec, then the Params of each other model).
template <class List>
using ModelSpecOf = typename registry_detail::spec_of<List>::type;

/// The parameters of any registered model.
using ModelSpec = ModelSpecOf<Models>;

/// Calls fn(std::type_identity<Info>{}) for every model of the list, in order, until fn returns
/// true; returns whether one did.
template <class List = Models, class Fn>
bool for_each_model(Fn&& fn) {
  return [&]<class... Infos>(ModelList<Infos...>) {
    return (static_cast<bool>(fn(std::type_identity<Infos>{})) || ...);
  }(List{});
}

/// Calls fn(std::type_identity<Info>{}, params) for the model of `spec`.
template <class List = Models, class Fn>
void visit_model(const ModelSpecOf<List>& spec, Fn&& fn) {
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        for_each_model<List>([&]<class I>(std::type_identity<I> id) {
          if constexpr (std::is_same_v<typename I::Spec, S>) {
            if (I::matches(s)) {
              fn(id, I::params(s));
              return true;
            }
          }
          return false;
        });
      },
      spec);
}

/// Calls fn(std::type_identity<Info>{}) for the model called `name`; returns false if none is.
template <class List = Models, class Fn>
bool with_model(std::string_view name, Fn&& fn) {
  return for_each_model<List>([&]<class I>(std::type_identity<I> id) {
    if (I::name != name) return false;
    fn(id);
    return true;
  });
}

/// All model names, in documentation order (docs/models.md).
template <class List = Models>
const std::vector<std::string>& model_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for_each_model<List>([&]<class I>(std::type_identity<I>) {
      out.emplace_back(I::name);
      return false;
    });
    return out;
  }();
  return names;
}

/// The name of the model in `spec` ("lugre", "coulomb-viscous", ...).
template <class List = Models>
std::string model_name(const ModelSpecOf<List>& spec) {
  std::string out;
  visit_model<List>(spec, [&]<class I>(std::type_identity<I>, const auto&) { out = I::name; });
  return out;
}

/// The validation issues (models/<model>/validation.hpp) of the model in `spec`.
template <class List = Models>
std::vector<ParamIssue> check(const ModelSpecOf<List>& spec) {
  std::vector<ParamIssue> out;
  visit_model<List>(spec, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    out = I::check(p);
  });
  return out;
}

/// The names `identify::parse_model` lists (messages, --help): per model NAME, then NAME-asym and
/// NAME-rational where its FitFacts list them. `with_elements`: append "[:n]" to the names of
/// the multi-element models.
template <class List = Models>
std::vector<std::string> fit_model_names(bool with_elements = false) {
  std::vector<std::string> out;
  for_each_model<List>([&]<class I>(std::type_identity<I>) {
    if (!I::fit.fit) return false;
    const std::string base(I::name);
    const std::string tail = with_elements && I::fit.elements ? "[:n]" : "";
    out.push_back(base + tail);
    if (I::fit.list_asym) out.push_back(base + "-asym" + tail);
    if (I::fit.list_rational) out.push_back(base + "-rational" + tail);
    return false;
  });
  return out;
}

/// One row of a model's parameter table: a key of its model file, its unit and default.
struct ParamRow {
  std::string key;
  Unit unit = Unit::none;
  double default_value = 0;  ///< the first entry for an array
  bool array = false;        ///< one value per element / term
};

namespace registry_detail {
struct RowCollector {
  std::vector<ParamRow>& rows;
  void number(std::string_view k, double x, Unit u) {
    rows.push_back({std::string(k), u, x, false});
  }
  template <std::size_t N>
  void array_row(std::string_view k, const std::array<double, N>& a, Unit u) {
    rows.push_back({std::string(k), u, a[0], true});
  }
  void curve(const StribeckCurve<double>& c) {
    number("Fc", c.Fc_pos, Unit::force);
    number("Fs", c.Fs_pos, Unit::force);
    number("vs", c.vs, Unit::velocity);
    number("alpha", c.alpha, Unit::none);
    rows.push_back({"shape", Unit::none, 0, false});
  }
  void coulomb_level(const StribeckCurve<double>& c) { number("Fc", c.Fc_pos, Unit::force); }
  void smoothing(SignSmoothing) { rows.push_back({"smoothing", Unit::none, 0, false}); }
  template <class... E>
  void elements(int n, const E&... e) {
    number("n", n, Unit::none);
    (array_row(e.key, e.values, e.unit), ...);
  }
  template <std::size_t N>
  void array(std::string_view k, int, const std::array<double, N>& a, Unit u) {
    array_row(k, a, u);
  }
  template <std::size_t N1, std::size_t N2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, int,
                  const std::array<double, N1>& a1, const std::array<double, N2>& a2, Unit u1,
                  Unit u2) {
    array_row(k1, a1, u1);
    array_row(k2, a2, u2);
  }
};
}  // namespace registry_detail

/// The model file keys of a model with their units and defaults, in documentation order (the
/// curve's levels as Fc, Fs).
template <class I>
std::vector<ParamRow> param_table() {
  std::vector<ParamRow> rows;
  registry_detail::RowCollector c{rows};
  typename I::Params p = I::defaults();
  I::fields(p, c);
  return rows;
}

}  // namespace frictionlab
