// frictionlab: what `frictionlab export c|json|mujoco` read and write (docs/cli.md, "export";
// docs/file-formats.md, "ESTIMATOR.json"; docs/estimator.md).
//
// Inputs (read_friction_source): a fit.json of `frictionlab fit` (its "model", and its "Km" for a
// --problem sensorless fit), a joint_fit.json of `frictionlab fit-joint` (the friction of its
// "joint", a joint-lugre set as the equal lugre set: models/joint_lugre/as_lugre.hpp; the rest of
// the joint, which no target takes, is stated by joint_fit_notes), an estimator parameter file
// (ESTIMATOR.json, written by `export json`), or a MODEL.json. Outputs:
//   - ESTIMATOR.json: {"format": "frictionlab-estimator", "version": 1, "source", "Km", "hold",
//     "friction": MODEL.json object of a lugre model};
//   - a self-contained C99 .h/.c pair with the parameters baked in as constants and the
//     estimator's step functions (the C implementation of src/estimator/fl_estimator_impl.h);
//   - an MJCF fragment for MuJoCo (dcmotor LuGre attributes, or joint frictionloss/damping), with
//     the notes of what MuJoCo cannot represent.
#pragma once

#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/estimator/torque_estimator.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/models/temperature_dependence.hpp"
#include "frictionlab/sim/joint_model.hpp"

