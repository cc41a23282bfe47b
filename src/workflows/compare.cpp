#include "frictionlab/workflows/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/workflows/validate.hpp"

namespace frictionlab::workflows {

Criterion parse_criterion(const std::string& name) {
  if (name == "aicc") return Criterion::aicc;
  if (name == "bic") return Criterion::bic;
  throw std::invalid_argument("criterion must be aicc or bic, got '" + name + "'");
}

std::string criterion_key(Criterion c) { return c == Criterion::aicc ? "aicc" : "bic"; }

std::string criterion_label(Criterion c) { return c == Criterion::aicc ? "AICc" : "BIC"; }

std::vector<identify::ModelChoice> parse_model_list(const std::string& list) {
  std::vector<identify::ModelChoice> models;
  std::set<std::string> seen;
  std::size_t a = 0;
  while (a <= list.size()) {
    std::size_t b = list.find(',', a);
    if (b == std::string::npos) b = list.size();
    std::string name = list.substr(a, b - a);
    const auto first = name.find_first_not_of(" \t");
    const auto last = name.find_last_not_of(" \t");
    name = first == std::string::npos ? std::string() : name.substr(first, last - first + 1);
    if (name.empty()) throw std::invalid_argument("empty model name in '" + list + "'");
    identify::ModelChoice m;
    try {
      m = identify::parse_model(name);
    } catch (const identify::FitError& e) {
      throw std::invalid_argument(e.what());
    }
    if (!seen.insert(identify::model_name(m)).second)
      throw std::invalid_argument("model '" + identify::model_name(m) + "' is listed twice");
    models.push_back(m);
    a = b + 1;
  }
  if (models.size() < 2)
    throw std::invalid_argument("give at least two models to compare, got '" + list + "'");
  return models;
}

void rank_compare_rows(CompareOutcome& out) {
  // Non-finite errors (NaN, inf) rank last, equal among themselves: never the best.
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const CompareRow& a, const CompareRow& b) {
    const bool fa = std::isfinite(a.score), fb = std::isfinite(b.score);
    if (fa != fb) return fa;
    if (fa) {
      const double sa = round_significant(a.score, 9), sb = round_significant(b.score, 9);
      if (sa != sb) return sa < sb;
    }
    if (a.fit.num_estimated != b.fit.num_estimated)
      return a.fit.num_estimated < b.fit.num_estimated;
    return a.criterion < b.criterion;
  });
  out.has_best = !out.rows.empty() && std::isfinite(out.rows.front().score);
  out.best_by_criterion = -1;
  double best_crit = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < out.rows.size(); ++k)
    if (std::isfinite(out.rows[k].criterion) &&
        (out.best_by_criterion < 0 || out.rows[k].criterion < best_crit)) {
      best_crit = out.rows[k].criterion;
      out.best_by_criterion = static_cast<int>(k);
    }
  for (auto& r : out.rows) r.delta = r.criterion - best_crit;
  out.criterion_agrees = out.has_best && out.best_by_criterion == 0;
}

CompareOutcome compare(const NamedRecord& training, const std::vector<NamedRecord>& validation,
                       const CompareOptions& options, const Progress& progress) {
  validate(options);
  if (options.models.size() < 2)
    throw std::invalid_argument("give at least two models to compare, got " +
                                std::to_string(options.models.size()));
  const identify::ProblemKind problem = options.fit.problem;
  CompareOutcome out;
  out.input = training.name;
  out.problem = problem;
  out.criterion = options.criterion;
  out.ranked_by_validation = !validation.empty();

  progress.check();
  PreparedRecord train = prepare_record(training.record, options.preprocess, problem);
  out.warnings = std::move(train.warnings);
  for (std::string& w : same_data_warnings(training, validation))
    out.warnings.push_back(std::move(w));
  std::vector<data::Record> val_records;
  for (const auto& v : validation) {
    progress.check();
    PreparedRecord p = prepare_record(v.record, options.preprocess, problem);
    out.warnings.insert(out.warnings.end(), p.warnings.begin(), p.warnings.end());
    out.validation_names.push_back(v.name);
    val_records.push_back(std::move(p.record));
  }

  identify::FitOptions fo = options.fit;
  fo.method = identify::FitMethod::lsq;
  fo.progress = progress;
  const std::size_t n = options.models.size();
  for (std::size_t i = 0; i < n; ++i) {
    progress.check();
    CompareRow row;
    row.model = identify::model_name(options.models[i]);
    progress.say(
        "compare: model " + std::to_string(i + 1) + "/" + std::to_string(n) + ": " + row.model,
        static_cast<double>(i) / static_cast<double>(n));
    fo.model = options.models[i];
    try {
      row.fit = identify::fit(train.record, fo);
      row.fit.data.dt_max = train.dt_max;
      for (const auto& w : row.fit.warnings) out.warnings.push_back(row.model + ": " + w);
      double sum = 0;
      for (std::size_t k = 0; k < val_records.size(); ++k) {
        const identify::Metrics m = identify::evaluate(row.fit, val_records[k]);
        row.validation.push_back({validation[k].name, m, "", ""});  // warned above
        sum += m.rmse;
      }
      if (!val_records.empty()) row.validation_rmse = sum / static_cast<double>(val_records.size());
    } catch (const identify::FitError& e) {
      throw identify::FitError("model '" + row.model + "': " + e.what());
    }
    row.score = val_records.empty() ? row.fit.training.rmse : row.validation_rmse;
    row.criterion = options.criterion == Criterion::aicc ? row.fit.aicc : row.fit.bic;
    out.rows.push_back(std::move(row));
  }

  rank_compare_rows(out);
  out.training = std::move(train.record);
  out.verdict = compare_verdict(out);
  return out;
}

}  // namespace frictionlab::workflows
