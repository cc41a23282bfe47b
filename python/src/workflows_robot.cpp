// frictionlab Python module: robot arm identification (workflows::fit_robot;
// docs/robot-identification.md, "Python"). The compiled function returns robot_fit.json's
// object; frictionlab/robot.py turns it into the FitRobotOutcome dataclass users see.
#include "frictionlab/io/arm_record_io.hpp"
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

}  // namespace

void bind_robot(py::module_& m) {
  m.def(
      "_fit_robot",
      [](const py::handle& robot, const py::handle& record, const std::vector<py::object>& validate,
         const std::string& time, const std::string& position, const std::string& velocity,
         const std::string& torque, const std::string& current, const std::string& layout,
         const std::vector<double>& gains, double resample_rate, const py::object& lowpass,
         double trim, bool armature, bool viscous, bool coulomb, bool offset, bool weighted) {
        RobotArgs a;
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
        const std::string robot_path = path_argument(robot, "robot");
        const std::string record_path = path_argument(record, "record");
        std::vector<std::string> validate_paths;
        for (const auto& v : validate) validate_paths.push_back(path_argument(v, "validate"));
        const nlohmann::ordered_json result = run_released(py::none(), [&](const auto&) {
          const io::RobotDescription d = io::read_robot(robot_path);
          std::vector<std::string> joints;
          for (const auto& j : d.model.joints) joints.push_back(j.name);
          const data::ArmRecord rec = io::read_arm_record(record_path, joints, a.spec);
          std::vector<data::ArmRecord> val;
          for (const auto& p : validate_paths)
            val.push_back(io::read_arm_record(p, joints, a.spec));
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
      py::arg("offset") = true, py::arg("weighted") = true,
      "The robot_fit.json object of workflows::fit_robot (frictionlab.fit_robot wraps it).");
}

}  // namespace frictionlab::python
