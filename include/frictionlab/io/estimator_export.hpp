// frictionlab: what `frictionlab export c|json|mujoco` read and write (docs/cli.md, "export";
// docs/file-formats.md, "ESTIMATOR.json"; docs/estimator.md).
//
// Inputs (read_friction_source): a fit.json of `frictionlab fit` (its "model", and its "Km" for a
// --problem sensorless fit), an estimator parameter file (ESTIMATOR.json, written by `export
// json`), or a MODEL.json. Outputs:
//   - ESTIMATOR.json: {"format": "frictionlab-estimator", "version": 1, "source", "Km", "hold",
//     "friction": MODEL.json object of a lugre model};
//   - a self-contained C99 .h/.c pair with the parameters baked in as constants and the
//     estimator's step functions (the C implementation of src/estimator/fl_estimator_impl.h);
//   - an MJCF fragment for MuJoCo (dcmotor LuGre attributes, or joint frictionloss/damping), with
//     the notes of what MuJoCo cannot represent.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/estimator/torque_estimator.hpp"
#include "frictionlab/io/model_json.hpp"

namespace frictionlab::io {

/// A friction model read for an export, and what its file says beyond the model.
struct FrictionSource {
  std::string file;
  std::string kind;          ///< "fit.json", "ESTIMATOR.json" or "MODEL.json"
  ModelSpec spec;            ///< the friction model
  std::optional<double> Km;  ///< a sensorless fit.json's and an ESTIMATOR.json's Km [Nm/A]
  std::optional<Hold> hold;  ///< an ESTIMATOR.json's hold
  /// Accepted with a warning ("FILE: ...").
  std::vector<std::string> warnings;
};

/// Read a fit.json, ESTIMATOR.json or MODEL.json (told apart by their "format" key; a MODEL.json
/// has none). Throws InputError naming the file and the key or parameter.
FrictionSource read_friction_source(const std::string& path);
FrictionSource parse_friction_source(std::string_view text, const std::string& file);

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
/// identifier: std::invalid_argument otherwise). `source` names the parameter file in comments.
CCode estimator_c_code(const estimator::EstimatorParams<double>& p, const std::string& name,
                       bool single_precision, const std::string& source);

struct MujocoOptions {
  std::string joint = "joint";  ///< the joint the friction acts on
  double gear = 1.0;            ///< motor velocity / joint velocity of the model's units
};

struct MujocoFragment {
  std::string xml;                 ///< the fragment, with its notes as an XML comment
  std::vector<std::string> notes;  ///< what MuJoCo cannot represent, with the deviation
};

/// The MJCF fragment for a friction model: lugre -> a passive dcmotor actuator with the lugre
/// and damping attributes; coulomb, viscous, coulomb-viscous, stribeck -> the joint's
/// frictionloss and damping. Other models: std::invalid_argument (MuJoCo has no equivalent).
MujocoFragment mujoco_fragment(const ModelSpec& spec, const MujocoOptions& o,
                               const std::string& source);

}  // namespace frictionlab::io
