// frictionlab identify: fit(), predict(), evaluate() (docs/identification.md).
#include "frictionlab/identify/fit.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "fit_statistics.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/identifiability.hpp"
#include "frictionlab/identify/segments.hpp"
#include "frictionlab/identify/stats.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/registry.hpp"
#include "grid.hpp"
#include "init.hpp"
#include "lsq.hpp"
#include "progress.hpp"
#include "robust.hpp"

namespace frictionlab::identify {

using detail::Family;
using detail::FitData;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The Stribeck exponent held fixed, if any.
std::optional<double> fixed_alpha(const FitOptions& opt) {
  if (opt.model.alpha) return opt.model.alpha;
  if (opt.problem == ProblemKind::sensorless && !opt.model.fit_alpha) return 1.0;
  return std::nullopt;
}

std::vector<int> free_indices(const std::vector<double>& nat) {
  std::vector<int> f;
  for (std::size_t i = 0; i < nat.size(); ++i)
    if (std::isnan(nat[i])) f.push_back(static_cast<int>(i));
  return f;
}

void copy_starts(FitResult& r, const detail::LsqRun& run) {
  r.starts = run.starts;
  r.iterations = run.iterations;
  r.converged = run.converged;
  r.termination = run.termination;  // (not converged: the verdict's `solver` reason)
}

/// The least-squares optimum of one family: multi-start from the data-driven initial guess and,
/// when the model contains another (Fit::nested), also from that model's optimum, itself fitted
/// the same way (so that a model never ends worse on the training record than the model it
/// contains; docs/identification.md, "Nested models").
struct LsqOptimum {
  detail::LsqRun run;
  detail::Robust loss;
  std::vector<int> free;
  std::string nested;         ///< name of the nested model ("" if none)
  double nested_cost = kNaN;  ///< its optimum's cost under this fit's loss
};

LsqOptimum lsq_optimum(const FitOptions& opt, const ModelChoice& model, const Family& fam,
                       const FitData& d, std::vector<double> nat, const Progress& prog,
                       const std::string& label) {
  LsqOptimum out;
  out.free = free_indices(nat);
  detail::ExtraStart extra;
  if (const auto ns = fam.nested()) {
    ModelChoice nm = model;
    nm.asymmetric = ns->asymmetric;
    nm.shape = ns->shape;
    nm.elements = ns->elements;
    const auto nfam = detail::make_family(nm, opt.problem, opt.rotary);
    std::vector<double> nnat(static_cast<std::size_t>(nfam->size()), kNaN);
    for (int i = 0; i < nfam->size(); ++i) {
      const int j = fam.index(nfam->info()[static_cast<std::size_t>(i)].field);
      if (j >= 0 && !std::isnan(nat[static_cast<std::size_t>(j)]))
        nnat[static_cast<std::size_t>(i)] = nat[static_cast<std::size_t>(j)];
    }
    out.nested = model_name(nm);
    prog.say(label + ": first the nested model " + out.nested);
    const auto inner =
        lsq_optimum(opt, nm, *nfam, d, nnat, prog, label + " (nested " + out.nested + ")");
    auto emb = fam.embed(*nfam, nfam->to_natural(inner.run.theta));
    for (std::size_t i = 0; i < emb.size(); ++i)
      if (!std::isnan(nat[i])) emb[i] = nat[i];  // held fixed
    bool ok = true;
    for (std::size_t i = 0; i < emb.size(); ++i)
      ok = ok && std::isfinite(emb[i]) && (fam.info()[i].tf != FitScale::log || emb[i] > 0);
    if (ok) extra = {fam.to_internal(emb), "optimum of nested model " + out.nested};
  }
  nat = detail::initial_guess(fam, model, d, opt.steady, nat, prog, opt.lsq.threads);
  const auto th0 = fam.to_internal(nat);
  out.loss = detail::make_robust(fam, d, th0, opt.lsq);
  if (opt.lsq.loss != LossKind::none)
    prog.say(label + ": robust loss scale " + format_number(out.loss.scale));
  out.run = detail::run_lsq(fam, d, th0, out.free, opt.lsq, out.loss, prog, label, extra);
  if (opt.lsq.loss != LossKind::none && !(opt.lsq.loss_scale > 0)) {
    // Automatic scale: the initial residuals contain the outliers' bias, so the scale is
    // estimated again at the robust optimum and the fit repeated once from there.
    out.loss = detail::make_robust(fam, d, out.run.theta, opt.lsq);
    prog.say(label +
             ": robust loss scale re-estimated at the optimum: " + format_number(out.loss.scale));
    LsqOptions once = opt.lsq;
    once.starts = 1;
    auto again = detail::run_lsq(fam, d, out.run.theta, out.free, once, out.loss, prog,
                                 label + " (rescaled)");
    out.run.theta = again.theta;
    out.run.iterations += again.iterations;
    out.run.converged = again.converged;
    out.run.termination = again.termination;
    out.run.last = std::move(again.last);
  }
  if (!extra.theta.empty()) out.nested_cost = out.run.starts.back().initial_cost;
  return out;
}

FitResult fit_lsq(const FitOptions& opt, const Family& fam, const FitData& d,
                  std::vector<double> nat, const Progress& prog, FitResult r,
                  const AtOptimum& at_optimum) {
  auto o = lsq_optimum(opt, opt.model, fam, d, std::move(nat), prog, "lsq");
  copy_starts(r, o.run);
  if (!o.nested.empty()) {
    r.nested_model = o.nested;
    if (std::isnan(o.nested_cost))
      r.warnings.push_back("the optimum of the nested model " + o.nested +
                           " could not be used as a start (not representable)");
    // (the best optimum reached from the nested model's: the verdict's `nested` note)
  }
  detail::fill_statistics(r, fam, d, o.run.theta, o.free, o.loss, o.run.at_limit, opt.lsq.threads,
                          &o.run.last, at_optimum);
  return r;
}

FitResult fit_grid(const FitOptions& opt, const Family& fam, const FitData& d,
                   std::vector<double> nat, const Progress& prog, FitResult r) {
  const auto& m = opt.model;
  if (m.name != LuGreInfo::name || m.asymmetric || m.shape != StribeckShape::exponential)
    throw FitError(
        "method grid reproduces reference 000's estimator: model lugre only "
        "(symmetric, exponential Stribeck curve); got " +
        model_name(m));
  if (m.fit_alpha && !m.alpha)
    throw FitError("method grid keeps alpha fixed (reference 000: alpha = 1); drop fit_alpha");
  const double alpha = m.alpha.value_or(1.0);
  nat[static_cast<std::size_t>(fam.index("alpha"))] = alpha;
  const auto free = free_indices(nat);
  const auto init = detail::initial_guess(fam, m, d, opt.steady, nat, prog, opt.lsq.threads);
  const auto g = detail::run_grid(fam, d, opt, alpha, init, prog);
  for (const char* f : {"Km", "Fc", "Fs", "vs", "sigma0"}) {
    const int i = fam.index(f);
    if (i >= 0 && !(g.natural[static_cast<std::size_t>(i)] > 0))
      throw FitError(std::string("grid: the search ended at ") + f + " = " +
                     format_number(g.natural[static_cast<std::size_t>(i)]) +
                     " <= 0; give nominal values or ranges in the grid options");
  }
  r.scheme = Method::forward_euler;
  r.hold = Hold::zoh;
  detail::fill_values_only(r, fam, d, fam.to_internal(g.natural), free);
  for (const auto& n : g.notes) r.warnings.push_back(n);
  r.warnings.push_back(
      "grid: no standard errors (a stage-wise search is not a joint least-squares optimum)");
  r.reliability.standard_errors = false;
  r.reliability.reasons.push_back("method grid gives no standard errors");
  r.iterations = g.passes;
  r.converged = true;
  r.termination = "grid: 3 stages x " + std::to_string(opt.grid.passes) + " passes, " +
                  std::to_string(opt.grid.points) + " points per parameter";
  return r;
}

FitResult fit_two_stage(const FitOptions& opt, const Family& fam, const FitData& d,
                        std::vector<double> nat, const Progress& prog, FitResult r,
                        const AtOptimum& at_optimum) {
  const auto& m = opt.model;
  if (!detail::is_dynamic(m) || fam.index("vs") < 0)
    throw FitError("method two-stage needs a dynamic model with a Stribeck curve (" +
                   join_list(detail::two_stage_models()) + "); got " + model_name(m) +
                   " (for a static model, lsq is already the static fit)");
  // Stage 1: the static Stribeck curve on the segment means.
  ModelChoice sm = m;
  sm.name = StribeckInfo::name;
  const auto sfam = detail::make_family(sm, opt.problem, opt.rotary);
  std::vector<double> snat(static_cast<std::size_t>(sfam->size()), kNaN);
  if (const auto a = fixed_alpha(opt)) snat[static_cast<std::size_t>(sfam->index("alpha"))] = *a;
  const auto sfree = free_indices(snat);
  const auto segs = find_constant_velocity_segments(d.t, d.v, d.y, d.i, opt.segments);
  const std::size_t need = sfree.size() + 1;
  long npos = 0, nneg = 0;
  for (const auto& s : segs) (s.v_mean > 0 ? npos : nneg) += 1;
  const auto& so = opt.segments;
  const std::string rule = "(|v| constant within " + format_number(100 * so.rel_tol) + " % + " +
                           format_number(so.abs_tol_frac) + " max|v| for at least " +
                           format_number(so.min_duration) + " s)";
  if (segs.size() < need)
    throw FitError("two-stage: found " + std::to_string(segs.size()) +
                   " constant-velocity segments " + rule + ", need at least " +
                   std::to_string(need) + " (one more than the " + std::to_string(sfree.size()) +
                   " static parameters); use lsq, or record plateaus at more velocities");
  if (m.asymmetric && (npos < 3 || nneg < 3))
    throw FitError("two-stage with separate positive/negative levels: found " +
                   std::to_string(npos) + " positive and " + std::to_string(nneg) +
                   " negative constant-velocity segments, need at least 3 of each");
  prog.say("two-stage: " + std::to_string(segs.size()) + " constant-velocity segments");
  FitData sd;
  sd.sensorless = d.sensorless;
  for (std::size_t j = 0; j < segs.size(); ++j) {
    sd.t.push_back(static_cast<double>(j));
    sd.v.push_back(segs[j].v_mean);
    sd.y.push_back(segs[j].y_mean);
    if (d.sensorless) sd.i.push_back(segs[j].i_mean);
  }
  auto snat0 = detail::initial_guess(*sfam, sm, sd, opt.steady, snat, prog, opt.lsq.threads);
  const auto sth0 = sfam->to_internal(snat0);
  const detail::Robust none{};
  auto srun = detail::run_lsq(*sfam, sd, sth0, sfree, opt.lsq, none, prog, "two-stage static");
  FitResult sr;
  detail::fill_statistics(sr, *sfam, sd, srun.theta, sfree, none, {}, 0, &srun.last);
  const auto snat_opt = sfam->to_natural(srun.theta);

  // Stage 2: the dynamic parameters with the static ones fixed.
  for (int i = 0; i < sfam->size(); ++i) {
    const int j = fam.index(sfam->info()[static_cast<std::size_t>(i)].field);
    if (j >= 0) nat[static_cast<std::size_t>(j)] = snat_opt[static_cast<std::size_t>(i)];
  }
  const auto free = free_indices(nat);
  nat = detail::initial_guess(fam, m, d, opt.steady, nat, prog, opt.lsq.threads);
  const auto th0 = fam.to_internal(nat);
  const auto loss = detail::make_robust(fam, d, th0, opt.lsq);
  auto run = detail::run_lsq(fam, d, th0, free, opt.lsq, loss, prog, "two-stage dynamic");
  copy_starts(r, run);
  if (!srun.converged) r.warnings.push_back("two-stage static fit: " + srun.termination);
  detail::fill_statistics(r, fam, d, run.theta, free, loss, run.at_limit, opt.lsq.threads,
                          &run.last, at_optimum);
  // The static parameters: estimates and standard errors of stage 1 (conditional standard errors
  // of stage 2 ignore their uncertainty; the cross-stage correlations are unknown: NaN).
  for (std::size_t a = 0; a < r.parameters.size(); ++a) {
    auto& e = r.parameters[a];
    for (std::size_t b = 0; b < sr.parameters.size(); ++b) {
      const auto& s = sr.parameters[b];
      if (s.field != e.field || s.fixed) continue;
      e.fixed = false;
      e.std_error = s.std_error;
      e.ci_low = s.ci_low;
      e.ci_high = s.ci_high;
      e.at_bound = s.at_bound;
      e.at_limit = s.at_limit;
      e.hac_std_error = s.hac_std_error;
      e.hac_ci_low = s.hac_ci_low;
      e.hac_ci_high = s.hac_ci_high;
      for (std::size_t c = 0; c < r.parameters.size(); ++c) {
        if (c == a) continue;
        double corr = kNaN;
        for (std::size_t bb = 0; bb < sr.parameters.size(); ++bb)
          if (sr.parameters[bb].field == r.parameters[c].field && !sr.parameters[bb].fixed)
            corr = sr.correlation[b][bb];
        r.correlation[a][c] = r.correlation[c][a] = corr;
      }
    }
  }
  for (std::size_t a = 0; a < r.parameters.size(); ++a)
    for (std::size_t c = 0; c < r.parameters.size(); ++c)
      if (a != c && (r.parameters[a].fixed || r.parameters[c].fixed)) r.correlation[a][c] = 0;
  r.num_estimated = static_cast<int>(free.size() + sfree.size());
  const long n = r.training.n;
  r.aicc = aicc(r.training.ssr, n, r.num_estimated);
  r.bic = bic(r.training.ssr, n, r.num_estimated);
  for (const auto& w : sr.warnings) r.warnings.push_back("two-stage static fit: " + w);
  if (!sr.reliability.standard_errors) {
    r.reliability.standard_errors = false;
    for (const auto& why : sr.reliability.reasons)
      r.reliability.reasons.push_back("two-stage static fit: " + why);
  }
  return r;
}

}  // namespace

