// frictionlab CLI: numeric option checks and the unknown-argument message (option_checks.hpp).
#include "option_checks.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <system_error>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/limits.hpp"
#include "frictionlab/workflows/validate.hpp"

namespace frictionlab::cli {
namespace {

// "a number > 0", "an integer >= 1", "an integer between 0 and 8".
std::string range_words(Number kind, double lo, double hi, bool lo_open) {
  const bool integer = kind == Number::integer;
  // Integers in plain digits ("2147483647", not "2.14748e+09").
  const auto num = [&](double x) {
    return integer ? std::to_string(static_cast<long long>(x)) : format_number(x);
  };
  std::string s = integer ? "an integer" : "a number";
  const bool has_hi = std::isfinite(hi);
  if (integer && lo_open) {  // (lo, hi] of the integers is [floor(lo) + 1, hi]
    lo = std::floor(lo) + 1;
    lo_open = false;
  }
  if (has_hi && !lo_open) return s + " between " + num(lo) + " and " + num(hi);
  s += (lo_open ? " > " : " >= ") + num(lo);
  if (has_hi) s += " and <= " + num(hi);
  return s;
}

// The app's option names as typed: "--name" for each long name, "-n" for each short one.
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& n : o->get_lnames()) out.push_back("--" + n);
    for (const auto& n : o->get_snames()) out.push_back("-" + n);
  }
  return out;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    out.push_back(s->get_name());
  return out;
}

// The known name nearest to `typed`: within an edit distance of about a third of its length
// (at least 1, at most 3), or the only name that `typed` begins. Empty when none is close.
std::string nearest(const std::string& typed, const std::vector<std::string>& known) {
  const std::size_t len =
      typed.size() - std::min<std::size_t>(typed.find_first_not_of('-'), typed.size());
  const std::size_t limit = std::clamp<std::size_t>(len / 3, 1, 3);
  std::string best;
  std::size_t best_d = limit + 1;
  std::vector<std::string> extended;
  for (const auto& k : known) {
    const std::size_t d = edit_distance(typed, k);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
    if (k.size() > typed.size() && k.compare(0, typed.size(), typed) == 0) extended.push_back(k);
  }
  if (best.empty() && extended.size() == 1 && len >= 2) best = extended.front();
  return best;
}

}  // namespace

CLI::Validator number_in(Number kind, double lo, double hi, bool lo_open) {
  const bool integer = kind == Number::integer;
  // An integer option holds an int: its range ends at INT_MAX whatever `hi` says.
  const double top = integer ? std::min(hi, static_cast<double>(INT_MAX)) : hi;
  const std::string words = range_words(kind, lo, hi, lo_open);
  const std::string bounded_words = range_words(kind, lo, top, lo_open);
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        const std::optional<double> v = parse_number(s);
        if (!v || (integer && *v != std::floor(*v)))
          return std::string("expected ") + (integer ? "an integer" : "a number") + ", got " +
                 io::quote_text(s);
        const double x = *v;
        if ((lo_open ? !(x > lo) : !(x >= lo)) || !(x <= hi))
          return "must be " + words + ", got " + io::printable_text(s);
        if (auto problem = limit_problem(x); !problem.empty()) return problem;
        if (!(x <= top)) return "must be " + bounded_words + ", got " + io::printable_text(s);
        if (integer) s = std::to_string(static_cast<long long>(x));
        return {};
      },
      words);
}

CLI::Validator unsigned_64() {
  const std::string words = "an integer between 0 and " +
                            std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                            " (2^64 - 1)";
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        std::uint64_t x = 0;
        const char* end = s.data() + s.size();
        const auto [ptr, ec] = std::from_chars(s.data(), end, x);
        if (ec == std::errc() && ptr == end) return {};
        const std::optional<double> v = parse_number(s);
        if (!v || *v != std::floor(*v)) return "expected an integer, got " + io::quote_text(s);
        return "must be " + words + ", got " + io::printable_text(s);
      },
      words);
}

CLI::Validator positive(Number kind) {
  return kind == Number::integer ? number_in(kind, 1) : number_in(kind, 0, HUGE_VAL, true);
}

CLI::Validator non_negative(Number kind) { return number_in(kind, 0); }

CLI::Validator workflow_rule(std::string_view name) {
  const workflows::OptionRule& r = workflows::option_rule(name);
  return number_in(r.integer ? Number::integer : Number::real, r.lo, r.hi, r.lo_open);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string> unknown_argument_message(const CLI::App& app) {
  // The chain of selected (sub)commands: frictionlab, export, json.
  std::vector<const CLI::App*> chain{&app};
  while (!chain.back()->get_subcommands().empty())
    chain.push_back(chain.back()->get_subcommands().front());
  for (auto level = chain.rbegin(); level != chain.rend(); ++level) {
    const std::vector<std::string> rest = (*level)->remaining(false);
    if (rest.empty()) continue;
    std::string path;
    for (auto l = chain.begin() + 1; l != level.base(); ++l)
      path += (path.empty() ? "" : " ") + (*l)->get_name();
    const std::string where = path.empty() ? "frictionlab" : "`" + path + "`";
    const std::string help = "frictionlab" + (path.empty() ? "" : " " + path) + " --help";
    const std::string& arg = rest.front();
    if (arg.size() > 1 && arg.front() == '-') {
      const std::string name = arg.substr(0, arg.find('='));
      const std::string near = nearest(name, option_names(**level));
      return "unknown option " + name + " for " + where +
             (near.empty() ? " (`" + help + "` lists them)" : "; did you mean " + near + "?");
    }
    const std::vector<std::string> subs = subcommand_names(**level);
    if (!subs.empty()) {
      const std::string near = nearest(arg, subs);
      return "unknown command '" + arg + "'" + (path.empty() ? "" : " for " + where) +
             (near.empty() ? " (known: " + join_list(subs) + ")" : "; did you mean " + near + "?");
    }
    return "unexpected argument '" + arg + "': " + where +
           " takes no positional arguments (options are written --name VALUE)";
  }
  return std::nullopt;
}

}  // namespace frictionlab::cli
