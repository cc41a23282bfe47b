// frictionlab identify: the joint SINDy-SR3 + iterative LuGre algorithm of reference 004
// (include/frictionlab/identify/joint_sr3.hpp; docs/joint-identification.md, section "sr3").
#include "frictionlab/identify/joint_sr3.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/joint_parameters.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/models/joint_lugre.hpp"

namespace frictionlab::identify {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using Lu = JointLuGre<double>;

namespace {

double sg(double K, double qd) {
  if (K > 0) return std::tanh(K * qd);
  return qd > 0 ? 1.0 : (qd < 0 ? -1.0 : 0.0);
}

// ---------------------------------------------------------------------------------------------
// Input checks and stacking.

std::string record_name(const JointData& d, const char* role, std::size_t i) {
  return d.source.empty() ? std::string(role) + " record " + std::to_string(i + 1) : d.source;
}

void check_record(const JointData& d, const std::string& name) {
  const std::size_t n = d.t.size();
  if (n == 0) throw FitError(name + ": the record is empty (no time samples)");
  const std::pair<const char*, const std::vector<double>*> ch[] = {
      {"q", &d.q}, {"qd", &d.qd}, {"qdd", &d.qdd}, {"tau", &d.tau}};
  for (const auto& [cn, v] : ch)
    if (v->size() != n)
      throw FitError(name + ": channel '" + cn + "' has " + std::to_string(v->size()) +
                     " samples, the time channel " + std::to_string(n));
  if (n < 20)
    throw FitError(name + ": too few samples: " + std::to_string(n) +
                   " (need at least 20 per record)");
  const std::pair<const char*, const std::vector<double>*> all[] = {
      {"t", &d.t}, {"q", &d.q}, {"qd", &d.qd}, {"qdd", &d.qdd}, {"tau", &d.tau}};
  for (const auto& [cn, v] : all)
    for (std::size_t k = 0; k < n; ++k)
      if (!std::isfinite((*v)[k]))
        throw FitError(
            name + ": non-finite value (" + format_number((*v)[k]) + ") in channel '" + cn +
            "' at sample " + std::to_string(k) + " (0-based)" +
            (std::isfinite(d.t[k]) ? ", t = " + format_number(d.t[k]) + " s" : std::string()));
  for (std::size_t k = 1; k < n; ++k)
    if (!(d.t[k] > d.t[k - 1]))
      throw FitError(name + ": time not strictly increasing at sample " + std::to_string(k) +
                     " (0-based): t = " + format_number(d.t[k]) + " s after " +
                     format_number(d.t[k - 1]) + " s");
}

struct Stacked {
  std::vector<double> t, q, qd, qdd, tau;
  std::vector<std::size_t> begin;  // first sample of each record, then the total (sentinel)
  std::size_t size() const { return q.size(); }
};

Stacked stack(std::span<const JointData> recs, const char* role) {
  Stacked s;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    check_record(recs[i], record_name(recs[i], role, i));
    s.begin.push_back(s.size());
    const JointData& d = recs[i];
    s.t.insert(s.t.end(), d.t.begin(), d.t.end());
    s.q.insert(s.q.end(), d.q.begin(), d.q.end());
    s.qd.insert(s.qd.end(), d.qd.begin(), d.qd.end());
    s.qdd.insert(s.qdd.end(), d.qdd.begin(), d.qdd.end());
    s.tau.insert(s.tau.end(), d.tau.begin(), d.tau.end());
  }
  s.begin.push_back(s.size());
  return s;
}

/// Sign changes of qd with hysteresis: from > b to < -b or back, b = 1 % of max|qd|.
long count_reversals(const std::vector<double>& qd) {
  double vmax = 0;
  for (const double v : qd) vmax = std::max(vmax, std::abs(v));
  const double b = 0.01 * vmax;
  int state = 0;
  long count = 0;
  for (const double v : qd) {
    const int s = v > b ? 1 : (v < -b ? -1 : 0);
    if (s == 0) continue;
    if (state != 0 && s != state) ++count;
    state = s;
  }
  return count;
}

void check_options(const JointSr3Options& o) {
  const auto bad = [](const std::string& m) { throw FitError("sr3 options: " + m); };
  if (o.n_viscous < 0 || o.n_viscous > Lu::kMaxViscous)
    bad("n_viscous must be between 0 and " + std::to_string(Lu::kMaxViscous) + ", got " +
        std::to_string(o.n_viscous));
  if (o.delta.empty() || static_cast<int>(o.delta.size()) > Lu::kMaxStribeck)
    bad("delta needs 1 to " + std::to_string(Lu::kMaxStribeck) + " exponents, got " +
        std::to_string(o.delta.size()));
  for (const double d : o.delta)
    if (!(d > 0) || !std::isfinite(d))
      bad("every delta must be finite and > 0, got " + format_number(d));
  if (!(o.K >= 0) || !std::isfinite(o.K))
    bad("K must be finite and >= 0, got " + format_number(o.K));
  for (const double l : o.lambda)
    if (!(l >= 0) || !std::isfinite(l))
      bad("every lambda must be finite and >= 0, got " + format_number(l));
  for (const double w : o.omega_s_init)
    if (!(w > 0) || !std::isfinite(w))
      bad("every omega_s_init must be finite and > 0, got " + format_number(w));
  if (o.sigma0_init.empty()) bad("sigma0_init is empty");
  for (const double s : o.sigma0_init)
    if (!(s > 0) || !std::isfinite(s))
      bad("every sigma0_init must be finite and > 0, got " + format_number(s));
  if (!(o.omega_s_min >= 0) || !(o.omega_s_max >= 0) ||
      (o.omega_s_max > 0 && !(o.omega_s_max > o.omega_s_min)))
    bad("need 0 <= omega_s_min < omega_s_max (0: from the data), got " +
        format_number(o.omega_s_min) + ", " + format_number(o.omega_s_max));
  if (o.aic_observations < 0) bad("aic_observations must be >= 0 (0: automatic)");
  if (o.max_outer < 1 || o.max_inner < 1) bad("max_outer and max_inner must be >= 1");
  if (!(o.outer_tolerance > 0) || !(o.inner_tolerance > 0) || !(o.inner_min_decrease >= 0))
    bad("outer_tolerance and inner_tolerance must be > 0, inner_min_decrease >= 0");
  if (!(o.sr3.nu > 0) || !std::isfinite(o.sr3.nu)) bad("sr3.nu must be finite and > 0");
}

// ---------------------------------------------------------------------------------------------
// The step-1 library layout.

struct Layout {
  std::vector<std::string> names;
  Index qdd = 0, cos = -1, sin = -1, one = -1;
  Index first_visc = 0;
  int nv = 0;
  Index coulomb = 0;
  Index first_stribeck = 0;  // = number of fixed columns
  int ns = 0;
  Index size() const { return first_stribeck + ns; }
};

std::string delta_name(double d) { return format_number(d); }

Layout make_layout(const JointSr3Options& o) {
  Layout L;
  Index c = 0;
  L.names.emplace_back("qdd");
  L.qdd = c++;
  if (o.structure.gravity) {
    L.names.emplace_back("cos(q)");
    L.cos = c++;
    L.names.emplace_back("sin(q)");
    L.sin = c++;
  }
  if (o.structure.offset) {
    L.names.emplace_back("1");
    L.one = c++;
  }
  L.first_visc = c;
  L.nv = o.n_viscous;
  for (int i = 1; i <= o.n_viscous; ++i) {
    L.names.push_back(i == 1 ? std::string("qd") : "qd^" + std::to_string(i));
    ++c;
  }
  const std::string s = o.K > 0 ? "tanh(" + format_number(o.K) + "*qd)" : std::string("sgn(qd)");
  L.names.push_back(s);
  L.coulomb = c++;
  L.first_stribeck = c;
  L.ns = static_cast<int>(o.delta.size());
  for (const double d : o.delta) L.names.push_back(s + "*exp(-|qd/Omega_s|^" + delta_name(d) + ")");
  return L;
}

/// Fixed step-1 columns (rigid body, viscous powers, Coulomb) at the given rows.
MatrixXd fixed_columns(const Stacked& s, const std::vector<std::size_t>& rows, const Layout& L,
                       double K) {
  MatrixXd F(static_cast<Index>(rows.size()), L.first_stribeck);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::size_t k = rows[r];
    const auto i = static_cast<Index>(r);
    F(i, L.qdd) = s.qdd[k];
    if (L.cos >= 0) F(i, L.cos) = std::cos(s.q[k]);
    if (L.sin >= 0) F(i, L.sin) = std::sin(s.q[k]);
    if (L.one >= 0) F(i, L.one) = 1.0;
    double p = s.qd[k];
    for (int j = 0; j < L.nv; ++j) {
      F(i, L.first_visc + j) = p;
      p *= s.qd[k];
    }
    F(i, L.coulomb) = sg(K, s.qd[k]);
  }
  return F;
}

