// frictionlab example: the `compare` workflow from C++ on records built in memory.
//
// A friction record is generated from a known Stribeck curve plus viscous friction,
//   F(v) = sgn(v) (Fc + (Fs - Fc) exp(-(|v|/vs)^2)) + sigma2 v,
// with Fc = 1 N, Fs = 1.5 N, vs = 0.05 m/s, sigma2 = 0.4 N s/m (docs/models.md, "stribeck"), at
// 1 kHz over a slow sine sweep; a second record with another sweep serves for validation.
// workflows::compare fits Coulomb + viscous and Stribeck by least squares and ranks them on the
// validation RMSE; the program checks that Stribeck wins and recovers the truth, and exits 1
// otherwise. Progress lines go to stderr through workflows::Progress.
//
// Built and run by the tests (examples/CMakeLists.txt); the same calls work against an
// installed frictionlab (find_package(frictionlab), docs/architecture.md).
#include <cmath>
#include <cstdio>
#include <string_view>
#include <variant>

#include "frictionlab/workflows/compare.hpp"

namespace fl = frictionlab;

fl::data::Record sweep(const char* name, double v_max, double f_hz) {
  constexpr double Fc = 1.0, Fs = 1.5, vs = 0.05, sigma2 = 0.4;
  constexpr double kPi = 3.141592653589793;
  fl::data::Record r;
  r.source = name;
  for (int k = 0; k < 4000; ++k) {
    const double t = 1e-3 * k;
    const double v = v_max * std::sin(2 * kPi * f_hz * t) + 1e-3;  // never exactly 0
    const double g = Fc + (Fs - Fc) * std::exp(-(v / vs) * (v / vs));
    r.t.push_back(t);
    r.velocity.push_back(v);
    r.force.push_back((v > 0 ? g : -g) + sigma2 * v);
  }
  return r;
}

int main() {
  fl::workflows::CompareOptions options;
  options.models = fl::workflows::parse_model_list("coulomb-viscous,stribeck");
  options.fit.model.alpha = 2.0;  // the Stribeck exponent held at its true value
  fl::workflows::Progress progress;
  progress.report = [](const fl::workflows::ProgressEvent& e) {
    std::fprintf(stderr, "compare_models: %.*s\n", static_cast<int>(e.message.size()),
                 e.message.data());
  };
  const fl::workflows::CompareOutcome out =
      fl::workflows::compare({"train", sweep("train", 0.3, 0.5)},
                             {{"validation", sweep("validation", 0.2, 0.7)}}, options, progress);

  std::printf("%-18s %14s %12s\n", "model", "val. RMSE [N]", "AICc");
  for (const auto& row : out.rows)
    std::printf("%-18s %14.3e %12.1f\n", row.model.c_str(), row.validation_rmse, row.criterion);

  const auto& best = out.rows.at(0);
  const auto* s = std::get_if<fl::StaticSpec>(&best.fit.params);  // the static models' spec
  const auto* p = s != nullptr ? &s->params : nullptr;
  const bool ok = best.model == "stribeck" && p != nullptr &&
                  std::abs(p->curve.Fc_pos - 1.0) < 1e-6 &&
                  std::abs(p->curve.Fs_pos - 1.5) < 1e-6 && std::abs(p->curve.vs - 0.05) < 1e-6 &&
                  std::abs(p->sigma2 - 0.4) < 1e-6;
  if (p != nullptr)
    std::printf("best: %s, Fc = %.6f N, Fs = %.6f N, vs = %.6f m/s, sigma2 = %.6f N s/m\n",
                best.model.c_str(), p->curve.Fc_pos, p->curve.Fs_pos, p->curve.vs, p->sigma2);
  std::printf(ok ? "compare_models: ok\n" : "compare_models: FAILED\n");
  return ok ? 0 : 1;
}
