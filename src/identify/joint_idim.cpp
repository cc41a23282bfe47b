// frictionlab identify: IDIM of a joint by linear least squares (equations:
// identify/joint_idim.hpp, docs/joint-identification.md "idim").
#include "frictionlab/identify/joint_idim.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/identifiability.hpp"
#include "frictionlab/identify/stats.hpp"
#include "statistics.hpp"

namespace frictionlab::identify {
namespace {

struct Column {
  const char* name;
  const char* unit;
  bool nonnegative = false;  ///< a friction coefficient, held at its bound 0 rather than < 0
};

}  // namespace

MovingTemperatures moving_temperatures(std::span<const JointData> data, double v_deadband) {
  MovingTemperatures out;
  for (const JointData& d : data) {
    if (!d.has_temperature())
      throw FitError((d.source.empty() ? std::string("record") : d.source) +
                     ": temperature-dependent friction needs a temperature channel (--temperature "
                     "COLUMN; Python temperature=)");
    for (std::size_t k = 0; k < d.size(); ++k)
      if (std::abs(d.qd[k]) > v_deadband) out.T.push_back(d.temperature[k]);
  }
  double sum = 0;
  for (double T : out.T) sum += T;
  out.mean = out.T.empty() ? 0.0 : sum / static_cast<double>(out.T.size());
  return out;
}

void check_joint_data(std::span<const JointData> data, std::size_t min_samples) {
  if (data.empty()) throw FitError("no record given");
  for (const JointData& d : data) {
    const std::string src = d.source.empty() ? "record" : d.source;
    const std::size_t n = d.t.size();
    auto channel = [&](const std::vector<double>& x, const char* name) {
      if (x.size() != n)
        throw FitError(src + ": channel '" + name + "' has " + std::to_string(x.size()) +
                       " samples, 'time' has " + std::to_string(n));
      for (std::size_t k = 0; k < n; ++k)
        if (!std::isfinite(x[k]))
          throw FitError(src + ": sample " + std::to_string(k + 1) + ": channel '" + name +
                         "' is not finite (" + format_number(x[k]) + ")");
    };
    channel(d.t, "time");
    channel(d.q, "position");
    channel(d.qd, "velocity");
    channel(d.qdd, "acceleration");
    channel(d.tau, "torque");
    if (d.has_desired()) {
      channel(d.q_des, "desired position");
      channel(d.qd_des, "desired velocity");
      channel(d.tau_ff, "feedforward torque");
    }
    if (d.has_temperature()) channel(d.temperature, "temperature");
    if (n < min_samples)
      throw FitError(src + ": " + std::to_string(n) + " samples; at least " +
                     std::to_string(min_samples) + " are needed");
    for (std::size_t k = 1; k < n; ++k)
      if (!(d.t[k] > d.t[k - 1]))
        throw FitError(src + ": sample " + std::to_string(k + 1) +
                       ": time is not strictly increasing (" + format_number(d.t[k]) + " after " +
                       format_number(d.t[k - 1]) + ")");
  }
}

namespace {

/// The regressor W (one row per sample with |qd| > v_deadband, columns as `cols`) and the
/// torque y (with a load coefficient: the regression linearised at the optimum,
/// linearise_load), W's columns scaled to unit norm (`scale`).
struct Regression {
  std::vector<Column> cols;
  Eigen::MatrixXd W;
  Eigen::VectorXd y;
  Eigen::VectorXd scale;
  Eigen::VectorXd tau;  ///< the measured torque of the rows (y, except when linearised)
  Eigen::VectorXd qd;   ///< the velocity of the rows [rad/s]
  Eigen::VectorXd dT;   ///< temperature-dependent: T - T_ref of the rows [K]
  long rows() const { return static_cast<long>(W.rows()); }
  Eigen::Index params() const { return static_cast<Eigen::Index>(cols.size()); }
};

/// Least squares on some columns of W (the others held at 0), in the scaled coordinates.
struct Solution {
  Eigen::VectorXd theta_s;  ///< scaled parameters (0 where not active)
  Eigen::MatrixXd cov_s;    ///< their covariance (0 rows/columns where not active)
  double sigma = 0, cond = 0;
};

void check_idim_options(const JointIdimOptions& opt) {
  if (!(opt.v_deadband >= 0) || !std::isfinite(opt.v_deadband))
    throw FitError("idim: v_deadband must be a finite number >= 0, got " +
                   format_number(opt.v_deadband));
  if (opt.load_dependent && opt.temperature_law)
    throw FitError(
        "idim: load-dependent and temperature-dependent friction are not fitted together: fit "
        "one dependence at a time");
  if (opt.temperature_ref && !std::isfinite(*opt.temperature_ref))
    throw FitError("idim: temperature_ref must be a finite temperature [degC], got " +
                   format_number(*opt.temperature_ref));
  if (opt.asymmetric && opt.structure.offset)
    throw FitError(
        "idim: asymmetric Coulomb levels and a torque offset are the same regressor "
        "(Fc_pos [qd > 0] - Fc_neg [qd < 0] = (Fc_pos + Fc_neg)/2 sgn(qd) + (Fc_pos - Fc_neg)/2 "
        "for qd != 0): fit the asymmetric model without the offset, or the symmetric one with it");
}

/// Whether the records determine the load coefficient (JointIdimOptions::load_dependent), with
/// the flag that says why not.
struct LoadRule {
  bool determined = false;
  std::vector<IdentifiabilityFlag> flags;
};

/// The load rule (identify/load_rule.hpp) over the moving samples: |tau| of the driven and of
/// the back-driven ones [N m].
LoadRule judge_load(const std::vector<double>& drive, const std::vector<double>& back) {
  LoadRule out;
  const std::string why = load_undetermined_reason(drive, back);
  out.determined = why.empty();
  if (!out.determined)
    out.flags.push_back({"mu", "undetermined", "", load_relative_spread(drive, back),
                         "idim: mu is not determined by the records: " + why + "; held at 0"});
  return out;
}

LoadRule load_rule(std::span<const JointData> data, const JointIdimOptions& opt) {
  if (!opt.load_dependent) return {};
  LoadSides sides;
  for (const JointData& d : data)
    for (std::size_t k = 0; k < d.size(); ++k)
      if (std::abs(d.qd[k]) > opt.v_deadband) sides.add(d.tau[k], d.qd[k]);
  return judge_load(sides.drive, sides.back);
}

/// Whether the records determine the temperature coefficients (JointIdimOptions::
/// temperature_law), the reference temperature, and the flags of the coefficients held at 0.
struct TemperatureRule {
  bool determined = false;
  double T_ref = 0;               ///< [degC]
  std::vector<std::string> held;  ///< kT, kT_v held at 0 (undetermined)
  std::vector<IdentifiabilityFlag> flags;
};

/// The rule of JointIdimOptions::temperature_law over the moving samples (joint_idim.hpp):
/// every record needs a temperature channel; T_ref is the option's or the samples' mean.
TemperatureRule temperature_rule(std::span<const JointData> data, const JointIdimOptions& opt) {
  TemperatureRule out;
  if (!opt.temperature_law) return out;
  MovingTemperatures moving = moving_temperatures(data, opt.v_deadband);
  out.T_ref = opt.temperature_ref.value_or(moving.mean);
  const double spread = temperature_spread(std::move(moving.T));
  out.determined = spread >= kTemperatureMinSpread;
  if (out.determined) return out;
  const std::string why = temperature_spread_reason(spread);
  for (const char* name : {"kT", "kT_v"}) {
    out.held.emplace_back(name);
    out.flags.push_back({name, "undetermined", "", spread,
                         std::string("idim: ") + name +
                             " is not determined by the records: " + why + "; held at 0"});
  }
  return out;
}

/// Columns of W, in the order of the parameters.
std::vector<Column> idim_columns(const JointIdimOptions& opt) {
  std::vector<Column> cols{{"I", "kg m^2"}};
  if (opt.structure.gravity) {
    cols.push_back({"mgCx", "N m"});
    cols.push_back({"mgCy", "N m"});
  }
  if (opt.structure.offset) cols.push_back({"offset", "N m"});
  cols.push_back({"Fv", "N m s/rad", true});
  if (opt.asymmetric) {
    cols.push_back({"Fc_pos", "N m", true});
    cols.push_back({"Fc_neg", "N m", true});
  } else {
    cols.push_back({"Fc", "N m", true});
  }
  return cols;
}

/// The load- and temperature-free W and y over the samples with |qd| > v_deadband (the count
/// checked for the parameters including mu, kT and kT_v), and T - T_ref of the rows.
Regression build_regression(std::span<const JointData> data, const JointIdimOptions& opt,
                            const LoadRule& load, const TemperatureRule& temp) {
  Regression g;
  g.cols = idim_columns(opt);
  const Eigen::Index p = g.params() + (load.determined ? 1 : 0) + (temp.determined ? 2 : 0);
  long r = 0;
  for (const JointData& d : data)
    for (double v : d.qd)
      if (std::abs(v) > opt.v_deadband) ++r;
  if (r < 2 * p)
    throw FitError("idim: " + std::to_string(r) + " samples with |qd| > v_deadband = " +
                   format_number(opt.v_deadband) + " rad/s; at least " + std::to_string(2 * p) +
                   " are needed for " + std::to_string(p) + " parameters");
  g.W.resize(r, g.params());
  g.y.resize(r);
  g.qd.resize(r);
  if (temp.determined) g.dT.resize(r);
  long i = 0;
  for (const JointData& d : data) {
    for (std::size_t k = 0; k < d.size(); ++k) {
      const double qd = d.qd[k];
      if (!(std::abs(qd) > opt.v_deadband)) continue;
      Eigen::Index c = 0;
      g.W(i, c++) = d.qdd[k];
      if (opt.structure.gravity) {
        g.W(i, c++) = std::cos(d.q[k]);
        g.W(i, c++) = -std::sin(d.q[k]);
      }
      if (opt.structure.offset) g.W(i, c++) = 1.0;
      g.W(i, c++) = qd;
      if (opt.asymmetric) {
        g.W(i, c++) = qd > 0 ? 1.0 : 0.0;
        g.W(i, c++) = qd < 0 ? -1.0 : 0.0;
      } else {
        g.W(i, c++) = qd > 0 ? 1.0 : (qd < 0 ? -1.0 : 0.0);
      }
      g.y(i) = d.tau[k];
      g.qd(i) = qd;
      if (temp.determined) g.dT(i) = d.temperature[k] - temp.T_ref;
      ++i;
    }
  }
  g.tau = g.y;
  return g;
}

/// The load model's prediction tau_hat = r / (1 - mu) driven, r / (1 + mu) back-driven
/// (models/load_dependence.hpp, r = W theta) and its Jacobian [W, sgn(qd) |tau_hat|] row-scaled
/// by tau_hat / r = 1 / (1 -+ mu) (d tau_hat / d mu = sgn(qd) |tau_hat| / (1 -+ mu)).
void load_prediction(const Regression& g, const Eigen::VectorXd& theta, double mu,
                     Eigen::VectorXd& pred, Eigen::MatrixXd& J) {
  const Eigen::Index p = g.params();
  const Eigen::VectorXd r = g.W * theta;
  pred.resize(g.rows());
  J.resize(g.rows(), p + 1);
  const LoadDependence<double> law{mu, mu};
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    pred(i) = applied_torque(law, r(i), g.qd(i));
    const double w = 1.0 / (r(i) * g.qd(i) > 0 ? 1.0 - mu : 1.0 + mu);
    J.row(i).head(p) = w * g.W.row(i);
    J(i, p) = w * (g.qd(i) > 0 ? std::abs(pred(i)) : -std::abs(pred(i)));
  }
}

/// The load coefficient mu (JointIdimOptions::load_dependent) by Gauss-Newton on the torque
/// error of the load model from the load-free least-squares solution, then the regression
/// linearised there: W becomes the Jacobian and y the torque error plus J (theta, mu), so that
/// least squares on it returns the optimum with its Gauss-Newton covariance, and the active set
/// and the statistics below apply unchanged. An optimum with mu < 0 is linearised at mu = 0
/// with the load-free solution instead (the active set then holds mu at its bound 0, which is
/// the load-free fit exactly). The measured torque never enters the regressor, which keeps its
/// noise out of the estimate (an equation-error column sgn(qd) |tau| is biased by it, and with
/// separate drive and back-drive columns exactly degenerate: joint_idim.hpp).
void linearise_load(Regression& g) {
  const Eigen::Index p = g.params();
  Eigen::VectorXd theta = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(g.W).solve(g.y);
  const Eigen::VectorXd plain = theta;
  double mu = 0;
  Eigen::VectorXd pred;
  Eigen::MatrixXd J;
  for (int it = 0; it < 100; ++it) {
    load_prediction(g, theta, mu, pred, J);
    const Eigen::VectorXd step = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(J).solve(g.y - pred);
    theta += step.head(p);
    mu = std::min(mu + step(p), 0.99);  // a trial mu >= 1 would drive nothing
    if (step.norm() <= 1e-13 * (1.0 + theta.norm() + std::abs(mu))) break;
  }
  if (!(mu >= 0)) {
    theta = plain;
    mu = 0;
  }
  load_prediction(g, theta, mu, pred, J);
  Eigen::VectorXd x(p + 1);
  x << theta, mu;
  g.y = g.tau - pred + J * x;
  g.W = J;
  g.cols.push_back({"mu", "-", true});
}

/// Which temperature coefficients Gauss-Newton fits, and the columns they scale: the viscous
/// column (kT_v) and the Coulomb columns (kT).
struct TemperatureTerms {
  TemperatureLaw law = TemperatureLaw::linear;
  bool fit_kT = true, fit_kT_v = true;
  Eigen::Index viscous = -1;
  std::vector<Eigen::Index> coulomb;
  Eigen::Index count() const { return (fit_kT ? 1 : 0) + (fit_kT_v ? 1 : 0); }
};

TemperatureTerms temperature_terms(const Regression& g, TemperatureLaw law) {
  TemperatureTerms t;
  t.law = law;
  for (Eigen::Index c = 0; c < g.params(); ++c) {
    const std::string_view name = g.cols[static_cast<std::size_t>(c)].name;
    if (name == "Fv") t.viscous = c;
    if (name == "Fc" || name == "Fc_pos" || name == "Fc_neg") t.coulomb.push_back(c);
  }
  return t;
}

/// The temperature model's prediction rb + s(kT, dT) coulomb + s(kT_v, dT) viscous (rows of the
/// temperature-free W theta split into the three parts) and its Jacobian: the Coulomb and
/// viscous columns scaled, then d/dkT, d/dkT_v (the fitted ones).
void temperature_prediction(const Regression& g, const TemperatureTerms& tt,
                            const Eigen::VectorXd& theta, double kT, double kT_v,
                            Eigen::VectorXd& pred, Eigen::MatrixXd& J) {
  const Eigen::Index p = g.params();
  pred.resize(g.rows());
  J.resize(g.rows(), p + tt.count());
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    const double dT = g.dT(i);
    const double sc = temperature_scale(tt.law, kT, dT), sv = temperature_scale(tt.law, kT_v, dT);
    double coulomb = 0;
    for (Eigen::Index c : tt.coulomb) coulomb += g.W(i, c) * theta(c);
    const double viscous = g.W(i, tt.viscous) * theta(tt.viscous);
    J.row(i).head(p) = g.W.row(i);
    for (Eigen::Index c : tt.coulomb) J(i, c) *= sc;
    J(i, tt.viscous) *= sv;
    pred(i) = g.W.row(i).dot(theta) + (sc - 1) * coulomb + (sv - 1) * viscous;
    Eigen::Index c = p;
    if (tt.fit_kT) J(i, c++) = temperature_scale_derivative(tt.law, kT, dT) * coulomb;
    if (tt.fit_kT_v) J(i, c) = temperature_scale_derivative(tt.law, kT_v, dT) * viscous;
  }
}

