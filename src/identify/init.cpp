// frictionlab identify: data-driven initial guesses (docs/identification.md, "Initial guess").
//
//  1. Static curve: linear least squares for [Km,] Fc, Fs - Fc, sigma2 on near-steady samples
//     (SteadySelection), with vs and alpha scanned on a grid (the model is linear in the
//     levels once vs and alpha are fixed).
//  2. Dynamic parameters: scans by simulation (sigma0 x sigma1 for LuGre and elasto-plastic,
//     sigma0 for Dahl, C for GMS); Maxwell-slip element stiffnesses by linear least squares
//     for a scanned geometric ladder of slip deflections (the element deflections depend on
//     Delta only, the force is linear in k).
#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/maxwell_slip.hpp"
#include "frictionlab/models/stribeck_curve.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "init.hpp"
#include "parallel.hpp"

namespace frictionlab::identify::detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct StaticSpec {
  bool sensorless = false;
  bool has_sigma2 = true;
  bool has_fc = true;
  bool has_fs = true;
  bool asym = false;
  StribeckShape shape = StribeckShape::exponential;
  std::optional<double> alpha;  ///< fixed exponent
};

struct StaticEst {
  double Km = kNaN, sigma2 = 0, Fc_pos = 0, Fc_neg = 0, Fs_pos = 0, Fs_neg = 0, vs = 1, alpha = 1;
  double ssr = std::numeric_limits<double>::infinity();
};

/// Linear least squares of the static model on samples idx, vs and alpha scanned. A (vs, alpha)
/// pair is a candidate only if its Stribeck term is seen: at least kSeen of the samples (on each
/// side for an asymmetric curve) have a shape value s(|v|/vs) >= 0.05. Without that, a vs below
/// every sampled speed lets Fs - Fc grow without bound to fit a handful of samples (seen: Fs =
/// 1e8 Nm at vs = 1e-3 max|v| from 812 steady samples of a lugre-asym fit, a start whose
/// simulated cost was 1e12). When no pair is seen, every pair is a candidate.
///
/// The pairs are solved on up to `threads` threads; the columns that do not depend on the pair
/// are built and factorised once (F = Q R): a pair's columns C enter through their part
/// orthogonal to F, C' = C - Q Q^T C, whose 1 x 1 or 2 x 2 normal equations
/// C'^T C' b = C'^T y' (y' = y - Q Q^T y) give the Stribeck levels b and the sum of squares
/// |y' - C' b|^2; the other coefficients solve F a = y - C b (least squares). The same solution
/// as the QR of [F C]; a pair whose C' is not well determined (|C'_l| < 1e-6 |C_l|, or the 2 x 2
/// nearly singular), or a rank-deficient F, is solved by that QR. Every pair's sum of squares
/// comes from one pass of sums over the samples (no column kept; see `kNear` below), and the
/// pairs near the lowest are solved exactly. The pair chosen is the first of the lowest exact
/// sum of squares in the grid's order (vs, then alpha), whatever the number of threads.
class StaticFit {
 public:
  StaticFit(const FitData& d, const std::vector<long>& idx, const StaticSpec& s)
      : s_(s),
        m_(static_cast<long>(idx.size())),
        n_level_(s.has_fc ? (s.asym ? 2 : 1) : 0),
        n_fixed_((s.sensorless ? 1 : 0) + (s.has_sigma2 ? 1 : 0) + n_level_),
        nc_(n_fixed_ + (s.has_fs ? n_level_ : 0)) {
    grids(max_abs(d.v));
    columns(d, idx);
    factorise();
  }

  StaticEst run(int threads) {
    tabulate_powers();
    for_each_index(pairs_.size(), threads, [&](std::size_t j) {
      Pair& P = pairs_[j];
      if (!project_) return exact(P);
      fused(P, speed_pow_[j % alpha_grid_.size()]);
    });
    return choose();
  }

 private:
  static constexpr long kSeen = 10;
  // With the projection, a pair's sum of squares needs only products of its columns C with
  // what is fixed: G = C'^T C' = C^T C - (Q^T C)^T (Q^T C), C'^T y' = C^T y' (y' is orthogonal
  // to Q), b = G^-1 C^T y' and |y' - C' b|^2 = |y'|^2 - b^T C^T y', without C', the other
  // coefficients or the residual. It differs from the exact sum by rounding (relative to
  // |y'|^2, about 1e-16 times the number of samples); the pairs within kNear |y'|^2 of the
  // lowest are solved exactly before one is chosen, so the choice is the exact one. The shape
  // is evaluated on the whole column at once (Eigen's vectorised exp), its power
  // (|v|/vs)^alpha as |v|^alpha vs^-alpha with |v|^alpha once per sample and exponent.
  static constexpr double kNear = 1e-10;

  struct Pair {
    double vs = 1, alpha = 1;
    bool seen = true;
    bool fused = false;  ///< e.ssr from the pass's sums (within rounding), e's levels not set
    StaticEst e;         ///< ssr = inf when the solution is not finite
  };

