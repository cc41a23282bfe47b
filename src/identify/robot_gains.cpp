// frictionlab identify: drive gains and base parameters from an unloaded and a loaded record
// (identify/robot_gains.hpp).
#include "frictionlab/identify/robot_gains.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

#include "robot_base.hpp"
#include "robot_lsq.hpp"

namespace frictionlab::identify {

namespace {

using arm::Base;
using arm::Columns;
using arm::FullRegressor;
using arm::RowSource;
using arm::Solution;
using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

/// The last link's columns the payload adds to: its mass column and the independent ones of
/// the other nine (pivoted QR on random states), with their names.
struct PayloadColumns {
  int mass = 0;
  std::vector<int> free;
};

PayloadColumns payload_columns(FullRegressor& full, const Columns& cols, const RobotFitOptions& o) {
  const MatrixXd S = arm::random_regressor(full, cols, o);
  const int first = 10 * (full.dof() - 1);
  Eigen::ColPivHouseholderQR<MatrixXd> qr(S.middleCols(first + 1, 9));
  qr.setThreshold(o.rank_tolerance);
  PayloadColumns p{first, {}};
  for (Index k = 0; k < qr.rank(); ++k)
    p.free.push_back(first + 1 + static_cast<int>(qr.colsPermutation().indices()(k)));
  std::sort(p.free.begin(), p.free.end());
  return p;
}

/// The rows of both records: X_k = [W_k, L_k (loaded only), -diag(i_k)], y_k = 0 or -m l_k.
class GainRows : public RowSource {
 public:
  GainRows(FullRegressor& full, const Base& base, const PayloadColumns& pc,
           const data::ArmSamples& unloaded, const data::ArmSamples& loaded, double mass)
      : full_(full), base_(base), pc_(pc), a_(unloaded), b_(loaded), m_(mass), n_(a_.dof()) {}

  std::size_t size() const override { return a_.size() + b_.size(); }
  Index columns() const override { return rigid() + payload() + n_; }
  Index rigid() const { return static_cast<Index>(base_.independent.size()); }
  Index payload() const { return static_cast<Index>(pc_.free.size()); }

  void at(std::size_t k, MatrixXd& X, VectorXd& y) override {
    const bool loaded = k >= a_.size();
    const data::ArmSamples& s = loaded ? b_ : a_;
    const std::size_t i = loaded ? k - a_.size() : k;
    state(s, i);
    full_.evaluate(q_.data(), qd_.data(), qdd_.data(), W_);
    X.setZero(n_, columns());
    arm::base_columns(W_, base_, Wb_);
    X.leftCols(rigid()) = Wb_;
    y.setZero(n_);
    if (loaded) {
      for (Index c = 0; c < payload(); ++c)
        X.col(rigid() + c) = W_.col(pc_.free[static_cast<std::size_t>(c)]);
      y = -m_ * W_.col(pc_.mass);
    }
    for (int j = 0; j < n_; ++j) X(j, rigid() + payload() + j) = -current(s, j, i);
  }

  /// The torque K i with the gains of theta: what the relative error is taken of.
  VectorXd measured(std::size_t k, const VectorXd& /*y*/, const VectorXd& theta) override {
    const bool loaded = k >= a_.size();
    const std::size_t i = loaded ? k - a_.size() : k;
    VectorXd tau(n_);
    for (int j = 0; j < n_; ++j)
      tau(j) = theta(rigid() + payload() + j) * current(loaded ? b_ : a_, j, i);
    return tau;
  }

  /// The instruments of row k: X_k with the currents theta predicts, (model torque) / K.
  void instruments(const MatrixXd& X, const VectorXd& y, const VectorXd& theta, MatrixXd& Z) {
    const Index known = rigid() + payload();
    const VectorXd tau = X.leftCols(known) * theta.head(known) - y;
    Z = X;
    for (int j = 0; j < n_; ++j) Z(j, known + j) = -tau(j) / theta(known + j);
  }

 private:
  static double current(const data::ArmSamples& s, int j, std::size_t k) {
    return s.effort[static_cast<std::size_t>(j)][k];
  }
  void state(const data::ArmSamples& s, std::size_t k) {
    q_.resize(n_), qd_.resize(n_), qdd_.resize(n_);
    for (int j = 0; j < n_; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      q_(j) = s.q[jj][k], qd_(j) = s.qd[jj][k], qdd_(j) = s.qdd[jj][k];
    }
  }

