// frictionlab identify: Fourier excitation design and the check of a trajectory
// (identify/robot_excite.hpp).
#include "frictionlab/identify/robot_excite.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "frictionlab/identify/cmaes.hpp"
#include "robot_base.hpp"

namespace frictionlab::identify {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kTwoPi = 2 * M_PI;

std::size_t idx(int i) { return static_cast<std::size_t>(i); }

/// The base regressor's normal matrix A = sum_k Wb_k^T Wb_k over the samples.
MatrixXd normal_matrix(arm::FullRegressor& full, const arm::Base& base, const data::ArmSamples& s) {
  const int n = s.dof();
  const auto r = static_cast<Eigen::Index>(base.independent.size());
  MatrixXd A = MatrixXd::Zero(r, r), W, Wb;
  VectorXd q(n), qd(n), qdd(n);
  for (std::size_t k = 0; k < s.size(); ++k) {
    for (int j = 0; j < n; ++j) {
      q(j) = s.q[idx(j)][k];
      qd(j) = s.qd[idx(j)][k];
      qdd(j) = s.qdd[idx(j)][k];
    }
    full.evaluate(q.data(), qd.data(), qdd.data(), W);
    arm::base_columns(W, base, Wb);
    A.selfadjointView<Eigen::Lower>().rankUpdate(Wb.transpose());
  }
  return A.selfadjointView<Eigen::Lower>();
}

/// Eigenvalues of a normal matrix below this times the largest are round-off of the columns
/// (relative accuracy of A ~ 1e-16): the regressor is rank deficient there.
constexpr double kNull = 1e-12;

/// sqrt(lambda_max / lambda_min) of a normal matrix: the 2-norm condition number of the
/// regressor it comes from; infinite when lambda_min is below kNull lambda_max (a condition
/// number above 1e6 that the normal equations cannot tell from a singular regressor).
double condition_number(const MatrixXd& A) {
  if (A.rows() == 0) return std::numeric_limits<double>::infinity();
  const VectorXd ev =
      Eigen::SelfAdjointEigenSolver<MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues();
  return ev(0) > kNull * ev(ev.size() - 1) ? std::sqrt(ev(ev.size() - 1) / ev(0))
                                           : std::numeric_limits<double>::infinity();
}

/// e_i = 1 / sqrt(((Ws^T Ws)^-1)_ii) from the normal matrix, columns scaled to unit norm; 0 for
/// a column of (numerically) zero norm, ~0 for one in the span of the others.
std::vector<double> separation(const MatrixXd& A) {
  const VectorXd d = A.diagonal().cwiseMax(0).cwiseSqrt();
  const double big = d.size() ? d.maxCoeff() : 0;
  std::vector<double> e(static_cast<std::size_t>(A.rows()), 0.0);
  std::vector<Eigen::Index> live;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    if (d(i) > 1e-12 * big) live.push_back(i);
  const auto m = static_cast<Eigen::Index>(live.size());
  const auto at = [&](Eigen::Index a) { return live[static_cast<std::size_t>(a)]; };
  MatrixXd As(m, m);
  for (Eigen::Index a = 0; a < m; ++a)
    for (Eigen::Index b = 0; b < m; ++b) As(a, b) = A(at(a), at(b)) / (d(at(a)) * d(at(b)));
  // ((As)^-1)_ii = sum_k v_ik^2 / lambda_k over the directions the trajectory excites; a
  // parameter with a share in a null direction (lambda_k below kNull: the columns' own
  // round-off) is a combination of the others: e_i = 0.
  const Eigen::SelfAdjointEigenSolver<MatrixXd> es(As);
  for (Eigen::Index a = 0; a < m; ++a) {
    double inv = 0;
    bool null = false;
    for (Eigen::Index k = 0; k < m; ++k) {
      const double v2 = es.eigenvectors()(a, k) * es.eigenvectors()(a, k);
      if (es.eigenvalues()(k) > kNull)
        inv += v2 / es.eigenvalues()(k);
      else
        null = null || v2 > 1e-6;
    }
    e[static_cast<std::size_t>(at(a))] = null ? 0.0 : 1 / std::sqrt(inv);
  }
  return e;
}

/// "a, b, c and 4 more".
std::string name_list(const std::vector<std::string>& names, std::size_t most = 8) {
  std::string out;
  for (std::size_t k = 0; k < std::min(most, names.size()); ++k) out += (k ? ", " : "") + names[k];
  if (names.size() > most) out += " and " + std::to_string(names.size() - most) + " more";
  return out;
}

/// Per joint: range, peak velocity and acceleration, reversals of qd.
void motion_figures(const data::ArmSamples& s, ExcitationCheck& c) {
  for (int j = 0; j < s.dof(); ++j) {
    const auto& q = s.q[idx(j)];
    const auto& qd = s.qd[idx(j)];
    const auto& qdd = s.qdd[idx(j)];
    const auto [lo, hi] = std::minmax_element(q.begin(), q.end());
    c.range.push_back(q.empty() ? 0 : *hi - *lo);
    double v = 0, a = 0;
    int reversals = 0, last = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      v = std::max(v, std::abs(qd[k]));
      a = std::max(a, std::abs(qdd[k]));
      const int sign = (qd[k] > 0) - (qd[k] < 0);
      if (sign != 0 && last != 0 && sign != last) ++reversals;
      if (sign != 0) last = sign;
    }
    c.peak_velocity.push_back(v);
    c.peak_acceleration.push_back(a);
    c.reversals.push_back(reversals);
  }
}

