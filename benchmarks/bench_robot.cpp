// The robot layer per sample on the Panda (../shared/data/robot_panda/panda_dh.json, 7 joints,
// made-up link inertials): inverse dynamics, the 7 x 70 identification regressor, and KDL's
// ChainIdSolver_RNE on the same chain; and the whole identification of the Panda record
// (../shared/data/robot_panda/excitation_1.csv: reading, resampling, filtering, base, least
// squares, statistics; with the consistent inertials; with Stribeck friction per joint) and the
// excitation design (docs/benchmarks.md, "Robot arms").
#include <benchmark/benchmark.h>
#include <kdl/chain.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include <Eigen/Dense>
#include <random>

#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "frictionlab/workflows/robot.hpp"

using namespace frictionlab;

namespace {

struct Panda {
  robot::RobotModel model;
  Eigen::VectorXd pi;
  std::vector<Eigen::VectorXd> q, qd, qdd;  ///< 1024 random states
};

const Panda& panda() {
  static const Panda p = [] {
    Panda out;
    out.model = io::read_robot(std::string(FRICTIONLAB_SOURCE_DIR) +
                               "/../shared/data/robot_panda/panda_dh.json")
                    .model;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1, 1);
    out.pi.resize(70);
    for (auto& j : out.model.joints) {
      j.inertial.mass = 2 + u(rng);
      j.inertial.com = 0.05 * Eigen::Vector3d(u(rng), u(rng), u(rng));
      j.inertial.inertia = Eigen::Vector3d(0.02, 0.03, 0.04).asDiagonal();
    }
    for (int i = 0; i < 7; ++i)
      out.pi.segment<10>(10 * i) =
          robot::standard_parameters(out.model.joints[static_cast<std::size_t>(i)].inertial);
    for (int k = 0; k < 1024; ++k) {
      out.q.push_back(2 * Eigen::VectorXd::Random(7));
      out.qd.push_back(Eigen::VectorXd::Random(7));
      out.qdd.push_back(5 * Eigen::VectorXd::Random(7));
    }
    return out;
  }();
  return p;
}

void BM_InverseDynamics(benchmark::State& state) {
  const Panda& p = panda();
  robot::RigidBodyDynamics<double> dyn(p.model);
  Eigen::VectorXd tau(7);
  std::size_t k = 0;
  for (auto _ : state) {
    dyn.inverse_dynamics(p.q[k].data(), p.qd[k].data(), p.qdd[k].data(), p.pi.data(), tau.data());
    benchmark::DoNotOptimize(tau.data());
    k = (k + 1) & 1023;
  }
  state.counters["per_joint_sample_ns"] =
      benchmark::Counter(7.0 * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_InverseDynamics);

void BM_Regressor(benchmark::State& state) {
  const Panda& p = panda();
  robot::RigidBodyDynamics<double> dyn(p.model);
  Eigen::Matrix<double, 7, 70> Y;
  std::size_t k = 0;
  for (auto _ : state) {
    dyn.regressor(p.q[k].data(), p.qd[k].data(), p.qdd[k].data(), Y);
    benchmark::DoNotOptimize(Y.data());
    k = (k + 1) & 1023;
  }
  state.counters["per_joint_sample_ns"] =
      benchmark::Counter(7.0 * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Regressor);

void BM_KdlInverseDynamics(benchmark::State& state) {
  const Panda& p = panda();
  KDL::Chain chain;
  for (const auto& j : p.model.joints) {
    const Eigen::Matrix3d R = j.origin.linear();
    const Eigen::Vector3d t = j.origin.translation();
    const KDL::Frame origin(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2),
                                          R(2, 0), R(2, 1), R(2, 2)),
                            KDL::Vector(t.x(), t.y(), t.z()));
    const auto& in = j.inertial;
    const KDL::RigidBodyInertia I(
        in.mass, KDL::Vector(in.com.x(), in.com.y(), in.com.z()),
        KDL::RotationalInertia(in.inertia(0, 0), in.inertia(1, 1), in.inertia(2, 2), 0, 0, 0));
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), origin));
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ), KDL::Frame::Identity(), I));
  }
  KDL::ChainIdSolver_RNE solver(chain, KDL::Vector(0, 0, -9.80665));
  KDL::JntArray q(7), qd(7), qdd(7), tau(7);
  KDL::Wrenches f(chain.getNrOfSegments(), KDL::Wrench::Zero());
  std::size_t k = 0;
  for (auto _ : state) {
    q.data = p.q[k];
    qd.data = p.qd[k];
    qdd.data = p.qdd[k];
    solver.CartToJnt(q, qd, qdd, f, tau);
    benchmark::DoNotOptimize(tau.data.data());
    k = (k + 1) & 1023;
  }
  state.counters["per_joint_sample_ns"] =
      benchmark::Counter(7.0 * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_KdlInverseDynamics);

const std::string kPandaDir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/robot_panda/";

/// The whole fit-robot workflow on the Panda record, from the files: arg 0 linear friction,
/// 1 with the consistent inertials, 2 Stribeck friction per joint, 3 load-dependent Coulomb
/// levels (10 Hz low-pass given).
void BM_FitPandaRecord(benchmark::State& state) {
  workflows::FitRobotOptions o;
  o.preprocess.resample_rate = 1000;
  o.preprocess.lowpass_cutoff = 10;
  o.choose_lowpass = false;
  o.consistent = state.range(0) == 1;
  if (state.range(0) == 2) o.friction = "stribeck";
  o.fit.load = state.range(0) == 3;
  for (auto _ : state) {
    const io::RobotDescription robot = io::read_robot(kPandaDir + "panda_dh.json");
    std::vector<std::string> names;
    for (const auto& j : robot.model.joints) names.push_back(j.name);
    const data::ArmRecord record = io::read_arm_record(kPandaDir + "excitation_1.csv", names);
    benchmark::DoNotOptimize(workflows::fit_robot(robot.model, record, o));
  }
}
BENCHMARK(BM_FitPandaRecord)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

/// excite on the Panda's limits: T = 13.33 s, 5 harmonics, 3000 evaluations, 2 threads.
void BM_ExcitePanda(benchmark::State& state) {
  const robot::RobotModel m = io::read_robot(kPandaDir + "panda_dh.json").model;
  identify::ExcitationOptions o;
  o.period = 2 / 0.15;
  o.threads = 2;
  for (auto _ : state) benchmark::DoNotOptimize(identify::design_excitation(m, o));
}
BENCHMARK(BM_ExcitePanda)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
