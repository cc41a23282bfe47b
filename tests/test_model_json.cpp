// MODEL.json / SYSTEM.json reading and writing (io/model_json.hpp, io/system_json.hpp) and the
// parameter checks (models/validation.hpp): every model parses with the documented defaults,
// files round-trip bit-exactly, unknown keys / wrong types / syntax errors / invalid values are
// reported with the file and the line:column or the parameter, and the alternative LuGre forms
// map to the same parameters as the converters in lugre.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/system_json.hpp"
#include "frictionlab/models/validation.hpp"

namespace frictionlab::io {
namespace {

const std::string kData = std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/";

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Bit-exact equality of the fields every model uses.
#define EXPECT_SAME(a, b) EXPECT_EQ(bits(a), bits(b)) << #a " = " << (a) << ", " #b " = " << (b)

void expect_same_curve(const StribeckCurve<double>& a, const StribeckCurve<double>& b) {
  EXPECT_SAME(a.Fc_pos, b.Fc_pos);
  EXPECT_SAME(a.Fc_neg, b.Fc_neg);
  EXPECT_SAME(a.Fs_pos, b.Fs_pos);
  EXPECT_SAME(a.Fs_neg, b.Fs_neg);
  EXPECT_SAME(a.vs, b.vs);
  EXPECT_SAME(a.alpha, b.alpha);
  EXPECT_EQ(a.shape, b.shape);
}

void expect_same(const ModelSpec& a, const ModelSpec& b) {
  ASSERT_EQ(a.index(), b.index());
  ASSERT_EQ(model_name(a), model_name(b));
  if (const auto* p = std::get_if<StaticSpec>(&a)) {
    const auto& q = std::get<StaticSpec>(b);
    expect_same_curve(p->params.curve, q.params.curve);
    EXPECT_SAME(p->params.sigma2, q.params.sigma2);
    EXPECT_SAME(p->params.v_smooth, q.params.v_smooth);
  } else if (const auto* l = std::get_if<LuGre<double>::Params>(&a)) {
    const auto& m = std::get<LuGre<double>::Params>(b);
    EXPECT_SAME(l->sigma0, m.sigma0);
    EXPECT_SAME(l->sigma1, m.sigma1);
    EXPECT_SAME(l->sigma2, m.sigma2);
    expect_same_curve(l->curve, m.curve);
    EXPECT_SAME(l->vd, m.vd);
  } else if (const auto* d = std::get_if<Dahl<double>::Params>(&a)) {
    const auto& e = std::get<Dahl<double>::Params>(b);
    EXPECT_SAME(d->sigma0, e.sigma0);
    EXPECT_SAME(d->Fc, e.Fc);
    EXPECT_SAME(d->n, e.n);
  } else if (const auto* ep = std::get_if<ElastoPlastic<double>::Params>(&a)) {
    const auto& eq = std::get<ElastoPlastic<double>::Params>(b);
    EXPECT_SAME(ep->sigma0, eq.sigma0);
    EXPECT_SAME(ep->sigma1, eq.sigma1);
    EXPECT_SAME(ep->sigma2, eq.sigma2);
    expect_same_curve(ep->curve, eq.curve);
    EXPECT_SAME(ep->z_ba, eq.z_ba);
  } else if (const auto* ms = std::get_if<MaxwellSlip<double>::Params>(&a)) {
    const auto& mt = std::get<MaxwellSlip<double>::Params>(b);
    ASSERT_EQ(ms->n, mt.n);
    for (std::size_t i = 0; i < static_cast<std::size_t>(ms->n); ++i) {
      EXPECT_SAME(ms->k[i], mt.k[i]);
      EXPECT_SAME(ms->Delta[i], mt.Delta[i]);
    }
    EXPECT_SAME(ms->sigma2, mt.sigma2);
  } else if (const auto* mo = std::get_if<ModifiedStribeck<double>::Params>(&a)) {
    const auto& mp = std::get<ModifiedStribeck<double>::Params>(b);
    EXPECT_SAME(mo->k, mp.k);
    EXPECT_SAME(mo->sigma2, mp.sigma2);
    expect_same_curve(mo->curve, mp.curve);
  } else if (const auto* g = std::get_if<GMS<double>::Params>(&a)) {
    const auto& h = std::get<GMS<double>::Params>(b);
    ASSERT_EQ(g->n, h.n);
    for (std::size_t i = 0; i < static_cast<std::size_t>(g->n); ++i) {
      EXPECT_SAME(g->k[i], h.k[i]);
      EXPECT_SAME(g->nu[i], h.nu[i]);
    }
    EXPECT_SAME(g->C, h.C);
    EXPECT_SAME(g->sigma2, h.sigma2);
    expect_same_curve(g->curve, h.curve);
  } else if (const auto* j = std::get_if<JointLuGre<double>::Params>(&a)) {
    const auto& k = std::get<JointLuGre<double>::Params>(b);
    EXPECT_SAME(j->sigma0, k.sigma0);
    EXPECT_SAME(j->sigma1, k.sigma1);
    EXPECT_SAME(j->Fc, k.Fc);
    ASSERT_EQ(j->n_viscous, k.n_viscous);
    for (std::size_t i = 0; i < static_cast<std::size_t>(j->n_viscous); ++i)
      EXPECT_SAME(j->cv[i], k.cv[i]);
    ASSERT_EQ(j->n_stribeck, k.n_stribeck);
    for (std::size_t i = 0; i < static_cast<std::size_t>(j->n_stribeck); ++i) {
      EXPECT_SAME(j->Fs[i], k.Fs[i]);
      EXPECT_SAME(j->delta[i], k.delta[i]);
    }
    EXPECT_SAME(j->Omega_s, k.Omega_s);
    EXPECT_SAME(j->K, k.K);
  } else {
    FAIL() << "unhandled model";
  }
}

ModelFile parse(const std::string& text) { return parse_model_json(text, "m.json"); }

std::string model(const std::string& name, const std::string& params) {
  return R"({"model": ")" + name + R"(", "params": )" + params + "}";
}

// Expect an InputError for the parameter `param` whose message (first line) is
// "m.json: [context: ]parameter 'param': ..." containing `part`.
void expect_param_error(const std::string& text, const std::string& param,
                        const std::string& part) {
  try {
    (void)parse(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.param(), param) << e.what();
    const std::string what = e.what();
    const std::string first = what.substr(0, what.find('\n'));
    const std::string prefix = "m.json: parameter '" + param + "': ";
    EXPECT_EQ(first.substr(0, prefix.size()), prefix) << what;
    EXPECT_NE(first.find(part), std::string::npos) << what << "\nexpected: " << part;
  }
}

void expect_file_error(const std::string& text, long line, long col, const std::string& what) {
  try {
    (void)parse(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.column(), col) << e.what();
    EXPECT_EQ(std::string(e.what()), what);
  }
}

// ---- every model, defaults, example files ----

TEST(ModelJson, EveryModelNameParsesWithTheDocumentedDefaults) {
  ASSERT_EQ(model_names().size(), 11u);
  for (const auto& name : model_names()) {
    SCOPED_TRACE(name);
    const ModelFile f = parse(R"({"model": ")" + name + R"("})");
    EXPECT_EQ(model_name(f.spec), name);
  }
  // Defaults are the C++ Params defaults (docs/models.md tables).
  expect_same(parse(R"({"model": "lugre"})").spec, LuGre<double>::Params{});
  expect_same(parse(R"({"model": "dahl", "params": {}})").spec, Dahl<double>::Params{});
  expect_same(parse(R"({"model": "elasto-plastic"})").spec, ElastoPlastic<double>::Params{});
  expect_same(parse(R"({"model": "maxwell-slip"})").spec, MaxwellSlip<double>::Params{});
  expect_same(parse(R"({"model": "modified-stribeck"})").spec, ModifiedStribeck<double>::Params{});
  expect_same(parse(R"({"model": "gms"})").spec, GMS<double>::Params{});
  expect_same(parse(R"({"model": "stribeck"})").spec, StaticSpec{});
  expect_same(parse(R"({"model": "joint-lugre"})").spec, JointLuGre<double>::Params{});
  // The static special cases.
  StaticSpec c;
  c.kind = StaticKind::coulomb;
  c.params.curve = StribeckCurve<double>::symmetric(2, 2, 1, 2);
  expect_same(parse(R"({"model": "coulomb", "params": {"Fc": 2}})").spec, c);
  StaticSpec v;
  v.kind = StaticKind::viscous;
  v.params.curve = StribeckCurve<double>::symmetric(0, 0, 1, 2);
  v.params.sigma2 = 0.4;
  expect_same(parse(R"({"model": "viscous", "params": {"sigma2": 0.4}})").spec, v);
  StaticSpec cv;
  cv.kind = StaticKind::coulomb_viscous;
  cv.params.curve = StribeckCurve<double>::symmetric(1, 1, 1, 2);
  cv.params.curve.Fc_neg = cv.params.curve.Fs_neg = 0.5;
  cv.params.sigma2 = 0.3;
  cv.params.v_smooth = 1e-4;
  expect_same(parse(model("coulomb-viscous",
                          R"({"Fc_pos": 1, "Fc_neg": 0.5, "sigma2": 0.3, "v_smooth": 1e-4})"))
                  .spec,
              cv);
}

TEST(ModelJson, ExampleFilesParse) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"coulomb.json", "coulomb"},
      {"viscous.json", "viscous"},
      {"coulomb_viscous.json", "coulomb-viscous"},
      {"stribeck.json", "stribeck"},
      {"lugre.json", "lugre"},
      {"lugre_asymmetric.json", "lugre"},
      {"lugre_displacement.json", "lugre"},
      {"dahl.json", "dahl"},
      {"elasto_plastic.json", "elasto-plastic"},
      {"maxwell_slip.json", "maxwell-slip"},
      {"modified_stribeck.json", "modified-stribeck"},
      {"gms.json", "gms"},
      {"joint_lugre.json", "joint-lugre"}};
  for (const auto& [file, name] : files) {
    SCOPED_TRACE(file);
    const ModelFile f = read_model_file(kData + file);
    EXPECT_EQ(model_name(f.spec), name);
  }
  const auto lugre = std::get<LuGre<double>::Params>(read_model_file(kData + "lugre.json").spec);
  EXPECT_EQ(lugre.sigma0, 1e5);
  EXPECT_EQ(lugre.sigma1, 316.227766);
  expect_same_curve(lugre.curve, StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0));
  const auto ms =
      std::get<MaxwellSlip<double>::Params>(read_model_file(kData + "maxwell_slip.json").spec);
  EXPECT_EQ(ms.n, 4);
  EXPECT_EQ(ms.k[3], 1e4);
  EXPECT_EQ(ms.Delta[3], 5e-5);
  const auto gms = std::get<GMS<double>::Params>(read_model_file(kData + "gms.json").spec);
  EXPECT_EQ(gms.n, 3);
  EXPECT_EQ(gms.nu[2], 0.2);
}

