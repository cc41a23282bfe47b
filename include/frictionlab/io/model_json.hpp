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
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "frictionlab/models/model_spec.hpp"

namespace frictionlab::io {

struct ModelFile {
  ModelSpec spec;
  /// Accepted with a warning, formatted "FILE: [CONTEXT: ]parameter 'NAME': message".
  std::vector<std::string> warnings;
};

/// A model object may accept a warning its parameters raise, with the reason, so that a set kept
/// on purpose (a published set that is not passive) reads without it:
///   "accepted_warnings": {"not_passive": "the set of Canudas de Wit et al. 1995, as published"}
/// (docs/file-formats.md, "MODEL.json"). Only warnings with an id (ParamIssue::id) can be
/// accepted; an unknown id or an empty reason is an error.

/// Read a MODEL.json file. Throws InputError (unreadable file, syntax, unknown model or key,
/// wrong type, invalid parameter values; all parameter errors are listed, one per line).
ModelFile read_model_file(const std::string& path);

/// Parse MODEL.json text; `file` names it in messages.
ModelFile parse_model_json(std::string_view text, const std::string& file);

/// Interpret an already parsed model object; `context` prefixes messages (e.g. "friction").
ModelFile model_from_json(const nlohmann::json& j, const std::string& file,
                          const std::string& context = "");

/// The MODEL.json object of a spec: {"model": NAME, "params": {...}} with every parameter
/// written in documentation order (numbers in shortest round-trip form).
/// model_from_json(to_json(s)) reproduces s (static specs keep only the fields their kind uses).
/// Throws std::invalid_argument if a StaticSpec's parameters do not fit its kind (e.g. coulomb with
/// Fs != Fc).
nlohmann::ordered_json to_json(const ModelSpec& spec);

/// to_json(spec) as indented text with a final newline.
std::string to_json_text(const ModelSpec& spec);

}  // namespace frictionlab::io
