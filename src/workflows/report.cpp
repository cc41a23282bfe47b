// frictionlab workflows: report data (include/frictionlab/workflows/report.hpp).
#include "frictionlab/workflows/report.hpp"

#include "frictionlab/format.hpp"
#include "frictionlab/identify/identifiability.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace frictionlab::workflows {

std::vector<double> rounded(const std::vector<double>& x) {
  std::vector<double> out(x.size());
  std::transform(x.begin(), x.end(), out.begin(), [](double v) { return round_significant(v, 7); });
  return out;
}

namespace {

double quantile(std::vector<double> x, double q) {
  if (x.empty()) return 0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(x.size() - 1));
  std::nth_element(x.begin(), x.begin() + static_cast<long>(k), x.end());
  return x[k];
}

}  // namespace

std::vector<std::size_t> envelope_indices(std::size_t n,
                                          const std::vector<const std::vector<double>*>& series,
                                          std::size_t buckets) {
  std::vector<std::size_t> idx;
  if (n <= 2 * buckets) {
    idx.resize(n);
    for (std::size_t k = 0; k < n; ++k) idx[k] = k;
    return idx;
  }
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t lo = b * n / buckets, hi = (b + 1) * n / buckets;  // [lo, hi)
    if (lo >= hi) continue;
    std::vector<std::size_t> pick{lo, hi - 1};
    for (const auto* s : series) {
      std::size_t kmin = lo, kmax = lo;
      for (std::size_t k = lo; k < hi; ++k) {
        if ((*s)[k] < (*s)[kmin]) kmin = k;
        if ((*s)[k] > (*s)[kmax]) kmax = k;
      }
      pick.push_back(kmin);
      pick.push_back(kmax);
    }
    std::sort(pick.begin(), pick.end());
    pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
    idx.insert(idx.end(), pick.begin(), pick.end());
  }
  return idx;
}

