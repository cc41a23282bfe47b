// frictionlab fit-actuator / eval-actuator: servo actuator models M1..M6 of the BAM package
// (reference 002) fitted to pendulum logs and selected on held-out logs; evaluation of parameter
// files on logs (docs/actuators.md). Parsing and printing only: the work is identify/servo_fit,
// io/servo_json.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/servo_json.hpp"

namespace frictionlab::cli {
namespace {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    const auto a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    if (a == std::string::npos) throw std::invalid_argument("empty item in list '" + s + "'");
    out.push_back(item.substr(a, b - a + 1));
  }
  return out;
}

double parse_number(const std::string& s, const std::string& what) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || !std::isfinite(x))
    throw std::invalid_argument(what + ": expected a number, got '" + s + "'");
  return x;
}

struct LogOptions {
  std::vector<std::string> logs;
  std::string kp, trajectory, files;
  double resample = 0.0;
};

void add_log_options(CLI::App* cmd, LogOptions& o) {
  cmd->add_option("--logs", o.logs, "BAM log files, or directories of .json logs")
      ->type_name("PATH")
      ->required();
  cmd->add_option("--kp", o.kp, "Use only the logs with these kp (comma-separated)");
  cmd->add_option("--trajectory", o.trajectory,
                  "Use only the logs with these trajectories (comma-separated)");
  cmd->add_option("--file", o.files, "Use only these log files (names, comma-separated)");
  cmd->add_option("--resample", o.resample,
                  "Resample raw logs (no 'dt') to this step [s] as BAM's process.py does")
      ->type_name("DT");
}

std::vector<data::ServoLog> load_logs(const LogOptions& o) {
  data::ServoLogFilter filter;
  if (!o.kp.empty())
    for (const auto& s : split_list(o.kp)) filter.kp.push_back(parse_number(s, "--kp"));
  if (!o.trajectory.empty()) filter.trajectory = split_list(o.trajectory);
  if (!o.files.empty()) filter.files = split_list(o.files);
  if (o.resample < 0) throw std::invalid_argument("--resample: must be > 0");
  std::vector<data::ServoLog> logs;
  for (auto& r : io::read_servo_logs(o.logs)) {
    if (!r.ignored_keys.empty()) {
      std::string keys;
      for (const auto& k : r.ignored_keys) keys += (keys.empty() ? "" : ", ") + k;
      print_warning(r.log.file + ": keys not used: " + keys);
    }
    if (!data::servo_log_selected(r.log, filter)) continue;
    if (o.resample > 0) {
      if (r.log.processed())
        print_warning(r.log.file + ": already at a fixed step (dt = " +
                      io::format_double(r.log.dt) + "), resampled again to " +
                      io::format_double(o.resample));
      r.log = data::resample_servo_log(r.log, o.resample);
    } else if (!r.log.processed()) {
      throw io::InputError(r.log.file, 0, 0,
                           "raw log (no 'dt'): give --resample DT (e.g. 0.005) to resample it");
    }
    logs.push_back(std::move(r.log));
  }
  if (logs.empty()) throw std::invalid_argument("no log left after the selection");
  return logs;
}

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

std::string fixed(double x, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s += std::string(w - s.size(), ' ');
  return s;
}

std::string lpad(std::string s, std::size_t w) {
  if (s.size() < w) s = std::string(w - s.size(), ' ') + s;
  return s;
}

// ---- fit-actuator ----

struct FitActuatorOptions {
  LogOptions logs;
  std::string actuator, models = "m1,m2,m3,m4,m5,m6", validate = "leave-kp-out";
  std::string out = "frictionlab-actuator";
  long trials = 3000;
  double time_budget = 0.0, velocity_weight = 0.0, tolerance = 0.02, sigma0 = 0.25;
  std::uint64_t seed = 1;
  int threads = 0, restarts = 9;
  std::vector<std::string> ranges;
  // generic actuator
  std::string drive = "voltage";
  double error_gain = 0.0, max_pwm = 1.0, max_current = 0.0, vin = 0.0;
};