/// The check's flags: parameters not excited or poorly separated, joints that never reverse.
void flag(const robot::RobotModel& m, ExcitationCheck& c) {
  std::vector<std::string> dead, poor, still;
  for (std::size_t i = 0; i < c.parameters.size(); ++i) {
    if (c.separation[i] == 0)
      dead.push_back(c.parameters[i]);
    else if (c.separation[i] < kPoorSeparation)
      poor.push_back(c.parameters[i]);
  }
  for (int j = 0; j < m.dof(); ++j)
    if (c.reversals[idx(j)] == 0) still.push_back(m.joints[idx(j)].name);
  const auto count = [](const std::vector<std::string>& v) {
    return std::to_string(v.size()) +
           (v.size() == 1 ? " base parameter is" : " base parameters are");
  };
  if (!dead.empty()) c.flags.push_back(count(dead) + " not excited at all: " + name_list(dead));
  if (!poor.empty())
    c.flags.push_back(std::to_string(poor.size()) +
                      " base parameters are hardly separated from "
                      "the others (separation below 0.1: standard errors at least 10 times "
                      "those of an orthogonal excitation): " +
                      name_list(poor));
  if (!still.empty())
    c.flags.push_back(
        "joints whose velocity never changes sign (Coulomb friction and offset "
        "cannot be told apart): " +
        name_list(still));
}

/// Per joint [lower, upper, velocity, acceleration] limits, all finite and positive.
struct Limits {
  double lo, hi, v, a;
};

/// The options' velocity or acceleration limits in place of the description's.
void replace_limits(robot::RobotModel& m, const std::vector<double>& values, const char* option,
                    double robot::JointLimits::*field) {
  if (values.empty()) return;
  if (static_cast<int>(values.size()) != m.dof())
    throw std::invalid_argument(std::string(option) + ": expected " + std::to_string(m.dof()) +
                                " values (one per joint), got " + std::to_string(values.size()));
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (!(values[j] > 0) || !std::isfinite(values[j]))
      throw std::invalid_argument(std::string(option) + ": value " + std::to_string(j + 1) +
                                  " must be > 0");
    m.joints[j].limits.*field = values[j];
  }
}

std::vector<Limits> limits_of(robot::RobotModel m, const ExcitationOptions& o) {
  replace_limits(m, o.velocity_limits, "velocity_limits", &robot::JointLimits::velocity);
  replace_limits(m, o.acceleration_limits, "acceleration_limits",
                 &robot::JointLimits::acceleration);
  std::vector<Limits> out;
  for (const auto& j : m.joints) {
    const auto& l = j.limits;
    const auto missing = [&](const char* what) {
      throw std::invalid_argument("joint '" + j.name + "': no " + what +
                                  " limit in the robot description (the design needs position, "
                                  "velocity and acceleration limits for every joint)");
    };
    if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || !(l.upper > l.lower))
      missing("position");
    if (!std::isfinite(l.velocity) || !(l.velocity > 0)) missing("velocity");
    if (!std::isfinite(l.acceleration) || !(l.acceleration > 0)) missing("acceleration");
    out.push_back({l.lower, l.upper, l.velocity, l.acceleration});
  }
  return out;
}