  /// The (vs, alpha) grid: vs from 1e-3 to 1 max|v| in tenths of a decade, alpha fixed or
  /// scanned; one pair (1, 1) without a Stribeck term.
  void grids(double vmax) {
    std::vector<double> vs_grid{1.0};
    alpha_grid_ = {1.0};
    if (s_.has_fs) {
      vs_grid.clear();
      for (int j = 0; j <= 30; ++j) vs_grid.push_back(vmax * std::pow(10.0, -3.0 + 0.1 * j));
      if (s_.alpha)
        alpha_grid_ = {*s_.alpha};
      else
        alpha_grid_ = {0.5, 0.75, 1.0, 1.5, 2.0};
    }
    for (double vs : vs_grid)
      for (double alpha : alpha_grid_) pairs_.push_back({vs, alpha, true, false, {}});
  }

  /// Columns: [Km: i] [sigma2: sign v] [Fc: sign sgn(v) | the two sides] [Fs - Fc: the same
  /// times s(|v|/vs)]; only the last 1 (2 asymmetric) depend on (vs, alpha).
  void columns(const FitData& d, const std::vector<long>& idx) {
    const double sign = s_.sensorless ? -1.0 : 1.0;  // friction enters the torque with a minus
    fixed_.resize(m_, n_fixed_);
    y_.resize(m_);
    speed_.resize(m_);
    sgn_.resize(m_);
    for (long r = 0; r < m_; ++r) {
      const auto k = static_cast<std::size_t>(idx[static_cast<std::size_t>(r)]);
      const double v = d.v[k];
      y_(r) = d.y[k];
      speed_(r) = std::abs(v);
      sgn_(r) = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
      int c = 0;
      if (s_.sensorless) fixed_(r, c++) = d.i[k];
      if (s_.has_sigma2) fixed_(r, c++) = sign * v;
      if (s_.has_fc) {
        if (s_.asym) {
          fixed_(r, c++) = v > 0 ? sign : 0.0;
          fixed_(r, c++) = v < 0 ? -sign : 0.0;
        } else {
          fixed_(r, c++) = sign * sgn_(r);
        }
      }
    }
  }

  /// The pair-independent columns factorised once (see fit_static's comment).
  void factorise() {
    fqr_.compute(fixed_);
    project_ = s_.has_fs && n_level_ > 0 && n_fixed_ > 0 && fqr_.rank() == n_fixed_;
    if (project_) {
      Q_ = fqr_.householderQ() * Eigen::MatrixXd::Identity(m_, n_fixed_);
      y_perp_ = y_ - Q_ * (Q_.transpose() * y_);
      yy_perp_ = y_perp_.squaredNorm();
    }
  }

  /// The projected solution of a pair's columns C (m x n_level): x = [a; b], false if C' is
  /// not well determined.
  bool solve_projected(const Eigen::MatrixXd& C, Eigen::VectorXd& x, double& ssr) const {
    const Eigen::MatrixXd Cp = C - Q_ * (Q_.transpose() * C);
    for (int l = 0; l < n_level_; ++l)
      if (!(Cp.col(l).squaredNorm() >= 1e-12 * C.col(l).squaredNorm()) ||
          C.col(l).squaredNorm() == 0)
        return false;
    const Eigen::MatrixXd G = Cp.transpose() * Cp;
    if (n_level_ == 2 && !(G(0, 0) * G(1, 1) - G(0, 1) * G(1, 0) >= 1e-12 * G(0, 0) * G(1, 1)))
      return false;
    const Eigen::VectorXd b = G.ldlt().solve(Cp.transpose() * y_perp_);
    x.resize(nc_);
    x.head(n_fixed_) = fqr_.solve(y_ - C * b);
    x.tail(n_level_) = b;
    ssr = (y_perp_ - Cp * b).squaredNorm();
    return true;
  }

  /// The pair's solution and sum of squares, exactly (the projection or the QR of [F C]).
  void exact(Pair& P) const {
    StribeckCurve<double> curve;  // only its shape and exponent matter here
    curve.shape = s_.shape;
    curve.alpha = P.alpha;
    Eigen::MatrixXd C(m_, s_.has_fs ? n_level_ : 0);
    long seen_pos = 0, seen_neg = 0;
    if (s_.has_fs) {
      for (long r = 0; r < m_; ++r) {
        const double phi = stribeck_shape_of_ratio(curve, speed_(r) / P.vs);
        for (int l = 0; l < n_level_; ++l) C(r, l) = fixed_(r, n_fixed_ - n_level_ + l) * phi;
        if (phi >= 0.05 && sgn_(r) != 0) (sgn_(r) > 0 ? seen_pos : seen_neg) += 1;
      }
      P.seen = (s_.asym ? std::min(seen_pos, seen_neg) : seen_pos + seen_neg) >= kSeen;
    }
    P.fused = false;
    P.e = StaticEst{};
    Eigen::VectorXd x;
    double ssr = 0;
    if (!project_ || !solve_projected(C, x, ssr)) {
      Eigen::MatrixXd A(m_, nc_);
      A.leftCols(n_fixed_) = fixed_;
      A.rightCols(C.cols()) = C;
      x = A.colPivHouseholderQr().solve(y_);
      ssr = (A * x - y_).squaredNorm();
    }
    if (!x.allFinite() || !std::isfinite(ssr)) return;
    store_levels(P, x, ssr);
  }

