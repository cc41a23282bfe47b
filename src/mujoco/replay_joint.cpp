// frictionlab mujoco: a joint fit replayed on its records in MuJoCo
// (include/frictionlab/mujoco/replay.hpp, replay_joint_records).
#include <mujoco/mujoco.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "bench.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/mujoco/replay.hpp"

namespace frictionlab::mujoco {
namespace {

constexpr double kGravity = 9.80665;  // [m/s^2], pendulum_bench_mjcf's

/// The pendulum whose MuJoCo dynamics are the joint model's rigid body (replay.hpp): the mass
/// and length of the point mass, its angle phi from hanging down [rad], and whether gravity acts.
struct JointPendulum {
  sim::PendulumBench bench{};
  double phi = 0.0;
  bool gravity = true;
};

JointPendulum pendulum_of(const sim::JointModel& joint) {
  const double mgc = joint.structure.gravity ? std::hypot(joint.mgCx, joint.mgCy) : 0.0;
  JointPendulum p;
  if (mgc > 0) {
    p.bench.mass = mgc * mgc / (kGravity * kGravity * joint.I);  // m L^2 = I, m g L = mgc
    p.bench.length = kGravity * joint.I / mgc;
    p.phi = std::atan2(joint.mgCx, -joint.mgCy);
  } else {
    p.bench.mass = joint.I;
    p.bench.length = 1.0;
    p.gravity = false;
  }
  return p;
}

/// The bench around the joint element `joint_xml` at MuJoCo's timestep `h` [s].
ModelPtr load_bench(const JointPendulum& p, const std::string& joint_xml, double h,
                    const std::string& what) {
  ModelPtr m = load_text(pendulum_bench_mjcf(p.bench, p.phi, h, joint_xml, ""), what);
  if (!p.gravity) m->opt.gravity[2] = 0.0;
  return m;
}

/// The record replayed in `m` (joint 0) driven by its torque (qfrc_applied, a load dependence's
/// load) and the model's constant torque -offset (a torque on the pendulum's body about the
/// hinge, xfrc_applied: not part of the load, as in the joint model); `restart(k0)` runs
/// at each restart, after MuJoCo's state is the record's at sample k0, and `before_step(k, a)`
/// before each step, at the fraction a of the interval from sample k. The mean |q_sim - q|.
template <class Restart, class BeforeStep>
double replay_mae(mjModel& m, const identify::JointData& d, double offset, double horizon_s,
                  double max_step, Restart restart, BeforeStep before_step) {
  DataPtr data(mj_makeData(&m));
  double sum = 0;
  for (std::size_t k0 = 0; k0 + 1 < d.size();) {
    const std::size_t k1 = identify::horizon_end(d, k0, horizon_s);
    mj_resetData(&m, data.get());
    data->qpos[0] = d.q[k0];
    data->qvel[0] = d.qd[k0];
    data->time = d.t[k0];
    const int body = m.jnt_bodyid[0];  // the bench's hinge axis is fixed in the world
    for (int i = 0; i < 3; ++i) data->xfrc_applied[6 * body + 3 + i] = -offset * m.jnt_axis[i];
    restart(k0);
    for (std::size_t k = k0; k < k1; ++k) {
      const double interval = d.t[k + 1] - d.t[k];
      const long sub = std::max(1L, static_cast<long>(std::ceil(interval / max_step - 1e-9)));
      m.opt.timestep = interval / static_cast<double>(sub);
      for (long s = 0; s < sub; ++s) {
        const double a = (static_cast<double>(s) + 0.5) / static_cast<double>(sub);
        data->qfrc_applied[0] = (1 - a) * d.tau[k] + a * d.tau[k + 1];
        before_step(k, a);
        mj_step(&m, data.get());
      }
      // the restart sample belongs to the next simulation (its error is 0 there)
      if (k + 1 < k1 || k1 + 1 == d.size()) sum += std::abs(data->qpos[0] - d.q[k + 1]);
    }
    k0 = k1;
  }
  return sum / static_cast<double>(d.size());
}

/// The replay's two benches, loaded once for all records: the joint form of `export mujoco`,
/// and the bare joint with frictionlab's friction bound to it.
struct JointBenches {
  ModelPtr exported, inside;
  flmj_friction fl;
};

/// `source` keeps the joint's load dependence and temperature law (io::JointDependences::kept):
/// the exported form is its load-free friction at T_ref (what `export mujoco` of the same fit
/// without them writes), frictionlab's friction inside MuJoCo runs them.
void load_benches(JointBenches& b, const io::FrictionSource& source, const JointPendulum& p,
                  double max_step) {
  io::MujocoOptions o;
  o.form = io::MujocoForm::joint;
  const std::string fragment = io::export_mujoco(source, o).xml;
  b.exported = load_bench(p, fragment_element(fragment, "<joint ", "/>"), max_step,
                          "the exported joint form");
  b.inside = load_bench(p, "<joint name=\"joint\"/>", max_step, "frictionlab's friction");
  io::MujocoFriction file;
  file.file = source.file;
  const auto& law = source.joint->temperature;
  file.frictions.push_back(
      {"joint", source, 0, law ? std::optional<double>(law->T_ref) : std::nullopt});
  bind(b.fl, *b.inside, file);
}

/// The record with frictionlab's friction inside MuJoCo, its callback installed for the replay
/// only; a LuGre state restarts from `z`; a temperature law takes the record's temperature,
/// linear between samples, at each step's midpoint (as the torque).
double replay_inside(JointBenches& b, const identify::JointData& d, const std::vector<double>& z,
                     double offset, double horizon_s, double max_step) {
  const PassiveScope scope(b.fl);
  FrictionJoint& joint = b.fl.frictions.front();
  return replay_mae(
      *b.inside, d, offset, horizon_s, max_step,
      [&](std::size_t k0) {
        flmj_reset(&b.fl);
        joint.z = horizon_s > 0 ? z[k0] : 0.0;
      },
      [&](std::size_t k, double a) {
        if (joint.reference)
          set_temperature(joint, (1 - a) * d.temperature[k] + a * d.temperature[k + 1]);
      });
}

/// frictionlab's own simulation (evaluate_joint) of the record.
double own_mae(const sim::JointModel& joint, const identify::JointData& d, double horizon_s,
               double max_step) {
  const identify::JointEvaluation ev = identify::evaluate_joint(joint, d, {max_step, horizon_s});
  double sum = 0;
  for (std::size_t k = 0; k < d.size(); ++k) sum += std::abs(ev.q_sim[k] - d.q[k]);
  return sum / static_cast<double>(d.size());
}

}  // namespace

JointReplay replay_joint_records(const sim::JointModel& joint,
                                 const std::vector<identify::JointData>& records, double horizon_s,
                                 double max_step) {
  if (records.empty()) throw std::invalid_argument("no records to replay in MuJoCo");
  if (!(max_step > 0) || !std::isfinite(max_step))
    throw std::invalid_argument("MuJoCo replay: the largest step must be > 0 s, got " +
                                format_number(max_step));
  JointReplay r;
  r.mujoco_version = mujoco_version();
  r.max_step = max_step;
  r.horizon_s = horizon_s;
  sim::check_joint_model(joint);  // before the benches are built from it
  const io::FrictionSource source =
      io::joint_friction_source(joint, "joint model", "", io::JointDependences::kept);
  r.load = joint.load.has_value();
  if (joint.temperature) r.T_ref = joint.temperature->T_ref;
  JointBenches b;
  load_benches(b, source, pendulum_of(joint), max_step);
  const double offset = source.joint->offset;
  for (const identify::JointData& d : records) {
    JointReplayRecord rec;
    rec.file = d.source;
    rec.own = own_mae(joint, d, horizon_s, max_step);  // checks the record and the model first
    rec.exported = replay_mae(
        *b.exported, d, offset, horizon_s, max_step, [](std::size_t) {},
        [](std::size_t, double) {});
    rec.inside = replay_inside(b, d, sim::bristle_state(joint, d.t, d.qd, 0.0, d.temperature),
                               offset, horizon_s, max_step);
    const auto n = static_cast<double>(records.size());
    r.exported += rec.exported / n;
    r.inside += rec.inside / n;
    r.own += rec.own / n;
    r.records.push_back(std::move(rec));
  }
  return r;
}

/// What the exported joint form leaves out of the joint's friction, for the summary.
std::string exported_form(const JointReplay& r) {
  std::string out;
  if (r.load) out = "without the load dependence";
  if (std::isfinite(r.T_ref))
    out +=
        (out.empty() ? "" : ", ") + std::string("at T_ref = ") + format_number(r.T_ref) + " degC";
  return out.empty() ? out : " (" + out + ")";
}

std::string replay_summary(const JointReplay& r) {
  const std::string restarts =
      r.horizon_s > 0 ? ", restarted every " + format_number(r.horizon_s) + " s" : "";
  return "MuJoCo " + r.mujoco_version + " replay of " + std::to_string(r.records.size()) +
         " record(s) (steps <= " + format_number(1e3 * r.max_step) + " ms" + restarts +
         "), mean MAE: the exported joint form" + exported_form(r) + " " +
         format_number(r.exported, 3) + " rad, frictionlab's friction inside MuJoCo " +
         format_number(r.inside, 3) + " rad, frictionlab's own simulation " +
         format_number(r.own, 3) + " rad (" + format_number(r.exported / r.own, 3) + "x, " +
         format_number(r.inside / r.own, 3) + "x)";
}

}  // namespace frictionlab::mujoco