FitResult fit(const data::Record& rec, const FitOptions& opt) { return fit(rec, opt, {}); }

FitResult fit(const data::Record& rec, const FitOptions& opt, const AtOptimum& at_optimum) {
  const auto t_start = std::chrono::steady_clock::now();
  const Progress prog = detail::serialised(opt.progress);
  check_model(opt.model);
  if (opt.method == FitMethod::grid && opt.hold == Hold::linear)
    throw FitError(
        "method grid simulates as reference 000 does, by forward Euler with the input "
        "held between samples (zoh): hold linear does not apply to it");
  FitData d = detail::prepare_data(rec, opt.problem, opt.warmup_s);
  d.hold = opt.hold.value_or(Hold::linear);
  const auto fam = detail::make_family(opt.model, opt.problem, opt.rotary);
  std::vector<double> nat(static_cast<std::size_t>(fam->size()), kNaN);
  if (const auto a = fixed_alpha(opt); a && fam->index("alpha") >= 0)
    nat[static_cast<std::size_t>(fam->index("alpha"))] = *a;

  FitResult r;
  r.model = opt.model;
  r.model_name = model_name(opt.model);
  r.problem = opt.problem;
  r.method = opt.method;
  r.warmup_s = opt.warmup_s;
  r.hold = d.hold;
  r.data = detail::summarize(d);
  const long p = static_cast<long>(free_indices(nat).size());
  const long need = std::max(20L, 5 * p);
  if (d.m() < need)
    throw FitError((rec.source.empty() ? std::string("record") : rec.source) +
                   ": too few samples: " + std::to_string(d.m()) +
                   (d.first > 0 ? " after the warm-up" : "") + ", need at least " +
                   std::to_string(need) + " for model " + r.model_name + " (" + std::to_string(p) +
                   " estimated parameters; at least max(20, 5 p))");
  if (detail::is_dynamic(opt.model) && r.data.reversals == 0)
    r.warnings.push_back(
        "the velocity never changes sign: the pre-sliding/hysteresis parameters of " +
        r.model_name +
        " are poorly identifiable (see their standard errors); record back-and-forth motion");
  prog.say("fit " + r.model_name + " by " + method_name(opt.method) + " on " +
           std::to_string(d.n()) + " samples" +
           (d.hold == Hold::zoh ? ", input held between samples (zoh)" : ""));
  switch (opt.method) {
    case FitMethod::lsq:
      r = fit_lsq(opt, *fam, d, nat, prog, std::move(r), at_optimum);
      break;
    case FitMethod::grid:
      r = fit_grid(opt, *fam, d, nat, prog, std::move(r));
      break;
    case FitMethod::two_stage:
      r = fit_two_stage(opt, *fam, d, nat, prog, std::move(r), at_optimum);
      break;
  }
  r.identifiability = identifiability_flags(
      r, std::span<const double>(d.v).subspan(static_cast<std::size_t>(d.first)));
  r.run_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  prog.say("fit done in " + format_number(r.run_time_s) + " s: RMSE " +
           format_number(r.training.rmse));
  return r;
}

