// io::export_xml / export_json / export_c / export_mujoco on the example files: the texts
// read back (ESTIMATOR.json through the reader of io/estimator_export), the overrides win over the
// file, the C pair is named after `name`, and the error paths; progress reports and cancellation.
// A joint_fit.json's friction: the lugre form of a joint-lugre set
// (models/joint_lugre/as_lugre.hpp) against the joint model itself, the obstacles, the notes of
// what the targets leave out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/models/joint_lugre/as_lugre.hpp"

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
  // lugre.json accepts that it is not passive (its accepted_warnings): no warning passed on; the
  // exported file does not carry the acceptance, so reading it back warns.
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_FALSE(back.warnings.empty());

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

TEST(WorkflowExport, MujocoJointFormOfALuGreModelIsItsSteadyCurve) {
  // examples/data/lugre.json as the joint's frictionloss (Fc) and damping (sigma2), which every
  // MuJoCo loads; the presliding and the Stribeck dip are stated as lost.
  const io::FrictionSource src = io::read_friction_source(kData + "lugre.json");
  const auto& l = std::get<LuGre<double>::Params>(src.spec);
  io::MujocoOptions o;
  o.form = io::MujocoForm::joint;
  const io::MujocoExport f = io::export_mujoco(src, o);
  EXPECT_NE(f.xml.find("frictionloss=\"" + format_exact(l.curve.Fc_pos) + "\""), std::string::npos)
      << f.xml;
  EXPECT_NE(f.xml.find("damping=\"" + format_exact(l.sigma2) + "\""), std::string::npos) << f.xml;
  EXPECT_EQ(f.xml.find("<dcmotor"), std::string::npos) << f.xml;
  std::string notes;
  for (const auto& n : f.notes) notes += n + "\n";
  EXPECT_NE(notes.find("presliding (bristle stiffness sigma0 = " + format_exact(l.sigma0)),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("Stribeck effect"), std::string::npos) << notes;
  // the default stays the dcmotor actuator; a static model has no dcmotor form
  EXPECT_NE(io::export_mujoco(src, {}).xml.find("<dcmotor"), std::string::npos);
  o.form = io::MujocoForm::dcmotor;
  EXPECT_THROW((void)io::export_mujoco(io::read_friction_source(kData + "stribeck.json"), o),
               std::invalid_argument);
}

TEST(WorkflowExport, ReportsAndCancels) {
  const io::FrictionSource src = io::read_friction_source(kData + "joint_estimator.json");
  int reports = 0;
  workflows::Progress progress;
  progress.report = [&](const workflows::ProgressEvent&) { ++reports; };
  (void)io::export_json(src, {}, progress);
  EXPECT_GT(reports, 0);

  workflows::Progress cancel;
  cancel.cancel = [] { return true; };
  EXPECT_THROW((void)io::export_json(src, {}, cancel), workflows::Cancelled);
  EXPECT_THROW((void)io::export_c(src, {}, cancel), workflows::Cancelled);
  EXPECT_THROW((void)io::export_mujoco(src, {}, cancel), workflows::Cancelled);
  EXPECT_THROW(
      (void)io::export_xml(io::read_lugre_group(kData + "sensorless_fit.json"), "f", cancel),
      workflows::Cancelled);
}

// ---- joint fits ----

using JL = JointLuGre<double>;

/// A model-A joint-lugre set with one Stribeck term and a linear viscous term, plus a second
/// Stribeck term and a qd^3 term whose coefficients are 0 (they add nothing).
JL::Params joint_lugre_set() {
  JL::Params p;
  p.sigma0 = 2e4;
  p.sigma1 = 3.0;
  p.Fc = 0.4;
  p.n_viscous = 3;
  p.cv = {0.05, 0.0, 0.0};
  p.n_stribeck = 2;
  p.Fs = {0.25, 0.0};
  p.delta = {0.75, 2.0};
  p.Omega_s = 0.02;
  p.K = 0;
  return p;
}

// The lugre form steps and forces like the joint model over a velocity record with reversals,
// standstill and both holds: the two models' own code, not the mapping, gives the numbers.
TEST(JointFitExport, AsLugreIsTheJointModel) {
  const JL::Params jl = joint_lugre_set();
  const auto l = as_lugre<double>(jl);
  ASSERT_EQ(l.obstacle, JointLuGreObstacle::none);
  using L = LuGre<double>;
  L::State zl{0};
  JL::State zj{0};
  double v0 = 0, max_d = 0, max_F = 0;
  for (int k = 1; k <= 20000; ++k) {
    const double t = k * 1e-3;
    const double v = k > 9000 && k < 9500 ? 0.0 : 0.3 * std::sin(2.1 * t) + 0.01 * std::sin(37 * t);
    if (k % 2 == 0) {
      zl = L::step_linear(l.params, zl, v0, v, 1e-3);
      zj = JL::step_linear(jl, zj, v0, v, 1e-3);
    } else {
      zl = L::step(l.params, zl, v, 1e-3);
      zj = JL::step(jl, zj, v, 1e-3);
    }
    const double Fl = L::force(l.params, zl, v), Fj = JL::force(jl, zj, v);
    max_d = std::max({max_d, std::abs(Fl - Fj),
                      std::abs(L::steady_force(l.params, v) - JL::steady_force(jl, v))});
    max_F = std::max(max_F, std::abs(Fj));
    v0 = v;
  }
  EXPECT_GT(max_F, 0.5);
  EXPECT_LE(max_d, 1e-12 * max_F);
  EXPECT_FALSE(has_errors(check(l.params)));
}

