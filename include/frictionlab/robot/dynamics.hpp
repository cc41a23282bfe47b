// frictionlab robot: inverse dynamics of a rigid-body tree by the recursive Newton-Euler
// algorithm, and its identification regressor, linear in the links' standard inertial
// parameters (robot/model.hpp; Khalil and Dombre, "Modeling, Identification and Control of
// Robots", ch. 9 and 12; Atkeson, An and Hollerbach, IJRR 5(3), 1986).
//
//   tau = M(q) qdd + C(q, qd) qd + g(q) = Y(q, qd, qdd) pi,   pi = [pi_1; ...; pi_n], pi_i in R^10
//
// Templated on the scalar S (double, ceres::Jet); the workspace is allocated once by the
// constructor, so that a call allocates nothing.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstddef>
#include <vector>

#include "frictionlab/robot/model.hpp"

namespace frictionlab::robot {

template <class S>
class RigidBodyDynamics {
 public:
  using Vec3 = Eigen::Matrix<S, 3, 1>;
  using Mat3 = Eigen::Matrix<S, 3, 3>;

  explicit RigidBodyDynamics(const RobotModel& m) : n_(m.dof()), links_(n_), frames_(n_) {
    for (int i = 0; i < n_; ++i) {
      const Joint& j = m.joints[idx(i)];
      Link& l = links_[idx(i)];
      l.parent = j.parent;
      l.prismatic = j.type == JointType::prismatic;
      l.R0 = j.origin.linear().cast<S>();
      l.p0 = j.origin.translation().cast<S>();
      l.axis = j.axis.cast<S>();
    }
    gravity_ = m.gravity.cast<S>();
  }

  int dof() const { return n_; }

  /// tau [n] of the rigid bodies with standard parameters `pi` [10 n] at q, qd, qdd [n].
  void inverse_dynamics(const S* q, const S* qd, const S* qdd, const S* pi, S* tau) {
    forward_pass(q, qd, qdd);
    for (int i = n_ - 1; i >= 0; --i) {
      Frame& f = frames_[idx(i)];
      const S* p = pi + 10 * i;
      const S m = p[0];
      const Vec3 h(p[1], p[2], p[3]);
      Mat3 I;
      I << p[4], p[5], p[6], p[5], p[7], p[8], p[6], p[8], p[9];
      f.force += m * f.a + f.dw.cross(h) + f.w.cross(f.w.cross(h));
      f.moment += I * f.dw + f.w.cross(I * f.w) + h.cross(f.a);
      const Link& l = links_[idx(i)];
      tau[i] = l.prismatic ? l.axis.dot(f.force) : l.axis.dot(f.moment);
      if (l.parent >= 0) {
        Frame& pf = frames_[idx(l.parent)];
        const Vec3 fp = f.R * f.force;
        pf.force += fp;
        pf.moment += f.R * f.moment + f.p.cross(fp);
      }
    }
  }

  /// Y (n x 10 n, column-major, leading dimension n) with tau = Y pi, at q, qd, qdd.
  template <class Derived>
  void regressor(const S* q, const S* qd, const S* qdd, Eigen::MatrixBase<Derived>& Y) {
    forward_pass(q, qd, qdd);
    Y.setZero();
    for (int i = 0; i < n_; ++i) {
      const Frame& f = frames_[idx(i)];
      // The wrench of link i alone, per unit parameter, in frame i.
      Eigen::Matrix<S, 3, 10> F = Eigen::Matrix<S, 3, 10>::Zero();
      Eigen::Matrix<S, 3, 10> N = Eigen::Matrix<S, 3, 10>::Zero();
      F.col(0) = f.a;
      F.template block<3, 3>(0, 1) = skew(f.dw) + skew(f.w) * skew(f.w);
      N.template block<3, 3>(0, 1) = -skew(f.a);
      N.template block<3, 6>(0, 4) = inertia_map(f.dw) + skew(f.w) * inertia_map(f.w);
      // Carried to every joint from i to the root, each taking its axis' component.
      for (int j = i; j >= 0; j = links_[idx(j)].parent) {
        const Link& l = links_[idx(j)];
        Y.template block<1, 10>(j, 10 * i) = l.axis.transpose() * (l.prismatic ? F : N);
        if (l.parent < 0) break;
        const Frame& fj = frames_[idx(j)];
        const Eigen::Matrix<S, 3, 10> Fp = fj.R * F;
        N = fj.R * N + skew(fj.p) * Fp;
        F = Fp;
      }
    }
  }