void check_options(const ExcitationOptions& o) {
  const auto bad = [](const std::string& what) { throw std::invalid_argument(what); };
  if (!(o.period > 0) || !std::isfinite(o.period)) bad("period: must be > 0 s");
  if (o.harmonics < 2 || o.harmonics > 50) bad("harmonics: must be in [2, 50]");
  if (!(o.margin > 0 && o.margin <= 1)) bad("margin: must be in (0, 1]");
  if (!(o.design_rate * o.period / o.harmonics >= 20) || !std::isfinite(o.design_rate))
    bad("design_rate: needs at least 20 samples per period of the highest harmonic");
  if (o.evaluations < 1) bad("evaluations: must be >= 1");
  if (o.threads < 1) bad("threads: must be >= 1");
}

/// The design's decision vector (unit box) as a trajectory: per joint the offset's place in
/// the middle 60 % of the range, then a_2..a_L and b_2..b_L in [-1, 1]; a_1 and b_1 follow from
/// qd(0) = qdd(0) = 0; then each joint scaled to its nearest limit times the margin.
class Decoder {
 public:
  Decoder(std::vector<Limits> limits, const ExcitationOptions& o)
      : lim_(std::move(limits)), L_(o.harmonics), T_(o.period), margin_(o.margin) {}

  int dimension() const { return static_cast<int>(lim_.size()) * (2 * L_ - 1); }

  FourierTrajectory decode(const std::vector<double>& x) const {
    FourierTrajectory f;
    f.period = T_;
    const int n = static_cast<int>(lim_.size());
    for (int j = 0; j < n; ++j) {
      const double* xj = x.data() + static_cast<std::ptrdiff_t>(j) * (2 * L_ - 1);
      const Limits& l = lim_[idx(j)];
      f.q0.push_back(l.lo + (l.hi - l.lo) * (0.2 + 0.6 * xj[0]));
      std::vector<double> a(idx(L_), 0.0), b(idx(L_), 0.0);
      for (int h = 1; h < L_; ++h) {
        a[idx(h)] = 2 * xj[h] - 1;
        b[idx(h)] = 2 * xj[L_ - 1 + h] - 1;
        a[0] -= a[idx(h)];
        b[0] -= (h + 1) * b[idx(h)];
      }
      f.a.push_back(std::move(a));
      f.b.push_back(std::move(b));
    }
    scale_to_limits(f);
    return f;
  }

 private:
  /// Each joint's coefficients times the largest factor that keeps q within [lo, hi] and |qd|,
  /// |qdd| within their limits, each times the margin (maxima on 64 points per period of the
  /// highest harmonic: within 0.12 % of the true ones).
  void scale_to_limits(FourierTrajectory& f) const {
    const int n = f.dof(), points = 64 * L_;
    std::vector<double> up(idx(n), 0.0), down(idx(n), 0.0), v(idx(n), 0.0), acc(idx(n), 0.0);
    std::vector<double> q(idx(n)), qd(idx(n)), qdd(idx(n));
    for (int k = 0; k < points; ++k) {
      f.evaluate(T_ * k / points, q.data(), qd.data(), qdd.data());
      for (std::size_t j = 0; j < idx(n); ++j) {
        up[j] = std::max(up[j], q[j] - f.q0[j]);
        down[j] = std::max(down[j], f.q0[j] - q[j]);
        v[j] = std::max(v[j], std::abs(qd[j]));
        acc[j] = std::max(acc[j], std::abs(qdd[j]));
      }
    }
    for (std::size_t j = 0; j < idx(n); ++j) {
      const Limits& l = lim_[j];
      double s = std::numeric_limits<double>::infinity();
      if (up[j] > 0) s = std::min(s, (l.hi - f.q0[j]) / up[j]);
      if (down[j] > 0) s = std::min(s, (f.q0[j] - l.lo) / down[j]);
      if (v[j] > 0) s = std::min(s, l.v / v[j]);
      if (acc[j] > 0) s = std::min(s, l.a / acc[j]);
      if (!std::isfinite(s)) s = 0;
      for (int h = 0; h < L_; ++h) {
        f.a[j][idx(h)] *= margin_ * s;
        f.b[j][idx(h)] *= margin_ * s;
      }
    }
  }

  std::vector<Limits> lim_;
  int L_;
  double T_, margin_;
};

}  // namespace

