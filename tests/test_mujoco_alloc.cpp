// frictionlab's friction inside MuJoCo allocates nothing while MuJoCo steps: the allocation trap
// (allocation_trap.hpp) is armed inside MuJoCo's passive-force callback around frictionlab's
// own, on a 7-joint arm whose joints are all LuGre (solved at once by Newton's method, the
// sweeps where it stalls), all coulomb-viscous (the box-constrained programme), or a mix of
// both (Newton with the programme inside).
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>

#include "allocation_trap.hpp"
#include "frictionlab/mujoco/friction.h"
#include "mujoco_bench.hpp"

namespace frictionlab {
namespace {

using test::MjDataPtr;
using test::MjModelPtr;
using testing::Trap;

const std::string kExamples = FRICTIONLAB_SOURCE_DIR "/examples";

/// The callback frictionlab installed, called with the trap armed; the allocations seen.
mjfGeneric g_friction = nullptr;
long g_seen = 0;
void trapped_passive(const mjModel* m, mjData* d) {
  Trap trap;
  g_friction(m, d);
  g_seen += trap.count();
}

struct FrictionDeleter {
  void operator()(flmj_friction* f) const { flmj_free(f); }
};

/// The allocations inside frictionlab's callback over 2000 steps of the arm driven by sines,
/// joint i's friction from the parameter file friction[i % 2].
long allocations_in_callback(const std::string& name, const std::string (&friction)[2]) {
  const MjModelPtr m = test::load_mjcf(test::chain_mjcf(7), name);
  if (!m) return -1;
  const auto description = test::process_file(name + "_MUJOCO", ".json");
  {
    std::ofstream out(description);
    out << R"({"format": "frictionlab-mujoco", "version": 1, "joints": [)";
    for (int i = 0; i < 7; ++i)
      out << (i > 0 ? ", " : "") << R"({"joint": "j)" << i << R"(", "friction": ")"
          << friction[i % 2] << R"("})";
    out << "]}";
  }
  char error[1000] = "";
  const std::unique_ptr<flmj_friction, FrictionDeleter> fl(
      flmj_load(m.get(), description.c_str(), error, sizeof error));
  EXPECT_TRUE(fl) << error;
  if (!fl) return -1;
  flmj_install(fl.get());
  g_friction = mjcb_passive;
  mjcb_passive = trapped_passive;
  g_seen = 0;
  MjDataPtr d(mj_makeData(m.get()));
  for (int k = 0; k < 2000; ++k) {
    for (int i = 0; i < 7; ++i)
      d->qfrc_applied[i] = 0.4 * std::sin(2 * M_PI * (0.3 + 0.17 * i) * d->time + i);
    mj_step(m.get(), d.get());
  }
  flmj_install(nullptr);
  return g_seen;
}

TEST(MujocoAllocation, TheTrapCatchesAnAllocationInTheCallback) {
  // a callback that allocates is seen: the trap works where the friction's runs
  g_friction = [](const mjModel*, mjData*) { delete new int(1); };
  mjcb_passive = trapped_passive;
  g_seen = 0;
  const MjModelPtr m = test::load_mjcf(test::chain_mjcf(7), "trap");
  ASSERT_TRUE(m);
  MjDataPtr d(mj_makeData(m.get()));
  for (int k = 0; k < 10; ++k) mj_step(m.get(), d.get());
  mjcb_passive = nullptr;
  EXPECT_GE(g_seen, 10);
}

TEST(MujocoAllocation, TheFrictionCallbackNeverAllocates) {
  const std::string lugre = kExamples + "/mujoco/shoulder_lugre.json";
  const std::string coulomb_viscous = kExamples + "/data/coulomb_viscous.json";
  EXPECT_EQ(allocations_in_callback("alloc_lugre", {lugre, lugre}), 0);
  EXPECT_EQ(allocations_in_callback("alloc_static", {coulomb_viscous, coulomb_viscous}), 0);
  EXPECT_EQ(allocations_in_callback("alloc_mixed", {lugre, coulomb_viscous}), 0);
}

}  // namespace
}  // namespace frictionlab
