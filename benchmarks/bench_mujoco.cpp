// frictionlab's friction inside MuJoCo (frictionlab::mujoco) against MuJoCo's own step on the
// same model: a 7-joint arm (hinges about alternating axes, 1 kg links of 0.1 m), driven by
// slow sine torques, one mj_step (Euler, 1 ms) per iteration:
//   bare          no friction
//   mujoco        MuJoCo's frictionloss and damping on every joint (what `export` writes)
//   lugre         frictionlab's LuGre on every joint (implicit step, bristle state per joint)
//   static        frictionlab's coulomb-viscous on every joint (stopping-torque rule)
//   mixed         LuGre on the even joints, coulomb-viscous on the odd ones (the sweeps)
//   servo_m6      every joint an XL330 servo with its fitted M6 (firmware, motor, budget)
// The callback's cost is the difference to `bare`; the goal is <= 5 % of mj_step. Counters per
// step: sweeps (Gauss-Seidel passes), lugre_evals (model evaluations per joint), at_once (share
// solved at once: the programme or Newton), stalls (Newton handed to the sweeps), unconverged
// (the sweeps stopped at their limit).
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "frictionlab/mujoco/friction.h"

namespace {

constexpr int kJoints = 7;
const std::string kExamples = std::string(FRICTIONLAB_SOURCE_DIR) + "/examples";

/// The arm's MJCF; `joint` is added to every joint element, `servo` adds a goal actuator per
/// joint.
std::string arm_mjcf(const std::string& joint, bool servo) {
  std::string xml =
      "<mujoco model=\"arm7\">\n  <option timestep=\"0.001\" integrator=\"Euler\"/>\n"
      "  <worldbody>\n";
  std::string close;
  for (int i = 0; i < kJoints; ++i) {
    xml += "<body name=\"l" + std::to_string(i) + "\" pos=\"0 0 " + (i == 0 ? "0" : "-0.1") +
           "\"><joint name=\"j" + std::to_string(i) + "\" type=\"hinge\" axis=\"" +
           (i % 2 == 0 ? "0 1 0" : "1 0 0") + "\" " + joint +
           "/><inertial pos=\"0 0 -0.05\" mass=\"1\" diaginertia=\"0.001 0.001 0.0005\"/>\n";
    close += "</body>";
  }
  xml += close + "\n  </worldbody>\n";
  if (servo) {
    xml += "  <actuator>\n";
    for (int i = 0; i < kJoints; ++i)
      xml += "    <general name=\"g" + std::to_string(i) + "\" joint=\"j" + std::to_string(i) +
             "\" gainprm=\"0\" biasprm=\"0 0 0\"/>\n";
    xml += "  </actuator>\n";
  }
  return xml + "</mujoco>\n";
}

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("frictionlab_bench_" + name + "_" + std::to_string(::getpid()));
}

mjModel* load(const std::string& xml) {
  const auto path = temp_file("arm.xml");
  std::ofstream(path) << xml;
  std::array<char, 1000> error{};
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error.data(), static_cast<int>(error.size()));
  std::filesystem::remove(path);
  if (m == nullptr) std::fprintf(stderr, "MuJoCo: %s\n", error.data());
  return m;
}

/// A MUJOCO.json with every joint `entry` (its "joint" added; GOAL in it replaced by the joint's
/// goal actuator), or `odd` on the odd joints where given, in a temporary file.
std::string description(const std::string& entry, const std::string& odd = "") {
  std::string text = "{\"format\": \"frictionlab-mujoco\", \"version\": 1, \"joints\": [";
  for (int i = 0; i < kJoints; ++i) {
    const std::string index = std::to_string(i);
    std::string e = i % 2 == 1 && !odd.empty() ? odd : entry;
    if (const auto at = e.find("GOAL"); at != std::string::npos) e.replace(at, 4, "g" + index);
    if (i > 0) text.append(", ");
    text.append("{\"joint\": \"j").append(index).append("\", ").append(e).append("}");
  }
  text.append("]}");
  const auto path = temp_file("MUJOCO.json");
  std::ofstream(path) << text;
  return path.string();
}