 private:
  struct Link {
    int parent = -1;
    bool prismatic = false;
    Mat3 R0;
    Vec3 p0, axis;
  };
  /// Joint i's frame at the current sample: its placement in the parent's frame (R, p), its
  /// angular velocity w and acceleration dw, the linear acceleration a of its origin (gravity
  /// included as an acceleration of the base), all in its own coordinates, and the wrench
  /// (force, moment about the origin) the backward pass accumulates.
  struct Frame {
    Mat3 R;
    Vec3 p, w, dw, a, force, moment;
  };

  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }

  static Mat3 skew(const Vec3& v) {
    Mat3 s;
    s << S(0), -v.z(), v.y(), v.z(), S(0), -v.x(), -v.y(), v.x(), S(0);
    return s;
  }
  /// L(w) with I w = L(w) [Ixx Ixy Ixz Iyy Iyz Izz]^T.
  static Eigen::Matrix<S, 3, 6> inertia_map(const Vec3& w) {
    Eigen::Matrix<S, 3, 6> L = Eigen::Matrix<S, 3, 6>::Zero();
    L(0, 0) = w.x(), L(0, 1) = w.y(), L(0, 2) = w.z();
    L(1, 1) = w.x(), L(1, 3) = w.y(), L(1, 4) = w.z();
    L(2, 2) = w.x(), L(2, 4) = w.y(), L(2, 5) = w.z();
    return L;
  }

  /// Placements, velocities and accelerations from the base to the tips; wrenches zeroed.
  void forward_pass(const S* q, const S* qd, const S* qdd) {
    for (int i = 0; i < n_; ++i) {
      const Link& l = links_[idx(i)];
      Frame& f = frames_[idx(i)];
      place(l, q[i], f);
      const Vec3 w_p = l.parent < 0 ? Vec3::Zero() : frames_[idx(l.parent)].w;
      const Vec3 dw_p = l.parent < 0 ? Vec3::Zero() : frames_[idx(l.parent)].dw;
      const Vec3 a_p = l.parent < 0 ? Vec3(-gravity_) : frames_[idx(l.parent)].a;
      const Vec3 w_in = f.R.transpose() * w_p;
      f.a = f.R.transpose() * (a_p + dw_p.cross(f.p) + w_p.cross(w_p.cross(f.p)));
      if (l.prismatic) {
        f.w = w_in;
        f.dw = f.R.transpose() * dw_p;
        f.a += S(2) * f.w.cross(l.axis * qd[i]) + l.axis * qdd[i];
      } else {
        f.w = w_in + l.axis * qd[i];
        f.dw = f.R.transpose() * dw_p + w_in.cross(l.axis * qd[i]) + l.axis * qdd[i];
      }
      f.force.setZero();
      f.moment.setZero();
    }
  }

  /// X_{parent,i}(q) = origin * Motion(axis, q).
  static void place(const Link& l, const S& q, Frame& f) {
    if (l.prismatic) {
      f.R = l.R0;
      f.p = l.p0 + l.R0 * (l.axis * q);
    } else {
      f.R = l.R0 * Eigen::AngleAxis<S>(q, l.axis).toRotationMatrix();
      f.p = l.p0;
    }
  }

  int n_;
  std::vector<Link> links_;
  std::vector<Frame> frames_;
  Vec3 gravity_;
};

}  // namespace frictionlab::robot
