// frictionlab mujoco: the C API (include/frictionlab/mujoco/friction.h).
#include "frictionlab/mujoco/friction.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include "context.hpp"

namespace {

/// The context mjcb_passive serves (flmj_install).
flmj_friction* installed = nullptr;

void copy_message(const std::string& message, char* error, int error_size) {
  if (error == nullptr || error_size <= 0) return;
  const std::size_t n = std::min(message.size(), static_cast<std::size_t>(error_size - 1));
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

/// The index of `joint` among fl's servo joints, -1 if it is none of them.
long index_of(const flmj_friction* fl, const char* joint) {
  if (fl == nullptr || joint == nullptr) return -1;
  for (std::size_t i = 0; i < fl->servos.size(); ++i)
    if (fl->servos[i].name == joint) return static_cast<long>(i);
  return -1;
}

/// The friction joint `joint` of fl, or null.
template <class Context>
auto* friction_joint(Context* fl, const char* joint) {
  decltype(&fl->frictions.front()) found = nullptr;
  if (fl == nullptr || joint == nullptr) return found;
  for (auto& j : fl->frictions)
    if (j.name == joint) found = &j;
  return found;
}

}  // namespace

extern "C" {

flmj_friction* flmj_load(const mjModel* m, const char* path, char* error, int error_size) {
  copy_message("", error, error_size);
  if (m == nullptr || path == nullptr) {
    copy_message("flmj_load: no model or no path", error, error_size);
    return nullptr;
  }
  try {
    auto fl = std::make_unique<flmj_friction>();
    frictionlab::mujoco::bind(*fl, *m, frictionlab::io::read_mujoco_friction(path));
    return fl.release();
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
  }
  return nullptr;
}

void flmj_free(flmj_friction* fl) {
  if (fl != nullptr && fl == installed) flmj_install(nullptr);
  delete fl;
}

void flmj_install(flmj_friction* fl) {
  installed = fl;
  mjcb_passive = fl != nullptr ? flmj_passive : nullptr;
}

void flmj_passive(const mjModel* m, mjData* d) { flmj_apply(installed, m, d); }

void flmj_apply(flmj_friction* fl, const mjModel* m, mjData* d) {
  if (fl == nullptr || m == nullptr || d == nullptr) return;
  if (m->nv != fl->nv || m->njnt != fl->njnt) {
    mju_warning("frictionlab: flmj_apply with a model other than the one flmj_load read");
    return;
  }
  frictionlab::mujoco::apply(*fl, *m, *d);
}

int flmj_set_torque_enable(flmj_friction* fl, const char* joint, int enable) {
  const long i = index_of(fl, joint);
  if (i < 0) return -1;
  fl->servos[static_cast<std::size_t>(i)].enabled = enable != 0;
  return 0;
}

int flmj_set_temperature(flmj_friction* fl, const char* joint, double celsius) {
  if (!std::isfinite(celsius)) return -1;
  try {  // throws for a joint without a law or a temperature where its scale is not positive
    if (auto* j = friction_joint(fl, joint)) {
      frictionlab::mujoco::set_temperature(*j, celsius);
      return 0;
    }
    const long i = index_of(fl, joint);
    if (i < 0) return -1;
    frictionlab::mujoco::set_temperature(fl->servos[static_cast<std::size_t>(i)], celsius);
    return 0;
  } catch (const std::exception&) {
    return -1;
  }
}

double flmj_get_temperature(const flmj_friction* fl, const char* joint) {
  if (const auto* j = friction_joint(fl, joint)) return j->temperature;
  const long i = index_of(fl, joint);
  return i >= 0 ? fl->servos[static_cast<std::size_t>(i)].temperature
                : std::numeric_limits<double>::quiet_NaN();
}

int flmj_get_torques(const flmj_friction* fl, const char* joint, flmj_torques* out) {
  if (out == nullptr) return -1;
  if (const auto* j = friction_joint(fl, joint)) {
    *out = j->last;
    return 0;
  }
  const long i = index_of(fl, joint);
  if (i < 0) return -1;
  *out = fl->servos[static_cast<std::size_t>(i)].last;
  return 0;
}

int flmj_get_stats(const flmj_friction* fl, flmj_stats* out) {
  if (fl == nullptr || out == nullptr) return -1;
  *out = fl->stats;
  return 0;
}

void flmj_reset(flmj_friction* fl) {
  if (fl == nullptr) return;
  fl->data = nullptr;
  fl->time = std::numeric_limits<double>::quiet_NaN();
  for (auto& j : fl->servos) {
    j.firmware = {};
    j.last = {};
  }
  for (auto& j : fl->frictions) {
    j.z = j.z_next = 0.0;
    j.last = {};
  }
  fl->scratch.qp.reset();
}

}  // extern "C"
