// frictionlab identify: physically consistent inertials by the log-Cholesky parameterisation
// (identify/robot_consistent.hpp).
#include "frictionlab/identify/robot_consistent.hpp"

#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

#include "robot_base.hpp"

namespace frictionlab::identify {

namespace {

/// One term of a base parameter: coefficient x column of the full regressor.
struct Term {
  int base, column;
  double coefficient;
};

/// pi (10 standard parameters) of the log-Cholesky numbers theta (10): J = U U^T.
template <class T>
void pi_of_theta(const T* th, T* pi) {
  using std::exp;
  const T a = exp(th[0]);
  const T U[4][4] = {{a * exp(th[1]), a * th[4], a * th[5], a * th[7]},
                     {T(0), a * exp(th[2]), a * th[6], a * th[8]},
                     {T(0), T(0), a * exp(th[3]), a * th[9]},
                     {T(0), T(0), T(0), a}};
  T J[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      J[i][j] = T(0);
      for (int k = std::max(i, j); k < 4; ++k) J[i][j] += U[i][k] * U[j][k];
    }
  // J = [[Sigma, h], [h^T, m]], I = tr(Sigma) 1 - Sigma.
  const T tr = J[0][0] + J[1][1] + J[2][2];
  pi[0] = J[3][3];
  pi[1] = J[0][3], pi[2] = J[1][3], pi[3] = J[2][3];
  pi[4] = tr - J[0][0], pi[5] = -J[0][1], pi[6] = -J[0][2];
  pi[7] = tr - J[1][1], pi[8] = -J[1][2], pi[9] = tr - J[2][2];
}

/// theta of standard parameters whose pseudo-inertia is positive definite (else nullopt).
std::optional<robot::InertialParameters> theta_of_pi(const robot::InertialParameters& p) {
  Eigen::Matrix3d I;
  I << p(4), p(5), p(6), p(5), p(7), p(8), p(6), p(8), p(9);
  Eigen::Matrix4d J;
  J.topLeftCorner<3, 3>() = 0.5 * I.trace() * Eigen::Matrix3d::Identity() - I;
  J.block<3, 1>(0, 3) = p.segment<3>(1);
  J.block<1, 3>(3, 0) = p.segment<3>(1).transpose();
  J(3, 3) = p(0);
  const Eigen::Matrix4d R = J.reverse();  // P J P with P the reversal
  const Eigen::LLT<Eigen::Matrix4d> llt(R);
  if (llt.info() != Eigen::Success) return std::nullopt;
  const Eigen::Matrix4d U = Eigen::Matrix4d(llt.matrixL()).reverse();  // J = U U^T, U upper
  const double a = U(3, 3);
  robot::InertialParameters th;
  th << std::log(a), std::log(U(0, 0) / a), std::log(U(1, 1) / a), std::log(U(2, 2) / a),
      U(0, 1) / a, U(0, 2) / a, U(1, 2) / a, U(0, 3) / a, U(1, 3) / a, U(2, 3) / a;
  return th;
}

/// The prior of each link: the description's inertial where it is a real body, else 1 kg at the
/// joint origin with 0.01 kg m^2 about each axis.
std::vector<robot::InertialParameters> priors(const robot::RobotModel& m) {
  std::vector<robot::InertialParameters> out;
  for (const auto& j : m.joints) {
    robot::InertialParameters p = robot::standard_parameters(j.inertial);
    if (!(j.inertial.mass > 0) || !theta_of_pi(p)) {
      robot::Inertial d;
      d.mass = 1;
      d.inertia = 0.01 * Eigen::Matrix3d::Identity();
      p = robot::standard_parameters(d);
    }
    out.push_back(p);
  }
  return out;
}

struct ConsistencyCost {
  int links = 0, rigid = 0, rank = 0;
  bool extras = false;
  std::vector<Term> terms;
  std::vector<double> beta_hat;
  Eigen::MatrixXd metric;  ///< U with U^T U = Sigma^-1 (Sigma: the base parameters' covariance)
  std::vector<robot::InertialParameters> prior_theta;
  double sqrt_lambda = 0;

  template <class T>
  bool operator()(T const* const* p, T* r) const {
    std::vector<T> pi(static_cast<std::size_t>(10 * links));
    for (int l = 0; l < links; ++l) pi_of_theta(p[l], &pi[static_cast<std::size_t>(10 * l)]);
    std::vector<T> d(static_cast<std::size_t>(rank));
    for (int i = 0; i < rank; ++i)
      d[static_cast<std::size_t>(i)] = T(-beta_hat[static_cast<std::size_t>(i)]);
    for (const Term& t : terms)
      d[static_cast<std::size_t>(t.base)] +=
          t.coefficient *
          (t.column < rigid ? pi[static_cast<std::size_t>(t.column)] : p[links][t.column - rigid]);
    for (int i = 0; i < rank; ++i) {
      r[i] = T(0);
      for (int k = i; k < rank; ++k) r[i] += metric(i, k) * d[static_cast<std::size_t>(k)];
    }
    for (int l = 0; l < links; ++l)
      for (int k = 0; k < 10; ++k)
        r[rank + 10 * l + k] =
            sqrt_lambda * (p[l][k] - prior_theta[static_cast<std::size_t>(l)](k));
    return true;
  }
};

/// The terms of every base parameter by column index; throws for a name not of this model.
std::vector<Term> terms_of(const RobotFitResult& fit, const arm::Columns& cols) {
  std::vector<Term> out;
  for (std::size_t i = 0; i < fit.parameters.size(); ++i)
    for (const auto& [name, c] : fit.parameters[i].terms) {
      const auto it = std::find(cols.names.begin(), cols.names.end(), name);
      if (it == cols.names.end())
        throw std::invalid_argument("the fit's parameter " + name +
                                    " is not one of this robot's with these options");
      out.push_back({static_cast<int>(i), static_cast<int>(it - cols.names.begin()), c});
    }
  return out;
}

/// U upper triangular with U^T U = Sigma^-1 from the fit's covariance (its standard errors on
/// the diagonal when it has none).
Eigen::MatrixXd metric_of(const RobotFitResult& fit) {
  const auto r = static_cast<Eigen::Index>(fit.parameters.size());
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(r, r);
  const bool full = static_cast<Eigen::Index>(fit.covariance.size()) == r;
  for (Eigen::Index i = 0; i < r; ++i)
    for (Eigen::Index k = 0; k < r; ++k)
      S(i, k) = full ? fit.covariance[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)]
                     : (i == k ? std::pow(fit.parameters[static_cast<std::size_t>(i)].std_error, 2)
                               : 0.0);
  const Eigen::MatrixXd info = S.ldlt().solve(Eigen::MatrixXd::Identity(r, r));
  const Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (info + info.transpose()));
  if (llt.info() != Eigen::Success)
    throw std::invalid_argument("the fit's covariance is not positive definite");
  return llt.matrixU();
}

}  // namespace

