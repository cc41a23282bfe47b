// frictionlab workflows: export (include/frictionlab/workflows/export.hpp).
#include "frictionlab/workflows/export.hpp"

#include <utility>

namespace frictionlab::workflows {

ExportText export_xml(const io::LugreGroup& group, const std::string& source,
                      const Progress& progress) {
  progress.check();
  progress.say("export xml: LUGRE group of " + source);
  return {io::lugre_group_xml(group, source), group.warnings};
}

estimator::EstimatorParams<double> export_estimator_params(const io::FrictionSource& source,
                                                           const EstimatorExportOptions& options,
                                                           std::vector<std::string>* warnings,
                                                           const Progress& progress) {
  progress.check();
  io::EstimatorOverrides o;
  o.Km = options.Km;
  o.hold = options.hold;
  return io::estimator_params(source, o, warnings);
}

ExportText export_json(const io::FrictionSource& source, const EstimatorExportOptions& options,
                       const Progress& progress) {
  ExportText r;
  const auto p = export_estimator_params(source, options, &r.warnings, progress);
  progress.say("export json: estimator parameters of " + source.file);
  r.text = io::estimator_json_text(p, source.file);
  return r;
}

CExport export_c(const io::FrictionSource& source, const CExportOptions& options,
                 const Progress& progress) {
  CExport r;
  const auto p = export_estimator_params(source, options.estimator, &r.warnings, progress);
  progress.say("export c: " + options.name);
  io::CCode code = io::estimator_c_code(p, options.name, options.single_precision, source.file);
  r.header_file = options.name + ".h";
  r.source_file = options.name + ".c";
  r.header = std::move(code.header);
  r.source = std::move(code.source);
  return r;
}

MujocoExport export_mujoco(const io::FrictionSource& source, const io::MujocoOptions& options,
                           const Progress& progress) {
  progress.check();
  progress.say("export mujoco: joint " + options.joint);
  io::MujocoFragment f = io::mujoco_fragment(source.spec, options, source.file);
  return {std::move(f.xml), std::move(f.notes)};
}

}  // namespace frictionlab::workflows
