// io::export_xml / export_json / export_c / export_mujoco on the example files: the texts
// read back (ESTIMATOR.json through the reader of io/estimator_export), the overrides win over the
// file, the C pair is named after `name`, and the error paths; progress reports and cancellation.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/export.hpp"

namespace frictionlab {
namespace {

const std::string kData = std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
  return n;
}

TEST(WorkflowExport, JsonReadsBackWithTheOverrides) {
  const io::FrictionSource src = io::read_friction_source(kData + "lugre.json");
  io::EstimatorExportOptions o;
  o.Km = 0.25;
  o.hold = Hold::zoh;
  const io::ExportText r = io::export_json(src, o);
  const io::FrictionSource back = io::parse_friction_source(r.text, "back.json");
  EXPECT_EQ(back.kind, "ESTIMATOR.json");
  ASSERT_TRUE(back.Km);
  EXPECT_EQ(*back.Km, 0.25);
  ASSERT_TRUE(back.hold);
  EXPECT_EQ(*back.hold, Hold::zoh);
  const auto& a = std::get<LuGre<double>::Params>(src.spec);
  const auto& b = std::get<LuGre<double>::Params>(back.spec);
  EXPECT_EQ(a.sigma0, b.sigma0);
  EXPECT_EQ(a.sigma1, b.sigma1);
  EXPECT_EQ(a.curve.Fc_pos, b.curve.Fc_pos);
  // lugre.json is not passive: its warning is passed on.
  EXPECT_FALSE(r.warnings.empty());

  // Without an override the file's Km and hold are kept.
  const io::FrictionSource est = io::read_friction_source(kData + "joint_estimator.json");
  const auto same = io::parse_friction_source(io::export_json(est, {}).text, "b.json");
  EXPECT_EQ(*same.Km, 0.5);
  EXPECT_EQ(*same.hold, Hold::linear);

  // A MODEL.json has no Km.
  EXPECT_THROW((void)io::export_json(src, {}), io::InputError);
}

TEST(WorkflowExport, CPairIsNamedAfterItsPrefix) {
  const io::FrictionSource src = io::read_friction_source(kData + "joint_estimator.json");
  io::CExportOptions o;
  o.name = "elbow";
  const io::CExport f = io::export_c(src, o);
  EXPECT_EQ(f.header_file, "elbow.h");
  EXPECT_EQ(f.source_file, "elbow.c");
  EXPECT_NE(f.source.find("#include \"elbow.h\""), std::string::npos);
  EXPECT_NE(f.header.find("elbow_"), std::string::npos);
  EXPECT_NE(f.header.find(src.file), std::string::npos);  // the source named in a comment
  o.single_precision = false;
  const io::CExport d = io::export_c(src, o);
  EXPECT_NE(d.header, f.header);  // double vs float
  o.name = "1elbow";
  EXPECT_THROW((void)io::export_c(src, o), std::invalid_argument);
}

TEST(WorkflowExport, XmlHasTheNineValues) {
  const std::string path = kData + "sensorless_fit.json";
  const io::ExportText r = io::export_xml(io::read_lugre_group(path), path);
  EXPECT_EQ(count(r.text, "<param name="), 9u);
  for (const char* n : {"Km", "Kw", "S0", "S1", "Vth", "Fc_pos", "Fc_neg", "Fs_pos", "Fs_neg"})
    EXPECT_EQ(count(r.text, std::string("<param name=\"") + n + "\">"), 1u) << n;
  EXPECT_NE(r.text.find(path), std::string::npos);
}

TEST(WorkflowExport, MujocoNotesAndUnsupportedModels) {
  io::MujocoOptions o;
  o.gear = 2;
  const auto f = io::export_mujoco(io::read_friction_source(kData + "stribeck.json"), o);
  EXPECT_NE(f.xml.find("frictionloss"), std::string::npos);
  bool gear_note = false;
  for (const auto& n : f.notes) gear_note = gear_note || n.find("gear 2") != std::string::npos;
  EXPECT_TRUE(gear_note);
  EXPECT_THROW((void)io::export_mujoco(io::read_friction_source(kData + "gms.json"), o),
               std::invalid_argument);
}

TEST(WorkflowExport, ReportsAndCancels) {
  const io::FrictionSource src = io::read_friction_source(kData + "joint_estimator.json");
  int reports = 0;
  workflows::Progress progress;
  progress.report = [&](std::string_view, double) { ++reports; };
  (void)io::export_json(src, {}, progress);
  EXPECT_GT(reports, 0);

  workflows::Progress cancel;
  cancel.cancel = [] { return true; };
  EXPECT_THROW((void)io::export_json(src, {}, cancel), workflows::Cancelled);
  EXPECT_THROW((void)io::export_c(src, {}, cancel), workflows::Cancelled);
  EXPECT_THROW((void)io::export_mujoco(src, {}, cancel), workflows::Cancelled);
  EXPECT_THROW((void)io::export_xml(io::read_lugre_group(kData + "sensorless_fit.json"),
                                           "f", cancel),
               workflows::Cancelled);
}

}  // namespace
}  // namespace frictionlab
