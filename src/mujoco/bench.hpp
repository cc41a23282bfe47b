// frictionlab mujoco (private): what the replays (replay.cpp, replay_joint.cpp) share: MuJoCo's
// model and data owned, an MJCF text loaded without a file, an element cut from an exported
// fragment, and frictionlab's friction installed as MuJoCo's passive callback for a scope.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>

#include "context.hpp"

namespace frictionlab::mujoco {

struct MjDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, MjDeleter>;
using DataPtr = std::unique_ptr<mjData, MjDeleter>;

/// MuJoCo's model of the MJCF text `xml` (through a virtual file: no file is written). Throws
/// std::runtime_error with MuJoCo's message, naming `what`.
ModelPtr load_text(const std::string& xml, const std::string& what);

/// The element of an exported fragment from `open` to `close` (inclusive), after its leading
/// comment (which names the elements too); empty if absent.
std::string fragment_element(const std::string& fragment, const std::string& open,
                             const std::string& close);

/// MuJoCo's version, e.g. "2.2.2".
std::string mujoco_version();

/// frictionlab's friction `fl` as MuJoCo's mjcb_passive while the scope lives; the process's
/// callback is put back after (not for several threads at once).
class PassiveScope {
 public:
  explicit PassiveScope(flmj_friction& fl);
  ~PassiveScope();
  PassiveScope(const PassiveScope&) = delete;
  PassiveScope& operator=(const PassiveScope&) = delete;

 private:
  mjfGeneric before_;
};

}  // namespace frictionlab::mujoco
