// frictionlab Python module: the estimator's export (io/export.hpp): export_xml, export_json,
// export_c, export_mujoco and export_estimator_params (workflows_common.hpp; docs/python.md).
#include <filesystem>
#include <optional>

#include "frictionlab/io/export.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/joint.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

/// The text of a fit.json / joint_fit.json / ESTIMATOR.json / MODEL.json source and its label: a
/// FitOutcome (its fit.json text), a FitJointOutcome (its joint_fit.json text), a dict (its JSON)
/// or nothing for a path (read by the caller).
std::pair<std::string, std::string> source_text(const py::handle& obj, const std::string& label) {
  if (py::isinstance<workflows::FitOutcome>(obj)) {
    const auto& f = obj.cast<const workflows::FitOutcome&>();
    return {io::fit_outcome_to_json(f).dump(2) + "\n", label.empty() ? "fit.json" : label};
  }
  if (py::isinstance<workflows::FitJointOutcome>(obj)) {
    const auto& f = obj.cast<const workflows::FitJointOutcome&>();
    return {io::joint_fit_to_json(f).dump(2) + "\n", label.empty() ? "joint_fit.json" : label};
  }
  if (py::isinstance<py::dict>(obj))
    return {python_to_json(obj).dump(2) + "\n", label.empty() ? "<dict>" : label};
  throw std::invalid_argument(
      "source: expected a FitOutcome, a FitJointOutcome, a dict (fit.json, joint_fit.json, "
      "robot_fit.json, ESTIMATOR.json or MODEL.json object) or a file path, got " +
      std::string(py::str(py::type::of(obj).attr("__name__"))));
}

/// The friction of `obj` (a robot_fit.json's: of `joint`; io::read_friction_source).
io::FrictionSource friction_source(const py::handle& obj, const std::string& label,
                                   const py::object& joint,
                                   io::JointOption other = io::JointOption::refused) {
  const std::string j = joint.is_none() ? std::string() : option_cast<std::string>("joint", joint);
  if (const auto path = as_path(obj)) return io::read_friction_source(*path, j, other);
  const auto [text, file] = source_text(obj, label);
  return io::parse_friction_source(text, file, j, other);
}

io::EstimatorExportOptions estimator_options(const py::object& Km, const py::object& hold) {
  io::EstimatorExportOptions o;
  if (!Km.is_none()) o.Km = option_cast<double>("Km", Km);
  if (!hold.is_none())
    o.hold = choice(
        "hold", option_cast<std::string>("hold", hold),
        std::vector<std::pair<std::string, Hold>>{{"linear", Hold::linear}, {"zoh", Hold::zoh}});
  return o;
}

std::string label_of(const py::object& label) {
  return label.is_none() ? std::string() : option_cast<std::string>("label", label);
}

constexpr const char* kSourceDoc =
    "source: a FitOutcome, a FitJointOutcome, a fit.json / joint_fit.json / ESTIMATOR.json / "
    "MODEL.json file path, or such an object as a dict; label names it in the outputs when it is "
    "not a file (default 'fit.json' for a FitOutcome, 'joint_fit.json' for a FitJointOutcome). "
    "A joint fit's friction is exported as its lugre form; its inertia, gravity and offset are "
    "listed in the result's notes (docs/joint-identification.md, 'Shipping a joint fit'). A "
    "robot_fit.json (or FitRobotOutcome.to_dict()) holds every joint of an arm: joint names the "
    "one exported (docs/robot-identification.md, 'Exports').\n";
constexpr const char* kEstimatorDoc =
    "Km: torque constant [N m/A] (> 0), overriding the source's; hold: the velocity input "
    "between cycles, 'linear' or 'zoh' (default: the source's, else linear).\n";

}  // namespace

