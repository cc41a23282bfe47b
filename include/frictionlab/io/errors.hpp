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
//
// Input text inside a message (a CSV field, a column or key name, an option value) is quoted
// with the helpers below, the one home of that idea:
//   quote_text("1.0\0x")   "'1.0\x00x'"   printable and at most ~60 bytes (printable_text)
//   join_names(names)      "a, b, ... and 999992 more"   at most 8 names, each printable
//   printable_lines(msg)   every line of a message printable: the last guard, applied to every
//                          InputError, so none carries a NUL, a control byte or a byte that
//                          is not UTF-8.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace frictionlab::io {

namespace text_detail {

inline unsigned byte_at(std::string_view s, std::size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u;
}

/// The length of the valid UTF-8 character at s[i] (RFC 3629: no overlong form, no surrogate,
/// nothing above U+10FFFF), 0 if the byte there does not start one.
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto cont = [&](std::size_t k) { return (byte_at(s, k) & 0xC0u) == 0x80u; };
  const unsigned c = byte_at(s, i), c1 = byte_at(s, i + 1);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    return (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) ? 0 : 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    return (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90) ? 0 : 4;
  }
  return 0;
}

/// True for a valid character of n bytes at s[i] that is not shown as it is: C0 controls, DEL,
/// C1 controls (U+0080..U+009F), and the invisible marks that reorder text or break a line
/// (U+200E, U+200F, U+2028..U+202E, U+2066..U+2069).
inline bool utf8_hidden(std::string_view s, std::size_t i, std::size_t n) {
  const unsigned c = byte_at(s, i), c1 = byte_at(s, i + 1), c2 = byte_at(s, i + 2);
  if (n == 1) return c < 0x20 || c == 0x7F;
  if (n == 2) return c == 0xC2 && c1 < 0xA0;
  if (n != 3 || c != 0xE2) return false;
  return (c1 == 0x80 && (c2 == 0x8E || c2 == 0x8F || (c2 >= 0xA8 && c2 <= 0xAE))) ||
         (c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9);
}

}  // namespace text_detail

/// Input text made printable and bounded for a message: valid UTF-8 is kept as it is, except
/// the characters of text_detail::utf8_hidden (controls, direction marks); those, and every byte
/// that is not part of valid UTF-8 (a lone 0xFF, an overlong form), are written \xNN, one per byte
/// (a NUL is \x00, a tab \x09). A result longer than `max_bytes` bytes is cut at a character
/// boundary and ends "...". A message holding it is one line that a terminal shows as it is,
/// however binary or long the input.
inline std::string printable_text(std::string_view text, std::size_t max_bytes = 60) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = text_detail::utf8_length(text, i);
    const std::size_t step = std::max<std::size_t>(n, 1);
    std::string piece;
    if (n == 0 || text_detail::utf8_hidden(text, i, n)) {
      for (std::size_t k = i; k < i + step; ++k) {
        const unsigned b = text_detail::byte_at(text, k);
        piece += {'\\', 'x', kHex[b >> 4], kHex[b & 0xFu]};
      }
    } else {
      piece.assign(text.substr(i, n));
    }
    if (out.size() + piece.size() > max_bytes) return out + "...";
    out += piece;
    i += step;
  }
  return out;
}

/// printable_text in single quotes: "'1.0abc'", "'\x00\x01'", "'aaaa...'".
inline std::string quote_text(std::string_view text, std::size_t max_bytes = 60) {
  // Appended, not operator+ on a literal: that trips a g++ 12 -Wrestrict false positive.
  std::string s(1, '\'');
  s.append(printable_text(text, max_bytes)).push_back('\'');
  return s;
}

/// printable_text of every line of a message (its newlines kept), each cut to `max_line_bytes`:
/// the last guard of a message that may hold input text not quoted with quote_text.
inline std::string printable_lines(std::string_view text, std::size_t max_line_bytes = 4096) {
  std::string out;
  for (std::size_t start = 0;;) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out += printable_text(text.substr(start, end - start), max_line_bytes);
    if (end == text.size()) return out;
    out += '\n';
    start = end + 1;
  }
}

/// Names of the user's input (column or variable names) for a message: join_list of at most
/// `max_names` of them, each printable_text(name, 40), then "... and N more" for the rest, so
/// that a header of a million columns gives a message of a few hundred characters.
inline std::string join_names(const std::vector<std::string>& names, std::size_t max_names = 8) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < max_names; ++i) {
    if (i) s += ", ";
    s += printable_text(names[i], 40);
  }
  if (names.size() > max_names)
    s += ", ... and " + std::to_string(names.size() - max_names) + " more";
  return s;
}

class InputError : public std::runtime_error {
 public:
  /// A problem at FILE:LINE:COLUMN; line = 0 and/or column = 0 mean "not applicable".
  InputError(std::string file, long line, long column, std::string message)
      : std::runtime_error(format(file, line, column, message)),
        file_(std::move(file)),
        line_(line),
        column_(column),
        detail_(printable_lines(message)) {}

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
    return detail + "parameter " + quote_text(param) + ": " + message;
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

  /// "FILE[:LINE[:COLUMN]]: message", made printable (printable_lines).
  static std::string format(const std::string& file, long line, long column,
                            const std::string& message) {
    std::string s = printable_text(file, 4096);
    if (line > 0) {
      s += ':' + std::to_string(line);
      if (column > 0) s += ':' + std::to_string(column);
    }
    return printable_lines(s + ": " + message);
  }

 private:
  std::string file_;
  long line_ = 0;
  long column_ = 0;
  std::string detail_;
  std::string param_;
};

}  // namespace frictionlab::io
