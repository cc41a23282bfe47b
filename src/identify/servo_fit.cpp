// frictionlab: servo actuator identification and model selection (see identify/servo_fit.hpp).
#include "frictionlab/identify/servo_fit.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/temperature_spread.hpp"
#include "parallel.hpp"

namespace frictionlab::identify {
namespace {

std::string log_name(const data::ServoLog& log) {
  return log.file.empty() ? std::string("log")
                          : std::filesystem::path(log.file).filename().string();
}

sim::ServoRunInput run_input(const sim::ServoConstants& c, const data::ServoLog& log) {
  if (!log.processed())
    throw FitError(log_name(log) + ": the log is raw (no 'dt'); resample it to a fixed step first");
  if (!log.vin && !(c.vin > 0))
    throw FitError(log_name(log) +
                   ": no supply voltage: the log has no 'vin' and the actuator gives none");
  return data::servo_run_input(log, c.vin);
}

/// The log as messages name it: its path as given (the command line's), else "log".
std::string log_path(const data::ServoLog& log) {
  return log.file.empty() ? std::string("log") : log.file;
}

/// A temperature law as messages state it: "linear temperature law (kT = .. 1/K, kT_v = .. 1/K,
/// T_ref = .. degC)".
std::string law_text(const TemperatureDependence<double>& t) {
  return std::string(temperature_law_name(t.law)) +
         " temperature law (kT = " + format_number(t.kT) + " 1/K, kT_v = " + format_number(t.kT_v) +
         " 1/K, T_ref = " + format_number(t.T_ref) + " degC)";
}

/// FitError naming the log's file when parameters with a temperature law meet a log without a
/// temperature per entry (never a silent T = T_ref).
void require_temperature(const sim::ServoParams& p, const data::ServoLog& log) {
  if (!p.temperature || log.temp.size() == log.size()) return;
  throw FitError(log_path(log) + ": no 'temp' in the log: the parameters' " +
                 law_text(*p.temperature) +
                 " needs the temperature of every entry (record 'temp', or use parameters "
                 "without a temperature law)");
}

/// The first entry of a log (with 'temp') at whose temperature a linear law's scale is <= 0;
/// log.size() when there is none (always without a law and for the exponential law).
std::size_t first_outside_law(const sim::ServoParams& p, const data::ServoLog& log) {
  if (!p.temperature || p.temperature->law != TemperatureLaw::linear) return log.size();
  for (std::size_t k = 0; k < log.temp.size(); ++k)
    if (!temperature_scale_positive(*p.temperature, log.temp[k])) return k;
  return log.size();
}

/// The simulator's view of a log for parameters p: run_input, the temperature required, and
/// FitError where the linear law's scale is <= 0 at a logged temperature.
sim::ServoRunInput run_input(const sim::ServoConstants& c, const sim::ServoParams& p,
                             const data::ServoLog& log) {
  auto in = run_input(c, log);
  require_temperature(p, log);
  if (const std::size_t k = first_outside_law(p, log); k < log.size())
    throw FitError(log_path(log) + ": entry " + std::to_string(k) + ": at T = " +
                   format_number(log.temp[k]) + " degC the " + law_text(*p.temperature) +
                   " gives a scale <= 0: the linear law does not hold there (the exponential "
                   "law does)");
  return in;
}

/// Pearson's correlation of x and y [-]; NaN when either does not vary.
double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  double sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0.0) || !(syy > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return sxy / std::sqrt(sxx * syy);
}

}  // namespace

double servo_reference_temperature(const std::vector<data::ServoLog>& logs) {
  double sum = 0.0;
  std::size_t n = 0;
  for (const auto& log : logs) {
    if (log.temp.size() != log.size())
      throw FitError(log_path(log) +
                     ": no 'temp' in the log: a temperature law is fitted to logs that record "
                     "the temperature of every entry");
    for (const double T : log.temp) sum += T;
    n += log.temp.size();
  }
  if (n == 0) throw FitError("a temperature law needs at least one log");
  return std::round(100.0 * sum / static_cast<double>(n)) / 100.0;
}

