// frictionlab: joint model files (include/frictionlab/io/joint_json.hpp).
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/verdict_json.hpp"

#include <cmath>
#include <variant>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/workflows/report.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {

using nlohmann::json;
using nlohmann::ordered_json;

ModelSpec joint_friction_spec(const sim::JointModel& m) {
  if (const auto* p = std::get_if<JointLuGre<double>::Params>(&m.friction)) return ModelSpec{*p};
  const auto& s = std::get<StaticFriction<double>::Params>(m.friction);
  const auto& c = s.curve;
  StaticSpec spec{StaticKind::stribeck, s};
  if (c.Fs_pos == c.Fc_pos && c.Fs_neg == c.Fc_neg)
    spec.kind = s.sigma2 == 0 ? StaticKind::coulomb : StaticKind::coulomb_viscous;
  return ModelSpec{spec};
}

ordered_json joint_to_json(const sim::JointModel& m) {
  ordered_json o = ordered_json::object();
  o["I"] = m.I;
  if (m.structure.gravity) {
    o["mgCx"] = m.mgCx;
    o["mgCy"] = m.mgCy;
  }
  if (m.structure.offset) o["offset"] = m.offset;
  o["friction"] = to_json(joint_friction_spec(m));
  if (m.load) o["load"] = {{"mu_drive", m.load->mu_drive}, {"mu_back", m.load->mu_back}};
  if (m.temperature) o["temperature"] = temperature_law_json(*m.temperature);
  return o;
}

namespace {

/// A load or temperature dependence (`what` ... "needs") on a static friction with a smoothed
/// sign: refused, naming the file and key `ctx` (the dependences move the levels of static
/// friction with the exact sign, or of joint LuGre).
void require_exact_sign(const sim::JointModel& m, const std::string& file, const std::string& ctx,
                        const std::string& what) {
  const auto* s = std::get_if<StaticFriction<double>::Params>(&m.friction);
  if (s != nullptr && s->v_smooth > 0)
    detail::fail_file(file, ctx,
                      what +
                          " static friction with the exact sign (coulomb, coulomb-viscous or "
                          "stribeck without v_smooth) or joint-lugre");
}

/// The joint's "load" object (models/load_dependence.hpp): mu_drive, mu_back, both required,
/// finite and >= 0; static friction with the exact sign or joint LuGre.
LoadDependence<double> load_from_json(const json& j, const sim::JointModel& m,
                                      const std::string& file) {
  const std::string ctx = "joint: load";
  if (!j.is_object()) detail::fail_file(file, ctx, "expected an object, got " + detail::type_of(j));
  const detail::JsonFields f(&j, file, ctx, "the load dependence", {"mu_drive", "mu_back"});
  LoadDependence<double> out;
  for (const char* k : {"mu_drive", "mu_back"}) {
    if (!f.has(k))
      f.fail(k, "missing: the Coulomb level's rise per N m of load [-] (give 0 for none)");
    const double x = f.number(k, 0);
    if (!(x >= 0) || !std::isfinite(x))
      f.fail(k, std::string("must be a finite number >= 0, got ") + j[k].dump());
    (std::string_view(k) == "mu_drive" ? out.mu_drive : out.mu_back) = x;
  }
  require_exact_sign(m, file, ctx, "a load-dependent Coulomb level needs");
  return out;
}

/// The joint's "temperature" object (models/temperature_dependence.hpp): law ("linear" or
/// "exponential"), T_ref [degC], kT, kT_v [1/K], all required and finite; static friction with
/// the exact sign or LuGre.
TemperatureDependence<double> temperature_from_json(const json& j, const sim::JointModel& m,
                                                    const std::string& file) {
  const std::string ctx = "joint: temperature";
  const TemperatureDependence<double> out = temperature_law_from_json(j, file, ctx);
  require_exact_sign(m, file, ctx, "temperature-dependent levels need");
  return out;
}

}  // namespace

