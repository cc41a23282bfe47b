// frictionlab: the named parameters of a servo model, with the BAM parameter-file keys
// (reference 002; bam/model.py, bam/actuator.py) and their default identification ranges.
// One table serves the file reader/writer (io/servo_json) and the fitting (identify/servo_fit).
//
//   key                               field                    models    default range
//   kt                                kt [Nm/A]                all       per actuator family
//   R                                 R [Ohm]                  all       per actuator family
//   armature                          armature [kg m^2]        all       per actuator family
//   q_offset                          q_offset [rad]           all       [-0.1, 0.1]
//   friction_base                     Kc [Nm]                  all       [0, 0.2]
//   friction_stribeck                 Kcs [Nm]                 M2,M4-M6  [0, 0.2]
//   load_friction_base                Kl [-]                   M3,M4     [0, 0.5]
//   load_friction_stribeck            Kls [-]                  M4        [0, 1]
//   load_friction_motor               Km [-]                   M5,M6     [0, 0.5]
//   load_friction_external            Ke [-]                   M5,M6     [0, 0.5]
//   load_friction_motor_stribeck      Kms [-]                  M5,M6     [0, 1]
//   load_friction_external_stribeck   Kes [-]                  M5,M6     [0, 1]
//   load_friction_motor_quad          Kmq [1/Nm]               M6        [0, 0.01]
//   load_friction_external_quad       Keq [1/Nm]               M6        [0, 0.01]
//   dtheta_stribeck                   vs [rad/s]               M2,M4-M6  [0.01, 5]
//   alpha                             alpha [-]                M2,M4-M6  [1, 10]
//   friction_viscous                  Kv [Nm s/rad]            all       [0, 1]
//   current_limit                     current_limit [A]        current drive  [0.01, 3]
//   kT                                temperature->kT [1/K]    with a temperature law [-0.05, 0.05]
//   kT_v                              temperature->kT_v [1/K]  with a temperature law [-0.05, 0.05]
// kT and kT_v (models/temperature_dependence.hpp) are not BAM's: a parameter file with a
// temperature law adds them, with "temperature_law" and "T_ref" (docs/actuators.md). Their range,
// +-5 %/K, is generous: a level that changed by 5 % per kelvin would halve within 10 to 14 K.
// The ranges are BAM's (bam/model.py at 17d9addc) except dtheta_stribeck, whose BAM range
// [0.1, 1] excludes the package's own shipped XL330 M6 fit (2.89 rad/s): docs/actuators.md.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/sim/servo_actuators.hpp"

