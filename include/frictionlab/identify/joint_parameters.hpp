// frictionlab identify: the parameters of an identified joint (sim::JointModel) as every joint
// result lists them, with their names and units: one table, used by the sr3 result, the oe
// refinement (which estimates them) and the reports (joint_fit.json "parameters").
//
// Order and names (docs/joint-identification.md, "joint_fit.json"):
//   I [kg m^2]; mgCx, mgCy [N m] (gravity terms, when the structure has them); offset [N m]
//   (when the structure has it); then the friction:
//   LuGre (JointLuGre): sigma0 [N m/rad], sigma1 [N m s/rad], Fc [N m], Fs[i] [N m]
//     (i < n_stribeck), Omega_s [rad/s] (when n_stribeck > 0), cv[i] [N m (s/rad)^(i+1)]
//     (i < n_viscous), delta[i] [-] (i < n_stribeck), K [s/rad];
//   static (StaticFriction): Fv [N m s/rad], then Fc [N m] for equal Coulomb levels, or
//     Fc_pos, Fc_neg [N m]; then with a load dependence mu [-] for equal coefficients, or
//     mu_drive, mu_back [-]; then with a temperature dependence kT, kT_v [1/K].
//
// The rigid body's and LuGre's entries (names, units, flags, order) are sim's table
// (sim/joint_model.hpp, for_each_lugre_joint_parameter), which the simulation's sensitivities
// list as well; the static friction's entries are added here.
//
// Host side: plain data, no errors (every JointModel has a list).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/identify/joint.hpp"

namespace frictionlab::identify {

/// One parameter of a JointModel.
struct JointParameter {
  std::string name;  ///< see the header ("I", "mgCx", "sigma0", "Fs[0]", "cv[1]", "Fc_pos", ...)
  std::string unit;  ///< "kg m^2", "N m", "N m s/rad", ... ("-" for dimensionless)
  double value = 0;  ///< the model's value [unit]
  bool rigid_body = false;  ///< I, mgCx, mgCy or offset
  /// Part of the friction's structure, chosen rather than estimated by every method: LuGre's
  /// Stribeck exponents delta[i] and tanh gain K.
  bool structural = false;
  /// The model requires a value > 0 (I, sigma0, sigma1, Fc, Omega_s) or >= 0 (Fv, Fc_pos,
  /// Fc_neg) (sim::check_joint_model): oe estimates these on a log scale.
  bool positive = false;
  /// A LuGre Stribeck level Fs[i] (oe may estimate it relative to Fc, identify/joint_oe.hpp).
  bool stribeck_level = false;
};

/// Every parameter of `m`, in the order of the header.
std::vector<JointParameter> joint_parameters(const JointModel& m);

}  // namespace frictionlab::identify