JointFile joint_from_json(const json& j, const std::string& file) {
  const std::string ctx = "joint";
  if (!j.is_object()) detail::fail_file(file, ctx, "expected an object, got " + detail::type_of(j));
  const detail::JsonFields f(
      &j, file, ctx, "the joint",
      {"I", "mgCx", "mgCy", "offset", "friction", "load", "temperature", "description"});
  JointFile out;
  sim::JointModel& m = out.model;
  if (!f.has("I")) f.fail("I", "missing: the inertia about the axis [kg m^2] is required");
  m.I = f.number("I", 0);
  if (!(m.I > 0) || !std::isfinite(m.I)) f.fail("I", "must be > 0 kg m^2, got " + j["I"].dump());
  if (f.has("mgCx") != f.has("mgCy"))
    f.fail(f.has("mgCx") ? "mgCy" : "mgCx",
           "missing: give both gravity terms mgCx and mgCy, or neither (no gravity)");
  m.structure.gravity = f.has("mgCx");
  m.mgCx = f.number("mgCx", 0);
  m.mgCy = f.number("mgCy", 0);
  m.structure.offset = f.has("offset");
  m.offset = f.number("offset", 0);
  for (const char* k : {"mgCx", "mgCy", "offset"})
    if (f.has(k) && !std::isfinite(f.number(k, 0))) f.fail(k, "must be finite");
  if (!f.has("friction"))
    f.fail("friction",
           "missing: a MODEL.json object (joint-lugre, coulomb, coulomb-viscous or "
           "stribeck)");
  ModelFile mf = model_from_json(j["friction"], file, "joint: friction");
  out.warnings = std::move(mf.warnings);
  if (const auto* p = std::get_if<JointLuGre<double>::Params>(&mf.spec)) {
    m.friction = *p;
  } else if (const auto* s = std::get_if<StaticSpec>(&mf.spec);
             s != nullptr && s->kind != StaticKind::viscous) {
    m.friction = s->params;
  } else {
    detail::fail_file(file, "joint: friction",
                      "model '" + model_name(mf.spec) +
                          "' is not a joint friction model (joint-lugre, coulomb, "
                          "coulomb-viscous or stribeck)");
  }
  if (f.has("load")) m.load = load_from_json(j["load"], m, file);
  if (f.has("temperature")) m.temperature = temperature_from_json(j["temperature"], m, file);
  return out;
}

JointFile parse_joint_json(std::string_view text, const std::string& file) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(j, file, {detail::JsonKind::joint, detail::JsonKind::joint_fit});
  if (!j.is_object() || !j.contains("joint"))
    detail::fail_file(file, "", "missing key 'joint' (a joint file or a fit-joint result)");
  return joint_from_json(j["joint"], file);
}

identify::JointController parse_controller_json(std::string_view text, const std::string& file) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(j, file, {detail::JsonKind::controller});
  const std::string ctx = "controller";
  if (!j.is_object()) detail::fail_file(file, ctx, "expected an object, got " + detail::type_of(j));
  const detail::JsonFields f(&j, file, ctx, "the controller",
                             {"kp", "kd", "kff", "bias", "description"});
  for (const char* k : {"kp", "kd"})
    if (!f.has(k)) f.fail(k, "missing: the controller's gains kp [N m/rad] and kd [N m s/rad]");
  identify::JointController c;
  c.kp = f.number("kp", 0);
  c.kd = f.number("kd", 0);
  c.kff = f.number("kff", 1);
  c.bias = f.number("bias", 0);
  for (const char* k : {"kp", "kd"})
    if (!(f.number(k, 0) >= 0) || !std::isfinite(f.number(k, 0)))
      f.fail(k, std::string("must be a finite number >= 0, got ") + j[k].dump());
  for (const char* k : {"kff", "bias"})
    if (f.has(k) && !std::isfinite(f.number(k, 0))) f.fail(k, "must be finite");
  return c;
}

identify::JointController read_controller_file(const std::string& path) {
  return parse_controller_json(read_text_file(path, "a CONTROLLER.json file"), path);
}

JointFile read_joint_file(const std::string& path) {
  return parse_joint_json(read_text_file(path, "a JOINT.json or joint_fit.json file"), path);
}

namespace {

ordered_json channel_json(const identify::ChannelError& c) {
  ordered_json o = ordered_json::object();
  o["rel"] = finite_or_null(c.rel);
  o["rmse"] = finite_or_null(c.rmse);
  o["max_abs"] = finite_or_null(c.max_abs);
  return o;
}

}  // namespace

ordered_json joint_errors_json(const identify::JointEvaluation& e) {
  ordered_json o = ordered_json::object();
  o["torque"] = channel_json(e.torque);
  o["position"] = channel_json(e.position);
  o["velocity"] = channel_json(e.velocity);
  return o;
}