std::vector<double> gather(const std::vector<double>& v, const std::vector<std::size_t>& rows) {
  std::vector<double> out(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) out[r] = v[rows[r]];
  return out;
}

VectorXd to_vec(const std::vector<double>& v) {
  return Eigen::Map<const VectorXd>(v.data(), static_cast<Index>(v.size()));
}

std::vector<std::size_t> all_rows(std::size_t n) {
  std::vector<std::size_t> r(n);
  std::iota(r.begin(), r.end(), std::size_t{0});
  return r;
}

// ---------------------------------------------------------------------------------------------
// Models.

/// The identified friction structure after step 1.
struct Structure {
  std::vector<int> visc;      // active viscous powers (1-based)
  std::vector<double> delta;  // active Stribeck exponents
};

Lu::Params lugre_params(const Structure& st, double Fc, const std::vector<double>& Fs,
                        double Omega_s, const std::vector<double>& cv_by_power, double sigma0,
                        double sigma1, double K) {
  Lu::Params p;
  p.sigma0 = sigma0;
  p.sigma1 = sigma1;
  p.Fc = Fc;
  p.n_viscous = st.visc.empty() ? 0 : *std::max_element(st.visc.begin(), st.visc.end());
  p.cv.fill(0);
  for (int i = 0; i < p.n_viscous; ++i)
    p.cv[static_cast<std::size_t>(i)] = cv_by_power[static_cast<std::size_t>(i)];
  p.n_stribeck = static_cast<int>(st.delta.size());
  p.Fs.fill(0);
  p.delta.fill(0);
  for (std::size_t i = 0; i < st.delta.size(); ++i) {
    p.Fs[i] = Fs[i];
    p.delta[i] = st.delta[i];
  }
  p.Omega_s = Omega_s;
  p.K = K;
  return p;
}

/// Eq. 3 along the stacked training records for a fixed g and any sigma0: the relaxation rate
/// is linear in sigma0 (JointLuGre::rate), so rate / sigma0 is tabulated once at the samples
/// (for zdot) and at the held interval velocities (for the exact step); the inner loop of step
/// 3, where only sigma0 changes, then costs one expm1 per sample. Same arithmetic as
/// JointLuGre::step / derivative up to rounding.
struct RateTable {
  std::vector<double> rho;      // rate(qd_k) / sigma0
  std::vector<double> g;        // g(qd_k)
  std::vector<double> v_mid;    // held velocity of interval k (to k + 1)
  std::vector<double> rho_mid;  // rate(v_mid) / sigma0
};

RateTable rate_table(const Lu::Params& p, const Stacked& s) {
  Lu::Params p1 = p;
  p1.sigma0 = 1.0;
  RateTable rt;
  const std::size_t n = s.size();
  rt.rho.resize(n);
  rt.g.resize(n);
  rt.v_mid.assign(n, 0.0);
  rt.rho_mid.assign(n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    rt.rho[k] = Lu::rate(p1, s.qd[k]);
    rt.g[k] = Lu::g(p1, s.qd[k]);
  }
  for (std::size_t r = 0; r + 1 < s.begin.size(); ++r)
    for (std::size_t k = s.begin[r]; k + 1 < s.begin[r + 1]; ++k) {
      rt.v_mid[k] = 0.5 * (s.qd[k] + s.qd[k + 1]);
      rt.rho_mid[k] = Lu::rate(p1, rt.v_mid[k]);
    }
  return rt;
}

void integrate_z(const RateTable& rt, const Stacked& s, double sigma0, std::vector<double>& z,
                 std::vector<double>& zdot) {
  z.assign(s.size(), 0.0);
  zdot.assign(s.size(), 0.0);
  for (std::size_t r = 0; r + 1 < s.begin.size(); ++r) {
    const std::size_t b = s.begin[r], e = s.begin[r + 1];
    z[b] = 0;
    for (std::size_t k = b; k + 1 < e; ++k) {
      const double h = s.t[k + 1] - s.t[k];
      const double a = sigma0 * rt.rho_mid[k];
      z[k + 1] = z[k] + h * phi1_neg(a * h) * (rt.v_mid[k] - a * z[k]);
    }
    for (std::size_t k = b; k < e; ++k) zdot[k] = s.qd[k] - sigma0 * rt.rho[k] * z[k];
  }
}

