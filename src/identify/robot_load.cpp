// frictionlab identify (private): the arm fit with load-dependent Coulomb levels
// (robot_load.hpp; the method in identify/robot_fit.hpp's header).
//
// The rounds of the instrumental-variable iteration change only the load columns: joint j's
// column is l_jk = |tau_hat_jk| sign(qd_jk) in row j and 0 elsewhere. So per joint the normal
// equations of the other columns (A_j = sum_k r_jk r_jk^T, b_j = sum_k r_jk tau_jk, with r_jk
// row j of sample k's base regressor) are summed once, and a round adds the load terms
// c_j = sum_k l_jk r_jk, d_j = sum_k l_jk^2 and e_j = sum_k l_jk tau_jk, which one pass over
// the record gives together with the instrument itself. Each joint's residual sum of squares
// for the weights comes from its normal equations. When the coefficients have settled, the
// last instrument goes through the full least squares of fit_robot (robot_lsq.hpp), so the
// reported estimates, errors and covariance are those of the model's own prediction.
#include "robot_load.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/load_rule.hpp"
#include "frictionlab/models/load_dependence.hpp"
#include "robot_base.hpp"
#include "robot_lsq.hpp"

namespace frictionlab::identify::arm {

namespace {

/// Per joint, per sample [N m].
using Series = std::vector<std::vector<double>>;

/// The rounds: at most this many, until every mu changes by less than kLoadTolerance [-].
constexpr int kLoadMaxRounds = 100;
constexpr double kLoadTolerance = 1e-10;

double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

/// The normal equations the rounds share (file header), and where each joint's load column
/// sits in the base (-1: held at 0).
struct SharedNormals {
  std::vector<MatrixXd> A;
  std::vector<VectorXd> b;
  VectorXd yy;  ///< per joint: sum_k tau_jk^2
  std::vector<Eigen::Index> mu;
};

SharedNormals shared_normals(BaseRows& rows, const Base& base, const Columns& cols, int n) {
  const Eigen::Index p = rows.columns();
  SharedNormals s{std::vector<MatrixXd>(static_cast<std::size_t>(n), MatrixXd::Zero(p, p)),
                  std::vector<VectorXd>(static_cast<std::size_t>(n), VectorXd::Zero(p)),
                  VectorXd::Zero(n), std::vector<Eigen::Index>(static_cast<std::size_t>(n), -1)};
  for (int j = 0; j < n; ++j) {
    const auto it = std::find(base.independent.begin(), base.independent.end(), cols.mu + j);
    if (it != base.independent.end())
      s.mu[static_cast<std::size_t>(j)] = it - base.independent.begin();
  }
  MatrixXd W;
  VectorXd tau;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows.at(k, W, tau);  // no instrument: the load columns are 0
    for (int j = 0; j < n; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      s.A[jj].selfadjointView<Eigen::Lower>().rankUpdate(W.row(j).transpose());
      s.b[jj] += W.row(j).transpose() * tau(j);
      s.yy(j) += tau(j) * tau(j);
    }
  }
  for (auto& a : s.A) a = a.selfadjointView<Eigen::Lower>();
  return s;
}

/// One round's load terms (file header) for each joint.
struct LoadTerms {
  std::vector<VectorXd> c;
  VectorXd d, e;
};

/// The instrument of the estimate theta (each joint's predicted torque: applied_torque of the
/// load-free one with its mu) into tau_hat, and the load terms it gives, in one pass over the
/// record; without theta the instrument is tau_hat as given.
LoadTerms load_terms(BaseRows& rows, const SharedNormals& s, const VectorXd* theta,
                     const data::ArmSamples& samples, Series& tau_hat) {
  const int n = samples.dof();
  LoadTerms t{std::vector<VectorXd>(static_cast<std::size_t>(n), VectorXd::Zero(rows.columns())),
              VectorXd::Zero(n), VectorXd::Zero(n)};
  MatrixXd W;
  VectorXd tau;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows.at(k, W, tau);
    for (int j = 0; j < n; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      const double qd = samples.qd[jj][k];
      if (theta != nullptr) {
        const double mu = s.mu[jj] >= 0 ? (*theta)(s.mu[jj]) : 0.0;
        tau_hat[jj][k] =
            applied_torque(LoadDependence<double>{mu, mu}, W.row(j).transpose().dot(*theta), qd);
      }
      if (s.mu[jj] < 0) continue;
      const double l = std::abs(tau_hat[jj][k]) * sign(qd);
      t.c[jj] += l * W.row(j).transpose();
      t.d(j) += l * l;
      t.e(j) += l * tau(j);
    }
  }
  return t;
}