ordered_json sr3_details_json(const identify::JointSr3Result& r) {
  ordered_json d = ordered_json::object();
  d["candidates"] = r.candidates;
  d["active"] = r.active;
  d["lambda"] = r.lambda;
  d["aic_observations"] = r.aic_observations;
  d["aic_on_held_out_training"] = r.held_out;
  d["static_velocity_floor"] = r.static_velocity_floor;
  d["static_rel_error"] = r.static_rel_error;
  d["rel_error"] = r.rel_error;
  d["sigma0_start"] = r.starts.empty() ? 0.0 : r.starts[r.chosen_start].sigma0_init;
  ordered_json st = ordered_json::array();
  for (const auto& x : r.starts)
    st.push_back({{"sigma0_init", x.sigma0_init},
                  {"rel_error", finite_or_null(x.rel_error)},
                  {"outer_iterations", x.outer_iterations},
                  {"converged", x.converged},
                  {"sigma0", finite_or_null(x.sigma0)},
                  {"sigma1", finite_or_null(x.sigma1)}});
  d["starts"] = std::move(st);
  d["seconds"] = r.seconds;
  return d;
}

namespace {

/// joint_fit.json's "reliability" object (docs/file-formats.md).
ordered_json reliability_json(const identify::Reliability& rel) {
  return {{"standard_errors_reliable", rel.standard_errors},
          {"reasons", rel.reasons},
          {"residual_acf1", finite_or_null(rel.whiteness.acf1)},
          {"ljung_box_q", finite_or_null(rel.whiteness.ljung_box_q)},
          {"ljung_box_p", finite_or_null(rel.whiteness.ljung_box_p)},
          {"ljung_box_lags", rel.whiteness.lags},
          {"hac_lags", rel.hac_lags},
          {"hac_ratio_max", finite_or_null(rel.hac_ratio_max)}};
}

ordered_json series_json(const workflows::JointRecordSeries& r) {
  return {{"file", r.name},
          {"t", finite_or_null(r.t)},
          {"q", finite_or_null(r.q)},
          {"q_sim", finite_or_null(r.q_sim)},
          {"qd", finite_or_null(r.qd)},
          {"qd_sim", finite_or_null(r.qd_sim)},
          {"tau", finite_or_null(r.tau)},
          {"tau_pred", finite_or_null(r.tau_pred)}};
}

/// joint_fit.json's "report": what `frictionlab report` draws (docs/file-formats.md).
ordered_json joint_report_json(const workflows::FitJointOutcome& s) {
  ordered_json rep = ordered_json::object();
  ordered_json recs = ordered_json::array();
  if (!s.training.q_sim.empty())
    recs.push_back(series_json(workflows::joint_record_series(s.training_data, s.training)));
  for (std::size_t i = 0; i < s.validation.size() && i < s.validation_data.size(); ++i)
    if (!s.validation[i].q_sim.empty())
      recs.push_back(
          series_json(workflows::joint_record_series(s.validation_data[i], s.validation[i])));
  rep["records"] = std::move(recs);
  ordered_json scan = ordered_json::array();
  if (s.sr3)
    for (std::size_t i = 0; i < s.sr3->scan.size(); ++i) {
      const auto& row = s.sr3->scan[i];
      scan.push_back({{"lambda", finite_or_null(row.lambda)},
                      {"n_active", row.n_active},
                      {"train_rel_error", finite_or_null(row.train_rel_error)},
                      {"aic_r", finite_or_null(row.aic_r)},
                      {"admissible", row.admissible},
                      {"chosen", i == s.sr3->chosen}});
    }
  rep["sr3_scan"] = std::move(scan);
  return rep;
}

ordered_json method_details(const workflows::FitJointOutcome& r) {
  ordered_json d = ordered_json::object();
  if (r.idim)
    d["idim"] = {{"samples", r.idim->n_used},
                 {"sigma", r.idim->sigma},
                 {"condition_number", r.idim->condition_number},
                 {"rmse", r.idim->training.rmse}};
  if (r.sr3) d["sr3"] = sr3_details_json(*r.sr3);
  if (r.oe) {
    const auto& oe = r.oe->result;
    ordered_json ctrl = nullptr;
    if (const auto& c = r.oe->controller)
      ctrl = {{"source", c->source},        {"kp", c->controller.kp},
              {"kd", c->controller.kd},     {"kff", c->controller.kff},
              {"bias", c->controller.bias}, {"torque_rel_error", c->torque_rel_error}};
    d["oe"] = {{"init", r.oe->init},
               {"closed_loop", r.oe->closed_loop},
               {"controller", ctrl},
               {"initial_cost", oe.initial_cost},
               {"final_cost", oe.final_cost},
               {"iterations", oe.iterations},
               {"converged", oe.converged},
               {"termination", oe.termination},
               {"segments", oe.segments},
               {"condition_number", oe.condition_number},
               {"start_score", r.oe->start_score},
               {"refined_score", r.oe->refined_score},
               {"kept_start", r.oe->kept_start},
               {"reliability", reliability_json(oe.reliability)}};
  }
  return d;
}

/// A low-pass chosen from a record (identify::JointLowpassChoice).
ordered_json lowpass_json(const identify::JointLowpassChoice& c) {
  return ordered_json{{"cutoff_hz", c.cutoff_hz},           {"candidate_hz", c.candidate_hz},
                      {"bandwidth_hz", c.bandwidth_hz},     {"noise_share", c.noise_share},
                      {"sample_rate_hz", c.sample_rate_hz}, {"chosen_from", c.source}};
}

}  // namespace

