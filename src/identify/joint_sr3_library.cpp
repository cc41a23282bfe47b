// frictionlab identify: the Stribeck library of the joint SINDy-SR3 algorithm: fixed columns
// and the columns sgn(qd) exp(-|qd/Omega_s|^delta) with their derivatives in log Omega_s
// (include/frictionlab/identify/joint_sr3.hpp; docs/joint-identification.md, section "sr3").
#include "frictionlab/identify/joint_sr3.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace frictionlab::identify {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

JointStribeckLibrary::JointStribeckLibrary(MatrixXd fixed, std::span<const double> qd,
                                           VectorXd multiplier, std::vector<double> delta,
                                           double omega_min, double omega_max)
    : fixed_(std::move(fixed)),
      pow_qd_(static_cast<Index>(qd.size()), static_cast<Index>(delta.size())),
      multiplier_(std::move(multiplier)),
      delta_(std::move(delta)),
      log_min_(std::log(omega_min)),
      log_max_(std::log(omega_max)) {
  if (static_cast<Index>(qd.size()) != fixed_.rows() || multiplier_.size() != fixed_.rows())
    throw std::invalid_argument(
        "JointStribeckLibrary: qd, multiplier and the fixed columns "
        "must have the same number of rows");
  if (!(omega_min > 0) || !(omega_max > omega_min))
    throw std::invalid_argument("JointStribeckLibrary: need 0 < omega_min < omega_max");
  for (std::size_t i = 0; i < delta_.size(); ++i)
    for (std::size_t k = 0; k < qd.size(); ++k)
      pow_qd_(static_cast<Index>(k), static_cast<Index>(i)) = std::pow(std::abs(qd[k]), delta_[i]);
}

void JointStribeckLibrary::evaluate(const VectorXd& alpha, MatrixXd& theta,
                                    bool alpha_columns_only) const {
  const Index nf = fixed_.cols();
  if (theta.rows() != rows() || theta.cols() != cols()) {
    theta.resize(rows(), cols());
    alpha_columns_only = false;
  }
  if (!alpha_columns_only) theta.leftCols(nf) = fixed_;
  for (std::size_t i = 0; i < delta_.size(); ++i) {
    const auto ii = static_cast<Index>(i);
    const double c = std::exp(-delta_[i] * alpha(0));  // Omega_s^-delta
    theta.col(nf + ii) = (multiplier_.array() * (-(pow_qd_.col(ii).array() * c)).exp()).matrix();
  }
}

void JointStribeckLibrary::apply(const VectorXd& alpha, const VectorXd& xi, VectorXd& value,
                                 MatrixXd* d1, MatrixXd* d2) const {
  const Index nf = fixed_.cols();
  const Index n = rows();
  value.noalias() = fixed_ * xi.head(nf);
  if (d1 != nullptr) d1->setZero(n, 1);
  if (d2 != nullptr) d2->setZero(n, 1);
  Eigen::ArrayXd x(n), me(n);
  for (std::size_t i = 0; i < delta_.size(); ++i) {
    const auto ii = static_cast<Index>(i);
    const double coef = xi(nf + ii);
    if (coef == 0) continue;
    const double d = delta_[i];
    x = pow_qd_.col(ii).array() * std::exp(-d * alpha(0));  // |qd/Omega_s|^delta
    me = coef * multiplier_.array() * (-x).exp();           // xi_i * m * e
    value.array() += me;
    if (d1 != nullptr) d1->col(0).array() += d * me * x;
    if (d2 != nullptr) d2->col(0).array() += d * d * me * x * (x - 1.0);
  }
}

VectorXd JointStribeckLibrary::alpha_lower() const { return VectorXd::Constant(1, log_min_); }
VectorXd JointStribeckLibrary::alpha_upper() const { return VectorXd::Constant(1, log_max_); }

}  // namespace frictionlab::identify