// ---- round trips ----

TEST(ModelJson, ExampleFilesRoundTrip) {
  for (const auto& entry : std::filesystem::directory_iterator(kData)) {
    if (entry.path().extension() != ".json") continue;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(entry.path()));
    if (!j.contains("model")) continue;  // SYSTEM.json files
    if (j.contains("format"))
      continue;  // fit.json fixtures (their "model" object is tested
                 // by test_lugre_xml)
    SCOPED_TRACE(entry.path().string());
    const ModelFile a = read_model_file(entry.path().string(), ModelTemperature::taken);
    const ModelFile b = parse(to_json_text(a.spec));
    expect_same(a.spec, b.spec);
    // The written object has no accepted_warnings: a set that is not passive warns again.
    if (!j.contains("accepted_warnings")) {
      EXPECT_EQ(a.warnings.size(), b.warnings.size());
    }
  }
}

TEST(ModelJson, RandomParametersRoundTripBitExactly) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  auto pos = [&](double scale) { return scale * (0.01 + u(rng)); };
  for (int trial = 0; trial < 200; ++trial) {
    LuGre<double>::Params l;
    l.sigma0 = pos(1e6);
    l.sigma1 = pos(1e3);
    l.sigma2 = pos(1);
    l.curve = {pos(1),
               pos(1),
               pos(2),
               pos(2),
               pos(1e-2),
               pos(2),
               trial % 2 ? StribeckShape::rational : StribeckShape::exponential};
    l.vd = trial % 3 ? 0.0 : pos(1e-2);
    ModelSpec s = l;
    expect_same(parse(to_json_text(s)).spec, s);

    GMS<double>::Params g;
    g.n = 1 + trial % 5;
    double sum = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(g.n); ++i) {
      g.k[i] = pos(1e5);
      g.nu[i] = 1.0 / g.n;
      sum += g.nu[i];
    }
    g.C = pos(50);
    g.curve.Fc_pos = g.curve.Fc_neg = pos(1);
    s = g;
    if (std::abs(sum - 1) <= 1e-6) expect_same(parse(to_json_text(s)).spec, s);

    MaxwellSlip<double>::Params m;
    m.n = 1 + trial % 7;
    for (std::size_t i = 0; i < static_cast<std::size_t>(m.n); ++i) {
      m.k[i] = pos(1e5);
      m.Delta[i] = pos(1e-5);
    }
    s = m;
    expect_same(parse(to_json_text(s)).spec, s);

    JointLuGre<double>::Params jl;
    jl.sigma0 = pos(1e6);
    jl.sigma1 = pos(1e2);
    jl.Fc = pos(1);
    jl.n_viscous = trial % 4;
    for (std::size_t i = 0; i < static_cast<std::size_t>(jl.n_viscous); ++i) jl.cv[i] = pos(1);
    jl.n_stribeck = trial % 5;
    for (std::size_t i = 0; i < static_cast<std::size_t>(jl.n_stribeck); ++i) {
      jl.Fs[i] = pos(0.1);
      jl.delta[i] = pos(4);
    }
    jl.Omega_s = pos(0.1);
    jl.K = trial % 2 ? 0.0 : pos(200);
    s = jl;
    expect_same(parse(to_json_text(s)).spec, s);
  }
}

