// The Jacobian of lsq's simulation cost evaluated by time segments on several threads
// (identify/families.cpp, SimCost: segments chained by the sensitivity of each segment's start
// state) against the serial forward-mode evaluation of the whole record, which is the oracle:
// both differentiate the same simulation, so they agree to rounding. Also: the segmented result
// does not depend on the number of threads, the residuals equal the serial ones, and a record
// too short to split is evaluated serially (bit for bit the same); the residual-only evaluation
// that keeps the segments' start states for the next Jacobian at the same point gives the serial
// residuals and the same Jacobian as a fresh evaluation, bit for bit; Family::ssr_below sums the
// same squares as the prediction and stops only above its bound; an lsq solve through a model's
// forward sensitivities ends where the solve through Jets ends (1e-8 relative).
#include <ceres/ceres.h>
#include <gtest/gtest.h>
#include <algorithm>

#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "linearisation.hpp"
#include "lsq.hpp"
#include "lugre_test_record.hpp"
#include "progress.hpp"
#include "robust.hpp"

namespace frictionlab::identify::detail {
namespace {

struct Eval {
  std::vector<double> r, J;
};

Eval evaluate(const Family& fam, const FitData& d, const std::vector<double>& theta,
              const std::vector<int>& free, const Robust& loss, int threads, bool jets = false) {
  const auto cost = fam.make_cost(d, theta, free, loss, threads, jets);
  std::vector<double> x;
  x.reserve(free.size());
  for (int j : free) x.push_back(theta[static_cast<std::size_t>(j)]);
  Eval e{std::vector<double>(static_cast<std::size_t>(d.m())),
         std::vector<double>(static_cast<std::size_t>(d.m()) * free.size())};
  const double* params[1] = {x.data()};
  double* jacs[1] = {e.J.data()};
  EXPECT_TRUE(cost->Evaluate(params, e.r.data(), jacs));
  return e;
}

/// max |a - b| / max |b| per Jacobian column.
double column_rel_diff(const Eval& a, const Eval& b, std::size_t nf) {
  double worst = 0;
  for (std::size_t j = 0; j < nf; ++j) {
    double diff = 0, scale = 0;
    for (std::size_t r = 0; r < b.r.size(); ++r) {
      diff = std::max(diff, std::abs(a.J[r * nf + j] - b.J[r * nf + j]));
      scale = std::max(scale, std::abs(b.J[r * nf + j]));
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}

/// The internal parameters of fam at the point whose natural parameters are 1 except those that
/// set(field, x) changes.
template <class Set>
std::vector<double> internal_point(const Family& fam, Set set) {
  std::vector<double> nat(static_cast<std::size_t>(fam.size()), 1.0);
  for (std::size_t i = 0; i < nat.size(); ++i) set(fam.info()[i].field, nat[i]);
  return fam.to_internal(nat);
}

struct Case {
  const char* model;
  ProblemKind problem;
  double warmup;
  LossKind loss;
  Hold hold = Hold::linear;  ///< FitOptions::hold: the input between samples
};

class SegmentedJacobian : public ::testing::TestWithParam<Case> {};

TEST_P(SegmentedJacobian, EqualsTheSerialOneToRounding) {
  const Case c = GetParam();
  const data::Record rec = testing::reference_record(c.problem, 3);
  FitData d = prepare_data(rec, c.problem, c.warmup);
  d.hold = c.hold;
  ASSERT_GE(d.n(), 16000);  // long enough to be split
  const auto fam = make_family(parse_model(c.model), c.problem, true);
  // A point away from the truth (the Jacobian of a fit's early iterations).
  const std::vector<double> theta = internal_point(*fam, [](const std::string& f, double& x) {
    if (f == "Km") x = 1.8;
    if (f == "sigma2") x = 0.4;
    if (f.starts_with("Fc")) x = 0.9;
    if (f.starts_with("Fs")) x = 1.7;
    if (f.starts_with("vs")) x = 0.08;
    if (f == "alpha") x = 1.3;
    if (f == "sigma0") x = 800;
    if (f == "sigma1") x = 0.3;
    if (f == "n") x = 1.3;  // (Dahl: its n = 1 branch has no derivative with respect to n)
    // (Maxwell slip: element i with stiffness 300 (i + 1) N/m, slip deflections 1, 2, 3 mm)
    if (f.starts_with("k[")) x = 300.0 * (1 + std::stoi(f.substr(2)));
    if (f.starts_with("dDelta[")) x = 1e-3;
    if (f == "C") x = 30;  // (GMS: the slip law's attraction, N/s)
  });
  std::vector<int> free(static_cast<std::size_t>(fam->size()));
  std::iota(free.begin(), free.end(), 0);
  Robust loss;
  loss.kind = c.loss;
  loss.scale = 0.05;
  const Eval serial = evaluate(*fam, d, theta, free, loss, 1, true);  // Jets, one pass
  const Eval two = evaluate(*fam, d, theta, free, loss, 2);
  const Eval eight = evaluate(*fam, d, theta, free, loss, 8);
  const Eval one = evaluate(*fam, d, theta, free, loss, 1);
  // The forward sensitivities in double (LuGre, Dahl, elasto-plastic, Maxwell slip, GMS) against
  // the Jets of the serial pass (the other models: the segmented Jets); the segmented Jets too.
  const Eval jets_two = evaluate(*fam, d, theta, free, loss, 2, true);
  EXPECT_LT(column_rel_diff(jets_two, serial, free.size()), 1e-9);
  const double dj = column_rel_diff(two, serial, free.size());
  std::printf(
      "[measured] %s: segmented Jacobian vs serial, largest column-relative difference %.2e\n",
      c.model, dj);
  EXPECT_LT(dj, 1e-9);
  double dr = 0, rs = 0;
  for (std::size_t k = 0; k < serial.r.size(); ++k) {
    dr = std::max(dr, std::abs(two.r[k] - serial.r[k]));
    rs = std::max(rs, std::abs(serial.r[k]));
  }
  EXPECT_LT(dr, 1e-12 * rs);
  // The segments are fixed: any number of threads gives the same numbers, bit for bit.
  EXPECT_EQ(two.J, eight.J);
  EXPECT_EQ(two.r, eight.r);
  EXPECT_LT(column_rel_diff(one, serial, free.size()), 1e-9);
  // The derivative with respect to every parameter is really there (not all zero).
  for (std::size_t j = 0; j < free.size(); ++j) {
    double s = 0;
    for (std::size_t r = 0; r < serial.r.size(); ++r)
      s = std::max(s, std::abs(serial.J[r * free.size() + j]));
    EXPECT_GT(s, 0.0) << fam->info()[j].field;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, SegmentedJacobian,
    ::testing::Values(Case{"lugre", ProblemKind::sensorless, 0.0, LossKind::none},
                      Case{"lugre-asym", ProblemKind::sensorless, 1.0, LossKind::huber},
                      Case{"lugre", ProblemKind::friction, 0.0, LossKind::cauchy},
                      Case{"lugre-rational", ProblemKind::sensorless, 0.0, LossKind::none},
                      Case{"lugre-asym", ProblemKind::friction, 0.0, LossKind::none},
                      Case{"elasto-plastic", ProblemKind::friction, 0.0, LossKind::none},
                      Case{"dahl", ProblemKind::friction, 0.5, LossKind::none},
                      Case{"maxwell-slip", ProblemKind::friction, 0.0, LossKind::none},
                      Case{"maxwell-slip", ProblemKind::sensorless, 0.0, LossKind::huber},
                      Case{"gms", ProblemKind::friction, 0.0, LossKind::none},
                      Case{"gms:2", ProblemKind::sensorless, 0.0, LossKind::huber},
                      // the input held between samples: the held step's sensitivities
                      Case{"lugre", ProblemKind::sensorless, 0.0, LossKind::none, Hold::zoh},
                      Case{"lugre-asym", ProblemKind::friction, 0.0, LossKind::huber, Hold::zoh},
                      Case{"elasto-plastic", ProblemKind::friction, 0.0, LossKind::none,
                           Hold::zoh}));

TEST(SegmentedJacobianShort, AShortRecordIsEvaluatedSerially) {
  const LuGre<double>::Params truth{.sigma0 = 500,
                                    .sigma1 = 0.5,
                                    .sigma2 = 0.5,
                                    .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0)};
  SyntheticOptions so;
  so.excitation.duration = 10;  // 10 000 samples < 8 segments of 2000
  const FitData d =
      prepare_data(synthetic_sensorless_record(truth, 2.0, so), ProblemKind::sensorless, 0.0);
  const auto fam = make_family(parse_model("lugre"), ProblemKind::sensorless, true);
  std::vector<double> nat{2.0, 0.5, 1.0, 1.5, 0.1, 1.0, 500, 0.5};
  ASSERT_EQ(static_cast<int>(nat.size()), fam->size());
  const auto theta = fam->to_internal(nat);
  const std::vector<int> free{0, 1, 2, 3, 4, 6, 7};
  const Eval a = evaluate(*fam, d, theta, free, Robust{}, 1),
             b = evaluate(*fam, d, theta, free, Robust{}, 2);
  EXPECT_EQ(a.J, b.J);
  EXPECT_EQ(a.r, b.r);
}

/// The sensorless LuGre record and point of the tests below (30 s at 1 kHz: segmented).
struct LuGreCase {
  FitData d;
  std::unique_ptr<Family> fam;
  std::vector<double> theta;
  std::vector<int> free{0, 1, 2, 3, 4, 6, 7};
};

LuGreCase lugre_case() {
  LuGreCase c{prepare_data(testing::reference_record(ProblemKind::sensorless, 5),
                           ProblemKind::sensorless, 0.0),
              make_family(parse_model("lugre"), ProblemKind::sensorless, true),
              {}};
  const std::vector<double> nat{1.8, 0.4, 0.9, 1.7, 0.08, 1.0, 800, 0.3};  // away from the truth
  c.theta = c.fam->to_internal(nat);
  return c;
}

TEST(SegmentedJacobianCache, ResidualsThenJacobianAtThePointAreTheFreshOnes) {
  const LuGreCase c = lugre_case();
  ASSERT_GE(c.d.n(), 16000);
  std::vector<double> x;
  for (int j : c.free) x.push_back(c.theta[static_cast<std::size_t>(j)]);
  const Eval fresh = evaluate(*c.fam, c.d, c.theta, c.free, Robust{}, 2);
  const Eval serial = evaluate(*c.fam, c.d, c.theta, c.free, Robust{}, 1);
  // alpha held (not in `free`): the sensitivities leave out dz/dalpha; the Jets agree.
  const Eval jets = evaluate(*c.fam, c.d, c.theta, c.free, Robust{}, 1, true);
  EXPECT_LT(column_rel_diff(fresh, jets, c.free.size()), 1e-9);
  // Ceres's order: the residuals at a point (by segments, keeping their start states; on two
  // threads the Jacobian there is computed at the same time and kept), then the Jacobian there
  // (the kept one), then a residual evaluation elsewhere and the Jacobian back at the first
  // point (the kept states and Jacobian no longer match: computed again).
  const auto cost = c.fam->make_cost(c.d, c.theta, c.free, Robust{}, 2);
  const double* params[1] = {x.data()};
  std::vector<double> r(static_cast<std::size_t>(c.d.m())), J(r.size() * c.free.size());
  ASSERT_TRUE(cost->Evaluate(params, r.data(), nullptr));
  // The value-only simulation of the whole record: to rounding (the segments run from the start
  // state 0 at once and are corrected by their start states' derivatives after; the residuals
  // are affine in the state).
  std::vector<double> pred(static_cast<std::size_t>(c.d.n()));
  c.fam->predict(c.theta.data(), c.d, Method::exact, Hold::linear, pred.data());
  for (long k = c.d.first; k < c.d.n(); ++k) {
    const double want = c.d.y[static_cast<std::size_t>(k)] - pred[static_cast<std::size_t>(k)];
    ASSERT_NEAR(r[static_cast<std::size_t>(k - c.d.first)], want,
                1e-12 * (1 + std::abs(c.d.y[static_cast<std::size_t>(k)])))
        << k;
  }
  double dr = 0;  // (the Jets' values differ by rounding: expm1 for a Jet)
  for (std::size_t k = 0; k < r.size(); ++k) dr = std::max(dr, std::abs(r[k] - serial.r[k]));
  EXPECT_LT(dr, 1e-12);
  double* jacs[1] = {J.data()};
  ASSERT_TRUE(cost->Evaluate(params, r.data(), jacs));
  EXPECT_EQ(J, fresh.J);
  EXPECT_EQ(r, fresh.r);
  std::vector<double> y = x;
  y[2] += 0.1;
  const double* other[1] = {y.data()};
  ASSERT_TRUE(cost->Evaluate(other, r.data(), nullptr));
  ASSERT_TRUE(cost->Evaluate(params, r.data(), jacs));
  EXPECT_EQ(J, fresh.J);
  EXPECT_EQ(r, fresh.r);
  // The Jacobian kept from the residual evaluation at the other point is that point's fresh one.
  std::vector<double> theta_y = c.theta;
  for (std::size_t j = 0; j < c.free.size(); ++j)
    theta_y[static_cast<std::size_t>(c.free[j])] = y[j];
  const Eval fresh_y = evaluate(*c.fam, c.d, theta_y, c.free, Robust{}, 2);
  ASSERT_TRUE(cost->Evaluate(other, r.data(), nullptr));
  ASSERT_TRUE(cost->Evaluate(other, r.data(), jacs));
  EXPECT_EQ(J, fresh_y.J);
  EXPECT_EQ(r, fresh_y.r);
  EXPECT_NE(fresh_y.J, fresh.J);
}

TEST(SegmentedJacobianCache, KeptJacobianAndNormalEquationsReadInPlace) {
  // What CompressedCost reads instead of a copy (KeepsJacobian): the kept residuals and
  // Jacobian are those Evaluate returns, and the normal equations the pass assembles from its
  // segments' parts (J_s = L_s + q_s D_s^T) equal J^T J, J^T r, r^T r of the full Jacobian.
  const LuGreCase c = lugre_case();
  std::vector<double> x;
  for (int j : c.free) x.push_back(c.theta[static_cast<std::size_t>(j)]);
  const auto cost = c.fam->make_cost(c.d, c.theta, c.free, Robust{}, 2);
  const auto* keeper = dynamic_cast<const KeepsJacobian*>(cost.get());
  ASSERT_NE(keeper, nullptr);
  const double* params[1] = {x.data()};
  const auto m = static_cast<Eigen::Index>(c.d.m());
  const auto p = static_cast<Eigen::Index>(c.free.size());
  std::vector<double> r(static_cast<std::size_t>(m)), J(r.size() * c.free.size());
  double* jacs[1] = {J.data()};
  const double* kr = nullptr;
  const double* kJ = nullptr;
  bool ok = false;
  EXPECT_FALSE(keeper->kept_at(x.data(), kr, kJ, ok));     // nothing evaluated yet
  ASSERT_TRUE(cost->Evaluate(params, r.data(), nullptr));  // with the Jacobian ahead
  ASSERT_TRUE(keeper->kept_at(x.data(), kr, kJ, ok));
  EXPECT_TRUE(ok);
  ASSERT_TRUE(cost->Evaluate(params, r.data(), jacs));
  EXPECT_EQ(std::vector<double>(kr, kr + m), r);
  EXPECT_EQ(std::vector<double>(kJ, kJ + m * p), J);
  Eigen::MatrixXd N;
  Eigen::VectorXd g;
  double ss = 0;
  ASSERT_TRUE(keeper->normal_at(x.data(), N, g, ss));
  const Eigen::Map<const RowMatrix> Jm(J.data(), m, p);
  const Eigen::Map<const Eigen::VectorXd> rm(r.data(), m);
  const Eigen::MatrixXd N_ref = Jm.transpose() * Jm;
  const Eigen::VectorXd g_ref = Jm.transpose() * rm;
  for (Eigen::Index a = 0; a < p; ++a) {
    EXPECT_NEAR(g(a), g_ref(a), 1e-10 * std::sqrt(N_ref(a, a) * rm.squaredNorm())) << a;
    for (Eigen::Index b = 0; b < p; ++b)
      EXPECT_NEAR(N(a, b), N_ref(a, b), 1e-11 * std::sqrt(N_ref(a, a) * N_ref(b, b)))
          << a << "," << b;
  }
  EXPECT_NEAR(ss, rm.squaredNorm(), 1e-12 * rm.squaredNorm());
  std::vector<double> y = x;
  y[0] += 0.01;
  EXPECT_FALSE(keeper->normal_at(y.data(), N, g, ss));
  EXPECT_FALSE(keeper->kept_at(y.data(), kr, kJ, ok));
}

TEST(LsqEnd, TheGaussNewtonModelsEndLeavesNoDecreaseUntaken) {
  // lsq ends a solve where the Gauss-Newton model of the accepted point promises a decrease of
  // at most the function tolerance (1e-12 of the cost; lsq.cpp, ModelConvergence). Checked by
  // simulation: the Gauss-Newton step from the end point, by a QR of the Jacobian there (not the
  // normal equations the end was decided by), decreases the cost by no more than that.
  const LuGreCase c = lugre_case();
  LsqOptions o;
  o.starts = 1;
  o.threads = 2;
  const LsqRun run = run_lsq(*c.fam, c.d, c.theta, c.free, o, Robust{}, Progress{}, "lsq");
  EXPECT_TRUE(run.converged) << run.termination;
  EXPECT_NE(run.termination.find("Gauss-Newton model"), std::string::npos) << run.termination;
  const Eval end = evaluate(*c.fam, c.d, run.theta, c.free, Robust{}, 1);
  const auto m = static_cast<Eigen::Index>(c.d.m());
  const auto p = static_cast<Eigen::Index>(c.free.size());
  const Eigen::Map<const RowMatrix> J(end.J.data(), m, p);
  const Eigen::Map<const Eigen::VectorXd> r(end.r.data(), m);
  const Eigen::VectorXd dx = Eigen::MatrixXd(J).colPivHouseholderQr().solve(-r);
  std::vector<double> stepped = run.theta;
  for (Eigen::Index j = 0; j < p; ++j)
    stepped[static_cast<std::size_t>(c.free[static_cast<std::size_t>(j)])] += dx(j);
  const Eval after = evaluate(*c.fam, c.d, stepped, c.free, Robust{}, 1);
  const double ss = r.squaredNorm();
  const double ss_after = Eigen::Map<const Eigen::VectorXd>(after.r.data(), m).squaredNorm();
  EXPECT_LE(ss - ss_after, 2e-12 * ss);
  // and the start was far: the solve did decrease the cost
  const Eval start = evaluate(*c.fam, c.d, c.theta, c.free, Robust{}, 1);
  EXPECT_GT(Eigen::Map<const Eigen::VectorXd>(start.r.data(), m).squaredNorm(), 2 * ss);
}

/// A family that is `inner` in every respect but its cost's Jacobian, which is by Jets for
/// every model (make_cost with jets = true): the oracle of a fit through the models' forward
/// sensitivities.
class JetsOnly final : public Family {
 public:
  explicit JetsOnly(const Family& inner) : inner_(inner) {
    info_ = inner.info();
    user_ = inner.user_info();
    sensorless_ = inner.sensorless();
    default_starts_ = inner.default_starts();
  }
  void predict(const double* theta, const FitData& d, Method m, Hold h,
               double* out) const override {
    inner_.predict(theta, d, m, h, out);
  }
  std::unique_ptr<SsrRun> start_ssr(const double* theta, const FitData& d, Method m, Hold h,
                                    int affine, std::span<const double> values) const override {
    return inner_.start_ssr(theta, d, m, h, affine, values);
  }
  bool force_affine(int i) const override { return inner_.force_affine(i); }
  void user_values(const double* theta, double* u) const override { inner_.user_values(theta, u); }
  void user_jacobian(const double* theta, const std::vector<int>& free, double* G) const override {
    inner_.user_jacobian(theta, free, G);
  }
  std::unique_ptr<ceres::CostFunction> make_cost(const FitData& d, const std::vector<double>& theta,
                                                 const std::vector<int>& free, const Robust& loss,
                                                 int threads, bool /*jets*/) const override {
    return inner_.make_cost(d, theta, free, loss, threads, true);
  }
  ModelSpec fitted(const double* theta) const override { return inner_.fitted(theta); }
  std::optional<FitStructure> nested() const override { return inner_.nested(); }
  std::vector<double> embed(const Family& nested,
                            const std::vector<double>& nested_nat) const override {
    return inner_.embed(nested, nested_nat);
  }
  double steady(const double* theta, double v) const override { return inner_.steady(theta, v); }

 private:
  const Family& inner_;
};

struct FitCase {
  const char* model;
  ProblemKind problem;
};

class FastPathFit : public ::testing::TestWithParam<FitCase> {};

TEST_P(FastPathFit, EndsWhereTheJetPathEnds) {
  // One lsq solve from the same start on the 30 s record, through the model's forward
  // sensitivities (on two threads: by segments) and through Jets: the same optimum to 1e-8
  // relative in every parameter (the Jacobians differ by rounding, and so may the iterates).
  const FitCase c = GetParam();
  const data::Record rec = testing::reference_record(c.problem, 1);
  const FitData d = prepare_data(rec, c.problem, 0.0);
  const auto fam = make_family(parse_model(c.model), c.problem, true);
  const std::vector<double> theta = internal_point(*fam, [](const std::string& f, double& x) {
    if (f == "Km") x = 2.1;
    if (f == "sigma2") x = 0.45;
    if (f.starts_with("Fc")) x = 0.9;
    if (f.starts_with("Fs")) x = 1.4;
    if (f.starts_with("vs")) x = 0.12;
    if (f == "sigma0") x = 400;
    if (f == "sigma1") x = 0.4;
    if (f == "n") x = 1.0;  // (the n = 1 branch of Dahl's step, with its derivative in n)
    if (f == "z_ba_logit") x = 0.0;
    // (Maxwell slip: stiffnesses 600, 300, 150 N/m, slip deflections 0.5, 1.5, 3.5 mm)
    if (f.starts_with("k[")) x = 600.0 / (1 << std::stoi(f.substr(2)));
    if (f.starts_with("dDelta[")) x = f == "dDelta[0]" ? 5e-4 : 1e-3 * std::stoi(f.substr(7));
    if (f == "C") x = 30;  // (GMS: the slip law's attraction, N/s)
  });
  std::vector<int> free;
  for (int i = 0; i < fam->size(); ++i)
    if (fam->info()[static_cast<std::size_t>(i)].field != "alpha") free.push_back(i);
  LsqOptions o;
  o.starts = 1;
  o.threads = 2;
  const LsqRun fast = run_lsq(*fam, d, theta, free, o, Robust{}, Progress({}), "lsq");
  const JetsOnly jets_fam(*fam);
  const LsqRun jets = run_lsq(jets_fam, d, theta, free, o, Robust{}, Progress({}), "lsq");
  EXPECT_TRUE(fast.converged) << fast.termination;
  EXPECT_TRUE(jets.converged) << jets.termination;
  const auto a = fam->to_natural(fast.theta), b = fam->to_natural(jets.theta);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::abs(b[i]));
    EXPECT_NEAR(a[i], b[i], 1e-8 * std::abs(b[i])) << fam->info()[i].field;
  }
  std::printf(
      "[measured] %s: fast-path fit vs Jet fit, largest relative difference %.2e "
      "(%d / %d iterations)\n",
      c.model, worst, fast.iterations, jets.iterations);
}

INSTANTIATE_TEST_SUITE_P(Models, FastPathFit,
                         ::testing::Values(FitCase{"lugre", ProblemKind::sensorless},
                                           FitCase{"dahl", ProblemKind::sensorless},
                                           FitCase{"dahl", ProblemKind::friction},
                                           FitCase{"elasto-plastic", ProblemKind::sensorless},
                                           FitCase{"elasto-plastic", ProblemKind::friction},
                                           FitCase{"maxwell-slip", ProblemKind::sensorless},
                                           FitCase{"maxwell-slip", ProblemKind::friction},
                                           FitCase{"gms", ProblemKind::sensorless},
                                           FitCase{"gms", ProblemKind::friction}));

TEST(SsrBelow, SumsThePredictionsSquaresAndStopsOnlyAboveTheBound) {
  const LuGreCase c = lugre_case();
  std::vector<double> pred(static_cast<std::size_t>(c.d.n()));
  c.fam->predict(c.theta.data(), c.d, Method::exact, Hold::zoh, pred.data());
  double ssr = 0;
  for (long k = c.d.first; k < c.d.n(); ++k) {
    const double e = c.d.y[static_cast<std::size_t>(k)] - pred[static_cast<std::size_t>(k)];
    ssr += e * e;
  }
  constexpr double inf = std::numeric_limits<double>::infinity();
  const auto below = [&](double b) {
    return c.fam->ssr_below(c.theta.data(), c.d, Method::exact, Hold::zoh, [b] { return b; });
  };
  EXPECT_EQ(below(inf), ssr);  // the same sum, in the same order
  EXPECT_EQ(below(ssr), ssr);  // a sum equal to the bound is never stopped
  EXPECT_EQ(below(0.999 * ssr), inf);
  // The bound is read as the simulation runs: a bound that falls below the partial sums
  // midway stops it.
  int calls = 0;
  EXPECT_EQ(c.fam->ssr_below(c.theta.data(), c.d, Method::exact, Hold::zoh,
                             [&calls, ssr] { return ++calls < 3 ? ssr : 1e-300; }),
            inf);
  EXPECT_EQ(calls, 3);
}

TEST(StartSsr, GoesOnWhereItStoppedWithTheSameSum) {
  // The scans simulate every candidate's first chunk, then finish them in another order: the
  // sum over pieces of any length is the one-pass sum of the prediction's squares, bit for bit.
  const LuGreCase c = lugre_case();
  std::vector<double> pred(static_cast<std::size_t>(c.d.n()));
  c.fam->predict(c.theta.data(), c.d, Method::exact, Hold::zoh, pred.data());
  double ssr = 0, head = 0;
  for (long k = c.d.first; k < c.d.n(); ++k) {
    const double e = c.d.y[static_cast<std::size_t>(k)] - pred[static_cast<std::size_t>(k)];
    ssr += e * e;
    if (k < 1000) head = ssr;
  }
  const auto run = c.fam->start_ssr(c.theta.data(), c.d, Method::exact, Hold::zoh);
  EXPECT_EQ(run->advance(1000), head);
  EXPECT_EQ(run->done(), 1000);
  EXPECT_EQ(run->advance(500), head);  // nothing to do before where it stands
  for (long k = 1000; k < c.d.n(); k += 777) run->advance(k + 777);
  EXPECT_EQ(run->done(), c.d.n());
  EXPECT_EQ(run->advance(c.d.n() + 10), ssr);
}

TEST(StartSsr, AffineValuesFromOneSimulationMatchTheirOwn) {
  // sigma1 enters the force only, affinely: one simulation gives the sum of squares of several
  // sigma1 values (the scans). Each is compared with a simulation of its own: the first value's
  // is the same sum bit for bit, the others' agree to rounding. Pieces of any length give the
  // same sums, and advance() returns the lowest.
  const LuGreCase c = lugre_case();
  const int i1 = c.fam->index("sigma1");
  ASSERT_GE(i1, 0);
  ASSERT_TRUE(c.fam->force_affine(i1));
  EXPECT_FALSE(c.fam->force_affine(c.fam->index("sigma0")));  // sigma0 moves the state
  const std::vector<double> values{0.0, 0.05, 0.5, 5.0};
  std::vector<double> own;
  for (double a : values) {
    std::vector<double> th = c.theta;
    th[static_cast<std::size_t>(i1)] = a;  // natural = internal (nonneg scale)
    own.push_back(c.fam->start_ssr(th.data(), c.d, Method::exact, Hold::zoh)->advance(c.d.n()));
  }
  const auto run = c.fam->start_ssr(c.theta.data(), c.d, Method::exact, Hold::zoh, i1, values);
  for (long k = 0; k < c.d.n(); k += 3001) run->advance(k + 3001);
  ASSERT_EQ(run->done(), c.d.n());
  ASSERT_EQ(run->sums().size(), values.size());
  EXPECT_EQ(run->sums()[0], own[0]);
  for (std::size_t j = 1; j < values.size(); ++j)
    EXPECT_NEAR(run->sums()[j], own[j], 1e-12 * own[j]) << "sigma1 = " << values[j];
  EXPECT_EQ(run->advance(c.d.n()), *std::min_element(run->sums().begin(), run->sums().end()));
  // Not for a parameter that moves the state, nor without values.
  EXPECT_THROW(c.fam->start_ssr(c.theta.data(), c.d, Method::exact, Hold::zoh,
                                c.fam->index("sigma0"), values),
               std::invalid_argument);
  EXPECT_THROW(c.fam->start_ssr(c.theta.data(), c.d, Method::exact, Hold::zoh, i1, {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace frictionlab::identify::detail