std::vector<ActuatorModel> parse_models(const std::string& s) {
  std::vector<ActuatorModel> out;
  auto add = [&](ActuatorModel m) {
    if (std::find(out.begin(), out.end(), m) != out.end())
      throw std::invalid_argument("--models: " + std::string(sim::actuator_model_name(m)) +
                                  " listed twice");
    out.push_back(m);
  };
  for (const auto& item : split_list(s)) {
    const auto dots = item.find("..");
    ActuatorModel a{}, b{};
    if (dots != std::string::npos) {
      if (!sim::parse_actuator_model(item.substr(0, dots), a) ||
          !sim::parse_actuator_model(item.substr(dots + 2), b) || b < a)
        throw std::invalid_argument("--models: bad range '" + item + "' (e.g. m1..m6)");
      for (int k = static_cast<int>(a); k <= static_cast<int>(b); ++k)
        add(static_cast<ActuatorModel>(k));
    } else {
      if (!sim::parse_actuator_model(item, a))
        throw std::invalid_argument("--models: unknown model '" + item + "' (m1 .. m6)");
      add(a);
    }
  }
  return out;
}

identify::ServoValidation parse_validation(const std::string& s) {
  identify::ServoValidation v;
  using K = identify::ServoValidation::Kind;
  if (s == "none") {
    v.kind = K::none;
  } else if (s == "leave-kp-out") {
    v.kind = K::leave_kp;
  } else if (s.rfind("kp=", 0) == 0) {
    v.kind = K::kp;
    v.kp = parse_number(s.substr(3), "--validate kp=");
  } else if (s.rfind("kfold=", 0) == 0) {
    v.kind = K::kfold;
    const double k = parse_number(s.substr(6), "--validate kfold=");
    if (k != std::floor(k) || k < 2 || k > 1000)
      throw std::invalid_argument("--validate kfold=K: K must be an integer >= 2");
    v.folds = static_cast<int>(k);
  } else {
    throw std::invalid_argument("--validate: expected kp=VALUE, leave-kp-out, kfold=K or none, got '" +
                                s + "'");
  }
  return v;
}

void run_fit_actuator(const FitActuatorOptions& o) {
  const auto models = parse_models(o.models);
  const auto validation = parse_validation(o.validate);
  auto logs = load_logs(o.logs);
  // actuator: the option, else the logs' "motor" if they agree
  std::string name = o.actuator;
  if (name.empty()) {
    std::set<std::string> motors;
    for (const auto& l : logs) motors.insert(l.motor);
    if (motors.size() != 1 || motors.begin()->empty())
      throw std::invalid_argument(
          "--actuator: not given and the logs do not name one actuator ('motor')");
    name = *motors.begin();
  }
  io::ServoParamFile templ;
  templ.actuator = name;
  sim::ServoActuator family = sim::kGenericServo;
  if (const auto* a = sim::find_servo_actuator(name)) {
    family = *a;
    templ.constants = a->constants;
  } else if (name == "generic") {
    if (!(o.error_gain > 0))
      throw std::invalid_argument("--actuator generic needs --error-gain > 0");
    if (!(o.max_pwm > 0 && o.max_pwm <= 1))
      throw std::invalid_argument("--max-pwm: must be in (0, 1]");
    templ.constants.drive = o.drive == "current" ? sim::ServoDrive::current : sim::ServoDrive::voltage;
    templ.constants.error_gain = o.error_gain;
    templ.constants.max_pwm = o.max_pwm;
    templ.constants.max_current = o.max_current;
    templ.constants.vin = o.vin;
  } else {
    std::string names;
    for (const auto& fam : sim::kServoActuators) names += std::string(fam.name) + ", ";
    throw std::invalid_argument("--actuator: unknown actuator '" + name + "' (" + names +
                                "generic)");
  }
  identify::ServoFitOptions fo;
  fo.cmaes.max_evals = o.trials;
  fo.cmaes.max_seconds = o.time_budget;
  fo.cmaes.seed = o.seed;
  fo.cmaes.sigma0 = o.sigma0;
  fo.cmaes.max_restarts = o.restarts;
  fo.cmaes.threads = o.threads > 0 ? o.threads
                                   : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  fo.loss.velocity_weight = o.velocity_weight;
  for (const auto& r : o.ranges) {
    const auto eq = r.find('='), colon = r.find(':', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || colon == std::string::npos)
      throw std::invalid_argument("--range: expected KEY=LO:HI, got '" + r + "'");
    identify::ServoBound b;
    b.key = r.substr(0, eq);
    b.lo = parse_number(r.substr(eq + 1, colon - eq - 1), "--range " + b.key);
    b.hi = parse_number(r.substr(colon + 1), "--range " + b.key);
    bool known = false;
    for (auto m : models)
      for (auto k : sim::servo_param_keys(m, templ.constants.drive)) known = known || k == b.key;
    if (!known) throw std::invalid_argument("--range: '" + b.key + "' is not a parameter of the models fitted");
    fo.bounds.push_back(b);
  }
  std::cerr << "frictionlab: " << logs.size() << " logs, actuator " << name << ", "
            << fo.cmaes.threads << " thread(s), " << o.trials << " evaluations per fit\n";
  const auto sel = identify::fit_and_select_servo_models(
      models, family, templ.constants, logs, validation, fo, o.tolerance,
      [](const std::string& line) { std::cerr << "frictionlab: " << line << '\n'; });

  const bool has_val = validation.kind != identify::ServoValidation::Kind::none;
  std::filesystem::create_directories(o.out);
  std::cout << "actuator " << name << ", " << logs.size() << " logs, validation: " << o.validate
            << "\n\n";
  std::cout << "model  params  train MAE [rad]  validation MAE [rad]  evaluations  time [s]\n";
  nlohmann::ordered_json summary;
  summary["actuator"] = name;
  summary["validation"] = o.validate;
  summary["logs"] = nlohmann::json::array();
  for (const auto& l : logs) summary["logs"].push_back(base_name(l.file));
  summary["models"] = nlohmann::json::array();
  for (const auto& r : sel.models) {
    const std::string m(sim::actuator_model_name(r.model));
    std::cout << pad(m, 7) << lpad(std::to_string(r.parameters), 6) << lpad(fixed(r.train_mae, 5), 17)
              << lpad(has_val ? fixed(r.validation_mae, 5) : "-", 22)
              << lpad(std::to_string(r.evals), 13) << lpad(fixed(r.seconds, 1), 10) << '\n';
    io::ServoParamFile pf = templ;
    pf.params = r.fit.params;
    const std::string path = (std::filesystem::path(o.out) / (m + ".json")).string();
    io::write_servo_params(path, pf);
    nlohmann::ordered_json row;
    row["model"] = m;
    row["parameters"] = r.parameters;
    row["train_mae"] = r.train_mae;
    if (has_val) row["validation_mae"] = r.validation_mae;
    row["evaluations"] = r.evals;
    row["seconds"] = r.seconds;
    row["params_file"] = m + ".json";
    row["at_bound"] = r.fit.at_bound;
    summary["models"].push_back(row);
    if (!r.fit.at_bound.empty()) {
      std::string keys;
      for (const auto& k : r.fit.at_bound) keys += (keys.empty() ? "" : ", ") + k;
      std::string msg = m;
      msg += ": at the end of its range: ";
      msg += keys;
      msg += " (see --range)";
      print_warning(msg);
    }
  }
  summary["recommended"] = std::string(sim::actuator_model_name(sel.recommended));
  summary["reason"] = sel.reason;
  io::write_text_file((std::filesystem::path(o.out) / "summary.json").string(), summary.dump(2) + "\n");
  std::cout << "\nrecommended: " << sel.reason << "\n";
  std::cout << "parameter files: " << o.out << "/m*.json, summary: " << o.out << "/summary.json\n";
}

