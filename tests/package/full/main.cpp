// Built against an installed frictionlab (frictionlab::frictionlab): identification (identify),
// simulation (sim) and file formats (io) from another project.
//  1. A noise-free Coulomb + viscous record F = sgn(v) Fc + sigma2 v is fitted by identify::fit;
//     the estimates must equal the truth (Fc = 2, sigma2 = 0.5) to 1e-6 relative.
//  2. The stick-slip benchmark (sim) keeps the LuGre state within its invariant bound
//     |z| <= Fs/sigma0.
//  3. The fitted model's MODEL.json text (io) reads back to the same parameters.
#include <cmath>
#include <cstdio>
#include <variant>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/sim/systems.hpp"

namespace fl = frictionlab;

int main() {
  int failures = 0;
  // 1. identify
  fl::data::Record rec;
  rec.source = "synthetic";
  const double pi = 3.141592653589793;
  for (int k = 0; k < 2000; ++k) {
    const double t = 1e-3 * k;
    const double v = 0.3 * std::sin(2 * pi * t) + 0.05;
    rec.t.push_back(t);
    rec.velocity.push_back(v);
    rec.force.push_back((v > 0 ? 2.0 : -2.0) + 0.5 * v);
  }
  fl::identify::FitOptions opt;
  opt.model = fl::identify::parse_model("coulomb-viscous");
  const fl::identify::FitResult r = fl::identify::fit(rec, opt);
  const auto& sp = std::get<fl::StaticSpec>(r.params).params;
  std::printf("fit: Fc = %.9g (2), sigma2 = %.9g (0.5), RMSE %.3g\n", sp.curve.Fc_pos, sp.sigma2,
              r.training.rmse);
  if (!(std::abs(sp.curve.Fc_pos - 2.0) < 2e-6 && std::abs(sp.sigma2 - 0.5) < 5e-7)) ++failures;

  // 2. sim
  fl::sim::StickSlipSpec spec;
  spec.t_end = 5.0;
  fl::LuGre<double>::Params lugre{};
  fl::sim::SimOptions so;
  const fl::sim::SystemTrajectory traj = fl::sim::simulate_stick_slip(spec, lugre, so);
  double zmax = 0;
  for (double z : traj.states.at(0)) zmax = std::max(zmax, std::abs(z));
  const double bound = fl::LuGre<double>::state_bound(lugre);
  std::printf("stick-slip: %zu samples, max |z| = %.6g <= %.6g\n", traj.t.size(), zmax, bound);
  if (!(traj.t.size() == 5001 && zmax <= bound * (1 + 1e-12))) ++failures;

  // 3. io
  const fl::ModelSpec spec_fit = r.params;
  const fl::io::ModelFile back =
      fl::io::parse_model_json(fl::io::to_json_text(spec_fit), "consumer");
  const auto* st = std::get_if<fl::StaticSpec>(&back.spec);
  if (!(st && st->params.curve.Fc_pos == sp.curve.Fc_pos && st->params.sigma2 == sp.sigma2))
    ++failures;
  std::printf(failures == 0 ? "consumer: ok\n" : "consumer: FAILED\n");
  return failures;
}
