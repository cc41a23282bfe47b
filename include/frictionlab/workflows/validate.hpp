// frictionlab workflows: the ranges of the numeric options of the workflows, and the checks of the
// options structs against them (docs/python.md, "Options"; docs/cli.md). One home: every workflow
// calls validate(options) before any work (so a C++ caller gets the check too), the Python
// keywords are checked by check_option as they are given, and the CLI's numeric options take their
// ranges from option_rule.
//
// Several fields use a value that cannot be given as a setting to mean "not given" (LsqOptions::
// starts 0: automatic; threads 0: every core; resample_rate 0: keep the samples; ...). validate()
// accepts that value; check_option, which checks a value the user gives, refuses it: the option
// is left out (None in Python) to get the automatic choice.
#pragma once

#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "frictionlab/workflows/actuator.hpp"
#include "frictionlab/workflows/compare.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/joint.hpp"
#include "frictionlab/workflows/simulate.hpp"

namespace frictionlab::workflows {

/// The range of a numeric option. `name` is the options struct's member name, which is the
/// Python keyword ("starts", "max_substep"); the CLI spells its option its own way (--starts,
/// --dt).
struct OptionRule {
  std::string_view name;
  bool integer = false;  ///< a whole number (and within the range of an int)
  double lo = -std::numeric_limits<double>::infinity();
  bool lo_open = false;  ///< (lo, hi] instead of [lo, hi]
  double hi = std::numeric_limits<double>::infinity();
  /// The struct's value for "not given" (validate accepts it, check_option does not); NaN: none.
  double unset = std::numeric_limits<double>::quiet_NaN();
};

/// The rule of option `name`; std::logic_error for a name without one (a programming error).
const OptionRule& option_rule(std::string_view name);
/// The rule of option `name`, or null.
const OptionRule* find_option_rule(std::string_view name);

/// The range in words: "an integer >= 1", "a number > 0", "an integer between 0 and 8", "a
/// number >= 1" (every number finite).
std::string describe(const OptionRule& rule);

/// An option whose value is outside its range. what(): "NAME=VALUE: must be RANGE", e.g.
/// "starts=0: must be an integer >= 1".
class OptionError : public std::invalid_argument {
 public:
  OptionError(const OptionRule& rule, double value);
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

/// Throws OptionError unless `value` is within the rule of `name` (a value the user gives: the
/// rule's unset value is refused).
void check_option(std::string_view name, double value);

/// Every numeric option of the struct is its unset value or within its rule; throws OptionError
/// naming the first one that is not. Called by the workflow of the struct before any work.
void validate(const FitOptions& options);
void validate(const CompareOptions& options);
void validate(const SimulateModelOptions& options);
void validate(const FitJointOptions& options);
void validate(const EvalJointOptions& options);
void validate(const FitActuatorOptions& options);
void validate(const ActuatorCheckOptions& options);

}  // namespace frictionlab::workflows
