// frictionlab mujoco (private): LU factorisation with partial pivoting of the small dense
// Jacobian of the coupled LuGre joints' Newton iteration (a few to a few tens of joints), in
// place and without allocation. Eigen's PartialPivLU computes the same factors, but for a 7 x 7
// dynamic-size matrix its blocked dispatch costs about five times the arithmetic (measured in
// docs/benchmarks.md, "The coupled Newton step's factor").
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <utility>
#include <vector>

namespace frictionlab::mujoco {

/// P A = L U of a square matrix, L unit lower triangular and U upper, both stored in the matrix
/// (Doolittle, row pivots by the largest magnitude in each column: Golub & Van Loan,
/// Matrix Computations, algorithm 3.4.1).
class SmallLu {
 public:
  /// Size the pivots for n x n matrices (compute then allocates nothing).
  void reserve(Eigen::Index n) { pivots_.assign(static_cast<std::size_t>(n), 0); }

  /// Factor a (square, at most the reserved size) in place. False if a pivot is zero or not
  /// finite: the matrix is singular to working precision.
  bool compute(Eigen::MatrixXd& a) {
    const Eigen::Index n = a.rows();
    for (Eigen::Index k = 0; k < n; ++k) {
      Eigen::Index p = k;
      for (Eigen::Index r = k + 1; r < n; ++r)
        if (std::abs(a(r, k)) > std::abs(a(p, k))) p = r;
      pivots_[static_cast<std::size_t>(k)] = p;
      const double pivot = a(p, k);
      if (pivot == 0.0 || !std::isfinite(pivot)) return false;
      if (p != k)
        for (Eigen::Index c = 0; c < n; ++c) std::swap(a(k, c), a(p, c));
      for (Eigen::Index r = k + 1; r < n; ++r) a(r, k) /= pivot;
      for (Eigen::Index c = k + 1; c < n; ++c) {
        const double u = a(k, c);
        for (Eigen::Index r = k + 1; r < n; ++r) a(r, c) -= a(r, k) * u;
      }
    }
    return true;
  }

  /// Solve A x = b in place (b in, x out) with the factors of compute.
  void solve(const Eigen::MatrixXd& lu, Eigen::VectorXd& b) const {
    const Eigen::Index n = lu.rows();
    for (Eigen::Index k = 0; k < n; ++k) std::swap(b[k], b[pivots_[static_cast<std::size_t>(k)]]);
    for (Eigen::Index c = 0; c < n; ++c)  // L y = P b
      for (Eigen::Index r = c + 1; r < n; ++r) b[r] -= lu(r, c) * b[c];
    for (Eigen::Index c = n - 1; c >= 0; --c) {  // U x = y
      b[c] /= lu(c, c);
      for (Eigen::Index r = 0; r < c; ++r) b[r] -= lu(r, c) * b[c];
    }
  }

 private:
  std::vector<Eigen::Index> pivots_;
};

}  // namespace frictionlab::mujoco
