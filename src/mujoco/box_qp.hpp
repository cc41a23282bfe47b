// frictionlab mujoco (private): the frictions of coupled joints whose friction is a budget (a
// servo's, a static model's) within one MuJoCo step, solved exactly.
//
// With v0 the velocities the joints would end the step with without their frictions and
// H = h c (c: the joints' block of A^-1, symmetric positive definite), frictions f end the step
// at v = v0 + H f. The stopping-torque rule on every joint at once (each friction stops its
// joint if its budget b allows, else it is +-b against the motion) is the optimality condition
// of the box-constrained quadratic programme
//
//   minimise 1/2 f'Hf + v0'f  subject to  lo <= f <= hi
//
// (lo = -(the budget forward), hi = the budget backward: a load dependence makes them differ):
// v_i = 0 where lo_i < f_i < hi_i (sticks), v_i >= 0 where f_i = lo_i, v_i <= 0 where f_i = hi_i
// (slips against f). Its solution is unique, the point that projected Gauss-Seidel sweeps approach
// (linearly, and slowly when the joints couple strongly, as along an arm). Here it is found
// by block principal pivoting (J. J. Judice, F. M. Pires, "A block principal pivoting algorithm
// for large-scale strictly monotone linear complementarity problems", Computers & Operations
// Research 21, 1994): guess which joints stick, solve H_SS f_S = -(v0 + H f_fixed)_S for them,
// move every joint that breaks its condition to the other set, repeat; after three rounds
// without fewer violations one joint at a time (Murty's rule, finite). Every set is a joint's
// state of the step before to start with, so a step usually takes one or two solves.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace frictionlab::mujoco {

/// A joint's side in the programme: its friction at lo (`lower`), free with v = 0 (`stick`),
/// at hi (`upper`); `fixed`: a joint whose friction is given (lo = hi), not the programme's (a
/// LuGre joint among budget joints: its torque enters the others' velocities only).
enum class BoxSide : signed char { lower = -1, stick = 0, upper = 1, fixed = 2 };

/// The scratch of the solver for up to n joints, sized once (solve allocates nothing).
class BoxQp {
 public:
  explicit BoxQp(int n = 0);

  /// Solve for f (size n) given H (n x n, symmetric positive definite), v0 and lo <= 0 <= hi,
  /// starting from the sides of the previous call (all `stick` at first and after reset()).
  /// Returns the number of linear solves, or -1 if the sets did not settle within its limit
  /// (not seen: the rule is finite; f is then the last iterate's, clipped into the box).
  int solve(const Eigen::MatrixXd& H, const Eigen::VectorXd& v0, const Eigen::VectorXd& lo,
            const Eigen::VectorXd& hi, Eigen::VectorXd& f);

  /// Forget the sides (as after mj_resetData); fixed joints stay fixed.
  void reset();

  /// Make joint i a fixed one for every later solve: its friction is lo_i (= hi_i) as given.
  void fix(int i);

  /// Joint i's side after the last solve.
  BoxSide side(int i) const { return sides_[static_cast<std::size_t>(i)]; }

 private:
  /// f_S for the sticking joints given the others' f at their bounds; false if H_SS is not
  /// positive definite to rounding.
  bool solve_sticking(const Eigen::MatrixXd& H, const Eigen::VectorXd& v0,
                      const Eigen::VectorXd& lo, const Eigen::VectorXd& hi, Eigen::VectorXd& f);
  /// The joints whose condition the iterate (f, v_ = v0 + H f) breaks, into violations_; their
  /// count.
  int find_violations(const Eigen::MatrixXd& H, const Eigen::VectorXd& v0,
                      const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                      const Eigen::VectorXd& f);
  /// Move joint i to the other set: a sticking one to the bound its friction passed, a bound
  /// one to sticking.
  void flip(int i, const Eigen::VectorXd& f);

  std::vector<BoxSide> sides_;
  std::vector<int> sticking_, violations_;
  Eigen::MatrixXd sub_;  ///< H_SS in its top-left corner, factored in place
  Eigen::VectorXd rhs_, v_;
};

}  // namespace frictionlab::mujoco