  /// The pair's estimate from the solution x = [a; b] and its sum of squares.
  void store_levels(Pair& P, const Eigen::VectorXd& x, double ssr) const {
    StaticEst& e = P.e;
    e.ssr = ssr;
    e.vs = P.vs;
    e.alpha = P.alpha;
    int c = 0;
    if (s_.sensorless) e.Km = x(c++);
    if (s_.has_sigma2) e.sigma2 = x(c++);
    if (s_.has_fc) {
      if (s_.asym) {
        e.Fc_pos = x(c++);
        e.Fc_neg = x(c++);
        e.Fs_pos = e.Fc_pos + (s_.has_fs ? x(c++) : 0.0);
        e.Fs_neg = e.Fc_neg + (s_.has_fs ? x(c++) : 0.0);
      } else {
        e.Fc_pos = e.Fc_neg = x(c++);
        e.Fs_pos = e.Fs_neg = e.Fc_pos + (s_.has_fs ? x(c++) : 0.0);
      }
    }
  }

  /// |v|^alpha for each alpha of the grid, the Stribeck columns' factors and the sides (the
  /// fused pass's inputs; with the projection only).
  void tabulate_powers() {
    speed_pow_.resize(alpha_grid_.size());
    if (!project_) return;
    for (std::size_t a = 0; a < alpha_grid_.size(); ++a)
      speed_pow_[a] =
          speed_.array().unaryExpr([&](double x) { return pow_exponent(x, alpha_grid_[a]); });
    level_cols_ = fixed_.rightCols(n_level_);
    pos_side_ = (sgn_.array() > 0).cast<double>();
    neg_side_ = (sgn_.array() < 0).cast<double>();
  }

  /// The pair's sum of squares from one pass of sums (kNear), or exact() when its C' is not
  /// well determined. `sp`: |v|^alpha for the pair's alpha.
  void fused(Pair& P, const Eigen::ArrayXd& sp) const {
    const double inv = 1.0 / pow_exponent(P.vs, P.alpha);
    // The shape s(ra) (stribeck_curve.hpp; exp(-ra) is 0 beyond kZeroBeyond), and the sums,
    // by chunks of kChunk samples that stay in the first-level cache (whole columns made the
    // pass memory-bound).
    constexpr double kZeroBeyond = exp_neg_zero_beyond<double>();
    constexpr long kChunk = 512;
    using Chunk = Eigen::Array<double, Eigen::Dynamic, 1, 0, kChunk, 1>;
    Eigen::Matrix2d CtC = Eigen::Matrix2d::Zero(), QtCtQtC = Eigen::Matrix2d::Zero();
    Eigen::Vector2d cy = Eigen::Vector2d::Zero();
    Eigen::MatrixXd QtC = Eigen::MatrixXd::Zero(n_fixed_, n_level_);
    double seen_pos = 0, seen_neg = 0;
    for (long k0 = 0; k0 < m_; k0 += kChunk) {
      const long len = std::min(kChunk, m_ - k0);
      Chunk phi(len);
      if (s_.shape == StribeckShape::exponential) {
        for (long i = 0; i < len; ++i) {
          const double ra = sp(k0 + i) * inv;
          phi(i) = ra > kZeroBeyond ? 0.0 : std::exp(-ra);
        }
      } else {
        phi = 1.0 / (1.0 + sp.segment(k0, len) * inv);
      }
      const Chunk shown = (phi >= 0.05).cast<double>();
      seen_pos += (shown * pos_side_.segment(k0, len)).sum();
      seen_neg += (shown * neg_side_.segment(k0, len)).sum();
      std::array<Chunk, 2> C;
      for (int l = 0; l < n_level_; ++l) {
        C[l] = level_cols_.col(l).segment(k0, len).array() * phi;
        QtC.col(l).noalias() += Q_.middleRows(k0, len).transpose() * C[l].matrix();
        cy(l) += C[l].matrix().dot(y_perp_.segment(k0, len));
        for (int l2 = 0; l2 <= l; ++l2) CtC(l, l2) += (C[l] * C[l2]).sum();
      }
    }
    P.seen = (s_.asym ? std::min(seen_pos, seen_neg) : seen_pos + seen_neg) >= kSeen;
    for (int l = 0; l < n_level_; ++l)
      for (int l2 = 0; l2 <= l; ++l2) {
        CtC(l2, l) = CtC(l, l2);
        QtCtQtC(l, l2) = QtCtQtC(l2, l) = QtC.col(l).dot(QtC.col(l2));
      }
    const Eigen::Matrix2d G2 = CtC - QtCtQtC;
    const auto G = G2.topLeftCorner(n_level_, n_level_);
    bool determined = true;
    for (int l = 0; l < n_level_; ++l)
      determined = determined && G(l, l) >= 1e-12 * CtC(l, l) && CtC(l, l) != 0;
    if (n_level_ == 2)
      determined = determined && G(0, 0) * G(1, 1) - G(0, 1) * G(1, 0) >= 1e-12 * G(0, 0) * G(1, 1);
    if (!determined) return exact(P);  // the QR of [F C] (as solve_projected's callers do)
    const double ssr =
        yy_perp_ - (n_level_ == 1 ? cy(0) * cy(0) / G(0, 0) : G2.ldlt().solve(cy).dot(cy));
    P.fused = true;
    P.e.ssr = std::isfinite(ssr) ? ssr : std::numeric_limits<double>::infinity();
  }