TEST(ModelJson, AtanSmoothingOfStaticModels) {
  const auto s = std::get<StaticSpec>(
      parse(model("coulomb-viscous", R"({"Fc": 0.289, "sigma2": 0.047, "v_smooth": 0.01,
                                         "smoothing": "atan"})"))
          .spec);
  EXPECT_EQ(s.params.smoothing, SignSmoothing::atan);
  // (2/pi) atan(qd/v_smooth): the published DFKI form Fc' atan(100 qd) with Fc' = Fc 2/pi.
  EXPECT_NEAR(StaticFriction<double>::steady_force(s.params, 0.02),
              0.289 * 2 / 3.14159265358979 * std::atan(2.0) + 0.047 * 0.02, 1e-15);
  const auto back = std::get<StaticSpec>(parse(to_json_text(ModelSpec{s})).spec);
  EXPECT_EQ(back.params.smoothing, SignSmoothing::atan);
  expect_param_error(model("coulomb", R"({"smoothing": "sigmoid"})"), "smoothing",
                     "must be \"tanh\" or \"atan\", got \"sigmoid\"");
}

TEST(ModelJson, JointLuGreArraysAndErrors) {
  const auto p = std::get<JointLuGre<double>::Params>(
      parse(model("joint-lugre", R"({"cv": [], "Fs": [0.5], "delta": [2]})")).spec);
  EXPECT_EQ(p.n_viscous, 0);
  EXPECT_EQ(p.n_stribeck, 1);
  expect_param_error(model("joint-lugre", R"({"Fs": [0.5, 0.1], "delta": [2]})"), "delta",
                     "Fs and delta must have the same number of entries");
  expect_param_error(model("joint-lugre", R"({"Fc": 0.1, "Fs": [-0.3], "delta": [2]})"), "Fc",
                     "must stay > 0 at every velocity");
  expect_param_error(model("joint-lugre", R"({"Fs": [0.3], "delta": [0]})"), "delta[0]",
                     "must be > 0, got 0");
  expect_param_error(model("joint-lugre", R"({"cv": [1, 2, 3, 4, 5, 6, 7, 8, 9]})"), "cv",
                     "has 9 entries; at most 8 are supported");
}

TEST(ModelJson, WriterRejectsStaticSpecsThatDoNotFitTheirKind) {
  StaticSpec c;
  c.kind = StaticKind::coulomb;  // default curve has Fs = Fc = 1: fits
  EXPECT_NO_THROW((void)to_json(c));
  c.params.curve.Fs_pos = 2;
  EXPECT_THROW((void)to_json(c), std::invalid_argument);
  StaticSpec v;
  v.kind = StaticKind::viscous;  // default curve has Fc = 1: does not fit
  EXPECT_THROW((void)to_json(v), std::invalid_argument);
}

// ---- syntax, structure and types ----

