// frictionlab identify: the statistics at an optimum shared by every method (statistics.hpp;
// docs/identification.md, "Results").
#include "statistics.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/stats.hpp"
#include "parallel.hpp"

namespace frictionlab::identify::detail {

Eigen::MatrixXd normal_matrix(const Eigen::Ref<const RowMatrix>& J, int threads) {
  constexpr Eigen::Index kRows = 4096;  // rows per block
  const Eigen::Index m = J.rows(), p = J.cols();
  const auto blocks = static_cast<std::size_t>(std::max<Eigen::Index>(1, (m + kRows - 1) / kRows));
  std::vector<Eigen::MatrixXd> part(blocks, Eigen::MatrixXd::Zero(p, p));
  for_each_index(blocks, blocks > 1 ? threads : 1, [&](std::size_t b) {
    const Eigen::Index r0 = static_cast<Eigen::Index>(b) * kRows;
    part[b].selfadjointView<Eigen::Lower>().rankUpdate(
        J.middleRows(r0, std::min(kRows, m - r0)).transpose());
  });
  Eigen::MatrixXd N = Eigen::MatrixXd::Zero(p, p);
  for (const auto& P : part) N += P;
  return N.selfadjointView<Eigen::Lower>();
}

/// Scores g_k = sum_{c < rows_per_sample} J_{k n + c}^T r_{k n + c} (n = rows_per_sample): the
/// rows of one sample summed.
Eigen::MatrixXd sample_scores(const AnyMatrix& J, const std::vector<double>& res,
                              long rows_per_sample) {
  const Eigen::Index rows = J.rows(), n = rows_per_sample;
  if (n < 1 || rows % n != 0 || static_cast<Eigen::Index>(res.size()) != rows)
    throw std::invalid_argument("sample_scores: " + std::to_string(rows) + " Jacobian rows and " +
                                std::to_string(res.size()) +
                                " residuals are not whole samples of " + std::to_string(n) +
                                " rows");
  const Eigen::Map<const Eigen::VectorXd> r(res.data(), rows);
  Eigen::MatrixXd rowwise = J.array().colwise() * r.array();
  if (n == 1) return rowwise;
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(rows / n, J.cols());
  for (Eigen::Index k = 0; k < rows; ++k) g.row(k / n) += rowwise.row(k);
  return g;
}

namespace {

/// Scores g_k[j] = data[k rs + j cs] * (scale ? scale[k] : 1), k < m, j < p: the rows of a
/// scores matrix, or a Jacobian's rows times the residuals, read in place.
struct ScoreRows {
  const double* data;
  Eigen::Index rs, cs;
  const double* scale;
  Eigen::Index m, p;
  /// out += sign g_k.
  void add(Eigen::Index k, double sign, double* out) const {
    const double f = sign * (scale != nullptr ? scale[k] : 1.0);
    const double* g = data + k * rs;
    for (Eigen::Index j = 0; j < p; ++j) out[j] += g[j * cs] * f;
  }
};

/// The Bartlett-weighted sum of the scores' lagged products,
///   S = sum_{k,j} (1 - |k - j| / W)_+ g_k g_j^T,   W = L + 1:
/// the weights are the autocorrelation of a box of width W, so
///   S = (1 / W) sum_t c_t c_t^T,   c_t = g_{t-L} + ... + g_t   (g = 0 outside 0..m-1,
///   t = 0 .. m - 1 + L):
/// every pair k, j lies in W - |k - j| windows. O((m + L) p^2) instead of O(L m p^2) for the
/// lagged products (a noise-free record's coloured residuals had L in the hundreds: 0.5 s of a
/// 0.6 s fit). The windows go in chunks of kChunk: a chunk sums its first window afresh (so that
/// rounding does not accumulate), then adds the entering and subtracts the leaving score, and
/// collects its c_t in blocks for a symmetric rank update. The chunks run on up to `threads`
/// threads; their partial sums are added in chunk order (the same S for any thread count).
Eigen::MatrixXd bartlett_sum(const ScoreRows& g, long L, int threads) {
  constexpr Eigen::Index kBlock = 256, kChunk = 4096;
  const Eigen::Index m = g.m, p = g.p, W = L + 1, windows = m + L;
  const auto chunks = static_cast<std::size_t>((windows + kChunk - 1) / kChunk);
  std::vector<Eigen::MatrixXd> partial(chunks);
  for_each_index(chunks, threads, [&](std::size_t ci) {
    const Eigen::Index t0 = static_cast<Eigen::Index>(ci) * kChunk,
                       t1 = std::min(windows, t0 + kChunk);
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(p, p);
    RowMatrix block(kBlock, p);
    std::vector<double> c(static_cast<std::size_t>(p), 0.0);
    Eigen::Index filled = 0;
    for (Eigen::Index t = t0; t < t1; ++t) {
      if (t == t0) {
        for (Eigen::Index k = std::max<Eigen::Index>(0, t - L); k <= std::min(t, m - 1); ++k)
          g.add(k, 1.0, c.data());
      } else {
        if (t < m) g.add(t, 1.0, c.data());
        if (t - W >= 0 && t - W < m) g.add(t - W, -1.0, c.data());
      }
      std::copy(c.begin(), c.end(), block.row(filled).data());
      if (++filled == kBlock || t + 1 == t1) {
        S.selfadjointView<Eigen::Lower>().rankUpdate(block.topRows(filled).transpose());
        filled = 0;
      }
    }
    partial[ci] = S;
  });
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(p, p);
  for (const auto& P : partial) S += P;
  return Eigen::MatrixXd(S.selfadjointView<Eigen::Lower>()) / static_cast<double>(W);
}

/// The Newey-West sandwich factor A S A^T, S the Bartlett-weighted sum of the scores' lagged
/// products (bartlett_sum; L < 0 as 0).
Eigen::MatrixXd hac_sandwich(const ScoreRows& g, const Eigen::Ref<const Eigen::MatrixXd>& A, long L,
                             double factor, int threads) {
  return A * bartlett_sum(g, std::max(L, 0L), threads) * A.transpose() * factor;
}

}  // namespace

Eigen::MatrixXd hac_covariance_scores(const Eigen::Ref<const Eigen::MatrixXd>& g,
                                      const Eigen::Ref<const Eigen::MatrixXd>& A, long L,
                                      double factor, int threads) {
  return hac_sandwich({g.data(), g.innerStride(), g.outerStride(), nullptr, g.rows(), g.cols()}, A,
                      L, factor, threads);
}

/// Newey-West covariance of the internal parameters: A S A with A = (J^T J)^-1 and
/// S = G0 + sum_{l=1..L} (1 - l/(L+1)) (G_l + G_l^T), G_l = sum_k g_k g_{k-l}^T, g_k = J_k^T r_k,
/// times m/(m - p) (small-sample factor). The scores are J's rows times the residuals, formed
/// as the windows need them.
Eigen::MatrixXd hac_covariance(const AnyMatrix& J, const std::vector<double>& res,
                               const Eigen::MatrixXd& A, long L, int threads) {
  const Eigen::Index m = J.rows(), p = J.cols();
  if (static_cast<Eigen::Index>(res.size()) != m)
    throw std::invalid_argument("hac_covariance: " + std::to_string(m) + " Jacobian rows and " +
                                std::to_string(res.size()) + " residuals");
  return hac_sandwich({J.data(), J.innerStride(), J.outerStride(), res.data(), m, p}, A, L,
                      static_cast<double>(m) / static_cast<double>(m - p), threads);
}

/// Bartlett bandwidth: Andrews' (1991) AR(1) plug-in from the residuals' lag-1 autocorrelation
/// rho, L = 1.1447 (alpha m)^(1/3), alpha = 4 rho^2 / ((1 - rho)^2 (1 + rho)^2), at least the
/// Newey-West rule 4 (m/100)^(2/9), at most min(m/4, 2000).
long hac_bandwidth(double rho, long m) {
  const double nw = std::floor(4 * std::pow(static_cast<double>(m) / 100.0, 2.0 / 9.0));
  double L = nw;
  if (std::isfinite(rho)) {
    const double rr = std::clamp(rho, -0.999, 0.999);
    const double alpha = 4 * rr * rr / ((1 - rr) * (1 - rr) * (1 + rr) * (1 + rr));
    L = std::max(L, std::ceil(1.1447 * std::cbrt(alpha * static_cast<double>(m))));
  }
  return static_cast<long>(std::clamp(L, 1.0, std::min(static_cast<double>(m) / 4.0, 2000.0)));
}

namespace {

/// Marks the standard errors unreliable and says why.
void unreliable(Reliability& rel, std::string why) {
  rel.standard_errors = false;
  rel.reasons.push_back(std::move(why));
}

/// The edge of the search region of an estimate on this scale (lsq.cpp: kLogBox, kFreeBox).
const char* search_edge(FitScale scale) {
  return scale == FitScale::log ? "a factor 1e6 from its start" : "a logit or weight of +-30";
}

/// An isolated spike's square pulls a least-squares fit, and the white-noise standard errors do
/// not account for it: said, with the remedy.
std::string outliers_reason(const Outliers& o) {
  return std::to_string(o.count) + " of " + std::to_string(o.n) +
         " residuals are outliers (beyond " + format_number(o.threshold) +
         " robust standard deviations of " + format_number(o.scale) + ", the largest " +
         format_number(o.largest) +
         "): a spike pulls a least-squares fit and "
         "its standard errors do not account for it; a robust loss bounds its pull "
         "(--loss huber; Python loss='huber')";
}

/// A singular information matrix leaves some parameters undetermined; beyond a condition number
/// of 1e8 a nonlinear model's linearisation does not hold over the intervals.
void assess_information(const Information& info, Reliability& rel) {
  const std::string matrix = "the information matrix " + std::string(info.name);
  if (info.singular) {
    unreliable(rel, matrix + " is singular: some parameters are not determined");
  } else if (info.condition_number > 1e8) {
    unreliable(rel, matrix + " is nearly singular (condition number " +
                        format_number(info.condition_number) + " > 1e8)" +
                        (info.linearised ? ": the linearised intervals do not hold" : ""));
  }
}

/// Strongly coloured residuals (strongly_coloured: the rule of docs/identification.md,
/// "Results"): the white-noise standard errors understate the uncertainty.
void assess_colour(const std::string& of, Reliability& rel) {
  const auto& w = rel.whiteness;
  if (!strongly_coloured(rel)) return;
  unreliable(rel, "the residuals" + (of.empty() ? std::string() : " of the " + of) +
                      " are strongly coloured (lag-1 autocorrelation " + format_fixed(w.acf1, 3) +
                      ", Ljung-Box p = " + format_number(w.ljung_box_p) + " over " +
                      std::to_string(w.lags) +
                      " lags): the white-noise standard errors understate the uncertainty" +
                      (std::isfinite(rel.hac_ratio_max)
                           ? " up to " + format_fixed(rel.hac_ratio_max, 1) +
                                 "-fold; the HAC intervals account for it, not for model error"
                           : std::string()));
}

/// The record was likely made with the other input hold (docs/identification.md, "Input hold"):
/// said, with the option that fits it.
std::string other_hold_reason(const OtherHold& h) {
  const bool zoh = h.other == Hold::zoh;
  return std::string("the residuals follow the change of the prediction with the input ") +
         (zoh ? "held between samples" : "linear between samples") + " (slope " +
         format_fixed(h.slope, 2) + ", " + format_fixed(100 * h.share, 0) +
         " % of the residuals' sum of squares): " +
         (zoh ? "the record's velocity was likely held between samples (a digital controller's "
                "or DAC's output); fit with --hold zoh (Python hold='zoh')"
              : "the record's velocity likely changes smoothly between samples; fit with --hold "
                "linear (Python hold='linear')");
}

}  // namespace

void assess(const Findings& f, Reliability& rel) {
  if (!f.converged) unreliable(rel, "the solver stopped without convergence");
  for (const auto& e : f.at_limit)
    unreliable(rel, "parameter " + e.name + " ended at the edge of its search region (" +
                        search_edge(e.scale) + "): the record does not determine it");
  if (!f.jacobian_failure.empty())
    unreliable(rel, "the Jacobian at the optimum " + f.jacobian_failure);
  if (f.outliers) {
    rel.outliers = f.outliers->count;
    unreliable(rel, outliers_reason(*f.outliers));
  }
  if (!f.no_effect.empty())
    unreliable(rel,
               "parameters without effect on the simulated output (not determined by the "
               "record): " +
                   join_list(f.no_effect));
  assess_information(f.information, rel);
  if (f.coloured) assess_colour(*f.coloured, rel);
  if (f.other_hold) unreliable(rel, other_hold_reason(*f.other_hold));
}

void set_intervals(ParameterEstimate& e, double se, double tq, Reliability& rel,
                   std::optional<double> hac_se) {
  e.std_error = se;
  e.ci_low = e.value - tq * e.std_error;
  e.ci_high = e.value + tq * e.std_error;
  if (!hac_se) return;
  e.hac_std_error = *hac_se;
  e.hac_ci_low = e.value - tq * e.hac_std_error;
  e.hac_ci_high = e.value + tq * e.hac_std_error;
  if (e.std_error > 0) {
    const double ratio = e.hac_std_error / e.std_error;
    if (!(ratio <= rel.hac_ratio_max)) rel.hac_ratio_max = ratio;
  }
}

void set_at_bound(ParameterEstimate& e) {
  e.at_bound = true;
  e.std_error = std::numeric_limits<double>::quiet_NaN();
  e.ci_low = e.ci_high = std::numeric_limits<double>::quiet_NaN();
}

namespace {

/// The part both forms share: from the column-scaled normal matrix N = Js^T Js and the column
/// norms cn (1 for the dead columns, already in out.dead), the condition number, singularity
/// and cov = s2 D^-1 N^-1 D^-1.
LinearCovariance finish_covariance(LinearCovariance out, const Eigen::MatrixXd& N,
                                   const Eigen::VectorXd& cn) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(N);
  const Eigen::VectorXd& lam = es.eigenvalues();
  const double lmax = lam.maxCoeff(), lmin = lam.minCoeff();
  out.condition_number = lmin > 0 ? lmax / lmin : std::numeric_limits<double>::infinity();
  out.singular = !out.dead.empty() || !(lmin > 1e-14 * lmax);
  if (out.singular) return out;
  const Eigen::MatrixXd Ninv =
      es.eigenvectors() * lam.cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
  const Eigen::MatrixXd Dinv = cn.cwiseInverse().asDiagonal();
  out.cov = out.s2 * Dinv * Ninv * Dinv;
  return out;
}

/// Marks the columns of norm 0 as dead (their norm set to 1 for the scaling).
void mark_dead(LinearCovariance& out, Eigen::VectorXd& cn) {
  for (Eigen::Index j = 0; j < cn.size(); ++j) {
    if (!(cn(j) > 0)) {
      out.dead.push_back(static_cast<long>(j));
      cn(j) = 1;
    }
  }
}

}  // namespace

LinearCovariance linear_covariance_normal(const Eigen::Ref<const Eigen::MatrixXd>& JtJ, double ssr,
                                          Eigen::Index m) {
  LinearCovariance out;
  out.s2 = ssr / static_cast<double>(m - JtJ.cols());
  Eigen::VectorXd cn = JtJ.diagonal().cwiseMax(0.0).cwiseSqrt();
  mark_dead(out, cn);
  const Eigen::VectorXd inv = cn.cwiseInverse();
  return finish_covariance(std::move(out), inv.asDiagonal() * JtJ * inv.asDiagonal(), cn);
}

}  // namespace frictionlab::identify::detail