  /// The first pair of the lowest exact sum of squares among the seen pairs (else among all),
  /// the fused ones near the lowest solved exactly first.
  StaticEst choose() {
    StaticEst best;
    for (const bool require_seen : {true, false}) {
      if (require_seen && !s_.has_fs) continue;
      double lowest = std::numeric_limits<double>::infinity();
      for (const auto& P : pairs_)
        if (P.seen || !require_seen) lowest = std::min(lowest, P.e.ssr);
      if (!std::isfinite(lowest)) continue;
      for (auto& P : pairs_)
        if ((P.seen || !require_seen) && P.fused && P.e.ssr <= lowest + kNear * yy_perp_) exact(P);
      for (const auto& P : pairs_)
        if ((P.seen || !require_seen) && !P.fused && P.e.ssr < best.ssr) best = P.e;
      if (std::isfinite(best.ssr)) break;
    }
    return best;
  }

  const StaticSpec& s_;
  const long m_;
  const int n_level_, n_fixed_, nc_;
  std::vector<double> alpha_grid_;
  std::vector<Pair> pairs_;
  Eigen::MatrixXd fixed_;
  Eigen::VectorXd y_, speed_, sgn_;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> fqr_;
  bool project_ = false;
  Eigen::MatrixXd Q_;
  Eigen::VectorXd y_perp_;
  double yy_perp_ = 0;
  std::vector<Eigen::ArrayXd> speed_pow_;
  Eigen::MatrixXd level_cols_;          // the Stribeck columns' factors (sign or side), m x n_level
  Eigen::ArrayXd pos_side_, neg_side_;  // 1 where v > 0 (v < 0)
};

/// The static curve's least squares on samples idx with (vs, alpha) scanned (StaticFit).
StaticEst fit_static(const FitData& d, const std::vector<long>& idx, const StaticSpec& s,
                     int threads) {
  return StaticFit(d, idx, s).run(threads);
}

/// Samples near steady sliding (SteadySelection): |v| >= v_min, at least settle_s after the last
/// velocity reversal and at least `travel` [m | rad] of displacement after it, and a velocity
/// that changes by at most rel_change over settle_s. Falls back to |v| >= v_min only, then to
/// all samples, when fewer than `need` qualify.
std::vector<long> steady_samples(const FitData& d, const SteadySelection& sel, long need,
                                 double travel) {
  // One pass, the acceleration (signal::derivative_at) and the position (trapezoid_step) formed as
  // it goes; the fallbacks are listed only when they are needed (a fit's record: no arrays of its
  // length besides the result).
  const long n = d.n();
  const double vmax = max_abs(d.v);
  const auto moving = [&](long k) {
    return std::abs(d.v[static_cast<std::size_t>(k)]) >= sel.v_min_frac * vmax;
  };
  std::vector<long> idx;
  double t_rev = d.t.front() - 1e300, x = 0, x_rev = 0;
  int last = 0;
  for (long k = 0; k < n; ++k) {
    const auto uk = static_cast<std::size_t>(k);
    if (k > 0) x += signal::trapezoid_step(d.t, d.v, uk);
    const int sg = d.v[uk] > 0 ? 1 : (d.v[uk] < 0 ? -1 : 0);
    if (sg != 0 && last != 0 && sg != last) {
      t_rev = d.t[uk];
      x_rev = x;
    }
    if (sg != 0) last = sg;
    if (k < d.first || !moving(k)) continue;
    if (std::abs(signal::derivative_at(d.t, d.v, uk)) * sel.settle_s <=
            sel.rel_change * std::abs(d.v[uk]) &&
        d.t[uk] - t_rev >= sel.settle_s && std::abs(x - x_rev) >= travel)
      idx.push_back(k);
  }
  if (static_cast<long>(idx.size()) >= need) return idx;
  std::vector<long> fallback;
  for (long k = d.first; k < n; ++k)
    if (moving(k)) fallback.push_back(k);
  if (static_cast<long>(fallback.size()) >= need) return fallback;
  std::vector<long> all(static_cast<std::size_t>(std::max(0L, n - d.first)));
  std::iota(all.begin(), all.end(), d.first);
  return all;
}

/// Median travel between velocity reversals (the whole travel range if fewer than 2).
double travel_scale(const FitData& d) {
  const auto x = signal::cumulative_trapezoid(d.t, d.v);
  const double thr = 1e-3 * max_abs(d.v);
  std::vector<double> legs;
  double x_last = x.front();
  int last = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const int sg = d.v[k] > thr ? 1 : (d.v[k] < -thr ? -1 : 0);
    if (sg != 0 && last != 0 && sg != last) {
      legs.push_back(std::abs(x[k] - x_last));
      x_last = x[k];
    }
    if (sg != 0) last = sg;
  }
  if (legs.size() >= 2) return median(legs);
  const auto [mn, mx] = std::minmax_element(x.begin(), x.end());
  return std::max(*mx - *mn, 1e-12);
}

