// workflows::simulate_model / simulate_system against closed forms, the lower-level library calls
// (drive(), sim::simulate_stick_slip) on the same data, and the models' invariant bounds; errors,
// progress reports and cancellation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/workflows/simulate.hpp"

namespace frictionlab {
namespace {

constexpr double kPi = 3.14159265358979323846;

workflows::ModelInput sine_velocity(double h, double duration) {
  workflows::ModelInput in;
  for (long k = 0; static_cast<double>(k) * h <= duration + 1e-12; ++k) {
    const double t = static_cast<double>(k) * h;
    in.t.push_back(t);
    in.v.push_back(0.01 * std::sin(2 * kPi * t) + 0.004 * std::sin(2 * kPi * 2.7 * t));
    in.lines.push_back(k + 2);  // as if read from a CSV with a header line
  }
  in.source = "in.csv";
  return in;
}

using frictionlab::testing::message_of;

/// The message of the std::runtime_error that simulating `p` on 2 s of the sine (10 ms samples)
/// with `method` throws (a test failure when it throws none).
std::string simulation_error(const LuGre<double>::Params& p, Method method) {
  const auto in = sine_velocity(0.01, 2.0);
  workflows::SimulateModelOptions o;
  o.method = method;
  return message_of<std::runtime_error>([&] { (void)workflows::simulate_model(p, in, o); });
}

TEST(WorkflowSimulate, CoulombViscousIsItsClosedForm) {
  StaticSpec s;
  s.kind = StaticKind::coulomb_viscous;
  s.params.curve = StribeckCurve<double>::symmetric(0.8, 0.8, 0.01, 1.0);
  s.params.sigma2 = 2.0;
  const auto in = sine_velocity(0.01, 1.0);
  const auto r = workflows::simulate_model(s, in, {});
  ASSERT_EQ(r.F.size(), in.t.size());
  EXPECT_TRUE(r.state_names.empty());
  EXPECT_EQ(r.model, "coulomb-viscous");
  for (std::size_t k = 0; k < in.t.size(); ++k) {
    const double v = in.v[k];
    const double sgn = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
    EXPECT_NEAR(r.F[k], 0.8 * sgn + 2.0 * v, 1e-12) << "k = " << k;
  }
}

TEST(WorkflowSimulate, LuGreMatchesDriveForEveryMethodAndHold) {
  const LuGre<double>::Params p;
  const auto in = sine_velocity(1e-3, 1.0);
  for (Method m : {Method::exact, Method::implicit_euler, Method::rk4}) {
    for (Hold h : {Hold::linear, Hold::zoh}) {
      workflows::SimulateModelOptions o;
      o.method = m;
      o.hold = h;
      o.max_substep = 2e-4;
      const auto r = workflows::simulate_model(p, in, o);
      std::vector<double> F, z;
      drive<LuGre<double>>(p, {}, in.t.data(), in.v.data(), static_cast<long>(in.t.size()), m, h,
                           2e-4, [&](long, double f, const LuGre<double>::State& x) {
                             F.push_back(f);
                             z.push_back(x.z);
                           });
      ASSERT_EQ(r.state_names, std::vector<std::string>{"z"});
      EXPECT_EQ(r.F, F);
      EXPECT_EQ(r.states[0], z);
      EXPECT_EQ(r.hold, h);
      EXPECT_LT(r.bound_exceeded, 0);
      EXPECT_TRUE(r.warnings.empty());
      EXPECT_DOUBLE_EQ(r.state_bound, 1.5 / 1e5);  // max(Fc, Fs) / sigma0
    }
  }
}

TEST(WorkflowSimulate, DisplacementInputDrivesWithItsInterpolantsVelocity) {
  // x = 0.02 t: the interpolant's velocity is 0.02 m/s everywhere, held (zoh).
  workflows::ModelInput in;
  for (int k = 0; k <= 50; ++k) {
    in.t.push_back(0.01 * k);
    in.x.push_back(0.02 * 0.01 * k);
  }
  const LuGre<double>::Params p;
  const auto r = workflows::simulate_model(p, in, {});
  EXPECT_EQ(r.hold, Hold::zoh);
  EXPECT_EQ(r.x, in.x);
  for (double v : r.v) EXPECT_NEAR(v, 0.02, 1e-15);
  // Sliding at constant velocity: F tends to the steady force g(v) + sigma2 v.
  EXPECT_NEAR(r.F.back(), LuGre<double>::steady_force(p, 0.02), 1e-6);

  workflows::SimulateModelOptions linear;
  linear.hold = Hold::linear;
  EXPECT_NE(message_of<std::invalid_argument>([&] {
              (void)workflows::simulate_model(p, in, linear);
            }).find("--hold linear does not apply to a displacement input"),
            std::string::npos);
}

TEST(WorkflowSimulate, ForwardEulerLeavingTheBoundIsAWarningAtItsLine) {
  const LuGre<double>::Params p;  // forward Euler at 10 ms is unstable (|1 - a h| > 1)
  // 0.15 s: the state leaves its bound, the force stays below data::kMaxMagnitude (over 2 s it
  // passes it: ForceBeyondTheLimitIsAnError).
  const auto in = sine_velocity(0.01, 0.15);
  workflows::SimulateModelOptions o;
  o.method = Method::forward_euler;
  const auto r = workflows::simulate_model(p, in, o);
  ASSERT_GE(r.bound_exceeded, 0);
  const auto k = static_cast<std::size_t>(r.bound_exceeded);
  for (std::size_t i = 0; i < k; ++i)
    EXPECT_LE(std::abs(r.states[0][i]), r.state_bound * (1 + 1e-9));
  EXPECT_GT(std::abs(r.states[0][k]), r.state_bound);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("(in.csv line " + std::to_string(in.lines[k]) + ")"),
            std::string::npos)
      << r.warnings[0];
}

TEST(WorkflowSimulate, ForceBeyondTheLimitIsAnError) {
  const auto m = simulation_error(LuGre<double>::Params{}, Method::forward_euler);
  EXPECT_NE(m.find("the friction force reaches "), std::string::npos) << m;
  EXPECT_NE(m.find("beyond the limit |F| <= 1e+15"), std::string::npos) << m;
}

TEST(WorkflowSimulate, InputBeyondTheLimitIsAnErrorAtItsLine) {
  const LuGre<double>::Params p;
  auto in = sine_velocity(0.01, 0.1);
  in.v[3] = 1e300;
  const auto m = message_of<std::invalid_argument>(
      [&] { (void)workflows::simulate_model(p, in, workflows::SimulateModelOptions{}); });
  EXPECT_EQ(m,
            "in.csv line 5: v = 1e+300 is beyond the limit |v| <= 1e+15 (SI units; not a "
            "physical input)");
}

TEST(WorkflowSimulate, NotANumberInputIsNamedAsSuch) {
  const LuGre<double>::Params p;
  auto in = sine_velocity(0.01, 0.1);
  in.t[2] = std::nan("");
  const auto m = message_of<std::invalid_argument>(
      [&] { (void)workflows::simulate_model(p, in, workflows::SimulateModelOptions{}); });
  EXPECT_EQ(m, "in.csv line 4: t = nan is not a number");
}

TEST(WorkflowSimulate, ViewWithoutCopiesGivesTheSameResult) {
  // A ModelInputView over the caller's arrays with copy_input = false: the same F and z, and the
  // outcome holds no copy of t and v (a displacement input's derived v is still returned).
  const LuGre<double>::Params p;
  const auto in = sine_velocity(1e-3, 0.5);
  const auto full = workflows::simulate_model(p, in, workflows::SimulateModelOptions{});
  workflows::SimulateModelOptions o;
  o.copy_input = false;
  workflows::ModelInputView view;
  view.t = in.t;
  view.v = in.v;
  const auto r = workflows::simulate_model(p, view, o);
  EXPECT_EQ(full.t, in.t);
  EXPECT_EQ(full.v, in.v);
  EXPECT_TRUE(r.t.empty());
  EXPECT_TRUE(r.v.empty());
  EXPECT_EQ(r.F, full.F);
  EXPECT_EQ(r.states, full.states);
  workflows::ModelInput disp;
  disp.t = in.t;
  for (double t : in.t) disp.x.push_back(1e-3 * std::sin(t));
  const auto dfull = workflows::simulate_model(p, disp, workflows::SimulateModelOptions{});
  const auto dview = workflows::simulate_model(p, disp, o);
  EXPECT_TRUE(dview.t.empty());
  EXPECT_TRUE(dview.x.empty());
  EXPECT_EQ(dview.v, dfull.v);
  EXPECT_EQ(dview.F, dfull.F);
}

TEST(WorkflowSimulate, SubstepCountIsCheckedBeforeSimulating) {
  // Three samples, a 1e6 s gap: ceil(1 / 1e-9) + ceil(999999 / 1e-9) = 1e15 substeps.
  workflows::ModelInput in;
  in.t = {0, 1, 1e6};
  in.v = {0, 1, 1};
  EXPECT_DOUBLE_EQ(workflows::substep_count(in.t, 1e-9), 1e15);
  EXPECT_DOUBLE_EQ(workflows::substep_count(in.t, 0), 2);
  EXPECT_DOUBLE_EQ(workflows::substep_count(in.t, 10), 1 + 1e5);
  const LuGre<double>::Params p;
  workflows::SimulateModelOptions o;
  o.max_substep = 1e-9;
  const auto m =
      message_of<std::invalid_argument>([&] { (void)workflows::simulate_model(p, in, o); });
  EXPECT_EQ(m,
            "max_substep 1e-09 s splits the input (1e+06 s) into 1e+15 substeps, more than the "
            "limit 1e+08; use a larger max_substep (at least 0.01 s)");
  // The suggested step fits: at most kMaxSubsteps.
  EXPECT_LE(workflows::substep_count(in.t, 1e6 / (workflows::kMaxSubsteps - 3)),
            workflows::kMaxSubsteps);
}

TEST(WorkflowSimulate, NonFiniteResultIsAnError) {
  LuGre<double>::Params p;
  p.sigma0 = 1e8;  // forward Euler at 10 ms overflows
  const auto m = simulation_error(p, Method::forward_euler);
  EXPECT_NE(m.find("--integrator euler diverged: the result is not finite from t = "),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("in.csv line "), std::string::npos) << m;
}

TEST(WorkflowSimulate, ExactDivergenceDoesNotRecommendExact) {
  LuGre<double>::Params p;
  p.sigma0 = 5e-324;  // a denormal (the file readers refuse it): Fs / sigma0 overflows
  const auto m = simulation_error(p, Method::exact);
  EXPECT_NE(m.find("--integrator exact diverged"), std::string::npos) << m;
  EXPECT_EQ(m.find("use --integrator exact"), std::string::npos) << m;
  EXPECT_NE(m.find("the model's parameters or the input's magnitudes"), std::string::npos) << m;
}

TEST(WorkflowSimulate, InputErrors) {
  const LuGre<double>::Params p;
  workflows::ModelInput both = sine_velocity(0.01, 0.1);
  both.x = both.v;
  EXPECT_THROW((void)workflows::simulate_model(p, both, {}), std::invalid_argument);
  workflows::ModelInput none = sine_velocity(0.01, 0.1);
  none.v.clear();
  EXPECT_THROW((void)workflows::simulate_model(p, none, {}), std::invalid_argument);
  workflows::ModelInput one = sine_velocity(0.01, 0.0);
  EXPECT_THROW((void)workflows::simulate_model(p, one, {}), std::invalid_argument);
  workflows::ModelInput short_v = sine_velocity(0.01, 0.1);
  short_v.v.pop_back();
  EXPECT_THROW((void)workflows::simulate_model(p, short_v, {}), std::invalid_argument);
  // maxwell-slip has only the exact step.
  workflows::SimulateModelOptions rk4;
  rk4.method = Method::rk4;
  EXPECT_THROW(
      (void)workflows::simulate_model(MaxwellSlip<double>::Params{}, sine_velocity(0.01, 0.1), rk4),
      std::invalid_argument);
}

TEST(WorkflowSimulate, SystemIsTheLibrarysSimulation) {
  workflows::SystemInput s;  // stick-slip benchmark, default LuGre
  s.friction = LuGre<double>::Params{};
  sim::SimOptions o;
  o.h = 0.01;
  o.output_dt = 0.05;
  const auto r = workflows::simulate_system(s, o);
  const auto direct = sim::simulate_stick_slip(s.stick_slip, s.friction, o);
  EXPECT_EQ(r.trajectory.t, direct.t);
  EXPECT_EQ(r.trajectory.x, direct.x);
  EXPECT_EQ(r.trajectory.F, direct.F);
  EXPECT_EQ(r.trajectory.steps, direct.steps);
  EXPECT_NEAR(r.trajectory.t.back(), s.stick_slip.t_end, 1e-12);

  workflows::SystemInput j;
  j.kind = sim::SystemKind::joint;
  j.friction = LuGre<double>::Params{};
  o.integrator = sim::SystemIntegrator::rosenbrock;
  const auto rj = workflows::simulate_system(j, o);
  EXPECT_EQ(rj.trajectory.x, sim::simulate_joint(j.joint, j.friction, o).x);

  sim::SimOptions bad = o;
  bad.h = -1;
  EXPECT_THROW((void)workflows::simulate_system(s, bad), std::invalid_argument);
}

TEST(WorkflowSimulate, IntegratorNamesRoundTrip) {
  for (auto i : {sim::SystemIntegrator::trbdf2, sim::SystemIntegrator::rosenbrock,
                 sim::SystemIntegrator::cvode})
    EXPECT_EQ(sim::parse_integrator(sim::integrator_name(i)), i);
  EXPECT_FALSE(sim::parse_integrator("exact"));
}

TEST(WorkflowSimulate, ReportsAndCancels) {
  int reports = 0;
  workflows::Progress progress;
  progress.report = [&](const workflows::ProgressEvent&) { ++reports; };
  (void)workflows::simulate_model(LuGre<double>::Params{}, sine_velocity(0.01, 0.1), {}, progress);
  EXPECT_GT(reports, 0);

  workflows::Progress cancel;
  cancel.cancel = [] { return true; };
  EXPECT_THROW((void)workflows::simulate_model(LuGre<double>::Params{}, sine_velocity(0.01, 0.1),
                                               {}, cancel),
               workflows::Cancelled);
  workflows::SystemInput s;
  s.friction = LuGre<double>::Params{};
  EXPECT_THROW((void)workflows::simulate_system(s, {}, cancel), workflows::Cancelled);
}

TEST(WorkflowSimulate, LongRunsReportAndStopPartWay) {
  // simulate_model: a report at samples 0, 65536, 131072, 196608 of a 2e5-sample record, the
  // fraction k / n; a cancel after the second report stops the run with Cancelled.
  const auto in = sine_velocity(1e-4, 20.0 - 1e-4);  // 200000 samples
  ASSERT_EQ(in.t.size(), 200000u);
  std::vector<double> fractions;
  workflows::Progress progress;
  progress.report = [&](const workflows::ProgressEvent& e) {
    if (e.message.find(": sample ") != std::string_view::npos) fractions.push_back(e.fraction);
  };
  (void)workflows::simulate_model(LuGre<double>::Params{}, in, {}, progress);
  EXPECT_EQ(fractions, (std::vector<double>{0.0, 65536 / 2e5, 131072 / 2e5, 196608 / 2e5}));
  int polls = 0;
  workflows::Progress stop;
  stop.cancel = [&] { return ++polls > 2; };  // the entry check, sample 0, then sample 65536
  EXPECT_THROW((void)workflows::simulate_model(LuGre<double>::Params{}, in, {}, stop),
               workflows::Cancelled);
  EXPECT_EQ(polls, 3);

  // With substeps a sample counts its substeps: 1 ms samples split into 1000 substeps of 1 us
  // are reported (and polled) every 66 samples, 66000 substeps (not once per 65536 samples).
  const auto few = sine_velocity(1e-3, 0.5);  // 501 samples
  std::vector<double> at;
  workflows::Progress substeps;
  substeps.report = [&](const workflows::ProgressEvent& e) {
    if (e.message.find(": sample ") != std::string_view::npos)
      at.push_back(e.fraction * static_cast<double>(few.t.size()));
  };
  workflows::SimulateModelOptions fine;
  fine.max_substep = 1e-6 * (1 + 1e-9);
  (void)workflows::simulate_model(LuGre<double>::Params{}, few, fine, substeps);
  ASSERT_EQ(at.size(), 8u);
  for (std::size_t i = 0; i < at.size(); ++i)
    EXPECT_NEAR(at[i], 66.0 * static_cast<double>(i), 1e-9) << i;

  // simulate_system, every integrator: reports every 1 % of t_end up to 1; a cancel part-way
  // (here at t >= 5 s of 20 s) stops it with Cancelled, not wrapped in a solver error.
  for (auto integrator : {sim::SystemIntegrator::trbdf2, sim::SystemIntegrator::rosenbrock,
                          sim::SystemIntegrator::cvode}) {
    workflows::SystemInput s;
    s.friction = LuGre<double>::Params{};
    sim::SimOptions o;
    o.integrator = integrator;
    o.output_dt = 0.01;
    std::vector<double> f;
    workflows::Progress p;
    p.report = [&](const workflows::ProgressEvent& e) {
      if (e.message.find("t = ") != std::string_view::npos) f.push_back(e.fraction);
    };
    (void)workflows::simulate_system(s, o, p);
    ASSERT_GE(f.size(), 100u) << sim::integrator_name(integrator);
    EXPECT_LE(f.size(), 102u);
    EXPECT_TRUE(std::is_sorted(f.begin(), f.end()));
    EXPECT_DOUBLE_EQ(f.back(), 1.0);
    double reached = 0;
    workflows::Progress c;
    c.report = [&](const workflows::ProgressEvent& e) {
      if (e.message.find("t = ") != std::string_view::npos) reached = e.fraction;
    };
    c.cancel = [&] { return reached >= 0.25; };
    EXPECT_THROW((void)workflows::simulate_system(s, o, c), workflows::Cancelled)
        << sim::integrator_name(integrator);
    EXPECT_GE(reached, 0.25);
    EXPECT_LT(reached, 0.3);
  }
}

}  // namespace
}  // namespace frictionlab