TEST(JointFitExport, AsLugreObstacles) {
  JL::Params p = joint_lugre_set();
  p.K = 50;
  EXPECT_EQ(as_lugre<double>(p).obstacle, JointLuGreObstacle::tanh_sign);
  p = joint_lugre_set();
  p.Fs[1] = -0.05;
  EXPECT_EQ(as_lugre<double>(p).obstacle, JointLuGreObstacle::stribeck_terms);
  p = joint_lugre_set();
  p.cv[2] = 0.01;
  EXPECT_EQ(as_lugre<double>(p).obstacle, JointLuGreObstacle::viscous_powers);
  // No Stribeck term: g = Fc, exponent 1, no dip.
  p = joint_lugre_set();
  p.n_stribeck = 0;
  p.n_viscous = 0;
  const auto l = as_lugre<double>(p);
  ASSERT_EQ(l.obstacle, JointLuGreObstacle::none);
  EXPECT_EQ(l.params.curve.Fs_pos, p.Fc);
  EXPECT_EQ(l.params.curve.alpha, 1.0);
  EXPECT_EQ(l.params.sigma2, 0.0);
}

std::string joint_fit_text(const std::string& joint) {
  return R"({"format": "frictionlab-joint-fit", "version": 1, "method": "sr3", "joint": )" + joint +
         "}";
}

constexpr const char* kJoint =
    R"({"I": 0.0626, "mgCx": 0.05, "mgCy": -1.0, "offset": -0.07, "friction": {"model": "joint-lugre",
        "params": {"sigma0": 2e4, "sigma1": 3, "Fc": 0.4, "cv": [0.05], "Fs": [0.25], "delta": [1],
                   "Omega_s": 0.02, "K": 0}}})";

TEST(JointFitExport, EveryTargetWithItsNotes) {
  const io::FrictionSource s = io::parse_friction_source(joint_fit_text(kJoint), "jf.json");
  EXPECT_EQ(s.kind, "joint_fit.json");
  ASSERT_TRUE(s.joint.has_value());
  const auto* l = std::get_if<LuGre<double>::Params>(&s.spec);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->curve.Fs_neg, 0.4 + 0.25);
  EXPECT_EQ(l->sigma2, 0.05);
  io::EstimatorExportOptions eo;
  eo.Km = 0.5;
  const io::ExportText j = io::export_json(s, eo);
  ASSERT_EQ(j.notes.size(), 3u);  // inertia, gravity, offset
  EXPECT_EQ(j.notes[0].rfind("inertia I = 0.0626 kg m^2", 0), 0u) << j.notes[0];
  EXPECT_NE(j.notes[1].find("mgCx = 0.05, mgCy = -1 N m"), std::string::npos) << j.notes[1];
  EXPECT_EQ(j.notes[2].rfind("torque offset -0.07 N m", 0), 0u) << j.notes[2];
  const io::CExport c = io::export_c(s, {eo, "jf", true});
  EXPECT_EQ(c.notes, j.notes);
  for (const auto& n : c.notes) EXPECT_NE(c.header.find(n), std::string::npos) << n;
  const io::MujocoExport m = io::export_mujoco(s, {});
  ASSERT_GE(m.notes.size(), 3u);
  EXPECT_NE(m.notes[0].find("no armature is written"), std::string::npos);
  EXPECT_EQ(m.xml.find("armature=\""), std::string::npos);  // named in the comment only
  const io::LugreGroup g = io::parse_lugre_group(joint_fit_text(kJoint), "jf.json", 0.5);
  EXPECT_EQ(g.Km, 0.5);
  EXPECT_EQ(g.Fs_pos, 0.4 + 0.25);
  EXPECT_EQ(g.Vth, 0.02);
  EXPECT_EQ(g.notes.size(), 3u);
  const io::ExportText x = io::export_xml(g, "jf.json");
  for (const auto& n : g.notes) EXPECT_NE(x.text.find(n), std::string::npos) << n;
}

TEST(JointFitExport, ErrorsNameTheFileAndTheModel) {
  std::string joint = kJoint;
  joint.replace(joint.find("\"K\": 0"), 6, "\"K\": 5");
  try {
    (void)io::parse_friction_source(joint_fit_text(joint), "jf.json");
    ADD_FAILURE() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_STREQ(e.what(),
                 "jf.json: joint: friction: the joint-lugre model of this joint fit (method sr3) "
                 "has no lugre equivalent, which every export needs: it uses the smoothed sign "
                 "tanh(K qd) with K = 5 s/rad (the paper's model B; lugre has the exact sign): fit "
                 "with --K 0");
  }
  // The LUGRE group needs Km (a joint fit has none) and delta 1.
  EXPECT_THROW((void)io::parse_lugre_group(joint_fit_text(kJoint), "jf.json"), io::InputError);
  std::string delta2 = kJoint;
  delta2.replace(delta2.find("\"delta\": [1]"), 12, "\"delta\": [2]");
  try {
    (void)io::parse_lugre_group(joint_fit_text(delta2), "jf.json", 0.5);
    ADD_FAILURE() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_STREQ(e.what(),
                 "jf.json: joint: friction: parameter 'delta': the LUGRE group uses the "
                 "Stribeck exponent 1, got 2");
  }
  // Without Km the estimator asks for --km, naming the joint fit.
  const io::FrictionSource s = io::parse_friction_source(joint_fit_text(kJoint), "jf.json");
  EXPECT_THROW((void)io::export_json(s, {}), io::InputError);
}

}  // namespace
}  // namespace frictionlab