/// The cost of candidate parameter sets by simulation (the scans below), with the exact step for
/// a velocity held over each sample interval (Hold::zoh: a coarse scan needs no second-order
/// accuracy, and the held step costs a fraction of the linear one). Candidates that differ only
/// in a force-affine parameter (Family::force_affine: LuGre's sigma1) are one simulation, which
/// gives each of their sums (Family::start_ssr). The simulations of one scan are independent:
/// they run on up to `threads` threads. A simulation stops once its lowest partial sum of
/// squares exceeds the lowest full sum so far (none of its candidates can be the best); the
/// best candidate and its sum do not depend on the number of threads. A scan that runs longer
/// than a second reports how many simulations are done and the time left.
class Scanner {
 public:
  Scanner(const Family& fam, const FitData& d, const Progress& progress, int threads)
      : fam_(fam), d_(d), progress_(progress), threads_(resolve_threads(threads)) {}
  /// Sums of squared residuals for natural values `trials[j]`: exact for the lowest (and any
  /// whose simulation was not stopped), inf for a candidate stopped above the best or not
  /// finite. `affine`: the index of a parameter the trials may differ in and still share a
  /// simulation (-1: none; ignored unless the family says it is force-affine).
  /// `keep_below`: a sum the caller keeps instead of the best candidate unless that is lower (a
  /// simulation above it stops early too: inf). Every simulation's first kSsrChunk samples are
  /// simulated first; the simulations are then finished in the order of those partial sums, the
  /// most promising first, so that the lowest complete sum so far - the bound that stops the
  /// others - is low from the start. A simulation is stopped only once its lowest partial sum
  /// exceeds a complete one (partial sums only grow): the lowest sum, and the first candidate
  /// that has it, are those of the complete scan whatever the order and the threads.
  std::vector<double> ssr(const std::vector<std::vector<double>>& trials, const std::string& what,
                          double keep_below = std::numeric_limits<double>::infinity(),
                          int affine = -1) const {
    using clock = std::chrono::steady_clock;
    constexpr double inf = std::numeric_limits<double>::infinity();
    const auto t0 = clock::now();
    auto last = t0;
    // The simulations: trials equal but for the affine parameter, in the order of their first.
    if (!fam_.force_affine(affine)) affine = -1;
    const auto same_but_affine = [affine](const std::vector<double>& a,
                                          const std::vector<double>& b) {
      for (std::size_t i = 0; i < a.size(); ++i)
        if (static_cast<int>(i) != affine &&
            !(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
          return false;
      return true;
    };
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t j = 0; j < trials.size(); ++j) {
      bool placed = false;
      if (affine >= 0)
        for (auto& g : groups)
          if (same_but_affine(trials[g.front()], trials[j])) {
            g.push_back(j);
            placed = true;
            break;
          }
      if (!placed) groups.push_back({j});
    }
    const std::size_t n = groups.size();
    std::vector<double> out(trials.size(), inf), probe(n, inf);
    std::vector<std::unique_ptr<SsrRun>> runs(n);
    for_each_index(n, threads_, [&](std::size_t j) {
      progress_.check();
      const auto& g = groups[j];
      const auto th = fam_.to_internal(trials[g.front()]);
      if (g.size() == 1) {
        runs[j] = fam_.start_ssr(th.data(), d_, Method::exact, Hold::zoh);
      } else {
        std::vector<double> values;
        for (std::size_t t : g) values.push_back(trials[t][static_cast<std::size_t>(affine)]);
        runs[j] = fam_.start_ssr(th.data(), d_, Method::exact, Hold::zoh, affine, values);
      }
      const double s = runs[j]->advance(Family::kSsrChunk);
      probe[j] = std::isnan(s) ? inf : s;
    });
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&probe](std::size_t a, std::size_t b) { return probe[a] < probe[b]; });
    std::atomic<std::size_t> done{0};
    std::mutex report_mutex;
    std::atomic<double> best{keep_below};
    for_each_index(n, threads_, [&](std::size_t i) {
      const std::size_t j = order[i];
      SsrRun& run = *runs[j];
      double s = probe[j];
      bool stopped = false;
      while (true) {
        if (!(s <= best.load())) {
          stopped = true;
          break;
        }
        if (run.done() >= d_.n()) break;
        progress_.check();
        s = run.advance(run.done() + Family::kSsrChunk);
      }
      double lowest = inf;
      for (std::size_t c = 0; c < groups[j].size(); ++c) {
        const double sc = run.sums()[c];
        const double o = stopped || std::isnan(sc) ? inf : sc;
        out[groups[j][c]] = o;
        lowest = std::min(lowest, o);
      }
      runs[j].reset();
      for (double b = best.load(); lowest < b && !best.compare_exchange_weak(b, lowest);) {
      }
      const std::size_t n_done = ++done;
      if (!progress_.report) return;
      const std::lock_guard<std::mutex> lock(report_mutex);
      const auto now = clock::now();
      if (now - last < std::chrono::seconds(1) || n_done == n) return;
      last = now;
      const double elapsed = std::chrono::duration<double>(now - t0).count();
      const double left = elapsed / static_cast<double>(n_done) * static_cast<double>(n - n_done);
      progress_.say("initial guess: " + what + ", " + std::to_string(n_done) + " of " +
                    std::to_string(n) + " simulations, about " + format_number(left, 2) +
                    " s left");
    });
    return out;
  }

 private:
  const Family& fam_;
  const FitData& d_;
  const Progress& progress_;
  int threads_ = 1;
};

bool is_free(const std::vector<double>& nat, int i) {
  return i >= 0 && std::isnan(nat[static_cast<std::size_t>(i)]);
}

void set_if_free(std::vector<double>& nat, int i, double value) {
  if (is_free(nat, i)) nat[static_cast<std::size_t>(i)] = value;
}