ordered_json joint_fit_to_json(const workflows::FitJointOutcome& s) {
  ordered_json o = ordered_json::object();
  o["format"] = "frictionlab-joint-fit";
  o["version"] = 1;
  o["method"] = workflows::joint_method_name(s.method);
  o["input"] = s.input;
  o["verdict"] = verdict_to_json(s.verdict);
  o["lowpass"] = s.lowpass ? lowpass_json(*s.lowpass) : ordered_json(nullptr);
  o["joint"] = joint_to_json(s.model);
  ordered_json params = ordered_json::array();
  for (const auto& e : s.parameters) {
    ordered_json p = ordered_json::object();
    p["name"] = e.name;
    p["unit"] = e.unit;
    p["value"] = finite_or_null(e.value);
    p["std_error"] = finite_or_null(e.std_error);
    p["ci95"] = ordered_json::array({finite_or_null(e.ci_low), finite_or_null(e.ci_high)});
    p["fixed"] = e.fixed;
    p["at_limit"] = e.at_limit;
    p["undetermined"] = e.undetermined;
    p["hac_std_error"] = finite_or_null(e.hac_std_error);
    p["hac_ci95"] =
        ordered_json::array({finite_or_null(e.hac_ci_low), finite_or_null(e.hac_ci_high)});
    params.push_back(std::move(p));
  }
  o["parameters"] = std::move(params);
  if (s.reliability) o["reliability"] = reliability_json(*s.reliability);
  o["training"] = joint_errors_json(s.training);
  ordered_json val = ordered_json::array();
  for (const auto& e : s.validation) {
    ordered_json v = ordered_json::object();
    v["file"] = e.source;
    v.update(joint_errors_json(e));
    val.push_back(std::move(v));
  }
  o["validation"] = std::move(val);
  ordered_json sc = ordered_json::array();
  for (const auto& p : s.static_curve)
    sc.push_back(ordered_json{
        {"qd", p.qd}, {"measured", p.measured}, {"model", p.model}, {"duration", p.duration}});
  o["static_curve"] = std::move(sc);
  o["method_details"] = method_details(s);
  o["run_time_s"] = s.run_time_s;
  o["warnings"] = s.warnings;
  o["report"] = joint_report_json(s);
  return o;
}

ordered_json joint_eval_to_json(const workflows::EvalJointOutcome& r, const sim::JointModel& model,
                                const std::string& joint_file) {
  ordered_json summary = ordered_json::object();
  summary["format"] = "frictionlab-joint-eval";
  summary["version"] = 1;
  summary["joint_file"] = joint_file;
  summary["verdict"] = verdict_to_json(r.verdict);
  summary["joint"] = joint_to_json(model);
  summary["records"] = ordered_json::array();
  for (std::size_t i = 0; i < r.evaluations.size(); ++i) {
    const auto& e = r.evaluations[i];
    ordered_json rec = ordered_json::object();
    rec["file"] = e.source;
    rec["lowpass"] =
        i < r.lowpass.size() && r.lowpass[i] ? lowpass_json(*r.lowpass[i]) : ordered_json(nullptr);
    rec.update(joint_errors_json(e));
    summary["records"].push_back(std::move(rec));
  }
  summary["warnings"] = r.warnings;
  // What the report draws (docs/report.md): every record and the model's simulation, thinned.
  ordered_json recs = ordered_json::array();
  for (std::size_t i = 0; i < r.evaluations.size() && i < r.data.size(); ++i)
    if (!r.evaluations[i].q_sim.empty())
      recs.push_back(series_json(workflows::joint_record_series(r.data[i], r.evaluations[i])));
  summary["report"] = {{"records", std::move(recs)}};
  return summary;
}

}  // namespace frictionlab::io
