// Built against an installed frictionlab with frictionlab::models only: the LuGre exact step in
// float and double, checked against the model's closed forms (docs/models.md): at constant
// velocity v the bristle state tends to z_ss = sgn(v) g(v) / sigma0 and the force to the Stribeck
// curve sgn(v) g(v) + sigma2 v, g(v) = Fc + (Fs - Fc) exp(-|v/vs|^alpha); |z| <= Fs/sigma0.
#include <cmath>
#include <cstdio>

#include "frictionlab/models/lugre.hpp"

template <class S>
int check(const char* name, double tol) {
  using M = frictionlab::LuGre<S>;
  typename M::Params p{};
  p.sigma0 = S(1e5);
  p.sigma1 = S(300);
  p.sigma2 = S(0.4);
  p.curve = frictionlab::StribeckCurve<S>::symmetric(S(1.0), S(1.5), S(0.01), S(2));
  typename M::State x{};
  const S v = S(0.02);
  for (int k = 0; k < 100; ++k) x = M::step(p, x, v, S(0.01));  // 1 s at a 10 ms step
  const double g = 1.0 + 0.5 * std::exp(-std::pow(0.02 / 0.01, 2.0));
  const double f_expected = g + 0.4 * 0.02;
  const double f = static_cast<double>(M::force(p, x, v));
  const double bound = static_cast<double>(M::state_bound(p));
  std::printf("%s: F = %.9g, expected %.9g, |z| = %.3g <= %.3g\n", name, f, f_expected,
              std::abs(static_cast<double>(x.z)), bound);
  if (!(std::abs(f - f_expected) <= tol * f_expected)) return 1;
  if (!(std::abs(static_cast<double>(x.z)) <= bound * (1 + tol))) return 1;
  return 0;
}

int main() {
  const int failures = check<double>("double", 1e-12) + check<float>("float", 1e-5);
  std::printf(failures == 0 ? "models_consumer: ok\n" : "models_consumer: FAILED\n");
  return failures;
}
