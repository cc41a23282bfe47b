// frictionlab identify: parameter families (internal parameters -> model Params) made from the
// registry (make_family), and what the registry says about a model's fit. The family of one
// model is family_model.hpp, its Ceres cost sim_cost.hpp, the sensitivity fast path
// sensitivity_pass.hpp. docs/identification.md, "Parameterisation".
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "family.hpp"
#include "family_model.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/models/registry.hpp"
#include "sim_cost.hpp"

namespace frictionlab::identify::detail {

double Family::ssr_below(const double* theta, const FitData& d, Method m, Hold h,
                         const std::function<double()>& bound) const {
  const auto run = start_ssr(theta, d, m, h);
  double s = 0;
  while (run->done() < d.n()) {
    s = run->advance(run->done() + kSsrChunk);
    if (!(s <= bound())) return std::numeric_limits<double>::infinity();
  }
  return s;
}

int Family::index(std::string_view field) const {
  for (std::size_t i = 0; i < info_.size(); ++i)
    if (info_[i].field == field) return static_cast<int>(i);
  return -1;
}

std::vector<double> Family::to_internal(const std::vector<double>& natural) const {
  std::vector<double> th(natural.size());
  for (std::size_t i = 0; i < natural.size(); ++i)
    th[i] = info_[i].tf == FitScale::log ? std::log(natural[i]) : natural[i];
  return th;
}

std::vector<double> Family::to_natural(const std::vector<double>& theta) const {
  std::vector<double> nat(theta.size());
  for (std::size_t i = 0; i < theta.size(); ++i)
    nat[i] = info_[i].tf == FitScale::log ? std::exp(theta[i]) : theta[i];
  return nat;
}

std::unique_ptr<Family> make_family(const ModelChoice& m, ProblemKind problem, bool rotary) {
  const bool sl = problem == ProblemKind::sensorless;
  std::unique_ptr<Family> out;
  with_model(m.name, [&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) {
      const FitStructure st{m.asymmetric, m.shape, m.elements};
      out = std::make_unique<FamilyT<I>>(typename I::Fit(st), sl, rotary);
    }
  });
  if (!out)
    throw FitError("model '" + m.name +
                   "' cannot be fitted; fittable: " + join_list(fit_model_names()));
  return out;
}

bool is_dynamic(const ModelChoice& m) {
  bool dynamic = false;
  with_model(m.name, [&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) dynamic = I::Fit::dynamic;
  });
  return dynamic;
}

std::vector<std::string> two_stage_models() {
  std::vector<std::string> out;
  for_each_model([&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) {
      std::vector<FitParam> params;
      FitParamList list{params};
      typename I::Fit(FitStructure{}).declare(list);
      bool has_vs = false;
      for (const auto& p : params) has_vs = has_vs || p.field == "vs";
      if (I::Fit::dynamic && has_vs) out.emplace_back(I::name);
    }
    return false;
  });
  return out;
}

FitInit init_strategy(const ModelChoice& m) {
  FitInit init = FitInit::static_curve;
  with_model(m.name, [&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) init = I::Fit::init;
  });
  return init;
}

}  // namespace frictionlab::identify::detail