ConsistentResult physically_consistent(const robot::RobotModel& model, const RobotFitResult& fit,
                                       const RobotFitOptions& options,
                                       const ConsistentOptions& consistent) {
  const arm::Columns cols = arm::columns_of(model, options);
  auto* cost = new ConsistencyCost;
  cost->links = model.dof();
  cost->rigid = cols.rigid;
  cost->rank = static_cast<int>(fit.parameters.size());
  cost->terms = terms_of(fit, cols);
  for (const auto& p : priors(model)) cost->prior_theta.push_back(*theta_of_pi(p));
  cost->sqrt_lambda = std::sqrt(consistent.prior_weight);
  for (const auto& p : fit.parameters) cost->beta_hat.push_back(p.value);
  cost->metric = metric_of(fit);
  // Blocks: theta per link from its prior, then the friction and armature values (>= 0).
  std::vector<robot::InertialParameters> theta = cost->prior_theta;
  std::vector<double> extras(static_cast<std::size_t>(cols.size() - cols.rigid), 0.0);
  for (const Term& t : cost->terms)
    if (t.column >= cols.rigid && t.coefficient == 1.0)
      extras[static_cast<std::size_t>(t.column - cols.rigid)] =
          fit.parameters[static_cast<std::size_t>(t.base)].value;
  cost->extras = !extras.empty();
  auto* f = new ceres::DynamicAutoDiffCostFunction<ConsistencyCost, 4>(cost);
  std::vector<double*> blocks;
  for (auto& th : theta) {
    f->AddParameterBlock(10);
    blocks.push_back(th.data());
  }
  if (cost->extras) {
    f->AddParameterBlock(static_cast<int>(extras.size()));
    blocks.push_back(extras.data());
  }
  f->SetNumResiduals(cost->rank + 10 * cost->links);
  ceres::Problem problem;
  problem.AddResidualBlock(f, nullptr, blocks);
  // Bounds on theta that keep every exp finite (masses within 2e-9 .. 5e8 kg): a link no record
  // determines (the first link's mass) may drift to its prior's edge, not to overflow.
  for (auto& th : theta)
    for (int k = 0; k < 10; ++k) {
      problem.SetParameterLowerBound(th.data(), k, -10);
      problem.SetParameterUpperBound(th.data(), k, 10);
    }
  for (std::size_t e = 0; e < extras.size(); ++e) {
    const std::string& name = cols.names[static_cast<std::size_t>(cols.rigid) + e];
    if (name.rfind("offset_", 0) == 0) continue;  // a torque offset has either sign
    extras[e] = std::max(extras[e], 0.0);
    problem.SetParameterLowerBound(extras.data(), static_cast<int>(e), 0.0);
  }
  ceres::Solver::Options so;
  so.max_num_iterations = consistent.max_iterations;
  so.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(so, &problem, &summary);
  ConsistentResult out;
  out.converged = summary.termination_type == ceres::CONVERGENCE;
  out.iterations = static_cast<int>(summary.iterations.size());
  std::vector<double> r(static_cast<std::size_t>(cost->rank + 10 * cost->links));
  const std::vector<const double*> cblocks(blocks.begin(), blocks.end());
  (*cost)(cblocks.data(), r.data());
  out.distance = Eigen::Map<const Eigen::VectorXd>(r.data(), cost->rank).norm();
  // beta(pi) = beta^ + U^-1 r
  const Eigen::VectorXd d = cost->metric.triangularView<Eigen::Upper>().solve(
      Eigen::Map<const Eigen::VectorXd>(r.data(), cost->rank));
  for (int i = 0; i < cost->rank; ++i)
    out.base.push_back(cost->beta_hat[static_cast<std::size_t>(i)] + d(i));
  for (const auto& th : theta) {
    robot::InertialParameters pi;
    pi_of_theta(th.data(), pi.data());
    out.links.push_back(robot::from_standard_parameters(pi));
  }
  std::vector<bool> used(static_cast<std::size_t>(cols.rigid), false);
  for (const Term& t : cost->terms)
    if (t.column < cols.rigid) used[static_cast<std::size_t>(t.column)] = true;
  for (int c = 0; c < cols.rigid; ++c)
    if (!used[static_cast<std::size_t>(c)])
      out.undetermined.push_back(cols.names[static_cast<std::size_t>(c)]);
  return out;
}

}  // namespace frictionlab::identify
