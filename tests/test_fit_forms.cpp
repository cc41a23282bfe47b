// The fit parameterisations of the model folders (models/<model>/fit.hpp, models/fit_form.hpp)
// against their own model files: for every fittable model of the registry and the worked example
// of docs/architecture.md, every parameter a fit reports (fit.json "parameters") must be the value
// and unit of the MODEL.json field of the same name that the fitted Params give (fit.json
// "model"), for random internal values and every structural variant the model accepts.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/registry.hpp"
#include "registry.hpp"

namespace frictionlab {
namespace {

struct Field {
  double value = 0;
  Unit unit = Unit::none;
};

// The MODEL.json fields of a Params as name -> value (curve levels per side and, symmetric, as
// Fc/Fs; element arrays as key[i]).
struct FieldReader {
  std::map<std::string, Field>& out;
  void number(std::string_view k, double x, Unit u) { out[std::string(k)] = {x, u}; }
  void curve(const StribeckCurve<double>& c) {
    number("Fc_pos", c.Fc_pos, Unit::force);
    number("Fc_neg", c.Fc_neg, Unit::force);
    number("Fs_pos", c.Fs_pos, Unit::force);
    number("Fs_neg", c.Fs_neg, Unit::force);
    if (c.Fc_pos == c.Fc_neg) number("Fc", c.Fc_pos, Unit::force);
    if (c.Fs_pos == c.Fs_neg) number("Fs", c.Fs_pos, Unit::force);
    number("vs", c.vs, Unit::velocity);
    number("alpha", c.alpha, Unit::none);
  }
  void coulomb_level(const StribeckCurve<double>& c) {
    number("Fc_pos", c.Fc_pos, Unit::force);
    number("Fc_neg", c.Fc_neg, Unit::force);
    if (c.Fc_pos == c.Fc_neg) number("Fc", c.Fc_pos, Unit::force);
  }
  void smoothing(SignSmoothing) {}
  template <class A>
  void array_entries(std::string_view k, int n, const A& a, Unit u) {
    for (int i = 0; i < n; ++i)
      number(std::string(k) + "[" + std::to_string(i) + "]", a[static_cast<std::size_t>(i)], u);
  }
  template <class... E>
  void elements(int n, const E&... e) {
    (array_entries(e.key, n, e.values, e.unit), ...);
  }
  template <class A>
  void array(std::string_view k, int n, const A& a, Unit u) {
    array_entries(k, n, a, u);
  }
  template <class A1, class A2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, int n, const A1& a1,
                  const A2& a2, Unit u1, Unit u2) {
    array_entries(k1, n, a1, u1);
    array_entries(k2, n, a2, u2);
  }
};

// The structural variants a model's FitFacts accept.
std::vector<FitStructure> variants(const FitFacts& f) {
  std::vector<FitStructure> out{FitStructure{}};
  if (f.asym) out.push_back({.asymmetric = true});
  if (f.rational) out.push_back({.shape = StribeckShape::rational});
  if (f.elements) {
    out.push_back({.elements = 1});
    out.push_back({.asymmetric = f.asym, .elements = kMaxFitElements});
  }
  return out;
}

template <class I>
void check_fit_form(std::mt19937_64& rng) {
  using Fit = typename I::Fit;
  SCOPED_TRACE(std::string(I::name));
  for (const FitStructure& st : variants(I::fit)) {
    SCOPED_TRACE("asymmetric " + std::to_string(st.asymmetric) + ", elements " +
                 std::to_string(st.elements));
    const Fit fit(st);
    std::vector<FitParam> internal;
    FitParamList list{internal};
    fit.declare(list);
    ASSERT_FALSE(internal.empty());
    std::set<std::string> unique;
    for (const auto& p : internal) EXPECT_TRUE(unique.insert(p.field).second) << p.field;

    std::vector<ReportedParam> reported;
    fit.report(internal, reported);
    ASSERT_FALSE(reported.empty());

    for (int trial = 0; trial < 5; ++trial) {
      // Natural values: > 0 where the scale needs it, any sign for free ones.
      std::vector<double> nat;
      std::uniform_real_distribution<double> pos(0.5, 2.0), any(-2.0, 2.0);
      for (const auto& p : internal) nat.push_back(p.scale == FitScale::free ? any(rng) : pos(rng));
      std::vector<double> values(reported.size() + 1);
      fit.template reported<double>(nat.data(), values.data(), static_cast<int>(nat.size()));

      typename I::Params params = fit.template params<double, kSpecElements>(nat.data());
      std::map<std::string, Field> fields;
      FieldReader reader{fields};
      I::fields(params, reader);

      for (std::size_t r = 0; r < reported.size(); ++r) {
        const auto& rp = reported[r];
        const auto it = fields.find(rp.field);
        ASSERT_NE(it, fields.end()) << "reported " << rp.field << " is no field of the model file";
        EXPECT_DOUBLE_EQ(values[r], it->second.value) << rp.field;
        EXPECT_EQ(rp.unit, it->second.unit) << rp.field;
        if (rp.internal >= 0) {
          ASSERT_LT(rp.internal, static_cast<int>(nat.size()));
          EXPECT_EQ(values[r], nat[static_cast<std::size_t>(rp.internal)]) << rp.field;
        }
      }
    }
  }
}

template <class List>
int check_all(std::mt19937_64& rng) {
  int fittable = 0;
  for_each_model<List>([&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) {
      check_fit_form<I>(rng);
      ++fittable;
    }
    return false;
  });
  return fittable;
}

TEST(FitForms, ReportedParametersAreTheModelFileFields) {
  std::mt19937_64 rng(7);
  // One Fit per fittable name without its -asym / -rational variants (nine models).
  std::set<std::string> bases;
  for (const auto& n : fit_model_names())
    if (n.find("-asym") == std::string::npos && n.find("-rational") == std::string::npos)
      bases.insert(n);
  EXPECT_EQ(check_all<Models>(rng), static_cast<int>(bases.size()));
  EXPECT_EQ(bases.size(), 9u);
}

TEST(FitForms, TheWorkedExampleKeepsTheContract) {
  std::mt19937_64 rng(8);
  check_fit_form<example::FluidDragInfo>(rng);
  const example::FluidDragFit fit(FitStructure{});
  const double nat[2] = {0.3, 1.7};
  const auto p = fit.params<double, 1>(nat);
  EXPECT_EQ(p.sigma2, 0.3);
  EXPECT_EQ(p.cd, 1.7);
}

}  // namespace
}  // namespace frictionlab
