// frictionlab workflows: simulate_batch (include/frictionlab/workflows/batch.hpp).
#include "frictionlab/workflows/batch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/models/lugre/batch.hpp"
#include "frictionlab/models/lugre/validation.hpp"
#include "frictionlab/workflows/batch_simd.hpp"

namespace frictionlab::workflows {
namespace {

// Samples per unit of work between two progress reports / cancel polls.
constexpr long kBlock = 8192;

std::string sample_text(std::size_t k) { return "sample " + std::to_string(k); }

}  // namespace

SimulateBatchOutcome simulate_batch(std::span<const LuGre<double>::Params> sets,
                                    std::span<const double> t, std::span<const double> v,
                                    const Progress& progress) {
  progress.check();
  if (sets.empty()) throw std::invalid_argument("simulate_batch: no parameter set given");
  if (t.size() != v.size())
    throw std::invalid_argument("simulate_batch: " + std::to_string(t.size()) + " times but " +
                                std::to_string(v.size()) + " velocities");
  if (t.size() < 2)
    throw std::invalid_argument("simulate_batch: needs at least 2 samples, got " +
                                std::to_string(t.size()));
  SimulateBatchOutcome r;
  for (std::size_t i = 0; i < sets.size(); ++i)
    for (const ParamIssue& issue : check(sets[i])) {
      const std::string text = "parameter set " + std::to_string(i) + ": parameter '" +
                               issue.param + "': " + issue.message;
      if (!issue.warning) throw std::invalid_argument(text);
      r.warnings.push_back(text);
    }
  const auto check_limit = [](std::span<const double> series, const char* name) {
    for (std::size_t k = 0; k < series.size(); ++k)
      if (const double x = series[k]; !(std::abs(x) <= data::kMaxMagnitude))
        throw std::invalid_argument(sample_text(k) + ": " + name + " = " + format_exact(x) +
                                    (std::isnan(x)
                                         ? std::string(" is not a number")
                                         : " is beyond the limit |" + std::string(name) +
                                               "| <= " + format_exact(data::kMaxMagnitude) +
                                               " (SI units; not a physical input)"));
  };
  check_limit(t, "t");
  check_limit(v, "v");
  for (std::size_t k = 1; k < t.size(); ++k)
    if (!(t[k] > t[k - 1]))
      throw std::invalid_argument(sample_text(k) + ": t = " + format_exact(t[k]) +
                                  " s is not after t = " + format_exact(t[k - 1]) +
                                  " s of the sample before (t must be strictly increasing)");
  const double values = static_cast<double>(sets.size()) * static_cast<double>(t.size());
  if (values > kMaxBatchValues)
    throw std::invalid_argument("simulate_batch: " + std::to_string(sets.size()) + " sets x " +
                                std::to_string(t.size()) + " samples = " + format_number(values) +
                                " forces, more than the limit " + format_number(kMaxBatchValues) +
                                "; simulate fewer sets or a shorter record at a time");

  const auto n = static_cast<long>(t.size());
  r.sets = sets.size();
  r.samples = t.size();
  r.F.resize(r.sets * r.samples);
  const std::string what = "lugre batch: " + std::to_string(r.sets) + " sets";
  LuGreBatch<double> batch = make_lugre_batch<double>(sets);  // the widest SIMD path here
  r.simd = batch.simd();
  progress.say(what + ", " + std::to_string(n) + " samples (" + r.simd + " SIMD)", 0.0);
  for (long k0 = 0; k0 < n; k0 += kBlock) {
    const long k1 = std::min(n, k0 + kBlock);
    batch.simulate_range(t.data(), v.data(), k0, k1, n, r.F.data(), n);
    if (k1 < n) {
      progress.check();
      progress.say(what + ": sample " + std::to_string(k1),
                   static_cast<double>(k1) / static_cast<double>(n));
    }
  }
  r.z_final.assign(batch.z().data(), batch.z().data() + batch.z().size());

  for (std::size_t i = 0; i < r.sets; ++i)
    for (std::size_t k = 0; k < r.samples; ++k)
      if (const double f = r.F[i * r.samples + k]; !(std::abs(f) <= data::kMaxMagnitude))
        throw std::runtime_error(
            "parameter set " + std::to_string(i) + ": the friction force reaches " +
            format_number(f) + " N at t = " + format_exact(t[k]) + " s (" + sample_text(k) +
            "), beyond the limit |F| <= " + format_number(data::kMaxMagnitude) +
            ": not a physical result; check the parameters and the input's "
            "magnitudes");
  progress.say(what + ": done", 1.0);
  return r;
}

}  // namespace frictionlab::workflows