// ---- eval-actuator ----

struct EvalActuatorOptions {
  LogOptions logs;
  std::vector<std::string> params;
  std::string json;
};

void run_eval_actuator(const EvalActuatorOptions& o) {
  std::vector<std::string> files;
  for (const auto& p : o.params) {
    if (std::filesystem::is_directory(p)) {
      std::vector<std::string> here;
      for (const auto& e : std::filesystem::directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".json" &&
            e.path().filename() != "summary.json")
          here.push_back(e.path().string());
      if (here.empty()) throw io::InputError(p, 0, 0, "directory has no .json parameter file");
      std::sort(here.begin(), here.end());
      files.insert(files.end(), here.begin(), here.end());
    } else {
      files.push_back(p);
    }
  }
  std::vector<io::ServoParamFile> params;
  std::vector<std::string> labels;
  for (const auto& f : files) {
    params.push_back(io::read_servo_params(f));
    labels.push_back(std::filesystem::path(f).stem().string());
  }
  const auto logs = load_logs(o.logs);
  std::size_t w = 8;
  for (const auto& l : logs) w = std::max(w, base_name(l.file).size() + 2);
  std::cout << pad("log", w) << pad("kp", 7) << pad("trajectory", 17);
  for (const auto& l : labels) std::cout << lpad(l, std::max<std::size_t>(10, l.size() + 2));
  std::cout << "\n";
  std::vector<double> sum(params.size(), 0.0);
  nlohmann::ordered_json out;
  for (std::size_t j = 0; j < params.size(); ++j) {
    out[labels[j]]["file"] = files[j];
    out[labels[j]]["per_log"] = nlohmann::ordered_json::object();
  }
  for (const auto& l : logs) {
    std::cout << pad(base_name(l.file), w) << pad(io::format_double(l.kp), 7)
              << pad(l.trajectory, 17);
    for (std::size_t j = 0; j < params.size(); ++j) {
      const double mae =
          identify::servo_log_error(params[j].constants, params[j].params, l).position_mae;
      sum[j] += mae;
      out[labels[j]]["per_log"][base_name(l.file)] = mae;
      std::cout << lpad(fixed(mae, 6), std::max<std::size_t>(10, labels[j].size() + 2));
    }
    std::cout << "\n";
  }
  std::cout << pad("mean", w + 24);
  for (std::size_t j = 0; j < params.size(); ++j) {
    const double mean = sum[j] / static_cast<double>(logs.size());
    out[labels[j]]["mean"] = mean;
    std::cout << lpad(fixed(mean, 6), std::max<std::size_t>(10, labels[j].size() + 2));
  }
  std::cout << "\n(mean absolute position error [rad] of the closed-loop re-simulation of each log)\n";
  if (!o.json.empty()) io::write_text_file(o.json, out.dump(2) + "\n");
}

}  // namespace

