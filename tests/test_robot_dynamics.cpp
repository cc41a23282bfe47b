// The robot layer's inverse dynamics and regressor (robot/dynamics.hpp) and the descriptions it
// is read from (io/robot_description.hpp), against an independent engine: KDL's
// ChainIdSolver_RNE (Debian liborocos-kdl-dev), its chains built here from the same DH table or
// URDF (urdfdom) by KDL's own conventions, not through frictionlab's conversions.
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>
#include <kdl/chain.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include <Eigen/Dense>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/robot/dynamics.hpp"

namespace fs = std::filesystem;
using namespace frictionlab;

namespace {

const fs::path kData = fs::path(FRICTIONLAB_SOURCE_DIR) / ".." / "shared" / "data";

/// A random rigid body: mass 0.5-5 kg, centre of mass within 0.2 m, principal moments that
/// satisfy the triangle inequality, random principal axes.
robot::Inertial random_inertial(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  robot::Inertial in;
  in.mass = 0.5 + 4.5 * u(rng);
  in.com = 0.2 * Eigen::Vector3d(2 * u(rng) - 1, 2 * u(rng) - 1, 2 * u(rng) - 1);
  const double a = 0.01 + 0.1 * u(rng), b = 0.01 + 0.1 * u(rng);
  const double c = std::abs(a - b) + u(rng) * (a + b - std::abs(a - b));
  const Eigen::Matrix3d R =
      Eigen::Quaterniond(Eigen::Vector4d::Random().normalized()).toRotationMatrix();
  in.inertia = R * Eigen::Vector3d(a, b, c).asDiagonal() * R.transpose();
  return in;
}

KDL::RigidBodyInertia to_kdl(const robot::Inertial& in) {
  const Eigen::Matrix3d& I = in.inertia;
  return KDL::RigidBodyInertia(
      in.mass, KDL::Vector(in.com.x(), in.com.y(), in.com.z()),
      KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)));
}

/// The Panda's modified DH rows (../shared/data/robot_panda/panda_dh.json), as numbers.
struct DhNumbers {
  double a, d, alpha;
};
const std::vector<DhNumbers> kPandaDh = {
    {0, 0.333, 0},         {0, 0, -M_PI / 2},           {0, 0.316, M_PI / 2},
    {0.0825, 0, M_PI / 2}, {-0.0825, 0.384, -M_PI / 2}, {0, 0, M_PI / 2},
    {0.088, 0, M_PI / 2}};

/// KDL chain of a modified-DH arm: per row, a fixed segment RotX(alpha) TransX(a), then the
/// joint's segment RotZ(q) followed by TransZ(d), its link's inertia in that tip frame.
KDL::Chain kdl_modified_dh(const std::vector<DhNumbers>& rows,
                           const std::vector<robot::Inertial>& links) {
  KDL::Chain chain;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    chain.addSegment(
        KDL::Segment(KDL::Joint(KDL::Joint::None),
                     KDL::Frame(KDL::Rotation::RotX(rows[k].alpha), KDL::Vector(rows[k].a, 0, 0))));
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ),
                                  KDL::Frame(KDL::Vector(0, 0, rows[k].d)), to_kdl(links[k])));
  }
  return chain;
}

/// KDL chain of a standard-DH arm: RotZ(q) then Frame::DH(a, alpha, d, theta).
KDL::Chain kdl_standard_dh(const std::vector<DhNumbers>& rows,
                           const std::vector<robot::Inertial>& links) {
  KDL::Chain chain;
  for (std::size_t k = 0; k < rows.size(); ++k)
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ),
                                  KDL::Frame::DH(rows[k].a, rows[k].alpha, rows[k].d, 0),
                                  to_kdl(links[k])));
  return chain;
}

KDL::Frame to_kdl(const urdf::Pose& p) {
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  return KDL::Frame(KDL::Rotation::Quaternion(x, y, z, w),
                    KDL::Vector(p.position.x, p.position.y, p.position.z));
}