TEST(ModelJson, SyntaxErrorsGiveLineAndColumn) {
  const std::string text = "{\n  \"model\": \"lugre\",\n  \"params\": {\"sigma0\": 1e5,}\n}\n";
  try {
    (void)parse(text);
    ADD_FAILURE();
  } catch (const InputError& e) {
    // Position of the '}' after the trailing comma.
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 28);
    EXPECT_EQ(std::string(e.what()).rfind("m.json:3:28: JSON syntax error: ", 0), 0u) << e.what();
    // Independent check: nlohmann's own message names the same place.
    try {
      const auto ignored = nlohmann::json::parse(text);
      ADD_FAILURE() << ignored.dump();
    } catch (const nlohmann::json::parse_error& pe) {
      EXPECT_NE(std::string(pe.what()).find("line 3, column 28"), std::string::npos);
    }
  }
  expect_file_error("", 1, 1,
                    "m.json:1:1: JSON syntax error: syntax error while parsing value - unexpected "
                    "end of input; expected '[', '{', or a literal");
  expect_file_error("{\"model\": \"lugre\"}\n\n  x", 3, 3,
                    "m.json:3:3: JSON syntax error: syntax error while parsing value - invalid "
                    "literal; last read: '\"lugre\"}<U+000A><U+000A>  x'; expected end of input");
  // The literal 1e400 starts at line 2, column 23.
  expect_file_error("{\"model\": \"lugre\",\n \"params\": {\"sigma0\": 1e400}}", 2, 23,
                    "m.json:2:23: JSON number error: number overflow parsing '1e400'");
  expect_file_error(R"({"model": "lugre", "params": {"sigma0": 1, "sigma0": 2}})", 0, 0,
                    "m.json: duplicate key 'sigma0' in 'params'");
  expect_file_error(R"({"model": "lugre", "model": "dahl"})", 0, 0,
                    "m.json: duplicate key 'model' in the top level");
}

// Nesting beyond 256 levels is refused at the bracket that opens level 257, before nlohmann
// parses it, whatever the reader: 100,000 levels neither recurse nor allocate per level.
TEST(ModelJson, DeepNestingIsAnErrorAtItsPosition) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_file_error(deep, 1, 257,
                    "m.json:1:257: JSON nested deeper than 256 levels of arrays and objects (no "
                    "frictionlab file nests more than a few)");
  std::string objects = "{\n";
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  try {
    (void)parse_system_json(objects, "s.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    // the '{' of level 257 is the 256th "{"a":" on line 2, at column 5 * 255 + 1
    EXPECT_EQ(std::string(e.what()).substr(0, 56),
              "s.json:2:1276: JSON nested deeper than 256 levels of arr");
  }
  // Brackets inside strings do not count; 256 levels are read (and then checked as a model).
  const std::string ok = std::string(256, '[') + "\"[[{{\\\"[\"" + std::string(256, ']');
  expect_file_error(
      ok, 0, 0, "m.json: expected a JSON object {\"model\": ..., \"params\": {...}}, got array");
}

TEST(ModelJson, StructureErrors) {
  expect_file_error(
      "[1, 2]", 0, 0,
      "m.json: expected a JSON object {\"model\": ..., \"params\": {...}}, got array");
  expect_file_error(
      R"({"params": {}})", 0, 0,
      "m.json: missing key 'model' (one of: coulomb, viscous, coulomb-viscous, "
      "stribeck, lugre, dahl, elasto-plastic, maxwell-slip, modified-stribeck, gms, joint-lugre)");
  expect_file_error(R"({"model": "lugr"})", 0, 0,
                    "m.json: unknown model 'lugr' (known models: coulomb, viscous, "
                    "coulomb-viscous, stribeck, lugre, dahl, elasto-plastic, maxwell-slip, "
                    "modified-stribeck, gms, joint-lugre)");
  expect_file_error(R"({"model": "lugre", "parms": {}})", 0, 0,
                    "m.json: unknown key 'parms' (allowed: model, params, description, "
                    "accepted_warnings, temperature)");
  expect_file_error(R"({"model": 3})", 0, 0, "m.json: key 'model': expected a string, got number");
  expect_file_error(R"({"model": "lugre", "params": [1]})", 0, 0,
                    "m.json: key 'params': expected an object, got array");
  expect_file_error(R"({"model": "lugre", "description": 1})", 0, 0,
                    "m.json: key 'description': expected a string, got number");
  EXPECT_NO_THROW((void)parse(R"({"model": "lugre", "description": "x"})"));
}

TEST(ModelJson, UnknownParameterListsTheAllowedOnes) {
  try {
    (void)parse(model("lugre", R"({"sigma3": 1})"));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.param(), "sigma3");
    EXPECT_EQ(std::string(e.what()),
              "m.json: parameter 'sigma3': unknown parameter for model 'lugre' (allowed: sigma0, "
              "sigma1, sigma2, Fc, Fc_pos, Fc_neg, Fs, Fs_pos, Fs_neg, vs, alpha, shape, vd)");
  }
  expect_param_error(model("dahl", R"({"sigma1": 1})"), "sigma1",
                     "unknown parameter for model 'dahl' (allowed: sigma0, Fc, n)");
  expect_param_error(model("coulomb", R"({"Fs": 1})"), "Fs",
                     "unknown parameter for model 'coulomb' (allowed: Fc, Fc_pos, Fc_neg, "
                     "v_smooth, smoothing)");
  expect_param_error(model("viscous", R"({"Fc": 1})"), "Fc", "(allowed: sigma2)");
  expect_param_error(model("lugre", R"({"a1": 1e-5, "a2": 1e-5, "Fc": 1})"), "Fc",
                     "unknown parameter for model 'lugre' in the displacement form (a1, a2) "
                     "(allowed: sigma0, sigma1, sigma2, a1, a2, vs, alpha)");
  expect_param_error(model("maxwell-slip", R"({"nu": [1]})"), "nu",
                     "(allowed: n, k, Delta, sigma2)");
}

TEST(ModelJson, WrongTypes) {
  expect_param_error(model("lugre", R"({"sigma0": "1e5"})"), "sigma0",
                     "expected a number, got string");
  expect_param_error(model("lugre", R"({"sigma0": true})"), "sigma0",
                     "expected a number, got boolean");
  expect_param_error(model("lugre", R"({"sigma0": null})"), "sigma0",
                     "expected a number, got null");
  expect_param_error(model("lugre", R"({"sigma0": [1]})"), "sigma0",
                     "expected a number, got array");
  expect_param_error(model("lugre", R"({"shape": 1})"), "shape", "expected a string, got number");
  expect_param_error(model("lugre", R"({"shape": "linear"})"), "shape",
                     "must be \"exponential\" or \"rational\", got \"linear\"");
  expect_param_error(model("maxwell-slip", R"({"n": 2.5})"), "n", "expected an integer, got 2.5");
  expect_param_error(model("maxwell-slip", R"({"k": 1e5})"), "k",
                     "expected an array of numbers, got number");
  expect_param_error(model("maxwell-slip", R"({"k": []})"), "k", "non-empty array");
  expect_param_error(model("gms", R"({"nu": [0.5, "0.5"], "k": [1, 1]})"), "nu",
                     "entry 1: expected a number, got string");
}

