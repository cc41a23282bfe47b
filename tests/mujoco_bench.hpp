// Test helpers for MuJoCo 2.2.2 (C API): models written to a file of this process and loaded,
// owned by unique_ptr; the XL330 logs' pendulum bench as MJCF.
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

/// The pendulum bench of the XL330 logs (sim/servo.hpp, PendulumBench) as MJCF: a hinge about
/// y carrying a point mass `mass` [kg] at `length` [m] and a uniform rod of `arm_mass` [kg],
/// q = 0 hanging down, the mass turned by `q_offset` [rad] (the bench's zero error: gravity
/// torque -(mass + arm_mass/2) g L sin(q + q_offset)), g = 9.80665 m/s^2. `joint` is the
/// joint element, `actuator` the <actuator> section (may be empty).
inline std::string pendulum_mjcf(const std::string& joint, const std::string& actuator, double mass,
                                 double length, double arm_mass, double q_offset, double timestep) {
  char text[1024];
  const double x = -length * std::sin(q_offset), z = -length * std::cos(q_offset);
  std::snprintf(text, sizeof text,
                "<mujoco model=\"frictionlab_bench\">\n"
                "  <option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 -9.80665\"/>\n"
                "  <default><joint type=\"hinge\" axis=\"0 1 0\"/></default>\n"
                "  <worldbody>\n    <body name=\"link\">\n      ",
                timestep);
  std::string xml = text + joint + "\n";
  std::snprintf(text, sizeof text,
                "      <inertial pos=\"%.17g 0 %.17g\" mass=\"%.17g\" "
                "diaginertia=\"1e-12 1e-12 1e-12\"/>\n",
                x, z, mass);
  xml += text;
  if (arm_mass > 0) {
    // the rod: a child body at the axis whose mass sits at L/2 with inertia m L^2 / 12
    const double i = arm_mass * length * length / 12.0;
    std::snprintf(text, sizeof text,
                  "      <body name=\"arm\"><inertial pos=\"%.17g 0 %.17g\" mass=\"%.17g\" "
                  "diaginertia=\"%.17g %.17g %.17g\"/></body>\n",
                  x / 2, z / 2, arm_mass, i, i, i);
    xml += text;
  }
  return xml + "    </body>\n  </worldbody>\n" + actuator + "\n</mujoco>\n";
}

}  // namespace frictionlab::test