/// KDL chain from a URDF's path root -> tip, built as kdl_parser builds it: each joint a segment
/// whose joint sits at the origin, with the axis in the parent's frame, its tip the origin, the
/// child link's inertia (cog frame moved into the link frame).
KDL::Chain kdl_from_urdf(const std::string& xml, const std::string& tip) {
  const auto model = urdf::parseURDF(xml);
  std::vector<urdf::JointSharedPtr> path;
  for (auto link = model->getLink(tip); link->parent_joint;
       link = model->getLink(link->parent_joint->parent_link_name))
    path.insert(path.begin(), link->parent_joint);
  KDL::Chain chain;
  for (const auto& j : path) {
    const KDL::Frame origin = to_kdl(j->parent_to_joint_origin_transform);
    const KDL::Vector axis = origin.M * KDL::Vector(j->axis.x, j->axis.y, j->axis.z);
    KDL::Joint kj(j->name, KDL::Joint::Fixed);
    if (j->type == urdf::Joint::REVOLUTE || j->type == urdf::Joint::CONTINUOUS)
      kj = KDL::Joint(j->name, origin.p, axis, KDL::Joint::RotAxis);
    else if (j->type == urdf::Joint::PRISMATIC)
      kj = KDL::Joint(j->name, origin.p, axis, KDL::Joint::TransAxis);
    KDL::RigidBodyInertia I = KDL::RigidBodyInertia::Zero();
    if (const auto in = model->getLink(j->child_link_name)->inertial)
      I = to_kdl(in->origin) *
          KDL::RigidBodyInertia(
              in->mass, KDL::Vector::Zero(),
              KDL::RotationalInertia(in->ixx, in->iyy, in->izz, in->ixy, in->ixz, in->iyz));
    chain.addSegment(KDL::Segment(j->child_link_name, kj, origin, I));
  }
  return chain;
}

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct State {
  Eigen::VectorXd q, qd, qdd;
};
State random_state(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  State s{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    s.q(i) = 3 * u(rng);
    s.qd(i) = 2 * u(rng);
    s.qdd(i) = 10 * u(rng);
  }
  return s;
}

Eigen::VectorXd kdl_torques(const KDL::Chain& chain, const State& s, const Eigen::Vector3d& g) {
  const unsigned n = chain.getNrOfJoints();
  KDL::JntArray q(n), qd(n), qdd(n), tau(n);
  q.data = s.q;
  qd.data = s.qd;
  qdd.data = s.qdd;
  KDL::Wrenches f_ext(chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::ChainIdSolver_RNE solver(chain, KDL::Vector(g.x(), g.y(), g.z()));
  EXPECT_GE(solver.CartToJnt(q, qd, qdd, f_ext, tau), 0);
  return tau.data;
}

Eigen::VectorXd standard_parameters(const robot::RobotModel& m) {
  Eigen::VectorXd pi(10 * m.dof());
  for (int i = 0; i < m.dof(); ++i)
    pi.segment<10>(10 * i) =
        robot::standard_parameters(m.joints[static_cast<std::size_t>(i)].inertial);
  return pi;
}

Eigen::VectorXd rnea(const robot::RobotModel& m, const State& s) {
  robot::RigidBodyDynamics<double> dyn(m);
  const Eigen::VectorXd pi = standard_parameters(m);
  Eigen::VectorXd tau(m.dof());
  dyn.inverse_dynamics(s.q.data(), s.qd.data(), s.qdd.data(), pi.data(), tau.data());
  return tau;
}

double relative(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / b.norm();
}

/// n link inertials drawn from rng (random_inertial), in order.
std::vector<robot::Inertial> random_links(int n, std::mt19937& rng) {
  std::vector<robot::Inertial> links;
  for (int k = 0; k < n; ++k) links.push_back(random_inertial(rng));
  return links;
}

/// The rows of a DH table: unnamed revolute joints, theta 0.
std::vector<robot::DhRow> dh_rows(const std::vector<DhNumbers>& table) {
  std::vector<robot::DhRow> rows;
  for (const auto& r : table) rows.push_back({"", r.a, r.d, r.alpha, 0});
  return rows;
}

/// The largest relative difference between rnea(m) and KDL's torques of `chain` over 50 random
/// states drawn from rng.
double worst_against_kdl(const robot::RobotModel& m, const KDL::Chain& chain, std::mt19937& rng) {
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const State s = random_state(m.dof(), rng);
    worst = std::max(worst, relative(rnea(m, s), kdl_torques(chain, s, m.gravity)));
  }
  return worst;
}

}  // namespace

