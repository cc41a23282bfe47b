// frictionlab robot: the rigid-body model of a robot arm as identification needs it: a tree of
// one-degree-of-freedom joints, each carrying the link it moves (docs/robot-identification.md).
//
// Conventions. Every joint i has a frame J_i. At q_i = 0 it sits at `origin` in the frame of
// its parent joint (the base frame for parent -1); the joint moves its frame by a rotation of
// q_i [rad] about `axis` (revolute) or a translation of q_i [m] along it (prismatic), both in
// J_i's own coordinates:  X_{parent,i}(q_i) = origin * Motion(axis, q_i).
// The link moved by joint i (with every link attached to it by fixed joints merged in) has its
// mass properties in J_i. Gravity is a vector in the base frame [m/s^2].
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <limits>
#include <string>
#include <vector>

namespace frictionlab::robot {

enum class JointType { revolute, prismatic };

/// Mass properties of a rigid body in a frame F.
struct Inertial {
  double mass = 0;                                ///< [kg], >= 0
  Eigen::Vector3d com = Eigen::Vector3d::Zero();  ///< centre of mass in F [m]
  Eigen::Matrix3d inertia =
      Eigen::Matrix3d::Zero();  ///< about the centre of mass, axes of F [kg m^2]
};

/// The 10 standard inertial parameters of a link, linear in the dynamics (Atkeson, An and
/// Hollerbach 1986): mass, first moment m c and the inertia about the joint frame's origin,
/// in the order the regressor's columns take them.
inline constexpr std::array<const char*, 10> kInertialParameterNames = {
    "m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Ixz", "Iyy", "Iyz", "Izz"};
using InertialParameters = Eigen::Matrix<double, 10, 1>;

/// Joint limits as the description gives them (infinite where it gives none).
struct JointLimits {
  double lower = -std::numeric_limits<double>::infinity();        ///< [rad | m]
  double upper = std::numeric_limits<double>::infinity();         ///< [rad | m]
  double velocity = std::numeric_limits<double>::infinity();      ///< [rad/s | m/s]
  double acceleration = std::numeric_limits<double>::infinity();  ///< [rad/s^2 | m/s^2]
  double effort = std::numeric_limits<double>::infinity();        ///< [N m | N]
};

struct Joint {
  std::string name;
  JointType type = JointType::revolute;
  int parent = -1;  ///< index of the parent joint, -1: the base; always less than this joint's
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();  ///< J_i at q = 0 in the parent's frame
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();           ///< unit vector in J_i
  JointLimits limits;
  std::string link;     ///< the name of the link the joint moves
  Inertial inertial;    ///< that link's (fixed children merged), in J_i
  double armature = 0;  ///< rotor inertia reflected to the joint [kg m^2 | kg]
};

struct RobotModel {
  std::string name;
  std::string base;                         ///< the name of the base (root) link
  std::vector<Joint> joints;                ///< parents before children
  Eigen::Vector3d gravity{0, 0, -9.80665};  ///< in the base frame [m/s^2]

  int dof() const { return static_cast<int>(joints.size()); }
  /// The index of the joint named `name`, -1 if none.
  int find(const std::string& joint_name) const;
};

/// Inertial expressed in frame F as seen from frame G, where `F_in_G` places F in G.
Inertial transform(const Inertial& in, const Eigen::Isometry3d& F_in_G);
/// The sum of two rigid bodies' mass properties, both in the same frame.
Inertial combine(const Inertial& a, const Inertial& b);
/// The 10 standard parameters of an inertial given in the joint frame (inertia about the frame's
/// origin by the parallel-axis theorem).
InertialParameters standard_parameters(const Inertial& in);
/// The inverse of standard_parameters (mass 0: centre of mass at the origin).
Inertial from_standard_parameters(const InertialParameters& p);

/// Errors of the description, each naming the joint: parents out of order, a zero or non-unit
/// axis, a negative mass, an inertia that is not symmetric positive semi-definite or violates
/// the triangle inequality, inverted limits. Empty when the model is usable.
std::vector<std::string> check(const RobotModel& model);

/// One row of a Denavit-Hartenberg table (lengths [m], angles [rad]).
struct DhRow {
  std::string joint;  ///< the joint's name; empty for a fixed row (a flange)
  double a = 0, d = 0, alpha = 0, theta = 0;
  JointType type = JointType::revolute;
  bool fixed = false;  ///< no joint variable: the row only places the next frame
};
enum class DhConvention {
  /// Craig's: X_{i-1,i} = RotX(alpha_{i-1}) TransX(a_{i-1}) RotZ(theta_i + q_i) TransZ(d_i), the
  /// row holding (a_{i-1}, alpha_{i-1}, theta_i, d_i); link i's mass properties in frame i.
  modified,
  /// Denavit and Hartenberg's: X_{i-1,i} = RotZ(theta_i + q_i) TransZ(d_i) TransX(a_i)
  /// RotX(alpha_i);
  /// link i's mass properties in frame i (at the far end of the link).
  standard,
};
/// A chain from a DH table. `inertials[k]` belongs to row k's frame (empty: massless links);
/// fixed rows are merged into the previous joint. Names of unnamed rows: "joint<k+1>".
RobotModel from_dh(const std::vector<DhRow>& rows, DhConvention convention,
                   const std::vector<Inertial>& inertials = {});

}  // namespace frictionlab::robot