std::vector<ServoBound> servo_temperature_bounds(const ServoTemperatureFit& fit, double T_ref,
                                                 const std::vector<data::ServoLog>& logs,
                                                 const std::vector<ServoBound>& overrides) {
  std::vector<ServoBound> out;
  for (const char* key : {"kT", "kT_v"}) {
    if (std::string_view(key) == "kT_v" && !fit.viscous) continue;
    ServoBound b{key, sim::kServoTemperatureSlopeRange.lo, sim::kServoTemperatureSlopeRange.hi};
    for (const auto& o : overrides)
      if (o.key == key) {
        if (!(o.lo < o.hi) || !std::isfinite(o.lo) || !std::isfinite(o.hi))
          throw FitError("range of '" + o.key + "': need lo < hi, got " + format_number(o.lo) +
                         ":" + format_number(o.hi));
        b.lo = o.lo;
        b.hi = o.hi;
      }
    out.push_back(b);
  }
  if (fit.law != TemperatureLaw::linear) return out;
  // 1 + k (T - T_ref) >= kServoLinearScaleMin for T in [T_lo, T_hi]
  double T_lo = fit.T_min, T_hi = fit.T_max;
  for (const auto& log : logs)
    for (const double T : log.temp) {
      T_lo = std::fmin(T_lo, T);
      T_hi = std::fmax(T_hi, T);
    }
  const double room = 1.0 - kServoLinearScaleMin;
  for (auto& b : out) {
    if (T_hi > T_ref) b.lo = std::max(b.lo, -room / (T_hi - T_ref));
    if (T_lo < T_ref) b.hi = std::min(b.hi, room / (T_ref - T_lo));
    if (!(b.lo < b.hi))
      throw FitError("range of '" + b.key + "': nothing left where the linear law's scale 1 + " +
                     b.key + " (T - T_ref) stays >= " + format_number(kServoLinearScaleMin) +
                     " from " + format_number(T_lo) + " to " + format_number(T_hi) +
                     " degC (T_ref = " + format_number(T_ref) +
                     " degC): widen the range or use the exponential law");
  }
  return out;
}

ServoTemperatureCheck servo_temperature_check(const std::vector<data::ServoLog>& logs) {
  ServoTemperatureCheck c;
  c.T_ref = servo_reference_temperature(logs);
  std::vector<double> all, kp, mean;
  std::map<double, std::vector<double>> by_kp;
  for (const auto& log : logs) {
    all.insert(all.end(), log.temp.begin(), log.temp.end());
    auto& group = by_kp[log.kp];
    group.insert(group.end(), log.temp.begin(), log.temp.end());
    double sum = 0.0;
    for (const double T : log.temp) sum += T;
    kp.push_back(log.kp);
    mean.push_back(sum / static_cast<double>(log.temp.size()));
  }
  const auto [lo, hi] = std::minmax_element(all.begin(), all.end());
  c.T_min = *lo;
  c.T_max = *hi;
  c.spread = temperature_spread(all);
  for (const auto& [k, group] : by_kp)
    c.within_kp_spread = std::max(c.within_kp_spread, temperature_spread(group));
  c.kp_correlation = pearson(kp, mean);
  c.undetermined = !(c.spread >= kTemperatureMinSpread);
  c.confounded = std::abs(c.kp_correlation) >= kServoTemperatureConfounded;
  return c;
}

std::string servo_model_label(ActuatorModel m, bool temperature) {
  return std::string(sim::actuator_model_name(m)) + (temperature ? "+T" : "");
}

ServoLogError servo_log_error(const sim::ServoConstants& c, const sim::ServoParams& p,
                              const data::ServoLog& log, std::vector<double>* q) {
  const auto in = run_input(c, p, log);
  const bool vel = log.speed.size() == log.position.size();
  const double amps = log.current_to_amps();
  if (q != nullptr) q->assign(log.size(), 0.0);
  double ep = 0.0, ev = 0.0, ei = 0.0;
  std::size_t enabled = 0, saturated = 0;
  sim::servo_rollout(c, p, in,
                     [&](std::size_t k, const sim::ServoState& x, const sim::ServoStepInfo& s) {
                       if (q != nullptr) (*q)[k] = x.q;
                       ep += std::abs(x.q - log.position[k]);
                       if (vel) ev += std::abs(x.qd - log.speed[k]);
                       if (amps > 0)
                         ei += std::abs(sim::servo_motor_current(c, p, s.control, s.enabled, x.qd) -
                                        amps * log.current[k]);
                       enabled += s.enabled ? 1 : 0;
                       saturated += s.enabled && s.saturated ? 1 : 0;
                     });
  ServoLogError e;
  e.samples = log.position.size();
  const double n = static_cast<double>(e.samples);
  e.position_mae = ep / n;
  e.velocity_mae = vel ? ev / n : 0.0;
  e.current_mae = amps > 0 ? ei / n : -1.0;
  e.saturated = enabled > 0 ? static_cast<double>(saturated) / static_cast<double>(enabled) : 0.0;
  return e;
}

void servo_simulate_log(const sim::ServoConstants& c, const sim::ServoParams& p,
                        const data::ServoLog& log, std::vector<double>& q,
                        std::vector<double>& qd) {
  const auto in = run_input(c, p, log);
  q.assign(log.size(), 0.0);
  qd.assign(log.size(), 0.0);
  sim::servo_rollout(c, p, in, [&](std::size_t k, const sim::ServoState& x) {
    q[k] = x.q;
    qd[k] = x.qd;
  });
}

