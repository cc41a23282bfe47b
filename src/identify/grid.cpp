// frictionlab identify: the `grid` method, reference 000's brute-force LuGre estimator
// (docs/identification.md, "grid"), on every core (for_each_index).
//
//   stage 1  Km, Kw, Fc: static model Km*i - (Kw v + Fc sgn v) on decelerating samples with
//            |v| > 10 % of max|v|;
//   stage 2  Fs, Vth: static Stribeck model Km*i - (Kw v + sgn v (Fc + |Fs - Fc|
//   exp(-|v/Vth|^alpha)))
//            on samples with |v| < 20 % of max|v|, negative Fs clamped to 0;
//   stage 3  S0, S1: full simulation of the LuGre torque with forward Euler at the logged time
//            step (z_{k+1} = z_k + h_k (v_k - S0 |v_k| z_k / g(v_k))), RMSE over the record.
// Each stage: 51 points per parameter, 3 passes (the full range, then twice best +- 2 steps).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "grid.hpp"
#include "parallel.hpp"

#include "frictionlab/format.hpp"
#include "frictionlab/signal/differentiate.hpp"

namespace frictionlab::identify::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Range {
  double lo, hi;
};

struct SearchOut {
  std::vector<double> best;
  double cost = kInf;
  long nonfinite_first_pass = 0;
  long points_first_pass = 0;
};

/// Exhaustive search on `points`^dims grid points per pass; each later pass spans
/// best +- narrow grid steps of the previous pass, clipped to `clip` (the first pass's range,
/// except where the caller widens it). Ties: the first point in index order. The fit's cancel
/// hook is polled every 16 points.
SearchOut grid_search(std::vector<Range> r, const std::vector<Range>& clip, int points, int passes,
                      double narrow, int threads, const Progress& progress,
                      const std::function<double(const double*)>& cost) {
  const auto dims = r.size();
  SearchOut out;
  long total = 1;
  for (std::size_t j = 0; j < dims; ++j) total *= points;
  for (int pass = 0; pass < passes; ++pass) {
    std::vector<double> costs(static_cast<std::size_t>(total), kInf);
    auto point = [&](long idx, std::vector<double>& th) {
      for (std::size_t j = dims; j-- > 0;) {
        const long i = idx % points;
        idx /= points;
        th[j] = points > 1 ? r[j].lo + (r[j].hi - r[j].lo) * static_cast<double>(i) / (points - 1)
                           : 0.5 * (r[j].lo + r[j].hi);
      }
    };
    constexpr long kChunk = 16;
    const long chunks = (total + kChunk - 1) / kChunk;
    for_each_index(static_cast<std::size_t>(chunks), std::max(1, threads), [&](std::size_t c) {
      progress.check();
      std::vector<double> th(dims);
      const long b = static_cast<long>(c) * kChunk;
      for (long idx = b; idx < std::min(total, b + kChunk); ++idx) {
        point(idx, th);
        const double cost_idx = cost(th.data());
        costs[static_cast<std::size_t>(idx)] = std::isfinite(cost_idx) ? cost_idx : kInf;
      }
    });
    long bi = 0;
    for (long idx = 1; idx < total; ++idx)
      if (costs[static_cast<std::size_t>(idx)] < costs[static_cast<std::size_t>(bi)]) bi = idx;
    if (pass == 0) {
      out.points_first_pass = total;
      for (double c : costs) out.nonfinite_first_pass += std::isinf(c) ? 1 : 0;
    }
    std::vector<double> best(dims);
    point(bi, best);
    out.best = best;
    out.cost = costs[static_cast<std::size_t>(bi)];
    for (std::size_t j = 0; j < dims; ++j) {
      const double step = points > 1 ? (r[j].hi - r[j].lo) / (points - 1) : 0;
      r[j].lo = std::max(best[j] - narrow * step, clip[j].lo);
      r[j].hi = std::min(best[j] + narrow * step, clip[j].hi);
    }
  }
  return out;
}

Range nominal_range(double nominal) {
  const double a = nominal / 5, b = nominal * 5;
  return {std::min(a, b), std::max(a, b)};
}

double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

