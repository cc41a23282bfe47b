// frictionlab: the registry descriptor of the joint LuGre (reference 004) model (what a descriptor
// holds: models/fields.hpp).
#pragma once

#include <string_view>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/joint_lugre/model.hpp"
#include "frictionlab/models/joint_lugre/validation.hpp"

namespace frictionlab {

struct JointLuGreInfo : PlainInfo<JointLuGre<double>::Params> {
  static constexpr std::string_view name = "joint-lugre";

  template <class P, class V>
  static void fields(P& p, V& v) {
    v.number("sigma0", p.sigma0, Unit::stiffness);
    v.number("sigma1", p.sigma1, Unit::damping);
    v.number("Fc", p.Fc, Unit::force);
    v.array("cv", p.n_viscous, p.cv, Unit::other);
    v.array_pair("Fs", "delta", "Stribeck term", p.n_stribeck, p.Fs, p.delta, Unit::force,
                 Unit::none);
    v.number("Omega_s", p.Omega_s, Unit::velocity);
    v.number("K", p.K, Unit::other);
  }
};

}  // namespace frictionlab
