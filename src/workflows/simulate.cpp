// frictionlab workflows: simulate (include/frictionlab/workflows/simulate.hpp).
#include "frictionlab/workflows/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/sim/model_run.hpp"
#include "frictionlab/workflows/validate.hpp"

namespace frictionlab::workflows {
namespace {

// Index of the first sample at which any of the columns is not finite, or -1.
long first_non_finite(const std::vector<std::span<const double>>& cols) {
  std::size_t first = cols.empty() ? 0 : cols[0].size();
  for (const auto& c : cols)
    for (std::size_t k = 0; k < std::min(first, c.size()); ++k)
      if (!std::isfinite(c[k])) {
        first = k;
        break;
      }
  return cols.empty() || first == cols[0].size() ? -1 : static_cast<long>(first);
}

// "FILE line N" (or "FILE sample k" without line numbers) of sample k of the input.
std::string where(const ModelInputView& in, std::size_t k) {
  std::string s = in.source.empty() ? std::string() : std::string(in.source) + " ";
  if (k < in.lines.size()) return s + "line " + std::to_string(in.lines[k]);
  return s + "sample " + std::to_string(k);
}

/// The input's temperature against the options' law, before any work: given exactly where the
/// model has a law, one value per sample, each finite, not below absolute zero and where the
/// law's scales are positive (naming the input's line).
void check_temperature(const ModelInputView& input, const SimulateModelOptions& options) {
  const bool law = options.temperature.has_value(), channel = !input.temperature.empty();
  if (law && !channel)
    throw std::invalid_argument(
        "the model has a temperature law: give the input's temperature at every sample "
        "(--temperature COLUMN; Python temperature=)");
  if (!law && channel)
    throw std::invalid_argument(
        "a temperature was given, but the model has no temperature law (MODEL.json "
        "\"temperature\", docs/file-formats.md): it would not be used");
  if (!channel) return;
  if (input.temperature.size() != input.t.size())
    throw std::invalid_argument("simulate_model: " + std::to_string(input.t.size()) +
                                " times but " + std::to_string(input.temperature.size()) +
                                " temperatures");
  for (std::size_t k = 0; k < input.temperature.size(); ++k) {
    const double T = input.temperature[k];
    if (!std::isfinite(T) || T < -273.15)
      throw std::invalid_argument(where(input, k) + ": temperature = " + format_exact(T) +
                                  " degC is not a temperature");
    if (!temperature_scale_positive(*options.temperature, T))
      throw std::invalid_argument(where(input, k) + ": temperature = " + format_exact(T) +
                                  " degC: the " +
                                  std::string(temperature_law_name(options.temperature->law)) +
                                  " temperature law has no positive scale there (T_ref = " +
                                  format_number(options.temperature->T_ref) +
                                  " degC, kT = " + format_number(options.temperature->kT) +
                                  ", kT_v = " + format_number(options.temperature->kT_v) + " 1/K)");
  }
}

}  // namespace

double substep_count(std::span<const double> t, double max_substep) {
  if (!(max_substep > 0)) return t.size() < 2 ? 0.0 : static_cast<double>(t.size() - 1);
  double n = 0;
  for (std::size_t k = 1; k < t.size(); ++k)
    n += std::max(1.0, std::ceil((t[k] - t[k - 1]) / max_substep));
  return n;
}

SimulateModelOutcome simulate_model(const ModelSpec& model, const ModelInputView& input,
                                    const SimulateModelOptions& options, const Progress& progress) {
  validate(options);
  progress.check();
  const bool has_v = !input.v.empty(), has_x = !input.x.empty();
  if (has_v == has_x)
    throw std::invalid_argument(
        "simulate_model: give exactly one input series, v (velocity) or x (displacement); " +
        std::string(has_v ? "both were given" : "neither was given"));
  const std::span<const double> u = has_v ? input.v : input.x;
  if (u.size() != input.t.size())
    throw std::invalid_argument("simulate_model: " + std::to_string(input.t.size()) +
                                " times but " + std::to_string(u.size()) +
                                (has_v ? " velocities" : " displacements"));
  if (input.t.size() < 2)
    throw std::invalid_argument("simulate_model: needs at least 2 samples, got " +
                                std::to_string(input.t.size()));
  // Limits, before any work: magnitudes (data::kMaxMagnitude) and the substep count.
  const auto check_limit = [&](std::span<const double> series, const char* name) {
    for (std::size_t k = 0; k < series.size(); ++k)
      if (const double x = series[k]; !(std::abs(x) <= data::kMaxMagnitude))
        throw std::invalid_argument(where(input, k) + ": " + name + " = " + format_exact(x) +
                                    (std::isnan(x)
                                         ? std::string(" is not a number")
                                         : " is beyond the limit |" + std::string(name) +
                                               "| <= " + format_exact(data::kMaxMagnitude) +
                                               " (SI units; not a physical input)"));
  };
  check_limit(input.t, "t");
  check_limit(u, has_v ? "v" : "x");
  check_temperature(input, options);
  if (options.max_substep > 0) {
    const double n = substep_count(input.t, options.max_substep);
    if (n > kMaxSubsteps) {
      const double span = input.t.back() - input.t.front();
      const double at_least = span / (kMaxSubsteps - static_cast<double>(input.t.size()));
      throw std::invalid_argument(
          "max_substep " + format_number(options.max_substep) + " s splits the input (" +
          format_number(span) + " s) into " + format_number(n) + " substeps, more than the limit " +
          format_number(kMaxSubsteps) + "; use a larger max_substep (at least " +
          format_number(at_least) + " s)");
    }
  }
  const std::string integrator = sim::method_name(options.method);

  SimulateModelOutcome r;
  r.model = frictionlab::model_name(model);
  const bool copy = options.copy_input;
  if (copy) r.t.assign(input.t.begin(), input.t.end());
  if (has_x) {
    if (options.hold == Hold::linear)
      throw std::invalid_argument(
          "--hold linear does not apply to a displacement input (t,x): x is interpolated "
          "linearly, so the velocity is constant over each sample interval (zoh)");
    r.hold = Hold::zoh;
    if (copy) r.x.assign(input.x.begin(), input.x.end());
    r.v = sim::velocity_from_displacement(input.t, input.x);
  } else {
    r.hold = options.hold.value_or(Hold::linear);
    if (copy) r.v.assign(input.v.begin(), input.v.end());
  }
  const std::span<const double> t = input.t;
  const std::span<const double> v = has_x || copy ? std::span<const double>(r.v) : input.v;

  progress.say(r.model + ": " + integrator + ", " + std::to_string(t.size()) + " samples", 0.0);
  std::function<void(long)> on_sample;
  if (progress.report || progress.cancel)
    on_sample = [&](long k) {
      progress.check();
      progress.say(r.model + ": sample " + std::to_string(k),
                   static_cast<double>(k) / static_cast<double>(t.size()));
    };
  sim::ModelRun run =
      options.temperature
          ? sim::run_model(model, sim::TemperatureInput{*options.temperature, input.temperature}, t,
                           v, options.method, r.hold, options.max_substep, on_sample)
          : sim::run_model(model, t, v, options.method, r.hold, options.max_substep, on_sample);
  r.F = std::move(run.F);
  r.state_names = std::move(run.state_names);
  r.states = std::move(run.states);
  r.state_bound = run.state_bound;
  r.bound_exceeded = run.bound_exceeded;

  // (the input's t and x are finite: checked above)
  std::vector<std::span<const double>> cols = {v, r.F};
  for (const auto& s : r.states) cols.emplace_back(s);
  if (const long k = first_non_finite(cols); k >= 0) {
    const auto kk = static_cast<std::size_t>(k);
    // the exact step is stable for any step: recommending it again would send the user in a
    // circle; its divergence comes from the parameters or the input
    const std::string advice =
        integrator == "exact"
            ? "the exact step is stable for any step, so the model's parameters or the input's "
              "magnitudes are beyond what double precision carries: check them (docs/models.md)"
            : "use --integrator exact (stable for any step) or a smaller --dt";
    throw std::runtime_error("--integrator " + integrator +
                             " diverged: the result is not finite from t = " + format_exact(t[kk]) +
                             " s (" + where(input, kk) + "); " + advice);
  }
  for (std::size_t k = 0; k < r.F.size(); ++k)
    if (std::abs(r.F[k]) > data::kMaxMagnitude)
      throw std::runtime_error(
          "the friction force reaches " + format_number(r.F[k]) +
          " N at t = " + format_exact(t[k]) + " s (" + where(input, k) +
          "), beyond the limit |F| <= " + format_number(data::kMaxMagnitude) +
          ": not a physical result; check the model's parameters and the input's magnitudes");
  if (r.bound_exceeded >= 0) {
    const auto k = static_cast<std::size_t>(r.bound_exceeded);
    r.warnings.push_back("the state left its invariant bound |z| <= " +
                         format_exact(r.state_bound) + " m from t = " + format_exact(t[k]) +
                         " s (" + where(input, k) + "): --integrator " + integrator +
                         " is unstable at this step; the result is not trustworthy "
                         "(--integrator exact keeps the bound for any step)");
  }
  progress.say(r.model + ": done", 1.0);
  return r;
}

SimulateSystemOutcome simulate_system(const SystemInput& system, const sim::SimOptions& options,
                                      const Progress& progress) {
  progress.check();
  const std::string integrator = sim::integrator_name(options.integrator);
  progress.say(std::string(sim::system_name(system.kind)) + ": " + integrator, 0.0);
  // Progress and cancellation at every 1 % of the simulated time (the integration loop calls
  // on_output after each output sample).
  sim::SimOptions o = options;
  const double t_end =
      system.kind == sim::SystemKind::stick_slip ? system.stick_slip.t_end : system.joint.t_end;
  if (progress.report || progress.cancel) {
    o.on_output = [&, next = 0.0](double t) mutable {
      if (t < next && t < t_end) return;
      next = (std::floor(t / t_end * 100 + 1e-9) + 1) / 100 * t_end;  // the next whole percent
      progress.check();
      progress.say(std::string(sim::system_name(system.kind)) + ": t = " + format_number(t) + " s",
                   t_end > 0 ? t / t_end : -1.0);
    };
  }
  SimulateSystemOutcome r;
  r.trajectory = system.kind == sim::SystemKind::stick_slip
                     ? sim::simulate_stick_slip(system.stick_slip, system.friction, o)
                     : sim::simulate_joint(system.joint, system.friction, o);
  const sim::SystemTrajectory& tr = r.trajectory;
  std::vector<std::span<const double>> cols = {tr.t, tr.x, tr.v, tr.F};
  for (const auto& s : tr.states) cols.emplace_back(s);
  if (const long k = first_non_finite(cols); k >= 0)
    throw std::runtime_error(
        "--integrator " + integrator + " failed: the result is not finite from t = " +
        format_exact(tr.t[static_cast<std::size_t>(k)]) + " s; try a smaller --dt");
  if (tr.unconverged_stages > 0)
    r.warnings.push_back(std::to_string(tr.unconverged_stages) +
                         " implicit stages ended without Newton convergence (the last iterate "
                         "was used): the step is near the scheme's limit; compare with a smaller "
                         "--dt or --integrator cvode");
  progress.say(std::string(sim::system_name(system.kind)) + ": done", 1.0);
  return r;
}

}  // namespace frictionlab::workflows
