// frictionlab identify: a cost's residuals and Jacobian at a point as the solver evaluated
// them (Linearisation, KeepsJacobian), what the solve hands the statistics at the optimum, and
// the matrix types the Jacobians are read with.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace frictionlab::identify::detail {

/// A matrix in either storage order (a row-major Jacobian as the costs write it, or a
/// column-major one) read in place.
using AnyMatrix =
    Eigen::Ref<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// A cost function that keeps its latest evaluation with a Jacobian, possibly computed ahead
/// with a residual-only evaluation, and its normal equations (the LuGre SimCost, families.cpp):
/// CompressedCost reads them in place instead of having the m x p Jacobian copied out and
/// multiplied again.
class KeepsJacobian {
 public:
  virtual ~KeepsJacobian() = default;
  /// The residuals (m) and row-major Jacobian (m x p) at x when they are kept (ok: whether they
  /// are finite); they are then the solver's current linearisation. false when not kept.
  virtual bool kept_at(const double* x, const double*& residuals, const double*& jacobian,
                       bool& ok) const = 0;
  /// J^T J, J^T r and r^T r at x when the cost formed them with the Jacobian, else false.
  virtual bool normal_at(const double* x, Eigen::MatrixXd& N, Eigen::VectorXd& g,
                         double& ss) const = 0;
};

/// The residuals and the Jacobian of a cost (Family::make_cost) at the free parameters x, as
/// the solver last evaluated them: what the statistics at the optimum need, when x is the
/// optimum, without another evaluation.
struct Linearisation {
  std::vector<double> x;          ///< the free internal parameters (empty: none)
  std::vector<double> residuals;  ///< m
  std::vector<double> jacobian;   ///< m x p, row-major
  Eigen::MatrixXd normal;         ///< J^T J when the evaluation computed it (else empty)
};

/// A time segment's rows after the chaining (sim_cost.hpp, sensitivity_pass.hpp): row k of the
/// row-major Jacobian `jac` (nf columns, row k - first) += sum_i q_ki D(i, j) for samples
/// k0 <= k < k1, q_k = dpdz[k * ns ...] the prediction's derivatives with respect to the
/// segment's ns start states and D(i, j) = dz_s,i / dtheta_j.
template <class DAt>
void add_chained_rows(double* jac, std::size_t nf, const double* dpdz, int ns, long k0, long k1,
                      long first, const DAt& D) {
  const auto uns = static_cast<std::size_t>(ns);
  for (long k = k0; k < k1; ++k) {
    double* jr = jac + static_cast<std::size_t>(k - first) * nf;
    for (int i = 0; i < ns; ++i) {
      const double q = dpdz[static_cast<std::size_t>(k) * uns + static_cast<std::size_t>(i)];
      if (q == 0.0) continue;
      for (std::size_t j = 0; j < nf; ++j) jr[j] += q * D(i, j);
    }
  }
}

}  // namespace frictionlab::identify::detail
