#include <gtest/gtest.h>
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre.hpp"
#include <ceres/jet.h>
TEST(Smoke, LuGre) {
  using M = frictionlab::LuGre<double>;
  M::Params p;
  M::State x;
  x = M::step(p, x, 0.002, 1e-2);
  EXPECT_NEAR(x.z, M::state_bound(p) , 1e-3);
  using J = ceres::Jet<double, 2>;
  frictionlab::LuGre<J>::Params pj;
  auto y = frictionlab::LuGre<J>::step(pj, {}, J(0.002, 0), J(1e-2));
  (void)frictionlab::advance<frictionlab::LuGre<float>>(frictionlab::LuGre<float>::Params{}, {}, 0.1f, 0.1f, 0.01f, frictionlab::Method::rk4, frictionlab::Hold::linear);
  EXPECT_GT(y.z.v[0], -1);
}