void register_fit_actuator(CLI::App& app, Registry& registry) {
  auto fo = std::make_shared<FitActuatorOptions>();
  CLI::App* fit = app.add_subcommand(
      "fit-actuator",
      "Fit the servo actuator models M1..M6 (BAM) to pendulum logs, validate on held-out logs "
      "and recommend one (docs/actuators.md).");
  add_log_options(fit, fo->logs);
  fit->add_option("--actuator", fo->actuator,
                  "xl330, mx64, mx106, xl320, xc330m288t or generic (default: the logs' 'motor')");
  fit->add_option("--models", fo->models, "Models to fit: a list (m1,m3,m6) or a range (m1..m6)")
      ->capture_default_str();
  fit->add_option("--validate", fo->validate,
                  "kp=VALUE (hold out the logs of one kp), leave-kp-out, kfold=K (by file) or none")
      ->capture_default_str();
  fit->add_option("--trials", fo->trials, "Objective evaluations per fit (CMA-ES budget)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  fit->add_option("--time-budget", fo->time_budget, "Wall-time budget per fit [s] (0: none)")
      ->check(CLI::NonNegativeNumber);
  fit->add_option("--seed", fo->seed, "Random seed (results are deterministic for a seed)")
      ->capture_default_str();
  fit->add_option("--threads", fo->threads, "Evaluation threads (default: all cores)")
      ->check(CLI::NonNegativeNumber);
  fit->add_option("--restarts", fo->restarts, "IPOP restarts per fit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  fit->add_option("--sigma0", fo->sigma0, "Initial CMA-ES step in the normalised box")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  fit->add_option("--velocity-weight", fo->velocity_weight,
                  "Add this weight [s] times the mean absolute velocity error to the loss")
      ->check(CLI::NonNegativeNumber);
  fit->add_option("--range", fo->ranges, "Search range of a parameter: KEY=LO:HI (repeatable)");
  fit->add_option("--tolerance", fo->tolerance,
                  "Recommend the simplest model within this fraction of the best validation MAE")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  fit->add_option("--out", fo->out, "Output directory (m1.json .. m6.json, summary.json)")
      ->capture_default_str();
  fit->add_option("--drive", fo->drive, "generic actuator: voltage or current")
      ->check(CLI::IsMember({"voltage", "current"}));
  fit->add_option("--error-gain", fo->error_gain, "generic actuator: duty (or A) per kp*rad");
  fit->add_option("--max-pwm", fo->max_pwm, "generic actuator: duty limit");
  fit->add_option("--max-current", fo->max_current, "generic actuator: current-limit window [A]");
  fit->add_option("--vin", fo->vin, "generic actuator: supply voltage for logs without 'vin'");
  registry.push_back({fit, [fo] { run_fit_actuator(*fo); }});

  auto eo = std::make_shared<EvalActuatorOptions>();
  CLI::App* ev = app.add_subcommand(
      "eval-actuator",
      "Re-simulate logs with servo parameter files (BAM's keys) and print the per-log MAE.");
  ev->add_option("--params", eo->params, "Parameter files, or directories of them")
      ->type_name("PARAMS.json")
      ->required();
  add_log_options(ev, eo->logs);
  ev->add_option("--json", eo->json, "Write the per-log MAE to this JSON file");
  registry.push_back({ev, [eo] { run_eval_actuator(*eo); }});
}

}  // namespace frictionlab::cli
