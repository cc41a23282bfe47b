// frictionlab: MODEL.json files (docs/file-formats.md, "MODEL.json"; parameter names, defaults
// and valid ranges: docs/models.md).
//
//   {"model": "lugre", "params": {"sigma0": 1e5, "Fc": 1, "Fs": 1.5, "vs": 0.001}}
//
// Model names: frictionlab::model_names() (models/model_spec.hpp, the one table). Missing
// parameters take the documented defaults; unknown keys, wrong JSON types, syntax errors and
// invalid values (check() in models/validation.hpp) are InputErrors naming the file and the
// line/column or the parameter. Warnings are returned.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "frictionlab/models/model_spec.hpp"
#include "frictionlab/models/temperature_dependence.hpp"

namespace frictionlab::io {

struct ModelFile {
  ModelSpec spec;
  /// Accepted with a warning, formatted "FILE: [CONTEXT: ]parameter 'NAME': message".
  std::vector<std::string> warnings;
  /// "temperature": the law its levels follow (models/temperature_dependence.hpp, which
  /// parameters: models/<model>/temperature.hpp), read where the reader takes one
  /// (ModelTemperature::taken); none: temperature-free.
  std::optional<TemperatureDependence<double>> temperature;
};

/// A model object may accept a warning its parameters raise, with the reason, so that a set kept
/// on purpose (a published set that is not passive) reads without it:
///   "accepted_warnings": {"not_passive": "the set of Canudas de Wit et al. 1995, as published"}
/// (docs/file-formats.md, "MODEL.json"). Only warnings with an id (ParamIssue::id) can be
/// accepted; an unknown id or an empty reason is an error.

/// Whether a reader takes a model file's temperature law: `simulate` runs it against the
/// input's temperature; every other reader (the fits' starts, exports, the estimator, MuJoCo,
/// the fleet) refuses a file with one, naming the key, rather than run it at T_ref.
enum class ModelTemperature { refused, taken };

/// Read a MODEL.json file. Throws InputError (unreadable file, syntax, unknown model or key,
/// wrong type, invalid parameter values; all parameter errors are listed, one per line).
ModelFile read_model_file(const std::string& path,
                          ModelTemperature temperature = ModelTemperature::refused);

/// Parse MODEL.json text; `file` names it in messages.
ModelFile parse_model_json(std::string_view text, const std::string& file,
                           ModelTemperature temperature = ModelTemperature::refused);

/// Interpret an already parsed model object; `context` prefixes messages (e.g. "friction").
ModelFile model_from_json(const nlohmann::json& j, const std::string& file,
                          const std::string& context = "",
                          ModelTemperature temperature = ModelTemperature::refused);

/// The law of a "temperature" object of MODEL.json or JOINT.json (docs/file-formats.md):
///   {"law": "linear", "T_ref": 35, "kT": -0.012, "kT_v": -0.02}
/// law "linear" or "exponential", T_ref [degC], kT and kT_v [1/K], all required and finite.
/// Throws InputError naming the file, `context` and the key.
TemperatureDependence<double> temperature_law_from_json(const nlohmann::json& j,
                                                        const std::string& file,
                                                        const std::string& context);

/// The "temperature" object of a law.
nlohmann::ordered_json temperature_law_json(const TemperatureDependence<double>& law);

/// The MODEL.json object of a spec: {"model": NAME, "params": {...}} with every parameter
/// written in documentation order (numbers in shortest round-trip form).
/// model_from_json(to_json(s)) reproduces s (static specs keep only the fields their kind uses).
/// Throws std::invalid_argument if a StaticSpec's parameters do not fit its kind (e.g. coulomb with
/// Fs != Fc).
nlohmann::ordered_json to_json(const ModelSpec& spec);

/// to_json(spec) as indented text with a final newline.
std::string to_json_text(const ModelSpec& spec);

}  // namespace frictionlab::io
