// frictionlab io: the identification report, one self-contained HTML page (docs/report.md).
//
// The page is a function of saved results only: each fit is a fit.json object as
// io::fit_outcome_to_json writes it (with its "report" data), so `fit --report` (from the live
// outcome) and `frictionlab report fit.json...` (from the files) give the same page. Everything
// is inline: CSS, the static plots as SVG, the time plot's data as JSON and the script that draws
// it with a zoom (range sliders and a brush); no font, stylesheet, script or image is loaded
// from anywhere, so it opens from disk with no server and prints to PDF (print stylesheet).
//
// Per fit: the inputs and data summary, a verdict, the parameter table (value, unit, standard
// error, 95 % interval, HAC standard error, flags), the identifiability flags in plain words,
// the reliability of the standard errors (residual whiteness), measured against predicted over
// time with the residual and velocity, the residuals' histogram and autocorrelation, friction
// against velocity with the static curve, training and validation errors, the correlation
// matrix. DOM contract used by the browser tests: section.fit[data-model], table.parameters
// tr[data-name] td.value[data-value], ul.flags li[data-parameter][data-kind], svg.plot[data-plot
// = time | histogram | acf | friction-velocity], the time plot's data-range="t0 t1" and its
// input.zoom-start / input.zoom-end / button.zoom-reset.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace frictionlab::io {

/// One result the page shows: its label (a file name) and its fit.json or compare.json object.
struct ReportSource {
  std::string name;
  nlohmann::ordered_json result;
};

struct ReportOptions {
  std::string title = "frictionlab identification report";
  std::string generator;  ///< "frictionlab 0.2.0", shown in the page's header; may be empty
  std::string command;    ///< the command line or call that made the results; may be empty
};

/// The page: a section per fit.json; for a compare.json the ranking table with the
/// recommendation and why, then a section per model. Throws InputError naming the source for a
/// result without report data ("... has no report data ...: run the fit again"), or another kind
/// of result file (joint_fit.json: named as such; MODEL.json: "not a fit.json").
std::string report_html(const std::vector<ReportSource>& sources,
                        const ReportOptions& options = {});

/// The page's stylesheet (CSS text): its typography, tables, verdicts, figures and print rules,
/// shared by every HTML page of the project (the Python fleet page adds its own rules after it).
std::string report_css();

/// A short HTML fragment of one fit (no script, no plots): the verdict, the parameter table and
/// the identifiability flags, with the page's CSS scoped to it (the Python package's
/// FitOutcome._repr_html_, what a notebook shows). Same errors as report_html.
std::string report_summary_html(const ReportSource& source);

/// Read a result file for report_html (JSON syntax errors with line and column; InputError
/// naming the file).
ReportSource read_report_source(const std::string& path);

/// Write report_html(sources, options) to `path` whole or not at all ("-": the standard output;
/// io::write_text_output); InputError if `path` is one of the sources' files.
void write_report(const std::string& path, const std::vector<ReportSource>& sources,
                  const ReportOptions& options = {});

}  // namespace frictionlab::io
