// frictionlab identify: IDIM of a joint by linear least squares (equations:
// identify/joint_idim.hpp, docs/joint-identification.md "idim").
#include "frictionlab/identify/joint_idim.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/stats.hpp"
#include "internal.hpp"

namespace frictionlab::identify {
namespace {

struct Column {
  const char* name;
  const char* unit;
};

}  // namespace

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

JointIdimResult fit_joint_idim(std::span<const JointData> data, const JointIdimOptions& opt) {
  if (!(opt.v_deadband >= 0) || !std::isfinite(opt.v_deadband))
    throw FitError("idim: v_deadband must be a finite number >= 0, got " +
                   format_number(opt.v_deadband));
  if (opt.asymmetric && opt.structure.offset)
    throw FitError(
        "idim: asymmetric Coulomb levels and a torque offset are the same regressor "
        "(Fc_pos [qd > 0] - Fc_neg [qd < 0] = (Fc_pos + Fc_neg)/2 sgn(qd) + (Fc_pos - Fc_neg)/2 "
        "for qd != 0): fit the asymmetric model without the offset, or the symmetric one with it");
  check_joint_data(data, 3);

  // Columns of W, in the order of the parameters.
  std::vector<Column> cols{{"I", "kg m^2"}};
  if (opt.structure.gravity) {
    cols.push_back({"mgCx", "N m"});
    cols.push_back({"mgCy", "N m"});
  }
  if (opt.structure.offset) cols.push_back({"offset", "N m"});
  cols.push_back({"Fv", "N m s/rad"});
  if (opt.asymmetric) {
    cols.push_back({"Fc_pos", "N m"});
    cols.push_back({"Fc_neg", "N m"});
  } else {
    cols.push_back({"Fc", "N m"});
  }
  const auto p = static_cast<Eigen::Index>(cols.size());

  long r = 0;
  for (const JointData& d : data)
    for (double v : d.qd)
      if (std::abs(v) > opt.v_deadband) ++r;
  if (r < 2 * p)
    throw FitError("idim: " + std::to_string(r) + " samples with |qd| > v_deadband = " +
                   format_number(opt.v_deadband) + " rad/s; at least " + std::to_string(2 * p) +
                   " are needed for " + std::to_string(p) + " parameters");

  Eigen::MatrixXd W(r, p);
  Eigen::VectorXd y(r);
  long i = 0;
  for (const JointData& d : data) {
    for (std::size_t k = 0; k < d.size(); ++k) {
      const double qd = d.qd[k];
      if (!(std::abs(qd) > opt.v_deadband)) continue;
      Eigen::Index c = 0;
      W(i, c++) = d.qdd[k];
      if (opt.structure.gravity) {
        W(i, c++) = std::cos(d.q[k]);
        W(i, c++) = -std::sin(d.q[k]);
      }
      if (opt.structure.offset) W(i, c++) = 1.0;
      W(i, c++) = qd;
      if (opt.asymmetric) {
        W(i, c++) = qd > 0 ? 1.0 : 0.0;
        W(i, c++) = qd < 0 ? -1.0 : 0.0;
      } else {
        W(i, c++) = qd > 0 ? 1.0 : (qd < 0 ? -1.0 : 0.0);
      }
      y(i) = d.tau[k];
      ++i;
    }
  }

  // Column scaling to unit norm: the condition number and the rank decision do not depend on
  // the units of the parameters.
  std::vector<IdentifiabilityFlag> bound_flags;
  Eigen::VectorXd scale(p);
  for (Eigen::Index c = 0; c < p; ++c) {
    scale(c) = W.col(c).norm();
    if (!(scale(c) > 0))
      throw FitError(std::string("idim: the regressor column of '") + cols[c].name +
                     "' is zero over the data: the parameter cannot be identified (" +
                     (c == 0 ? "no acceleration" : "no excitation of this term") + ")");
    W.col(c) /= scale(c);
  }
  // Least squares on the columns in `active`; the others are held at 0.
  struct Solution {
    Eigen::VectorXd theta_s;  ///< scaled parameters (0 where not active)
    Eigen::MatrixXd cov_s;    ///< their covariance (0 rows/columns where not active)
    double sigma = 0, cond = 0;
  };
  auto solve = [&](const std::vector<Eigen::Index>& active) {
    const auto pa = static_cast<Eigen::Index>(active.size());
    Eigen::MatrixXd Wa(r, pa);
    for (Eigen::Index j = 0; j < pa; ++j) Wa.col(j) = W.col(active[static_cast<std::size_t>(j)]);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Wa);
    qr.setThreshold(1e-10);
    if (qr.rank() < pa) {
      std::string names;
      for (Eigen::Index c = qr.rank(); c < pa; ++c) {
        if (!names.empty()) names += ", ";
        names += cols[static_cast<std::size_t>(
                          active[static_cast<std::size_t>(qr.colsPermutation().indices()(c))])]
                     .name;
      }
      throw FitError("idim: the regressor is rank deficient (rank " + std::to_string(qr.rank()) +
                     " of " + std::to_string(pa) + "): '" + names +
                     "' cannot be separated from the other terms with these data");
    }
    const Eigen::VectorXd th = qr.solve(y);
    // W P = Q R: W has the singular values of the p x p factor R, and
    // (W^T W)^-1 = P (R^T R)^-1 P^T = P V S^-2 V^T P^T with R = U S V^T.
    const Eigen::MatrixXd R = qr.matrixR().topLeftCorner(pa, pa).triangularView<Eigen::Upper>();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(R, Eigen::ComputeFullV);
    const Eigen::VectorXd sv = svd.singularValues();
    Solution sol;
    sol.cond = sv(0) / sv(pa - 1);
    sol.sigma = std::sqrt((y - Wa * th).squaredNorm() / static_cast<double>(r - pa));
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
  };
  // Friction coefficients must be >= 0 (a negative one cannot be simulated and is physically
  // inadmissible): while the most negative one is < 0, hold it at 0 and solve again (the
  // removal steps of the active-set method of Lawson & Hanson 1974, ch. 23, for the friction
  // columns; a coefficient held at 0 is not released again).
  const Eigen::Index first_friction = p - (opt.asymmetric ? 3 : 2);
  std::vector<Eigen::Index> active(static_cast<std::size_t>(p));
  for (Eigen::Index c = 0; c < p; ++c) active[static_cast<std::size_t>(c)] = c;
  std::vector<bool> at_bound(static_cast<std::size_t>(p), false);
  Solution sol = solve(active);
  for (;;) {
    Eigen::Index worst = -1;
    for (Eigen::Index c = first_friction; c < p; ++c)
      if (!at_bound[static_cast<std::size_t>(c)] && sol.theta_s(c) < 0 &&
          (worst < 0 || sol.theta_s(c) / scale(c) < sol.theta_s(worst) / scale(worst)))
        worst = c;
    if (worst < 0) break;
    const Column& col = cols[static_cast<std::size_t>(worst)];
    const double value = sol.theta_s(worst) / scale(worst);
    bound_flags.push_back({col.name, "bound", "", value,
                           std::string("idim: ") + col.name + " = " + format_number(value) + " " +
                               col.unit +
                               " came out negative (physically inadmissible friction): held at "
                               "its bound 0 and the others solved again"});
    at_bound[static_cast<std::size_t>(worst)] = true;
    std::erase(active, worst);
    sol = solve(active);
  }