void bind_export(py::module_& m) {
  py::class_<io::ExportText>(m, "ExportText", "A text to write and its warnings.")
      .def_readonly("text", &io::ExportText::text)
      .def_readonly("warnings", &io::ExportText::warnings)
      .def_readonly("notes", &io::ExportText::notes,
                    "what the target cannot represent (a joint fit's inertia, gravity, offset)")
      .def("__str__", [](const io::ExportText& e) { return e.text; });
  py::class_<io::CExport>(m, "CExport", "The estimator's C99 pair (io::CExport).")
      .def_readonly("header_file", &io::CExport::header_file, "NAME.h")
      .def_readonly("source_file", &io::CExport::source_file, "NAME.c")
      .def_readonly("header", &io::CExport::header)
      .def_readonly("source", &io::CExport::source)
      .def_readonly("warnings", &io::CExport::warnings)
      .def_readonly("notes", &io::CExport::notes,
                    "what the estimator cannot represent (a joint fit's inertia, gravity, offset)")
      .def_readonly("adaptive_notes", &io::CExport::adaptive_notes,
                    "adaptive=True: where the adaptive estimator's initial variances came from")
      .def(
          "write",
          [](const io::CExport& c, const py::object& dir) {
            const std::filesystem::path d(path_argument(dir, "dir"));
            const std::string h = (d / c.header_file).string(), s = (d / c.source_file).string();
            io::check_output_directory(d.string());
            io::OutputFiles files;
            files.write(h, c.header);
            files.write(s, c.source);
            files.commit();
            return std::vector<std::string>{h, s};
          },
          py::arg("dir"), "Write NAME.h and NAME.c into dir (created if missing); the paths.");
  py::class_<io::MujocoExport>(m, "MujocoExport", "An MJCF fragment (io::MujocoExport).")
      .def_readonly("xml", &io::MujocoExport::xml)
      .def_readonly("notes", &io::MujocoExport::notes, "what MuJoCo cannot represent")
      .def("__str__", [](const io::MujocoExport& e) { return e.xml; });

  m.def(
      "export_xml",
      [](const py::object& source, const py::object& Km, const py::object& label) {
        const std::optional<double> km =
            Km.is_none() ? std::nullopt : std::optional<double>(option_cast<double>("Km", Km));
        if (const auto path = as_path(source))
          return io::export_xml(io::read_lugre_group(*path, km), *path);
        const auto [text, file] = source_text(source, label_of(label));
        return io::export_xml(io::parse_lugre_group(text, file, km), file);
      },
      py::arg("source"), py::kw_only(), py::arg("Km") = py::none(), py::arg("label") = py::none(),
      (std::string("export_xml(source, *, Km=None, label=None) -> ExportText\n\nThe robot "
                   "configuration's LUGRE group (XML) of a sensorless lugre fit, or of a lugre "
                   "fit or joint fit with Km given (io::export_xml; the CLI's `export xml`). Km: "
                   "torque constant [N m/A] (> 0), overriding the source's; required for a joint "
                   "fit.\n") +
       kSourceDoc)
          .c_str());
  m.def(
      "export_json",
      [](const py::object& source, const py::object& Km, const py::object& hold,
         const py::object& label, const py::object& joint) {
        return io::export_json(friction_source(source, label_of(label), joint),
                               estimator_options(Km, hold));
      },
      py::arg("source"), py::kw_only(), py::arg("Km") = py::none(), py::arg("hold") = py::none(),
      py::arg("label") = py::none(), py::arg("joint") = py::none(),
      (std::string("export_json(source, *, Km=None, hold=None, label=None, joint=None) -> "
                   "ExportText\n\nThe "
                   "torque estimator's parameter file, ESTIMATOR.json (io::export_json; the "
                   "CLI's `export json`).\n") +
       kSourceDoc + kEstimatorDoc)
          .c_str());
  m.def(
      "export_estimator_params",
      [](const py::object& source, const py::object& Km, const py::object& hold,
         const py::object& label, const py::object& joint) {
        const io::FrictionSource s = friction_source(source, label_of(label), joint);
        std::vector<std::string> warnings;
        const auto p = io::export_estimator_params(s, estimator_options(Km, hold), &warnings);
        return json_to_python(io::estimator_to_json(p, s.file));
      },
      py::arg("source"), py::kw_only(), py::arg("Km") = py::none(), py::arg("hold") = py::none(),
      py::arg("label") = py::none(), py::arg("joint") = py::none(),
      (std::string("export_estimator_params(source, *, Km=None, hold=None, label=None, "
                   "joint=None) -> dict\n\n"
                   "The estimator's parameters (io::export_estimator_params) as the "
                   "ESTIMATOR.json object.\n") +
       kSourceDoc + kEstimatorDoc)
          .c_str());
  m.def(
      "export_c",
      [](const py::object& source, const py::object& Km, const py::object& hold,
         const std::string& name, bool single_precision, const py::object& label,
         const py::object& joint, bool adaptive) {
        io::CExportOptions o;
        o.estimator = estimator_options(Km, hold);
        o.name = name;
        o.single_precision = single_precision;
        o.adaptive = adaptive;
        return io::export_c(friction_source(source, label_of(label), joint), o);
      },
      py::arg("source"), py::kw_only(), py::arg("Km") = py::none(), py::arg("hold") = py::none(),
      py::arg("name") = "joint_estimator", py::arg("single_precision") = true,
      py::arg("label") = py::none(), py::arg("joint") = py::none(), py::arg("adaptive") = false,
      (std::string("export_c(source, *, Km=None, hold=None, name='joint_estimator', "
                   "single_precision=True, label=None, joint=None, adaptive=False) -> CExport"
                   "\n\nThe self-contained C99 "
                   "NAME.h / NAME.c of the torque estimator with the parameters baked in "
                   "(io::export_c; the CLI's `export c`). name: prefix of every function and "
                   "type (a C identifier); single_precision: float (True) or double; adaptive: "
                   "also the adaptive estimator (NAME_adaptive_*), started from the fit's "
                   "standard errors (.adaptive_notes).\n") +
       kSourceDoc + kEstimatorDoc)
          .c_str());
  m.def(
      "export_mujoco",
      [](const py::object& source, const py::object& joint, double gear, const py::object& form,
         const py::object& label) {
        io::MujocoOptions o;
        o.joint = joint.is_none() ? "joint" : option_cast<std::string>("joint", joint);
        o.gear = gear;
        if (!form.is_none()) {
          const auto f = option_cast<std::string>("form", form);
          if (f != "dcmotor" && f != "joint")
            throw std::invalid_argument("form: expected 'dcmotor' or 'joint', got '" + f + "'");
          o.form = f == "dcmotor" ? io::MujocoForm::dcmotor : io::MujocoForm::joint;
        }
        return io::export_mujoco(
            friction_source(source, label_of(label), joint, io::JointOption::target_name), o);
      },
      py::arg("source"), py::kw_only(), py::arg("joint") = py::none(), py::arg("gear") = 1.0,
      py::arg("form") = py::none(), py::arg("label") = py::none(),
      (std::string("export_mujoco(source, *, joint=None, gear=1.0, form=None, label=None) -> "
                   "MujocoExport\n\nAn MJCF fragment reproducing the friction in MuJoCo "
                   "(io::export_mujoco; the CLI's `export mujoco`). joint: the joint's name "
                   "(default 'joint'; of a robot_fit.json, also the joint exported); gear: "
                   "motor velocity per joint velocity of the model's units [-]; form: "
                   "'dcmotor' (MuJoCo 3.12+'s DC motor with LuGre attributes; a lugre model's "
                   "default) or 'joint' (the joint's frictionloss and damping, any MuJoCo; a "
                   "lugre model's steady curve).\n") +
       kSourceDoc)
          .c_str());
}

}  // namespace frictionlab::python