/// Stage 1's result: the motor constant (sensorless; else 0), viscous and Coulomb terms, and
/// the ranges they were searched in (Km's first when sensorless).
struct StaticTerms {
  double Km = 0, Kw = 0, Fc = 0;
  std::vector<Range> ranges;
};

/// Stage 1's samples: after the warm-up, decelerating and faster than decel_frac * max|v|.
std::vector<long> decelerating_samples(const FitData& d, const GridOptions& go, double vmax) {
  const auto a = signal::derivative(d.t, d.v);
  std::vector<long> s1;
  for (long k = d.first; k < d.n(); ++k) {
    const auto uk = static_cast<std::size_t>(k);
    if (std::abs(d.v[uk]) > go.decel_frac * vmax && d.v[uk] * a[uk] < 0) s1.push_back(k);
  }
  return s1;
}

/// Sufficient statistics of the stage-1 model y = c^T theta, c = [i, -v, -sgn v] (sensorless)
/// or [v, sgn v] (friction): SSR(theta) = yy - 2 theta^T b + theta^T M theta, identical to the
/// sum over samples that the reference evaluates at every grid point.
struct NormalEquations {
  int nd = 0;  ///< unknowns: 3 (sensorless) or 2
  double M[3][3] = {}, b[3] = {}, yy = 0;
};

NormalEquations stage1_normal_equations(const FitData& d, const std::vector<long>& s1) {
  const bool sl = d.sensorless;
  NormalEquations ne;
  ne.nd = sl ? 3 : 2;
  for (long k : s1) {
    const auto uk = static_cast<std::size_t>(k);
    double c[3];
    if (sl) {
      c[0] = d.i[uk];
      c[1] = -d.v[uk];
      c[2] = -sgn(d.v[uk]);
    } else {
      c[0] = d.v[uk];
      c[1] = sgn(d.v[uk]);
    }
    for (int p = 0; p < ne.nd; ++p) {
      ne.b[p] += c[p] * d.y[uk];
      for (int q = 0; q < ne.nd; ++q) ne.M[p][q] += c[p] * c[q];
    }
    ne.yy += d.y[uk] * d.y[uk];
  }
  return ne;
}

/// The linear least-squares solution of M theta = b: Gaussian elimination with partial
/// pivoting on the nd x nd system (0 for a zero pivot).
std::array<double, 3> solve_normal_equations(const NormalEquations& ne) {
  const int nd = ne.nd;
  std::array<double, 3> ls{0, 0, 0};
  double A[3][4];
  for (int p = 0; p < nd; ++p) {
    for (int q = 0; q < nd; ++q) A[p][q] = ne.M[p][q];
    A[p][nd] = ne.b[p];
  }
  for (int c = 0; c < nd; ++c) {
    int piv = c;
    for (int r = c + 1; r < nd; ++r)
      if (std::abs(A[r][c]) > std::abs(A[piv][c])) piv = r;
    for (int q = 0; q <= nd; ++q) std::swap(A[c][q], A[piv][q]);
    if (A[c][c] == 0) continue;
    for (int r = 0; r < nd; ++r) {
      if (r == c) continue;
      const double f = A[r][c] / A[c][c];
      for (int q = c; q <= nd; ++q) A[r][q] -= f * A[c][q];
    }
  }
  for (int p = 0; p < nd; ++p)
    ls[static_cast<std::size_t>(p)] = A[p][p] != 0 ? A[p][nd] / A[p][p] : 0;
  return ls;
}

