// frictionlab Python module: the export of a fitted servo actuator (io/actuator_export.hpp):
// export_actuator_mujoco and export_actuator_bam (docs/python.md; the CLI's `export mujoco` of an
// actuator and `export bam`).
#include "frictionlab/io/actuator_export.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

constexpr const char* kActuatorSourceDoc =
    "source: a parameter file of fit-actuator (m1.json .. m6.json, BAM's keys), its summary.json "
    "or its output directory (the recommended model), as a path.\n";

}  // namespace

void bind_actuator_export(py::module_& m) {
  m.def(
      "export_actuator_mujoco",
      [](const py::object& source, const py::object& kp, const py::object& vin,
         const std::string& form, const py::object& ctrlrange, const std::string& joint) {
        io::ActuatorMujocoOptions o;
        o.joint = joint;
        if (!kp.is_none()) o.kp = option_cast<double>("kp", kp);
        if (!vin.is_none()) o.vin = option_cast<double>("vin", vin);
        o.form = choice("form", form,
                        std::vector<std::pair<std::string, io::ActuatorMujocoForm>>{
                            {"position", io::ActuatorMujocoForm::position},
                            {"dcmotor", io::ActuatorMujocoForm::dcmotor}});
        if (!ctrlrange.is_none()) {
          o.ctrlrange = option_cast<std::pair<double, double>>("ctrlrange", ctrlrange);
        }
        return io::export_actuator_mujoco(io::read_actuator_source(path_argument(source, "source")),
                                          o);
      },
      py::arg("source"), py::kw_only(), py::arg("kp") = py::none(), py::arg("vin") = py::none(),
      py::arg("form") = "position", py::arg("ctrlrange") = py::none(), py::arg("joint") = "joint",
      (std::string("export_actuator_mujoco(source, *, kp, vin=None, form='position', "
                   "ctrlrange=None, joint='joint') -> MujocoExport\n\nA fitted servo actuator "
                   "as an MJCF fragment: the joint's armature, damping and frictionloss and a "
                   "position (form='position') or dcmotor (form='dcmotor') actuator reproducing "
                   "the servo's motor and firmware P loop (io::export_actuator_mujoco; the CLI's "
                   "`export mujoco --kp`). kp: the firmware's kp register value (required); vin: "
                   "supply voltage [V] (default: the actuator's); ctrlrange: the joint's range "
                   "(lo, hi) [rad]; notes: what MuJoCo cannot represent.\n") +
       kActuatorSourceDoc)
          .c_str());
  m.def(
      "export_actuator_bam",
      [](const py::object& source) {
        return io::export_actuator_bam(io::read_actuator_source(path_argument(source, "source")));
      },
      py::arg("source"),
      (std::string("export_actuator_bam(source) -> ExportText\n\nA fitted servo actuator as "
                   "BAM's own parameter file (io::export_actuator_bam; the CLI's `export bam`); "
                   "notes: what BAM's parameter file cannot represent (one line per item).\n") +
       kActuatorSourceDoc)
          .c_str());
}

}  // namespace frictionlab::python
