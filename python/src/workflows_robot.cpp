// frictionlab Python module: robot arm identification (workflows::fit_robot;
// docs/robot-identification.md, "Python"). The compiled function returns robot_fit.json's
// object; frictionlab/robot.py turns it into the FitRobotOutcome dataclass users see.
#include "arrays.hpp"
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

/// A record argument: a CSV path (read when the fit runs, without the GIL), or the columns of a
/// pandas DataFrame or a dict of arrays, copied while the GIL is held.
struct ArmInput {
  std::optional<std::string> path;
  io::CsvTable table;

  std::string source() const { return path ? *path : table.file; }
  data::ArmRecord read(const std::vector<std::string>& joints,
                       const io::ArmRecordSpec& spec) const {
    return path ? io::read_arm_record(*path, joints, spec)
                : io::arm_record_from_table(table, joints, spec);
  }
};

/// The column names the spec reads of a record with `joints` joints (layout "ur": the first 19,
/// by position).
bool column_used(const io::ArmRecordSpec& spec, std::size_t joints, std::size_t index,
                 const std::string& name) {
  if (spec.layout == "ur") return index < 19;
  if (name == spec.time) return true;
  for (const std::string* prefix : {&spec.position, &spec.velocity, &spec.torque, &spec.current})
    for (std::size_t i = 1; !prefix->empty() && i <= joints; ++i)
      if (name == *prefix + std::to_string(i)) return true;
  return false;
}

/// `obj` as an ArmInput: a path as it is; a DataFrame or dict: every column's name, and the
/// values (float64 or float32 of either byte order, DoubleArray) of the columns the spec reads,
/// the others left empty. `name`: the argument, in messages and as the record's source.
ArmInput arm_input(const py::handle& obj, const std::string& name, const io::ArmRecordSpec& spec,
                   std::size_t joints) {
  ArmInput in;
  if ((in.path = as_path(obj))) return in;
  const bool frame = py::hasattr(obj, "columns") && py::hasattr(obj, "to_numpy");
  if (!frame && !py::isinstance<py::dict>(obj))
    throw std::invalid_argument(
        name +
        ": expected a CSV path (str or os.PathLike), a pandas DataFrame or a dict of "
        "arrays, got " +
        std::string(py::str(py::type::of(obj).attr("__name__"))));
  in.table.file = name + (frame ? " (DataFrame)" : " (dict)");
  const py::list keys = frame ? py::list(obj.attr("columns")) : py::list(obj.attr("keys")());
  for (const py::handle key : keys) {
    if (!py::isinstance<py::str>(key))
      throw std::invalid_argument(name + ": column names must be strings, got " +
                                  std::string(py::repr(key)));
    const std::string column = key.cast<std::string>();
    in.table.names.push_back(column);
    in.table.columns.emplace_back();
    if (!column_used(spec, joints, in.table.names.size() - 1, column)) continue;
    const py::object values = frame ? obj[key].attr("to_numpy")() : obj[key];
    in.table.columns.back() = DoubleArray(values, name + "['" + column + "']").vector();
  }
  return in;
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
         bool consistent, bool load_dependent) {
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
        a.w.fit.load = load_dependent;
        if (load_dependent && !loaded.is_none())
          throw std::invalid_argument(
              "load_dependent and loaded do not go together: drive gains are identified with "
              "load-free friction");
        const std::string robot_path = path_argument(robot, "robot");
        if (loaded.is_none() != (payload_mass == 0))
          throw std::invalid_argument("loaded and payload_mass go together");
        const io::RobotDescription d = io::read_robot(robot_path);
        const std::vector<std::string> joints = joint_names(d.model);
        const ArmInput train = arm_input(record, "record", a.spec, joints.size());
        std::vector<ArmInput> checks;
        for (std::size_t k = 0; k < validate.size(); ++k)
          checks.push_back(
              arm_input(validate[k], "validate[" + std::to_string(k) + "]", a.spec, joints.size()));
        std::optional<ArmInput> with_payload;
        if (!loaded.is_none()) with_payload = arm_input(loaded, "loaded", a.spec, joints.size());
        const nlohmann::ordered_json result = run_released(py::none(), [&](const auto&) {
          const data::ArmRecord rec = train.read(joints, a.spec);
          std::vector<data::ArmRecord> val;
          for (const auto& c : checks) val.push_back(c.read(joints, a.spec));
          if (with_payload)
            return io::robot_fit_to_json(
                workflows::fit_robot_gains(d.model, rec, with_payload->read(joints, a.spec),
                                           payload_mass, a.w, val),
                robot_path, train.source());
          return io::robot_fit_to_json(workflows::fit_robot(d.model, rec, a.w, val), robot_path,
                                       train.source());
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
      py::arg("load_dependent") = false,
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
        const io::RobotDescription d = io::read_robot(path_argument(robot, "robot"));
        const std::vector<std::string> joints = joint_names(d.model);
        const ArmInput in = arm_input(record, "record", a.spec, joints.size());
        return json_to_python(run_released(py::none(), [&](const auto&) {
          const workflows::CheckRobotRecordOutcome o =
              workflows::check_robot_record(d.model, in.read(joints, a.spec), a.w);
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
