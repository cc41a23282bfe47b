#include "frictionlab/io/fit_json.hpp"

#include "frictionlab/io/verdict_json.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace frictionlab::io {

nlohmann::ordered_json finite_or_null(double x) {
  if (!std::isfinite(x)) return nullptr;
  return x;
}

nlohmann::ordered_json finite_or_null(const std::vector<double>& x) {
  auto a = nlohmann::ordered_json::array();
  for (double v : x) a.push_back(finite_or_null(v));
  return a;
}

std::string problem_name(identify::ProblemKind p) {
  return p == identify::ProblemKind::sensorless ? "sensorless" : "friction";
}

namespace {

nlohmann::ordered_json number(double x) { return finite_or_null(x); }

nlohmann::ordered_json metrics_json(const identify::Metrics& m) {
  nlohmann::ordered_json j;
  j["n"] = m.n;
  j["rmse"] = number(m.rmse);
  j["nrmse"] = number(m.nrmse);
  j["r2"] = number(m.r2);
  j["max_abs_residual"] = number(m.max_abs);
  j["ssr"] = number(m.ssr);
  return j;
}

}  // namespace

nlohmann::ordered_json fit_to_json(const identify::FitResult& r, const std::string& input,
                                   const std::vector<ValidationEntry>& validation) {
  nlohmann::ordered_json j;
  j["format"] = "frictionlab-fit";
  j["version"] = 1;
  j["input"] = input;
  j["problem"] = problem_name(r.problem);
  j["method"] = identify::method_name(r.method);
  j["hold"] = hold_name(r.hold);
  j["model_name"] = r.model_name;
  j["model"] = to_json(r.params);
  if (r.Km) j["Km"] = *r.Km;
  auto& params = j["parameters"] = nlohmann::ordered_json::array();
  for (const auto& e : r.parameters) {
    nlohmann::ordered_json pj;
    pj["name"] = e.name;
    pj["field"] = e.field;
    pj["unit"] = e.unit;
    pj["value"] = number(e.value);
    pj["std_error"] = number(e.std_error);
    pj["ci95"] = {number(e.ci_low), number(e.ci_high)};
    pj["fixed"] = e.fixed;
    pj["at_bound"] = e.at_bound;
    pj["at_limit"] = e.at_limit;
    pj["hac_std_error"] = number(e.hac_std_error);
    pj["hac_ci95"] = {number(e.hac_ci_low), number(e.hac_ci_high)};
    params.push_back(pj);
  }
  auto& corr = j["correlation"] = nlohmann::ordered_json::array();
  for (const auto& row : r.correlation) {
    auto jr = nlohmann::ordered_json::array();
    for (double c : row) jr.push_back(number(c));
    corr.push_back(jr);
  }
  j["condition_number"] = number(r.condition_number);
  j["sigma"] = number(r.sigma);
  j["num_estimated"] = r.num_estimated;
  j["training"] = metrics_json(r.training);
  auto& val = j["validation"] = nlohmann::ordered_json::array();
  for (const auto& v : validation) {
    nlohmann::ordered_json vj;
    vj["file"] = v.name;
    vj["metrics"] = metrics_json(v.metrics);
    val.push_back(vj);
  }
  j["aicc"] = number(r.aicc);
  j["bic"] = number(r.bic);
  if (r.passive) {
    j["passive"] = *r.passive;
    if (!r.passivity_message.empty()) j["passivity_message"] = r.passivity_message;
  }
  j["run_time_s"] = r.run_time_s;
  nlohmann::ordered_json solver;
  solver["iterations"] = r.iterations;
  solver["converged"] = r.converged;
  solver["termination"] = r.termination;
  auto& starts = solver["starts"] = nlohmann::ordered_json::array();
  for (const auto& s : r.starts)
    starts.push_back({{"initial_cost", number(s.initial_cost)},
                      {"final_cost", number(s.final_cost)},
                      {"iterations", s.iterations},
                      {"converged", s.converged},
                      {"origin", s.origin}});
  solver["nested_model"] =
      r.nested_model.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.nested_model);
  j["solver"] = solver;
  const auto& rel = r.reliability;
  nlohmann::ordered_json rj;
  rj["standard_errors_reliable"] = rel.standard_errors;
  rj["reasons"] = rel.reasons;
  rj["residual_acf1"] = number(rel.whiteness.acf1);
  rj["ljung_box_q"] = number(rel.whiteness.ljung_box_q);
  rj["ljung_box_p"] = number(rel.whiteness.ljung_box_p);
  rj["ljung_box_lags"] = rel.whiteness.lags;
  rj["hac_lags"] = rel.hac_lags;
  rj["hac_ratio_max"] = number(rel.hac_ratio_max);
  j["reliability"] = rj;
  auto& flags = j["identifiability"] = nlohmann::ordered_json::array();
  for (const auto& f : r.identifiability)
    flags.push_back(
        {{"parameter",
          f.parameter.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.parameter)},
         {"kind", f.kind},
         {"other", f.other.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.other)},
         {"value", number(f.value)},
         {"message", f.message}});
  nlohmann::ordered_json d;
  d["samples"] = r.data.n;
  d["samples_used"] = r.data.n_used;
  d["duration_s"] = r.data.duration;
  d["rate_hz"] = r.data.rate_hz;
  d["dt_max_s"] = r.data.dt_max;
  d["velocity_reversals"] = r.data.reversals;
  d["v_max_abs"] = r.data.v_max_abs;
  d["warmup_s"] = r.warmup_s;
  j["data"] = d;
  j["warnings"] = r.warnings;
  return j;
}

nlohmann::ordered_json report_data_json(const workflows::FitReportData& d) {
  nlohmann::ordered_json j;
  j["t"] = finite_or_null(d.t);
  j["velocity"] = finite_or_null(d.velocity);
  j["measured"] = finite_or_null(d.measured);
  j["predicted"] = finite_or_null(d.predicted);
  j["residual"] = finite_or_null(d.residual);
  j["hist_edges"] = finite_or_null(d.hist_edges);
  j["hist_counts"] = d.hist_counts;
  j["residual_mean"] = number(d.residual_mean);
  j["residual_std"] = number(d.residual_std);
  j["acf"] = finite_or_null(d.acf);
  j["acf_band"] = number(d.acf_band);
  j["fv_velocity"] = finite_or_null(d.fv_velocity);
  j["fv_measured"] = finite_or_null(d.fv_measured);
  j["fv_static"] = finite_or_null(d.fv_static);
  j["v_min"] = number(d.v_min);
  j["v_max"] = number(d.v_max);
  j["y_min"] = number(d.y_min);
  j["y_max"] = number(d.y_max);
  j["near_zero"] = d.near_zero;
  j["near_zero_threshold"] = number(d.near_zero_threshold);
  j["near_zero_fraction"] = number(d.near_zero_fraction);
  return j;
}

nlohmann::ordered_json fit_outcome_to_json(const workflows::FitOutcome& f) {
  auto j = fit_to_json(f.result, f.input, f.validation);
  j["warnings"] = f.warnings;  // every warning of the run (record checks too), not the fit's only
  j["verdict"] = verdict_to_json(f.verdict);
  j["report"] = report_data_json(workflows::fit_report_data(f));
  return j;
}

}  // namespace frictionlab::io