/// The estimate of one round: ordinary least squares, each joint's residual scatter from its
/// normal equations, then weighted least squares (as robot_lsq.hpp's solve).
VectorXd solve_round(const SharedNormals& s, const LoadTerms& t, double samples, bool weighted) {
  const auto n = static_cast<Eigen::Index>(s.A.size());
  std::vector<MatrixXd> A = s.A;
  std::vector<VectorXd> b = s.b;
  for (std::size_t j = 0; j < A.size(); ++j) {
    const Eigen::Index m = s.mu[j];
    if (m < 0) continue;
    A[j].col(m) += t.c[j];
    A[j].row(m) += t.c[j].transpose();
    A[j](m, m) += t.d(static_cast<Eigen::Index>(j));
    b[j](m) += t.e(static_cast<Eigen::Index>(j));
  }
  const auto solve_weighted = [&](const VectorXd& w) {
    MatrixXd As = MatrixXd::Zero(A[0].rows(), A[0].cols());
    VectorXd bs = VectorXd::Zero(b[0].size());
    for (std::size_t j = 0; j < A.size(); ++j) {
      const double w2 = w(static_cast<Eigen::Index>(j)) * w(static_cast<Eigen::Index>(j));
      As += w2 * A[j];
      bs += w2 * b[j];
    }
    return VectorXd(As.ldlt().solve(bs));
  };
  VectorXd ols = solve_weighted(VectorXd::Ones(n));
  if (!weighted) return ols;
  VectorXd w(n);
  const double dof = samples - static_cast<double>(ols.size()) / static_cast<double>(n);
  for (std::size_t j = 0; j < A.size(); ++j) {
    const double ssr = s.yy(static_cast<Eigen::Index>(j)) - 2 * ols.dot(b[j]) + ols.dot(A[j] * ols);
    const double sigma = std::sqrt(std::max(ssr, 0.0) / dof);
    w(static_cast<Eigen::Index>(j)) = sigma > 0 ? 1 / sigma : 1.0;
  }
  return solve_weighted(w);
}

/// The joints whose record does not determine mu (the load rule over the moving samples'
/// measured torques), with a flag each.
std::vector<bool> undetermined_loads(const robot::RobotModel& model,
                                     const data::ArmSamples& samples,
                                     std::vector<std::string>& flags) {
  std::vector<bool> held;
  for (int j = 0; j < model.dof(); ++j) {
    const auto jj = static_cast<std::size_t>(j);
    LoadSides sides;
    for (std::size_t k = 0; k < samples.size(); ++k)
      sides.add(samples.effort[jj][k], samples.qd[jj][k]);
    const std::string why = load_undetermined_reason(sides.drive, sides.back);
    held.push_back(!why.empty());
    if (!why.empty())
      flags.push_back("the load coefficient mu_" + model.joints[jj].name +
                      " is not determined by the record: " + why + "; held at 0");
  }
  return held;
}

/// Holds joint j's mu at 0 (its column left out) with the note that says why: a value below 0
/// (no level rising with the load) or at 1 and above (no torque would drive the joint).
void hold_load(const robot::RobotModel& model, std::size_t j, double mu, Columns& cols,
               std::vector<std::string>& notes) {
  cols.load_held[j] = true;
  notes.push_back("mu_" + model.joints[j].name + " came out at " + format_number(mu, 3) +
                  (mu < 0 ? ": the record shows no Coulomb level rising with the load"
                          : ": not a load-dependent level (mu_drive must stay below 1)") +
                  "; held at 0");
}

