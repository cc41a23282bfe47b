// frictionlab io: export (docs/cli.md, "export"): a fitted friction model as the robot
// configuration's LUGRE group (xml), the torque estimator's parameter file (json), its C code
// (c) and an MJCF fragment for MuJoCo (mujoco).
//
// Inputs are files already read (LugreGroup of a fit.json or joint_fit.json; FrictionSource of
// a fit.json, joint_fit.json, ESTIMATOR.json or MODEL.json) and option structs; outputs are the
// texts in memory with the warnings and the notes of what the target cannot represent (the
// rigid-body terms of a joint fit: joint_fit_notes; for MuJoCo also the friction's deviations).
// Nothing is printed or written: the caller writes the texts (the formats are io/lugre_xml.hpp and
// io/estimator_export.hpp).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/estimator/torque_estimator.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/lugre_xml.hpp"
#include "frictionlab/models/common.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::io {

/// A text to write, what was accepted with a warning ("FILE: ..."), and what the source holds
/// that the target cannot represent (joint_fit_notes; also in the text's comment where the
/// format has comments: XML, C).
struct ExportText {
  std::string text;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};

/// The LUGRE group as XML (lugre_group_xml); `source` names the fit.json or joint_fit.json in
/// the comment. The warnings and notes are the group's. Throws Cancelled.
ExportText export_xml(const LugreGroup& group, const std::string& source,
                      const workflows::Progress& progress = {});

/// Values given by the caller that take precedence over the file's.
struct EstimatorExportOptions {
  std::optional<double> Km;  ///< torque constant [Nm/A] (> 0); unset: the file's
  std::optional<Hold> hold;  ///< velocity input between cycles; unset: the file's, else linear
};

/// The estimator parameters of a source with the options applied (estimator_params): the
/// model must be a lugre model and a Km must be known. Throws InputError naming the file and
/// parameter otherwise; Cancelled. Warnings (the source's and the check's) go to *warnings.
estimator::EstimatorParams<double> export_estimator_params(
    const FrictionSource& source, const EstimatorExportOptions& options,
    std::vector<std::string>* warnings, const workflows::Progress& progress = {});

/// ESTIMATOR.json text of export_estimator_params (its "source" is source.file), with the
/// notes of joint_fit_notes(source, ExportTarget::estimator) (JSON has no comments: the caller
/// reports them). Same errors.
ExportText export_json(const FrictionSource& source, const EstimatorExportOptions& options,
                       const workflows::Progress& progress = {});

struct CExportOptions {
  EstimatorExportOptions estimator;
  std::string name = "joint_estimator";  ///< prefix of every function and type, and the file names
  bool single_precision = true;          ///< float (true) or double
  /// Also the adaptive estimator (NAME_adaptive_*), started from the source's standard errors
  /// (adaptive_start).
  bool adaptive = false;
  /// With adaptive: a joint fit's temperature law (read_temperature_fit) that seeds kT, its
  /// variance and T_ref, kT adapting (adaptive_start); and the temperature [degC] at which the
  /// source's levels hold (the estimator's T_ref; unset: the temperature fit's T_ref).
  std::optional<TemperatureFit> temperature{};
  std::optional<double> temperature_ref{};
};

struct CExport {
  std::string header_file, source_file;  ///< NAME.h and NAME.c (file names, no directory)
  std::string header, source;            ///< their texts
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  ///< joint_fit_notes (also in the header's comment)
  /// With adaptive: where the adaptive estimator's start came from (also in the header).
  std::vector<std::string> adaptive_notes;
};

/// The file names of the C99 pair export_c writes for the prefix `name`: NAME.h and NAME.c (for
/// the checks of the outputs before the work).
std::pair<std::string, std::string> c_export_file_names(const std::string& name);

/// The self-contained C99 pair of the estimator (estimator_c_code) with the parameters of
/// export_estimator_params baked in. Throws like it, and std::invalid_argument if `name` is not
/// a C identifier or the temperature options break check_temperature_seed (checked first);
/// InputError naming the temperature fit if its linear scale at temperature_ref is not > 0;
/// Cancelled.
CExport export_c(const FrictionSource& source, const CExportOptions& options,
                 const workflows::Progress& progress = {});

struct MujocoExport {
  std::string xml;                 ///< the MJCF fragment
  std::vector<std::string> notes;  ///< what MuJoCo cannot represent, with the deviation
};

/// The MJCF fragment of the source's model (mujoco_fragment), its notes starting with
/// joint_fit_notes(source, ExportTarget::mujoco). The source's own warnings stay in
/// source.warnings. Throws std::invalid_argument for a model MuJoCo has no equivalent of;
/// Cancelled.
MujocoExport export_mujoco(const FrictionSource& source, const MujocoOptions& options,
                           const workflows::Progress& progress = {});

}  // namespace frictionlab::io
