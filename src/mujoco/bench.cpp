// frictionlab mujoco: what the replays share (bench.hpp).
#include "bench.hpp"

#include <array>
#include <cstring>
#include <stdexcept>

namespace frictionlab::mujoco {
namespace {

struct VfsDeleter {
  void operator()(mjVFS* v) const {
    mj_deleteVFS(v);
    delete v;
  }
};

/// The context of the PassiveScope under way.
flmj_friction* replaying = nullptr;
void replay_passive(const mjModel* m, mjData* d) { apply(*replaying, *m, *d); }

}  // namespace

ModelPtr load_text(const std::string& xml, const std::string& what) {
  std::unique_ptr<mjVFS, VfsDeleter> vfs(new mjVFS);
  mj_defaultVFS(vfs.get());
  const char* name = "frictionlab_bench.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0)
    throw std::runtime_error(what + ": MuJoCo's virtual file system refused the model");
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  std::array<char, 1000> error{};
  ModelPtr m(mj_loadXML(name, vfs.get(), error.data(), static_cast<int>(error.size())));
  if (!m) throw std::runtime_error(what + ": MuJoCo did not load the bench: " + error.data());
  return m;
}

std::string fragment_element(const std::string& fragment, const std::string& open,
                             const std::string& close) {
  const auto body = fragment.find("-->");
  const auto a = fragment.find(open, body == std::string::npos ? 0 : body);
  const auto b = a == std::string::npos ? a : fragment.find(close, a);
  if (b == std::string::npos) return {};
  return fragment.substr(a, b + close.size() - a);
}

std::string mujoco_version() {
  const int v = mj_version();
  return std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10);
}

PassiveScope::PassiveScope(flmj_friction& fl) : before_(mjcb_passive) {
  replaying = &fl;
  mjcb_passive = replay_passive;
}

PassiveScope::~PassiveScope() {
  mjcb_passive = before_;
  replaying = nullptr;
}

}  // namespace frictionlab::mujoco
