// frictionlab (private to src/io): strict reading of JSON objects for MODEL.json / SYSTEM.json.
//
// JsonFields wraps one JSON object whose keys are checked against an allowed list; every typed
// getter throws io::InputError naming the key as a parameter ("FILE: [CONTEXT: ]parameter 'KEY':
// expected a number, got string"). parse_json_text turns nlohmann's syntax errors into
// "FILE:LINE:COLUMN: JSON syntax error: ..." and rejects duplicate keys.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/io/errors.hpp"

namespace frictionlab::io::detail {

using nlohmann::json;

/// A JSON value's type for messages: "number", "string", "boolean", "array", "object", "null".
std::string type_of(const json& j);

/// Parse JSON text strictly (syntax errors with line and column, duplicate keys, number overflow).
json parse_json_text(std::string_view text, const std::string& file);

class JsonFields {
 public:
  /// `obj` may be null (treated as an empty object). `owner` completes the message for unknown
  /// keys, e.g. "model 'lugre'". Throws InputError for a key not in `allowed`.
  JsonFields(const json* obj, std::string file, std::string context, std::string owner,
             std::vector<std::string> allowed);

  bool has(const std::string& key) const;
  double number(const std::string& key, double def) const;
  bool boolean(const std::string& key, bool def) const;
  int integer(const std::string& key, int def) const;
  std::string string(const std::string& key, const std::string& def) const;
  /// A non-empty array of numbers.
  std::vector<double> numbers(const std::string& key) const;

  /// Throw InputError::parameter for `key`.
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

  const std::string& file() const { return file_; }
  const std::string& context() const { return context_; }

 private:
  const json& at(const std::string& key) const;
  const json* obj_;
  std::string file_, context_, owner_;
  std::vector<std::string> allowed_;
};

/// Throw InputError "FILE: key 'KEY': message" (a top-level key of fit.json, ESTIMATOR.json).
[[noreturn]] void fail_key(const std::string& file, const std::string& key,
                           const std::string& message);

/// obj[key]; fail_key(file, key, "missing") if absent.
const json& member(const json& obj, const std::string& file, const std::string& key);

/// Throw InputError "FILE: [CONTEXT: ]message".
[[noreturn]] void fail_file(const std::string& file, const std::string& context,
                            const std::string& message);

}  // namespace frictionlab::io::detail
