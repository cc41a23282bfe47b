// frictionlab identify: the parameter table of a joint model (identify/joint_parameters.hpp).
#include "frictionlab/identify/joint_parameters.hpp"

#include <string>
#include <utility>
#include <variant>

#include "joint_parameter_slots.hpp"

namespace frictionlab::identify {
namespace detail {
namespace {

using LG = JointLuGre<double>;
using SF = StaticFriction<double>;

std::string element(const char* name, int i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

}  // namespace

std::vector<JointParameterSlot> joint_parameter_slots(const JointModel& m) {
  std::vector<JointParameterSlot> e;
  JointModel copy = m;  // the values are read through the references
  // kind: 'r' rigid body, 'f' friction, 's' structural; positive: > 0 (or >= 0) required.
  auto add = [&](std::string name, std::string unit, char kind, bool positive,
                 std::function<double&(JointModel&)> ref) {
    JointParameterSlot s;
    s.info.name = std::move(name);
    s.info.unit = std::move(unit);
    s.info.value = ref(copy);
    s.info.rigid_body = kind == 'r';
    s.info.structural = kind == 's';
    s.info.positive = positive;
    s.ref = std::move(ref);
    e.push_back(std::move(s));
  };
  add("I", "kg m^2", 'r', true, [](JointModel& j) -> double& { return j.I; });
  if (m.structure.gravity) {
    add("mgCx", "N m", 'r', false, [](JointModel& j) -> double& { return j.mgCx; });
    add("mgCy", "N m", 'r', false, [](JointModel& j) -> double& { return j.mgCy; });
  }
  if (m.structure.offset)
    add("offset", "N m", 'r', false, [](JointModel& j) -> double& { return j.offset; });
  if (const auto* p = std::get_if<LG::Params>(&m.friction)) {
    auto lg = [](JointModel& j) -> LG::Params& { return std::get<LG::Params>(j.friction); };
    add("sigma0", "N m/rad", 'f', true, [lg](JointModel& j) -> double& { return lg(j).sigma0; });
    add("sigma1", "N m s/rad", 'f', true,
        [lg](JointModel& j) -> double& { return lg(j).sigma1; });
    add("Fc", "N m", 'f', true, [lg](JointModel& j) -> double& { return lg(j).Fc; });
    for (int i = 0; i < p->n_stribeck; ++i) {
      const auto k = static_cast<std::size_t>(i);
      add(element("Fs", i), "N m", 'f', false,
          [lg, k](JointModel& j) -> double& { return lg(j).Fs[k]; });
      e.back().info.stribeck_level = true;
    }
    if (p->n_stribeck > 0)
      add("Omega_s", "rad/s", 'f', true,
          [lg](JointModel& j) -> double& { return lg(j).Omega_s; });
    for (int i = 0; i < p->n_viscous; ++i) {
      const auto k = static_cast<std::size_t>(i);
      add(element("cv", i), "N m (s/rad)^" + std::to_string(i + 1), 'f', false,
          [lg, k](JointModel& j) -> double& { return lg(j).cv[k]; });
    }
    for (int i = 0; i < p->n_stribeck; ++i) {
      const auto k = static_cast<std::size_t>(i);
      add(element("delta", i), "-", 's', false,
          [lg, k](JointModel& j) -> double& { return lg(j).delta[k]; });
    }
    add("K", "s/rad", 's', false, [lg](JointModel& j) -> double& { return lg(j).K; });
  } else {
    auto sf = [](JointModel& j) -> SF::Params& { return std::get<SF::Params>(j.friction); };
    add("Fv", "N m s/rad", 'f', true, [sf](JointModel& j) -> double& { return sf(j).sigma2; });
    const auto& c = std::get<SF::Params>(m.friction).curve;
    if (c.Fc_pos == c.Fc_neg) {
      add("Fc", "N m", 'f', true, [sf](JointModel& j) -> double& { return sf(j).curve.Fc_pos; });
    } else {
      add("Fc_pos", "N m", 'f', true,
          [sf](JointModel& j) -> double& { return sf(j).curve.Fc_pos; });
      add("Fc_neg", "N m", 'f', true,
          [sf](JointModel& j) -> double& { return sf(j).curve.Fc_neg; });
    }
  }
  return e;
}

}  // namespace detail

std::vector<JointParameter> joint_parameters(const JointModel& m) {
  std::vector<JointParameter> out;
  for (auto& s : detail::joint_parameter_slots(m)) out.push_back(std::move(s.info));
  return out;
}

}  // namespace frictionlab::identify