double servo_loss(const sim::ServoConstants& c, const sim::ServoParams& p,
                  const std::vector<data::ServoLog>& logs, const ServoLossOptions& o) {
  std::vector<sim::ServoRunInput> in;
  in.reserve(logs.size());
  std::vector<std::size_t> offset{0};
  bool outside_law = false;  // a candidate whose linear temperature law turns <= 0
  for (const auto& log : logs) {
    in.push_back(run_input(c, log));
    require_temperature(p, log);
    outside_law = outside_law || first_outside_law(p, log) < log.size();
    if (o.velocity_weight > 0 && log.speed.size() != log.position.size())
      throw FitError(log_name(log) + ": a velocity term needs the logged 'speed'");
    offset.push_back(offset.back() + log.size());
  }
  const std::size_t n = offset.back();
  if (n == 0) throw FitError("the loss needs at least one log");
  const bool vel = o.velocity_weight > 0;
  // the current term: over the logs with a current of known unit
  const bool cur = o.current_weight > 0;
  std::vector<double> amps(logs.size(), 0.0);
  std::size_t n_current = 0;
  if (cur) {
    for (std::size_t i = 0; i < logs.size(); ++i) {
      amps[i] = logs[i].current_to_amps();
      if (amps[i] > 0) n_current += logs[i].size();
    }
    if (n_current == 0)
      throw FitError("a current term needs logs with 'current' and its unit ('current_unit')");
  }
  if (outside_law) return std::numeric_limits<double>::infinity();
  // per-entry errors, summed afterwards in the order of the logs and entries (the sum of a
  // serial rollout, bit for bit)
  std::vector<double> dp(n), dv(vel ? n : 0), di(cur ? n : 0);
  sim::servo_rollout_batch(
      c, p, std::span<const sim::ServoRunInput>(in),
      [&](std::size_t i, std::size_t k, const sim::ServoState& x, const sim::ServoStepInfo& s) {
        const auto& log = logs[i];
        dp[offset[i] + k] = std::abs(x.q - log.position[k]);
        if (vel) dv[offset[i] + k] = std::abs(x.qd - log.speed[k]);
        if (cur && amps[i] > 0)
          di[offset[i] + k] = std::abs(sim::servo_motor_current(c, p, s.control, s.enabled, x.qd) -
                                       amps[i] * log.current[k]);
      });
  double ep = 0.0, ev = 0.0, ei = 0.0;
  for (double d : dp) ep += d;
  for (double d : dv) ev += d;
  for (double d : di) ei += d;
  double loss = (ep + o.velocity_weight * ev) / static_cast<double>(n);
  if (cur) loss += o.current_weight * ei / static_cast<double>(n_current);
  return std::isfinite(loss) ? loss : std::numeric_limits<double>::infinity();
}

double servo_current_weight(const std::vector<data::ServoLog>& logs) {
  // pooled standard deviations (Welford) of position [rad] and current [A]
  double nq = 0, mq = 0, sq = 0, mi = 0, si = 0;
  for (const auto& log : logs) {
    const double amps = log.current_to_amps();
    if (!(amps > 0)) continue;
    for (std::size_t k = 0; k < log.size(); ++k) {
      nq += 1;
      const double dq = log.position[k] - mq, di = amps * log.current[k] - mi;
      mq += dq / nq;
      mi += di / nq;
      sq += dq * (log.position[k] - mq);
      si += di * (amps * log.current[k] - mi);
    }
  }
  if (nq < 2 || !(si > 0)) return 0.0;
  return std::sqrt(sq / si);
}

std::vector<ServoBound> servo_bounds(const sim::ServoActuator& family, sim::ServoDrive drive,
                                     ActuatorModel m, const std::vector<ServoBound>& overrides) {
  std::vector<ServoBound> out;
  for (auto key : sim::servo_param_keys(m, drive)) {
    const auto r = sim::servo_param_range(family, key);
    out.push_back({std::string(key), r.lo, r.hi});
  }
  for (const auto& o : overrides) {
    auto it =
        std::find_if(out.begin(), out.end(), [&](const ServoBound& b) { return b.key == o.key; });
    if (it == out.end()) continue;  // a key of another model: applies to the models that have it
    if (!(o.lo < o.hi) || !std::isfinite(o.lo) || !std::isfinite(o.hi))
      throw FitError("range of '" + o.key + "': need lo < hi, got " + format_number(o.lo) + ":" +
                     format_number(o.hi));
    it->lo = o.lo;
    it->hi = o.hi;
  }
  return out;
}

bool servo_model_contains(ActuatorModel to, ActuatorModel from) noexcept {
  using M = ActuatorModel;
  if (to == from || from == M::M1) return true;
  switch (from) {
    case M::M2:
    case M::M3:
      return to == M::M4 || to == M::M5 || to == M::M6;
    case M::M4:
      return to == M::M5 || to == M::M6;
    case M::M5:
      return to == M::M6;
    default:
      return false;
  }
}