void FourierTrajectory::evaluate(double t, double* q, double* qd, double* qdd) const {
  const double w = kTwoPi / period;
  for (int j = 0; j < dof(); ++j) {
    q[j] = q0[idx(j)], qd[j] = 0, qdd[j] = 0;
    for (int h = 0; h < harmonics(); ++h) {
      const double lw = (h + 1) * w, s = std::sin(lw * t), c = std::cos(lw * t);
      const double aj = a[idx(j)][idx(h)], bj = b[idx(j)][idx(h)];
      q[j] += (aj * s - bj * c) / lw;
      qd[j] += aj * c + bj * s;
      qdd[j] += lw * (bj * c - aj * s);
    }
  }
}

data::ArmSamples FourierTrajectory::sample(double rate, int periods) const {
  if (!(rate >= 1 && rate <= 1e5)) throw std::invalid_argument("rate: must be in [1, 1e5] Hz");
  if (periods < 1 || periods > 1000) throw std::invalid_argument("periods: must be in [1, 1000]");
  data::ArmSamples s;
  const int n = dof();
  s.q.assign(idx(n), {}), s.qd.assign(idx(n), {}), s.qdd.assign(idx(n), {});
  s.effort.assign(idx(n), {});
  const auto count = static_cast<long>(std::llround(period * periods * rate));
  std::vector<double> q(idx(n)), qd(idx(n)), qdd(idx(n));
  for (long k = 0; k < count; ++k) {
    const double t = static_cast<double>(k) / rate;
    evaluate(t, q.data(), qd.data(), qdd.data());
    s.t.push_back(t);
    for (int j = 0; j < n; ++j) {
      s.q[idx(j)].push_back(q[idx(j)]);
      s.qd[idx(j)].push_back(qd[idx(j)]);
      s.qdd[idx(j)].push_back(qdd[idx(j)]);
    }
  }
  return s;
}

ExcitationCheck check_excitation(const robot::RobotModel& model, const data::ArmSamples& samples,
                                 const RobotFitOptions& terms) {
  if (samples.dof() != model.dof())
    throw std::invalid_argument("the trajectory has " + std::to_string(samples.dof()) +
                                " joints, the robot " + std::to_string(model.dof()));
  const arm::Columns cols = arm::columns_of(model, terms);
  arm::FullRegressor full(model, cols);
  const arm::Base base = arm::find_base(full, cols, terms);
  const MatrixXd A = normal_matrix(full, base, samples);
  ExcitationCheck c;
  c.samples = static_cast<int>(samples.size());
  c.rank = static_cast<int>(base.independent.size());
  c.condition_number = condition_number(A);
  for (int i : base.independent) c.parameters.push_back(cols.names[idx(i)]);
  c.separation = separation(A);
  motion_figures(samples, c);
  flag(model, c);
  return c;
}

ExcitationDesign design_excitation(const robot::RobotModel& model,
                                   const ExcitationOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  check_options(options);
  const Decoder decoder(limits_of(model, options), options);
  const arm::Columns cols = arm::columns_of(model, options.terms);
  arm::FullRegressor probe(model, cols);
  const arm::Base base = arm::find_base(probe, cols, options.terms);
  // log10 of the condition number on one period at the design rate (each call has its own
  // regressor workspace: CMA-ES evaluates candidates on several threads).
  const auto objective = [&](const std::vector<double>& x) {
    arm::FullRegressor full(model, cols);
    return std::log10(
        condition_number(normal_matrix(full, base, decoder.decode(x).sample(options.design_rate))));
  };
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> x0(idx(decoder.dimension()));
  for (double& x : x0) x = u(rng);
  CmaesOptions co;
  co.seed = options.seed;
  co.max_evals = options.evaluations;
  co.max_seconds = options.max_seconds;
  co.threads = options.threads;
  const CmaesResult r = cmaes_minimize(objective, x0, co);
  ExcitationDesign d;
  d.trajectory = decoder.decode(r.x);
  d.start.resize(idx(model.dof()));
  std::vector<double> qd(d.start.size()), qdd(d.start.size());
  d.trajectory.evaluate(0, d.start.data(), qd.data(), qdd.data());
  d.check = check_excitation(model, d.trajectory.sample(options.design_rate), options.terms);
  d.evaluations = r.evals;
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return d;
}

}  // namespace frictionlab::identify
