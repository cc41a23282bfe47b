// frictionlab mujoco: a MUJOCO.json's joints bound to a MuJoCo model (src/mujoco/context.hpp).
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "context.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/models/joint_lugre/as_lugre.hpp"

namespace frictionlab::mujoco {
namespace {

/// The names of the model's objects of `type` for a message ("a, b, c").
std::string names_of(const mjModel& m, mjtObj type, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    const char* n = mj_id2name(&m, type, i);
    if (n != nullptr) names.emplace_back(n);
  }
  return names.empty() ? "none named" : io::join_names(names);
}

[[noreturn]] void fail(const io::MujocoFriction& file, long line, const std::string& joint,
                       const std::string& message) {
  throw io::InputError(file.file, line, 0, "joint " + io::quote_text(joint) + ": " + message);
}
[[noreturn]] void fail(const io::MujocoFriction& file, const io::MujocoServoJoint& s,
                       const std::string& message) {
  fail(file, s.line, s.joint, message);
}

/// The MJCF joint `joint`'s id: a hinge or a slide without damping or frictionloss of its own.
int bind_dof(const mjModel& m, const io::MujocoFriction& file, long line,
             const std::string& joint) {
  const int id = mj_name2id(&m, mjOBJ_JOINT, joint.c_str());
  if (id < 0)
    fail(file, line, joint,
         "not in the MuJoCo model (its joints: " + names_of(m, mjOBJ_JOINT, m.njnt) + ")");
  if (m.jnt_type[id] != mjJNT_HINGE && m.jnt_type[id] != mjJNT_SLIDE)
    fail(file, line, joint, "is not a hinge or a slide joint");
  const int dof = m.jnt_dofadr[id];
  if (m.dof_damping[dof] != 0.0)
    fail(file, line, joint,
         "has damping=\"" + format_number(m.dof_damping[dof]) +
             "\" in the MJCF: frictionlab computes the viscous friction (and a servo's "
             "back-EMF); remove it");
  if (m.dof_frictionloss[dof] != 0.0)
    fail(file, line, joint,
         "has frictionloss=\"" + format_number(m.dof_frictionloss[dof]) +
             "\" in the MJCF: frictionlab computes the friction; remove it");
  return id;
}

/// A servo joint's indices; the MJCF joint must carry the parameter file's armature.
void bind_joint(ServoJoint& j, const mjModel& m, const io::MujocoFriction& file,
                const io::MujocoServoJoint& s) {
  const int id = bind_dof(m, file, s.line, s.joint);
  j.dof = m.jnt_dofadr[id];
  j.qpos = m.jnt_qposadr[id];
  const double want = j.params.armature, have = m.dof_armature[j.dof];
  if (std::abs(have - want) > 1e-9 * std::max(1.0, std::abs(want)))
    fail(file, s,
         "armature=\"" + format_number(have) + "\" in the MJCF, but " +
             io::quote_text(s.source.file) + " has armature " + format_number(want) +
             " kg m^2: set armature=\"" + format_number(want) + "\"");
}

/// The parameters of j's friction from `spec`: LuGre, a joint-lugre set's lugre form or a static
/// model; false for a model that does not run inside MuJoCo.
bool take_model(FrictionJoint& j, const ModelSpec& spec) {
  if (const auto* p = std::get_if<LuGre<double>::Params>(&spec)) {
    j.lugre = true;
    j.lugre_params = cast_params<Dual>(*p);
  } else if (const auto* q = std::get_if<StaticSpec>(&spec)) {
    j.lugre = false;
    j.static_params = q->params;
  } else if (const auto* r = std::get_if<JointLuGre<double>::Params>(&spec);
             r != nullptr && as_lugre<double>(*r).obstacle == JointLuGreObstacle::none) {
    j.lugre = true;
    j.lugre_params = cast_params<Dual>(as_lugre<double>(*r).params);
  } else {
    return false;
  }
  return true;
}

/// A friction joint: its dof and its model, LuGre or a static one, with a joint fit's load
/// dependence and its temperature law at the entry's temperature.
FrictionJoint friction_joint(const mjModel& m, const io::MujocoFriction& file,
                             const io::MujocoFrictionJoint& f) {
  FrictionJoint j;
  j.name = f.joint;
  j.dof = m.jnt_dofadr[bind_dof(m, file, f.line, f.joint)];
  if (!take_model(j, f.source.spec))
    fail(file, f.line, f.joint,
         "the model " + io::quote_text(model_name(f.source.spec)) + " of " +
             io::quote_text(f.source.file) +
             " does not run inside MuJoCo; frictionlab::mujoco runs lugre, joint-lugre where it "
             "is a lugre set (exact sign, one Stribeck term, linear viscous friction) and the "
             "static models coulomb, viscous, coulomb-viscous and stribeck");
  if (f.source.joint) {
    j.load = f.source.joint->load;
    if (f.source.joint->temperature) {
      j.reference = *f.source.joint;
      set_temperature(j, f.temperature.value());  // io checked that the law takes it
    }
  }
  return j;
}

/// The goal actuator: present, and applying no force of its own (gain and bias 0).
void bind_goal(ServoJoint& j, const mjModel& m, const io::MujocoFriction& file,
               const io::MujocoServoJoint& s) {
  j.goal = mj_name2id(&m, mjOBJ_ACTUATOR, s.goal.c_str());
  if (j.goal < 0)
    fail(file, s,
         "its goal actuator " + io::quote_text(s.goal) +
             " is not in the MuJoCo model (its actuators: " + names_of(m, mjOBJ_ACTUATOR, m.nu) +
             ")");
  const mjtNum* gain = row(m.actuator_gainprm, j.goal, mjNGAIN);
  const mjtNum* bias = row(m.actuator_biasprm, j.goal, mjNBIAS);
  const bool silent = m.actuator_gaintype[j.goal] == mjGAIN_FIXED && gain[0] == 0.0 &&
                      (m.actuator_biastype[j.goal] == mjBIAS_NONE ||
                       (m.actuator_biastype[j.goal] == mjBIAS_AFFINE && bias[0] == 0.0 &&
                        bias[1] == 0.0 && bias[2] == 0.0));
  if (!silent)
    fail(file, s,
         "its goal actuator " + io::quote_text(s.goal) +
             " applies a force of its own: frictionlab applies the servo's torque; declare it as "
             "<general name=\"" +
             s.goal + "\" joint=\"" + s.joint + "\" gainprm=\"0\" biasprm=\"0 0 0\"/>");
}

}  // namespace