std::vector<double> predict(const FitResult& r, const data::Record& rec) {
  const FitData d = detail::prepare_data(rec, r.problem, 0.0);
  const auto n = d.n();
  std::vector<double> out(static_cast<std::size_t>(n));
  const double Km = r.Km.value_or(0.0);
  visit_model(r.params, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    using M = model_of_t<typename I::Params>;
    drive<M>(p, typename M::State{}, d.t.data(), d.v.data(), n, r.scheme, r.hold, 0.0,
             [&](long k, double F, const typename M::State&) {
               const auto uk = static_cast<std::size_t>(k);
               out[uk] = d.sensorless ? Km * d.i[uk] - F : F;
             });
  });
  return out;
}

Metrics evaluate(const FitResult& r, const data::Record& rec) {
  const FitData d = detail::prepare_data(rec, r.problem, r.warmup_s);
  return compute_metrics(d.y, predict(r, rec), d.first);
}

double steady_force(const FitResult& r, double v) {
  double F = 0;
  visit_model(r.params, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    F = model_of_t<typename I::Params>::steady_force(p, v);
  });
  return F;
}

std::vector<double> steady_force(const FitResult& r, std::span<const double> v) {
  std::vector<double> F(v.size());
  visit_model(r.params, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    for (std::size_t k = 0; k < v.size(); ++k)
      F[k] = model_of_t<typename I::Params>::steady_force(p, v[k]);
  });
  return F;
}

const ParameterEstimate& parameter(const FitResult& r, std::string_view name) {
  for (const auto& p : r.parameters)
    if (p.name == name || p.field == name) return p;
  std::vector<std::string> names;
  for (const auto& p : r.parameters) names.push_back(p.name);
  throw std::out_of_range("no parameter '" + std::string(name) + "' in the " + r.model_name +
                          " fit; it has " + join_list(names));
}

std::vector<std::vector<double>> covariance(const FitResult& r) {
  const std::size_t n = r.parameters.size();
  std::vector<std::vector<double>> c(n, std::vector<double>(n));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a; b < n; ++b)  // computed once per pair: exactly symmetric
      c[a][b] = c[b][a] =
          r.parameters[a].fixed || r.parameters[b].fixed
              ? 0.0
              : r.correlation.at(a).at(b) * r.parameters[a].std_error * r.parameters[b].std_error;
  return c;
}

}  // namespace frictionlab::identify
