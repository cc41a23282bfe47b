// frictionlab mujoco: the budget joints' frictions of a step by block principal pivoting
// (box_qp.hpp).
#include "box_qp.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace frictionlab::mujoco {
namespace {

/// Relative slack of the conditions: an iterate within it of a bound, or of v = 0, meets it (the
/// linear solves are exact to a few ulps of these scales).
constexpr double kSlack = 1e-12;

/// The rounds without fewer violations after which one joint at a time moves.
constexpr int kPatience = 3;

}  // namespace

BoxQp::BoxQp(int n)
    : sides_(static_cast<std::size_t>(n), BoxSide::stick),
      sticking_(static_cast<std::size_t>(n)),
      violations_(static_cast<std::size_t>(n)),
      sub_(n, n),
      rhs_(n),
      v_(n) {}

void BoxQp::reset() {
  for (BoxSide& s : sides_)
    if (s != BoxSide::fixed) s = BoxSide::stick;
}

void BoxQp::fix(int i) { sides_[static_cast<std::size_t>(i)] = BoxSide::fixed; }

bool BoxQp::solve_sticking(const Eigen::MatrixXd& H, const Eigen::VectorXd& v0,
                           const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                           Eigen::VectorXd& f) {
  const auto n = static_cast<int>(sides_.size());
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const BoxSide s = sides_[static_cast<std::size_t>(i)];
    if (s == BoxSide::stick) {
      sticking_[static_cast<std::size_t>(m++)] = i;
    } else {
      f[i] = s == BoxSide::upper ? hi[i] : lo[i];  // fixed: lo = hi
    }
  }
  if (m == 0) return true;
  // H_SS f_S = -(v0_S + H_SF f_F), F the joints at a bound
  for (int r = 0; r < m; ++r) {
    const int i = sticking_[static_cast<std::size_t>(r)];
    double rhs = -v0[i];
    for (int j = 0; j < n; ++j)
      if (sides_[static_cast<std::size_t>(j)] != BoxSide::stick) rhs -= H(i, j) * f[j];
    rhs_[r] = rhs;
    for (int c = 0; c < m; ++c) sub_(r, c) = H(i, sticking_[static_cast<std::size_t>(c)]);
  }
  Eigen::Ref<Eigen::MatrixXd> block = sub_.topLeftCorner(m, m);
  const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(block);  // in place: no allocation
  if (llt.info() != Eigen::Success) return false;
  auto x = rhs_.head(m);
  llt.solveInPlace(x);
  for (int r = 0; r < m; ++r) f[sticking_[static_cast<std::size_t>(r)]] = x[r];
  return true;
}

int BoxQp::find_violations(const Eigen::MatrixXd& H, const Eigen::VectorXd& v0,
                           const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                           const Eigen::VectorXd& f) {
  const auto n = static_cast<int>(sides_.size());
  int count = 0;
  for (int i = 0; i < n; ++i) {
    // the scales of joint i's torques and of its velocity changes
    const double torque = hi[i] - lo[i] + std::abs(f[i]);
    const double velocity = std::abs(v0[i]) + H(i, i) * torque;
    bool broken = false;
    switch (sides_[static_cast<std::size_t>(i)]) {
      case BoxSide::stick:  // within its budget
        broken = f[i] - hi[i] > kSlack * torque || lo[i] - f[i] > kSlack * torque;
        break;
      case BoxSide::upper:  // hi: the joint must not end the step moving forward
        broken = v_[i] > kSlack * velocity;
        break;
      case BoxSide::lower:
        broken = v_[i] < -kSlack * velocity;
        break;
      case BoxSide::fixed:  // given, not the programme's
        break;
    }
    if (broken) violations_[static_cast<std::size_t>(count++)] = i;
  }
  return count;
}

void BoxQp::flip(int i, const Eigen::VectorXd& f) {
  BoxSide& s = sides_[static_cast<std::size_t>(i)];
  if (s != BoxSide::stick)
    s = BoxSide::stick;
  else
    s = f[i] > 0.0 ? BoxSide::upper : BoxSide::lower;
}

int BoxQp::solve(const Eigen::MatrixXd& H, const Eigen::VectorXd& v0, const Eigen::VectorXd& lo,
                 const Eigen::VectorXd& hi, Eigen::VectorXd& f) {
  const auto n = static_cast<int>(sides_.size());
  int best = n + 1, stalled = 0;
  for (int round = 1; round <= 10 * n + 10; ++round) {
    if (!solve_sticking(H, v0, lo, hi, f)) break;
    v_.noalias() = H * f;
    v_ += v0;
    const int count = find_violations(H, v0, lo, hi, f);
    if (count == 0) return round;
    // every violation at once while their number falls; else the last one alone (Murty)
    if (count < best) {
      best = count;
      stalled = 0;
    } else {
      ++stalled;
    }
    if (stalled < kPatience) {
      for (int k = 0; k < count; ++k) flip(violations_[static_cast<std::size_t>(k)], f);
    } else {
      flip(violations_[static_cast<std::size_t>(count - 1)], f);
    }
  }
  for (int i = 0; i < n; ++i) f[i] = std::clamp(f[i], lo[i], hi[i]);
  return -1;
}

}  // namespace frictionlab::mujoco
