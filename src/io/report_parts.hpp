// frictionlab io (internal): the pieces of the report page (io/report_html.hpp) that its sections
// share, and the sections themselves, one file per kind of result: report_fit.cpp (fit.json,
// compare.json), report_joint.cpp (joint_fit.json, joint_eval.json), report_actuator.cpp
// (fit-actuator's summary.json, eval-actuator's result). report_html.cpp assembles the page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "frictionlab/io/report_html.hpp"
#include "text.hpp"

namespace frictionlab::io {
struct Plot;
}

namespace frictionlab::io::report {

using oj = nlohmann::ordered_json;

// ---------------------------------------------------------------- text and numbers

/// `s` with the HTML special characters escaped (text and attribute values): io::escape_markup.
std::string esc(const std::string& s);
bool is_num(const oj& j);
/// The number `j`, NaN when it is not one (null).
double num(const oj& j);
/// A number for a person: `digits` significant digits, "–" for null/NaN.
std::string show(const oj& j, int digits = 5);
/// data-value="exact" (the JSON's double as shortest round-trip text) or "" for null.
std::string exact_attr(const oj& j);
/// The numbers of a JSON array (NaN for null), empty for anything else.
std::vector<double> numbers(const oj& j);
using detail::replace_all;  // text.hpp

// ---------------------------------------------------------------- reading a result

/// InputError naming the result file `src`.
[[noreturn]] void bad(const std::string& src, const std::string& what);
/// j[key], InputError naming `src` and the key when it is missing.
const oj& need(const oj& j, const std::string& src, const std::string& key);
/// The "report" object of a result file (what its section draws); InputError naming the file and
/// the command to run again (`command`: "the fit", "fit-joint", ...) when it has none.
const oj& report_data(const oj& result, const std::string& src, const std::string& command);

// ---------------------------------------------------------------- blocks

/// The result's "warnings" as a list (nothing when there are none).
std::string warnings_list(const oj& result);
/// An inline SVG from plot_svg, tagged for the page (class="plot" data-plot=KIND), its element ids
/// prefixed with `uid` (ids are global to the HTML document).
std::string inline_svg(const Plot& p, const std::string& kind, const std::string& uid);
/// A zoomable time plot: its data {"t", "xlabel", "panels": [{"label", "series": [{"name",
/// "y"}]}]} as JSON for the page's script, the SVG it draws into, the zoom controls.
std::string time_plot_box(const oj& data, const std::string& id);
/// A result's "verdict" object (io/verdict_json.hpp): the grade with its reasons and what to try,
/// coloured by grade; notes (grade good) listed after.
std::string verdict_block(const oj& v);

// ---------------------------------------------------------------- a fit's blocks (report_fit.cpp)

/// The verdict block of a fit.json: verdict_block of its "verdict" (none in a file written
/// before verdicts).
std::string fit_verdict(const oj& fit);
/// The parameter table: value, unit, standard error, 95 % interval, HAC standard error, flags.
std::string parameter_table(const oj& fit, const std::string& src);
/// The identifiability flags in plain words.
std::string flags_section(const oj& fit);

// ---------------------------------------------------------------- sections, one per result kind

std::string fit_section(const ReportSource& src, const std::string& id);
/// compare.json: the ranking table, the recommendation and why; `model_ids` are the sections of
/// its models (links from the table).
std::string comparison_section(const ReportSource& src, const std::string& id,
                               const std::vector<std::string>& model_ids);
std::string joint_section(const ReportSource& src, const std::string& id);
std::string joint_eval_section(const ReportSource& src, const std::string& id);
std::string actuator_section(const ReportSource& src, const std::string& id);
std::string actuator_eval_section(const ReportSource& src, const std::string& id);
std::string robot_section(const ReportSource& src, const std::string& id);

}  // namespace frictionlab::io::report
