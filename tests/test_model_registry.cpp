// The model registry (models/registry.hpp) against its readers: the names of docs/models.md, the
// CLI's --help, MODEL.json round trips of every registered model, and the worked example of
// docs/architecture.md ("Adding a model": tests/registry_example/, registered in a test-only list).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "frictionlab/io/model_json.hpp"
#include "frictionlab/models/registry.hpp"
#include "registry.hpp"

namespace frictionlab {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string source(const std::string& rel) {
  return read_file(std::string(FRICTIONLAB_SOURCE_DIR) + "/" + rel);
}

std::string run(const std::string& args) {
  const std::string cmd = std::string("\"") + FRICTIONLAB_CLI + "\" " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  EXPECT_NE(p, nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  while (p != nullptr && std::fgets(buf.data(), static_cast<int>(buf.size()), p) != nullptr)
    out += buf.data();
  if (p != nullptr) {
    EXPECT_EQ(pclose(p), 0) << out;
  }
  return out;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(' ');
    const auto e = item.find_last_not_of(" \r\n");
    out.push_back(b == std::string::npos ? "" : item.substr(b, e - b + 1));
  }
  return out;
}

// The first column of the table under "## Model file names" in docs/models.md.
std::vector<std::string> docs_model_table() {
  const std::string doc = source("docs/models.md");
  const auto at = doc.find("## Model file names");
  EXPECT_NE(at, std::string::npos);
  std::vector<std::string> names;
  std::stringstream ss(doc.substr(at));
  std::string line;
  const std::regex row("^\\| `([a-z-]+)` \\|");
  std::smatch m;
  while (std::getline(ss, line))
    if (std::regex_search(line, m, row)) names.push_back(m[1]);
  return names;
}

TEST(ModelRegistry, DocsTableListsTheRegistry) {
  EXPECT_EQ(docs_model_table(), model_names());
  // The conventions line "JSON model names: `coulomb`, ..." too.
  const std::string doc = source("docs/models.md");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(doc, m, std::regex("JSON model names: ([^.]*)\\.")));
  std::string list = m[1];
  list = std::regex_replace(list, std::regex("[`\\n]"), "");
  list = std::regex_replace(list, std::regex(" +"), " ");
  EXPECT_EQ(split(list), model_names());
}

TEST(ModelRegistry, CliHelpListsTheRegistry) {
  const std::string top = run("--help");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      top, m, std::regex("Models \\(MODEL\\.json \"model\", docs/models\\.md\\): ([^\\n]*)")))
      << top;
  EXPECT_EQ(split(m[1]), model_names());

  const std::string fit = run("fit --help");
  ASSERT_TRUE(std::regex_search(fit, m, std::regex("--model TEXT=lugre +([^\\n]*)"))) << fit;
  EXPECT_EQ(split(m[1]), fit_model_names(/*with_elements=*/true));
}

TEST(ModelRegistry, NamesAreUniqueAndFitNamesParse) {
  const auto& names = model_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = i + 1; j < names.size(); ++j) EXPECT_NE(names[i], names[j]);
  // Every listed fit name is a registered model name or one with a variant suffix.
  for (const auto& f : fit_model_names()) {
    std::string base = std::regex_replace(f, std::regex("(-asym|-rational)$"), "");
    bool found = false;
    for (const auto& n : names) found = found || n == base;
    EXPECT_TRUE(found) << f;
  }
}

