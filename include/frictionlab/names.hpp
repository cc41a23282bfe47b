// frictionlab: the one home of an enum's names — the table that a name function, its parse
// function and the "known: a, b, c" list of an error message all read — part of the base target
// frictionlab::models (std only).
//
//   enum class Grade { good, doubtful, bad };
//   inline constexpr std::array<Named<Grade>, 3> kGradeNames{{
//       {Grade::good, "good"}, {Grade::doubtful, "doubtful"}, {Grade::bad, "bad"}}};
//   static_assert(names_every(kGradeNames, Grade::bad));   every enumerator up to the last, once
//
//   name_of(kGradeNames, Grade::bad)            "bad"; the fallback ("" unless given) for a
//                                               value the table lacks
//   parse_name(kGradeNames, "bad")              Grade::bad; std::nullopt for an unknown text
//   known_names(kGradeNames)                    "good, doubtful, bad" (messages, --help)
//   known_names(kGradeNames, ", ", " or ")      "good, doubtful or bad"
// The table's order is the order of known_names. Names are string literals, so name_of(...)
// .data() is a C string for the functions that return const char*.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace frictionlab {

/// One enumerator and its name (or description).
template <class E>
struct Named {
  E value;
  std::string_view name;
};

/// The name of `value` in `table`; `fallback` if the table has none.
template <class E, std::size_t N>
constexpr std::string_view name_of(const std::array<Named<E>, N>& table, E value,
                                   std::string_view fallback = {}) noexcept {
  for (const Named<E>& n : table)
    if (n.value == value) return n.name;
  return fallback;
}

/// The enumerator named `text` in `table` (exact, case-sensitive match); nullopt if none.
template <class E, std::size_t N>
constexpr std::optional<E> parse_name(const std::array<Named<E>, N>& table,
                                      std::string_view text) noexcept {
  for (const Named<E>& n : table)
    if (n.name == text) return n.value;
  return std::nullopt;
}

/// The names of `table` in its order, joined by `sep`, the last two by `last_sep` (default:
/// `sep`): "lsq, grid, two-stage", or "sr3, idim or oe" with last_sep = " or ".
template <class E, std::size_t N>
std::string known_names(const std::array<Named<E>, N>& table, std::string_view sep = ", ",
                        std::optional<std::string_view> last_sep = std::nullopt) {
  std::string s;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) s += (i + 1 == N && last_sep) ? *last_sep : sep;
    s += table[i].name;
  }
  return s;
}

/// Whether `table` names each enumerator from 0 to `last` exactly once and nothing else (for a
/// static_assert beside the table: an enumerator added after `last` must extend both).
template <class E, std::size_t N>
constexpr bool names_every(const std::array<Named<E>, N>& table, E last) noexcept {
  if (N != static_cast<std::size_t>(last) + 1) return false;
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t count = 0;
    for (const Named<E>& n : table)
      if (static_cast<std::size_t>(n.value) == i) ++count;
    if (count != 1) return false;
  }
  return true;
}

}  // namespace frictionlab
