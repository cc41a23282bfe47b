#include "frictionlab/workflows/fit.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/workflows/validate.hpp"

#include "../identify/parallel.hpp"

namespace frictionlab::workflows {

PreparedRecord prepare_record(const data::Record& raw, const data::PreprocessOptions& preprocess,
                              identify::ProblemKind problem) {
  // The record as read: its sampling (time units, jitter, gaps) is only visible before
  // resampling, and an unusable record is an error before any preprocessing work.
  PreparedRecord p;
  const data::RecordReport as_read =
      data::check_record(raw, data::checks_before_preprocessing({}, preprocess));
  p.warnings = as_read.warnings;
  p.record = data::preprocess(raw, preprocess);
  data::CheckOptions co;
  co.need_velocity = true;
  co.need_force = true;
  co.need_current = problem == identify::ProblemKind::sensorless;
  const data::RecordReport prepared = data::check_record(p.record, co);
  for (const std::string& w : prepared.warnings)
    if (std::find(p.warnings.begin(), p.warnings.end(), w) == p.warnings.end())
      p.warnings.push_back(w);
  p.dt_max = std::max(as_read.dt_max, prepared.dt_max);
  return p;
}

std::string same_as_training(const NamedRecord& training, const NamedRecord& validation) {
  const data::Record& a = training.record;
  const data::Record& b = validation.record;
  if (validation.name == training.name) return "the same file";
  if (a.t == b.t && a.position == b.position && a.velocity == b.velocity &&
      a.acceleration == b.acceleration && a.current == b.current && a.force == b.force)
    return "the same samples";
  return "";
}

std::vector<std::string> same_data_warnings(const NamedRecord& training,
                                            const std::vector<NamedRecord>& validation) {
  std::vector<std::string> out;
  for (const NamedRecord& v : validation) {
    const std::string same = same_as_training(training, v);
    if (same.empty()) continue;
    out.push_back("validation record " + v.name + " is the training record " + training.name +
                  " (" + same + "): its metrics measure the fit on its own data, not a validation");
  }
  return out;
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

/// Whether the outcome's simulations go on a second thread (options' thread count, the cores).
bool two_threads(int threads) { return threads != 1 && parallel::resolve_threads(0) > 1; }

/// What the friction against velocity needs of the fit besides the prediction: the samples'
/// order by velocity (which does not depend on the fit) and the static curve at those velocities.
struct ByVelocity {
  std::vector<std::pair<double, std::size_t>> order;
  std::vector<double> static_curve;
};

ByVelocity by_velocity(const identify::FitResult& r,
                       std::vector<std::pair<double, std::size_t>> order) {
  ByVelocity b;
  b.order = std::move(order);
  std::vector<double> v(b.order.size());
  for (std::size_t j = 0; j < v.size(); ++j) v[j] = b.order[j].first;
  b.static_curve = identify::steady_force(r, v);
  return b;
}

FrictionVelocity friction_velocity(const identify::FitResult& r, const data::Record& rec,
                                   const std::vector<double>& prediction, ByVelocity b) {
  const bool sensorless = r.problem == identify::ProblemKind::sensorless && r.Km;
  FrictionVelocity f;
  f.velocity.reserve(b.order.size());
  f.measured.reserve(b.order.size());
  f.simulated.reserve(b.order.size());
  for (const auto& [v, k] : b.order) {
    f.velocity.push_back(v);
    f.measured.push_back(sensorless ? *r.Km * rec.current[k] - rec.force[k] : rec.force[k]);
    f.simulated.push_back(sensorless ? *r.Km * rec.current[k] - prediction[k] : prediction[k]);
  }
  f.static_curve = std::move(b.static_curve);
  return f;
}

/// The outcome's parts computed from the fitted values: the prediction on the training record
/// (identify::predict) and the part of the friction against velocity that does not need it.
struct Simulated {
  std::vector<double> prediction;
  ByVelocity by_velocity;
};

using VelocityOrder = std::vector<std::pair<double, std::size_t>>;

/// Both, the part by velocity as a task (parallel.hpp) while this thread simulates the
/// prediction when two_threads. `order`: the samples' order by velocity being sorted already
/// (taken), or null.
Simulated simulate(const identify::FitResult& r, const data::Record& rec, bool two_threads,
                   parallel::Task<VelocityOrder>* order = nullptr) {
  const auto part = [&r, &rec, order] {
    return by_velocity(r, order != nullptr ? order->get() : velocity_order(rec));
  };
  Simulated s;
  if (two_threads) {
    parallel::Task<ByVelocity> other = parallel::start_task(part);
    s.prediction = identify::predict(r, rec);  // (on a throw, other's destructor waits for it)
    s.by_velocity = other.get();
  } else {
    s.prediction = identify::predict(r, rec);
    s.by_velocity = part();
  }
  return s;
}

FitOutcome assemble(std::string input, identify::FitResult result, data::Record training,
                    std::vector<NamedMetrics> validation, std::vector<std::string> warnings,
                    Simulated sim) {
  FitOutcome out;
  out.input = std::move(input);
  out.result = std::move(result);
  out.training = std::move(training);
  out.validation = std::move(validation);
  out.warnings = std::move(warnings);
  out.prediction = std::move(sim.prediction);
  out.residual.resize(out.prediction.size());
  for (std::size_t k = 0; k < out.prediction.size(); ++k)
    out.residual[k] = out.training.force[k] - out.prediction[k];
  out.friction =
      friction_velocity(out.result, out.training, out.prediction, std::move(sim.by_velocity));
  out.verdict = fit_verdict(out);
  return out;
}

}  // namespace

FitOutcome fit(const NamedRecord& training, const std::vector<NamedRecord>& validation,
               const FitOptions& options, const Progress& progress) {
  validate(options);
  const identify::ProblemKind problem = options.fit.problem;
  progress.check();
  FitOutcome out;
  out.input = training.name;
  PreparedRecord train = prepare_record(training.record, options.preprocess, problem);
  out.warnings = std::move(train.warnings);
  out.training = std::move(train.record);
  progress.say("preprocessing: " + data::describe(options.preprocess) +
               " (training record: " + std::to_string(training.record.size()) + " samples read, " +
               std::to_string(out.training.size()) + " fitted)");

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
  fo.progress = progress;
  // With a second core, the friction against velocity and (unless the fit hands it over, from
  // its residuals) the prediction are computed as tasks (parallel.hpp) while identify computes the
  // statistics (identify::fit's at_optimum): the same numbers, from the same values, as
  // fit_outcome computes after the fit (the prediction from the residuals: to rounding).
  const bool two = two_threads(options.fit.lsq.threads);
  // (declared after `out`: a task waits for its work when it goes; the order's before the task
  // that takes it)
  parallel::Task<std::vector<double>> early_prediction;
  std::vector<double> given_prediction;
  // The samples' order by velocity does not depend on the fit: sorted from the start, while
  // the fit's first, serial, steps (checks, summary, the static fit's factorisation) leave a
  // core to it.
  parallel::Task<VelocityOrder> early_order;
  if (two)
    early_order = parallel::start_task([&rec = out.training] { return velocity_order(rec); });
  parallel::Task<ByVelocity> early_by_velocity;
  const auto at_optimum = [&](const identify::FitResult& at, std::span<const double> prediction) {
    if (prediction.size() == out.training.size()) {
      given_prediction.assign(prediction.begin(), prediction.end());
    } else {
      early_prediction =
          parallel::start_task([r = at, &rec = out.training] { return identify::predict(r, rec); });
    }
    early_by_velocity =
        parallel::start_task([r = at, &early_order] { return by_velocity(r, early_order.get()); });
  };
  identify::FitResult result =
      two ? identify::fit(out.training, fo, at_optimum) : identify::fit(out.training, fo);
  result.data.dt_max = train.dt_max;
  out.warnings.insert(out.warnings.end(), result.warnings.begin(), result.warnings.end());

  std::vector<NamedMetrics> metrics;
  for (std::size_t k = 0; k < validation.size(); ++k)
    metrics.push_back({validation[k].name, identify::evaluate(result, val_records[k]),
                       training.name, same_as_training(training, validation[k])});
  Simulated sim;
  if (early_by_velocity.valid()) {
    sim.prediction =
        early_prediction.valid() ? early_prediction.get() : std::move(given_prediction);
    sim.by_velocity = early_by_velocity.get();
  } else {  // (a method without statistics: at_optimum was not called)
    sim = simulate(result, out.training, two, early_order.valid() ? &early_order : nullptr);
  }
  return assemble(std::move(out.input), std::move(result), std::move(out.training),
                  std::move(metrics), std::move(out.warnings), std::move(sim));
}

FitOutcome fit_outcome(std::string input, identify::FitResult result, data::Record training,
                       std::vector<NamedMetrics> validation, std::vector<std::string> warnings,
                       int threads) {
  Simulated sim = simulate(result, training, two_threads(threads));
  return assemble(std::move(input), std::move(result), std::move(training), std::move(validation),
                  std::move(warnings), std::move(sim));
}

}  // namespace frictionlab::workflows