/// The rounds (robot_fit.hpp's header, this file's) from the instrument `tau_hat`, which ends
/// as the returned fit's. A coefficient where the prediction r / (1 -+ mu) stops making sense
/// (mu <= -1/2, mu >= 1) is held at once, the others only after the rounds have settled.
RobotFitResult iterate_load(const robot::RobotModel& model, const data::ArmSamples& samples,
                            const RobotFitOptions& options, Columns& cols, Series& tau_hat,
                            std::vector<std::string>& notes) {
  FullRegressor full(model, cols);
  Base base = find_base(full, cols, options);
  BaseRows rows(full, base, samples);
  SharedNormals shared = shared_normals(rows, base, cols, model.dof());
  std::vector<double> mu(static_cast<std::size_t>(model.dof()), 0.0);
  VectorXd theta;
  int round = 1;
  bool converged = false;
  for (; round <= kLoadMaxRounds && !converged; ++round) {
    const LoadTerms t = load_terms(rows, shared, theta.size() ? &theta : nullptr, samples, tau_hat);
    theta = solve_round(shared, t, static_cast<double>(samples.size()), options.weighted);
    bool held = false;
    double change = 0;
    for (std::size_t j = 0; j < mu.size(); ++j) {
      const double next = shared.mu[j] >= 0 ? theta(shared.mu[j]) : 0.0;
      if (!cols.held(static_cast<int>(j)) && !(next > -0.5 && next < 1)) {
        hold_load(model, j, next, cols, notes);
        held = true;
      }
      change = std::max(change, std::abs(next - mu[j]));
      mu[j] = next;
    }
    if (held) {  // a new base without the held columns; the instrument stays the last one
      base = find_base(full, cols, options);
      shared = shared_normals(rows, base, cols, model.dof());
      theta.resize(0);
      std::fill(mu.begin(), mu.end(), 0.0);
      continue;
    }
    converged = change < kLoadTolerance;
  }
  if (theta.size() > 0) load_terms(rows, shared, &theta, samples, tau_hat);  // its instrument
  RobotFitResult fit = solve_base(full, base, cols, samples, options, &tau_hat);
  fit.load_rounds = round - 1;
  fit.load_converged = converged;
  return fit;
}

}  // namespace

std::vector<double> load_coefficients(const robot::RobotModel& model, const RobotFitResult& r) {
  std::vector<double> mu;
  for (const auto& j : model.joints) {
    const auto it = std::find_if(r.parameters.begin(), r.parameters.end(),
                                 [&](const RobotParameter& p) { return p.name == "mu_" + j.name; });
    mu.push_back(it == r.parameters.end() ? 0.0 : it->value);
  }
  return mu;
}

RobotFitResult fit_load_dependent(const robot::RobotModel& model, const data::ArmSamples& samples,
                                  const RobotFitOptions& options) {
  RobotFitOptions plain = options;
  plain.load = false;
  Series tau_hat = predict_robot(model, fit_robot(model, samples, plain), samples, plain).predicted;
  Columns cols = columns_of(model, options);
  std::vector<std::string> flags, notes;
  cols.load_held = undetermined_loads(model, samples, flags);
  RobotFitResult fit = iterate_load(model, samples, options, cols, tau_hat, notes);
  const std::vector<double> mu = load_coefficients(model, fit);
  bool again = false;
  for (std::size_t j = 0; j < mu.size(); ++j)
    if (!cols.held(static_cast<int>(j)) && mu[j] < 0) {
      hold_load(model, j, mu[j], cols, notes);
      again = true;
    }
  if (again) fit = iterate_load(model, samples, options, cols, tau_hat, notes);
  fit.flags.insert(fit.flags.end(), flags.begin(), flags.end());
  fit.load_notes = std::move(notes);
  return fit;
}

}  // namespace frictionlab::identify::arm