FitReportData fit_report_data(const FitOutcome& f, int max_buckets, int bins, int lags,
                              int max_points) {
  const data::Record& rec = f.training;
  const std::size_t n = rec.t.size();
  if (n < 2 || f.prediction.size() != n || f.residual.size() != n)
    throw std::invalid_argument("fit_report_data: the outcome has no training series");
  FitReportData d;

  // Time series (envelope of measured and predicted).
  const auto idx = envelope_indices(n, {&rec.force, &f.prediction},
                                    static_cast<std::size_t>(std::max(10, max_buckets)));
  for (std::size_t k : idx) {
    d.t.push_back(rec.t[k]);
    d.velocity.push_back(rec.velocity[k]);
    d.measured.push_back(rec.force[k]);
    d.predicted.push_back(f.prediction[k]);
    d.residual.push_back(f.residual[k]);
  }
  const auto [vmin, vmax] = std::minmax_element(rec.velocity.begin(), rec.velocity.end());
  const auto [ymin, ymax] = std::minmax_element(rec.force.begin(), rec.force.end());
  d.v_min = *vmin;
  d.v_max = *vmax;
  d.y_min = *ymin;
  d.y_max = *ymax;

  // Residuals after the warm-up.
  const double t_first = rec.t.front() + f.result.warmup_s;
  std::vector<double> res;
  for (std::size_t k = 0; k < n; ++k)
    if (rec.t[k] >= t_first && std::isfinite(f.residual[k])) res.push_back(f.residual[k]);
  const auto m = static_cast<double>(res.size());
  if (res.size() >= 2) {
    double mean = 0;
    for (double r : res) mean += r;
    mean /= m;
    double var = 0;
    for (double r : res) var += (r - mean) * (r - mean);
    d.residual_mean = mean;
    d.residual_std = std::sqrt(var / (m - 1));
    // Histogram: Freedman-Diaconis bin width 2 IQR / N^(1/3), 10..80 bins, over [min, max].
    const auto [rmin, rmax] = std::minmax_element(res.begin(), res.end());
    int nb = bins;
    if (nb <= 0) {
      const double iqr = quantile(res, 0.75) - quantile(res, 0.25);
      const double w = 2 * iqr / std::cbrt(m);
      nb = w > 0 ? static_cast<int>(std::ceil((*rmax - *rmin) / w)) : 10;
      nb = std::clamp(nb, 10, 80);
    }
    const double lo = *rmin, hi = *rmax > *rmin ? *rmax : *rmin + 1e-12;
    d.hist_edges.resize(static_cast<std::size_t>(nb) + 1);
    for (int b = 0; b <= nb; ++b)
      d.hist_edges[static_cast<std::size_t>(b)] = lo + (hi - lo) * b / nb;
    d.hist_counts.assign(static_cast<std::size_t>(nb), 0);
    for (double r : res) {
      auto b = static_cast<long>((r - lo) / (hi - lo) * nb);
      b = std::clamp(b, 0L, static_cast<long>(nb) - 1);
      ++d.hist_counts[static_cast<std::size_t>(b)];
    }
    // Autocorrelation (biased estimator, as the Ljung-Box statistic uses).
    const long L = lags > 0 ? lags : std::min(50L, static_cast<long>(res.size()) / 4);
    d.acf.assign(static_cast<std::size_t>(L) + 1, 0.0);
    for (long l = 0; l <= L; ++l) {
      double c = 0;
      for (std::size_t k = static_cast<std::size_t>(l); k < res.size(); ++k)
        c += (res[k] - mean) * (res[k - static_cast<std::size_t>(l)] - mean);
      d.acf[static_cast<std::size_t>(l)] = var > 0 ? c / var : 0.0;
    }
    d.acf_band = 1.96 / std::sqrt(m);
  }

  // Friction-velocity cloud and static curve.
  const auto& fv = f.friction;
  const std::size_t nf = fv.velocity.size();
  const std::size_t step =
      nf > static_cast<std::size_t>(max_points)
          ? (nf + static_cast<std::size_t>(max_points) - 1) / static_cast<std::size_t>(max_points)
          : 1;
  for (std::size_t k = 0; k < nf; k += step) {
    d.fv_velocity.push_back(fv.velocity[k]);
    d.fv_measured.push_back(fv.measured[k]);
    d.fv_static.push_back(fv.static_curve[k]);
  }
  if (nf > 0 && (nf - 1) % step != 0) {  // the fastest sample too: the cloud spans the full range
    d.fv_velocity.push_back(fv.velocity[nf - 1]);
    d.fv_measured.push_back(fv.measured[nf - 1]);
    d.fv_static.push_back(fv.static_curve[nf - 1]);
  }

  // Low-speed content (the identifiability rule near_zero).
  d.near_zero_threshold = identify::low_speed_threshold(f.result, rec.velocity);
  for (double v : rec.velocity) d.near_zero += std::abs(v) < d.near_zero_threshold ? 1 : 0;
  d.near_zero_fraction = static_cast<double>(d.near_zero) / static_cast<double>(n);

  // (t keeps its precision: absolute time stamps need more than 7 digits)
  for (auto* v : {&d.velocity, &d.measured, &d.predicted, &d.residual, &d.hist_edges, &d.acf,
                  &d.fv_velocity, &d.fv_measured, &d.fv_static})
    *v = rounded(*v);
  return d;
}

JointRecordSeries joint_record_series(const identify::JointData& d,
                                      const identify::JointEvaluation& e, int max_buckets) {
  const std::size_t n = d.t.size();
  if (e.q_sim.size() != n || e.qd_sim.size() != n || e.tau_pred.size() != n || d.q.size() != n ||
      d.qd.size() != n || d.tau.size() != n)
    throw std::invalid_argument("joint_record_series: " + d.source +
                                ": the evaluation's series do not match the record");
  JointRecordSeries s;
  s.name = d.source;
  for (std::size_t k :
       envelope_indices(n, {&d.tau, &d.q}, static_cast<std::size_t>(std::max(10, max_buckets)))) {
    s.t.push_back(d.t[k]);
    s.q.push_back(d.q[k]);
    s.q_sim.push_back(e.q_sim[k]);
    s.qd.push_back(d.qd[k]);
    s.qd_sim.push_back(e.qd_sim[k]);
    s.tau.push_back(d.tau[k]);
    s.tau_pred.push_back(e.tau_pred[k]);
  }
  for (auto* v : {&s.q, &s.q_sim, &s.qd, &s.qd_sim, &s.tau, &s.tau_pred}) *v = rounded(*v);
  return s;
}

}  // namespace frictionlab::workflows
