// frictionlab compare: fit several models to one record by lsq and rank them on validation
// error and an information criterion (docs/cli.md, "compare"). The fits are identify::fit; the
// records are loaded as by `fit` (records.hpp); this file ranks, prints and writes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "records.hpp"

namespace frictionlab::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The comma-separated model list, each name checked by identify::parse_model before any fit.
std::vector<std::string> parse_models(const std::string& list) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  std::size_t a = 0;
  while (a <= list.size()) {
    std::size_t b = list.find(',', a);
    if (b == std::string::npos) b = list.size();
    std::string name = list.substr(a, b - a);
    const auto first = name.find_first_not_of(" \t");
    const auto last = name.find_last_not_of(" \t");
    name = first == std::string::npos ? std::string() : name.substr(first, last - first + 1);
    if (name.empty())
      throw std::invalid_argument("--models: empty model name in '" + list + "'");
    try {
      name = identify::model_name(identify::parse_model(name));
    } catch (const identify::FitError& e) {
      throw std::invalid_argument(std::string("--models: ") + e.what());
    }
    if (!seen.insert(name).second)
      throw std::invalid_argument("--models: model '" + name + "' is listed twice");
    names.push_back(name);
    a = b + 1;
  }
  if (names.size() < 2)
    throw std::invalid_argument("--models: give at least two models to compare, got '" + list +
                                "'");
  return names;
}

nlohmann::ordered_json number(double x) {
  if (!std::isfinite(x)) return nullptr;
  return x;
}

struct Row {
  std::string model;
  identify::FitResult fit;
  std::vector<io::ValidationEntry> validation;
  double val_rmse = kNaN;  ///< mean over the validation records
  double score = kNaN;     ///< the ranking error: val_rmse, or the training RMSE without records
  double criterion = kNaN;
  double delta = kNaN;     ///< criterion - smallest criterion
};

/// x rounded to 9 significant digits.
double round9(double x) {
  if (!std::isfinite(x)) return x;
  char b[40];
  std::snprintf(b, sizeof b, "%.8e", x);
  return std::strtod(b, nullptr);
}

/// A directory name for a model ("gms:4" -> "gms_4").
std::string dir_name(std::string model) {
  std::replace(model.begin(), model.end(), ':', '_');
  return model;
}

}  // namespace

