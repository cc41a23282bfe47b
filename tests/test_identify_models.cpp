// lsq recovers the synthetic truth of the other dynamic models: Dahl, elasto-plastic,
// Maxwell slip (3 elements), GMS (3 elements, weights by softmax).
//
// Records: the default excitation (identify/synthetic.hpp), 10 s at 1 kHz, truth by the exact
// step at 20 kHz, Gaussian force noise 0.005 N (0.25-0.5 % of the friction level). Tolerances:
// every estimate within 4 reported standard errors of the truth and within the relative bound
// stated per parameter (the bound reflects the measured standard errors: a few 1e-4 for the
// levels and stiffnesses, more for what acts only briefly: z_ba, C).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"

namespace frictionlab::identify {
namespace {

const ParameterEstimate& param(const FitResult& r, const std::string& name) {
  return parameter(r, name);
}

SyntheticOptions synth() {
  SyntheticOptions so;
  so.noise_std = 0.005;
  so.seed = 11;
  so.excitation.duration = 10;
  return so;
}

struct Want {
  std::string name;
  double value, rel_tol;
};

void check(const FitResult& r, const std::vector<Want>& want) {
  for (const auto& w : want) {
    const auto& e = param(r, w.name);
    EXPECT_NEAR(e.value, w.value, w.rel_tol * std::abs(w.value)) << r.model_name << " " << w.name;
    EXPECT_LT(std::abs(e.value - w.value), 4 * e.std_error)
        << r.model_name << " " << w.name << " = " << e.value << " +- " << e.std_error;
  }
  EXPECT_NEAR(r.training.rmse, 0.005, 0.0005) << r.model_name;
}

FitResult run(const ModelSpec& truth, const char* model) {
  FitOptions fo;
  fo.model = parse_model(model);
  return fit(synthetic_friction_record(truth, synth()), fo);
}

TEST(IdentifyModels, Dahl) {
  const auto r = run(Dahl<double>::Params{500, 1.0, 1.5}, "dahl");
  check(r, {{"sigma0", 500, 0.01}, {"Fc", 1.0, 0.002}, {"n", 1.5, 0.01}});
}

TEST(IdentifyModels, ElastoPlastic) {
  ElastoPlastic<double>::Params p{.sigma0 = 500,
                                  .sigma1 = 0.5,
                                  .sigma2 = 0.5,
                                  .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 2.0)};
  p.z_ba = 1e-3;  // half of min g / sigma0
  const auto r = run(p, "elasto-plastic");
  check(r, {{"sigma0", 500, 0.01},
            {"sigma1", 0.5, 0.1},
            {"sigma2", 0.5, 0.01},
            {"Fc", 1.0, 0.005},
            {"Fs", 1.5, 0.005},
            {"vs", 0.1, 0.01},
            {"alpha", 2.0, 0.02},
            {"z_ba", 1e-3, 0.05}});
}

TEST(IdentifyModels, MaxwellSlip) {
  const MaxwellSlip<double>::Params p{
      .n = 3, .k = {300, 200, 100}, .Delta = {0.001, 0.003, 0.008}, .sigma2 = 0.5};
  const auto r = run(p, "maxwell-slip:3");
  check(r, {{"k[0]", 300, 0.01},
            {"k[1]", 200, 0.01},
            {"k[2]", 100, 0.01},
            {"Delta[0]", 0.001, 0.01},
            {"Delta[1]", 0.003, 0.01},
            {"Delta[2]", 0.008, 0.01},
            {"sigma2", 0.5, 0.01}});
  const auto& mp = std::get<MaxwellSlip<double>::Params>(r.params);
  EXPECT_EQ(mp.n, 3);
}

TEST(IdentifyModels, Gms) {
  const GMS<double>::Params p{.n = 3,
                              .k = {300, 200, 100},
                              .nu = {0.2, 0.3, 0.5},
                              .C = 20,
                              .sigma2 = 0.5,
                              .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 2.0)};
  const auto r = run(p, "gms:3");
  check(r, {{"k[0]", 300, 0.02},
            {"k[1]", 200, 0.02},
            {"k[2]", 100, 0.02},
            {"nu[0]", 0.2, 0.02},
            {"nu[1]", 0.3, 0.02},
            {"nu[2]", 0.5, 0.02},
            {"C", 20, 0.05},
            {"sigma2", 0.5, 0.01},
            {"Fc", 1.0, 0.01},
            {"Fs", 1.5, 0.01},
            {"vs", 0.1, 0.02},
            {"alpha", 2.0, 0.05}});
  const auto& gp = std::get<GMS<double>::Params>(r.params);
  EXPECT_NEAR(gp.nu[0] + gp.nu[1] + gp.nu[2], 1.0, 1e-12);  // softmax: the weights sum to 1
}

}  // namespace
}  // namespace frictionlab::identify
