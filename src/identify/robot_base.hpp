// frictionlab identify (private): the full identification regressor of an arm and its base
// columns, shared by the arm fit (robot_fit.cpp) and the experiment design (robot_excite.cpp).
//
// The full regressor at one state has 10 columns per link (the standard inertial parameters of
// robot/dynamics.hpp), then per joint the armature Ia (qdd), viscous Fv (qd), Coulomb Fc
// (sign(qd)), offset (1) and load mu (|tau| sign(qd), tau the instrument) columns that
// RobotFitOptions asks for. The base: the columns a QR
// with column pivoting keeps as independent on random states (Gautier 1990, numerical base);
// each dependent column is a combination of them (W_dep = W_ind B).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify::arm {

/// The columns of the full regressor, before the base is chosen: 10 per link, then per joint
/// the armature, Fv, Fc and offset that `options` asks for.
struct Columns {
  std::vector<std::string> names, units;
  int rigid = 0;  ///< the first `rigid` columns are the links' standard parameters
  int ia = -1, fv = -1, fc = -1, fo = -1, mu = -1;  ///< each per-joint group's first column
                                                    ///< (-1: none)
  /// Per joint, whether its load column is held at 0 (left out of the base); empty: none is.
  std::vector<bool> load_held;
  int size() const { return static_cast<int>(names.size()); }
  bool held(int j) const { return !load_held.empty() && load_held[static_cast<std::size_t>(j)]; }
};

Columns columns_of(const robot::RobotModel& m, const RobotFitOptions& o);

/// The full regressor (n x columns) at one state. Not thread-safe (one per thread).
class FullRegressor {
 public:
  FullRegressor(const robot::RobotModel& m, const Columns& c)
      : n_(m.dof()), cols_(c), dyn_(m), rigid_(n_, c.rigid) {}

  /// The regressor at (q, qd, qdd); the load columns from `load` (the torque each joint
  /// carries [N m]), 0 without it.
  void evaluate(const double* q, const double* qd, const double* qdd, Eigen::MatrixXd& W,
                const double* load = nullptr);
  int dof() const { return n_; }

 private:
  int n_;
  const Columns& cols_;
  robot::RigidBodyDynamics<double> dyn_;
  Eigen::MatrixXd rigid_;
};

/// The base columns and the grouping of the others into them (W_dep = W_ind B).
struct Base {
  std::vector<int> independent, dependent;  ///< column indices, ascending
  Eigen::MatrixXd B;                        ///< independent x dependent
};

/// The full regressor at `o.base_states` random states (seed `o.seed`), stacked: positions in
/// [-pi, pi], velocities in [-2, 2], accelerations in [-5, 5] and, with load columns, loads in
/// [-5, 5] N m per joint.
Eigen::MatrixXd random_regressor(FullRegressor& full, const Columns& c, const RobotFitOptions& o);

/// The base from the regressor at `o.base_states` random states (seed `o.seed`, rank tolerance
/// `o.rank_tolerance` relative to the largest pivot).
Base find_base(FullRegressor& full, const Columns& c, const RobotFitOptions& o);

/// Base parameter i's terms: its own parameter (coefficient 1), then every dependent one it
/// absorbs with its coefficient (those below 1e-9 of the largest are round-off).
std::vector<std::pair<std::string, double>> grouping(const Base& b, const Columns& c,
                                                     std::size_t i);

/// "Izz_q1 + 0.0998 m_q2 + Iyy_q2".
std::string expression(const std::vector<std::pair<std::string, double>>& terms);

/// The base columns of the full regressor W (n x columns) into Wb (n x base size).
void base_columns(const Eigen::MatrixXd& W, const Base& b, Eigen::MatrixXd& Wb);

}  // namespace frictionlab::identify::arm
