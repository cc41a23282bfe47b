// frictionlab io: the files `frictionlab fit-joint` and `eval-joint` write from their workflow
// results (workflows/joint.hpp; docs/joint-identification.md, docs/file-formats.md):
//   prediction_<stem>.csv   t, q, q_sim, qd, qd_sim, tau, tau_pred (one per record; stem = the
//                           record source's file stem) and its .svg (torque, position,
//                           velocity panels: measured against model / simulated);
//   static_curve.csv        qd, friction_measured, friction_model (the static curve check) and
//                           its .svg (the model's steady curve on a grid, the segment means as
//                           points);
//   sr3_scan.csv            one row per lambda: lambda, threshold, Omega_s, n_active, n_zero,
//                           train_rel_error, validation_rss, aic, aic_r, admissible, chosen,
//                           xi:<candidate>... (undefined aic / aic_r written as "nan") and its
//                           .svg (AIC_r, eliminated terms, training error against log10 lambda);
//   sr3_history.csv         one row per inner iteration: start, outer, inner, rel_error, xi_u,
//                           sigma0, sigma1, Omega_s, Fc, accepted, and its .svg (the kept
//                           sigma0 start's convergence);
//   joint_fit.json / joint_eval.json   io/joint_json.hpp.
// The .svg files only with `plots`. Each set is written all or nothing (io::OutputFiles,
// io/output.hpp). Errors: InputError naming the directory or file that
// cannot be created or written.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/sim/joint_model.hpp"
#include "frictionlab/workflows/joint.hpp"

namespace frictionlab::io {

/// The names of fit-joint's and eval-joint's result files in their directory.
inline constexpr const char* kJointFitFile = "joint_fit.json";
inline constexpr const char* kJointEvalFile = "joint_eval.json";

/// Write fit-joint's files into `dir` (created if missing). Returns the paths written, in the
/// order: sr3_scan.csv, sr3_scan.svg, sr3_history.csv, sr3_history.svg (when sr3 ran),
/// joint_fit.json, the training record's prediction files, every validation record's,
/// static_curve.csv, static_curve.svg.
/// `inputs` are never replaced (OutputFiles::protect).
/// With a `report` path, the identification report of the joint fit (io::report_html of the
/// joint_fit.json written) is written too, in the same all-or-nothing set.
std::vector<std::string> write_fit_joint(const std::string& dir,
                                         const workflows::FitJointOutcome& r, bool plots,
                                         const std::vector<NamedPath>& inputs = {},
                                         const std::string& report = {},
                                         const ReportOptions& report_options = {});

/// Write eval-joint's files into `dir` (created if missing): joint_eval.json (joint_file names
/// the model's file), then every record's prediction files. Returns the paths in that order.
/// With a `report` path, the report of the evaluation (io::report_html of the joint_eval.json
/// written) is written too, in the same set.
std::vector<std::string> write_eval_joint(
    const std::string& dir, const workflows::EvalJointOutcome& r, const sim::JointModel& model,
    const std::string& joint_file, bool plots, const std::vector<NamedPath>& inputs = {},
    const std::string& report = {}, const ReportOptions& report_options = {});

}  // namespace frictionlab::io