/// Stage 1: Km, Kw, Fc by grid search of the normal equations' SSR around their nominal values
/// (options, else the linear least-squares solution), on decelerating samples.
StaticTerms grid_stage1(const FitData& d, const GridOptions& go, double vmax,
                        const Progress& progress) {
  const bool sl = d.sensorless;
  const std::vector<long> s1 = decelerating_samples(d, go, vmax);
  const int nd = sl ? 3 : 2;
  if (static_cast<long>(s1.size()) < 5L * nd)
    throw FitError("grid: only " + std::to_string(s1.size()) + " decelerating samples above " +
                   format_number(100 * go.decel_frac) + " % of max|v| for stage 1 (need at least " +
                   std::to_string(5 * nd) + ")");
  const NormalEquations ne = stage1_normal_equations(d, s1);
  const std::array<double, 3> ls = solve_normal_equations(ne);
  const double Km0 = sl ? go.Km.value_or(ls[0]) : 0;
  const double Kw0 = go.Kw.value_or(ls[sl ? 1 : 0]);
  const double Fc0 = go.Fc.value_or(ls[sl ? 2 : 1]);
  StaticTerms st;
  if (sl) st.ranges.push_back(nominal_range(Km0));
  st.ranges.push_back(nominal_range(Kw0));
  st.ranges.push_back(nominal_range(Fc0));
  auto cost1 = [&](const double* th) {
    double s = ne.yy;
    for (int p = 0; p < nd; ++p) {
      s -= 2 * th[p] * ne.b[p];
      for (int q = 0; q < nd; ++q) s += th[p] * ne.M[p][q] * th[q];
    }
    return s;
  };
  const auto o1 =
      grid_search(st.ranges, st.ranges, go.points, go.passes, go.narrow_steps, 1, progress, cost1);
  st.Km = sl ? o1.best[0] : 0;
  st.Kw = o1.best[sl ? 1 : 0];
  st.Fc = o1.best[sl ? 2 : 1];
  progress.say("grid stage 1 (" + std::to_string(s1.size()) +
               " samples): " + (sl ? "Km = " + format_number(st.Km) + ", " : std::string()) +
               "Kw = " + format_number(st.Kw) + ", Fc = " + format_number(st.Fc));
  return st;
}

/// Stage 2's result: the Stribeck level (as the model's Fs) and velocity, Vth's range.
struct StribeckTerms {
  double Fs_eff = 0, Vth = 0;
  Range Vth_range{};
};

/// Stage 2: Fs and Vth by grid search on the slow samples (below low_frac * max|v|), the
/// stage-1 terms removed. Notes when the best Fs was clamped or reflected about Fc.
StribeckTerms grid_stage2(const FitData& d, const GridOptions& go, const StaticTerms& st,
                          double alpha, double vmax, int threads, const Progress& progress,
                          std::vector<std::string>& notes) {
  const bool sl = d.sensorless;
  const double Km = st.Km, Kw = st.Kw, Fc = st.Fc;
  std::vector<long> s2;
  for (long k = d.first; k < d.n(); ++k)
    if (std::abs(d.v[static_cast<std::size_t>(k)]) < go.low_frac * vmax) s2.push_back(k);
  if (s2.size() < 10)
    throw FitError("grid: only " + std::to_string(s2.size()) + " samples below " +
                   format_number(100 * go.low_frac) +
                   " % of max|v| for stage 2 (need at least 10)");
  std::vector<double> r0(s2.size());
  for (std::size_t j = 0; j < s2.size(); ++j) {
    const auto uk = static_cast<std::size_t>(s2[j]);
    const double stat = Kw * d.v[uk] + Fc * sgn(d.v[uk]);
    r0[j] = d.y[uk] - (sl ? Km * d.i[uk] - stat : stat);
  }
  const double Fs_lo = go.Fs_lo.value_or(0.0), Fs_hi = go.Fs_hi.value_or(3 * Fc);
  const double Vth_lo = go.Vth_lo.value_or(go.low_frac * vmax / 50),
               Vth_hi = go.Vth_hi.value_or(go.low_frac * vmax);
  if (!(Vth_lo > 0 && Vth_hi >= Vth_lo))
    throw FitError("grid: the Vth range must satisfy 0 < lo <= hi");
  const double fsign = sl ? 1.0 : -1.0;  // y - pred = r0 + fsign * sgn(v) |Fs - Fc| s(v)
  auto cost2 = [&](const double* th) {
    const double Fs = std::max(th[0], 0.0);  // the reference's clamp
    const double c = std::abs(Fs - Fc);
    const double Vth = th[1];
    double s = 0;
    for (std::size_t j = 0; j < s2.size(); ++j) {
      const double v = d.v[static_cast<std::size_t>(s2[j])];
      const double e = r0[j] + fsign * c * sgn(v) * std::exp(-std::pow(std::abs(v / Vth), alpha));
      s += e * e;
    }
    return s;
  };
  // Refinements may take Fs below 0 (then clamped at use, as the reference); Vth stays > 0.
  const std::vector<Range> r2{{Fs_lo, Fs_hi}, {Vth_lo, Vth_hi}};
  const std::vector<Range> c2{{-kInf, Fs_hi}, {Vth_lo, Vth_hi}};
  const auto o2 =
      grid_search(r2, c2, go.points, go.passes, go.narrow_steps, threads, progress, cost2);
  const double Fs_grid = o2.best[0];
  StribeckTerms sb;
  sb.Vth = o2.best[1];
  sb.Vth_range = r2[1];
  const double Fs_clamped = std::max(Fs_grid, 0.0);
  sb.Fs_eff = Fc + std::abs(Fs_clamped - Fc);
  if (Fs_grid < 0)
    notes.push_back("grid stage 2: best Fs = " + format_number(Fs_grid) +
                    " < 0 clamped to 0 (reference 000)");
  if (Fs_clamped < Fc)
    notes.push_back(
        "grid stage 2: best Fs = " + format_number(Fs_clamped) + " < Fc = " + format_number(Fc) +
        "; the reference's g uses |Fs - Fc|, so the model is Fs = " + format_number(sb.Fs_eff));
  progress.say("grid stage 2 (" + std::to_string(s2.size()) +
               " samples): Fs = " + format_number(sb.Fs_eff) + ", Vth = " + format_number(sb.Vth));
  return sb;
}

