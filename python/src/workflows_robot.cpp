// frictionlab Python module: robot arm identification (workflows::fit_robot;
// docs/robot-identification.md, "Python"). The compiled function returns robot_fit.json's
// object; frictionlab/robot.py turns it into the FitRobotOutcome dataclass users see.
#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/excitation_json.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/io/robot_fit_json.hpp"
#include "frictionlab/workflows/robot.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

/// The keyword options of _fit_robot onto the workflow's option structs.
struct RobotArgs {
  io::ArmRecordSpec spec;
  workflows::FitRobotOptions w;
};

void set_lowpass(RobotArgs& a, const py::object& lowpass) {
  if (lowpass.is_none()) return;  // chosen from the record
  a.w.preprocess.lowpass_cutoff = lowpass.cast<double>();
  a.w.choose_lowpass = false;
}

/// Joint names of a description, in order.
std::vector<std::string> joint_names(const robot::RobotModel& m) {
  std::vector<std::string> out;
  for (const auto& j : m.joints) out.push_back(j.name);
  return out;
}

/// identify::design_excitation: {"design": excitation.json's object, "columns": {name: array}}
/// (excitation.csv's columns at `rate` over `periods` periods).
void bind_excite(py::module_& m) {
  m.def(
      "_excite",
      [](const py::handle& robot, double period, int harmonics, double margin,
         const std::vector<double>& velocity_limits, const std::vector<double>& acceleration_limits,
         long evaluations, unsigned seed, int threads, bool armature, bool viscous, bool coulomb,
         bool offset, double rate, int periods) {
        identify::ExcitationOptions o;
        o.period = period, o.harmonics = harmonics, o.margin = margin;
        o.velocity_limits = velocity_limits, o.acceleration_limits = acceleration_limits;
        o.evaluations = evaluations, o.seed = seed, o.threads = threads;
        o.terms.armature = armature, o.terms.viscous = viscous;
        o.terms.coulomb = coulomb, o.terms.offset = offset;
        const std::string robot_path = path_argument(robot, "robot");
        data::ArmSamples samples;
        const nlohmann::ordered_json design = run_released(py::none(), [&](const auto&) {
          const io::RobotDescription d = io::read_robot(robot_path);
          const identify::ExcitationDesign r = identify::design_excitation(d.model, o);
          samples = r.trajectory.sample(rate, periods);
          return io::excitation_design_to_json(r, joint_names(d.model), robot_path);
        });
        const auto [names, columns] = io::excitation_columns(samples);
        py::dict table;
        for (std::size_t k = 0; k < names.size(); ++k)
          table[py::str(names[k])] =
              py::array_t<double>(static_cast<py::ssize_t>(columns[k]->size()), columns[k]->data());
        py::dict out;
        out["design"] = json_to_python(design);
        out["columns"] = table;
        return out;
      },
      py::arg("robot"), py::kw_only(), py::arg("period") = 10.0, py::arg("harmonics") = 5,
      py::arg("margin") = 0.95, py::arg("velocity_limits") = std::vector<double>{},
      py::arg("acceleration_limits") = std::vector<double>{}, py::arg("evaluations") = 3000L,
      py::arg("seed") = 1U, py::arg("threads") = 1, py::arg("armature") = false,
      py::arg("viscous") = true, py::arg("coulomb") = true, py::arg("offset") = true,
      py::arg("rate") = 1000.0, py::arg("periods") = 1,
      "identify::design_excitation (frictionlab.excite wraps it).");
}

}  // namespace