  FullRegressor& full_;
  const Base& base_;
  const PayloadColumns& pc_;
  const data::ArmSamples &a_, &b_;
  double m_;
  int n_;
  VectorXd q_, qd_, qdd_;
  MatrixXd W_, Wb_;
};

/// One instrumental-variable step from theta, with weights w per joint; the covariance of the
/// new estimate.
struct IvStep {
  VectorXd theta;
  MatrixXd cov;
};
IvStep iv_step(GainRows& rows, const VectorXd& theta, const VectorXd& w) {
  const Index p = rows.columns();
  MatrixXd M = MatrixXd::Zero(p, p), G = MatrixXd::Zero(p, p), X, Z;
  VectorXd v = VectorXd::Zero(p), y;
  const VectorXd w2 = w.cwiseAbs2();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows.at(k, X, y);
    rows.instruments(X, y, theta, Z);
    const MatrixXd ZtW = Z.transpose() * w2.asDiagonal();
    M += ZtW * X;
    G += ZtW * Z;
    v += ZtW * y;
  }
  const Eigen::PartialPivLU<MatrixXd> lu(M);
  IvStep out{lu.solve(v), {}};
  double ssr = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows.at(k, X, y);
    ssr += (y - X * out.theta).cwiseProduct(w).squaredNorm();
  }
  const double dof =
      static_cast<double>(rows.size()) * static_cast<double>(w.size()) - static_cast<double>(p);
  const MatrixXd Minv = lu.inverse();
  out.cov = (ssr / dof) * Minv * G * Minv.transpose();
  return out;
}

void check_inputs(const robot::RobotModel& m, const data::ArmSamples& s, const char* which,
                  double mass) {
  if (s.dof() != m.dof())
    throw std::invalid_argument(std::string("the ") + which + " record has " +
                                std::to_string(s.dof()) + " joints, the robot " +
                                std::to_string(m.dof()));
  if (!s.effort_is_current)
    throw std::invalid_argument(std::string("the ") + which +
                                " record has joint torques: drive gains are identified from "
                                "motor currents");
  if (!(mass > 0) || !std::isfinite(mass))
    throw std::invalid_argument("payload_mass: must be > 0 kg");
}

/// The gains and payload parameters of theta with their standard errors.
void name_extras(const GainRows& rows, const VectorXd& theta, const MatrixXd& cov,
                 const PayloadColumns& pc, const Columns& cols, const robot::RobotModel& m,
                 std::vector<RobotParameter>& gains, std::vector<RobotParameter>* payload) {
  const Index r = rows.rigid(), p = rows.payload();
  for (int j = 0; j < m.dof(); ++j)
    gains.push_back(arm::parameter("K_" + m.joints[static_cast<std::size_t>(j)].name, "N m/A",
                                   theta(r + p + j), cov(r + p + j, r + p + j)));
  if (!payload) return;
  for (Index c = 0; c < p; ++c) {
    const auto col = static_cast<std::size_t>(pc.free[static_cast<std::size_t>(c)]);
    const std::string name = cols.names[col];
    payload->push_back(arm::parameter(name.substr(0, name.rfind('_')) + "_payload", cols.units[col],
                                      theta(r + c), cov(r + c, r + c)));
  }
}

}  // namespace

DriveGainResult fit_robot_gains(const robot::RobotModel& model, const data::ArmSamples& unloaded,
                                const data::ArmSamples& loaded, const DriveGainOptions& options) {
  check_inputs(model, unloaded, "unloaded", options.payload_mass);
  check_inputs(model, loaded, "loaded", options.payload_mass);
  const int n = model.dof();
  const Columns cols = arm::columns_of(model, options.fit);
  FullRegressor full(model, cols);
  const Base base = arm::find_base(full, cols, options.fit);
  const PayloadColumns pc = payload_columns(full, cols, options.fit);
  GainRows rows(full, base, pc, unloaded, loaded, options.payload_mass);
  // Least squares, then the instrumental-variable refinements.
  Solution s = arm::solve(rows, n, options.fit.weighted);
  DriveGainResult out;
  name_extras(rows, s.theta, s.cov, pc, cols, model, out.least_squares_gains, nullptr);
  const VectorXd w =
      options.fit.weighted ? VectorXd(s.sigma.cwiseInverse()) : VectorXd(VectorXd::Ones(n));
  for (int it = 0; it < options.iv_iterations; ++it) {
    const IvStep iv = iv_step(rows, s.theta, w);
    s.theta = iv.theta;
    s.cov = iv.cov;
  }
  s.e = arm::residuals(rows, s.theta, n);
  out.fit = arm::result_of(s, base, cols, rows.size(), n);
  arm::flag(out.fit, options.fit);
  name_extras(rows, s.theta, s.cov, pc, cols, model, out.gains, &out.payload);
  return out;
}

}  // namespace frictionlab::identify
