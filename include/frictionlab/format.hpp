// frictionlab: the one number formatter for text meant for people and files (messages,
// warnings, progress, tables) — part of the base target frictionlab::models (std only).
//
//   format_exact(0.1)       "0.1"      shortest text that reads back to the same double (the
//                                      JSON and CSV writers' form; parameter values in messages)
//   format_number(1/3.)     "0.333333" printf's %.6g: derived quantities, rates, costs
//   format_number(x, 10)    %.10g
//   round_significant(x, 7) the double nearest to format_number(x, 7): values stored rounded
// Non-finite values read "nan", "inf", "-inf" in all of them. The other way:
//   parse_number("2.5")    2.5       the number a whole text spells (command-line values)
#pragma once

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frictionlab {

/// The shortest decimal text that reads back to exactly x (std::to_chars); "nan", "inf", "-inf".
inline std::string format_exact(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), r.ptr);
}

/// x with `digits` (1..17) significant digits, as printf's %.<digits>g; "nan", "inf", "-inf".
inline std::string format_number(double x, int digits = 6) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::array<char, 40> buf{};
  std::snprintf(buf.data(), buf.size(), "%.*g", digits, x);
  return buf.data();
}

/// x in scientific notation with `decimals` (0..17) digits after the point, as printf's
/// %.<decimals>e ("1.23e-04"); "nan", "inf", "-inf".
inline std::string format_scientific(double x, int decimals) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::array<char, 40> buf{};
  std::snprintf(buf.data(), buf.size(), "%.*e", decimals, x);
  return buf.data();
}

/// x rounded to `digits` (1..17) significant digits: the double that format_number(x, digits)
/// reads as (plot data kept small, scores compared without last-bit noise); x if not finite.
inline double round_significant(double x, int digits) {
  if (!std::isfinite(x)) return x;
  std::array<char, 40> buf{};
  std::snprintf(buf.data(), buf.size(), "%.*e", digits - 1, x);
  return std::strtod(buf.data(), nullptr);
}

/// Numbers in printed tables, plot titles and summaries: format_number(x, digits), or "-" for a
/// value that is not finite (not available).
inline std::string format_display(double x, int digits = 5) {
  return std::isfinite(x) ? format_number(x, digits) : std::string("-");
}

/// x with `decimals` (0..17) digits after the point, as printf's %.<decimals>f (times, losses in
/// progress lines); "nan", "inf", "-inf".
inline std::string format_fixed(double x, int decimals) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::array<char, 352> buf{};
  std::snprintf(buf.data(), buf.size(), "%.*f", decimals, x);
  return buf.data();
}

/// The items separated by ", " ("a, b, c"; "" for none): lists in messages and help texts.
inline std::string join_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) s += ", ";
    s += items[i];
  }
  return s;
}

/// The finite number that the whole of `text` spells (std::stod's syntax: "2.5", "1e-3",
/// " 7" with leading blanks), or nullopt for an empty text, trailing characters ("2x"), a value
/// that is not finite ("nan", "inf") or out of range as std::stod has it ("1e999", and "1e-400"
/// or the subnormal "5e-324", which underflow).
inline std::optional<double> parse_number(std::string_view text) {
  const std::string s(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(s.c_str(), &end);
  // strtod's syntax is std::stod's; ERANGE (overflow, underflow) is stod's out_of_range.
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(x)) return std::nullopt;
  return x;
}

}  // namespace frictionlab
