// frictionlab: what to identify and how (options of identify::fit). Equations, methods, defaults
// and their reasons: docs/identification.md.
//
// Host side (allocates, throws FitError). No file I/O: the caller loads a data::Record and
// writes the FitResult.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/identify/progress.hpp"
#include "frictionlab/models/fit_form.hpp"
#include "frictionlab/models/stribeck.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab::identify {

/// A problem with the input of a fit (record, options) that the user can fix. The message is
/// complete (what, where, what is needed).
class FitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What the measured channel `force` of the record is.
enum class ProblemKind {
  friction,    ///< force = friction F(v) [N | Nm]                      (docs: "Problem 1")
  sensorless,  ///< force = joint torque = Km*current - F(v) [Nm]       (reference 000, "Problem 2")
};

/// The model to fit and its structural choices (not estimated).
struct ModelChoice {
  /// A fittable model of the registry (models/registry.hpp: fit_model_names()): "coulomb",
  /// "viscous", "coulomb-viscous", "stribeck", "lugre", "dahl", "elasto-plastic",
  /// "maxwell-slip", "gms". Its parameterisation: models/<model>/fit.hpp.
  std::string name = "lugre";
  /// Separate Fc_pos/Fc_neg (and Fs_pos/Fs_neg where the model has Fs): coulomb,
  /// coulomb-viscous, stribeck, lugre, elasto-plastic, gms.
  bool asymmetric = false;
  StribeckShape shape = StribeckShape::exponential;
  /// Stribeck exponent held fixed at this value. Empty: fixed at 1 for the sensorless problem
  /// (as reference 000) unless fit_alpha, estimated for the friction problem.
  std::optional<double> alpha;
  bool fit_alpha = false;
  /// Number of elements of maxwell-slip and gms (1..kMaxFitElements).
  int elements = 3;
};

using frictionlab::kMaxFitElements;

/// Checks a model choice against the registry (a fittable name; -asym, -rational and the
/// element count only where the model takes them; alpha > 0); throws FitError naming the
/// problem.
void check_model(const ModelChoice& m);

/// Model names accepted by parse_model (the names of docs/models.md, plus "-asym" variants and
/// an element count for the multi-element models): coulomb, coulomb-asym, viscous,
/// coulomb-viscous, coulomb-viscous-asym, stribeck, stribeck-asym, stribeck-rational, lugre,
/// lugre-asym, lugre-rational, dahl, elasto-plastic, maxwell-slip[:n], gms[:n].
/// Throws FitError naming the accepted names.
ModelChoice parse_model(std::string_view name);

/// The name of a model choice as parse_model accepts it ("lugre-asym", "gms:4").
std::string model_name(const ModelChoice& m);

/// The base names (without ":n"), in documentation order.
const std::vector<std::string>& fit_model_names();

enum class FitMethod {
  lsq,        ///< output-error nonlinear least squares (Ceres), the default
  grid,       ///< reference 000's 3-stage brute force (LuGre only)
  two_stage,  ///< static curve from constant-velocity segments, then the dynamic parameters
};

/// The methods' names (`fit --method`, fit.json), in the order messages list them.
inline constexpr std::array<Named<FitMethod>, 3> kFitMethodNames{
    {{FitMethod::lsq, "lsq"}, {FitMethod::grid, "grid"}, {FitMethod::two_stage, "two-stage"}}};
static_assert(names_every(kFitMethodNames, FitMethod::two_stage));

/// "linear" | "zoh" (FitOptions::hold; the names of hold_name, models/common.hpp); throws
/// FitError naming both.
Hold parse_hold(std::string_view name);

/// "lsq" | "grid" | "two-stage"; parse throws FitError.
FitMethod parse_method(std::string_view name);
std::string method_name(FitMethod m);

enum class LossKind { none, huber, cauchy };

/// Options of the `lsq` method (also used for the dynamic stage of `two-stage`).
struct LsqOptions {
  /// Number of starts: start 0 is the data-driven initial guess; start s > 0 multiplies every
  /// positive parameter by a log-uniform random factor in [1/spread, spread] and shifts the
  /// unbounded ones (logits, softmax weights) by a uniform value in [-1, 1].
  /// 0 (automatic): the model's number (its Fit's `starts`: 1 for lugre, lugre-asym and the
  /// static curves, 3 for dahl, elasto-plastic, maxwell-slip and gms); when the best of the
  /// data-driven starts (the initial guess, and a nesting model's nested optimum) did not
  /// converge or ended on its search box, 2 perturbed starts follow.
  int starts = 0;
  double spread = 3.0;
  unsigned seed = 1;
  int max_iterations = 200;
  /// Robust loss rho applied to every residual; scale in the units of the measured channel
  /// (0: 1.5 times the robust noise estimate 1.4826*MAD of the residuals at the initial guess,
  /// estimated again at the robust optimum, from which the fit is repeated once).
  LossKind loss = LossKind::none;
  double loss_scale = 0;
  /// Threads (0: std::thread::hardware_concurrency()): for the starts, and the ones a start
  /// leaves for the Jacobian by time segments (docs/identification.md, "Multi-start"; the
  /// results do not depend on the number).
  int threads = 0;
};