void set_temperature(FrictionJoint& j, double T) {
  if (!j.reference)
    throw std::invalid_argument("joint " + io::quote_text(j.name) +
                                ": its friction has no temperature law");
  // at_temperature checks the law's scale at T; the model at T has the kind it has at T_ref, so
  // take_model only replaces the parameters
  const sim::JointModel at = sim::at_temperature(*j.reference, T);
  take_model(j, io::joint_friction_source(at, j.name, "", io::JointDependences::kept).spec);
  j.temperature = T;
}

void set_temperature(ServoJoint& j, double T) {
  const auto& law = j.params.temperature;
  if (!law)
    throw std::invalid_argument("joint " + io::quote_text(j.name) +
                                ": its parameter file has no temperature law");
  if (!std::isfinite(T) || !temperature_scale_positive(*law, T))
    throw std::invalid_argument("joint " + io::quote_text(j.name) +
                                ": the temperature law has no positive scale at " +
                                format_number(T) + " degC");
  j.level = level_scale(*law, T);
  j.viscous = viscous_scale(*law, T);
  j.temperature = T;
}

void bind(flmj_friction& fl, const mjModel& m, const io::MujocoFriction& file) {
  fl.nv = m.nv;
  fl.njnt = m.njnt;
  for (const io::MujocoFrictionJoint& f : file.frictions)
    fl.frictions.push_back(friction_joint(m, file, f));
  for (const io::MujocoServoJoint& s : file.servos) {
    ServoJoint j;
    j.name = s.joint;
    j.constants = s.source.setup.actuator.constants;
    j.params = s.source.setup.params;
    bind_joint(j, m, file, s);
    bind_goal(j, m, file, s);
    j.firmware_input.kp = s.kp;
    j.firmware_input.kd = s.kd;
    j.firmware_input.ki = s.ki;
    j.firmware_input.vin = s.vin.value_or(j.constants.vin);
    if (j.params.temperature) set_temperature(j, s.temperature.value());  // io checked it
    fl.servos.push_back(std::move(j));
  }
  StepScratch& k = fl.scratch;
  const auto nv = static_cast<std::size_t>(m.nv);
  k.force.resize(m.nv);
  k.applied.resize(m.nv);
  k.bias.assign(nv, 0.0);
  k.dense.assign(nv * nv, 0.0);
  k.A.resize(m.nv, m.nv);
  const auto n = static_cast<Eigen::Index>(fl.servos.size() + fl.frictions.size());
  k.w.resize(m.nv);
  k.wf.resize(n);
  k.select = Eigen::MatrixXd::Zero(m.nv, n + 1);
  k.dofs.clear();
  for (const ServoJoint& j : fl.servos) k.dofs.push_back(j.dof);
  for (const FrictionJoint& j : fl.frictions) k.dofs.push_back(j.dof);
  for (Eigen::Index c = 0; c < n; ++c) k.select(k.dofs[static_cast<std::size_t>(c)], c) = 1.0;
  k.solved.resize(m.nv, n + 1);
  k.coupling.resize(n, n);
  k.v0.resize(n);
  k.lo.resize(n);
  k.hi.resize(n);
  k.f.resize(n);
  k.H.resize(n, n);
  k.qp = BoxQp(static_cast<int>(n));
  k.lugre.clear();
  for (std::size_t i = 0; i < fl.frictions.size(); ++i)
    if (fl.frictions[i].lugre) k.lugre.push_back(static_cast<int>(fl.servos.size() + i));
  for (const int a : k.lugre) k.qp.fix(a);  // among budget joints, a LuGre joint's is given
  const auto nl = static_cast<Eigen::Index>(k.lugre.size());
  for (Eigen::VectorXd* v : {&k.u, &k.F, &k.dF, &k.z_next, &k.r, &k.du, &k.u_base}) v->resize(nl);
  k.v.resize(n);
  k.J = Eigen::MatrixXd::Identity(nl, nl);
  k.lu.reserve(nl);
  k.sticking.assign(static_cast<std::size_t>(n), 0);
  k.Hss.resize(n, n);
  k.X.resize(n, nl);
  // sized once by a factorisation (LLT(size) would leave its status unset, and copying it is
  // undefined behaviour)
  k.llt.compute(Eigen::MatrixXd::Identity(m.nv, m.nv));
}

}  // namespace frictionlab::mujoco
