// frictionlab identify (private): the arm's full regressor and its base (robot_base.hpp).
#include "robot_base.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>

namespace frictionlab::identify::arm {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// Units of the 10 standard parameters of a link moved by a revolute joint.
constexpr std::array<const char*, 10> kInertialUnits = {
    "kg", "kg m", "kg m", "kg m", "kg m^2", "kg m^2", "kg m^2", "kg m^2", "kg m^2", "kg m^2"};

double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

}  // namespace

Columns columns_of(const robot::RobotModel& m, const RobotFitOptions& o) {
  Columns c;
  for (const auto& j : m.joints)
    for (std::size_t p = 0; p < 10; ++p) {
      c.names.push_back(std::string(robot::kInertialParameterNames[p]) + "_" + j.name);
      c.units.emplace_back(kInertialUnits[p]);
    }
  c.rigid = c.size();
  const auto group = [&](bool on, const char* name, const char* unit, int& first) {
    if (!on) return;
    first = c.size();
    for (const auto& j : m.joints) {
      c.names.push_back(std::string(name) + "_" + j.name);
      c.units.emplace_back(unit);
    }
  };
  group(o.armature, "Ia", "kg m^2", c.ia);
  group(o.viscous, "Fv", "N m s/rad", c.fv);
  group(o.coulomb, "Fc", "N m", c.fc);
  group(o.offset, "offset", "N m", c.fo);
  group(o.load, "mu", "-", c.mu);
  return c;
}

void FullRegressor::evaluate(const double* q, const double* qd, const double* qdd, MatrixXd& W,
                             const double* load) {
  dyn_.regressor(q, qd, qdd, rigid_);
  W.setZero(n_, cols_.size());
  W.leftCols(cols_.rigid) = rigid_;
  for (int j = 0; j < n_; ++j) {
    if (cols_.ia >= 0) W(j, cols_.ia + j) = qdd[j];
    if (cols_.fv >= 0) W(j, cols_.fv + j) = qd[j];
    if (cols_.fc >= 0) W(j, cols_.fc + j) = sign(qd[j]);
    if (cols_.fo >= 0) W(j, cols_.fo + j) = 1;
    if (cols_.mu >= 0 && load != nullptr && !cols_.held(j))
      W(j, cols_.mu + j) = std::abs(load[j]) * sign(qd[j]);
  }
}

MatrixXd random_regressor(FullRegressor& full, const Columns& c, const RobotFitOptions& o) {
  const int n = full.dof();
  std::mt19937 rng(o.seed), rng_load(o.seed + 1);
  std::uniform_real_distribution<double> u(-1, 1);
  MatrixXd S(static_cast<Eigen::Index>(o.base_states) * n, c.size()), W;
  VectorXd q(n), qd(n), qdd(n), load = VectorXd::Zero(n);
  for (int s = 0; s < o.base_states; ++s) {
    for (int j = 0; j < n; ++j) {
      q(j) = M_PI * u(rng);
      qd(j) = 2 * u(rng);
      qdd(j) = 5 * u(rng);
    }
    if (c.mu >= 0)  // their own generator: the states stay those of a fit without loads
      for (int j = 0; j < n; ++j) load(j) = 5 * u(rng_load);
    full.evaluate(q.data(), qd.data(), qdd.data(), W, load.data());
    S.middleRows(static_cast<Eigen::Index>(s) * n, n) = W;
  }
  return S;
}

Base find_base(FullRegressor& full, const Columns& c, const RobotFitOptions& o) {
  const MatrixXd S = random_regressor(full, c, o);
  Eigen::ColPivHouseholderQR<MatrixXd> qr(S);
  qr.setThreshold(o.rank_tolerance);
  Base b;
  const auto& perm = qr.colsPermutation().indices();
  for (Eigen::Index k = 0; k < perm.size(); ++k)
    (k < qr.rank() ? b.independent : b.dependent).push_back(perm(k));
  std::sort(b.independent.begin(), b.independent.end());
  std::sort(b.dependent.begin(), b.dependent.end());
  MatrixXd Wi(S.rows(), static_cast<Eigen::Index>(b.independent.size()));
  MatrixXd Wd(S.rows(), static_cast<Eigen::Index>(b.dependent.size()));
  for (std::size_t k = 0; k < b.independent.size(); ++k)
    Wi.col(static_cast<Eigen::Index>(k)) = S.col(b.independent[k]);
  for (std::size_t k = 0; k < b.dependent.size(); ++k)
    Wd.col(static_cast<Eigen::Index>(k)) = S.col(b.dependent[k]);
  b.B = Wi.colPivHouseholderQr().solve(Wd);
  return b;
}

std::vector<std::pair<std::string, double>> grouping(const Base& b, const Columns& c,
                                                     std::size_t i) {
  std::vector<std::pair<std::string, double>> terms{
      {c.names[static_cast<std::size_t>(b.independent[i])], 1.0}};
  const double big = b.B.size() ? b.B.cwiseAbs().maxCoeff() : 0;
  for (std::size_t d = 0; d < b.dependent.size(); ++d) {
    const double x = b.B(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(d));
    if (std::abs(x) > 1e-9 * std::max(1.0, big))
      terms.emplace_back(c.names[static_cast<std::size_t>(b.dependent[d])], x);
  }
  return terms;
}

std::string expression(const std::vector<std::pair<std::string, double>>& terms) {
  std::string e = terms.front().first;
  for (std::size_t k = 1; k < terms.size(); ++k) {
    const double x = terms[k].second;
    char coef[32];
    std::snprintf(coef, sizeof coef, "%.4g ", std::abs(x));
    e += std::string(x < 0 ? " - " : " + ") + (std::abs(std::abs(x) - 1) < 1e-9 ? "" : coef) +
         terms[k].first;
  }
  return e;
}

void base_columns(const MatrixXd& W, const Base& b, MatrixXd& Wb) {
  Wb.resize(W.rows(), static_cast<Eigen::Index>(b.independent.size()));
  for (std::size_t c = 0; c < b.independent.size(); ++c)
    Wb.col(static_cast<Eigen::Index>(c)) = W.col(b.independent[c]);
}

}  // namespace frictionlab::identify::arm
