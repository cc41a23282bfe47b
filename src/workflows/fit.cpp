#include "frictionlab/workflows/fit.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <string_view>
#include <thread>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/identify/fit.hpp"

namespace frictionlab::workflows {

PreparedRecord prepare_record(const data::Record& raw, const data::PreprocessOptions& preprocess,
                              identify::ProblemKind problem) {
  PreparedRecord p;
  p.record = data::preprocess(raw, preprocess);
  data::CheckOptions co;
  co.need_velocity = true;
  co.need_force = true;
  co.need_current = problem == identify::ProblemKind::sensorless;
  p.warnings = data::check_record(p.record, co).warnings;
  return p;
}

namespace {

/// The samples sorted by velocity, ties in sample order: (v, k) pairs sort in one contiguous
/// array.
std::vector<std::pair<double, std::size_t>> velocity_order(const data::Record& rec) {
  std::vector<std::pair<double, std::size_t>> order(rec.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = {rec.velocity[k], k};
  std::sort(order.begin(), order.end());
  return order;
}

FrictionVelocity friction_velocity(const identify::FitResult& r, const data::Record& rec,
                                   const std::vector<double>& prediction,
                                   const std::vector<std::pair<double, std::size_t>>& order) {
  const bool sensorless = r.problem == identify::ProblemKind::sensorless && r.Km;
  FrictionVelocity f;
  f.velocity.reserve(order.size());
  f.measured.reserve(order.size());
  f.simulated.reserve(order.size());
  f.static_curve.reserve(order.size());
  for (const auto& [v, k] : order) {
    f.velocity.push_back(v);
    f.measured.push_back(sensorless ? *r.Km * rec.current[k] - rec.force[k] : rec.force[k]);
    f.simulated.push_back(sensorless ? *r.Km * rec.current[k] - prediction[k] : prediction[k]);
    f.static_curve.push_back(identify::steady_force(r, v));
  }
  return f;
}

}  // namespace

FitOutcome fit(const NamedRecord& training, const std::vector<NamedRecord>& validation,
               const FitOptions& options, const Progress& progress) {
  const identify::ProblemKind problem = options.fit.problem;
  progress.check();
  FitOutcome out;
  out.input = training.name;
  PreparedRecord train = prepare_record(training.record, options.preprocess, problem);
  out.warnings = std::move(train.warnings);
  out.training = std::move(train.record);

  // Every validation record is prepared and checked before the fit: a record that cannot be
  // used is an error before the long work, not after it.
  std::vector<data::Record> val_records;
  for (const auto& v : validation) {
    progress.check();
    PreparedRecord p = prepare_record(v.record, options.preprocess, problem);
    out.warnings.insert(out.warnings.end(), p.warnings.begin(), p.warnings.end());
    val_records.push_back(std::move(p.record));
  }

  progress.check();
  identify::FitOptions fo = options.fit;
  fo.progress = [&progress](std::string_view msg) { progress.say(msg); };
  identify::FitResult result = identify::fit(out.training, fo);
  out.warnings.insert(out.warnings.end(), result.warnings.begin(), result.warnings.end());

  std::vector<NamedMetrics> metrics;
  for (std::size_t k = 0; k < validation.size(); ++k)
    metrics.push_back({validation[k].name, identify::evaluate(result, val_records[k])});
  return fit_outcome(std::move(out.input), std::move(result), std::move(out.training),
                     std::move(metrics), std::move(out.warnings), options.fit.lsq.threads);
}

FitOutcome fit_outcome(std::string input, identify::FitResult result, data::Record training,
                       std::vector<NamedMetrics> validation, std::vector<std::string> warnings,
                       int threads) {
  FitOutcome out;
  out.input = std::move(input);
  out.result = std::move(result);
  out.training = std::move(training);
  out.validation = std::move(validation);
  out.warnings = std::move(warnings);
  // The samples' order by velocity does not depend on the fit: sorted on a second thread while
  // this one simulates the prediction.
  std::vector<std::pair<double, std::size_t>> order;
  if (threads != 1 && std::thread::hardware_concurrency() > 1) {
    std::thread sorter([&order, &out] { order = velocity_order(out.training); });
    try {
      out.prediction = identify::predict(out.result, out.training);
    } catch (...) {
      sorter.join();
      throw;
    }
    sorter.join();
  } else {
    out.prediction = identify::predict(out.result, out.training);
    order = velocity_order(out.training);
  }
  out.residual.resize(out.prediction.size());
  for (std::size_t k = 0; k < out.prediction.size(); ++k)
    out.residual[k] = out.training.force[k] - out.prediction[k];
  out.friction = friction_velocity(out.result, out.training, out.prediction, order);
  return out;
}

}  // namespace frictionlab::workflows