/// The solver's work per step as counters (flmj_get_stats): sweeps, LuGre model evaluations per
/// joint, the share of steps solved at once by the programme or by Newton, Newton's stalls.
void report_stats(benchmark::State& state, const flmj_friction* fl) {
  flmj_stats s{};
  if (flmj_get_stats(fl, &s) != 0 || s.evaluations == 0) return;
  const auto per_step = [&](long long n) {
    return static_cast<double>(n) / static_cast<double>(s.evaluations);
  };
  state.counters["sweeps"] = per_step(s.sweeps);
  state.counters["lugre_evals"] = per_step(s.lugre_evaluations) / kJoints;
  state.counters["at_once"] = per_step(s.programme_solves + s.newton_solves);
  state.counters["stalls"] = per_step(s.newton_stalls);
  state.counters["unconverged"] = per_step(s.sweep_limits);
}

/// One mj_step per iteration of the arm under `joint` attributes, with frictionlab's friction
/// of `entry` (empty: none); the goals of servo joints are sines.
void run(benchmark::State& state, const std::string& joint, const std::string& entry, bool servo,
         const std::string& odd = "") {
  mjModel* m = load(arm_mjcf(joint, servo));
  if (m == nullptr) {
    state.SkipWithError("MuJoCo did not load the arm");
    return;
  }
  mjData* d = mj_makeData(m);
  flmj_friction* fl = nullptr;
  if (!entry.empty()) {
    char error[1000];
    fl = flmj_load(m, description(entry, odd).c_str(), error, sizeof error);
    if (fl == nullptr) {
      state.SkipWithError(error);
      return;
    }
  }
  flmj_install(fl);
  long steps = 0;
  for (auto _ : state) {
    if (++steps % 1000 == 0) {  // a second of motion from rest (the bare arm gains energy)
      mj_resetData(m, d);
      flmj_reset(fl);
    }
    const double t = d->time;
    for (int i = 0; i < kJoints; ++i) {
      d->qfrc_applied[i] = 1.5 * std::sin(2.0 * (i + 1) * t);
      if (servo) d->ctrl[i] = 0.5 * std::sin((i + 1) * t);
    }
    mj_step(m, d);
    benchmark::DoNotOptimize(d->qpos[0]);
  }
  report_stats(state, fl);
  flmj_install(nullptr);
  flmj_free(fl);
  mj_deleteData(d);
  mj_deleteModel(m);
}

void BM_Arm7_bare(benchmark::State& s) { run(s, "", "", false); }
void BM_Arm7_mujoco(benchmark::State& s) {
  run(s, "frictionloss=\"0.18\" damping=\"0.05\"", "", false);
}
void BM_Arm7_lugre(benchmark::State& s) {
  run(s, "", "\"friction\": \"" + kExamples + "/mujoco/shoulder_lugre.json\"", false);
}
void BM_Arm7_static(benchmark::State& s) {
  run(s, "", "\"friction\": \"" + kExamples + "/data/coulomb_viscous.json\"", false);
}
void BM_Arm7_mixed(benchmark::State& s) {
  run(s, "", "\"friction\": \"" + kExamples + "/mujoco/shoulder_lugre.json\"", false,
      "\"friction\": \"" + kExamples + "/data/coulomb_viscous.json\"");
}
void BM_Arm7_servo_m6(benchmark::State& s) {
  run(s, "armature=\"0.0018077432831600838\"",
      "\"servo\": \"" + kExamples + "/mujoco/xl330_m6.json\", \"goal\": \"GOAL\", \"kp\": 400",
      true);
}
BENCHMARK(BM_Arm7_bare);
BENCHMARK(BM_Arm7_mujoco);
BENCHMARK(BM_Arm7_lugre);
BENCHMARK(BM_Arm7_static);
BENCHMARK(BM_Arm7_mixed);
BENCHMARK(BM_Arm7_servo_m6);

}  // namespace

BENCHMARK_MAIN();