sim::ServoParams embed_servo_params(const sim::ServoParams& from, ActuatorModel to,
                                    const sim::ServoParams& defaults) {
  using M = ActuatorModel;
  if (!servo_model_contains(to, from.model))
    throw FitError(std::string("model ") + std::string(sim::actuator_model_name(to)) +
                   " does not contain " + std::string(sim::actuator_model_name(from.model)));
  sim::ServoParams p = defaults;
  p.model = to;
  p.kt = from.kt;
  p.R = from.R;
  p.armature = from.armature;
  p.q_offset = from.q_offset;
  p.current_limit = from.current_limit;
  if (from.temperature) p.temperature = from.temperature;  // else that of `defaults`
  auto& t = p.friction;
  const auto& f = from.friction;
  t.Kv = f.Kv;
  t.Kc = f.Kc;
  if (sim::model_has_stribeck(from.model)) {
    t.Kcs = f.Kcs;
    t.vs = f.vs;
    t.alpha = f.alpha;
  } else {
    t.Kcs = 0.0;
  }
  // load terms: Kl, Kls (M3, M4) or the directional ones (M5, M6)
  const bool from_dir = from.model == M::M5 || from.model == M::M6;
  const bool from_load = from.model == M::M3 || from.model == M::M4;
  const double Kl = from_load ? f.Kl : 0.0;
  const double Kls = from.model == M::M4 ? f.Kls : 0.0;
  if (to == M::M3 || to == M::M4) {
    t.Kl = Kl;
    t.Kls = Kls;
  } else if (to == M::M5 || to == M::M6) {
    t.Km = from_dir ? f.Km : Kl;
    t.Ke = from_dir ? f.Ke : Kl;
    t.Kms = from_dir ? f.Kms : Kls;
    t.Kes = from_dir ? f.Kes : Kls;
    t.Kmq = from.model == M::M6 ? f.Kmq : 0.0;
    t.Keq = from.model == M::M6 ? f.Keq : 0.0;
  }
  return p;
}

namespace {

/// The parameterisation of one fit: the keys searched with their ranges, mapped to and from the
/// unit box, and what is fixed (the model; a temperature law's law and T_ref).
struct ServoFitBox {
  std::vector<ServoBound> bounds;
  sim::ServoParams base;  ///< model; with a temperature law, kT = kT_v = 0 about T_ref
  bool viscous = false;   ///< kT_v searched

  sim::ServoParams decode(const std::vector<double>& u) const {
    sim::ServoParams p = base;
    for (std::size_t i = 0; i < bounds.size(); ++i)
      *sim::servo_param(p, bounds[i].key) = bounds[i].lo + u[i] * (bounds[i].hi - bounds[i].lo);
    return p;
  }
  std::vector<double> encode(const sim::ServoParams& p) const {
    std::vector<double> u(bounds.size());
    for (std::size_t i = 0; i < bounds.size(); ++i)
      u[i] = std::clamp(
          (sim::servo_param(p, bounds[i].key) - bounds[i].lo) / (bounds[i].hi - bounds[i].lo), 0.0,
          1.0);
    return u;
  }
  /// Every searched value of p within its range.
  bool contains(const sim::ServoParams& p) const {
    return std::all_of(bounds.begin(), bounds.end(), [&](const ServoBound& b) {
      const double x = sim::servo_param(p, b.key);
      return x >= b.lo && x <= b.hi;
    });
  }
  /// A warm start in this fit's form: a start without the fit's temperature law gets it with
  /// kT = kT_v = 0 (its simulation unchanged), one with a law this fit's law and T_ref.
  sim::ServoParams start(const sim::ServoParams& s) const {
    sim::ServoParams p = s;
    if (!base.temperature) {
      p.temperature.reset();
    } else if (!s.temperature) {
      p.temperature = base.temperature;
    } else {
      p.temperature->law = base.temperature->law;
      p.temperature->T_ref = base.temperature->T_ref;
      if (!viscous) p.temperature->kT_v = 0.0;
    }
    return p;
  }
};

ServoFitBox servo_fit_box(const sim::ServoActuator& family, const sim::ServoConstants& constants,
                          ActuatorModel m, const std::vector<data::ServoLog>& train,
                          const ServoFitOptions& options) {
  ServoFitBox box;
  box.bounds = servo_bounds(family, constants.drive, m, options.bounds);
  box.base.model = m;
  if (const auto& t = options.temperature) {
    TemperatureDependence<double> law;
    law.law = t->law;
    law.T_ref = servo_reference_temperature(train);
    box.base.temperature = law;
    box.viscous = t->viscous;
    for (auto& b : servo_temperature_bounds(*t, law.T_ref, train, options.bounds))
      box.bounds.push_back(std::move(b));
  }
  return box;
}

}  // namespace

