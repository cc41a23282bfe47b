// Test helpers for MuJoCo 2.2.2 (C API): models written to a file of this process and loaded,
// owned by unique_ptr.
#pragma once

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace frictionlab::test {

struct MjDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDeleter>;

/// A path in the test's temporary folder unique to this process (ctest runs a file's tests in
/// parallel).
inline std::filesystem::path process_file(const std::string& name, const std::string& ext) {
  return std::filesystem::path(::testing::TempDir()) /
         (name + "_" + std::to_string(::getpid()) + ext);
}

/// MuJoCo's model of `xml` (2.2.2 loads XML from files); fails the test with MuJoCo's message
/// if it does not load.
inline MjModelPtr load_mjcf(const std::string& xml, const std::string& name) {
  const auto path = process_file(name, ".xml");
  std::ofstream(path) << xml;
  std::array<char, 1000> error{};
  MjModelPtr m(mj_loadXML(path.c_str(), nullptr, error.data(), static_cast<int>(error.size())));
  std::filesystem::remove(path);
  EXPECT_TRUE(m) << "MuJoCo did not load the model: " << error.data() << "\n" << xml;
  return m;
}

/// A chain of `n` links hanging down (hinges j0 .. j<n-1> about alternating axes, 1 kg links of
/// 0.1 m), Euler at 1 ms: the arm of bench_mujoco.
inline std::string chain_mjcf(int n) {
  std::string xml =
      "<mujoco model=\"chain\">\n  <option timestep=\"0.001\" integrator=\"Euler\"/>\n"
      "  <worldbody>\n";
  for (int i = 0; i < n; ++i)
    xml += "<body pos=\"0 0 " + std::string(i == 0 ? "0" : "-0.1") + "\"><joint name=\"j" +
           std::to_string(i) + "\" type=\"hinge\" axis=\"" + (i % 2 == 0 ? "0 1 0" : "1 0 0") +
           "\"/><inertial pos=\"0 0 -0.05\" mass=\"1\" diaginertia=\"0.001 0.001 0.0005\"/>\n";
  for (int i = 0; i < n; ++i) xml += "</body>";
  return xml + "\n  </worldbody>\n</mujoco>\n";
}

}  // namespace frictionlab::test
