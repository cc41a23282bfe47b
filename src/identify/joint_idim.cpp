// frictionlab identify: IDIM of a joint by linear least squares (equations:
// identify/joint_idim.hpp, docs/joint-identification.md "idim").
#include "frictionlab/identify/joint_idim.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "frictionlab/identify/stats.hpp"

namespace frictionlab::identify {
namespace {

struct Column {
  const char* name;
  const char* unit;
};

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

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
                         "' is not finite (" + num(x[k]) + ")");
    };
    channel(d.t, "time");
    channel(d.q, "position");
    channel(d.qd, "velocity");
    channel(d.qdd, "acceleration");
    channel(d.tau, "torque");
    if (n < min_samples)
      throw FitError(src + ": " + std::to_string(n) + " samples; at least " +
                     std::to_string(min_samples) + " are needed");
    for (std::size_t k = 1; k < n; ++k)
      if (!(d.t[k] > d.t[k - 1]))
        throw FitError(src + ": sample " + std::to_string(k + 1) +
                       ": time is not strictly increasing (" + num(d.t[k]) + " after " +
                       num(d.t[k - 1]) + ")");
  }
}

JointIdimResult fit_joint_idim(std::span<const JointData> data, const JointIdimOptions& opt) {
  if (!(opt.v_deadband >= 0) || !std::isfinite(opt.v_deadband))
    throw FitError("idim: v_deadband must be a finite number >= 0, got " + num(opt.v_deadband));
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
                   num(opt.v_deadband) + " rad/s; at least " + std::to_string(2 * p) +
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
  Eigen::VectorXd scale(p);
  for (Eigen::Index c = 0; c < p; ++c) {
    scale(c) = W.col(c).norm();
    if (!(scale(c) > 0))
      throw FitError(std::string("idim: the regressor column of '") + cols[c].name +
                     "' is zero over the data: the parameter cannot be identified (" +
                     (c == 0 ? "no acceleration" : "no excitation of this term") + ")");
    W.col(c) /= scale(c);
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(W);
  qr.setThreshold(1e-10);
  if (qr.rank() < p) {
    std::string names;
    for (Eigen::Index c = qr.rank(); c < p; ++c) {
      if (!names.empty()) names += ", ";
      names += cols[static_cast<std::size_t>(qr.colsPermutation().indices()(c))].name;
    }
    throw FitError("idim: the regressor is rank deficient (rank " + std::to_string(qr.rank()) +
                   " of " + std::to_string(p) + "): '" + names +
                   "' cannot be separated from the other terms with these data");
  }
  const Eigen::VectorXd theta_s = qr.solve(y);
  const Eigen::VectorXd res = y - W * theta_s;
  // W P = Q R: W has the singular values of the p x p factor R, and
  // (W^T W)^-1 = P (R^T R)^-1 P^T = P V S^-2 V^T P^T with R = U S V^T.
  const Eigen::MatrixXd R = qr.matrixR().topLeftCorner(p, p).triangularView<Eigen::Upper>();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(R, Eigen::ComputeFullV);
  const Eigen::VectorXd sv = svd.singularValues();

  JointIdimResult out;
  out.n_used = r;
  out.condition_number = sv(0) / sv(p - 1);
  const double ssr = res.squaredNorm();
  const auto dof = static_cast<double>(r - p);
  out.sigma = std::sqrt(ssr / dof);
  // cov of the scaled parameters = sigma^2 (W^T W)^-1 = sigma^2 V S^-2 V^T.
  const Eigen::MatrixXd PV = qr.colsPermutation() * svd.matrixV();
  const Eigen::VectorXd inv_s2 = sv.array().square().inverse();
  const Eigen::MatrixXd cov_s = out.sigma * out.sigma * PV * inv_s2.asDiagonal() * PV.transpose();
  const double tq = student_t_quantile(0.975, dof);

  Eigen::VectorXd theta(p);
  for (Eigen::Index c = 0; c < p; ++c) {
    theta(c) = theta_s(c) / scale(c);
    ParameterEstimate e;
    e.name = cols[static_cast<std::size_t>(c)].name;
    e.field = e.name;
    e.unit = cols[static_cast<std::size_t>(c)].unit;
    e.value = theta(c);
    e.std_error = std::sqrt(cov_s(c, c)) / scale(c);
    e.ci_low = e.value - tq * e.std_error;
    e.ci_high = e.value + tq * e.std_error;
    out.parameters.push_back(e);
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
  f.curve = StribeckCurve<double>{fc_pos, fc_neg, fc_pos, fc_neg, 1.0, 1.0,
                                  StribeckShape::exponential};
  m.friction = f;

  std::vector<double> yv(y.data(), y.data() + r), pv(static_cast<std::size_t>(r));
  const Eigen::VectorXd pred = y - res;
  for (long k = 0; k < r; ++k) pv[static_cast<std::size_t>(k)] = pred(k);
  out.training = compute_metrics(yv, pv);

  if (!(m.I > 0))
    out.warnings.push_back("idim: the inertia estimate I = " + num(m.I) +
                           " kg m^2 is not positive: the data do not excite the inertia "
                           "(too little acceleration) or the acceleration estimate is poor");
  for (const ParameterEstimate& e : out.parameters)
    if ((e.name == "Fv" || e.name.rfind("Fc", 0) == 0) && e.value < 0)
      out.warnings.push_back("idim: " + e.name + " = " + num(e.value) + " " + e.unit +
                             " is negative (physically inadmissible friction)");
  return out;
}

}  // namespace frictionlab::identify
