// frictionlab Python module: the coupled mechanical systems (sim/systems.hpp) through the
// library's workflows::simulate_system, the CLI's `simulate --system` (docs/python.md,
// "Coupled systems"; docs/simulation.md).
//
//   frictionlab.StickSlipSpec, JointSpec, SimOptions    the C++ structs, keyword construction
//   frictionlab.simulate_stick_slip(spec, friction, options)  -> SystemTrajectory
//   frictionlab.simulate_joint(spec, friction, options)       -> SystemTrajectory
//   frictionlab.read_system(path) -> SystemFile;  frictionlab.simulate_system(system, options)
#include <pybind11/stl.h>

#include <string>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "frictionlab/io/system_json.hpp"
#include "frictionlab/sim/systems.hpp"
#include "frictionlab/workflows/simulate.hpp"
#include "models_common.hpp"
#include "pickle_state.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

/// The friction of a coupled system from any model's parameters (lugre, dahl, elasto-plastic;
/// the message of io::parse_system_json for the others).
sim::FrictionParams friction_argument(const py::handle& obj) {
  const ModelSpec spec = model_argument(obj);
  sim::FrictionParams out;
  bool coupled = false;
  visit_model(spec, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    for_each_model<sim::CoupledModels>([&]<class C>(std::type_identity<C>) {
      if constexpr (std::is_same_v<C, I>) {
        out = p;
        coupled = true;
      }
      return coupled;
    });
  });
  if (!coupled) {
    std::string names;
    for (const auto& n : model_names<sim::CoupledModels>())
      names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument("friction: model '" + model_name(spec) +
                                "' cannot be coupled to a mechanical system (supported: " + names +
                                ")");
  }
  return out;
}

struct Trajectory {
  std::vector<std::string> state_names;
  py::object t, x, v, F;
  py::list states;
  long steps = 0, rhs_evals = 0, unconverged_stages = 0;
  std::vector<std::string> warnings;
};

Trajectory run(const workflows::SystemInput& in, const sim::SimOptions& options,
               const py::object& progress) {
  workflows::SimulateSystemOutcome r = run_released(progress, [&](const workflows::Progress& pr) {
    return workflows::simulate_system(in, options, pr);
  });
  warn_all(r.warnings);
  auto& tr = r.trajectory;
  Trajectory out;
  out.state_names = tr.state_names;
  out.t = to_numpy(std::move(tr.t));
  out.x = to_numpy(std::move(tr.x));
  out.v = to_numpy(std::move(tr.v));
  out.F = to_numpy(std::move(tr.F));
  for (auto& s : tr.states) out.states.append(to_numpy(std::move(s)));
  out.steps = tr.steps;
  out.rhs_evals = tr.rhs_evals;
  out.unconverged_stages = tr.unconverged_stages;
  out.warnings = r.warnings;
  return out;
}

/// The library's input: the system of `spec` (a StickSlipSpec or a JointSpec) with the friction
/// model `friction` (friction_argument).
template <class Spec>
workflows::SystemInput system_input(const Spec& spec, const py::handle& friction) {
  workflows::SystemInput in;
  in.friction = friction_argument(friction);
  if constexpr (std::is_same_v<Spec, sim::StickSlipSpec>) {
    in.kind = sim::SystemKind::stick_slip;
    in.stick_slip = spec;
  } else {
    in.kind = sim::SystemKind::joint;
    in.joint = spec;
  }
  return in;
}

/// Bind NAME(spec, friction, options=SimOptions(), *, progress=None) -> SystemTrajectory: the
/// system of a Spec (simulate_stick_slip, simulate_joint).
template <class Spec>
void def_simulate_spec(py::module_& m, const char* name, const char* doc) {
  m.def(
      name,
      [](const Spec& spec, const py::object& friction, const sim::SimOptions& options,
         const py::object& progress) {
        return run(system_input(spec, friction), options, progress);
      },
      py::arg("spec"), py::arg("friction"), py::arg("options") = sim::SimOptions{}, py::kw_only(),
      py::arg("progress") = py::none(), doc);
}