TEST(RobotDynamics, PandaModifiedDhMatchesKdl) {
  std::mt19937 rng(7);
  const std::vector<robot::Inertial> links = random_links(7, rng);
  const robot::RobotModel m =
      robot::from_dh(dh_rows(kPandaDh), robot::DhConvention::modified, links);
  ASSERT_TRUE(robot::check(m).empty());
  ASSERT_EQ(m.dof(), 7);
  EXPECT_LT(worst_against_kdl(m, kdl_modified_dh(kPandaDh, links), rng), 1e-12);
}

TEST(RobotDynamics, StandardDhMatchesKdl) {
  std::mt19937 rng(11);
  const std::vector<DhNumbers> ur = {{0, 0.1807, M_PI / 2},   {-0.6127, 0, 0},
                                     {-0.57155, 0, 0},        {0, 0.17415, M_PI / 2},
                                     {0, 0.11985, -M_PI / 2}, {0, 0.11655, 0}};
  const std::vector<robot::Inertial> links = random_links(6, rng);
  const robot::RobotModel m = robot::from_dh(dh_rows(ur), robot::DhConvention::standard, links);
  ASSERT_EQ(m.dof(), 6);
  EXPECT_LT(worst_against_kdl(m, kdl_standard_dh(ur, links), rng), 1e-12);
}

TEST(RobotDynamics, Ur10eUrdfMatchesKdl) {
  const fs::path urdf = kData / "robot_ur10e" / "ur10e.urdf";
  const io::RobotDescription d = io::read_urdf(urdf.string());
  ASSERT_EQ(d.model.dof(), 6);
  EXPECT_EQ(d.model.joints.front().name, "shoulder_pan_joint");
  EXPECT_EQ(d.model.joints.back().name, "wrist_3_joint");
  const KDL::Chain chain = kdl_from_urdf(read(urdf), "tool0");
  ASSERT_EQ(chain.getNrOfJoints(), 6u);
  std::mt19937 rng(3);
  EXPECT_LT(worst_against_kdl(d.model, chain, rng), 1e-9);
}

TEST(RobotDynamics, RegressorTimesParametersIsTheInverseDynamics) {
  const io::RobotDescription d = io::read_urdf((kData / "robot_ur10e" / "ur10e.urdf").string());
  std::mt19937 rng(5);
  const std::vector<robot::Inertial> links = random_links(7, rng);
  std::vector<robot::DhRow> rows = dh_rows(kPandaDh);
  rows[2].type = robot::JointType::prismatic;  // a prismatic joint in the middle of the chain
  const robot::RobotModel panda = robot::from_dh(rows, robot::DhConvention::modified, links);
  for (const robot::RobotModel* m : {&d.model, &panda}) {
    robot::RigidBodyDynamics<double> dyn(*m);
    const Eigen::VectorXd pi = standard_parameters(*m);
    Eigen::MatrixXd Y(m->dof(), 10 * m->dof());
    for (int trial = 0; trial < 20; ++trial) {
      const State s = random_state(m->dof(), rng);
      dyn.regressor(s.q.data(), s.qd.data(), s.qdd.data(), Y);
      EXPECT_LT(relative(Y * pi, rnea(*m, s)), 1e-12);
    }
  }
}