/// Stage 3's result: the bristle stiffness and damping, and the ranges searched.
struct BristleTerms {
  double S0 = 0, S1 = 0;
  std::vector<Range> ranges;
};

/// Stage 3: S0 and S1 by grid search of forward-Euler LuGre simulations over the whole record
/// (ranges around the initial guess's sigma0, sigma1 unless given). Notes the diverged points.
BristleTerms grid_stage3(const Family& fam, const FitData& d, const GridOptions& go,
                         const StaticTerms& st, const StribeckTerms& sb, double alpha,
                         const std::vector<double>& init_natural, int threads,
                         const Progress& progress, std::vector<std::string>& notes) {
  const bool sl = d.sensorless;
  const double Km = st.Km, Kw = st.Kw, Fc = st.Fc, Fs_eff = sb.Fs_eff, Vth = sb.Vth;
  const int i_s0 = fam.index("sigma0"), i_s1 = fam.index("sigma1");
  const double S0n = init_natural[static_cast<std::size_t>(i_s0)];
  const double S1n = std::max(init_natural[static_cast<std::size_t>(i_s1)], 1e-3 * S0n);
  const double S0_lo = go.S0_lo.value_or(S0n / 5), S0_hi = go.S0_hi.value_or(5 * S0n);
  const double S1_lo = go.S1_lo.value_or(0.0), S1_hi = go.S1_hi.value_or(5 * S1n);
  if (!(S0_lo > 0 && S0_hi >= S0_lo && S1_lo >= 0 && S1_hi >= S1_lo))
    throw FitError("grid: the ranges must satisfy 0 < S0_lo <= S0_hi and 0 <= S1_lo <= S1_hi");
  // g(v_k) tabulated once (it does not depend on S0, S1); the update below is LuGre::derivative
  // with forward Euler, as advance(..., Method::forward_euler, Hold::zoh).
  const auto n = static_cast<std::size_t>(d.n());
  std::vector<double> g(n), h(n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    g[k] = Fc + std::abs(Fs_eff - Fc) * std::exp(-std::pow(std::abs(d.v[k] / Vth), alpha));
    if (k + 1 < n) h[k] = d.t[k + 1] - d.t[k];
  }
  const double zlim = 1e6 * std::max(Fs_eff, Fc) / S0_lo;
  auto cost3 = [&](const double* th) {
    const double S0 = th[0], S1 = th[1];
    double z = 0, s = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double v = d.v[k];
      const double zdot = v - S0 * std::abs(v) / g[k] * z;
      const double F = S0 * z + S1 * zdot + Kw * v;
      if (static_cast<long>(k) >= d.first) {
        const double e = d.y[k] - (sl ? Km * d.i[k] - F : F);
        s += e * e;
      }
      z += h[k] * zdot;
      if (!(std::abs(z) < zlim)) return kInf;  // forward Euler diverged
    }
    return s;
  };
  BristleTerms bt;
  bt.ranges = {{S0_lo, S0_hi}, {S1_lo, S1_hi}};
  progress.say("grid stage 3: " + std::to_string(go.passes) + " passes of " +
               std::to_string(go.points * go.points) + " forward-Euler simulations on " +
               std::to_string(threads) + " threads");
  const auto o3 = grid_search(bt.ranges, bt.ranges, go.points, go.passes, go.narrow_steps, threads,
                              progress, cost3);
  if (o3.nonfinite_first_pass > 0)
    notes.push_back("grid stage 3: forward Euler diverged for " +
                    std::to_string(o3.nonfinite_first_pass) + " of " +
                    std::to_string(o3.points_first_pass) +
                    " (S0, S1) points of the first pass (stable only for S0 < 2 g(v)/(|v| h))");
  if (!std::isfinite(o3.cost))
    throw FitError(
        "grid stage 3: forward Euler diverged for every (S0, S1) point; lower the S0 range");
  bt.S0 = o3.best[0];
  bt.S1 = o3.best[1];
  progress.say("grid stage 3: S0 = " + format_number(bt.S0) + ", S1 = " + format_number(bt.S1));
  return bt;
}