/// Samples used by the static (initialising) fit of the dynamic models: near steady sliding,
/// i.e. far enough from the last reversal and with a velocity that changes by little over the
/// settling time.
struct SteadySelection {
  double v_min_frac = 0.02;  ///< |v| >= v_min_frac * max|v|
  double settle_s = 0.1;     ///< t - (last velocity reversal) >= settle_s [s]
  double rel_change = 0.05;  ///< |dv/dt| * settle_s <= rel_change * |v| (central differences)
};

/// Options of the `grid` method (reference 000). Ranges are [lo, hi] in user units; an empty
/// optional takes the default documented in docs/identification.md.
struct GridOptions {
  int points = 51;            ///< grid points per parameter and pass (reference: 51)
  int passes = 3;             ///< passes per stage: the full range, then 2 narrowed ones
  double narrow_steps = 2.0;  ///< a narrowed pass spans best +- narrow_steps grid steps
  double decel_frac = 0.1;    ///< stage 1: decelerating samples with |v| > decel_frac*max|v|
  double low_frac = 0.2;      ///< stage 2: samples with |v| < low_frac*max|v|
  /// Nominal values: the stage-1 ranges are [nominal/5, 5*nominal] (reference 000). Default:
  /// the static linear least-squares estimate on the stage-1 samples.
  std::optional<double> Km, Kw, Fc;
  std::optional<double> Fs_lo, Fs_hi;    ///< default [0, 3*Fc]
  std::optional<double> Vth_lo, Vth_hi;  ///< default [low_frac*max|v|/50, low_frac*max|v|]
  std::optional<double> S0_lo, S0_hi;    ///< default [S0_init/5, 5*S0_init]
  std::optional<double> S1_lo, S1_hi;    ///< default [0, 5*S1_init] (S1_init: see docs)
  int threads = 0;                       ///< 0: std::thread::hardware_concurrency()
};

/// Constant-velocity segments for `two-stage` (segments.hpp).
struct SegmentOptions {
  double min_duration = 0.3;    ///< a segment lasts at least this long [s]
  double rel_tol = 0.02;        ///< max v - min v within it <= rel_tol*|mean v| + abs_tol
  double abs_tol_frac = 0.002;  ///< abs_tol = abs_tol_frac * max|v|
  double v_min_frac = 0.005;    ///< |mean v| >= v_min_frac * max|v|
  double settle_frac = 0.5;     ///< leading fraction of each segment left out of its mean
};

struct FitOptions {
  ProblemKind problem = ProblemKind::friction;
  ModelChoice model{};
  FitMethod method = FitMethod::lsq;
  /// Units reported for the friction problem: rotary (Nm, rad, rad/s) or translational
  /// (N, m, m/s). The sensorless problem is always rotary.
  bool rotary = false;
  /// Residuals count from t0 + warmup_s on; the simulation always starts at t0 from rest
  /// (every state 0). Use it when the record does not start at rest.
  double warmup_s = 0;
  /// The input velocity between samples in the fit's simulation (docs/identification.md,
  /// "Input hold"): linear (interpolated between samples: a sampled smooth motion) or zoh (held
  /// at the sample's value until the next one: an input from a digital controller or a DAC).
  /// Empty: linear for lsq and two-stage; grid always holds it (forward Euler at the logged
  /// step, as reference 000), and linear there is a FitError.
  std::optional<Hold> hold;
  LsqOptions lsq{};
  GridOptions grid{};
  SegmentOptions segments{};
  SteadySelection steady{};
  /// Progress messages for anything slow (the CLI prints them on stderr with --verbose):
  /// report is called from the calling thread or, serialised by a mutex, from worker threads,
  /// with no fraction (a fit cannot tell its iterations in advance). cancel is polled (from the
  /// calling thread or from worker threads, possibly at once) before every start, every
  /// candidate start point and every solver iteration of lsq and two-stage, and between the
  /// scans and grid passes; returning true stops the fit with Cancelled. Both may be empty.
  Progress progress;
};

}  // namespace frictionlab::identify