ServoFitResult fit_servo_model(const sim::ServoActuator& family,
                               const sim::ServoConstants& constants, ActuatorModel m,
                               const std::vector<data::ServoLog>& train,
                               const std::vector<sim::ServoParams>& starts,
                               const ServoFitOptions& options) {
  if (train.empty()) throw FitError("no training log");
  for (const auto& s : starts)
    if (s.model != m) throw FitError("warm start of another model");
  const ServoFitBox box = servo_fit_box(family, constants, m, train, options);
  const std::size_t n = box.bounds.size();
  // validate the data once (throws FitError with the log's name)
  (void)servo_loss(constants, box.decode(std::vector<double>(n, 0.5)), train, options.loss);
  auto objective = [&](const std::vector<double>& u) {
    return servo_loss(constants, box.decode(u), train, options.loss);
  };
  // first start: the best of the warm starts and the centre of the box; a start within the
  // ranges is evaluated (and kept) as it is, not through the box's rounding
  std::vector<double> x0(n, 0.5);
  double f0 = objective(x0);
  std::optional<sim::ServoParams> warm;
  for (const auto& given : starts) {
    const sim::ServoParams s = box.start(given);
    const bool inside = box.contains(s);
    const double f =
        inside ? servo_loss(constants, s, train, options.loss) : objective(box.encode(s));
    if (f < f0) {
      f0 = f;
      x0 = box.encode(s);
      warm = inside ? s : box.decode(x0);
    }
  }
  CmaesOptions co = options.cmaes;
  if (warm) co.sigma0 = options.warm_sigma;
  co.max_evals = std::max<long>(1, co.max_evals - static_cast<long>(starts.size()) - 1);
  const auto r = cmaes_minimize(objective, x0, co);
  ServoFitResult out;
  const bool improved = r.f < f0;
  out.params = improved ? box.decode(r.x) : warm ? *warm : box.decode(x0);
  out.loss = improved ? r.f : f0;
  out.evals = r.evals + static_cast<long>(starts.size()) + 1;
  out.runs = r.runs;
  out.seconds = r.seconds;
  out.stop = r.stop;
  const auto u = box.encode(out.params);
  for (std::size_t i = 0; i < n; ++i) {
    out.keys.push_back(box.bounds[i].key);
    if ((u[i] < 1e-3 && box.bounds[i].lo != 0.0) || u[i] > 1.0 - 1e-3)
      out.at_bound.push_back(box.bounds[i].key);
  }
  if (!std::isfinite(out.loss))
    out.failed = "the loss is " + format_exact(out.loss) + " at every one of the " +
                 std::to_string(out.evals) +
                 " points tried: the simulation overflows within the search ranges (narrow them "
                 "with --range)";
  return out;
}

std::vector<ServoSplit> servo_splits(const std::vector<data::ServoLog>& logs,
                                     const ServoValidation& v) {
  std::vector<ServoSplit> out;
  using K = ServoValidation::Kind;
  auto by_kp = [&](double kp, const std::string& name) {
    ServoSplit s;
    s.name = name;
    for (const auto& l : logs) (l.kp == kp ? s.validation : s.train).push_back(l);
    if (s.validation.empty()) throw FitError("validation: no log with kp = " + format_number(kp));
    if (s.train.empty())
      throw FitError("validation: every log has kp = " + format_number(kp) +
                     ", none is left for training");
    return s;
  };
  switch (v.kind) {
    case K::none: {
      ServoSplit s;
      s.name = "all";
      s.train = logs;
      out.push_back(std::move(s));
      break;
    }
    case K::kp:
      out.push_back(by_kp(v.kp, "kp=" + format_number(v.kp)));
      break;
    case K::leave_kp: {
      std::set<double> kps;
      for (const auto& l : logs) kps.insert(l.kp);
      if (kps.size() < 2) throw FitError("leave-one-kp-out needs logs with at least two kp values");
      for (double kp : kps) out.push_back(by_kp(kp, "kp=" + format_number(kp)));
      break;
    }
    case K::kfold: {
      if (v.folds < 2) throw FitError("k-fold: need at least 2 folds");
      if (static_cast<std::size_t>(v.folds) > logs.size())
        throw FitError("k-fold: " + std::to_string(v.folds) + " folds but only " +
                       std::to_string(logs.size()) + " logs");
      std::vector<std::size_t> order(logs.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(),
                [&](std::size_t a, std::size_t b) { return logs[a].file < logs[b].file; });
      for (int k = 0; k < v.folds; ++k) {
        ServoSplit s;
        s.name = "fold " + std::to_string(k + 1) + "/" + std::to_string(v.folds);
        for (std::size_t i = 0; i < order.size(); ++i)
          (static_cast<int>(i % static_cast<std::size_t>(v.folds)) == k ? s.validation : s.train)
              .push_back(logs[order[i]]);
        out.push_back(std::move(s));
      }
      break;
    }
  }
  return out;
}

