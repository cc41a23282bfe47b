// frictionlab io: export (include/frictionlab/io/export.hpp).
#include "frictionlab/io/export.hpp"

#include <optional>
#include <tuple>
#include <utility>

namespace frictionlab::io {

ExportText export_xml(const LugreGroup& group, const std::string& source,
                      const workflows::Progress& progress) {
  progress.check();
  progress.say("export xml: LUGRE group of " + source);
  return {lugre_group_xml(group, source), group.warnings, group.notes};
}

estimator::EstimatorParams<double> export_estimator_params(const FrictionSource& source,
                                                           const EstimatorExportOptions& options,
                                                           std::vector<std::string>* warnings,
                                                           const workflows::Progress& progress) {
  progress.check();
  EstimatorOverrides o;
  o.Km = options.Km;
  o.hold = options.hold;
  return estimator_params(source, o, warnings);
}

ExportText export_json(const FrictionSource& source, const EstimatorExportOptions& options,
                       const workflows::Progress& progress) {
  ExportText r;
  const auto p = export_estimator_params(source, options, &r.warnings, progress);
  progress.say("export json: estimator parameters of " + source.file);
  r.text = estimator_json_text(p, source.file);
  r.notes = joint_fit_notes(source, ExportTarget::estimator);
  return r;
}

std::pair<std::string, std::string> c_export_file_names(const std::string& name) {
  return {name + ".h", name + ".c"};
}

CExport export_c(const FrictionSource& source, const CExportOptions& options,
                 const workflows::Progress& progress) {
  check_temperature_seed(options.adaptive, options.temperature.has_value(),
                         options.temperature_ref);
  CExport r;
  const auto p = export_estimator_params(source, options.estimator, &r.warnings, progress);
  progress.say("export c: " + options.name);
  r.notes = joint_fit_notes(source, ExportTarget::estimator);
  std::optional<AdaptiveStart> start;
  if (options.adaptive) {
    start = adaptive_start(source, p, options.temperature ? &*options.temperature : nullptr,
                           options.temperature_ref);
    r.adaptive_notes = start->notes;
  }
  CCode code = estimator_c_code(p, options.name, options.single_precision, source.file, r.notes,
                                start ? &*start : nullptr);
  std::tie(r.header_file, r.source_file) = c_export_file_names(options.name);
  r.header = std::move(code.header);
  r.source = std::move(code.source);
  return r;
}

MujocoExport export_mujoco(const FrictionSource& source, const MujocoOptions& options,
                           const workflows::Progress& progress) {
  progress.check();
  progress.say("export mujoco: joint " + options.joint);
  MujocoFragment f = mujoco_fragment(source.spec, options, source.file,
                                     joint_fit_notes(source, ExportTarget::mujoco));
  return {std::move(f.xml), std::move(f.notes)};
}

}  // namespace frictionlab::io