  // Residual whiteness and the Newey-West covariance of the final active set (identify/lsq:
  // hac_covariance), in the scaled coordinates of cov_s.
  ResidualWhiteness whiteness;
  Eigen::MatrixXd hac_s = Eigen::MatrixXd::Zero(p, p);
  int hac_lags = 0;
  {
    const auto pa = static_cast<Eigen::Index>(active.size());
    Eigen::MatrixXd Wa(r, pa), A(pa, pa);
    for (Eigen::Index j = 0; j < pa; ++j) {
      Wa.col(j) = W.col(active[static_cast<std::size_t>(j)]);
      for (Eigen::Index k = 0; k < pa; ++k)
        A(j, k) =
            sol.cov_s(active[static_cast<std::size_t>(j)], active[static_cast<std::size_t>(k)]);
    }
    const Eigen::VectorXd e = y - W * sol.theta_s;  // inactive columns have theta_s = 0
    const std::vector<double> res(e.data(), e.data() + e.size());
    whiteness = residual_whiteness(res);
    hac_lags = static_cast<int>(detail::hac_bandwidth(whiteness.acf1, static_cast<long>(r)));
    const Eigen::MatrixXd ha =
        detail::hac_covariance(Wa, res, A / (sol.sigma * sol.sigma), hac_lags);
    for (Eigen::Index j = 0; j < pa; ++j)
      for (Eigen::Index k = 0; k < pa; ++k)
        hac_s(active[static_cast<std::size_t>(j)], active[static_cast<std::size_t>(k)]) = ha(j, k);
  }

