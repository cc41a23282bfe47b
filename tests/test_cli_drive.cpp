// `frictionlab simulate --model` end to end: the CSV the binary writes equals drive() of
// integrate/stepper.hpp called here directly on the same input, with the parameters typed in by
// hand (not read through io/model_json), to 1e-12.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/maxwell_slip.hpp"

namespace frictionlab {
namespace {

const std::string kData = std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/";

std::filesystem::path work_dir() {
  const auto d = std::filesystem::path(FRICTIONLAB_BINARY_DIR) / "tests" / "cli_drive";
  std::filesystem::create_directories(d);
  return d;
}

// Run the CLI and read its output.
io::CsvTable run_cli(const std::string& args, const std::string& out_name) {
  const std::string out = (work_dir() / out_name).string();
  const std::string cmd =
      std::string("\"") + FRICTIONLAB_CLI + "\" simulate " + args + " --output \"" + out + "\"";
  const int rc = std::system((cmd + " > /dev/null 2>&1").c_str());
  EXPECT_EQ(rc, 0) << cmd;
  return io::read_csv(out);
}

// The classic LuGre parameter set of examples/data/lugre.json, typed in.
LuGre<double>::Params lugre_params() {
  return {
      .sigma0 = 1e5,
      .sigma1 = 316.227766,
      .sigma2 = 0.4,
      .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0, StribeckShape::exponential),
      .vd = 0};
}

struct Expected {
  std::vector<double> F;
  std::vector<std::vector<double>> z;
};

template <class M, class GetZ>
Expected expected(const typename M::Params& p, const std::vector<double>& t,
                  const std::vector<double>& v, Method m, Hold h, double dt, int nz, GetZ get_z) {
  Expected e;
  e.z.assign(static_cast<std::size_t>(nz), {});
  drive<M>(p, typename M::State{}, t.data(), v.data(), static_cast<long>(t.size()), m, h, dt,
           [&](long, double F, const typename M::State& x) {
             e.F.push_back(F);
             for (int i = 0; i < nz; ++i) e.z[static_cast<std::size_t>(i)].push_back(get_z(x, i));
           });
  return e;
}

void compare(const io::CsvTable& out, const std::vector<double>& t, const std::vector<double>& v,
             const Expected& e, const std::vector<std::string>& znames) {
  ASSERT_EQ(out.rows(), t.size());
  const auto& F = out.column("F");
  for (std::size_t k = 0; k < t.size(); ++k) {
    ASSERT_EQ(out.column("t")[k], t[k]);
    ASSERT_NEAR(out.column("v")[k], v[k], 1e-12) << "k = " << k;
    ASSERT_NEAR(F[k], e.F[k], 1e-12) << "k = " << k;
    for (std::size_t i = 0; i < znames.size(); ++i)
      ASSERT_NEAR(out.column(znames[i])[k], e.z[i][k], 1e-12) << znames[i] << " k = " << k;
  }
}

TEST(CliDrive, LuGreEveryIntegratorAndHold) {
  const io::CsvTable in = io::read_csv(kData + "sine_velocity.csv");
  const auto& t = in.column("t");
  const auto& v = in.column("v");
  const auto p = lugre_params();
  auto z = [](const LuGre<double>::State& x, int) { return x.z; };
  struct Case {
    std::string args;
    Method m;
    Hold h;
    double dt;
  };
  const std::vector<Case> cases = {
      {"", Method::exact, Hold::linear, 0},
      {"--hold zoh", Method::exact, Hold::zoh, 0},
      {"--hold linear", Method::exact, Hold::linear, 0},
      {"--integrator implicit-euler --hold zoh", Method::implicit_euler, Hold::zoh, 0},
      {"--integrator rk4 --dt 1e-5 --hold zoh", Method::rk4, Hold::zoh, 1e-5},
      {"--integrator euler --dt 1e-5 --hold linear", Method::forward_euler, Hold::linear, 1e-5},
      {"--hold linear --dt 0.003", Method::exact, Hold::linear, 0.003},
  };
  int i = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const auto out =
        run_cli("--model " + kData + "lugre.json --input " + kData + "sine_velocity.csv " + c.args,
                "lugre_" + std::to_string(i++) + ".csv");
    EXPECT_EQ(out.names, (std::vector<std::string>{"t", "v", "F", "z"}));
    compare(out, t, v, expected<LuGre<double>>(p, t, v, c.m, c.h, c.dt, 1, z), {"z"});
  }
}

TEST(CliDrive, MaxwellSlipDrivenByDisplacement) {
  const io::CsvTable in = io::read_csv(kData + "sine_displacement.csv");
  const auto& t = in.column("t");
  const auto& x = in.column("x");
  // v from the differences over each sample interval, the last one repeated.
  std::vector<double> v(t.size());
  for (std::size_t k = 0; k + 1 < t.size(); ++k) v[k] = (x[k + 1] - x[k]) / (t[k + 1] - t[k]);
  v.back() = v[v.size() - 2];
  MaxwellSlip<double>::Params p;
  p.n = 4;
  const double k[] = {4e4, 3e4, 2e4, 1e4}, D[] = {2.5e-6, 1e-5, 2.5e-5, 5e-5};
  for (std::size_t i = 0; i < 4; ++i) {
    p.k[i] = k[i];
    p.Delta[i] = D[i];
  }
  p.sigma2 = 0;
  const auto out =
      run_cli("--model " + kData + "maxwell_slip.json --input " + kData + "sine_displacement.csv",
              "ms.csv");
  EXPECT_EQ(out.names, (std::vector<std::string>{"t", "x", "v", "F", "z1", "z2", "z3", "z4"}));
  const auto e = expected<MaxwellSlip<double>>(
      p, t, v, Method::exact, Hold::zoh, 0, 4,
      [](const MaxwellSlip<double>::State& s, int i) { return s.z[static_cast<std::size_t>(i)]; });
  compare(out, t, v, e, {"z1", "z2", "z3", "z4"});
  // The model moves by exactly the recorded displacement: sum of element deflections tracks x
  // while every element sticks (first sample interval: all elements stick).
  EXPECT_NEAR(out.column("z1")[1], x[1] - x[0], 1e-18);
  EXPECT_EQ(out.column("x"), x);
}

TEST(CliDrive, GmsDrivenByVelocity) {
  const io::CsvTable in = io::read_csv(kData + "sine_velocity.csv");
  const auto& t = in.column("t");
  const auto& v = in.column("v");
  GMS<double>::Params p;
  p.n = 3;
  const double k[] = {1e5, 5e4, 2e4}, nu[] = {0.5, 0.3, 0.2};
  for (std::size_t i = 0; i < 3; ++i) {
    p.k[i] = k[i];
    p.nu[i] = nu[i];
  }
  p.C = 20;
  p.sigma2 = 0.4;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0);
  const auto out =
      run_cli("--model " + kData + "gms.json --input " + kData + "sine_velocity.csv --hold linear",
              "gms.csv");
  EXPECT_EQ(out.names, (std::vector<std::string>{"t", "v", "F", "z1", "z2", "z3"}));
  const auto e = expected<GMS<double>>(
      p, t, v, Method::exact, Hold::linear, 0, 3,
      [](const GMS<double>::State& s, int i) { return s.z[static_cast<std::size_t>(i)]; });
  compare(out, t, v, e, {"z1", "z2", "z3"});
}

}  // namespace
}  // namespace frictionlab