namespace frictionlab::io {

/// A friction model read for an export, and what its file says beyond the model.
struct FrictionSource {
  std::string file;
  std::string kind;  ///< "fit.json", "joint_fit.json", "robot_fit.json", "ESTIMATOR.json" or
                     ///< "MODEL.json"
  ModelSpec spec;    ///< the friction model
  std::optional<double> Km;  ///< a sensorless fit.json's and an ESTIMATOR.json's Km [Nm/A]
  std::optional<Hold> hold;  ///< an ESTIMATOR.json's hold
  /// A joint_fit.json's joint model (inertia, gravity, offset; its friction as read, of which
  /// `spec` is the lugre form for a joint-lugre set) and its "method"; unset for other files.
  std::optional<sim::JointModel> joint;
  std::string method;
  /// Accepted with a warning ("FILE: ...").
  std::vector<std::string> warnings;
  /// A fit.json's or joint_fit.json's standard errors by the estimator's parameter name (Km,
  /// sigma2, Fc_pos, Fc_neg; a joint fit's symmetric Fc as both), where the fit has them: the
  /// adaptive estimator's initial covariance (export c --adaptive).
  std::map<std::string, double> std_errors;
};

/// Read a fit.json, joint_fit.json, ESTIMATOR.json or MODEL.json (told apart by their "format"
/// key; a MODEL.json has none). Throws InputError naming the file and the key or parameter; for
/// a joint_fit.json whose joint-lugre friction has no lugre equivalent (tanh sign, several
/// Stribeck terms, viscous powers above 1: as_lugre), naming the file, "joint: friction", the
/// model and the obstacle.
///
/// A robot_fit.json of `fit-robot` holds every joint of an arm: `joint` names the one to read
/// (required for it, refused for the other files): its registry model's fit.json (`--friction`),
/// or its linear Fc and Fv as a coulomb-viscous model (each must be a base parameter of its own);
/// Km is its identified drive gain K_JOINT when the fit has one (`--loaded`). The warnings say
/// what is not friction (the torque offset, the rigid-body torques).
/// `other`: what a `joint` given for another file is: refused (an InputError naming the file),
/// or the name the target gives the joint (export mujoco), which the caller uses.
enum class JointOption { refused, target_name };
/// What a joint fit's load dependence or temperature law is to the reader: refused (an
/// InputError naming the file, "joint: load" or "joint: temperature": an export's target takes
/// no load or temperature input), or kept in FrictionSource::joint for a target that runs them
/// (frictionlab's friction inside MuJoCo, mujoco/friction.h), `spec` then being the load-free
/// friction at the law's T_ref.
enum class JointDependences { refused, kept };
/// A joint model's friction as an export reads it from a joint_fit.json (kind
/// "joint_fit.json", `file` naming it, `method` the fit's): the joint, and its friction as a
/// registry model (a joint-lugre set as its lugre form). Throws InputError naming the file and
/// "joint: friction" for a joint-lugre set without a lugre equivalent.
FrictionSource joint_friction_source(const sim::JointModel& joint, const std::string& file,
                                     const std::string& method = "",
                                     JointDependences dependences = JointDependences::refused);

FrictionSource read_friction_source(const std::string& path, const std::string& joint = "",
                                    JointOption other = JointOption::refused,
                                    JointDependences dependences = JointDependences::refused);
FrictionSource parse_friction_source(std::string_view text, const std::string& file,
                                     const std::string& joint = "",
                                     JointOption other = JointOption::refused,
                                     JointDependences dependences = JointDependences::refused);

/// The targets of an export, for joint_fit_notes.
enum class ExportTarget {
  estimator,    ///< export json / c: the torque estimator tau = Km i - F
  lugre_group,  ///< export xml: reference 000's LUGRE group
  mujoco,       ///< export mujoco: an MJCF fragment
};

/// What an export of a joint fit's friction leaves out of the joint model, one note per term
/// with its value and unit: the inertia I, the gravity terms mgCx, mgCy and the torque offset
/// (those the joint's structure has), each saying why the target does not take it and where it
/// belongs instead. Empty for a source without a joint (docs/joint-identification.md, "Shipping
/// a joint fit").
std::vector<std::string> joint_fit_notes(const FrictionSource& s, ExportTarget target);

/// Values given on the command line, taking precedence over the file's.
struct EstimatorOverrides {
  std::optional<double> Km;
  std::optional<Hold> hold;
};

/// The estimator parameters of a source: its model must be a lugre model; Km comes from the
/// overrides, else the file (InputError if neither has one, or if the set is invalid:
/// estimator::check()). The hold defaults to linear. Warnings of the check are appended to
/// *warnings when given.
estimator::EstimatorParams<double> estimator_params(const FrictionSource& s,
                                                    const EstimatorOverrides& o,
                                                    std::vector<std::string>* warnings = nullptr);

/// Read an ESTIMATOR.json file directly (read_friction_source + estimator_params, no overrides).
estimator::EstimatorParams<double> read_estimator_params(const std::string& path);

/// The ESTIMATOR.json object (keys in schema order, numbers in shortest round-trip form).
nlohmann::ordered_json estimator_to_json(const estimator::EstimatorParams<double>& p,
                                         const std::string& source);
/// As indented text with a final newline.
std::string estimator_json_text(const estimator::EstimatorParams<double>& p,
                                const std::string& source);

/// Whether `name` is a C identifier ([A-Za-z_][A-Za-z0-9_]*, not a C keyword).
bool is_c_identifier(const std::string& name);

struct CCode {
  std::string header;  ///< NAME.h
  std::string source;  ///< NAME.c (includes "NAME.h")
};

/// The C99 pair for a valid parameter set (estimator::check without errors), in float
/// (`single_precision`) or double; every function and type is prefixed with `name` (a C
/// identifier: std::invalid_argument otherwise). `source` names the parameter file in comments;
/// `notes` (what the source holds that the estimator does not represent: joint_fit_notes) are
/// listed in the header's comment.
/// The adaptive estimator's start in exported code (include/frictionlab/estimator/
/// adaptive_estimator.h): the initial variances of theta = (Km, kappa_pos, kappa_neg, sigma2,
/// offset, kT), and where each came from.
struct AdaptiveStart {
  std::array<double, 6> P0{};
  double kT = 0;          ///< theta[kT]'s start [1/K] (the C API starts at 0)
  double T_ref = 25;      ///< the options' T_ref [degC]: the temperature of the nominal levels
  unsigned adapt = 0x1e;  ///< the options' mask (bit j: theta[j] adapts): the C API's default
  std::vector<std::string> notes;  ///< "P0 of kappa_pos = (se(Fc_pos)/Fc_pos)^2 = ... (the fit)"
};

/// A joint_fit.json's temperature law (fit-joint --temperature-law), as the adaptive estimator's
/// start takes it (export c --adaptive --temperature): the law with its T_ref [degC], kT and
/// kT_v [1/K], and the fit's standard errors of kT and kT_v [1/K].
struct TemperatureFit {
  std::string file;
  TemperatureDependence<double> law;
  double se_kT = 0;
  std::optional<double> se_kT_v;
};

/// Read a joint_fit.json fitted with a temperature law. Throws InputError naming the file and
/// the key: not a joint_fit.json ("format"), no "joint: temperature", or a kT without a finite
/// standard error or held at 0 as undetermined ("parameters: kT").
TemperatureFit parse_temperature_fit(std::string_view text, const std::string& file);
TemperatureFit read_temperature_fit(const std::string& path);

/// The rules of a temperature seed's options, for every entry point before any work: a
/// temperature fit needs the adaptive estimator, temperature_ref needs a temperature fit and is
/// finite [degC]. Throws std::invalid_argument naming the option (CLI and Python spellings).
void check_temperature_seed(bool adaptive, bool temperature, std::optional<double> temperature_ref);

/// The start from a source's standard errors (FrictionSource::std_errors): Km: se(Km)^2;
/// kappa_pos, kappa_neg: (se(Fc_pos)/Fc_pos)^2, (se(Fc_neg)/Fc_neg)^2; sigma2: se(sigma2)^2;
/// where the source has none, the C API's defaults (0, 0.1, 0.1, 1e-3); offset 1e-2 and kT 0 (a
/// fit has neither), T_ref 25 degC, kT frozen.
///
/// With a temperature fit `t` (docs/estimator.md, "Online adaptation"): T_ref = temperature_ref
/// (the temperature at which the source's levels hold), default t's T_ref0; kT = the relative
/// slope of t's levels at T_ref: linear law s = 1 + kT0 (T - T_ref0): kT0 / c with
/// c = 1 + kT0 (T_ref - T_ref0) (InputError naming t's file unless c > 0); exponential law
/// s = exp(kT0 (T - T_ref0)): kT0 (carried to first order); P0 of kT = (se(kT0) / c)^2 (c = 1
/// for the exponential law); kT adapts (mask 0x3e). kT_v is not carried (a note says so).
AdaptiveStart adaptive_start(const FrictionSource& s, const estimator::EstimatorParams<double>& p,
                             const TemperatureFit* t = nullptr,
                             std::optional<double> temperature_ref = std::nullopt);

/// With `adaptive`, the pair also holds the adaptive estimator (NAME_adaptive_init, _step,
/// _enable, _freeze, _default_options with its start baked in).
CCode estimator_c_code(const estimator::EstimatorParams<double>& p, const std::string& name,
                       bool single_precision, const std::string& source,
                       const std::vector<std::string>& notes = {},
                       const AdaptiveStart* adaptive = nullptr);

/// How MuJoCo carries the friction: a passive dcmotor actuator with LuGre attributes (MuJoCo
/// 3.12+; lugre models), or the joint's frictionloss and damping (every MuJoCo; a lugre model's
/// steady curve, its presliding lost).
enum class MujocoForm { dcmotor, joint };

struct MujocoOptions {
  std::string joint = "joint";     ///< the joint the friction acts on
  double gear = 1.0;               ///< motor velocity / joint velocity of the model's units
  std::optional<MujocoForm> form;  ///< unset: dcmotor for a lugre model, joint for a static one
};

struct MujocoFragment {
  std::string xml;                 ///< the fragment, with its notes as an XML comment
  std::vector<std::string> notes;  ///< what MuJoCo cannot represent, with the deviation
};

/// The MJCF fragment for a friction model: lugre -> a passive dcmotor actuator with the lugre
/// and damping attributes (or, with MujocoForm::joint, its steady curve as below); coulomb,
/// viscous, coulomb-viscous, stribeck -> the joint's frictionloss and damping. Other models, or
/// the dcmotor form of a static one: std::invalid_argument.
/// `source_notes` (what the source holds beyond the friction that the fragment leaves out:
/// joint_fit_notes) come first in the notes.
MujocoFragment mujoco_fragment(const ModelSpec& spec, const MujocoOptions& o,
                               const std::string& source,
                               const std::vector<std::string>& source_notes = {});

}  // namespace frictionlab::io