// Every registered model, written from its defaults and read back, gives the same file: the
// registration line alone gives a model its MODEL.json reading and writing.
TEST(ModelRegistry, EveryModelRoundTripsThroughModelJson) {
  int count = 0;
  for_each_model([&]<class I>(std::type_identity<I>) {
    const ModelSpec spec = I::spec(I::defaults());
    EXPECT_EQ(model_name(spec), I::name);
    const auto j = io::to_json(spec);
    EXPECT_EQ(j["model"], std::string(I::name));
    const io::ModelFile back =
        io::model_from_json(nlohmann::json::parse(j.dump()), "defaults.json");
    EXPECT_EQ(io::to_json(back.spec).dump(), j.dump()) << I::name;
    // The file's keys are the descriptor's parameter table (the curve's levels written as Fc, Fs).
    std::vector<std::string> keys;
    for (auto it = j["params"].begin(); it != j["params"].end(); ++it) keys.push_back(it.key());
    std::vector<std::string> rows;
    for (const auto& r : param_table<I>())
      if (r.key != "smoothing") rows.push_back(r.key);  // written only when not the default
    EXPECT_EQ(keys, rows) << I::name;
    ++count;
    return false;
  });
  EXPECT_EQ(count, static_cast<int>(model_names().size()));
}

// ---- the worked example of docs/architecture.md ----

using example::ExampleModels;
using example::FluidDrag;
using example::FluidDragInfo;

TEST(ModelRegistryExample, OneLineRegistersTheModel) {
  const auto& names = model_names<ExampleModels>();
  ASSERT_EQ(names.size(), model_names().size() + 1);
  EXPECT_EQ(names.back(), "fluid-drag");
  // Its parameters are an alternative of the list's spec variant, named and checked through it.
  using Spec = ModelSpecOf<ExampleModels>;
  EXPECT_EQ(std::variant_size_v<Spec>, std::variant_size_v<ModelSpec> + 1);
  FluidDrag<double>::Params p;
  const Spec spec = p;
  EXPECT_EQ(model_name<ExampleModels>(spec), "fluid-drag");
  EXPECT_TRUE(check<ExampleModels>(spec).empty());
  p.cd = -1;
  const auto issues = check<ExampleModels>(Spec{p});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].param, "cd");
  EXPECT_EQ(issues[0].message, "must be >= 0, got -1");
  // The library's models keep their own names in the longer list.
  EXPECT_EQ(model_name<ExampleModels>(Spec{LuGre<double>::Params{}}), "lugre");
  // Fittable (FitFacts, fit.hpp): its name joins the fit names.
  auto fit_names = fit_model_names();
  fit_names.emplace_back("fluid-drag");
  EXPECT_EQ(fit_model_names<ExampleModels>(), fit_names);
}

TEST(ModelRegistryExample, ParameterTableAndForce) {
  const auto rows = param_table<FluidDragInfo>();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, "sigma2");
  EXPECT_EQ(unit_text(rows[0].unit), "N s/m");
  EXPECT_EQ(rows[0].default_value, 0.4);
  EXPECT_EQ(rows[1].key, "cd");
  EXPECT_EQ(rows[1].default_value, 2.0);
  using M = FluidDrag<float>;
  const M::Params pf = example::cast_params<float>(FluidDrag<double>::Params{});
  EXPECT_FLOAT_EQ(M::force(pf, {}, -0.5f), -0.4f * 0.5f - 2.0f * 0.25f);
  EXPECT_FLOAT_EQ(M::steady_force(pf, 0.0f), 0.0f);
}

// The code docs/architecture.md shows is the code this test builds.
TEST(ModelRegistryExample, DocsQuoteTheBuiltFiles) {
  const std::string doc = source("docs/architecture.md");
  const auto at = doc.find("## Adding a model");
  ASSERT_NE(at, std::string::npos);
  const std::string section = doc.substr(at);
  const std::regex block("```cpp\\n// ([^\\n]+)\\n([\\s\\S]*?)```");
  int quoted = 0;
  for (auto it = std::sregex_iterator(section.begin(), section.end(), block);
       it != std::sregex_iterator(); ++it) {
    const std::string file = (*it)[1];
    const std::string code = (*it)[2];
    EXPECT_NE(source(file).find(code), std::string::npos) << file << " does not contain:\n" << code;
    ++quoted;
  }
  EXPECT_GE(quoted, 2);
}

}  // namespace
}  // namespace frictionlab