// ---- invalid values: each parameter named as in docs/models.md ----

TEST(ModelJson, InvalidValuesNameTheParameter) {
  struct Case {
    std::string model, params, param, part;
  };
  const std::vector<Case> cases = {
      {"lugre", R"({"sigma0": -1})", "sigma0", "must be > 0, got -1"},
      {"lugre", R"({"sigma0": 0})", "sigma0", "must be > 0, got 0"},
      // a denormal passes "> 0" and then overflows the simulation: refused at read time
      {"lugre", R"({"sigma0": 5e-324})", "sigma0",
       "must be >= 1e-15 (a positive parameter, not a vanishing one), got 5e-324"},
      {"lugre", R"({"vs": 1e-16})", "vs",
       "must be >= 1e-15 (a positive parameter, not a vanishing one), got 1e-16"},
      {"lugre", R"({"sigma1": -1})", "sigma1", "must be >= 0, got -1"},
      {"lugre", R"({"sigma2": -0.5})", "sigma2", "must be >= 0, got -0.5"},
      {"lugre", R"({"Fc": 0})", "Fc", "must be > 0, got 0"},
      {"lugre", R"({"Fs": -1})", "Fs", "must be > 0, got -1"},
      {"lugre", R"({"Fs_pos": -1, "Fs_neg": 1.5})", "Fs_pos", "must be > 0, got -1"},
      {"lugre", R"({"Fc_pos": 1, "Fc_neg": 0})", "Fc_neg", "must be > 0, got 0"},
      {"lugre", R"({"vs": 0})", "vs", "must be > 0, got 0"},
      {"lugre", R"({"alpha": -2})", "alpha", "must be > 0, got -2"},
      {"lugre", R"({"vd": -1})", "vd", "must be >= 0, got -1"},
      {"lugre", R"({"Fc": 1, "Fc_pos": 1})", "Fc",
       "give either Fc or both Fc_pos and Fc_neg, not both forms"},
      {"lugre", R"({"Fc_pos": 1})", "Fc_neg",
       "missing: Fc_pos is given, so Fc_neg is required too"},
      {"lugre", R"({"Fs_neg": 1})", "Fs_pos", "missing: Fs_neg is given"},
      {"lugre", R"({"a1": 0, "a2": 1e-5})", "a1", "must be > 0, got 0"},
      {"lugre", R"({"a1": 1e-5, "a2": -2e-5})", "a2",
       "a1 + a2 must be > 0 (Fs = sigma0 (a1 + a2)), got a1 + a2 = -1e-05"},
      {"lugre", R"({"a1": 1e-5})", "a2", "missing: the displacement form needs both a1 and a2"},
      {"lugre", R"({"a1": 1e-5, "a2": 0, "sigma0": -3})", "sigma0", "must be > 0, got -3"},
      {"dahl", R"({"sigma0": 0})", "sigma0", "must be > 0"},
      {"dahl", R"({"Fc": -1})", "Fc", "must be > 0, got -1"},
      {"dahl", R"({"n": 0})", "n", "must be > 0, got 0"},
      {"elasto-plastic", R"({"z_ba": 2e-5})", "z_ba",
       "must satisfy 0 < z_ba < min(Fc, Fs)/sigma0 = 1e-05 m, got 2e-05"},
      {"elasto-plastic", R"({"z_ba": 0})", "z_ba", "must satisfy 0 < z_ba"},
      {"elasto-plastic", R"({"Fs": 0.5, "z_ba": 6e-6})", "z_ba",
       "min(Fc, Fs)/sigma0 = 5e-06 m, got 6e-06"},
      {"elasto-plastic", R"({"sigma1": -1})", "sigma1", "must be >= 0"},
      {"maxwell-slip", R"({"k": [1e5, -1], "Delta": [1e-5, 1e-5]})", "k[1]", "must be > 0, got -1"},
      {"maxwell-slip", R"({"k": [1e5, 1e5], "Delta": [0, 1e-5]})", "Delta[0]",
       "must be > 0, got 0"},
      {"maxwell-slip", R"({"n": 0})", "n", "must be between 1 and 64, got 0"},
      {"maxwell-slip", R"({"n": 65})", "n", "must be between 1 and 64, got 65"},
      {"maxwell-slip", R"({"n": 2, "k": [1, 2, 3], "Delta": [1, 2, 3]})", "n",
       "n = 2 but k has 3 entries"},
      {"maxwell-slip", R"({"k": [1, 2], "Delta": [1, 2, 3]})", "Delta",
       "has 3 entries but k has 2"},
      {"maxwell-slip", R"({"k": [1, 2]})", "Delta", "missing: required for n = 2 elements"},
      {"maxwell-slip", R"({"n": 3})", "k", "missing: required for n = 3 elements"},
      {"maxwell-slip", R"({"sigma2": -1})", "sigma2", "must be >= 0"},
      {"gms", R"({"k": [1e5, 1e5], "nu": [0.5, 0.4]})", "nu",
       "the weights must sum to 1 (within 1e-6), got sum = 0.9"},
      {"gms", R"({"k": [1e5, 1e5], "nu": [1.5, -0.5]})", "nu[1]", "must be > 0, got -0.5"},
      {"gms", R"({"C": 0})", "C", "must be > 0, got 0"},
      {"gms", R"({"Fc": 0})", "Fc", "must be > 0"},
      {"modified-stribeck", R"({"k": 0})", "k", "must be > 0, got 0"},
      {"modified-stribeck", R"({"vs": -1})", "vs", "must be > 0"},
      {"coulomb", R"({"Fc": -1})", "Fc", "must be >= 0, got -1"},
      {"coulomb", R"({"v_smooth": -1})", "v_smooth", "must be >= 0"},
      {"viscous", R"({"sigma2": -1})", "sigma2", "must be >= 0, got -1"},
      {"coulomb-viscous", R"({"Fc_pos": 1, "Fc_neg": -2})", "Fc_neg", "must be >= 0, got -2"},
      {"stribeck", R"({"vs": 0})", "vs", "must be > 0, got 0"},
      {"stribeck", R"({"Fs": -1})", "Fs", "must be >= 0, got -1"},
      {"stribeck", R"({"alpha": 0})", "alpha", "must be > 0, got 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.model + " " + c.params);
    expect_param_error(model(c.model, c.params), c.param, c.part);
  }
}

TEST(ModelJson, SymmetricKeysGiveOneErrorNotOnePerSide) {
  try {
    (void)parse(model("coulomb", R"({"Fc": -1})"));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "m.json: parameter 'Fc': must be >= 0, got -1");
  }
}

