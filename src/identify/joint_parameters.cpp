// frictionlab identify: the parameter table of a joint model (identify/joint_parameters.hpp).
#include "frictionlab/identify/joint_parameters.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "joint_parameter_slots.hpp"

namespace frictionlab::identify {
namespace detail {
namespace {

using LG = JointLuGre<double>;
using SF = StaticFriction<double>;

/// Entry k of the table sim keeps for j (the rigid body, and LuGre's parameters): the same
/// parameter in every model of the same structure and numbers of terms.
double& table_entry(JointModel& j, std::size_t k) {
  double* out = nullptr;
  std::size_t i = 0;
  const auto pick = [&](const sim::JointParameterInfo&, double& v) {
    if (i++ == k) out = &v;
  };
  if (auto* p = std::get_if<LG::Params>(&j.friction))
    sim::for_each_lugre_joint_parameter(j.structure, j, *p, pick);
  else
    sim::for_each_rigid_joint_parameter(j.structure, j, pick);
  if (out == nullptr)
    throw std::logic_error("joint parameter table: the model has no entry " + std::to_string(k) +
                           " (another structure or number of terms)");
  return *out;
}

}  // namespace

std::vector<JointParameterSlot> joint_parameter_slots(const JointModel& m) {
  std::vector<JointParameterSlot> e;
  auto add = [&](const sim::JointParameterInfo& in, double value,
                 std::function<double&(JointModel&)> ref) {
    JointParameterSlot s;
    s.info.name = in.name;
    s.info.unit = in.unit;
    s.info.value = value;
    s.info.rigid_body = in.rigid_body;
    s.info.structural = in.structural;
    s.info.positive = in.positive;
    s.info.stribeck_level = in.stribeck_level;
    s.ref = std::move(ref);
    e.push_back(std::move(s));
  };
  // The rigid body's and LuGre's entries: sim's table (sim/joint_model.hpp).
  const auto from_table = [&](const sim::JointParameterInfo& in, const double& v) {
    const std::size_t k = e.size();
    add(in, v, [k](JointModel& j) -> double& { return table_entry(j, k); });
  };
  // Temperature-dependent levels (models/temperature_dependence.hpp): kT, kT_v [1/K], of
  // either sign (T_ref is chosen, not a parameter), after the friction's own entries.
  const auto add_temperature = [&] {
    if (!m.temperature) return;
    const auto coefficient = [](const char* name) {
      return sim::JointParameterInfo{name, "1/K", false, false, false, false};
    };
    add(coefficient("kT"), m.temperature->kT,
        [](JointModel& j) -> double& { return j.temperature.value().kT; });
    add(coefficient("kT_v"), m.temperature->kT_v,
        [](JointModel& j) -> double& { return j.temperature.value().kT_v; });
  };
  // A load-dependent Coulomb level (models/load_dependence.hpp): mu for equal coefficients (the
  // setter of mu_back follows, as Fc_neg follows Fc), else mu_drive, mu_back [-].
  const auto add_load = [&] {
    if (!m.load) return;
    const auto info = [](const char* name) {
      return sim::JointParameterInfo{name, "-", false, false, true, false};
    };
    auto mu_drive = [](JointModel& j) -> double& { return j.load.value().mu_drive; };
    if (m.load->mu_drive == m.load->mu_back) {
      add(info("mu"), m.load->mu_drive, mu_drive);
      return;
    }
    add(info("mu_drive"), m.load->mu_drive, mu_drive);
    add(info("mu_back"), m.load->mu_back,
        [](JointModel& j) -> double& { return j.load.value().mu_back; });
  };
  if (const auto* p = std::get_if<LG::Params>(&m.friction)) {
    sim::for_each_lugre_joint_parameter(m.structure, m, *p, from_table);
    add_load();
    add_temperature();
    return e;
  }
  sim::for_each_rigid_joint_parameter(m.structure, m, from_table);
  // Static friction (Coulomb + viscous): Fv, then Fc for equal levels or Fc_pos, Fc_neg, then
  // the load dependence's coefficients.
  auto sf = [](JointModel& j) -> SF::Params& { return std::get<SF::Params>(j.friction); };
  const auto& f = std::get<SF::Params>(m.friction);
  const auto info = [](const char* name, const char* unit) {
    return sim::JointParameterInfo{name, unit, false, false, true, false};
  };
  add(info("Fv", "N m s/rad"), f.sigma2, [sf](JointModel& j) -> double& { return sf(j).sigma2; });
  if (f.curve.Fc_pos == f.curve.Fc_neg) {
    add(info("Fc", "N m"), f.curve.Fc_pos,
        [sf](JointModel& j) -> double& { return sf(j).curve.Fc_pos; });
  } else {
    add(info("Fc_pos", "N m"), f.curve.Fc_pos,
        [sf](JointModel& j) -> double& { return sf(j).curve.Fc_pos; });
    add(info("Fc_neg", "N m"), f.curve.Fc_neg,
        [sf](JointModel& j) -> double& { return sf(j).curve.Fc_neg; });
  }
  add_load();
  add_temperature();
  return e;
}

}  // namespace detail

std::vector<JointParameter> joint_parameters(const JointModel& m) {
  std::vector<JointParameter> out;
  for (auto& s : detail::joint_parameter_slots(m)) out.push_back(std::move(s.info));
  return out;
}

}  // namespace frictionlab::identify