/// Maxwell-slip ladder: Delta_i = D 3^(i-n+1); k and sigma2 (and Km) by linear least squares.
struct Ladder {
  std::vector<double> k, Delta;
  double sigma2 = 0, Km = kNaN, ssr = std::numeric_limits<double>::infinity();
};

Ladder maxwell_ladder(const FitData& d, int n, bool with_sigma2) {
  using M = MaxwellSlip<double, kMaxFitElements>;
  const double X = travel_scale(d);
  const long m = d.m();
  Ladder best;
  const double sign = d.sensorless ? -1.0 : 1.0;
  for (int j = 0; j <= 12; ++j) {
    const double D = X * std::pow(10.0, -j / 3.0);
    M::Params p;
    p.n = n;
    for (int i = 0; i < n; ++i) {
      p.k[static_cast<std::size_t>(i)] = 1;
      p.Delta[static_cast<std::size_t>(i)] = D * std::pow(3.0, i - n + 1);
    }
    const int nc = n + (with_sigma2 ? 1 : 0) + (d.sensorless ? 1 : 0);
    Eigen::MatrixXd A(m, nc);
    Eigen::VectorXd y(m);
    M::State x{};
    for (long k = 0; k < d.n(); ++k) {
      const auto uk = static_cast<std::size_t>(k);
      if (k >= d.first) {
        const long r = k - d.first;
        int c = 0;
        if (d.sensorless) A(r, c++) = d.i[uk];
        if (with_sigma2) A(r, c++) = sign * d.v[uk];
        for (int i = 0; i < n; ++i) A(r, c++) = sign * x.z[static_cast<std::size_t>(i)];
        y(r) = d.y[uk];
      }
      if (k + 1 < d.n())
        x = advance<M>(p, x, d.v[uk], d.v[uk + 1], d.t[uk + 1] - d.t[uk], Method::exact, d.hold);
    }
    const Eigen::VectorXd sol = A.colPivHouseholderQr().solve(y);
    const double ssr = (A * sol - y).squaredNorm();
    if (!(ssr < best.ssr) || !sol.allFinite()) continue;
    Ladder L;
    L.ssr = ssr;
    int c = 0;
    if (d.sensorless) L.Km = sol(c++);
    if (with_sigma2) L.sigma2 = std::max(0.0, sol(c++));
    double kmax = 0;
    for (int i = 0; i < n; ++i) {
      L.k.push_back(sol(c++));
      L.Delta.push_back(p.Delta[static_cast<std::size_t>(i)]);
      kmax = std::max(kmax, L.k.back());
    }
    if (!(kmax > 0)) continue;
    for (auto& ki : L.k) ki = std::max(ki, 1e-3 * kmax);
    best = L;
  }
  if (best.k.empty()) {
    // Degenerate record: equal stiffnesses carrying the mean |y|.
    double ybar = 0;
    for (double e : d.y) ybar += std::abs(e);
    ybar = std::max(ybar / static_cast<double>(d.y.size()), 1e-12);
    for (int i = 0; i < n; ++i) {
      best.Delta.push_back(X * 0.1 * std::pow(3.0, i - n + 1));
      best.k.push_back(ybar / n / best.Delta.back());
    }
  }
  return best;
}

}  // namespace

namespace {

/// The initial guess's steps over the natural vector `nat` (initial_guess): the static curve
/// by least squares, then the dynamic parameters by the model's strategy (FitInit).
class InitialGuess {
 public:
  InitialGuess(const Family& fam, const ModelChoice& model, const FitData& d,
               std::vector<double> nat, const Progress& progress, int threads)
      : fam_(fam),
        model_(model),
        d_(d),
        progress_(progress),
        threads_(threads),
        nat_(std::move(nat)),
        given_(nat_),
        ymax_(std::max(max_abs(d.y), 1e-12)),
        strategy_(init_strategy(model)),
        static_kind_(!is_dynamic(model)),
        spec_(static_spec()),
        need_static_(needs_static()) {}

  std::vector<double> run(const SteadySelection& sel) {
    if (static_kind_) {
      std::vector<long> idx;
      for (long k = d_.first; k < d_.n(); ++k) idx.push_back(k);
      if (need_static_) static_fit(idx);
      return nat_;
    }
    const Scanner scan(fam_, d_, progress_, threads_);
    travel_ = travel_scale(d_);
    switch (strategy_) {
      case FitInit::bristle:
        bristle_passes(scan, sel);
        break;
      case FitInit::maxwell_ladder:
      case FitInit::gms_ladder:
        if (need_static_) static_fit(steady_samples(d_, sel, 50, 0.0));
        ladder(scan);
        break;
      case FitInit::static_curve:
        break;
    }
    fill_neutral();
    return nat_;
  }

 private:
  /// sigma0 (x sigma1) scan's best point: its pre-sliding displacement gmax/sigma0 and its sum
  /// of squares.
  struct ScanBest {
    double zss = kNaN, ssr = std::numeric_limits<double>::infinity();
  };

  int idx_of(const char* f) const { return fam_.index(f); }