namespace frictionlab::sim {

/// "m1" .. "m6".
inline std::string_view actuator_model_name(ActuatorModel m) noexcept {
  static constexpr std::array<std::string_view, 6> names{"m1", "m2", "m3", "m4", "m5", "m6"};
  return names[static_cast<int>(m)];
}

/// The model named "m1".."m6" (also "M1".."M6"); false if unknown.
inline bool parse_actuator_model(std::string_view s, ActuatorModel& m) noexcept {
  if (s.size() != 2 || (s[0] != 'm' && s[0] != 'M') || s[1] < '1' || s[1] > '6') return false;
  m = static_cast<ActuatorModel>(s[1] - '1');
  return true;
}

using frictionlab::model_has_stribeck;

/// The parameter keys of a model, in the order of BAM's parameter files.
inline std::vector<std::string_view> servo_param_keys(ActuatorModel m, ServoDrive drive) {
  std::vector<std::string_view> k{"kt", "R", "armature", "q_offset", "friction_base"};
  if (drive == ServoDrive::current) k.insert(k.begin() + 2, "current_limit");
  const bool stribeck = model_has_stribeck(m);
  if (stribeck) k.push_back("friction_stribeck");
  switch (m) {
    case ActuatorModel::M3:
      k.push_back("load_friction_base");
      break;
    case ActuatorModel::M4:
      k.push_back("load_friction_base");
      k.push_back("load_friction_stribeck");
      break;
    case ActuatorModel::M5:
    case ActuatorModel::M6:
      k.push_back("load_friction_motor");
      k.push_back("load_friction_external");
      k.push_back("load_friction_motor_stribeck");
      k.push_back("load_friction_external_stribeck");
      if (m == ActuatorModel::M6) {
        k.push_back("load_friction_motor_quad");
        k.push_back("load_friction_external_quad");
      }
      break;
    default:
      break;
  }
  if (stribeck) {
    k.push_back("dtheta_stribeck");
    k.push_back("alpha");
  }
  k.push_back("friction_viscous");
  return k;
}

/// The keys of a parameter set: servo_param_keys of its model, then "kT" and "kT_v" when it has a
/// temperature law.
inline std::vector<std::string_view> servo_param_keys(const ServoParams& p, ServoDrive drive) {
  auto k = servo_param_keys(p.model, drive);
  if (p.temperature) {
    k.push_back("kT");
    k.push_back("kT_v");
  }
  return k;
}

/// The default search range of kT and kT_v [1/K] (header).
inline constexpr ServoRange kServoTemperatureSlopeRange{-0.05, 0.05};

/// The field of `p` named by a key of servo_param_keys, or nullptr for an unknown key (and for
/// kT, kT_v of a set without a temperature law).
inline double* servo_param(ServoParams& p, std::string_view key) noexcept {
  auto& f = p.friction;
  if (key == "kt") return &p.kt;
  if (key == "R") return &p.R;
  if (key == "armature") return &p.armature;
  if (key == "q_offset") return &p.q_offset;
  if (key == "current_limit") return &p.current_limit;
  if (key == "friction_base") return &f.Kc;
  if (key == "friction_viscous") return &f.Kv;
  if (key == "friction_stribeck") return &f.Kcs;
  if (key == "dtheta_stribeck") return &f.vs;
  if (key == "alpha") return &f.alpha;
  if (key == "load_friction_base") return &f.Kl;
  if (key == "load_friction_stribeck") return &f.Kls;
  if (key == "load_friction_motor") return &f.Km;
  if (key == "load_friction_external") return &f.Ke;
  if (key == "load_friction_motor_stribeck") return &f.Kms;
  if (key == "load_friction_external_stribeck") return &f.Kes;
  if (key == "load_friction_motor_quad") return &f.Kmq;
  if (key == "load_friction_external_quad") return &f.Keq;
  if (key == "kT") return p.temperature ? &p.temperature->kT : nullptr;
  if (key == "kT_v") return p.temperature ? &p.temperature->kT_v : nullptr;
  return nullptr;
}

inline double servo_param(const ServoParams& p, std::string_view key) noexcept {
  double* x = servo_param(const_cast<ServoParams&>(p), key);
  return x ? *x : 0.0;
}

/// The C++ / docs/models.md name of a friction key ("friction_base" -> "Kc"), or the key itself.
inline std::string_view servo_param_symbol(std::string_view key) noexcept {
  constexpr std::array<std::pair<std::string_view, std::string_view>, 13> map{{
      {"friction_base", "Kc"},
      {"friction_viscous", "Kv"},
      {"friction_stribeck", "Kcs"},
      {"dtheta_stribeck", "vs"},
      {"alpha", "alpha"},
      {"load_friction_base", "Kl"},
      {"load_friction_stribeck", "Kls"},
      {"load_friction_motor", "Km"},
      {"load_friction_external", "Ke"},
      {"load_friction_motor_stribeck", "Kms"},
      {"load_friction_external_stribeck", "Kes"},
      {"load_friction_motor_quad", "Kmq"},
      {"load_friction_external_quad", "Keq"},
  }};
  for (const auto& [k, s] : map)
    if (k == key) return s;
  return key;
}

/// The BAM key of a friction parameter's C++ name ("Kc" -> "friction_base"), or the name itself.
inline std::string_view servo_param_key_of_symbol(std::string_view symbol) noexcept {
  for (std::string_view key :
       {"friction_base", "friction_viscous", "friction_stribeck", "dtheta_stribeck", "alpha",
        "load_friction_base", "load_friction_stribeck", "load_friction_motor",
        "load_friction_external", "load_friction_motor_stribeck", "load_friction_external_stribeck",
        "load_friction_motor_quad", "load_friction_external_quad"})
    if (servo_param_symbol(key) == symbol) return key;
  return symbol;
}

/// Default identification range of a key for an actuator family (table in the header).
inline ServoRange servo_param_range(const ServoActuator& a, std::string_view key) noexcept {
  if (key == "kt") return a.kt.range;
  if (key == "R") return a.R.range;
  if (key == "armature") return a.armature.range;
  if (key == "q_offset") return {-0.1, 0.1};
  if (key == "current_limit") return {0.01, 3.0};
  if (key == "friction_base" || key == "friction_stribeck") return {0.0, 0.2};
  if (key == "load_friction_base" || key == "load_friction_motor" ||
      key == "load_friction_external")
    return {0.0, 0.5};
  if (key == "load_friction_stribeck" || key == "load_friction_motor_stribeck" ||
      key == "load_friction_external_stribeck")
    return {0.0, 1.0};
  if (key == "load_friction_motor_quad" || key == "load_friction_external_quad") return {0.0, 0.01};
  if (key == "dtheta_stribeck") return {0.01, 5.0};
  if (key == "alpha") return {1.0, 10.0};
  if (key == "friction_viscous") return {0.0, 1.0};
  if (key == "kT" || key == "kT_v") return kServoTemperatureSlopeRange;
  return {0.0, 0.0};
}

/// What a BAM parameter file holds (io/servo_json.hpp reads and writes it): the actuator (a
/// built-in family, an ACTUATOR.json, or "generic" with the file's constants) and the model with
/// its values.
struct ServoSetup {
  ServoActuator actuator;  ///< name, firmware constants, identification ranges
  ServoParams params;      ///< model and values
};

}  // namespace frictionlab::sim