void bind_robot(py::module_& m) {
  bind_excite(m);
  m.def(
      "_fit_robot",
      [](const py::handle& robot, const py::handle& record, const std::vector<py::object>& validate,
         const std::string& time, const std::string& position, const std::string& velocity,
         const std::string& torque, const std::string& current, const std::string& layout,
         const std::vector<double>& gains, double resample_rate, const py::object& lowpass,
         double trim, bool armature, bool viscous, bool coulomb, bool offset, bool weighted,
         const std::string& friction, const py::object& loaded, double payload_mass,
         bool consistent) {
        RobotArgs a;
        a.w.friction = friction;
        a.spec.time = time;
        a.spec.position = position;
        a.spec.velocity = velocity;
        a.spec.torque = current.empty() ? torque : "";
        a.spec.current = current;
        a.spec.layout = layout;
        a.w.drive_gains = gains;
        a.w.preprocess.resample_rate = resample_rate;
        a.w.preprocess.trim_s = trim;
        set_lowpass(a, lowpass);
        a.w.fit.armature = armature;
        a.w.fit.viscous = viscous;
        a.w.fit.coulomb = coulomb;
        a.w.fit.offset = offset;
        a.w.fit.weighted = weighted;
        a.w.consistent = consistent;
        const std::string robot_path = path_argument(robot, "robot");
        const std::string record_path = path_argument(record, "record");
        std::vector<std::string> validate_paths;
        for (const auto& v : validate) validate_paths.push_back(path_argument(v, "validate"));
        const std::string loaded_path = loaded.is_none() ? "" : path_argument(loaded, "loaded");
        if (loaded_path.empty() != (payload_mass == 0))
          throw std::invalid_argument("loaded and payload_mass go together");
        const nlohmann::ordered_json result = run_released(py::none(), [&](const auto&) {
          const io::RobotDescription d = io::read_robot(robot_path);
          std::vector<std::string> joints;
          for (const auto& j : d.model.joints) joints.push_back(j.name);
          const data::ArmRecord rec = io::read_arm_record(record_path, joints, a.spec);
          std::vector<data::ArmRecord> val;
          for (const auto& p : validate_paths)
            val.push_back(io::read_arm_record(p, joints, a.spec));
          if (!loaded_path.empty())
            return io::robot_fit_to_json(
                workflows::fit_robot_gains(d.model, rec,
                                           io::read_arm_record(loaded_path, joints, a.spec),
                                           payload_mass, a.w, val),
                robot_path, record_path);
          return io::robot_fit_to_json(workflows::fit_robot(d.model, rec, a.w, val), robot_path,
                                       record_path);
        });
        return json_to_python(result);
      },
      py::arg("robot"), py::arg("record"), py::arg("validate") = std::vector<py::object>{},
      py::kw_only(), py::arg("time") = "time", py::arg("position") = "q",
      py::arg("velocity") = "dq", py::arg("torque") = "tau", py::arg("current") = "",
      py::arg("layout") = "", py::arg("gains") = std::vector<double>{},
      py::arg("resample_rate") = 0.0, py::arg("lowpass") = py::none(), py::arg("trim") = 0.0,
      py::arg("armature") = false, py::arg("viscous") = true, py::arg("coulomb") = true,
      py::arg("offset") = true, py::arg("weighted") = true, py::arg("friction") = "linear",
      py::arg("loaded") = py::none(), py::arg("payload_mass") = 0.0, py::arg("consistent") = false,
      "The robot_fit.json object of workflows::fit_robot (frictionlab.fit_robot wraps it).");
  m.def(
      "_check_excitation",
      [](const py::handle& robot, const py::handle& record, const std::string& time,
         const std::string& position, const std::string& velocity, const std::string& torque,
         const std::string& current, const std::string& layout, const std::vector<double>& gains,
         double resample_rate, const py::object& lowpass, double trim, bool armature, bool viscous,
         bool coulomb, bool offset) {
        RobotArgs a;
        a.spec.time = time, a.spec.position = position, a.spec.velocity = velocity;
        a.spec.torque = current.empty() ? torque : "";
        a.spec.current = current, a.spec.layout = layout;
        a.w.drive_gains = gains;
        a.w.preprocess.resample_rate = resample_rate;
        a.w.preprocess.trim_s = trim;
        set_lowpass(a, lowpass);
        a.w.fit.armature = armature, a.w.fit.viscous = viscous;
        a.w.fit.coulomb = coulomb, a.w.fit.offset = offset;
        const std::string robot_path = path_argument(robot, "robot");
        const std::string record_path = path_argument(record, "record");
        return json_to_python(run_released(py::none(), [&](const auto&) {
          const io::RobotDescription d = io::read_robot(robot_path);
          const std::vector<std::string> joints = joint_names(d.model);
          const workflows::CheckRobotRecordOutcome o = workflows::check_robot_record(
              d.model, io::read_arm_record(record_path, joints, a.spec), a.w);
          nlohmann::ordered_json j = io::excitation_check_to_json(o.check, joints);
          j["preprocessing"] = o.preprocessing;
          return j;
        }));
      },
      py::arg("robot"), py::arg("record"), py::kw_only(), py::arg("time") = "time",
      py::arg("position") = "q", py::arg("velocity") = "dq", py::arg("torque") = "tau",
      py::arg("current") = "", py::arg("layout") = "", py::arg("gains") = std::vector<double>{},
      py::arg("resample_rate") = 0.0, py::arg("lowpass") = py::none(), py::arg("trim") = 0.0,
      py::arg("armature") = false, py::arg("viscous") = true, py::arg("coulomb") = true,
      py::arg("offset") = true,
      "excitation.json's check of workflows::check_robot_record (frictionlab.check_excitation "
      "wraps it).");
}

}  // namespace frictionlab::python
