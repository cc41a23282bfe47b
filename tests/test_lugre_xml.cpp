// The robot configuration's LUGRE group from a fit.json (io/lugre_xml.hpp): the exact XML text
// for a symmetric and an asymmetric fit, fit.json as io::fit_to_json writes it, the committed
// example examples/data/sensorless_fit.json, and every error message.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "expect_message.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/lugre_xml.hpp"

namespace frictionlab::io {
namespace {

const std::string kData = std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/";

// A minimal fit.json of a sensorless fit; `model_params` is the MODEL.json "params" object.
nlohmann::json fit_json(const std::string& model_name, const nlohmann::json& model_params) {
  return {{"format", "frictionlab-fit"},
          {"version", 1},
          {"input", "run.csv"},
          {"problem", "sensorless"},
          {"method", "lsq"},
          {"model_name", model_name},
          {"model", {{"model", "lugre"}, {"params", model_params}}},
          {"Km", 2.0}};
}

nlohmann::json symmetric_params() {
  return {{"sigma0", 500.0}, {"sigma1", 0.8}, {"sigma2", 0.5}, {"Fc", 1.0},
          {"Fs", 1.5},       {"vs", 0.1},     {"alpha", 1.0}};
}

nlohmann::json asymmetric_params() {
  return {{"sigma0", 1234.5}, {"sigma1", 3.25},         {"sigma2", 0.125}, {"Fc_pos", 1.0},
          {"Fc_neg", 0.8},    {"Fs_pos", 1.5},          {"Fs_neg", 1.2},   {"vs", 0.075},
          {"alpha", 1.0},     {"shape", "exponential"}, {"vd", 0.0}};
}

const char* const kUnits =
    "     Km [Nm/A], Kw [Nm/(rad/s)], S0 [Nm/rad], S1 [Nm/(rad/s)], Vth [rad/s], Fc_pos, "
    "Fc_neg, Fs_pos, Fs_neg [Nm] -->\n";

// The message of the InputError thrown by f (a test failure when f throws none).
std::string error_of(const std::function<void()>& f) { return testing::message_of<InputError>(f); }

std::string error_of_json(const nlohmann::json& j) {
  return error_of([&] { lugre_group_from_fit_json(j, "fit.json"); });
}

TEST(LugreXml, SymmetricFitWritesEqualSides) {
  const LugreGroup g = lugre_group_from_fit_json(fit_json("lugre", symmetric_params()), "fit.json");
  EXPECT_TRUE(g.warnings.empty());
  const std::string expected =
      std::string(
          "<!-- frictionlab export xml: fits/j3.json (lugre, lsq); one joint: merge the values "
          "of several joints as columns.\n") +
      kUnits +
      "<group name=\"LUGRE\">\n"
      "    <param name=\"Km\">      2 </param>\n"
      "    <param name=\"Kw\">      0.5 </param>\n"
      "    <param name=\"S0\">      500 </param>\n"
      "    <param name=\"S1\">      0.8 </param>\n"
      "    <param name=\"Vth\">     0.1 </param>\n"
      "    <param name=\"Fc_pos\">  1 </param>\n"
      "    <param name=\"Fc_neg\">  1 </param>\n"
      "    <param name=\"Fs_pos\">  1.5 </param>\n"
      "    <param name=\"Fs_neg\">  1.5 </param>\n"
      "</group>\n";
  EXPECT_EQ(lugre_group_xml(g, "fits/j3.json"), expected);
}

TEST(LugreXml, AsymmetricFitKeepsBothSides) {
  auto j = fit_json("lugre-asym", asymmetric_params());
  j["Km"] = 0.0625;
  j["method"] = "grid";
  const LugreGroup g = lugre_group_from_fit_json(j, "fit.json");
  const std::string expected =
      std::string(
          "<!-- frictionlab export xml: a- -b.json (lugre-asym, grid); one joint: merge the "
          "values of several joints as columns.\n") +
      kUnits +
      "<group name=\"LUGRE\">\n"
      "    <param name=\"Km\">      0.0625 </param>\n"
      "    <param name=\"Kw\">      0.125 </param>\n"
      "    <param name=\"S0\">      1234.5 </param>\n"
      "    <param name=\"S1\">      3.25 </param>\n"
      "    <param name=\"Vth\">     0.075 </param>\n"
      "    <param name=\"Fc_pos\">  1 </param>\n"
      "    <param name=\"Fc_neg\">  0.8 </param>\n"
      "    <param name=\"Fs_pos\">  1.5 </param>\n"
      "    <param name=\"Fs_neg\">  1.2 </param>\n"
      "</group>\n";
  // "--" may not appear inside an XML comment: the source name is split.
  EXPECT_EQ(lugre_group_xml(g, "a--b.json"), expected);
}

TEST(LugreXml, ValuesAreWrittenInShortestRoundTripForm) {
  auto p = symmetric_params();
  p["sigma0"] = 499.99999999945715;
  auto j = fit_json("lugre", p);
  j["Km"] = 1.9999999999997848;
  const std::string xml = lugre_group_xml(lugre_group_from_fit_json(j, "f"), "f");
  EXPECT_NE(xml.find("    <param name=\"Km\">      1.9999999999997848 </param>\n"),
            std::string::npos);
  EXPECT_NE(xml.find("    <param name=\"S0\">      499.99999999945715 </param>\n"),
            std::string::npos);
}

TEST(LugreXml, ReadsWhatFitToJsonWrites) {
  identify::FitResult r;
  r.model = identify::parse_model("lugre-asym");
  r.model_name = identify::model_name(r.model);
  r.problem = identify::ProblemKind::sensorless;
  r.Km = 1.75;
  LuGre<double>::Params p{.sigma0 = 800,
                          .sigma1 = 1.5,
                          .sigma2 = 0.3,
                          .curve = {0.9, 0.7, 1.4, 1.1, 0.05, 1.0, StribeckShape::exponential}};
  r.params = p;
  const auto j = nlohmann::json::parse(fit_to_json(r, "run.csv", {}).dump());
  const LugreGroup g = lugre_group_from_fit_json(j, "fit.json");
  EXPECT_EQ(g.Km, 1.75);
  EXPECT_EQ(g.Kw, 0.3);
  EXPECT_EQ(g.S0, 800);
  EXPECT_EQ(g.S1, 1.5);
  EXPECT_EQ(g.Vth, 0.05);
  EXPECT_EQ(g.Fc_pos, 0.9);
  EXPECT_EQ(g.Fc_neg, 0.7);
  EXPECT_EQ(g.Fs_pos, 1.4);
  EXPECT_EQ(g.Fs_neg, 1.1);
  EXPECT_EQ(g.model_name, "lugre-asym");
  EXPECT_EQ(g.method, "lsq");
}

TEST(LugreXml, CommittedExampleFit) {
  // examples/data/sensorless_fit.json (scripts/make_sensorless_fit.sh): truth Km = 2,
  // Kw = 0.5, S0 = 500, S1 = 0.8, Vth = 0.1, Fc = 1 / 0.8, Fs = 1.5 / 1.2, noise-free.
  const LugreGroup g = read_lugre_group(kData + "sensorless_fit.json");
  EXPECT_NEAR(g.Km, 2.0, 1e-6);
  EXPECT_NEAR(g.Kw, 0.5, 1e-6);
  EXPECT_NEAR(g.S0, 500.0, 1e-4);
  EXPECT_NEAR(g.S1, 0.8, 1e-6);
  EXPECT_NEAR(g.Vth, 0.1, 1e-6);
  EXPECT_NEAR(g.Fc_pos, 1.0, 1e-6);
  EXPECT_NEAR(g.Fc_neg, 0.8, 1e-6);
  EXPECT_NEAR(g.Fs_pos, 1.5, 1e-6);
  EXPECT_NEAR(g.Fs_neg, 1.2, 1e-6);
  EXPECT_TRUE(g.warnings.empty());
}

TEST(LugreXml, InvertedStribeckIsAWarning) {
  auto p = asymmetric_params();
  p["Fs_neg"] = 0.5;
  const LugreGroup g = lugre_group_from_fit_json(fit_json("lugre-asym", p), "fit.json");
  const std::string w =
      "fit.json: model: parameter 'Fs_neg': Fs_neg = 0.5 < Fc_neg = 0.8: reference 000's "
      "g(v) = Fc + |Fs - Fc| exp(-|v|/Vth) rises above Fc where the fitted curve dips below it";
  bool found = false;
  for (const auto& x : g.warnings) found = found || x == w;
  EXPECT_TRUE(found) << ::testing::PrintToString(g.warnings);
}

TEST(LugreXml, FileErrors) {
  const std::string missing = kData + "no_such_fit.json";
  EXPECT_EQ(error_of([&] { read_lugre_group(missing); }),
            missing + ": cannot open: No such file or directory");
  const std::string syntax = error_of([] { parse_lugre_group("{\n  \"format\": ,\n}", "f.json"); });
  EXPECT_EQ(syntax.rfind("f.json:2:13: JSON syntax error: ", 0), 0u) << syntax;
  EXPECT_EQ(error_of([] { parse_lugre_group("[1, 2]", "f.json"); }),
            "f.json: not a fit.json file: expected a JSON object, got array");
}

TEST(LugreXml, NotAFitJson) {
  // A MODEL.json is the likeliest mistake.
  EXPECT_EQ(error_of_json({{"model", "lugre"}, {"params", symmetric_params()}}),
            "fit.json: key 'format': not a fit.json file: expected \"frictionlab-fit\" (written "
            "by `frictionlab fit`), the key is missing");
  auto j = fit_json("lugre", symmetric_params());
  j["format"] = "frictionlab-model";
  EXPECT_EQ(error_of_json(j),
            "fit.json: key 'format': not a fit.json file: expected \"frictionlab-fit\" (written "
            "by `frictionlab fit`), got \"frictionlab-model\"");
  j = fit_json("lugre", symmetric_params());
  j["version"] = 2;
  EXPECT_EQ(error_of_json(j),
            "fit.json: key 'version': unsupported fit.json version 2 (this frictionlab reads 1)");
  j.erase("version");
  EXPECT_EQ(error_of_json(j), "fit.json: key 'version': missing");
  j = fit_json("lugre", symmetric_params());
  j.erase("model_name");
  EXPECT_EQ(error_of_json(j), "fit.json: key 'model_name': missing");
  j = fit_json("lugre", symmetric_params());
  j["method"] = 3;
  EXPECT_EQ(error_of_json(j), "fit.json: key 'method': expected a string, got number");
}

TEST(LugreXml, ModelNotLugre) {
  auto j = fit_json("stribeck", symmetric_params());
  EXPECT_EQ(error_of_json(j),
            "fit.json: key 'model_name': 'stribeck' is not a LuGre model; the LUGRE group needs a "
            "fit of --model lugre or lugre-asym");
  j = fit_json("lugre-rational", symmetric_params());
  EXPECT_EQ(error_of_json(j),
            "fit.json: key 'model_name': 'lugre-rational': the LUGRE group uses the exponential "
            "Stribeck curve; fit --model lugre or lugre-asym");
  j = fit_json("lugre", symmetric_params());
  j["model"] = {{"model", "stribeck"}, {"params", {{"Fc", 1.0}, {"Fs", 1.5}}}};
  EXPECT_EQ(error_of_json(j),
            "fit.json: key 'model': expected a lugre model, got 'stribeck' (model_name is "
            "'lugre')");
  j.erase("model");
  EXPECT_EQ(error_of_json(j), "fit.json: key 'model': missing");
}

TEST(LugreXml, FrictionProblemHasNoKm) {
  auto j = fit_json("lugre", symmetric_params());
  j["problem"] = "friction";
  j.erase("Km");
  EXPECT_EQ(error_of_json(j),
            "fit.json: key 'problem': 'friction': the LUGRE group needs Km, which only a "
            "--problem sensorless fit estimates (or give it with --km)");
}

TEST(LugreXml, KmErrors) {
  auto j = fit_json("lugre", symmetric_params());
  j.erase("Km");
  EXPECT_EQ(error_of_json(j), "fit.json: key 'Km': missing");
  j["Km"] = nullptr;
  EXPECT_EQ(error_of_json(j), "fit.json: key 'Km': expected a number, got null");
  j["Km"] = -1.5;
  EXPECT_EQ(error_of_json(j), "fit.json: key 'Km': must be > 0, got -1.5");
}

TEST(LugreXml, ModelTheGroupCannotHold) {
  auto p = symmetric_params();
  p["alpha"] = 2.0;
  EXPECT_EQ(error_of_json(fit_json("lugre", p)),
            "fit.json: model: parameter 'alpha': the LUGRE group uses the Stribeck exponent 1, "
            "got 2");
  p = symmetric_params();
  p["vd"] = 0.002;
  EXPECT_EQ(error_of_json(fit_json("lugre", p)),
            "fit.json: model: parameter 'vd': the LUGRE group has a constant S1 (vd = 0), got "
            "0.002");
  p = symmetric_params();
  p["shape"] = "rational";
  EXPECT_EQ(error_of_json(fit_json("lugre", p)),
            "fit.json: model: parameter 'shape': the LUGRE group uses the exponential Stribeck "
            "curve, got rational");
  // The model object's own checks (MODEL.json rules) name the parameter.
  p = symmetric_params();
  p["sigma0"] = -1.0;
  EXPECT_EQ(error_of_json(fit_json("lugre", p)),
            "fit.json: model: parameter 'sigma0': must be > 0, got -1");
}

}  // namespace
}  // namespace frictionlab::io