/// Edge warnings: a best point on the boundary of its initial range.
void note_edges(bool sl, const StaticTerms& st, const StribeckTerms& sb, const BristleTerms& bt,
                std::vector<std::string>& notes) {
  auto edge = [&](const char* name, double x, Range rr) {
    const double tol = 1e-9 * std::max(std::abs(rr.hi), std::abs(rr.lo));
    if (std::abs(x - rr.lo) <= tol || std::abs(x - rr.hi) <= tol)
      notes.push_back(std::string("grid: ") + name + " = " + format_number(x) +
                      " is on the edge of its range [" + format_number(rr.lo) + ", " +
                      format_number(rr.hi) + "]");
  };
  if (sl) edge("Km", st.Km, st.ranges[0]);
  edge("Kw", st.Kw, st.ranges[sl ? 1 : 0]);
  edge("Fc", st.Fc, st.ranges[sl ? 2 : 1]);
  edge("Vth", sb.Vth, sb.Vth_range);
  edge("S0", bt.S0, bt.ranges[0]);
  edge("S1", bt.S1, bt.ranges[1]);
}

}  // namespace

GridRun run_grid(const Family& fam, const FitData& d, const FitOptions& opt, double alpha,
                 const std::vector<double>& init_natural, const Progress& progress) {
  const GridOptions& go = opt.grid;
  if (go.points < 2 || go.passes < 1)
    throw FitError("grid: needs at least 2 points per parameter and 1 pass");
  const bool sl = d.sensorless;
  const int threads = resolve_threads(go.threads);
  const double vmax = max_abs(d.v);
  GridRun run;
  const StaticTerms st = grid_stage1(d, go, vmax, progress);
  const StribeckTerms sb = grid_stage2(d, go, st, alpha, vmax, threads, progress, run.notes);
  const BristleTerms bt =
      grid_stage3(fam, d, go, st, sb, alpha, init_natural, threads, progress, run.notes);
  note_edges(sl, st, sb, bt, run.notes);

  std::vector<double> nat(static_cast<std::size_t>(fam.size()));
  auto set = [&](const char* f, double x) { nat[static_cast<std::size_t>(fam.index(f))] = x; };
  if (sl) set("Km", st.Km);
  set("sigma2", st.Kw);
  set("Fc", st.Fc);
  set("Fs", sb.Fs_eff);
  set("vs", sb.Vth);
  set("alpha", alpha);
  set("sigma0", bt.S0);
  set("sigma1", bt.S1);
  run.natural = nat;
  run.passes = 3 * go.passes;
  return run;
}

}  // namespace frictionlab::identify::detail
