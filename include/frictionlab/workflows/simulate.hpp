// frictionlab workflows: simulate (docs/cli.md, "simulate"): a friction model driven by a sampled
// input (simulate_model), or a coupled mechanical system (simulate_system).
//
// Typed inputs in memory (a model spec and its input series; a system description), typed
// results out; nothing is printed or written (io/simulate_io.hpp reads the input CSV and writes
// the result CSVs, io/simulate_plots.hpp builds the plots).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/model_spec.hpp"
#include "frictionlab/models/temperature_dependence.hpp"
#include "frictionlab/sim/systems.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::workflows {

/// The sampled input of simulate_model: times t plus exactly one of velocity v or displacement x.
struct ModelInput {
  std::vector<double> t;  ///< sample times [s]: at least 2, strictly increasing
  std::vector<double> v;  ///< velocity [m/s] at every t (velocity-driven), or empty
  std::vector<double> x;  ///< displacement [m] at every t (displacement-driven), or empty
  /// Temperature [degC] at every t, where the model has a temperature law
  /// (SimulateModelOptions::temperature); else empty.
  std::vector<double> temperature;
  /// Label of the input in messages (e.g. its file); never read.
  std::string source;
  /// Line of each sample in `source` (1-based), for messages; empty: messages name the sample
  /// index instead.
  std::vector<long> lines;
};

/// The same input without ownership (spans over the caller's arrays: the Python binding reads
/// NumPy arrays in place). A ModelInput converts to it implicitly.
struct ModelInputView {
  std::span<const double> t;            ///< sample times [s]
  std::span<const double> v;            ///< velocity [m/s] at every t, or empty
  std::span<const double> x;            ///< displacement [m] at every t, or empty
  std::span<const double> temperature;  ///< temperature [degC] at every t, or empty
  std::string_view source;              ///< label of the input in messages
  std::span<const long> lines;          ///< line of each sample in `source`, or empty

  ModelInputView() = default;
  ModelInputView(const ModelInput& in)  // NOLINT(google-explicit-constructor): a view of it
      : t(in.t),
        v(in.v),
        x(in.x),
        temperature(in.temperature),
        source(in.source),
        lines(in.lines) {}
};

struct SimulateModelOptions {
  /// Integration method (sim::parse_method reads its names: exact, implicit-euler, euler, rk4).
  Method method = Method::exact;
  /// Input between samples. Unset: linear for a velocity input, zoh for a displacement input
  /// (whose interpolant has a constant velocity over each interval). linear with a displacement
  /// input is an error.
  std::optional<Hold> hold;
  /// Largest internal substep [s]: every interval is split into ceil(h / max_substep) substeps;
  /// 0: one step per interval.
  double max_substep = 0;
  /// The model's temperature law (io::ModelFile::temperature): its levels follow the input's
  /// temperature (sim::run_model with a TemperatureInput). Unset: temperature-free.
  std::optional<TemperatureDependence<double>> temperature;
  /// Whether the outcome holds copies of the input's t, x and v. false: they are left empty
  /// (the caller has them; the Python binding returns its arrays), except v when it is derived
  /// from x.
  bool copy_input = true;
};

/// The largest number of internal substeps simulate_model accepts (SimulateModelOptions::
/// max_substep): 1e8. The exact LuGre step with a linear hold costs about 70 ns (measured: 1e7
/// substeps of examples/data/lugre.json in 0.72 s, Release), so 1e8 substeps are about 7 s;
/// a count beyond it is almost always a max_substep chosen without regard to the record's length
/// (1e-9 s over a 1e6 s record: 1e15 substeps, days of work).
inline constexpr double kMaxSubsteps = 1e8;

/// The number of substeps a record with times `t` takes: the sum over its intervals of
/// max(1, ceil(h / max_substep)), as a double (no overflow); one per interval if
/// max_substep <= 0.
double substep_count(std::span<const double> t, double max_substep);

struct SimulateModelOutcome {
  std::string model;         ///< the model's name ("lugre", ...)
  Hold hold = Hold::linear;  ///< the hold used
  std::vector<double> t;     ///< sample times [s] (the input's)
  std::vector<double> x;     ///< the input displacement [m]; empty for a velocity input
  std::vector<double> v;     ///< velocity [m/s] driving the model (the input's, or from x)
  std::vector<double> F;     ///< friction force at every sample [N]
  std::vector<std::string> state_names;     ///< "z", "z1".."zn", or none (static models)
  std::vector<std::vector<double>> states;  ///< states[i][k]: state i at sample k [m]
  /// The model's invariant bound on |state| [m], 0 if it has none.
  double state_bound = 0;
  /// First sample at which a state left the bound, -1 if none (then `warnings` says so).
  long bound_exceeded = -1;
  /// Accepted but doubtful: the state left its bound (the method is unstable at this step).
  std::vector<std::string> warnings;
};

/// Drive `model` from its zero state along `input` (sim::run_model). A displacement input is
/// turned into the velocity of its piecewise-linear interpolant (sim::velocity_from_displacement).
/// Throws std::invalid_argument if the input has neither or both of v and x, lengths differ, t
/// has fewer than 2 samples or is not strictly increasing, a time or input value exceeds
/// data::kMaxMagnitude (naming the input's line), the substep count (substep_count) exceeds
/// kMaxSubsteps (before any work; the message says the count and the smallest max_substep that
/// fits), hold is linear with a displacement input, the method is not supported by the model, a
/// temperature law lacks the input's temperature or a temperature is given without a law, or a
/// temperature is not finite, below absolute zero or beyond the law's positive scale (naming
/// the input's line);
/// std::runtime_error if the result is not finite or a force exceeds data::kMaxMagnitude (naming
/// the time and the input's line); Cancelled.
SimulateModelOutcome simulate_model(const ModelSpec& model, const ModelInputView& input,
                                    const SimulateModelOptions& options,
                                    const Progress& progress = {});

/// A coupled mechanical system (docs/simulation.md): which one, its parameters and its friction.
struct SystemInput {
  sim::SystemKind kind = sim::SystemKind::stick_slip;
  sim::StickSlipSpec stick_slip{};  ///< used if kind == stick_slip
  sim::JointSpec joint{};           ///< used if kind == joint
  sim::FrictionParams friction{};
};

struct SimulateSystemOutcome {
  /// Time [s], position x [m] or q [rad], velocity, friction force [N] or torque [N m], the
  /// friction states, and the integrator's step and evaluation counts.
  sim::SystemTrajectory trajectory;
  /// Accepted but doubtful (implicit stages without Newton convergence).
  std::vector<std::string> warnings;
};

/// Simulate the system with sim::simulate_stick_slip / sim::simulate_joint. Throws
/// std::invalid_argument naming the parameter or option (h, output_dt, rtol, ...) for impossible
/// specifications; std::runtime_error if the result is not finite (naming the time); Cancelled.
SimulateSystemOutcome simulate_system(const SystemInput& system, const sim::SimOptions& options,
                                      const Progress& progress = {});

}  // namespace frictionlab::workflows
