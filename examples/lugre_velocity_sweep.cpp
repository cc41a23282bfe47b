// Example: drive a LuGre model with a sampled velocity record and print the hysteresis summary.
// Built and run by the test suite (examples/CMakeLists.txt); copy it as a starting point.
#include <cmath>
#include <cstdio>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre.hpp"

int main() {
  using Model = frictionlab::LuGre<double>;
  Model::Params p;  // defaults: sigma0 = 1e5 N/m, sigma1 = 316 N s/m, sigma2 = 0.4 N s/m
  p.curve = frictionlab::StribeckCurve<double>::symmetric(/*Fc=*/1.0, /*Fs=*/1.5, /*vs=*/0.001,
                                                          /*alpha=*/2.0);

  // A 1 Hz sinusoidal velocity of 5 mm/s amplitude, sampled at 100 Hz (a 10 ms step: forward
  // Euler would diverge here; the exact step does not care).
  const double pi = 3.14159265358979323846;
  std::vector<double> t, v;
  for (int k = 0; k <= 200; ++k) {
    t.push_back(0.01 * k);
    v.push_back(0.005 * std::sin(2 * pi * t.back()));
  }
  double fmin = 0, fmax = 0, zmax = 0;
  frictionlab::drive<Model>(p, Model::State{}, t.data(), v.data(), static_cast<long>(t.size()),
                            frictionlab::Method::exact, frictionlab::Hold::linear, 0.0,
                            [&](long /*k*/, double F, const Model::State& x) {
                              fmin = std::fmin(fmin, F);
                              fmax = std::fmax(fmax, F);
                              zmax = std::fmax(zmax, std::fabs(x.z));
                            });
  std::printf("friction force range [%.4f, %.4f] N, max |z| = %.3e m (bound %.3e m)\n", fmin, fmax,
              zmax, Model::state_bound(p));
  // Exit status doubles as a check of the invariant state bound.
  return zmax <= Model::state_bound(p) ? 0 : 1;
}
