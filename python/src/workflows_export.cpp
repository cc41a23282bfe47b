// frictionlab Python module: the estimator's export (io/export.hpp): export_xml, export_json,
// export_c, export_mujoco and export_estimator_params (workflows_common.hpp; docs/python.md).
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>

#include "arrays.hpp"
#include "frictionlab/estimator/adaptive_estimator.h"
#include "frictionlab/estimator/builder.hpp"
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

/// A temperature fit for export_c's temperature= (a FitJointOutcome, a dict or a path; the
/// reader of `export c --temperature`), after the option rules every entry point shares.
std::optional<io::TemperatureFit> temperature_fit(const py::object& temperature, bool adaptive,
                                                  const std::optional<double>& temperature_ref) {
  io::check_temperature_seed(adaptive, !temperature.is_none(), temperature_ref);
  if (temperature.is_none()) return std::nullopt;
  if (const auto path = as_path(temperature)) return io::read_temperature_fit(*path);
  const auto [text, file] = source_text(temperature, "");
  return io::parse_temperature_fit(text, file);
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

/// Bind NAME(source, *, Km=None, hold=None, label=None, joint=None) -> RESULT, the estimator's
/// exports of one text or object: `make` of the friction of `source` with the options of Km
/// and hold. `doc`: what it returns.
template <class F>
void def_estimator_export(py::module_& m, const std::string& name, const std::string& result,
                          F make, const std::string& doc) {
  m.def(
      name.c_str(),
      [make](const py::object& source, const py::object& Km, const py::object& hold,
             const py::object& label, const py::object& joint) {
        const io::FrictionSource s = friction_source(source, label_of(label), joint);
        return make(s, estimator_options(Km, hold));
      },
      py::arg("source"), py::kw_only(), py::arg("Km") = py::none(), py::arg("hold") = py::none(),
      py::arg("label") = py::none(), py::arg("joint") = py::none(),
      (name + "(source, *, Km=None, hold=None, label=None, joint=None) -> " + result + "\n\n" +
       doc + kSourceDoc + kEstimatorDoc)
          .c_str());
}

}  // namespace

// ---- adaptive_estimate: the adaptive estimator (estimator/adaptive_estimator.h) over a record

constexpr std::array<const char*, FL_ADAPT_COUNT> kAdaptNames = {"Km",     "kappa_pos", "kappa_neg",
                                                                 "sigma2", "offset",    "kT"};

/// The index of an adapted parameter's name; ValueError naming `what` and the names otherwise.
int adapt_index(const std::string& name, const std::string& what) {
  for (std::size_t j = 0; j < kAdaptNames.size(); ++j)
    if (name == kAdaptNames[j]) return static_cast<int>(j);
  throw std::invalid_argument(what + ": unknown parameter '" + name +
                              "' (Km, kappa_pos, kappa_neg, sigma2, offset, kT)");
}

/// The options of the C API with the caller's changes: P0 a dict of name -> variance, adapt a
/// list of names.
fl_adaptive_options_f64 adaptive_options(double memory_s, double v_min, double trace_max,
                                         double T_ref, const py::object& P0,
                                         const py::object& adapt) {
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  o.memory_s = memory_s;
  o.v_min = v_min;
  o.trace_max = trace_max;
  o.T_ref = T_ref;
  if (!P0.is_none())
    for (const auto& [k, v] : option_cast<py::dict>("P0", P0))
      o.P0[adapt_index(py::str(k), "P0")] =
          option_cast<double>("P0", py::reinterpret_borrow<py::object>(v));
  if (!adapt.is_none()) {
    o.adapt = 0u;
    for (const auto& n : option_cast<py::list>("adapt", adapt))
      o.adapt |= 1u << adapt_index(py::str(n), "adapt");
  }
  return o;
}

/// The option named by an init code of adaptive_estimator.h.
std::string adaptive_error(int code) {
  switch (code) {
    case FL_ADAPTIVE_BAD_MEMORY:
      return "memory_s must be > 0 and finite";
    case FL_ADAPTIVE_BAD_V_MIN:
      return "v_min must be >= 0 and finite";
    case FL_ADAPTIVE_BAD_TRACE:
      return "trace_max must be > 0 and finite";
    case FL_ADAPTIVE_BAD_P0:
      return "P0: every variance must be >= 0 and finite";
    case FL_ADAPTIVE_BAD_T_REF:
      return "T_ref must be finite";
    default:
      return std::string("the estimator's parameter ") + fl_estimator_param_name(code);
  }
}

/// The record's inputs, sample k: current [A], velocity [rad/s], dt [s], temperature [degC]
/// (T_ref without a channel), the reference torque (NaN: unknown).
struct AdaptiveInputs {
  std::vector<double> current, velocity, dt, temperature, tau_ref;
};