namespace {

/// Thrown inside a fit (from its CMA-ES cancel hook) when the other fits must stop.
struct FitAborted {};

/// A model of the selection: without or with the temperature law ("m3", "m3+T").
struct ServoVariant {
  ActuatorModel model = ActuatorModel::M1;
  bool temperature = false;
};

/// One fit of fit_and_select_servo_models: a variant (index into servo_variants) on a run.
struct FitTask {
  std::size_t model = 0, run = 0;
  std::vector<std::size_t> deps;  ///< the tasks it warm-starts from (and waits for)
  ServoFitResult fit;
  std::vector<ServoLogError> validation;  // per validation log of the run, in order
  double train_mae = 0.0;                 // of the delivered run's fit
  bool started = false, done = false;
};

/// The models sorted, each once.
std::vector<ActuatorModel> distinct_models(std::vector<ActuatorModel> models) {
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  return models;
}

/// The variants fitted: every model, and with a temperature law each one again with it, right
/// after it (m1, m1+T, m3, m3+T, ...).
std::vector<ServoVariant> servo_variants(const std::vector<ActuatorModel>& models,
                                         bool temperature) {
  std::vector<ServoVariant> out;
  for (const auto m : models) {
    out.push_back({m, false});
    if (temperature) out.push_back({m, true});
  }
  return out;
}

/// The runs: the splits; for cross-validation (`cv`) one more: all logs (the delivered fit).
std::vector<ServoSplit> servo_runs(const std::vector<data::ServoLog>& logs,
                                   const ServoValidation& validation, bool cv) {
  std::vector<ServoSplit> runs = servo_splits(logs, validation);
  if (cv) {
    ServoSplit all;
    all.name = "all logs";
    all.train = logs;
    runs.push_back(std::move(all));
  }
  return runs;
}

/// One task per (variant, run), in the order variant-major; task (v, s) warm-starts from the
/// tasks (v', s) of the variants v' before v whose model v's model contains, a temperature
/// variant also from plain ones (m3+T from m1, m1+T, m3), so it waits for them. Every fit is
/// deterministic given its inputs (its own CMA-ES, seeded with options.cmaes.seed), so the
/// results do not depend on which thread runs it or when.
std::vector<FitTask> servo_fit_tasks(const std::vector<ServoVariant>& variants,
                                     std::size_t n_runs) {
  std::vector<FitTask> tasks;
  for (std::size_t mi = 0; mi < variants.size(); ++mi)
    for (std::size_t s = 0; s < n_runs; ++s) {
      FitTask t;
      t.model = mi;
      t.run = s;
      for (std::size_t mj = 0; mj < mi; ++mj)
        if (servo_model_contains(variants[mi].model, variants[mj].model) &&
            (variants[mi].temperature || !variants[mj].temperature))
          t.deps.push_back(mj * n_runs + s);
      tasks.push_back(std::move(t));
    }
  return tasks;
}

/// Runs the tasks on `workers` threads of their own (parallel::run_on_own_threads), each
/// taking the first task whose warm starts are done, while the calling thread passes the
/// progress lines on to `progress`. The first failed task in task order is rethrown.
class ServoFitScheduler {
 public:
  ServoFitScheduler(std::vector<FitTask>& tasks, const std::vector<ServoVariant>& models,
                    const std::vector<ServoSplit>& runs, std::size_t delivered_run,
                    const sim::ServoActuator& family, const sim::ServoConstants& constants,
                    const ServoFitOptions& options, const Progress& progress)
      : tasks_(tasks),
        models_(models),
        runs_(runs),
        delivered_run_(delivered_run),
        family_(family),
        constants_(constants),
        options_(options),
        progress_(progress) {}

  /// Threads: the runs are independent, so with several runs the fits run concurrently (each
  /// fit's evaluations on one thread: no synchronisation per generation); with one run the
  /// models depend on one another and the threads evaluate each CMA-ES generation instead.
  void run() {
    const int threads = std::max(1, options_.cmaes.threads);
    const bool concurrent_fits = runs_.size() > 1 && threads > 1;
    const std::size_t workers =
        concurrent_fits ? std::min<std::size_t>(static_cast<std::size_t>(threads), tasks_.size())
                        : 1;
    fit_options_ = options_;
    fit_options_.cmaes.threads = concurrent_fits ? 1 : threads;
    // A worker that waits for a fit (the last ones of a model wait for the fits they start
    // from; at the end there are fewer fits than workers) lends its core to the running fits:
    // they evaluate their generations on 1 + idle / running threads (the helper threads,
    // parallel.hpp, while the lender sleeps).
    if (concurrent_fits)
      fit_options_.cmaes.threads_now = [this]() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return 1 + static_cast<int>(idle_ / std::max<std::size_t>(1, running_));
      };
    // The calling thread passes the progress lines on and polls the cancellation after each
    // (the report may throw, and so may the poll: then the fits stop at their next generation
    // and the exception goes on). The workers wait for the fits they start from: threads of
    // their own, not the helpers (parallel.hpp).
    parallel::run_on_own_threads(
        workers, [this] { work(); }, [this] { pass_lines_on(); }, [this] { stop_all(); });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  /// A progress line for the report (dropped when there is none).
  void post(std::string line) {
    if (!progress_.report) return;
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.push_back(std::move(line));
    changed_.notify_all();
  }

  /// Not started, and every fit it warm-starts from is done.
  bool ready(const FitTask& t) const {
    if (t.started) return false;
    for (std::size_t d : t.deps)
      if (!tasks_[d].done) return false;
    return true;
  }