TEST(ModelJson, AllErrorsAreListedOnePerLine) {
  try {
    (void)parse(model("lugre", R"({"sigma0": -1, "sigma1": -2, "vs": 0})"));
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.param(), "sigma0");
    EXPECT_EQ(std::string(e.what()),
              "m.json: parameter 'sigma0': must be > 0, got -1\n"
              "m.json: parameter 'sigma1': must be >= 0, got -2\n"
              "m.json: parameter 'vs': must be > 0, got 0");
  }
}

// ---- warnings ----

TEST(ModelJson, LuGrePassivityWarning) {
  // Default parameters: sigma1 (Fs - Fc)/Fc = 158.1 > sigma2 = 0.4: not passive.
  const ModelFile f = parse(R"({"model": "lugre"})");
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_EQ(f.warnings[0].rfind("m.json: parameter 'sigma1': the map v -> F is not passive: "
                                "sigma1*(Fs - Fc)/Fc = 158.1",
                                0),
            0u)
      << f.warnings[0];
  EXPECT_TRUE(parse(model("lugre", R"({"sigma1": 0.5, "sigma2": 0.4})")).warnings.empty());
  // Boundary: sigma2 == sigma1 (Fs - Fc)/Fc is not passive (strict inequality).
  EXPECT_EQ(parse(model("lugre", R"({"sigma1": 0.8, "sigma2": 0.4})")).warnings.size(), 1u);
  // Asymmetric: only the negative side fails.
  const ModelFile a = parse(model(
      "lugre",
      R"({"sigma1": 0.5, "sigma2": 0.4, "Fc_pos": 1, "Fc_neg": 1, "Fs_pos": 1.5, "Fs_neg": 2})"));
  ASSERT_EQ(a.warnings.size(), 1u);
  EXPECT_NE(a.warnings[0].find("not passive for v < 0"), std::string::npos) << a.warnings[0];
  // Displacement form: the same condition with Fc = sigma0 a1, Fs = sigma0 (a1 + a2).
  EXPECT_EQ(parse(model("lugre", R"({"a1": 1e-5, "a2": 5e-6})")).warnings.size(), 1u);
  EXPECT_TRUE(parse(model("lugre", R"({"a1": 1e-5, "a2": 5e-6, "sigma1": 0.5})")).warnings.empty());
}

TEST(ModelJson, AcceptedWarningsWithTheirReason) {
  // A set kept on purpose reads without the warning it accepts; every other check stands.
  const ModelFile f =
      parse(R"({"model": "lugre", "accepted_warnings": {"not_passive": "as published"}})");
  EXPECT_TRUE(f.warnings.empty());
  const ModelFile alpha = parse(
      R"({"model": "lugre", "accepted_warnings": {"not_passive": "as published"}, "params": {"alpha": 3}})");
  ASSERT_EQ(alpha.warnings.size(), 1u);
  EXPECT_NE(alpha.warnings[0].find("alpha"), std::string::npos);
  expect_file_error(R"({"model": "lugre", "accepted_warnings": {"not_passive": ""}})", 0, 0,
                    "m.json: accepted_warnings.not_passive: expected a non-empty string saying why "
                    "the warning is accepted");
  expect_file_error(
      R"({"model": "lugre", "accepted_warnings": {"all": "quiet"}})", 0, 0,
      "m.json: accepted_warnings: unknown warning 'all' (a file may accept: not_passive)");
  expect_file_error(
      R"({"model": "lugre", "accepted_warnings": ["not_passive"]})", 0, 0,
      "m.json: key 'accepted_warnings': expected an object {\"not_passive\": \"why the "
      "set is kept\"}, got array");
}

TEST(ModelJson, ShippedExamplesReadWithoutWarnings) {
  // Every model file of examples/data is quiet: passive, or its published set accepted with
  // the reason in the file.
  for (const auto& entry : std::filesystem::directory_iterator(kData)) {
    if (entry.path().extension() != ".json") continue;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(entry.path()));
    SCOPED_TRACE(entry.path().string());
    if (j.contains("model") && !j.contains("format")) {
      EXPECT_TRUE(read_model_file(entry.path().string(), ModelTemperature::taken).warnings.empty());
    } else if (j.contains("system")) {
      EXPECT_TRUE(read_system_file(entry.path().string()).warnings.empty());
    }
  }
}

TEST(ModelJson, PassivityWarningAgreesWithLuGreIsPassive) {
  // Independent oracle: LuGre::is_passive in lugre.hpp.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.1, 2);
  for (int i = 0; i < 500; ++i) {
    LuGre<double>::Params p;
    p.sigma1 = u(rng);
    p.sigma2 = u(rng) / 4;
    p.curve = {u(rng), u(rng), u(rng), u(rng), 1e-3, 2, StribeckShape::exponential};
    bool warned = false;
    for (const auto& issue : check(p))
      warned = warned || (issue.warning && issue.message.find("passive") != std::string::npos);
    EXPECT_EQ(warned, !LuGre<double>::is_passive(p));
  }
}