/// Gauss-Newton for (theta, kT, kT_v) from the temperature-free solution; false when it has
/// not converged in 100 iterations.
bool temperature_gauss_newton(const Regression& g, const TemperatureTerms& tt,
                              Eigen::VectorXd& theta, double& kT, double& kT_v) {
  const Eigen::Index p = g.params();
  theta = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(g.W).solve(g.y);
  kT = kT_v = 0;
  Eigen::VectorXd pred;
  Eigen::MatrixXd J;
  for (int it = 0; it < 100; ++it) {
    temperature_prediction(g, tt, theta, kT, kT_v, pred, J);
    const Eigen::VectorXd step = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(J).solve(g.y - pred);
    theta += step.head(p);
    Eigen::Index c = p;
    if (tt.fit_kT) kT += step(c++);
    if (tt.fit_kT_v) kT_v += step(c);
    if (!step.allFinite()) return false;
    if (step.norm() <= 1e-13 * (1.0 + theta.norm() + std::abs(kT) + std::abs(kT_v))) return true;
  }
  return false;
}

/// The temperature coefficients (JointIdimOptions::temperature_law) by Gauss-Newton on the
/// torque error, then the regression linearised there (as linearise_load). A coefficient whose
/// level comes out <= 0 (Fv: kT_v; the Coulomb levels' sum: kT) scales nothing the records can
/// show: it is held at 0 (undetermined, added to `temp`) and Gauss-Newton runs again without it.
void linearise_temperature(Regression& g, TemperatureLaw law, TemperatureRule& temp,
                           std::vector<std::string>& warnings) {
  const Eigen::Index p = g.params();
  TemperatureTerms tt = temperature_terms(g, law);
  Eigen::VectorXd theta;
  double kT = 0, kT_v = 0;
  bool converged = temperature_gauss_newton(g, tt, theta, kT, kT_v);
  double coulomb = 0;
  for (Eigen::Index c : tt.coulomb) coulomb += theta(c);
  const auto hold = [&](bool& fit, const char* name, const char* level) {
    fit = false;
    temp.held.emplace_back(name);
    temp.flags.push_back({name, "undetermined", "", 0.0,
                          std::string("idim: ") + name + " is not determined: the " + level +
                              " it scales comes out <= 0; held at 0"});
  };
  if (!(theta(tt.viscous) > 0)) hold(tt.fit_kT_v, "kT_v", "viscous coefficient Fv");
  if (!(coulomb > 0)) hold(tt.fit_kT, "kT", "Coulomb level");
  if (tt.count() < 2) converged = temperature_gauss_newton(g, tt, theta, kT, kT_v);
  if (!converged)
    warnings.push_back(
        "idim: Gauss-Newton for the temperature coefficients did not converge in 100 iterations: "
        "the estimates and their intervals are those of the last iterate");
  Eigen::VectorXd pred;
  Eigen::MatrixXd J;
  temperature_prediction(g, tt, theta, kT, kT_v, pred, J);
  Eigen::VectorXd x(p + tt.count());
  x.head(p) = theta;
  Eigen::Index c = p;
  if (tt.fit_kT) x(c++) = kT;
  if (tt.fit_kT_v) x(c) = kT_v;
  g.y = g.tau - pred + J * x;
  g.W = J;
  if (tt.fit_kT) g.cols.push_back({"kT", "1/K"});
  if (tt.fit_kT_v) g.cols.push_back({"kT_v", "1/K"});
}

