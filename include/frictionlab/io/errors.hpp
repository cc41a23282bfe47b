// frictionlab: the error type of the I/O layer (docs/file-formats.md, section "Error messages").
//
// Every problem with a user's input file is reported as an InputError whose message names the
// place of the problem:
//   FILE:LINE:COLUMN: message      a position in a text file (CSV: COLUMN = 1-based field index;
//                                  JSON: character column within the line)
//   FILE:LINE: message             a whole line (COLUMN = 0)
//   FILE: parameter 'NAME': message
//                                  a parameter of a MODEL.json / SYSTEM.json file, named exactly as
//                                  in docs/models.md (friction parameters of a SYSTEM.json file are
//                                  prefixed "friction: ")
//   FILE: message                  the file as a whole (LINE = 0)
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace frictionlab::io {

class InputError : public std::runtime_error {
 public:
  /// A problem at FILE:LINE:COLUMN; line = 0 and/or column = 0 mean "not applicable".
  InputError(std::string file, long line, long column, std::string message)
      : std::runtime_error(format(file, line, column, message)),
        file_(std::move(file)),
        line_(line),
        column_(column),
        detail_(std::move(message)) {}

  /// A problem with one parameter: "FILE: [CONTEXT: ]parameter 'NAME': message".
  static InputError parameter(std::string file, std::string param, const std::string& message,
                              const std::string& context = "") {
    InputError e(std::move(file), 0, 0, parameter_detail(param, message, context));
    e.param_ = std::move(param);
    return e;
  }

  /// "[CONTEXT: ]parameter 'NAME': message" (the detail of a parameter error).
  static std::string parameter_detail(const std::string& param, const std::string& message,
                                      const std::string& context = "") {
    std::string detail = context.empty() ? std::string() : context + ": ";
    return detail + "parameter '" + param + "': " + message;
  }

  /// Record the parameter an error is about (for errors built from several messages).
  InputError& with_param(std::string param) {
    param_ = std::move(param);
    return *this;
  }

  const std::string& file() const noexcept { return file_; }
  long line() const noexcept { return line_; }
  long column() const noexcept { return column_; }
  /// The parameter name for parameter errors, else empty.
  const std::string& param() const noexcept { return param_; }
  /// The message without the location prefix.
  const std::string& detail() const noexcept { return detail_; }

  static std::string format(const std::string& file, long line, long column,
                            const std::string& message) {
    std::string s = file;
    if (line > 0) {
      s += ':' + std::to_string(line);
      if (column > 0) s += ':' + std::to_string(column);
    }
    return s + ": " + message;
  }

 private:
  std::string file_;
  long line_ = 0;
  long column_ = 0;
  std::string detail_;
  std::string param_;
};

}  // namespace frictionlab::io