TEST(ModelJson, OtherWarnings) {
  const auto w = parse(model("stribeck", R"({"Fc": 1, "Fs": 0.5, "alpha": 3})")).warnings;
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "m.json: parameter 'alpha': alpha = 3 is outside the usual range [0.5, 2]");
  EXPECT_EQ(w[1],
            "m.json: parameter 'Fs': Fs = 0.5 < Fc = 1: inverted Stribeck effect (friction rises "
            "with speed)");
  const auto d = parse(model("dahl", R"({"n": 3})")).warnings;
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0], "m.json: parameter 'n': n = 3 is outside (0, 2] (Dahl used 0 < n <= 2)");
  EXPECT_TRUE(parse(R"({"model": "dahl"})").warnings.empty());
  EXPECT_TRUE(parse(R"({"model": "coulomb"})").warnings.empty());
}

// ---- LuGre forms ----

TEST(ModelJson, AsymmetricAndDisplacementFormsMatchTheConverters) {
  const auto asym = std::get<LuGre<double>::Params>(
      parse(model("lugre", R"({"Fc_pos": 1, "Fc_neg": 0.8, "Fs_pos": 1.5, "Fs_neg": 1.2,
                               "vs": 0.002, "alpha": 1, "shape": "rational", "vd": 0.01})"))
          .spec);
  EXPECT_EQ(asym.curve.Fc_pos, 1);
  EXPECT_EQ(asym.curve.Fc_neg, 0.8);
  EXPECT_EQ(asym.curve.Fs_pos, 1.5);
  EXPECT_EQ(asym.curve.Fs_neg, 1.2);
  EXPECT_EQ(asym.curve.shape, StribeckShape::rational);
  EXPECT_EQ(asym.vd, 0.01);

  // Symmetric keys = both sides equal = StribeckCurve::symmetric.
  const auto sym = std::get<LuGre<double>::Params>(
      parse(model("lugre", R"({"Fc": 0.7, "Fs": 0.9, "vs": 0.003, "alpha": 1.5})")).spec);
  expect_same_curve(sym.curve, StribeckCurve<double>::symmetric(0.7, 0.9, 0.003, 1.5));

  // Displacement form = lugre_from_displacement_form.
  LuGreDisplacementForm<double> d{2e4, 150, 0.3, 3e-5, 1.2e-5, 0.004, 1.5};
  const auto from_file = parse(model("lugre", R"({"sigma0": 2e4, "sigma1": 150, "sigma2": 0.3,
      "a1": 3e-5, "a2": 1.2e-5, "vs": 0.004, "alpha": 1.5})"))
                             .spec;
  expect_same(from_file, lugre_from_displacement_form(d));
  // ... and the example file, against the converter with its values typed in here.
  expect_same(read_model_file(kData + "lugre_displacement.json").spec,
              lugre_from_displacement_form(
                  LuGreDisplacementForm<double>{1e5, 316.227766, 0.4, 1e-5, 5e-6, 0.001, 2}));
  // The two forms describe the same model: writing the converted params and reading them back.
  const auto back = std::get<LuGre<double>::Params>(parse(to_json_text(from_file)).spec);
  const auto d2 = lugre_to_displacement_form<double>(back);
  EXPECT_NEAR(d2.a1, d.a1, 1e-20);
  EXPECT_NEAR(d2.a2, d.a2, 1e-20);
}

// ---- validation.hpp directly ----

TEST(ParamValidation, ActuatorBudgetsAndNonFiniteValues) {
  ActuatorFrictionParams<double> a;
  EXPECT_TRUE(check(a).empty());
  a.Kv = -1;
  a.vs = 0;
  a.Keq = std::nan("");
  const auto issues = check(a);
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_EQ(issues[0].param, "Kv");
  EXPECT_EQ(issues[1].param, "vs");
  EXPECT_EQ(issues[2].param, "Keq");
  EXPECT_EQ(issues[2].message, "must be a finite number, got nan");
  EXPECT_TRUE(has_errors(issues));

  LuGre<double>::Params p;
  p.sigma0 = std::numeric_limits<double>::infinity();
  const auto li = check(p);
  ASSERT_FALSE(li.empty());
  EXPECT_EQ(li[0].param, "sigma0");
  EXPECT_EQ(li[0].message, "must be a finite number, got inf");
}

// ---- SYSTEM.json ----

SystemFile parse_system(const std::string& text, const std::string& file = "s.json") {
  return parse_system_json(text, file);
}

void expect_system_error(const std::string& text, const std::string& what,
                         const std::string& param = "") {
  try {
    (void)parse_system(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), what);
    EXPECT_EQ(e.param(), param);
  }
}

TEST(SystemJson, ExampleFiles) {
  const SystemFile s = read_system_file(kData + "stick_slip.json");
  EXPECT_EQ(s.kind, sim::SystemKind::stick_slip);
  EXPECT_EQ(s.stick_slip.m, 1);
  EXPECT_EQ(s.stick_slip.k, 2);
  EXPECT_EQ(s.stick_slip.v_drive, 0.1);
  EXPECT_FALSE(s.stick_slip.belt);
  EXPECT_EQ(s.stick_slip.t_end, 20);
  EXPECT_EQ(s.friction_model, "lugre");
  EXPECT_EQ(std::get<LuGre<double>::Params>(s.friction).sigma0, 1e5);
  // The classic parameter set is not passive, and the file accepts that with its reason.
  EXPECT_TRUE(s.warnings.empty());

  const SystemFile j = read_system_file(kData + "joint.json");
  EXPECT_EQ(j.kind, sim::SystemKind::joint);
  EXPECT_EQ(j.joint.I, 0.05);
  EXPECT_EQ(j.joint.mgCx, 0.3);
  EXPECT_EQ(j.joint.tau_amp, 0.5);
  EXPECT_TRUE(j.joint.tau_t.empty());
  EXPECT_TRUE(j.warnings.empty());

  const SystemFile r = read_system_file(kData + "joint_torque_record.json");
  const CsvTable tau = read_csv(kData + "joint_torque.csv");
  EXPECT_EQ(r.joint.tau_t, tau.column("t"));
  EXPECT_EQ(r.joint.tau, tau.column("tau"));
  EXPECT_EQ(r.joint.tau_t.size(), 101u);
}