/// W's columns scaled to unit norm: the condition number and the rank decision do not depend on
/// the units of the parameters.
void scale_columns(Regression& g) {
  const Eigen::Index p = g.params();
  g.scale.resize(p);
  for (Eigen::Index c = 0; c < p; ++c) {
    g.scale(c) = g.W.col(c).norm();
    if (!(g.scale(c) > 0))
      throw FitError(std::string("idim: the regressor column of '") + g.cols[c].name +
                     "' is zero over the data: the parameter cannot be identified (" +
                     (c == 0 ? "no acceleration" : "no excitation of this term") + ")");
    g.W.col(c) /= g.scale(c);
  }
}

/// The columns `active` of W.
Eigen::MatrixXd active_columns(const Regression& g, const std::vector<Eigen::Index>& active) {
  const auto pa = static_cast<Eigen::Index>(active.size());
  Eigen::MatrixXd Wa(g.rows(), pa);
  for (Eigen::Index j = 0; j < pa; ++j) Wa.col(j) = g.W.col(active[static_cast<std::size_t>(j)]);
  return Wa;
}

/// Least squares on the columns in `active` (pivoted QR; a rank-deficient W is an error naming
/// the columns it cannot separate); the others are held at 0.
Solution solve_active(const Regression& g, const std::vector<Eigen::Index>& active) {
  const Eigen::Index p = g.params();
  const long r = g.rows();
  const auto pa = static_cast<Eigen::Index>(active.size());
  const Eigen::MatrixXd Wa = active_columns(g, active);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Wa);
  qr.setThreshold(1e-10);
  if (qr.rank() < pa) {
    std::string names;
    for (Eigen::Index c = qr.rank(); c < pa; ++c) {
      if (!names.empty()) names += ", ";
      names += g.cols[static_cast<std::size_t>(
                          active[static_cast<std::size_t>(qr.colsPermutation().indices()(c))])]
                   .name;
    }
    throw FitError("idim: the regressor is rank deficient (rank " + std::to_string(qr.rank()) +
                   " of " + std::to_string(pa) + "): '" + names +
                   "' cannot be separated from the other terms with these data");
  }
  const Eigen::VectorXd th = qr.solve(g.y);
  // W P = Q R: W has the singular values of the p x p factor R, and
  // (W^T W)^-1 = P (R^T R)^-1 P^T = P V S^-2 V^T P^T with R = U S V^T.
  const Eigen::MatrixXd R = qr.matrixR().topLeftCorner(pa, pa).triangularView<Eigen::Upper>();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(R, Eigen::ComputeFullV);
  const Eigen::VectorXd& sv = svd.singularValues();
  Solution sol;
  sol.cond = sv(0) / sv(pa - 1);
  sol.sigma = std::sqrt((g.y - Wa * th).squaredNorm() / static_cast<double>(r - pa));
  const Eigen::MatrixXd PV = qr.colsPermutation() * svd.matrixV();
  const Eigen::MatrixXd ca = sol.sigma * sol.sigma * PV *
                             sv.array().square().inverse().matrix().asDiagonal() * PV.transpose();
  sol.theta_s = Eigen::VectorXd::Zero(p);
  sol.cov_s = Eigen::MatrixXd::Zero(p, p);
  for (Eigen::Index j = 0; j < pa; ++j) {
    const Eigen::Index cj = active[static_cast<std::size_t>(j)];
    sol.theta_s(cj) = th(j);
    for (Eigen::Index k = 0; k < pa; ++k)
      sol.cov_s(cj, active[static_cast<std::size_t>(k)]) = ca(j, k);
  }
  return sol;
}