  /// The task's fit (warm-started from its dependencies' fits), its validation errors, and for
  /// the delivered run its training MAE.
  void run_task(FitTask& task) {
    const ServoVariant variant = models_[task.model];
    const ActuatorModel m = variant.model;
    const ServoSplit& run = runs_[task.run];
    std::vector<sim::ServoParams> starts;
    sim::ServoParams defaults;
    defaults.model = m;
    for (const auto& b : servo_bounds(family_, constants_.drive, m, options_.bounds))
      *sim::servo_param(defaults, b.key) = 0.5 * (b.lo + b.hi);
    // in model order, as the fits were before; a plain fit starts a temperature fit at kT = 0
    for (std::size_t d : task.deps)
      starts.push_back(embed_servo_params(tasks_[d].fit.params, m, defaults));
    const std::string what = servo_model_label(m, variant.temperature) + " [" + run.name + "]";
    post("fitting " + what + " on " + std::to_string(run.train.size()) + " logs" +
         (starts.empty() ? "" : ", warm start from " + std::to_string(starts.size()) + " fit(s)"));
    ServoFitOptions fit_options = fit_options_;
    if (!variant.temperature) fit_options.temperature.reset();
    fit_options.cmaes.progress = fit_progress(what);
    task.fit = fit_servo_model(family_, constants_, m, run.train, starts, fit_options);
    post("  " + what + ": loss " + format_fixed(task.fit.loss, 6) + " after " +
         std::to_string(task.fit.evals) + " evaluations, " + format_fixed(task.fit.seconds, 1) +
         " s (" + task.fit.stop + ")");
    for (const auto& l : run.validation)
      task.validation.push_back(servo_log_error(constants_, task.fit.params, l));
    if (task.run == delivered_run_)
      task.train_mae = servo_loss(constants_, task.fit.params, run.train, ServoLossOptions{});
  }

  /// The CMA-ES progress of the fit `what`: after every generation it stops (FitAborted) when
  /// another fit failed, throws Cancelled when the caller cancels, and posts a line every 500
  /// evaluations.
  Progress fit_progress(const std::string& what) {
    Progress p;
    p.cancel = [this] {
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (stop_) throw FitAborted{};
      }
      return progress_.cancelled();
    };
    if (progress_.report)
      p.report = [this, what, last_report = 0L](const ProgressEvent& e) mutable {
        if (e.evaluations - last_report < 500) return;
        last_report = e.evaluations;
        post("  " + what + ": " + std::to_string(e.evaluations) + " evaluations, best loss " +
             format_fixed(e.best, 6));
      };
    return p;
  }

  /// A worker: takes ready tasks until every task is done or the run stops.
  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      auto next = tasks_.end();
      ++idle_;
      changed_.wait(lock, [&] {
        if (stop_) return true;
        next = std::find_if(tasks_.begin(), tasks_.end(),
                            [this](const FitTask& t) { return ready(t); });
        return next != tasks_.end() || finished_ == tasks_.size();
      });
      --idle_;
      if (stop_ || next == tasks_.end()) return;
      next->started = true;
      ++running_;
      lock.unlock();
      std::exception_ptr failed;
      try {
        run_task(*next);
      } catch (const FitAborted&) {
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      next->done = true;
      ++finished_;
      --running_;
      if (failed) record_failure(static_cast<std::size_t>(next - tasks_.begin()), failed);
      changed_.notify_all();
    }
  }

  /// Stops the run and keeps the failure of the first task in task order; mutex_ held.
  void record_failure(std::size_t task, std::exception_ptr failed) {
    stop_ = true;
    if (task < error_task_) {
      error_task_ = task;
      error_ = std::move(failed);
    }
  }

  /// The calling thread: passes the posted lines on until every task is done or the run stops.
  void pass_lines_on() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      changed_.wait(lock, [&] { return !lines_.empty() || finished_ == tasks_.size() || stop_; });
      std::vector<std::string> batch;
      batch.swap(lines_);
      const bool end = (finished_ == tasks_.size() || stop_) && batch.empty();
      lock.unlock();
      for (const auto& line : batch) {
        progress_.say(line);
        progress_.check();
      }
      if (end) break;
      lock.lock();
    }
  }

  void stop_all() {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    changed_.notify_all();
  }

  std::vector<FitTask>& tasks_;
  const std::vector<ServoVariant>& models_;
  const std::vector<ServoSplit>& runs_;
  const std::size_t delivered_run_;
  const sim::ServoActuator& family_;
  const sim::ServoConstants& constants_;
  const ServoFitOptions& options_;
  const Progress& progress_;
  ServoFitOptions fit_options_;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;  // progress lines not yet passed to the report
  std::size_t finished_ = 0;
  std::size_t running_ = 0, idle_ = 0;  // fits running; workers waiting for a ready fit
  bool stop_ = false;
  std::exception_ptr error_;  // of the first failed task in task order
  std::size_t error_task_ = std::numeric_limits<std::size_t>::max();
};

