// frictionlab CLI: the checks of numeric options and the message for an unknown option or
// command (option_checks.cpp). Every numeric option's ->check(...) is one of these, so a bad value
// reads "--starts: must be an integer >= 1, got 0" (CLI11 adds the option's name), never CLI11's
// range 0 .. DBL_MAX written out in full.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace frictionlab::cli {

/// What a numeric option holds: any finite number, or a whole number.
enum class Number { real, integer };

/// The value must spell a finite number of `kind` (an integer: a whole number within the range
/// of a 32-bit int) in [lo, hi], or (lo, hi] when `lo_open`, and within the magnitude policy
/// (frictionlab/limits.hpp: "|1e+300| is beyond the limit 1e+15 of any number (SI units)"). The
/// message states that range in words: "must be a number > 0, got 0", "must be an integer between 0
/// and 8, got 9", "expected an integer, got '1.5'"; an integer beyond the int range names it: "must
/// be an integer between 1 and 2147483647, got 1000000000000". An integer value is rewritten in
/// plain digits ("1e3" -> "1000") so that CLI11's conversion accepts it.
CLI::Validator number_in(Number kind, double lo,
                         double hi = std::numeric_limits<double>::infinity(), bool lo_open = false);

/// A whole number in [0, 2^64 - 1] written in plain digits (a random seed): "must be an
/// integer between 0 and 18446744073709551615 (2^64 - 1), got -1".
CLI::Validator unsigned_64();

/// The range of workflow option `name` (workflows::option_rule: "starts", "threads", ...): the
/// same range the workflow's validate() and the Python keyword accept, in the words above.
CLI::Validator workflow_rule(std::string_view name);

/// A number > 0 (real), or an integer >= 1.
CLI::Validator positive(Number kind = Number::real);

/// A number (or integer) >= 0.
CLI::Validator non_negative(Number kind = Number::real);

/// After CLI11 rejected the command line: when an argument was not recognised (an unknown
/// option of the selected (sub)command, or an unknown subcommand), the message naming it and
/// the nearest known name by edit distance, e.g. "unknown option --no-plot for `fit`; did you
/// mean --no-plots?"; nullopt when every argument was recognised (CLI11's message stands).
std::optional<std::string> unknown_argument_message(const CLI::App& app);

/// Optimal-string-alignment edit distance (insertions, deletions, substitutions and
/// transpositions of adjacent characters, each 1) between `a` and `b`.
std::size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace frictionlab::cli