/// Run the adaptive estimator of precision T (its C API: Api) over the inputs.
template <class T, class Api, class Opt, class Params, class Init, class Step>
py::dict run_adaptive(const estimator::EstimatorParams<double>& p, const fl_adaptive_options_f64& o,
                      const AdaptiveInputs& in, Init init, Step step) {
  const auto c = estimator::to_c_params<Params>(p);
  Opt ot{T(o.memory_s), T(o.v_min), T(o.trace_max), T(o.T_ref), {}, o.adapt};
  for (int j = 0; j < FL_ADAPT_COUNT; ++j) ot.P0[j] = T(o.P0[j]);
  Api a;
  if (const int code = init(&a, &c, &ot); code != 0)
    throw std::invalid_argument("adaptive_estimate: " + adaptive_error(code));
  const std::size_t n = in.current.size();
  std::vector<double> torque(n), friction(n), z(n), error(n), updated(n), theta(n * FL_ADAPT_COUNT);
  for (std::size_t k = 0; k < n; ++k) {
    const bool known = std::isfinite(in.tau_ref[k]);
    const auto r = step(&a, T(in.current[k]), T(in.velocity[k]), T(in.dt[k]), T(in.temperature[k]),
                        known ? T(in.tau_ref[k]) : T(0), known ? 1 : 0);
    if (!r.ok)
      throw std::invalid_argument("adaptive_estimate: sample " + std::to_string(k) +
                                  ": an input is not finite or dt < 0");
    torque[k] = double(r.torque);
    friction[k] = double(r.friction);
    z[k] = double(r.z);
    error[k] = known ? double(r.error) : NAN;
    updated[k] = r.updated;
    for (int j = 0; j < FL_ADAPT_COUNT; ++j)
      theta[k * FL_ADAPT_COUNT + std::size_t(j)] = double(a.theta[j]);
  }
  py::array_t<double> th = to_numpy(std::move(theta));
  th.resize({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(FL_ADAPT_COUNT)});
  py::list names;
  for (const char* nm : kAdaptNames) names.append(nm);
  return py::dict(py::arg("torque") = to_numpy(std::move(torque)),
                  py::arg("friction") = to_numpy(std::move(friction)),
                  py::arg("z") = to_numpy(std::move(z)),
                  py::arg("error") = to_numpy(std::move(error)),
                  py::arg("updated") = to_numpy(std::move(updated)).attr("astype")("bool"),
                  py::arg("theta") = th, py::arg("names") = names);
}

/// The inputs as equal-length arrays: dt a number or an array; temperature, tau_ref None or
/// arrays.
AdaptiveInputs adaptive_inputs(const py::object& current, const py::object& velocity,
                               const py::object& dt, const py::object& temperature,
                               const py::object& tau_ref, double T_ref) {
  AdaptiveInputs in;
  in.current = DoubleArray(current, "current").vector();
  in.velocity = DoubleArray(velocity, "velocity").vector();
  const std::size_t n = in.current.size();
  const auto same = [&](std::vector<double> v, const char* name) {
    if (v.size() != n)
      throw std::invalid_argument(std::string(name) + ": " + std::to_string(v.size()) +
                                  " samples, current has " + std::to_string(n));
    return v;
  };
  in.velocity = same(in.velocity, "velocity");
  in.dt = py::isinstance<py::array>(dt) ? same(DoubleArray(dt, "dt").vector(), "dt")
                                        : std::vector<double>(n, option_cast<double>("dt", dt));
  in.temperature = temperature.is_none()
                       ? std::vector<double>(n, T_ref)
                       : same(DoubleArray(temperature, "temperature").vector(), "temperature");
  in.tau_ref = tau_ref.is_none() ? std::vector<double>(n, NAN)
                                 : same(DoubleArray(tau_ref, "tau_ref").vector(), "tau_ref");
  return in;
}