  JointIdimResult out;
  out.flags = bound_flags;
  out.n_used = r;
  out.condition_number = sol.cond;
  out.sigma = sol.sigma;
  const double dof = static_cast<double>(r - static_cast<long>(active.size()));
  const double tq = student_t_quantile(0.975, dof);

  Eigen::VectorXd theta(p);
  for (Eigen::Index c = 0; c < p; ++c) {
    theta(c) = sol.theta_s(c) / scale(c);
    ParameterEstimate e;
    e.name = cols[static_cast<std::size_t>(c)].name;
    e.field = e.name;
    e.unit = cols[static_cast<std::size_t>(c)].unit;
    e.value = theta(c);
    if (at_bound[static_cast<std::size_t>(c)]) {
      e.at_bound = true;
      e.std_error = e.ci_low = e.ci_high = std::numeric_limits<double>::quiet_NaN();
    } else {
      e.std_error = std::sqrt(sol.cov_s(c, c)) / scale(c);
      e.ci_low = e.value - tq * e.std_error;
      e.ci_high = e.value + tq * e.std_error;
      e.hac_std_error = std::sqrt(std::max(hac_s(c, c), 0.0)) / scale(c);
      e.hac_ci_low = e.value - tq * e.hac_std_error;
      e.hac_ci_high = e.value + tq * e.hac_std_error;
      if (e.std_error > 0 && !(e.hac_std_error / e.std_error <= out.reliability.hac_ratio_max))
        out.reliability.hac_ratio_max = e.hac_std_error / e.std_error;
    }
    out.parameters.push_back(e);
  }
  // When the standard errors can be trusted (docs/identification.md, "Results": the rule of fit).
  auto& rel = out.reliability;
  rel.whiteness = whiteness;
  rel.hac_lags = hac_lags;
  detail::flag_coloured_residuals(rel);
  if (sol.cond * sol.cond > 1e8) {
    rel.standard_errors = false;
    rel.reasons.push_back("the information matrix W^T W is nearly singular (condition number " +
                          format_number(sol.cond * sol.cond) + " > 1e8)");
  }

  JointModel& m = out.model;
  m.structure = opt.structure;
  Eigen::Index c = 0;
  m.I = theta(c++);
  if (opt.structure.gravity) {
    m.mgCx = theta(c++);
    m.mgCy = theta(c++);
  }
  if (opt.structure.offset) m.offset = theta(c++);
  StaticFriction<double>::Params f;
  f.sigma2 = theta(c++);
  const double fc_pos = theta(c++);
  const double fc_neg = opt.asymmetric ? theta(c++) : fc_pos;
  f.curve =
      StribeckCurve<double>{fc_pos, fc_neg, fc_pos, fc_neg, 1.0, 1.0, StribeckShape::exponential};
  m.friction = f;

  std::vector<double> yv(y.data(), y.data() + r), pv(static_cast<std::size_t>(r));
  const Eigen::VectorXd pred = W * sol.theta_s;
  for (long k = 0; k < r; ++k) pv[static_cast<std::size_t>(k)] = pred(k);
  out.training = compute_metrics(yv, pv);

  if (!(m.I > 0))
    out.warnings.push_back("idim: the inertia estimate I = " + format_number(m.I) +
                           " kg m^2 is not positive: the data do not excite the inertia "
                           "(too little acceleration) or the acceleration estimate is poor");
  return out;
}

}  // namespace frictionlab::identify
