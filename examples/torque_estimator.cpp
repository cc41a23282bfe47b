// The torque estimator as a control loop calls it (docs/estimator.md): the parameter file is read
// and checked on the host, then one allocation-free step per cycle with the actual elapsed time.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/io/estimator_export.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace frictionlab;
  const std::string file =
      argc > 1 ? argv[1]
               : std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/joint_estimator.json";
  // Host side: may throw (io::InputError, std::invalid_argument) with a clear message.
  const auto params = io::read_estimator_params(file);
  auto est = estimator::make_estimator<float>(params);

  // Target side: noexcept, no allocation, any period.
  est.reset(0.0f, 0.0f);
  float t = 0.0f;
  for (int k = 1; k <= 3000; ++k) {
    const float dt = k % 7 == 0 ? 1.3e-3f : 1e-3f;  // a late cycle now and then
    t += dt;
    const float v = 0.3f * std::sin(2.0f * 3.14159265f * t);  // measured velocity [rad/s]
    const float i = 0.4f;                                     // measured current [A]
    const auto o = est.step(i, v, dt);
    if (!o.ok) return 1;
    if (k % 500 == 0)
      std::printf("t = %.3f s  v = %+.3f rad/s  friction = %+.4f Nm  torque = %+.4f Nm\n",
                  static_cast<double>(t), static_cast<double>(v), static_cast<double>(o.friction),
                  static_cast<double>(o.torque));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "torque_estimator: %s\n", e.what());
    return 1;
  }
}