TEST(RobotDynamics, FixedJointsAreMergedIntoTheMovingLink) {
  // A two-joint arm whose second link carries a tool on a fixed joint, rotated and offset.
  const std::string xml = R"(<robot name="two">
  <link name="base"/>
  <link name="l1"><inertial><origin xyz="0.1 0 0.2" rpy="0.1 0.2 0.3"/><mass value="2"/>
    <inertia ixx="0.03" ixy="0.001" ixz="0" iyy="0.02" iyz="0.002" izz="0.04"/></inertial></link>
  <link name="l2"><inertial><origin xyz="0 0.3 0"/><mass value="1.5"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.012" iyz="0" izz="0.015"/></inertial></link>
  <link name="tool"><inertial><origin xyz="0.05 0 0.02" rpy="0.5 0 0"/><mass value="0.8"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.003" iyz="0" izz="0.004"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="10" velocity="2"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.3 0 0.1" rpy="1.5707963 0 0"/><axis xyz="0 1 1"/>
    <dynamics damping="0.7" friction="1.2"/></joint>
  <joint name="mount" type="fixed"><parent link="l2"/><child link="tool"/>
    <origin xyz="0 0.6 0" rpy="0 0.3 0"/></joint>
</robot>)";
  const io::RobotDescription d = io::parse_urdf(xml, "two.urdf");
  ASSERT_EQ(d.model.dof(), 2);
  EXPECT_NEAR(d.model.joints[1].inertial.mass, 2.3, 1e-15);
  EXPECT_NEAR(d.model.joints[1].axis.norm(), 1, 1e-15);
  EXPECT_EQ(d.model.joints[0].limits.upper, 3);
  EXPECT_TRUE(std::isinf(d.model.joints[1].limits.upper));  // continuous
  EXPECT_EQ(d.urdf_friction[1], 1.2);
  EXPECT_EQ(d.urdf_damping[1], 0.7);
  const KDL::Chain chain = kdl_from_urdf(xml, "tool");
  std::mt19937 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    const State s = random_state(2, rng);
    EXPECT_LT(relative(rnea(d.model, s), kdl_torques(chain, s, d.model.gravity)), 1e-12);
  }
}

TEST(RobotDescription, ReadsThePandaTable) {
  const io::RobotDescription d = io::read_robot((kData / "robot_panda" / "panda_dh.json").string());
  ASSERT_EQ(d.model.dof(), 7);  // the flange row is fixed
  EXPECT_EQ(d.model.joints[0].name, "q1");
  EXPECT_EQ(d.model.joints[3].limits.upper, -0.0698);
  EXPECT_EQ(d.model.joints[6].limits.velocity, 2.61);
  EXPECT_EQ(d.model.joints[6].limits.acceleration, 20);
  EXPECT_EQ(d.model.gravity.z(), -9.80665);
  // Frame 7's origin at q = 0 is where the DH table puts it: x = a4 - a5 + a7... in the base.
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  for (const auto& j : d.model.joints) T = T * j.origin;
  EXPECT_NEAR(T.translation().x(), 0.0825 - 0.0825 + 0.088, 1e-12);
  EXPECT_NEAR(T.translation().z(), 0.333 + 0.316 + 0.384, 1e-12);
}

TEST(RobotDescription, ErrorsNameTheFileAndTheProblem) {
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const io::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] {
              io::parse_urdf(
                  "<robot name='x'><link name='a'/><link name='b'/>"
                  "<joint name='free' type='floating'><parent link='a'/>"
                  "<child link='b'/></joint></robot>",
                  "f.urdf");
            }).find("f.urdf: joint 'free' is floating"),
            std::string::npos);
  EXPECT_NE(
      message([] { io::parse_urdf("<robot", "bad.urdf"); }).find("bad.urdf: not a valid URDF"),
      std::string::npos);
  EXPECT_NE(message([] {
              io::parse_robot_json(R"({"convention": "modified", "rows": [{"a": 0, "lenght": 1}]})",
                                   "r.json");
            }).find("r.json"),
            std::string::npos);
  EXPECT_NE(message([] {
              io::parse_robot_json(R"({"convention": "craig", "rows": [{"a": 0}]})", "r.json");
            }).find("convention"),
            std::string::npos);
  EXPECT_NE(message([] { io::read_robot("arm.yaml"); }).find("expected a .urdf"),
            std::string::npos);
  const std::string negative_mass = R"(<robot name="x"><link name="a"/>
    <link name="b"><inertial><mass value="-1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)";
  const std::string m = message([&] { io::parse_urdf(negative_mass, "neg.urdf"); });
  EXPECT_TRUE(m.find("neg.urdf") != std::string::npos && m.find("mass") != std::string::npos) << m;
}