  StaticSpec static_spec() const {
    StaticSpec s;
    s.sensorless = d_.sensorless;
    s.asym = model_.asymmetric;
    s.shape = model_.shape;
    s.has_sigma2 = fam_.index("sigma2") >= 0 && strategy_ != FitInit::maxwell_ladder;
    s.has_fc = idx_of("Fc") >= 0 || idx_of("Fc_pos") >= 0;
    s.has_fs = idx_of("vs") >= 0;
    if (const int ia = idx_of("alpha"); ia >= 0 && !is_free(nat_, ia))
      s.alpha = nat_[static_cast<std::size_t>(ia)];
    return s;
  }

  /// Whether a static parameter is to be initialised (not with a ladder: its fit sets Km).
  bool needs_static() const {
    bool need = false;
    for (int i = 0; i < fam_.size(); ++i)
      if (fam_.info()[static_cast<std::size_t>(i)].is_static && is_free(given_, i)) need = true;
    if (strategy_ == FitInit::maxwell_ladder) need = false;
    return need;
  }

  /// Static least squares on samples `idx`; overwrites the static values that were not given.
  void static_fit(const std::vector<long>& idx) {
    const StaticEst e = fit_static(d_, idx, spec_, threads_);
    if (progress_.report)
      progress_.say("initial guess: static least squares on " + std::to_string(idx.size()) +
                    " samples (vs, alpha scanned)");
    const bool positive_levels = !static_kind_;  // log-parameterised levels must be > 0
    auto level = [&](double x) {
      if (positive_levels) return std::max(std::abs(x), 1e-3 * ymax_);
      return std::max(x, 0.0);
    };
    auto put = [&](const char* f, double x) {
      const int i = idx_of(f);
      if (is_free(given_, i)) nat_[static_cast<std::size_t>(i)] = x;
    };
    if (d_.sensorless) put("Km", std::max(std::abs(e.Km), 1e-12));
    put("sigma2", std::max(e.sigma2, 0.0));
    put("Fc", level(e.Fc_pos));
    put("Fs", level(e.Fs_pos));
    put("Fc_pos", level(e.Fc_pos));
    put("Fc_neg", level(e.Fc_neg));
    put("Fs_pos", level(e.Fs_pos));
    put("Fs_neg", level(e.Fs_neg));
    put("vs", e.vs);
    put("alpha", e.alpha);
  }

  /// The mean of the friction levels set so far (ymax if none).
  double level_mean() const {
    double g = 0;
    int c = 0;
    for (const char* f : {"Fc", "Fs", "Fc_pos", "Fc_neg", "Fs_pos", "Fs_neg"}) {
      const int i = idx_of(f);
      if (i >= 0 && !std::isnan(nat_[static_cast<std::size_t>(i)])) {
        g += nat_[static_cast<std::size_t>(i)];
        ++c;
      }
    }
    return c ? g / c : ymax_;
  }

  /// The largest friction level set so far (ymax if none is positive).
  double level_max() const {
    double g = 0;
    for (const char* f : {"Fc", "Fs", "Fc_pos", "Fc_neg", "Fs_pos", "Fs_neg"}) {
      const int i = idx_of(f);
      if (i >= 0 && !std::isnan(nat_[static_cast<std::size_t>(i)]))
        g = std::max(g, nat_[static_cast<std::size_t>(i)]);
    }
    return g > 0 ? g : ymax_;
  }

  /// sigma0 (x sigma1) scan for LuGre / elasto-plastic / Dahl; sets the best point.
  /// keep_below: the sum of a result the caller keeps unless this scan finds a lower one (the
  /// candidates above it stop early).
  ScanBest bristle_scan(const Scanner& scan, double keep_below) {
    const int i0 = idx_of("sigma0"), i1 = idx_of("sigma1");
    set_if_free(nat_, idx_of("z_ba_logit"), 0.0);
    set_if_free(nat_, idx_of("n"), 1.0);
    const bool free0 = is_free(given_, i0), free1 = i1 >= 0 && is_free(given_, i1);
    const double X = travel_;
    std::vector<double> s0c, tau{kNaN};
    if (free0) {
      for (int j = 1; j <= 10; ++j) s0c.push_back(level_mean() / (X * std::pow(10.0, -0.5 * j)));
    } else {
      s0c.push_back(nat_[static_cast<std::size_t>(i0)]);
    }
    if (free1) tau = {0, 1e-4, 1e-3, 1e-2};
    double best = std::numeric_limits<double>::infinity();
    std::vector<double> best_nat;
    std::vector<std::vector<double>> trials;
    for (double s0 : s0c) {
      for (double tc : tau) {
        auto trial = nat_;
        trial[static_cast<std::size_t>(i0)] = s0;
        if (free1) trial[static_cast<std::size_t>(i1)] = s0 * tc;
        trials.push_back(std::move(trial));
      }
    }
    const std::vector<double> costs = scan.ssr(
        trials, std::string("sigma0") + (free1 ? " x sigma1" : "") + " scan", keep_below, i1);
    for (std::size_t j = 0; j < trials.size(); ++j)
      if (costs[j] < best) {
        best = costs[j];
        best_nat = trials[j];
      }
    if (best_nat.empty()) {
      best_nat = nat_;
      best_nat[static_cast<std::size_t>(i0)] = s0c[s0c.size() / 2];
      if (free1) best_nat[static_cast<std::size_t>(i1)] = 0;
    }
    nat_ = best_nat;
    if (progress_.report)
      progress_.say("initial guess: sigma0" + std::string(free1 ? " x sigma1" : "") + " scan (" +
                    std::to_string(s0c.size() * tau.size()) + " candidates" +
                    (free1 && fam_.force_affine(i1)
                         ? ", " + std::to_string(s0c.size()) + " simulations"
                         : std::string()) +
                    ")");
    return ScanBest{level_max() / nat_[static_cast<std::size_t>(i0)], best};
  }

