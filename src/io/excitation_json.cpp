// frictionlab io: excitation.json (io/excitation_json.hpp).
#include "frictionlab/io/excitation_json.hpp"

#include <cmath>

namespace frictionlab::io {

namespace {

template <class T>
nlohmann::ordered_json per_name(const std::vector<std::string>& names, const std::vector<T>& v) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < names.size() && i < v.size(); ++i) o[names[i]] = v[i];
  return o;
}

}  // namespace

std::pair<std::vector<std::string>, std::vector<const std::vector<double>*>> excitation_columns(
    const data::ArmSamples& s) {
  std::vector<std::string> names{"time"};
  std::vector<const std::vector<double>*> columns{&s.t};
  for (const auto& [prefix, channel] : {std::pair{"q", &s.q}, {"dq", &s.qd}, {"ddq", &s.qdd}})
    for (std::size_t j = 0; j < channel->size(); ++j) {
      names.push_back(prefix + std::to_string(j + 1));
      columns.push_back(&(*channel)[j]);
    }
  return {names, columns};
}

nlohmann::ordered_json excitation_check_to_json(const identify::ExcitationCheck& c,
                                                const std::vector<std::string>& joints) {
  return {{"samples", c.samples},
          {"rank", c.rank},
          {"condition_number", std::isfinite(c.condition_number)
                                   ? nlohmann::ordered_json(c.condition_number)
                                   : nlohmann::ordered_json(nullptr)},
          {"separation", per_name(c.parameters, c.separation)},
          {"range", per_name(joints, c.range)},
          {"peak_velocity", per_name(joints, c.peak_velocity)},
          {"peak_acceleration", per_name(joints, c.peak_acceleration)},
          {"reversals", per_name(joints, c.reversals)},
          {"flags", c.flags}};
}

nlohmann::ordered_json excitation_design_to_json(const identify::ExcitationDesign& d,
                                                 const std::vector<std::string>& joints,
                                                 const std::string& robot_file) {
  const identify::FourierTrajectory& f = d.trajectory;
  return {{"format", "frictionlab-excitation"},
          {"version", 1},
          {"robot", robot_file},
          {"trajectory",
           {{"period", f.period},
            {"harmonics", f.harmonics()},
            {"q0", per_name(joints, f.q0)},
            {"start", per_name(joints, d.start)},
            {"a", per_name(joints, f.a)},
            {"b", per_name(joints, f.b)}}},
          {"check", excitation_check_to_json(d.check, joints)},
          {"evaluations", d.evaluations},
          {"seconds", d.seconds}};
}

}  // namespace frictionlab::io
