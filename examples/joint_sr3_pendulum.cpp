// Identify the DFKI pendulum (a real joint with gravity; ../shared/data/pendulum_dfki) with the
// paper's SINDy-SR3 + iterative LuGre algorithm (identify/joint_sr3.hpp): train on the system-
// identification run, select the model structure (AIC) and validate on the gravity-compensation
// run, and compare the inverse-dynamics torque error with the owners' published least-squares
// model tau = J qdd + m cx g sin(q) + Fv qd + Fc atan(100 qd) + offset.
//
// Preprocessing (docs/preprocessing.md), as the owners did for their fit: each record is
// resampled to a uniform grid at its own rate (300 Hz, 1 kHz) and every channel low-passed by a
// zero-phase 4th-order Butterworth filter at 5 Hz; qd is the filtered driver velocity and qdd
// its Savitzky-Golay derivative (cubic, 51 ms window); q = 0 hangs down. The torque is filtered
// too: the raw 300 Hz record differentiated without it gives ~70 rad/s^2 of acceleration noise.
//
// Usage: joint_sr3_pendulum [SYSID.csv GRAVCOMP.csv]; without arguments the shared data, and
// nothing to do (exit 0) if it is not there.
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/identify/joint_sr3.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/signal/savgol.hpp"

namespace {

using namespace frictionlab;

identify::JointData load(const std::string& path, double rate, int window) {
  data::Record r = io::read_record(
      path, {.time = "time", .position = "position", .velocity = "velocity", .force = "torque"});
  data::check_record(r, {.need_velocity = true, .need_position = true, .need_force = true});
  r = data::preprocess(r, {.resample_rate = rate, .lowpass_cutoff = 5, .lowpass_order = 4});
  identify::JointData d;
  d.source = std::filesystem::path(path).filename().string();
  d.t = r.t;
  d.q = r.position;
  d.tau = r.force;
  const double h = (r.t.back() - r.t.front()) / static_cast<double>(r.t.size() - 1);
  d.qd = r.velocity;
  d.qdd = signal::savgol_filter(r.velocity, window, 3, 1, h);
  return d;
}

double rel_error(const std::vector<double>& pred, const identify::JointData& d) {
  double e2 = 0, t2 = 0;
  for (std::size_t k = 0; k < d.size(); ++k) {
    e2 += (d.tau[k] - pred[k]) * (d.tau[k] - pred[k]);
    t2 += d.tau[k] * d.tau[k];
  }
  return std::sqrt(e2 / t2);
}

/// The owners' model (published_system_identification.txt).
std::vector<double> published(const identify::JointData& d) {
  const double J = 6.259e-2, mcx = 1.022e-1, Fv = 4.707e-2, Fc = 1.839e-1, off = -7.586e-2;
  std::vector<double> out(d.size());
  for (std::size_t k = 0; k < d.size(); ++k)
    out[k] = J * d.qdd[k] + mcx * 9.81 * std::sin(d.q[k]) + Fv * d.qd[k] +
             Fc * std::atan(100 * d.qd[k]) + off;
  return out;
}

void print_model(const char* name, const identify::JointSr3Result& r,
                 const identify::JointData& train, const identify::JointData& val) {
  const auto& p = std::get<JointLuGre<double>::Params>(r.model.friction);
  std::printf("%s (%.2f s): lambda %.3g, %zu active terms:", name, r.seconds, r.lambda,
              r.active.size());
  for (const auto& a : r.active) std::printf(" %s", a.c_str());
  std::printf("\n  I %.5f kg m^2, mgCx %.4f, mgCy %.4f (m g c = %.4f), offset %.4f N m\n",
              r.model.I, r.model.mgCx, r.model.mgCy, -r.model.mgCy, r.model.offset);
  std::printf("  sigma0 %.4g N m/rad, sigma1 %.4g N m s/rad, Fc %.4f N m, Omega_s %.4g rad/s\n",
              p.sigma0, p.sigma1, p.Fc, p.Omega_s);
  for (int i = 0; i < p.n_viscous; ++i)
    std::printf("  cv[%d] %.4g", i + 1, p.cv[static_cast<std::size_t>(i)]);
  for (int i = 0; i < p.n_stribeck; ++i)
    std::printf("  Fs %.4f (delta %.3g)", p.Fs[static_cast<std::size_t>(i)],
                p.delta[static_cast<std::size_t>(i)]);
  std::printf("\n  torque error / ||tau||: training %.4f (static %.4f), validation %.4f\n",
              rel_error(identify::inverse_torque(r.model, train), train), r.static_rel_error,
              rel_error(identify::inverse_torque(r.model, val), val));
  for (const auto& w : r.warnings) std::printf("  warning: %s\n", w.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/pendulum_dfki/";
  const std::string sysid = argc > 2 ? argv[1] : dir + "sysid_data_measured.csv";
  const std::string grav = argc > 2 ? argv[2] : dir + "gravcomp_data_measured.csv";
  if (argc <= 2 && !std::filesystem::exists(sysid)) {
    std::printf("no record at %s: nothing to do\n", sysid.c_str());
    return 0;
  }
  try {
    const identify::JointData train = load(sysid, 300, 15);  // 50 ms windows
    const identify::JointData val = load(grav, 1000, 51);
    std::printf("training %s: %zu samples; validation %s: %zu samples\n", train.source.c_str(),
                train.size(), val.source.c_str(), val.size());
    std::printf("published model: torque error / ||tau|| training %.4f, validation %.4f\n",
                rel_error(published(train), train), rel_error(published(val), val));
    identify::JointSr3Options opt;  // model A, gravity and offset, the documented defaults
    print_model("sr3 model A",
                identify::fit_joint_sr3(std::span(&train, 1), std::span(&val, 1), opt), train, val);
    opt.K = 100;  // model B: tanh(100 qd), the published model's atan(100 qd) scale
    print_model("sr3 model B",
                identify::fit_joint_sr3(std::span(&train, 1), std::span(&val, 1), opt), train, val);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