void run_compare(const CompareOptions& o) {
  if (o.criterion != "aicc" && o.criterion != "bic")
    throw std::invalid_argument("--criterion must be aicc or bic, got '" + o.criterion + "'");
  const bool aicc = o.criterion == "aicc";
  const char* crit_name = aicc ? "AICc" : "BIC";
  const std::vector<std::string> models = parse_models(o.models);

  FitOptions base = o.fit;
  base.method = "lsq";
  const data::Record train = load_record(base, base.input);
  std::vector<data::Record> val_records;
  for (const auto& path : base.validate) val_records.push_back(load_record(base, path));

  std::vector<Row> rows;
  for (std::size_t i = 0; i < models.size(); ++i) {
    Row row;
    row.model = models[i];
    std::fprintf(stderr, "frictionlab: compare: model %zu/%zu: %s\n", i + 1, models.size(),
                 row.model.c_str());
    FitOptions fo = base;
    fo.model = row.model;
    try {
      row.fit = identify::fit(train, identify_options(fo));
      for (const auto& w : row.fit.warnings) print_warning(row.model + ": " + w);
      double sum = 0;
      for (std::size_t k = 0; k < val_records.size(); ++k) {
        const identify::Metrics m = identify::evaluate(row.fit, val_records[k]);
        row.validation.emplace_back(base.validate[k], m);
        sum += m.rmse;
      }
      if (!val_records.empty()) row.val_rmse = sum / static_cast<double>(val_records.size());
    } catch (const identify::FitError& e) {
      throw identify::FitError("model '" + row.model + "': " + e.what());
    }
    row.score = val_records.empty() ? row.fit.training.rmse : row.val_rmse;
    row.criterion = aicc ? row.fit.aicc : row.fit.bic;
    rows.push_back(std::move(row));
  }

  // Rank by the error rounded to 9 significant digits (noise-free data leave several models at
  // rounding level), then by fewer parameters, then by the criterion; NaN last. Delta of the
  // criterion to its best.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (std::isfinite(a.score) != std::isfinite(b.score)) return std::isfinite(a.score);
    const double sa = round9(a.score), sb = round9(b.score);
    if (sa != sb) return sa < sb;
    if (a.fit.num_estimated != b.fit.num_estimated)
      return a.fit.num_estimated < b.fit.num_estimated;
    return a.criterion < b.criterion;
  });
  double best_crit = kNaN;
  const Row* best_by_crit = nullptr;
  for (const auto& r : rows)
    if (std::isfinite(r.criterion) && (!best_by_crit || r.criterion < best_crit)) {
      best_crit = r.criterion;
      best_by_crit = &r;
    }
  for (auto& r : rows) r.delta = r.criterion - best_crit;
  const Row& best = rows.front();
  const bool agrees = best_by_crit == &best;

  // Outputs: nothing is written before every fit succeeded.
  const std::filesystem::path dir(base.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::InputError(base.out, 0, 0, "cannot create the directory: " + ec.message());
  nlohmann::ordered_json j;
  j["format"] = "frictionlab-compare";
  j["version"] = 1;
  j["input"] = base.input;
  j["validation"] = base.validate;
  j["problem"] = base.problem;
  j["method"] = "lsq";
  j["criterion"] = o.criterion;
  j["ranked_by"] = val_records.empty() ? "training_rmse" : "validation_rmse";
  j["best"] = best.model;
  j["best_by_criterion"] = best_by_crit ? nlohmann::ordered_json(best_by_crit->model) : nullptr;
  j["criterion_agrees"] = agrees;
  auto& jrows = j["rows"] = nlohmann::ordered_json::array();
  std::vector<std::string> files;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& r = rows[k];
    const auto mdir = dir / dir_name(r.model);
    std::filesystem::create_directories(mdir, ec);
    if (ec)
      throw io::InputError(mdir.string(), 0, 0, "cannot create the directory: " + ec.message());
    const auto model_path = (mdir / "model.json").string();
    io::write_text_file(model_path, io::to_json_text(io::model_spec(r.fit)));
    files.push_back(model_path);
    nlohmann::ordered_json jr;
    jr["rank"] = k + 1;
    jr["model"] = r.model;
    jr["p"] = r.fit.num_estimated;
    jr["training_rmse"] = number(r.fit.training.rmse);
    jr["validation_rmse"] = number(r.val_rmse);
    jr["aicc"] = number(r.fit.aicc);
    jr["bic"] = number(r.fit.bic);
    jr["delta"] = number(r.delta);
    jr["model_json"] = model_path;
    jr["fit"] = io::fit_to_json(r.fit, base.input, r.validation);
    jrows.push_back(std::move(jr));
  }
  const auto compare_path = (dir / "compare.json").string();
  io::write_text_file(compare_path, j.dump(2) + "\n");
  files.insert(files.begin(), compare_path);

  std::printf("frictionlab compare: %zu models, %s, method lsq, %ld samples (%.3g s at %.4g Hz)",
              rows.size(), base.problem == "sensorless" ? "sensorless torque" : "friction",
              best.fit.data.n, best.fit.data.duration, best.fit.data.rate_hz);
  if (val_records.empty())
    std::printf(", no validation record: ranked by training RMSE\n");
  else
    std::printf(", ranked by validation RMSE (mean over %zu record%s)\n", val_records.size(),
                val_records.size() == 1 ? "" : "s");
  char dhead[32];
  std::snprintf(dhead, sizeof dhead, "delta %s", crit_name);
  std::printf("\n  %4s  %-20s %3s %14s %14s %12s %12s %12s\n", "rank", "model", "p",
              "train RMSE", "valid. RMSE", "AICc", "BIC", dhead);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& r = rows[k];
    std::printf("  %4zu  %-20s %3d %14s %14s %12s %12s %12s\n", k + 1, r.model.c_str(),
                r.fit.num_estimated, fmt(r.fit.training.rmse).c_str(), fmt(r.val_rmse).c_str(),
                fmt(r.fit.aicc).c_str(), fmt(r.fit.bic).c_str(), fmt(r.delta).c_str());
  }
  std::printf("\nVerdict: %s is best by %s RMSE (%s); %s %s.\n", best.model.c_str(),
              val_records.empty() ? "training" : "validation", fmt(best.score).c_str(),
              crit_name,
              agrees ? "agrees"
                     : (best_by_crit ? "prefers " + best_by_crit->model + " (" + best.model +
                                           ": delta " + fmt(best.delta) + ")"
                                     : std::string("is not available"))
                           .c_str());
  std::printf("\nFiles:\n");
  for (const auto& f : files) std::printf("  %s\n", f.c_str());
}

}  // namespace frictionlab::cli