/// Friction coefficients must be >= 0 (a negative one cannot be simulated and is physically
/// inadmissible): while the most negative one is < 0, hold it at 0 and solve again (the
/// removal steps of the active-set method of Lawson & Hanson 1974, ch. 23, for the friction
/// columns; a coefficient held at 0 is not released again). Each one held gets a bound flag.
Solution solve_nonnegative_friction(const Regression& g, std::vector<Eigen::Index>& active,
                                    std::vector<bool>& at_bound,
                                    std::vector<IdentifiabilityFlag>& flags) {
  const Eigen::Index p = g.params();
  active.resize(static_cast<std::size_t>(p));
  for (Eigen::Index c = 0; c < p; ++c) active[static_cast<std::size_t>(c)] = c;
  at_bound.assign(static_cast<std::size_t>(p), false);
  Solution sol = solve_active(g, active);
  for (;;) {
    Eigen::Index worst = -1;
    for (Eigen::Index c = 0; c < p; ++c)
      if (g.cols[static_cast<std::size_t>(c)].nonnegative &&
          !at_bound[static_cast<std::size_t>(c)] && sol.theta_s(c) < 0 &&
          (worst < 0 || sol.theta_s(c) / g.scale(c) < sol.theta_s(worst) / g.scale(worst)))
        worst = c;
    if (worst < 0) break;
    const Column& col = g.cols[static_cast<std::size_t>(worst)];
    const double value = sol.theta_s(worst) / g.scale(worst);
    std::string text = std::string("idim: ") + col.name + " = " + format_number(value);
    if (std::string_view(col.unit) != "-") text.append(" ").append(col.unit);
    text +=
        " came out negative (physically inadmissible friction): held at its bound 0 and the "
        "others solved again";
    flags.push_back({col.name, "bound", "", value, std::move(text)});
    at_bound[static_cast<std::size_t>(worst)] = true;
    std::erase(active, worst);
    sol = solve_active(g, active);
  }
  return sol;
}