struct SystemFile {
  std::string system;
  py::object spec;
  py::object friction;
};

SystemFile read_system(const py::object& path) {
  auto f = io::read_system_file(py::module_::import("os").attr("fspath")(path).cast<std::string>());
  warn_all(f.warnings);
  SystemFile out;
  out.system = sim::system_name(f.kind);
  out.spec = f.kind == sim::SystemKind::stick_slip ? py::cast(f.stick_slip) : py::cast(f.joint);
  std::visit([&](const auto& p) { out.friction = params_object(ModelSpec{p}, /*validated=*/true); },
             f.friction);
  return out;
}

std::vector<double> array_vector(const py::handle& a, const char* name) {
  const DoubleArray d(a, name);
  d.require_finite(name);
  return d.vector();
}

/// The integrator named `name`; std::invalid_argument naming the known ones otherwise.
sim::SystemIntegrator integrator_argument(const std::string& name) {
  const auto i = sim::parse_integrator(name);
  if (!i)
    throw std::invalid_argument("integrator: unknown integrator '" + name +
                                "' (one of: " + known_names(sim::kSystemIntegratorNames) + ")");
  return *i;
}

}  // namespace

void bind_systems(py::module_& m) {
  py::class_<sim::SimOptions>(
      m, "SimOptions", "Integration of a coupled system (C++ sim::SimOptions; docs/simulation.md).")
      .def(py::init([](const std::string& integrator, double h, double output_dt, double rtol,
                       double atol) {
             sim::SimOptions o;
             o.integrator = integrator_argument(integrator);
             o.h = h;
             o.output_dt = output_dt;
             o.rtol = rtol;
             o.atol = atol;
             return o;
           }),
           py::kw_only(), py::arg("integrator") = "trbdf2", py::arg("h") = 1e-3,
           py::arg("output_dt") = 0.0, py::arg("rtol") = 1e-8, py::arg("atol") = 1e-10)
      .def_property(
          "integrator",
          [](const sim::SimOptions& o) { return std::string(sim::integrator_name(o.integrator)); },
          [](sim::SimOptions& o, const std::string& name) {
            o.integrator = integrator_argument(name);
          },
          "'trbdf2' (fixed step, recommended), 'rosenbrock' (fixed step ROS2), 'cvode' (adaptive "
          "reference)")
      .def_readwrite("h", &sim::SimOptions::h, "fixed step [s] (cvode: largest step if > 0)")
      .def_readwrite("output_dt", &sim::SimOptions::output_dt,
                     "output sampling [s]; 0: every step h")
      .def_readwrite("rtol", &sim::SimOptions::rtol, "cvode relative tolerance")
      .def_readwrite("atol", &sim::SimOptions::atol, "cvode absolute tolerance (scaled states)")
      .def("__repr__", [](const sim::SimOptions& o) {
        return "SimOptions(integrator='" + std::string(sim::integrator_name(o.integrator)) +
               "', h=" + std::string(py::str(py::float_(o.h))) +
               ", output_dt=" + std::string(py::str(py::float_(o.output_dt))) + ")";
      });

  py::class_<sim::StickSlipSpec>(
      m, "StickSlipSpec",
      "The stick-slip benchmark (C++ sim::StickSlipSpec): a mass m [kg] tied by a spring k [N/m] "
      "to a point pulled at v_drive [m/s] (belt=True: the mass on a belt moving at v_drive, the "
      "spring to a wall); initial x0 [m], v0 [m/s]; end time t_end [s].")
      .def(py::init([](double mass, double k, double v_drive, bool belt, double x0, double v0,
                       double t_end) {
             return sim::StickSlipSpec{mass, k, v_drive, belt, x0, v0, t_end};
           }),
           py::kw_only(), py::arg("m") = 1.0, py::arg("k") = 2.0, py::arg("v_drive") = 0.1,
           py::arg("belt") = false, py::arg("x0") = 0.0, py::arg("v0") = 0.0,
           py::arg("t_end") = 20.0)
      .def_readwrite("m", &sim::StickSlipSpec::m, "mass [kg]")
      .def_readwrite("k", &sim::StickSlipSpec::k, "spring stiffness [N/m]")
      .def_readwrite("v_drive", &sim::StickSlipSpec::v_drive, "pulling or belt speed [m/s]")
      .def_readwrite("belt", &sim::StickSlipSpec::belt,
                     "False: spring end pulled; True: moving belt")
      .def_readwrite("x0", &sim::StickSlipSpec::x0, "initial position [m]")
      .def_readwrite("v0", &sim::StickSlipSpec::v0, "initial velocity [m/s]")
      .def_readwrite("t_end", &sim::StickSlipSpec::t_end, "end time [s]");

  py::class_<sim::JointSpec>(
      m, "JointSpec",
      "One rotary joint, torque driven (C++ sim::JointSpec): I qdd + mgCx cos q - mgCy sin q + "
      "tau_f = tau(t). tau(t): the record (tau_t [s], tau [N m]) linearly interpolated if given, "
      "else tau_offset + tau_amp sin(2 pi tau_freq t).")
      .def(py::init([](double I, double mgCx, double mgCy, const py::object& tau_t,
                       const py::object& tau, double tau_offset, double tau_amp, double tau_freq,
                       double q0, double qd0, double t_end) {
             sim::JointSpec s;
             s.I = I;
             s.mgCx = mgCx;
             s.mgCy = mgCy;
             if (!tau_t.is_none()) s.tau_t = array_vector(tau_t, "tau_t");
             if (!tau.is_none()) s.tau = array_vector(tau, "tau");
             s.tau_offset = tau_offset;
             s.tau_amp = tau_amp;
             s.tau_freq = tau_freq;
             s.q0 = q0;
             s.qd0 = qd0;
             s.t_end = t_end;
             return s;
           }),
           py::kw_only(), py::arg("I") = 0.05, py::arg("mgCx") = 0.0, py::arg("mgCy") = 0.0,
           py::arg("tau_t") = py::none(), py::arg("tau") = py::none(), py::arg("tau_offset") = 0.0,
           py::arg("tau_amp") = 1.0, py::arg("tau_freq") = 0.5, py::arg("q0") = 0.0,
           py::arg("qd0") = 0.0, py::arg("t_end") = 10.0)
      .def_readwrite("I", &sim::JointSpec::I, "inertia [kg m^2]")
      .def_readwrite("mgCx", &sim::JointSpec::mgCx, "gravity term [N m]")
      .def_readwrite("mgCy", &sim::JointSpec::mgCy, "gravity term [N m]")
      .def_property(
          "tau_t", [](const sim::JointSpec& s) { return to_numpy(std::vector<double>(s.tau_t)); },
          [](sim::JointSpec& s, const py::object& a) { s.tau_t = array_vector(a, "tau_t"); },
          "times of the torque record [s] (empty: the sine)")
      .def_property(
          "tau", [](const sim::JointSpec& s) { return to_numpy(std::vector<double>(s.tau)); },
          [](sim::JointSpec& s, const py::object& a) { s.tau = array_vector(a, "tau"); },
          "torque record [N m]")
      .def_readwrite("tau_offset", &sim::JointSpec::tau_offset, "sine torque offset [N m]")
      .def_readwrite("tau_amp", &sim::JointSpec::tau_amp, "sine torque amplitude [N m]")
      .def_readwrite("tau_freq", &sim::JointSpec::tau_freq, "sine torque frequency [Hz]")
      .def_readwrite("q0", &sim::JointSpec::q0, "initial angle [rad]")
      .def_readwrite("qd0", &sim::JointSpec::qd0, "initial angular velocity [rad/s]")
      .def_readwrite("t_end", &sim::JointSpec::t_end, "end time [s]");

  py::class_<Trajectory>(m, "SystemTrajectory",
                         "A coupled system's trajectory (C++ sim::SystemTrajectory), arrays over "
                         "the output samples.")
      .def_readonly("t", &Trajectory::t, "time [s]")
      .def_readonly("x", &Trajectory::x, "position x [m] (joint: q [rad])")
      .def_readonly("v", &Trajectory::v, "velocity [m/s] (joint: qd [rad/s])")
      .def_readonly("F", &Trajectory::F, "friction force [N] (joint: torque [N m])")
      .def_readonly("state_names", &Trajectory::state_names, "the friction states, e.g. ['z']")
      .def_readonly("states", &Trajectory::states, "one array per friction state")
      .def_readonly("steps", &Trajectory::steps, "integrator steps taken")
      .def_readonly("rhs_evals", &Trajectory::rhs_evals, "right-hand-side evaluations")
      .def_readonly("unconverged_stages", &Trajectory::unconverged_stages,
                    "trbdf2: stages without Newton convergence")
      .def_readonly("warnings", &Trajectory::warnings, "accepted but doubtful")
      .def(py::pickle(
          [](const Trajectory& t) {
            return pickle_state(py::make_tuple(t.state_names, t.t, t.x, t.v, t.F, t.states, t.steps,
                                               t.rhs_evals, t.unconverged_stages, t.warnings));
          },
          [](const py::tuple& state) {
            const auto f = unpickle_state(state, "SystemTrajectory", 10).cast<py::tuple>();
            Trajectory t;
            t.state_names = f[0].cast<std::vector<std::string>>();
            t.t = f[1], t.x = f[2], t.v = f[3], t.F = f[4];
            t.states = f[5].cast<py::list>();
            t.steps = f[6].cast<long>();
            t.rhs_evals = f[7].cast<long>();
            t.unconverged_stages = f[8].cast<long>();
            t.warnings = f[9].cast<std::vector<std::string>>();
            return t;
          }))
      .def("__repr__", [](const Trajectory& t) {
        return "SystemTrajectory(samples=" + std::to_string(py::len(t.t)) +
               ", steps=" + std::to_string(t.steps) + ")";
      });

  py::class_<SystemFile>(m, "SystemFile", "A SYSTEM.json file (io::read_system_file).")
      .def_readonly("system", &SystemFile::system, "'stick-slip' or 'joint'")
      .def_readonly("spec", &SystemFile::spec, "StickSlipSpec or JointSpec")
      .def_readonly("friction", &SystemFile::friction, "the friction model's Params");

  def_simulate_spec<sim::StickSlipSpec>(
      m, "simulate_stick_slip",
      "Simulate the stick-slip benchmark with a dynamic friction model (lugre, dahl or "
      "elasto-plastic Params, or a MODEL.json path): the CLI's `simulate --system stick-slip`, "
      "GIL released. Returns a SystemTrajectory. progress: as simulate's (every 1 % of t_end).");
  def_simulate_spec<sim::JointSpec>(
      m, "simulate_joint",
      "Simulate the torque-driven rotary joint with a dynamic friction model: the CLI's "
      "`simulate --system joint`, GIL released. Returns a SystemTrajectory. progress: as "
      "simulate's (every 1 % of t_end).");
  m.def("read_system", &read_system, py::arg("path"),
        "Read a SYSTEM.json file (io::read_system_file).");
  m.def(
      "simulate_system",
      [](const py::object& system, const sim::SimOptions& options, const py::object& progress) {
        SystemFile f =
            py::isinstance<SystemFile>(system) ? system.cast<SystemFile>() : read_system(system);
        return run(f.system == "stick-slip"
                       ? system_input(f.spec.cast<sim::StickSlipSpec>(), f.friction)
                       : system_input(f.spec.cast<sim::JointSpec>(), f.friction),
                   options, progress);
      },
      py::arg("system"), py::arg("options") = sim::SimOptions{}, py::kw_only(),
      py::arg("progress") = py::none(),
      "Simulate a SystemFile or a SYSTEM.json path (the CLI's `simulate --system`). progress: as "
      "simulate's (every 1 % of t_end).");
}

}  // namespace frictionlab::python