  /// Two passes: static curve on near-steady samples, bristle scan; then the static curve
  /// again on samples at least 5 pre-sliding displacements (5 gmax/sigma0) past the last
  /// reversal, where the bristle state has settled to within exp(-5), and the scan again.
  /// The pass whose result simulates better is kept (with few slow plateaus the second
  /// selection can leave the Stribeck region nearly empty): the second scan stops every
  /// candidate above the first pass's sum.
  void bristle_passes(const Scanner& scan, const SteadySelection& sel) {
    if (need_static_) static_fit(steady_samples(d_, sel, 50, 0.0));
    const ScanBest one = bristle_scan(scan, std::numeric_limits<double>::infinity());
    if (need_static_) {
      const auto first = nat_;
      static_fit(steady_samples(d_, sel, 50, 5 * one.zss));
      const ScanBest second = bristle_scan(scan, one.ssr);
      if (!(second.ssr <= one.ssr)) nat_ = first;
    }
  }

  /// Maxwell-slip / GMS: the elements from the ladder fit (maxwell_ladder), and for GMS the
  /// weights from the slip forces and C by a scan.
  void ladder(const Scanner& scan) {
    const int n = model_.elements;
    const bool gms = strategy_ == FitInit::gms_ladder;
    const Ladder L = maxwell_ladder(d_, n, !gms);
    if (progress_.report) progress_.say("initial guess: Maxwell-slip ladder scan (13 simulations)");
    if (d_.sensorless && is_free(nat_, idx_of("Km")))
      nat_[static_cast<std::size_t>(idx_of("Km"))] = std::max(std::abs(L.Km), 1e-12);
    if (!gms) set_if_free(nat_, idx_of("sigma2"), L.sigma2);
    double wsum = 0;
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      set_if_free(nat_, idx_of(("k[" + std::to_string(i) + "]").c_str()), L.k[ui]);
      if (!gms) {
        const double inc = i == 0 ? L.Delta[0] : L.Delta[ui] - L.Delta[ui - 1];
        set_if_free(nat_, idx_of(("dDelta[" + std::to_string(i) + "]").c_str()), inc);
      }
      wsum += L.k[ui] * L.Delta[ui];
    }
    if (gms) {
      gms_weights(L, n, wsum);
      gms_c_scan(scan);
    }
  }

  /// nu_i proportional to the slip forces k_i Delta_i; softmax weights w_i = ln(nu_i/nu_n).
  void gms_weights(const Ladder& L, int n, double wsum) {
    const auto un = static_cast<std::size_t>(n - 1);
    const double last = L.k[un] * L.Delta[un] / wsum;
    for (int i = 0; i + 1 < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const double nu = L.k[ui] * L.Delta[ui] / wsum;
      set_if_free(nat_, idx_of(("w[" + std::to_string(i) + "]").c_str()),
                  std::log(std::max(nu, 1e-6) / std::max(last, 1e-6)));
    }
  }

  /// GMS's C: the best of the mean level times 1 .. 1e4.
  void gms_c_scan(const Scanner& scan) {
    const int ic = idx_of("C");
    if (!is_free(nat_, ic)) return;
    double best = std::numeric_limits<double>::infinity();
    double cb = level_mean() * 100;
    std::vector<std::vector<double>> trials;
    for (double f : {1.0, 10.0, 100.0, 1000.0, 10000.0}) {
      trials.push_back(nat_);
      trials.back()[static_cast<std::size_t>(ic)] = level_mean() * f;
    }
    const std::vector<double> costs = scan.ssr(trials, "C scan");
    for (std::size_t j = 0; j < trials.size(); ++j)
      if (costs[j] < best) {
        best = costs[j];
        cb = trials[j][static_cast<std::size_t>(ic)];
      }
    nat_[static_cast<std::size_t>(ic)] = cb;
  }

  /// Anything still unset (should not happen): a neutral value.
  void fill_neutral() {
    for (int i = 0; i < fam_.size(); ++i) {
      auto& x = nat_[static_cast<std::size_t>(i)];
      if (std::isnan(x))
        x = fam_.info()[static_cast<std::size_t>(i)].tf == FitScale::log ? 1.0 : 0.0;
    }
  }

  const Family& fam_;
  const ModelChoice& model_;
  const FitData& d_;
  const Progress& progress_;
  const int threads_;
  std::vector<double> nat_;
  const std::vector<double> given_;  ///< NaN: to be initialised
  const double ymax_;
  const FitInit strategy_;
  const bool static_kind_;
  const StaticSpec spec_;
  const bool need_static_;
  double travel_ = 0;  ///< travel_scale(d_), for the dynamic parameters' scans [m | rad]
};

}  // namespace

std::vector<double> initial_guess(const Family& fam, const ModelChoice& model, const FitData& d,
                                  const SteadySelection& sel, std::vector<double> nat,
                                  const Progress& progress, int threads) {
  return InitialGuess(fam, model, d, std::move(nat), progress, threads).run(sel);
}

}  // namespace frictionlab::identify::detail