/// Residual whiteness and the Newey-West covariance of the final active set (statistics.hpp:
/// hac_covariance), in the scaled coordinates of cov_s.
struct HacResult {
  ResidualWhiteness whiteness;
  Eigen::MatrixXd hac_s;
  int lags = 0;
};

HacResult hac_of(const Regression& g, const Solution& sol,
                 const std::vector<Eigen::Index>& active) {
  HacResult h;
  const Eigen::Index p = g.params();
  h.hac_s = Eigen::MatrixXd::Zero(p, p);
  const auto pa = static_cast<Eigen::Index>(active.size());
  const Eigen::MatrixXd Wa = active_columns(g, active);
  Eigen::MatrixXd A(pa, pa);
  for (Eigen::Index j = 0; j < pa; ++j)
    for (Eigen::Index k = 0; k < pa; ++k)
      A(j, k) = sol.cov_s(active[static_cast<std::size_t>(j)], active[static_cast<std::size_t>(k)]);
  const Eigen::VectorXd e = g.y - g.W * sol.theta_s;  // inactive columns have theta_s = 0
  const std::vector<double> res(e.data(), e.data() + e.size());
  h.whiteness = residual_whiteness(res);
  h.lags = static_cast<int>(detail::hac_bandwidth(h.whiteness.acf1, g.rows()));
  const Eigen::MatrixXd ha = detail::hac_covariance(Wa, res, A / (sol.sigma * sol.sigma), h.lags);
  for (Eigen::Index j = 0; j < pa; ++j)
    for (Eigen::Index k = 0; k < pa; ++k)
      h.hac_s(active[static_cast<std::size_t>(j)], active[static_cast<std::size_t>(k)]) = ha(j, k);
  return h;
}