TEST(SystemJson, DefaultsAndOtherFrictionModels) {
  const SystemFile s = parse_system(R"({"system": "stick-slip", "friction": {"model": "dahl"}})");
  const sim::StickSlipSpec def;
  EXPECT_EQ(s.stick_slip.m, def.m);
  EXPECT_EQ(s.stick_slip.t_end, def.t_end);
  EXPECT_TRUE(std::holds_alternative<Dahl<double>::Params>(s.friction));
  const SystemFile e = parse_system(
      R"({"system": "joint", "params": {"I": 1}, "friction": {"model": "elasto-plastic"}})");
  EXPECT_TRUE(std::holds_alternative<ElastoPlastic<double>::Params>(e.friction));
  EXPECT_EQ(e.joint.I, 1);
}

TEST(SystemJson, Errors) {
  const std::string lugre = R"("friction": {"model": "lugre"})";
  expect_system_error(R"({"system": "pendulum", )" + lugre + "}",
                      "s.json: unknown system 'pendulum' (known systems: stick-slip, joint)");
  expect_system_error(R"({"friction": {"model": "lugre"}})",
                      "s.json: missing key 'system' (a string: stick-slip or joint)");
  expect_system_error(R"({"system": "stick-slip"})",
                      "s.json: missing key 'friction' (a model object {\"model\": \"lugre\", "
                      "\"params\": {...}}; lugre, dahl or elasto-plastic)");
  expect_system_error(R"({"system": "stick-slip", "params": {"m": 0}, )" + lugre + "}",
                      "s.json: parameter 'm': must be > 0, got 0", "m");
  expect_system_error(R"({"system": "stick-slip", "params": {"k": -2}, )" + lugre + "}",
                      "s.json: parameter 'k': must be > 0, got -2", "k");
  expect_system_error(R"({"system": "stick-slip", "params": {"belt": 1}, )" + lugre + "}",
                      "s.json: parameter 'belt': expected true or false, got number", "belt");
  expect_system_error(R"({"system": "stick-slip", "params": {"I": 1}, )" + lugre + "}",
                      "s.json: parameter 'I': unknown parameter for system 'stick-slip' (allowed: "
                      "m, k, v_drive, belt, x0, v0, t_end)",
                      "I");
  expect_system_error(R"({"system": "joint", "params": {"t_end": 0}, )" + lugre + "}",
                      "s.json: parameter 't_end': must be > 0, got 0", "t_end");
  expect_system_error(R"({"system": "joint", "params": {"tau_freq": -1}, )" + lugre + "}",
                      "s.json: parameter 'tau_freq': must be >= 0, got -1", "tau_freq");
  expect_system_error(R"({"system": "stick-slip", "torque_csv": "x.csv", )" + lugre + "}",
                      "s.json: unknown key 'torque_csv' for system 'stick-slip' (allowed: system, "
                      "params, friction, description)");
  expect_system_error(
      R"({"system": "joint", "params": {"tau_amp": 1}, "torque_csv": "x.csv", )" + lugre + "}",
      "s.json: parameter 'tau_amp': cannot be combined with torque_csv (the torque is either the "
      "record or the sine)",
      "tau_amp");
  expect_system_error(
      R"({"system": "stick-slip", "friction": {"model": "lugre", "params": {"sigma0": -1}}})",
      "s.json: friction: parameter 'sigma0': must be > 0, got -1", "sigma0");
  expect_system_error(
      R"({"system": "stick-slip", "friction": {"model": "lugre", "params": {"x": 1}}})",
      "s.json: friction: parameter 'x': unknown parameter for model 'lugre' (allowed: sigma0, "
      "sigma1, sigma2, Fc, Fc_pos, Fc_neg, Fs, Fs_pos, Fs_neg, vs, alpha, shape, vd)",
      "x");
  expect_system_error(R"({"system": "stick-slip", "friction": {"model": "gms"}})",
                      "s.json: friction: model 'gms' cannot be coupled to a mechanical system "
                      "(supported: lugre, dahl, elasto-plastic)");
  expect_system_error(R"({"system": "stick-slip", "friction": {"model": "foo"}})",
                      "s.json: friction: unknown model 'foo' (known models: coulomb, viscous, "
                      "coulomb-viscous, stribeck, lugre, dahl, elasto-plastic, maxwell-slip, "
                      "modified-stribeck, gms, joint-lugre)");
}

TEST(SystemJson, TorqueCsvIsReadRelativeToTheJsonFileAndChecked) {
  const auto dir = std::filesystem::temp_directory_path() / "frictionlab_test_system_json";
  std::filesystem::create_directories(dir / "sub");
  const std::string json_path = (dir / "sub" / "j.json").string();
  auto write = [](const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p) << text;
  };
  write(dir / "sub" / "j.json",
        R"({"system": "joint", "torque_csv": "tau.csv", "friction": {"model": "dahl"}})");
  write(dir / "sub" / "tau.csv", "t,tau\n0,0\n1,0.5\n2,0.25\n");
  const SystemFile ok = read_system_file(json_path);
  EXPECT_EQ(ok.joint.tau, (std::vector<double>{0, 0.5, 0.25}));

  write(dir / "sub" / "tau.csv", "t,tau\n0,0\n1,0.5\n1,0.25\n");
  try {
    (void)read_system_file(json_path);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), (dir / "sub" / "tau.csv").string());
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.column(), 1);
  }
  write(dir / "sub" / "tau.csv", "t,torque\n0,0\n1,0.5\n");
  try {
    (void)read_system_file(json_path);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no column 'tau' (columns found: t, torque)"),
              std::string::npos);
  }
  std::filesystem::remove(dir / "sub" / "tau.csv");
  EXPECT_THROW((void)read_system_file(json_path), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace frictionlab::io
