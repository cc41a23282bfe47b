// frictionlab workflows: demo (docs/cli.md, "demo"), the README's main job on built-in data:
//
// (a) LuGre with the default (Canudas de Wit 1995) parameters driven by a smooth velocity with
//     reversals, v(t) = 10 sin(2 pi t) + 4 sin(2 pi 2.7 t) mm/s over 2 s, sampled at 10 ms and at
//     0.1 ms: the exact step, implicit and forward Euler, each compared with the exact step on the
//     0.1 ms record at the 10 ms samples;
// (b) the stick-slip benchmark (sim::StickSlipSpec defaults) with LuGre friction by TR-BDF2
//     (h = 10 ms), ROS2 (h = 1 ms) and the CVODE reference (rtol 1e-10), on a 10 ms output grid;
// (c) identification: a sensorless-torque record (reference 000's channels) simulated from
//     documented true parameters plus noise, fitted by lsq, validated on a second record.
//
// Nothing is printed or written: io/demo_files.hpp writes the files, the CLI prints the tables.
#pragma once

#include <array>

#include <string>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/sim/systems.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::workflows {

/// One scheme of (a), evaluated at the 10 ms samples.
struct StepSizeRun {
  std::string label;   ///< "exact", "implicit Euler", "forward Euler"
  std::string step;    ///< "10 ms", "0.1 ms"
  std::string column;  ///< its column name in the table of F ("F_exact_10ms", ...)
  Method method = Method::exact;
  double h = 0;  ///< its input sampling step [s]
  /// First 10 ms sample at which F or z is not finite, -1 if none. The statistics below cover
  /// the samples before it.
  long non_finite = -1;
  /// First 10 ms sample at which |z| > state_bound (1 + 1e-9), -1 if none.
  long left_bound = -1;
  double max_error = 0;         ///< max |F - F_ref| [N]
  double max_z_over_bound = 0;  ///< max |z| / state_bound [-]
  /// F [N] and F - F_ref [N] at the 10 ms samples; empty if non_finite >= 0.
  std::vector<double> F, error;
};

struct StepSizeComparison {
  LuGre<double>::Params params;  ///< the default LuGre parameters
  double state_bound = 0;        ///< max(Fc, Fs) / sigma0 [m]
  double duration = 0;           ///< [s]
  std::vector<double> t, v;      ///< the 10 ms input samples [s], [m/s]
  std::vector<double> F_ref;     ///< the exact step on the 0.1 ms input, at the 10 ms samples [N]
  std::vector<StepSizeRun> runs;
};

/// One integrator of (b).
/// The names of the runs of (b), in their order (StickSlipRun::name).
inline constexpr std::array<const char*, 3> kStickSlipRunNames{"trbdf2", "rosenbrock", "cvode"};

struct StickSlipRun {
  std::string name;        ///< "trbdf2", "rosenbrock", "cvode"
  std::string label;       ///< "trbdf2 (TR-BDF2, h = 10 ms)", ...
  std::string short_name;  ///< "TR-BDF2 10 ms", ...
  sim::SimOptions options;
  sim::SystemTrajectory trajectory;
  double seconds = 0;      ///< wall time of the run [s]
  double max_dx = 0;       ///< max |x - x_reference| over the output grid [m] (0: reference)
  bool reference = false;  ///< the CVODE run the others are compared with
};

struct StickSlipComparison {
  sim::StickSlipSpec spec;
  LuGre<double>::Params friction;
  double peak_elongation = 0;      ///< max |v_drive t - x| of the reference [m]
  std::vector<StickSlipRun> runs;  ///< the reference last
};

/// A true parameter of (c) and its estimate.
struct ParameterCheck {
  std::string name;  ///< reference 000's name (Km, Kw, Fc, Fs, Vth, S0, S1)
  double truth = 0;
  double estimate = 0;
  double std_error = 0;
  double z = 0;  ///< (estimate - truth) / std_error
};

struct DemoIdentification {
  double Km = 0;                ///< true torque constant [Nm/A]
  LuGre<double>::Params truth;  ///< true friction
  identify::SyntheticOptions train_options, validation_options;
  data::Record train, validation;        ///< t, current, velocity, torque (force)
  identify::FitResult fit;               ///< lsq fit on `train`
  identify::Metrics validation_metrics;  ///< of `fit` on `validation`
  std::vector<ParameterCheck> parameters;
};

struct DemoOutcome {
  StepSizeComparison step_size;
  StickSlipComparison stick_slip;
  DemoIdentification identification;
};

/// Run (a), (b) and (c). Reports each part; throws Cancelled between parts (and between the
/// runs of a part), identify's errors from the fit, std::logic_error if a fitted parameter is
/// missing or the output grids of (b) differ.
DemoOutcome run_demo(const Progress& progress = {});

}  // namespace frictionlab::workflows
