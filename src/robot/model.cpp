// frictionlab robot: mass-property algebra, the model's checks and chains from DH tables
// (robot/model.hpp).
#include "frictionlab/robot/model.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

namespace frictionlab::robot {

namespace {

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

/// The inertia about a point at `r` from the centre of mass (parallel-axis theorem).
Eigen::Matrix3d shifted(const Eigen::Matrix3d& Ic, double m, const Eigen::Vector3d& r) {
  return Ic + m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
}

Eigen::Isometry3d rot_x(double a) {
  return Eigen::Isometry3d(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()));
}
Eigen::Isometry3d rot_z(double a) {
  return Eigen::Isometry3d(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()));
}
Eigen::Isometry3d trans(double x, double y, double z) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = Eigen::Vector3d(x, y, z);
  return t;
}

std::string fmt(double x) {
  std::ostringstream o;
  o.precision(6);
  o << x;
  return o.str();
}

void check_inertial(const Joint& j, std::vector<std::string>& out) {
  const Inertial& in = j.inertial;
  const std::string who = "joint '" + j.name + "' (link '" + j.link + "'): ";
  if (!(in.mass >= 0) || !std::isfinite(in.mass))
    out.push_back(who + "mass " + fmt(in.mass) + " kg is not a non-negative number");
  if (!in.com.allFinite()) out.push_back(who + "centre of mass is not finite");
  if (!in.inertia.allFinite() ||
      (in.inertia - in.inertia.transpose()).norm() > 1e-12 * (1 + in.inertia.norm())) {
    out.push_back(who + "inertia is not a finite symmetric matrix");
    return;
  }
  const Eigen::Vector3d e =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(in.inertia).eigenvalues();
  const double tol = 1e-12 * (1 + e.cwiseAbs().maxCoeff());
  if (e.minCoeff() < -tol)
    out.push_back(who + "inertia is not positive semi-definite (eigenvalue " + fmt(e.minCoeff()) +
                  " kg m^2)");
  else if (e(0) + e(1) < e(2) - tol)
    out.push_back(who + "principal moments " + fmt(e(0)) + ", " + fmt(e(1)) + ", " + fmt(e(2)) +
                  " kg m^2 violate the triangle inequality (no rigid body has them)");
}

}  // namespace

int RobotModel::find(const std::string& joint_name) const {
  for (int i = 0; i < dof(); ++i)
    if (joints[static_cast<std::size_t>(i)].name == joint_name) return i;
  return -1;
}

Inertial transform(const Inertial& in, const Eigen::Isometry3d& F_in_G) {
  const Eigen::Matrix3d R = F_in_G.linear();
  return {in.mass, F_in_G * in.com, R * in.inertia * R.transpose()};
}

Inertial combine(const Inertial& a, const Inertial& b) {
  const double m = a.mass + b.mass;
  if (m == 0) return {0, Eigen::Vector3d::Zero(), a.inertia + b.inertia};
  const Eigen::Vector3d c = (a.mass * a.com + b.mass * b.com) / m;
  return {m, c, shifted(a.inertia, a.mass, a.com - c) + shifted(b.inertia, b.mass, b.com - c)};
}

InertialParameters standard_parameters(const Inertial& in) {
  const Eigen::Matrix3d I = shifted(in.inertia, in.mass, in.com);
  const Eigen::Vector3d h = in.mass * in.com;
  InertialParameters p;
  p << in.mass, h.x(), h.y(), h.z(), I(0, 0), I(0, 1), I(0, 2), I(1, 1), I(1, 2), I(2, 2);
  return p;
}

Inertial from_standard_parameters(const InertialParameters& p) {
  Inertial in;
  in.mass = p(0);
  in.com = in.mass == 0 ? Eigen::Vector3d(Eigen::Vector3d::Zero())
                        : Eigen::Vector3d(Eigen::Vector3d(p(1), p(2), p(3)) / in.mass);
  Eigen::Matrix3d I;
  I << p(4), p(5), p(6), p(5), p(7), p(8), p(6), p(8), p(9);
  // I about the origin = Ic + m (c.c 1 - c c^T) = Ic - m skew(c)^2.
  in.inertia = I + in.mass * skew(in.com) * skew(in.com);
  return in;
}

std::vector<std::string> check(const RobotModel& model) {
  std::vector<std::string> out;
  for (int i = 0; i < model.dof(); ++i) {
    const Joint& j = model.joints[static_cast<std::size_t>(i)];
    if (j.parent >= i || j.parent < -1)
      out.push_back("joint '" + j.name + "': its parent comes after it (index " +
                    std::to_string(j.parent) + " of " + std::to_string(i) + ")");
    if (!j.axis.allFinite() || std::abs(j.axis.norm() - 1) > 1e-9)
      out.push_back("joint '" + j.name + "': axis is not a unit vector");
    if (!j.origin.matrix().allFinite())
      out.push_back("joint '" + j.name + "': origin is not finite");
    if (j.limits.lower > j.limits.upper)
      out.push_back("joint '" + j.name + "': lower limit " + fmt(j.limits.lower) +
                    " above upper limit " + fmt(j.limits.upper));
    if (!(j.armature >= 0)) out.push_back("joint '" + j.name + "': armature is negative");
    check_inertial(j, out);
  }
  if (!model.gravity.allFinite()) out.push_back("gravity is not finite");
  return out;
}

RobotModel from_dh(const std::vector<DhRow>& rows, DhConvention convention,
                   const std::vector<Inertial>& inertials) {
  RobotModel m;
  m.base = "link0";
  // `pending` places the next joint's frame in the frame of the last joint (or the base).
  Eigen::Isometry3d pending = Eigen::Isometry3d::Identity();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const DhRow& r = rows[k];
    const Inertial in = k < inertials.size() ? inertials[k] : Inertial{};
    // Row k as (before the motion) * Motion(z, q) * (after the motion).
    const bool modified = convention == DhConvention::modified;
    const Eigen::Isometry3d before =
        modified ? rot_x(r.alpha) * trans(r.a, 0, 0) : Eigen::Isometry3d::Identity();
    const Eigen::Isometry3d after =
        modified ? rot_z(r.theta) * trans(0, 0, r.d)
                 : rot_z(r.theta) * trans(0, 0, r.d) * trans(r.a, 0, 0) * rot_x(r.alpha);
    if (r.fixed) {
      // A row without a joint variable: its frame (and link) are fixed to the last joint.
      const Eigen::Isometry3d frame = pending * before * after;
      if (!m.joints.empty())
        m.joints.back().inertial = combine(m.joints.back().inertial, transform(in, frame));
      pending = frame;
      continue;
    }
    Joint j;
    j.name = r.joint.empty() ? "joint" + std::to_string(k + 1) : r.joint;
    j.type = r.type;
    j.parent = static_cast<int>(m.joints.size()) - 1;
    j.link = "link" + std::to_string(k + 1);
    j.origin = pending * before;
    j.axis = Eigen::Vector3d::UnitZ();
    // The link's frame (DH frame k) is `after` in the joint's frame; a prismatic row's theta and
    // a revolute row's d both commute with the motion along z.
    j.inertial = transform(in, after);
    m.joints.push_back(j);
    pending = after;
  }
  return m;
}

}  // namespace frictionlab::robot