bool g_positive_on(const Lu::Params& p, const std::vector<double>& qd) {
  for (const double v : qd)
    if (!(Lu::g(p, v) > 0)) return false;
  return true;
}

double rigid(const JointModel& m, double q, double qdd) { return rigid_body_torque(m, q, qdd); }

/// AIC of 04_* eq. 22.
double aic_value(int k, int m, double rss) {
  const double den = static_cast<double>(m - k - 2);
  if (!(den > 0) || !(rss > 0)) return std::numeric_limits<double>::quiet_NaN();
  const double kk = k;
  return 2.0 * kk + m * std::log(rss / m) + 2.0 * (kk + 1) * (kk + 2) / den;
}

double norm_of(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

namespace {

/// ||tau - inverse_torque|| over the records.
double stacked_error(const JointModel& model, std::span<const JointData> recs) {
  double e2 = 0;
  for (const JointData& d : recs) {
    const std::vector<double> pr = inverse_torque(model, d);
    for (std::size_t k = 0; k < d.size(); ++k) e2 += (d.tau[k] - pr[k]) * (d.tau[k] - pr[k]);
  }
  return std::sqrt(e2);
}

}  // namespace

namespace {

/// The stacked records, the library layout and the ranges the training data set.
struct Sr3Problem {
  Stacked tr, va;
  Layout L;
  Index r = 0;                    // candidate functions
  std::size_t n = 0;              // training samples
  double qd_max = 0;              // max |qd| of the training data [rad/s]
  double om_min = 0, om_max = 0;  // the search range of Omega_s [rad/s]
  double tau_norm = 0;            // ||tau|| of the training data [N m]
};

/// Check the options and the records, stack them and set the ranges.
Sr3Problem prepare_problem(std::span<const JointData> train, std::span<const JointData> validation,
                           const JointSr3Options& opt) {
  check_options(opt);
  if (train.empty()) throw FitError("sr3: no training data");
  Sr3Problem P;
  P.tr = stack(train, "training");
  P.va = stack(validation, "validation");
  P.L = make_layout(opt);
  P.r = P.L.size();
  P.n = P.tr.size();
  if (P.n < static_cast<std::size_t>(10 * P.r))
    throw FitError("sr3: too few training samples: " + std::to_string(P.n) + " for " +
                   std::to_string(P.r) + " candidate functions (need at least 10 per function, " +
                   std::to_string(10 * P.r) + ")");
  const long reversals = count_reversals(P.tr.qd);
  if (reversals == 0)
    throw FitError(
        "sr3: no velocity reversal in the training data (qd never crosses from "
        "above +1 % to below -1 % of max|qd| or back): the Coulomb level and the "
        "presliding parameters sigma0, sigma1 cannot be identified; record a motion "
        "that changes direction");
  for (const double v : P.tr.qd) P.qd_max = std::max(P.qd_max, std::abs(v));
  P.om_min = opt.omega_s_min > 0 ? opt.omega_s_min : 1e-4 * P.qd_max;
  P.om_max = opt.omega_s_max > 0 ? opt.omega_s_max : P.qd_max;
  P.tau_norm = norm_of(P.tr.tau);
  if (!(P.tau_norm > 0)) throw FitError("sr3: the training torque is zero everywhere");
  return P;
}

/// Step 1's samples (|qd| >= floor) and its AIC observations: the validation data, or
/// interleaved blocks held out from the training data.
struct Step1Rows {
  std::vector<std::size_t> fit, val;
  const Stacked* val_src = nullptr;  // the records val indexes
  int m = 0;                         // AIC observations
  double floor_v = 0;                // [rad/s]
  bool sliding(double v) const { return std::abs(v) >= floor_v; }
};

Step1Rows step1_rows(const Sr3Problem& P, const JointSr3Options& opt, JointSr3Result& res) {
  Step1Rows s;
  s.floor_v = opt.static_velocity_floor >= 0 ? opt.static_velocity_floor
                                             : -opt.static_velocity_floor * P.qd_max;
  res.static_velocity_floor = s.floor_v;
  s.m = opt.aic_observations > 0 ? opt.aic_observations : std::max(40, static_cast<int>(P.r) + 10);
  res.aic_observations = s.m;
  s.val_src = &P.va;
  if (P.va.size() == 0) {
    res.held_out = true;
    const std::size_t blocks = 2 * static_cast<std::size_t>(s.m);
    if (P.n < 10 * blocks)
      throw FitError(
          "sr3: too few training samples to hold out AIC observations: " + std::to_string(P.n) +
          " (need 10 per block, " + std::to_string(blocks) + " blocks; or pass validation data)");
    for (std::size_t k = 0; k < P.n; ++k)
      if (s.sliding(P.tr.qd[k])) ((k * blocks / P.n) % 2 == 0 ? s.fit : s.val).push_back(k);
    s.val_src = &P.tr;
    res.warnings.push_back("no validation data: the AIC observations of step 1 are " +
                           std::to_string(s.m) +
                           " interleaved blocks held out from the training "
                           "data (half of it); pass validation records for an independent "
                           "model selection");
  } else {
    for (std::size_t k = 0; k < P.n; ++k)
      if (s.sliding(P.tr.qd[k])) s.fit.push_back(k);
    for (std::size_t k = 0; k < P.va.size(); ++k)
      if (s.sliding(P.va.qd[k])) s.val.push_back(k);
  }
  res.static_samples = static_cast<long>(s.fit.size());
  if (s.fit.size() < static_cast<std::size_t>(10 * P.r))
    throw FitError("sr3: too few samples for step 1: " + std::to_string(s.fit.size()) +
                   " with |qd| >= " + format_number(s.floor_v) + " rad/s for " +
                   std::to_string(P.r) + " candidate functions (need at least 10 per function)");
  if (s.val.size() < static_cast<std::size_t>(s.m))
    throw FitError("sr3: too few validation samples with |qd| >= " + format_number(s.floor_v) +
                   " rad/s: " + std::to_string(s.val.size()) + " for " + std::to_string(s.m) +
                   " AIC observations");
  return s;
}

/// sg(K, qd) at every sample: the Coulomb column and the Stribeck columns' multiplier.
VectorXd coulomb_multiplier(const std::vector<double>& qd, double K) {
  VectorXd mlt(static_cast<Index>(qd.size()));
  for (std::size_t k = 0; k < qd.size(); ++k) mlt(static_cast<Index>(k)) = sg(K, qd[k]);
  return mlt;
}

/// The lambda grid, sorted, without repeats: the options', or 36 thresholds
/// sqrt(2 nu lambda) log-spaced from 1e-4 to 0.3.
std::vector<double> lambda_grid(const JointSr3Options& opt) {
  std::vector<double> grid = opt.lambda;
  if (grid.empty()) {
    const int nt = 36;
    for (int i = 0; i < nt; ++i) {
      const double t = std::pow(10.0, -4.0 + (std::log10(0.3) + 4.0) * i / (nt - 1));
      grid.push_back(t * t / (2.0 * opt.sr3.nu));
    }
  }
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  return grid;
}

/// Step 1's SR3 options: debiased, the rigid body and Coulomb columns protected on request.
Sr3Options step1_options(const JointSr3Options& opt, const Layout& L) {
  Sr3Options so = opt.sr3;
  so.debias = true;
  so.protect.assign(static_cast<std::size_t>(L.size()), false);
  if (opt.protect_rigid_and_coulomb) {
    for (Index j = 0; j < L.first_visc; ++j) so.protect[static_cast<std::size_t>(j)] = true;
    so.protect[static_cast<std::size_t>(L.coulomb)] = true;
  }
  return so;
}

/// SR3 along the lambda grid from every Omega_s start: runs[l][s].
/// Each start's path runs from the largest lambda (sparsest model, W = 0) down, warm-started
/// from the previous lambda: warm starts from a dense solution would keep its large, cancelling
/// coefficients of collinear columns alive. Once two paths arrive at the same state (support, W
/// and Omega_s within 1e-9 relative), their later runs are identical and the later path reuses
/// the earlier one's results.
std::vector<std::vector<Sr3Result>> lambda_paths(const JointStribeckLibrary& lib_fit,
                                                 const VectorXd& y_fit,
                                                 const std::vector<double>& grid, Sr3Options so,
                                                 const Sr3Problem& P, const JointSr3Options& opt,
                                                 JointSr3Result& res) {
  std::vector<double> omega0 = opt.omega_s_init;
  if (omega0.empty())
    for (const double f : {1e-3, 3e-3, 1e-2, 3e-2, 1e-1}) omega0.push_back(f * P.qd_max);
  const std::size_t ns0 = omega0.size();
  std::vector<std::vector<Sr3Result>> runs(grid.size(), std::vector<Sr3Result>(ns0));
  std::vector<Sr3Start> starts(ns0);
  std::vector<std::size_t> same_as(ns0);
  for (std::size_t s = 0; s < ns0; ++s) {
    const double w0 = std::clamp(omega0[s], P.om_min, P.om_max);
    if (w0 != omega0[s])
      res.warnings.push_back("initial Omega_s " + format_number(omega0[s]) +
                             " rad/s is outside "
                             "the search range [" +
                             format_number(P.om_min) + ", " + format_number(P.om_max) +
                             "] rad/s; started from " + format_number(w0));
    starts[s].alpha = VectorXd::Constant(1, std::log(w0));
    same_as[s] = s;
  }
  const std::vector<Sr3Start> first = starts;
  const auto same_state = [](const Sr3Result& a, const Sr3Result& b) {
    if (a.active != b.active) return false;
    if (std::abs(a.alpha(0) - b.alpha(0)) > 1e-9) return false;
    const double scale = std::max(a.W.lpNorm<Eigen::Infinity>(), 1e-300);
    return (a.W - b.W).lpNorm<Eigen::Infinity>() <= 1e-9 * scale;
  };
  for (std::size_t l = grid.size(); l-- > 0;) {
    so.lambda = grid[l];
    for (std::size_t s = 0; s < ns0; ++s) {
      if (same_as[s] != s) {
        runs[l][s] = runs[l][same_as[s]];
        continue;
      }
      runs[l][s] = sr3(lib_fit, y_fit, so, opt.warm_start ? starts[s] : first[s]);
      if (opt.warm_start) {
        starts[s].alpha = runs[l][s].alpha;
        starts[s].W = runs[l][s].W;
        for (std::size_t e = 0; e < s; ++e)
          if (same_as[e] == e && same_state(runs[l][e], runs[l][s])) {
            same_as[s] = e;
            break;
          }
      }
    }
  }
  return runs;
}

/// The friction structure of a step-1 support.
Structure build_structure(const Layout& L, const JointSr3Options& opt,
                          const std::vector<bool>& act) {
  Structure st;
  for (int i = 0; i < L.nv; ++i)
    if (act[static_cast<std::size_t>(L.first_visc + i)]) st.visc.push_back(i + 1);
  for (int i = 0; i < L.ns; ++i)
    if (act[static_cast<std::size_t>(L.first_stribeck + i)])
      st.delta.push_back(opt.delta[static_cast<std::size_t>(i)]);
  return st;
}

/// The model of a step-1 coefficient vector.
JointModel static_model_of(const Layout& L, const JointSr3Options& opt, const VectorXd& xi,
                           const std::vector<bool>& act, double Omega_s) {
  JointModel jm;
  jm.structure = opt.structure;
  jm.I = xi(L.qdd);
  if (L.cos >= 0) jm.mgCx = xi(L.cos);
  if (L.sin >= 0) jm.mgCy = -xi(L.sin);
  if (L.one >= 0) jm.offset = xi(L.one);
  const Structure st = build_structure(L, opt, act);
  std::vector<double> cv(static_cast<std::size_t>(Lu::kMaxViscous), 0.0);
  for (int i = 0; i < L.nv; ++i) cv[static_cast<std::size_t>(i)] = xi(L.first_visc + i);
  std::vector<double> Fs;
  for (int i = 0; i < L.ns; ++i)
    if (act[static_cast<std::size_t>(L.first_stribeck + i)]) Fs.push_back(xi(L.first_stribeck + i));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  jm.friction = lugre_params(st, xi(L.coulomb), Fs, Omega_s, cv, nan, nan, opt.K);
  return jm;
}

/// One row of the scan per lambda: its best start (lowest SR3 objective), the AIC of its
/// prediction of the AIC observations and whether its static model is an admissible LuGre g.
void fill_scan(JointSr3Result& res, const std::vector<std::vector<Sr3Result>>& runs,
               const std::vector<double>& grid, const Sr3Options& so, double yf2,
               const JointStribeckLibrary& lib_val, const VectorXd& y_val, int m,
               const Sr3Problem& P, const JointSr3Options& opt) {
  res.scan.resize(grid.size());
  for (std::size_t l = 0; l < grid.size(); ++l) {
    std::size_t best = 0;
    double best_j = std::numeric_limits<double>::infinity();
    for (std::size_t s = 0; s < runs[l].size(); ++s) {
      const Sr3Result& rr = runs[l][s];
      const double scale = so.normalize ? yf2 : 1.0;
      const double j = 0.5 * rr.rss / scale + grid[l] * rr.num_active();
      if (j < best_j) {
        best_j = j;
        best = s;
      }
    }
    const Sr3Result& rr = runs[l][best];
    JointSr3ScanRow& row = res.scan[l];
    row.lambda = grid[l];
    row.threshold = std::sqrt(2.0 * so.nu * grid[l]);
    row.start = static_cast<int>(best);
    row.Omega_s = std::exp(rr.alpha(0));
    row.n_active = rr.num_active();
    row.n_zero = static_cast<int>(P.r) - row.n_active;
    row.xi.assign(rr.xi.data(), rr.xi.data() + rr.xi.size());
    row.active = rr.active;
    row.train_rel_error = std::sqrt(rr.rss / yf2);
    row.converged = rr.converged;
    VectorXd pred;
    lib_val.apply(rr.alpha, rr.xi, pred, nullptr, nullptr);
    const VectorXd e = y_val - pred;
    row.validation_rss =
        opt.aic_residual == AicResidual::absolute ? e.lpNorm<1>() : e.squaredNorm();
    row.aic = aic_value(row.n_active, m, row.validation_rss);
    const JointModel jm = static_model_of(P.L, opt, rr.xi, rr.active, row.Omega_s);
    row.admissible = Lu::g_min(std::get<Lu::Params>(jm.friction)) > 0;
  }
}

/// The admissible lambda of the lowest AIC; aic_r of every row; a minimum on an edge of the
/// grid (and not on a plateau reaching inside) is said: extend the grid.
std::size_t choose_lambda(JointSr3Result& res, const std::vector<double>& grid, int m) {
  double aic_min = std::numeric_limits<double>::infinity();
  std::size_t chosen = grid.size();
  for (std::size_t l = 0; l < grid.size(); ++l) {
    const auto& row = res.scan[l];
    if (row.admissible && std::isfinite(row.aic) && row.aic < aic_min) {
      aic_min = row.aic;
      chosen = l;
    }
  }
  if (chosen == grid.size())
    throw FitError(
        "sr3: no admissible candidate model in the lambda scan (each one has g(qd) "
        "<= 0 at some velocity, i.e. Fc + the negative Stribeck levels <= 0, or no "
        "finite AIC with m = " +
        std::to_string(m) +
        " observations); try model B (K > 0), fewer delta values or a wider lambda "
        "grid");
  for (auto& row : res.scan) row.aic_r = row.aic - aic_min;
  const auto same_aic = [&](std::size_t l) {
    return std::abs(res.scan[l].aic - aic_min) <= 1e-9 * std::abs(aic_min);
  };
  if (grid.size() > 1 && same_aic(0) && !same_aic(1))
    res.warnings.push_back(
        "the AIC minimum is at the smallest lambda of the grid: extend the "
        "grid towards 0");
  if (grid.size() > 1 && same_aic(grid.size() - 1) && !same_aic(grid.size() - 2))
    res.warnings.push_back("the AIC minimum is at the largest lambda of the grid: extend the grid");
  return chosen;
}

/// Step 1 (SR3 + Newton on Omega_s over the lambda grid, AIC selection): fills res.scan,
/// chosen, lambda, active and static_model; returns the chosen run.
Sr3Result step1(const Sr3Problem& P, const JointSr3Options& opt, JointSr3Result& res) {
  const Step1Rows rows = step1_rows(P, opt, res);
  const std::vector<double> qd_fit = gather(P.tr.qd, rows.fit);
  const std::vector<double> qd_val = gather(rows.val_src->qd, rows.val);
  const JointStribeckLibrary lib_fit(fixed_columns(P.tr, rows.fit, P.L, opt.K), qd_fit,
                                     coulomb_multiplier(qd_fit, opt.K), opt.delta, P.om_min,
                                     P.om_max);
  const JointStribeckLibrary lib_val(fixed_columns(*rows.val_src, rows.val, P.L, opt.K), qd_val,
                                     coulomb_multiplier(qd_val, opt.K), opt.delta, P.om_min,
                                     P.om_max);
  const VectorXd y_fit = to_vec(gather(P.tr.tau, rows.fit));
  const VectorXd y_val = to_vec(gather(rows.val_src->tau, rows.val));
  const std::vector<double> grid = lambda_grid(opt);
  const Sr3Options so = step1_options(opt, P.L);
  const std::vector<std::vector<Sr3Result>> runs =
      lambda_paths(lib_fit, y_fit, grid, so, P, opt, res);
  fill_scan(res, runs, grid, so, y_fit.squaredNorm(), lib_val, y_val, rows.m, P, opt);
  const std::size_t chosen = choose_lambda(res, grid, rows.m);
  res.chosen = chosen;
  res.lambda = grid[chosen];
  const JointSr3ScanRow& crow = res.scan[chosen];
  Sr3Result crun = runs[chosen][static_cast<std::size_t>(crow.start)];
  if (!crun.converged)
    res.warnings.push_back(
        "SR3 at the chosen lambda did not converge within the iteration "
        "limits (sr3.max_iterations, sr3.max_alpha_rounds)");
  for (Index j = 0; j < P.r; ++j)
    if (crow.active[static_cast<std::size_t>(j)])
      res.active.push_back(P.L.names[static_cast<std::size_t>(j)]);
  res.static_model = static_model_of(P.L, opt, crun.xi, crow.active, crow.Omega_s);
  return crun;
}

/// Step 2, first outer iteration: rigid body + active friction with zdot = 0 (the static form:
/// every training sample with |qd| >= floor), sigma0 the first start, sigma1 0. A refit that
/// makes g inadmissible (collinear terms) keeps the step-1 model.
JointModel step2_static_refit(const Sr3Problem& P, const JointSr3Options& opt, const Structure& st,
                              const Sr3Result& crun, JointSr3Result& res) {
  const Layout& L = P.L;
  std::vector<std::size_t> rows_static;
  for (std::size_t k = 0; k < P.n; ++k)
    if (std::abs(P.tr.qd[k]) >= res.static_velocity_floor) rows_static.push_back(k);
  const std::vector<double> qd_static = gather(P.tr.qd, rows_static);
  const auto nvis = static_cast<Index>(st.visc.size());
  const auto nd = static_cast<Index>(st.delta.size());
  const Index n_rigid = L.first_visc;
  const MatrixXd F_st = fixed_columns(P.tr, rows_static, L, opt.K);
  MatrixXd fx(F_st.rows(), n_rigid + nvis + 1);
  fx.leftCols(n_rigid) = F_st.leftCols(n_rigid);
  for (Index i = 0; i < nvis; ++i)
    fx.col(n_rigid + i) = F_st.col(L.first_visc + st.visc[static_cast<std::size_t>(i)] - 1);
  fx.col(n_rigid + nvis) = F_st.col(L.coulomb);
  const JointStribeckLibrary lib1(std::move(fx), qd_static, coulomb_multiplier(qd_static, opt.K),
                                  st.delta, P.om_min, P.om_max);
  Sr3Options s2 = opt.sr3;
  s2.lambda = 0;
  s2.protect.clear();
  Sr3Start s2start;
  s2start.alpha = crun.alpha;
  const Sr3Result r1 = sr3(lib1, to_vec(gather(P.tr.tau, rows_static)), s2, s2start);
  JointModel model;
  model.structure = opt.structure;
  model.I = r1.xi(L.qdd);
  if (L.cos >= 0) model.mgCx = r1.xi(L.cos);
  if (L.sin >= 0) model.mgCy = -r1.xi(L.sin);
  if (L.one >= 0) model.offset = r1.xi(L.one);
  std::vector<double> cv(static_cast<std::size_t>(Lu::kMaxViscous), 0.0);
  for (Index i = 0; i < nvis; ++i)
    cv[static_cast<std::size_t>(st.visc[static_cast<std::size_t>(i)] - 1)] = r1.xi(n_rigid + i);
  std::vector<double> Fs(static_cast<std::size_t>(nd));
  for (Index i = 0; i < nd; ++i) Fs[static_cast<std::size_t>(i)] = r1.xi(n_rigid + nvis + 1 + i);
  model.friction = lugre_params(st, r1.xi(n_rigid + nvis), Fs, std::exp(r1.alpha(0)), cv,
                                opt.sigma0_init.front(), 0.0, opt.K);
  if (!(Lu::g_min(std::get<Lu::Params>(model.friction)) > 0)) {
    res.warnings.push_back(
        "step 2 (first iteration) on all training samples gave g <= 0 at "
        "some velocity; the step-1 model is used instead");
    const JointModel sm = res.static_model;
    model = sm;
    Lu::Params pm = std::get<Lu::Params>(sm.friction);
    pm.sigma0 = opt.sigma0_init.front();
    pm.sigma1 = 0;
    model.friction = pm;
  }
  return model;
}

/// What steps 2-3 share over the starts: the rigid body fixed by the first step 2, the friction
/// structure and the training torque without the rigid body.
struct Steps23 {
  Steps23(const Sr3Problem& problem, const JointSr3Options& options,
          std::span<const JointData> records, Structure structure)
      : P(problem), opt(options), train(records), st(std::move(structure)) {}
  const Sr3Problem& P;
  const JointSr3Options& opt;
  std::span<const JointData> train;
  Structure st;
  JointModel rigid_model;
  Lu::Params p_step1;
  MatrixXd F_all;               // fixed step-1 columns at every training sample
  VectorXd y_f;                 // tau minus the rigid body [N m]
  std::vector<double> z, zdot;  // scratch: the bristle state along the records
  /// The fixed column of the i-th active viscous power.
  MatrixXd::ConstColXpr viscous_column(Index i) const {
    return F_all.col(P.L.first_visc + st.visc[static_cast<std::size_t>(i)] - 1);
  }
};

/// Step 2 (eq. 16) with z, zdot of the previous step 3 and P = sigma0 z / g_prev: Fc, Fs and
/// Omega_s, applied only where g stays a valid LuGre g.
void step2_update(Steps23& c, Lu::Params& p, JointSr3StartSummary& sum) {
  const Stacked& tr = c.P.tr;
  const std::size_t n = c.P.n;
  const auto nvis = static_cast<Index>(c.st.visc.size());
  const auto nd = static_cast<Index>(c.st.delta.size());
  const RateTable rt = rate_table(p, tr);
  integrate_z(rt, tr, p.sigma0, c.z, c.zdot);
  VectorXd Pz(static_cast<Index>(n));
  for (std::size_t k = 0; k < n; ++k) Pz(static_cast<Index>(k)) = p.sigma0 * c.z[k] / rt.g[k];
  MatrixXd fx(static_cast<Index>(n), nvis + 2);
  for (Index i = 0; i < nvis; ++i) fx.col(i) = c.viscous_column(i);
  fx.col(nvis) = Pz;
  fx.col(nvis + 1) = to_vec(c.zdot);
  const JointStribeckLibrary lib2(std::move(fx), tr.qd, Pz, c.st.delta, c.P.om_min, c.P.om_max);
  Sr3Options s2 = c.opt.sr3;
  s2.lambda = 0;
  s2.protect.clear();
  Sr3Start s2start;
  s2start.alpha = VectorXd::Constant(1, std::log(p.Omega_s));
  const Sr3Result r2 = sr3(lib2, c.y_f, s2, s2start);
  Lu::Params q = p;
  q.Fc = r2.xi(nvis);
  for (Index i = 0; i < nd; ++i) q.Fs[static_cast<std::size_t>(i)] = r2.xi(nvis + 2 + i);
  q.Omega_s = std::exp(r2.alpha(0));
  if (Lu::g_min(q) > 0 && g_positive_on(q, tr.qd)) {
    p.Fc = q.Fc;
    p.Fs = q.Fs;
    p.Omega_s = q.Omega_s;
  } else {
    ++sum.rejected_step2;  // g would not be a valid LuGre g: keep the previous one
  }
}

/// Step 3 (eq. 17-19): the inner loop on sigma0 with g fixed; p becomes the best accepted
/// iterate. Returns its error ||theta xi - y_f||.
double step3_inner(Steps23& c, Lu::Params& p, std::size_t s, int o, const JointSr3StartSummary& sum,
                   JointSr3Result& res) {
  const std::size_t n = c.P.n;
  const auto nvis = static_cast<Index>(c.st.visc.size());
  const RateTable rt = rate_table(p, c.P.tr);
  double best_err = std::numeric_limits<double>::infinity();
  Lu::Params best = p;
  double sigma0_j = p.sigma0;
  double last_err = std::numeric_limits<double>::infinity();
  double prev_accepted = std::numeric_limits<double>::infinity();
  for (int j = 1; j <= c.opt.max_inner; ++j) {
    Lu::Params pj = p;
    pj.sigma0 = sigma0_j;
    integrate_z(rt, c.P.tr, sigma0_j, c.z, c.zdot);
    MatrixXd th(static_cast<Index>(n), 2 + nvis);
    for (std::size_t k = 0; k < n; ++k) {
      th(static_cast<Index>(k), 0) = sigma0_j * c.z[k];
      th(static_cast<Index>(k), 1) = sigma0_j * c.zdot[k];
    }
    for (Index i = 0; i < nvis; ++i) th.col(2 + i) = c.viscous_column(i);
    const VectorXd xi =
        least_squares_on(th, c.y_f, std::vector<bool>(static_cast<std::size_t>(2 + nvis), true));
    const double err = (th * xi - c.y_f).norm();
    JointSr3Iteration it;
    it.start = static_cast<int>(s);
    it.outer = o;
    it.inner = j;
    it.rel_error = err / c.P.tau_norm;
    it.xi_u = xi(0);
    it.sigma0 = sigma0_j;
    it.sigma1 = sigma0_j * xi(1);
    it.Omega_s = p.Omega_s;
    it.Fc = p.Fc;
    const bool rose = j > 1 && err > last_err;
    it.accepted = !rose;
    res.history.push_back(it);
    if (rose) break;
    last_err = err;
    best_err = err;
    best = pj;
    best.sigma1 = it.sigma1;
    best.cv.fill(0);
    for (Index i = 0; i < nvis; ++i)
      best.cv[static_cast<std::size_t>(c.st.visc[static_cast<std::size_t>(i)] - 1)] = xi(2 + i);
    if (std::abs(xi(0) - 1.0) < c.opt.inner_tolerance) break;
    if (j > 1 && prev_accepted - err < c.opt.inner_min_decrease * prev_accepted) break;
    prev_accepted = err;
    const double next = sigma0_j * xi(0);  // eq. 18
    if (!(next > 0) || !std::isfinite(next)) {
      res.warnings.push_back("sigma0 start " + format_number(sum.sigma0_init) +
                             ", outer iteration " + std::to_string(o) + ": xi_u = " +
                             format_number(xi(0)) + " gives sigma0 <= 0; inner loop stopped");
      break;
    }
    sigma0_j = next;
  }
  p = best;
  return best_err;
}

/// Steps 2-3 from one initial sigma0 until sigma0 and the error settle: its summary goes to
/// res.starts; returns its final parameters (sigma1 clipped at 0).
Lu::Params run_start(Steps23& c, std::size_t s, double sigma0_start, JointSr3Result& res) {
  JointSr3StartSummary sum;
  sum.sigma0_init = sigma0_start;
  Lu::Params p = c.p_step1;
  p.sigma0 = sigma0_start;
  p.sigma1 = 0;
  double prev_sigma0 = p.sigma0, prev_error = std::numeric_limits<double>::infinity();
  for (int o = 1; o <= c.opt.max_outer; ++o) {
    sum.outer_iterations = o;
    if (o > 1) step2_update(c, p, sum);
    const double best_err = step3_inner(c, p, s, o, sum, res);
    const double d_sigma0 = std::abs(p.sigma0 - prev_sigma0) / prev_sigma0;
    const double d_err = std::isfinite(prev_error) ? std::abs(best_err - prev_error) / prev_error
                                                   : std::numeric_limits<double>::infinity();
    prev_sigma0 = p.sigma0;
    prev_error = best_err;
    if (o > 1 && d_sigma0 < c.opt.outer_tolerance && d_err < c.opt.outer_tolerance) {
      sum.converged = true;
      break;
    }
  }
  sum.sigma0 = p.sigma0;
  sum.sigma1 = p.sigma1;  // the estimate; the model gets max(sigma1, 0) (LuGre: sigma1 >= 0)
  p.sigma1 = std::max(p.sigma1, 0.0);
  JointModel mdl = c.rigid_model;
  mdl.friction = p;
  sum.rel_error = stacked_error(mdl, c.train) / c.P.tau_norm;
  if (!sum.converged)
    res.warnings.push_back("sigma0 start " + format_number(sum.sigma0_init) +
                           ": the outer loop did not converge in " +
                           std::to_string(c.opt.max_outer) + " iterations");
  if (sum.rejected_step2 > 0)
    res.warnings.push_back("sigma0 start " + format_number(sum.sigma0_init) + ": " +
                           std::to_string(sum.rejected_step2) +
                           " step-2 updates gave g <= 0 at some velocity (Fc + the negative "
                           "Stribeck levels <= 0) and were not applied (g kept)");
  res.starts.push_back(sum);
  return p;
}

/// The start of the lowest training error.
std::size_t best_start_of(const JointSr3Result& res) {
  std::size_t b = 0;
  for (std::size_t k = 1; k < res.starts.size(); ++k)
    if (res.starts[k].rel_error < res.starts[b].rel_error) b = k;
  return b;
}

/// Whether sigma0 is at the edge of the start grid, or undetermined (flat error).
struct Sigma0Check {
  bool at_edge = false, flat = false;
};

/// Steps 2-3 from every initial sigma0. A best start at an edge of the sigma0 grid: the grid is
/// extended by factors of 10 beyond that edge (at most twice, as long as the new start wins),
/// and an estimate still at the edge is flagged; so is a flat objective (starts that span the
/// grid end with nearly the same error).
Sigma0Check run_starts(Steps23& c, std::vector<Lu::Params>& finals, JointSr3Result& res) {
  const std::vector<double>& init = c.opt.sigma0_init;
  for (std::size_t s = 0; s < init.size(); ++s) finals.push_back(run_start(c, s, init[s], res));
  Sigma0Check out;
  if (init.size() <= 1) return out;
  double edge_lo = *std::min_element(init.begin(), init.end());
  double edge_hi = *std::max_element(init.begin(), init.end());
  for (int ext = 0; ext < 2; ++ext) {
    const double start = res.starts[best_start_of(res)].sigma0_init;
    if (start != edge_lo && start != edge_hi) break;
    const double next = start == edge_hi ? 10 * edge_hi : edge_lo / 10;
    (start == edge_hi ? edge_hi : edge_lo) = next;
    finals.push_back(run_start(c, res.starts.size(), next, res));
  }
  const double start = res.starts[best_start_of(res)].sigma0_init;
  out.at_edge = start == edge_lo || start == edge_hi;
  double emin = res.starts[0].rel_error, emax = emin, smin = res.starts[0].sigma0, smax = smin;
  for (const auto& st0 : res.starts) {
    emin = std::min(emin, st0.rel_error);
    emax = std::max(emax, st0.rel_error);
    smin = std::min(smin, st0.sigma0);
    smax = std::max(smax, st0.sigma0);
  }
  out.flat = smax > 10 * smin && emax <= emin * (1 + 1e-3);
  if (out.flat)
    res.flags.push_back(
        {"sigma0", "undetermined", "", 100 * (emax / emin - 1),
         "sigma0 is not determined by this record: the training torque error changes by " +
             format_number(100 * (emax / emin - 1)) + " % over sigma0 from " + format_number(smin) +
             " to " + format_number(smax) +
             " N m/rad; sigma0 and sigma1 are reported but not trustworthy"});
  if (out.at_edge)
    res.flags.push_back(
        {"sigma0", "limit", "", res.starts[best_start_of(res)].sigma0,
         "sigma0: the best start is at the edge of the start grid even after extending it to [" +
             format_number(edge_lo) + ", " + format_number(edge_hi) +
             "] N m/rad (sigma0 = " + format_number(res.starts[best_start_of(res)].sigma0) +
             "): the record does not determine the bristle stiffness; do not trust sigma0 and "
             "sigma1"});
  return out;
}

/// The static model's training error: rigid body + steady curve (zdot = 0).
double static_rel_error(const JointModel& sm, const Sr3Problem& P) {
  double e2 = 0;
  for (std::size_t k = 0; k < P.n; ++k) {
    const double e =
        P.tr.tau[k] - rigid(sm, P.tr.q[k], P.tr.qdd[k]) - steady_friction(sm, P.tr.qd[k]);
    e2 += e * e;
  }
  return std::sqrt(e2) / P.tau_norm;
}

/// The parameters without standard errors (sr3 gives none), sigma0 and sigma1 flagged.
std::vector<ParameterEstimate> sr3_estimates(const JointModel& model, const Sigma0Check& s0) {
  std::vector<ParameterEstimate> out;
  for (const JointParameter& jp : joint_parameters(model)) {
    if (jp.structural) continue;
    ParameterEstimate e;
    e.name = e.field = jp.name;
    e.unit = jp.unit;
    e.value = jp.value;
    e.std_error = e.ci_low = e.ci_high = std::numeric_limits<double>::quiet_NaN();
    e.at_limit = s0.at_edge && (jp.name == "sigma0" || jp.name == "sigma1");
    e.undetermined = s0.flat && (jp.name == "sigma0" || jp.name == "sigma1");
    out.push_back(std::move(e));
  }
  return out;
}

/// The chosen start's model and errors, and what it cannot claim.
void finish(JointSr3Result& res, const std::vector<Lu::Params>& finals, const Sigma0Check& s0,
            const Sr3Problem& P, Index nd) {
  const std::size_t best_start = best_start_of(res);
  res.chosen_start = best_start;
  const Lu::Params fp = finals[best_start];
  if (res.starts[best_start].sigma1 < 0)
    res.warnings.push_back("sigma1 estimate " + format_number(res.starts[best_start].sigma1) +
                           " N m s/rad is negative (not identifiable from this record); set to 0");
  res.model.friction = fp;
  res.rel_error = res.starts[best_start].rel_error;
  res.static_rel_error = static_rel_error(res.static_model, P);
  const double lo = std::log(P.om_min), hi = std::log(P.om_max);
  const auto on_bound = [&](double om) {
    return std::abs(std::log(om) - lo) < 1e-9 || std::abs(std::log(om) - hi) < 1e-9;
  };
  if (nd > 0 && on_bound(fp.Omega_s))
    res.warnings.push_back("Omega_s = " + format_number(fp.Omega_s) +
                           " rad/s is on a bound of its search "
                           "range [" +
                           format_number(P.om_min) + ", " + format_number(P.om_max) + "] rad/s");
  res.parameters = sr3_estimates(res.model, s0);
}

}  // namespace

JointSr3Result fit_joint_sr3(std::span<const JointData> train,
                             std::span<const JointData> validation, const JointSr3Options& opt) {
  const auto t_start = std::chrono::steady_clock::now();
  const Sr3Problem P = prepare_problem(train, validation, opt);
  JointSr3Result res;
  res.candidates = P.L.names;
  const Sr3Result crun = step1(P, opt, res);
  Steps23 c(P, opt, train, build_structure(P.L, opt, res.scan[res.chosen].active));
  res.model = step2_static_refit(P, opt, c.st, crun, res);
  c.rigid_model = res.model;
  c.p_step1 = std::get<Lu::Params>(c.rigid_model.friction);
  if (!g_positive_on(c.p_step1, P.tr.qd))
    throw FitError("sr3: the static friction has g(qd) <= 0 at a training velocity (Fc = " +
                   format_number(c.p_step1.Fc) +
                   "): not a valid LuGre g; try model B (K > 0) or a larger "
                   "lambda");
  c.F_all = fixed_columns(P.tr, all_rows(P.n), P.L, opt.K);
  std::vector<double> y_f(P.n);  // tau minus the rigid body (fixed from here on)
  for (std::size_t k = 0; k < P.n; ++k)
    y_f[k] = P.tr.tau[k] - rigid(c.rigid_model, P.tr.q[k], P.tr.qdd[k]);
  c.y_f = to_vec(y_f);
  std::vector<Lu::Params> finals;
  const Sigma0Check s0 = run_starts(c, finals, res);
  finish(res, finals, s0, P, static_cast<Index>(c.st.delta.size()));
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  return res;
}

}  // namespace frictionlab::identify