/// The estimates with their white-noise and HAC intervals (none for a coefficient held at its
/// bound); the largest HAC / white-noise ratio goes to `rel`.
std::vector<ParameterEstimate> idim_estimates(const Regression& g, const Solution& sol,
                                              const HacResult& h, const std::vector<bool>& at_bound,
                                              std::size_t n_active, Reliability& rel) {
  const double dof = static_cast<double>(g.rows() - static_cast<long>(n_active));
  const double tq = student_t_quantile(0.975, dof);
  std::vector<ParameterEstimate> out;
  for (Eigen::Index c = 0; c < g.params(); ++c) {
    ParameterEstimate e;
    e.name = g.cols[static_cast<std::size_t>(c)].name;
    e.field = e.name;
    e.unit = g.cols[static_cast<std::size_t>(c)].unit;
    e.value = sol.theta_s(c) / g.scale(c);
    if (at_bound[static_cast<std::size_t>(c)])
      detail::set_at_bound(e);
    else
      detail::set_intervals(e, std::sqrt(sol.cov_s(c, c)) / g.scale(c), tq, rel,
                            std::sqrt(std::max(h.hac_s(c, c), 0.0)) / g.scale(c));
    out.push_back(e);
  }
  return out;
}

/// The estimate called `name` (the joint parameters are unique by name).
double estimate_of(const std::vector<ParameterEstimate>& est, std::string_view name) {
  for (const ParameterEstimate& e : est)
    if (e.name == name) return e.value;
  return 0.0;
}