void bind_adaptive(py::module_& m) {
  m.def(
      "adaptive_estimate",
      [](const py::object& source, const py::object& current, const py::object& velocity,
         const py::object& dt, const py::object& temperature, const py::object& tau_ref,
         const py::object& Km, const py::object& hold, const py::object& label,
         const py::object& joint, double memory_s, double v_min, double trace_max, double T_ref,
         const py::object& P0, const py::object& adapt, bool single_precision) {
        const io::FrictionSource s = friction_source(source, label_of(label), joint);
        std::vector<std::string> warnings;
        const auto p = io::export_estimator_params(s, estimator_options(Km, hold), &warnings);
        warn_all(warnings);
        const auto o = adaptive_options(memory_s, v_min, trace_max, T_ref, P0, adapt);
        const AdaptiveInputs in =
            adaptive_inputs(current, velocity, dt, temperature, tau_ref, T_ref);
        if (single_precision)
          return run_adaptive<float, fl_adaptive_f32, fl_adaptive_options_f32,
                              fl_estimator_params_f32>(p, o, in, fl_adaptive_f32_init,
                                                       fl_adaptive_f32_step);
        return run_adaptive<double, fl_adaptive_f64, fl_adaptive_options_f64,
                            fl_estimator_params_f64>(p, o, in, fl_adaptive_f64_init,
                                                     fl_adaptive_f64_step);
      },
      py::arg("source"), py::arg("current"), py::arg("velocity"), py::arg("dt"), py::kw_only(),
      py::arg("temperature") = py::none(), py::arg("tau_ref") = py::none(),
      py::arg("Km") = py::none(), py::arg("hold") = py::none(), py::arg("label") = py::none(),
      py::arg("joint") = py::none(), py::arg("memory_s") = 60.0, py::arg("v_min") = 0.01,
      py::arg("trace_max") = 100.0, py::arg("T_ref") = 25.0, py::arg("P0") = py::none(),
      py::arg("adapt") = py::none(), py::arg("single_precision") = false,
      (std::string(
           "adaptive_estimate(source, current, velocity, dt, *, temperature=None, tau_ref=None, "
           "Km=None, hold=None, label=None, joint=None, memory_s=60.0, v_min=0.01, "
           "trace_max=100.0, T_ref=25.0, P0=None, adapt=None, single_precision=False) -> dict"
           "\n\nThe adaptive torque estimator (estimator/adaptive_estimator.h, the firmware's C "
           "code; docs/estimator.md \"Online adaptation\") run over a record: current [A], "
           "velocity [rad/s] arrays, dt [s] a number or an array (the time since the previous "
           "sample), temperature [degC] an array (None: T_ref), tau_ref [N m] the torque the joint "
           "is known to carry (NaN where unknown; None: never, nothing adapts). P0: a dict of "
           "initial variances by name (Km, kappa_pos, kappa_neg, sigma2, offset, kT), adapt: the "
           "names that adapt (default kappa_pos, kappa_neg, sigma2, offset). Returns {'torque', "
           "'friction', 'z', 'error' (tau_ref - torque, NaN without a reference), 'updated', "
           "'theta' (samples x 6, after each sample), 'names'}.\n") +
       kSourceDoc + kEstimatorDoc)
          .c_str());
}

void bind_export(py::module_& m) {
  bind_adaptive(m);
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
                    "adaptive=True: where the adaptive estimator's start came from (its initial "
                    "variances; with temperature=, kT and T_ref)")
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
  def_estimator_export(
      m, "export_json", "ExportText",
      [](const io::FrictionSource& s, const io::EstimatorExportOptions& o) {
        return io::export_json(s, o);
      },
      "The torque estimator's parameter file, ESTIMATOR.json (io::export_json; the CLI's `export "
      "json`).\n");
  def_estimator_export(
      m, "export_estimator_params", "dict",
      [](const io::FrictionSource& s, const io::EstimatorExportOptions& o) {
        std::vector<std::string> warnings;  // (not issued: the dict is the parameters alone)
        return json_to_python(
            io::estimator_to_json(io::export_estimator_params(s, o, &warnings), s.file));
      },
      "The estimator's parameters (io::export_estimator_params) as the ESTIMATOR.json object.\n");
  m.def(
      "export_c",
      [](const py::object& source, const py::object& Km, const py::object& hold,
         const std::string& name, bool single_precision, const py::object& label,
         const py::object& joint, bool adaptive, const py::object& temperature,
         const py::object& temperature_ref) {
        io::CExportOptions o;
        if (!temperature_ref.is_none())
          o.temperature_ref = option_cast<double>("temperature_ref", temperature_ref);
        o.temperature = temperature_fit(temperature, adaptive, o.temperature_ref);
        o.estimator = estimator_options(Km, hold);
        o.name = name;
        o.single_precision = single_precision;
        o.adaptive = adaptive;
        return io::export_c(friction_source(source, label_of(label), joint), o);
      },
      py::arg("source"), py::kw_only(), py::arg("Km") = py::none(), py::arg("hold") = py::none(),
      py::arg("name") = "joint_estimator", py::arg("single_precision") = true,
      py::arg("label") = py::none(), py::arg("joint") = py::none(), py::arg("adaptive") = false,
      py::arg("temperature") = py::none(), py::arg("temperature_ref") = py::none(),
      (std::string("export_c(source, *, Km=None, hold=None, name='joint_estimator', "
                   "single_precision=True, label=None, joint=None, adaptive=False, "
                   "temperature=None, temperature_ref=None) -> CExport"
                   "\n\nThe self-contained C99 "
                   "NAME.h / NAME.c of the torque estimator with the parameters baked in "
                   "(io::export_c; the CLI's `export c`). name: prefix of every function and "
                   "type (a C identifier); single_precision: float (True) or double; adaptive: "
                   "also the adaptive estimator (NAME_adaptive_*), started from the fit's "
                   "standard errors (.adaptive_notes); temperature (adaptive only): a joint fit "
                   "with a temperature law (a FitJointOutcome, its joint_fit.json path or dict) "
                   "whose kT seeds the adaptive estimator's temperature slope, its variance and "
                   "T_ref, kT adapting (`export c --temperature`); temperature_ref: the "
                   "temperature at which the source's levels hold [degC], the estimator's T_ref "
                   "(default: the temperature fit's T_ref).\n") +
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