/// Each model's report: the delivered run's fit and training MAE, the validation MAE pooled
/// over every run's validation logs, the evaluations and seconds of all its fits, and the first
/// failed fit's reason.
ServoSelection servo_reports(const std::vector<ServoVariant>& models,
                             const std::vector<FitTask>& tasks, const std::vector<ServoSplit>& runs,
                             std::size_t delivered_run, const sim::ServoConstants& constants,
                             bool has_validation) {
  const std::size_t n_runs = runs.size();
  ServoSelection sel;
  for (std::size_t mi = 0; mi < models.size(); ++mi) {
    ServoModelReport rep;
    rep.model = models[mi].model;
    rep.temperature = models[mi].temperature;
    double val_err = 0.0;
    std::size_t val_n = 0;
    for (std::size_t s = 0; s < n_runs; ++s) {
      const FitTask& t = tasks[mi * n_runs + s];
      rep.evals += t.fit.evals;
      rep.seconds += t.fit.seconds;
      for (const auto& e : t.validation) {
        val_err += e.position_mae * static_cast<double>(e.samples);
        val_n += e.samples;
      }
    }
    const FitTask& delivered = tasks[mi * n_runs + delivered_run];
    rep.fit = delivered.fit;
    rep.parameters = static_cast<int>(
        sim::servo_param_keys(rep.model, constants.drive).size() +
        std::count_if(rep.fit.keys.begin(), rep.fit.keys.end(),
                      [](const std::string& k) { return k == "kT" || k == "kT_v"; }));
    rep.train_mae = delivered.train_mae;
    if (has_validation) rep.validation_mae = val_err / static_cast<double>(val_n);
    sel.models.push_back(rep);
  }
  for (std::size_t mi = 0; mi < models.size(); ++mi)
    for (std::size_t s = 0; s < n_runs && sel.models[mi].failed.empty(); ++s)
      if (const FitTask& t = tasks[mi * n_runs + s]; !t.fit.failed.empty())
        sel.models[mi].failed = "its fit [" + runs[s].name + "] failed: " + t.fit.failed;
  return sel;
}

}  // namespace

ServoSelection fit_and_select_servo_models(const std::vector<ActuatorModel>& models_in,
                                           const sim::ServoActuator& family,
                                           const sim::ServoConstants& constants,
                                           const std::vector<data::ServoLog>& logs,
                                           const ServoValidation& validation,
                                           const ServoFitOptions& options, double tolerance,
                                           const Progress& progress) {
  if (models_in.empty()) throw FitError("no model to fit");
  if (logs.empty()) throw FitError("no log");
  const std::vector<ServoVariant> models =
      servo_variants(distinct_models(models_in), options.temperature.has_value());
  const bool cv = validation.kind == ServoValidation::Kind::leave_kp ||
                  validation.kind == ServoValidation::Kind::kfold;
  const bool has_validation = validation.kind != ServoValidation::Kind::none;
  const std::vector<ServoSplit> runs = servo_runs(logs, validation, cv);
  const std::size_t delivered_run = cv ? runs.size() - 1 : 0;
  std::vector<FitTask> tasks = servo_fit_tasks(models, runs.size());
  ServoFitScheduler(tasks, models, runs, delivered_run, family, constants, options, progress).run();
  ServoSelection sel = servo_reports(models, tasks, runs, delivered_run, constants, has_validation);
  recommend_servo_model(sel, has_validation, tolerance);
  return sel;
}

void recommend_servo_model(ServoSelection& sel, bool validated, double tolerance) {
  const std::string which = validated ? "validation" : "training";
  auto score = [&](const ServoModelReport& r) {
    return validated ? r.validation_mae : r.train_mae;
  };
  for (auto& r : sel.models)
    if (r.failed.empty() && !std::isfinite(score(r)))
      r.failed = "its " + which + " MAE is " + format_exact(score(r));
  // the best finite error among the models that did not fail: NaN and inf are never ranked
  double best = std::numeric_limits<double>::infinity();
  for (const auto& r : sel.models)
    if (r.failed.empty()) best = std::min(best, score(r));
  const ServoModelReport* pick = nullptr;
  for (const auto& r : sel.models)
    if (r.failed.empty() && score(r) <= best * (1.0 + tolerance) &&
        (!pick || r.parameters < pick->parameters ||
         (r.parameters == pick->parameters && score(r) < score(*pick))))
      pick = &r;
  if (!pick) {
    sel.recommended.reset();
    sel.recommended_temperature = false;
    sel.reason = "none: no model has a finite " + which + " error (";
    for (std::size_t k = 0; k < sel.models.size(); ++k)
      sel.reason += (k ? "; " : "") +
                    servo_model_label(sel.models[k].model, sel.models[k].temperature) + ": " +
                    sel.models[k].failed;
    sel.reason += ")";
    return;
  }
  sel.recommended = pick->model;
  sel.recommended_temperature = pick->temperature;
  sel.reason = servo_model_label(pick->model, pick->temperature) + ": the fewest parameters (" +
               std::to_string(pick->parameters) + ") among the models whose " + which +
               " MAE is within " + format_number(100.0 * tolerance) + " % of the best (" +
               format_fixed(best, 5) + " rad)";
  if (!validated)
    sel.reason += "; without validation logs the training error favours richer models";
  for (const auto& r : sel.models)
    if (!r.failed.empty())
      sel.reason += "; " + servo_model_label(r.model, r.temperature) + " not ranked: " + r.failed;
}

}  // namespace frictionlab::identify