/// An undetermined coefficient (mu, kT, kT_v) as an estimate held at 0.
void append_undetermined(const std::string& name, const char* unit,
                         std::vector<ParameterEstimate>& est) {
  ParameterEstimate e;
  e.name = e.field = name;
  e.unit = unit;
  e.fixed = e.undetermined = true;
  e.std_error = e.ci_low = e.ci_high = std::numeric_limits<double>::quiet_NaN();
  est.push_back(e);
}

/// The undetermined load and temperature coefficients, held at 0, in the table's order.
void append_held(const JointIdimOptions& opt, const LoadRule& load, const TemperatureRule& temp,
                 std::vector<ParameterEstimate>& est) {
  if (opt.load_dependent && !load.determined) append_undetermined("mu", "-", est);
  for (const char* name : {"kT", "kT_v"})
    if (std::find(temp.held.begin(), temp.held.end(), name) != temp.held.end())
      append_undetermined(name, "1/K", est);
}

/// A relative_error flag when a load or temperature coefficient's standard error exceeds
/// kFlagRelativeError of its value (the records' range does not pin it down), with what to
/// record instead.
void flag_poor_dependence(const std::vector<ParameterEstimate>& est,
                          std::vector<IdentifiabilityFlag>& flags) {
  for (const ParameterEstimate& e : est) {
    const bool load = e.name == "mu", temperature = e.name == "kT" || e.name == "kT_v";
    if ((!load && !temperature) || e.fixed || e.at_bound) continue;
    const double rel = e.std_error / std::abs(e.value);
    if (!(rel > kFlagRelativeError)) continue;
    flags.push_back(
        {e.name, "relative_error", "", rel,
         "idim: " + e.name + " = " + format_number(e.value) + " has a standard error of " +
             format_number(100 * rel) + " % of its value: the records' " +
             (load ? "load range does not pin it down; record a wider range of load torque, "
                     "driven and back-driven"
                   : "temperature range does not pin it down; record over a wider range of "
                     "temperature (from a cold start until warm), at several speeds")});
  }
}

/// A warning when the fitted linear temperature law's scale is not positive somewhere in the
/// records (its levels would push there instead of resist).
void warn_nonpositive_scale(const JointModel& m, std::span<const JointData> data,
                            std::vector<std::string>& warnings) {
  if (!m.temperature || m.temperature->law != TemperatureLaw::linear) return;
  for (const JointData& d : data)
    for (double T : d.temperature)
      if (!temperature_scale_positive(*m.temperature, T)) {
        warnings.push_back(
            "idim: the linear temperature law's scale 1 + k (T - T_ref) is not "
            "positive at T = " +
            format_number(T) + " degC in " + d.source +
            ": the law does not hold over the records' range; fit the exponential "
            "law (--temperature-law exponential)");
        return;
      }
}

/// The joint model of the estimates.
JointModel idim_model(const std::vector<ParameterEstimate>& est, const JointIdimOptions& opt,
                      double T_ref) {
  JointModel m;
  m.structure = opt.structure;
  m.I = estimate_of(est, "I");
  m.mgCx = estimate_of(est, "mgCx");
  m.mgCy = estimate_of(est, "mgCy");
  m.offset = estimate_of(est, "offset");
  StaticFriction<double>::Params f;
  f.sigma2 = estimate_of(est, "Fv");
  const double fc_pos = estimate_of(est, opt.asymmetric ? "Fc_pos" : "Fc");
  const double fc_neg = opt.asymmetric ? estimate_of(est, "Fc_neg") : fc_pos;
  f.curve =
      StribeckCurve<double>{fc_pos, fc_neg, fc_pos, fc_neg, 1.0, 1.0, StribeckShape::exponential};
  m.friction = f;
  if (opt.load_dependent)
    m.load = LoadDependence<double>{estimate_of(est, "mu"), estimate_of(est, "mu")};
  if (opt.temperature_law)
    m.temperature = TemperatureDependence<double>{*opt.temperature_law, T_ref,
                                                  estimate_of(est, "kT"), estimate_of(est, "kT_v")};
  return m;
}

}  // namespace

JointIdimResult fit_joint_idim(std::span<const JointData> data, const JointIdimOptions& opt) {
  check_idim_options(opt);
  check_joint_data(data, 3);
  JointIdimResult out;
  LoadRule load = load_rule(data, opt);
  TemperatureRule temp = temperature_rule(data, opt);
  Regression g = build_regression(data, opt, load, temp);
  if (load.determined) linearise_load(g);
  if (temp.determined) linearise_temperature(g, *opt.temperature_law, temp, out.warnings);
  scale_columns(g);
  out.flags = std::move(load.flags);
  out.flags.insert(out.flags.end(), temp.flags.begin(), temp.flags.end());
  std::vector<Eigen::Index> active;
  std::vector<bool> at_bound;
  const Solution sol = solve_nonnegative_friction(g, active, at_bound, out.flags);
  const HacResult hac = hac_of(g, sol, active);
  out.n_used = g.rows();
  out.condition_number = sol.cond;
  out.sigma = sol.sigma;
  out.parameters = idim_estimates(g, sol, hac, at_bound, active.size(), out.reliability);
  append_held(opt, load, temp, out.parameters);
  flag_poor_dependence(out.parameters, out.flags);
  // When the standard errors can be trusted (docs/identification.md, "Results": the rule of fit;
  // the intervals of a linear regression are exact under white noise, not linearised).
  auto& rel = out.reliability;
  rel.whiteness = hac.whiteness;
  rel.hac_lags = hac.lags;
  detail::Findings found;
  found.information.name = "W^T W";
  found.information.condition_number = sol.cond * sol.cond;
  found.information.linearised = false;
  found.coloured = "";
  detail::assess(found, rel);
  out.model = idim_model(out.parameters, opt, temp.T_ref);
  warn_nonpositive_scale(out.model, data, out.warnings);
  // The torque the model predicts: tau minus the residual (y is tau except when linearised).
  const Eigen::VectorXd pred = g.tau - (g.y - g.W * sol.theta_s);
  out.training = compute_metrics(std::vector<double>(g.tau.data(), g.tau.data() + g.rows()),
                                 std::vector<double>(pred.data(), pred.data() + pred.size()));
  if (!(out.model.I > 0))
    out.warnings.push_back("idim: the inertia estimate I = " + format_number(out.model.I) +
                           " kg m^2 is not positive: the data do not excite the inertia "
                           "(too little acceleration) or the acceleration estimate is poor");
  return out;
}

}  // namespace frictionlab::identify
