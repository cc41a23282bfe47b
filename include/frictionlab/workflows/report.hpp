// frictionlab workflows: what an identification report draws (docs/report.md): the series of a
// fit thinned for plotting, the residuals' histogram and autocorrelation, the friction-velocity
// cloud and the static curve. Computed here from a FitOutcome; io::fit_outcome_to_json stores it
// in fit.json ("report"), so that io::report_html builds the same page from the live outcome
// (`fit --report`) or from the saved file (`frictionlab report fit.json`).
#pragma once

#include <vector>

#include "frictionlab/identify/joint.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/workflows/fit.hpp"

namespace frictionlab::workflows {

/// Sample indices of n samples to plot: all of them if n <= 2 buckets; otherwise, per bucket of
/// equal sample count, its first and last sample and the smallest and largest sample of each of
/// `series` (each at least n long), in sample order: the envelope a plot of every sample shows.
std::vector<std::size_t> envelope_indices(std::size_t n,
                                          const std::vector<const std::vector<double>*>& series,
                                          std::size_t buckets);

/// x with every value rounded to 7 significant digits (plot data: keeps the result files small);
/// NaN, infinities and 0 unchanged.
std::vector<double> rounded(const std::vector<double>& x);

struct FitReportData {
  /// Time series at a subset of the training samples (all of them up to `max_buckets` * 2;
  /// beyond, per bucket of equal sample count its first, last, smallest and largest measured
  /// and predicted value, in sample order: the envelope a plot of every sample shows).
  std::vector<double> t;          ///< [s]
  std::vector<double> velocity;   ///< [m/s | rad/s]
  std::vector<double> measured;   ///< the force channel [N | N m]
  std::vector<double> predicted;  ///< the model's prediction [N | N m]
  std::vector<double> residual;   ///< measured - predicted [N | N m]
  /// Histogram of the residuals after the warm-up: edges (bins + 1) [N | N m] and counts, with
  /// their mean and standard deviation (for the normal density drawn over it).
  std::vector<double> hist_edges;
  std::vector<long> hist_counts;
  double residual_mean = 0, residual_std = 0;
  /// Sample autocorrelation of the residuals at lags 0..L (acf[0] = 1) and the white-noise 95 %
  /// band +-1.96 / sqrt(N).
  std::vector<double> acf;
  double acf_band = 0;
  /// The friction-velocity cloud (FitOutcome::friction: sorted by velocity), thinned to at most
  /// max_points samples evenly in velocity order, with the static curve at the same velocities.
  std::vector<double> fv_velocity, fv_measured, fv_static;
  /// Ranges over every training sample.
  double v_min = 0, v_max = 0, y_min = 0, y_max = 0;
  /// Samples with |v| below identify::low_speed_threshold (min(2 vs, 0.1 max|v|); 0 for a
  /// model without a Stribeck velocity), the threshold, and their fraction.
  long near_zero = 0;
  double near_zero_threshold = 0;
  double near_zero_fraction = 0;
};

/// The report data of `f`: at most max_buckets buckets for the time series (>= 10), `bins`
/// histogram bins (Freedman-Diaconis width, between 10 and 80 bins if 0), `lags` ACF lags
/// (min(50, N/4) if 0), at most `max_points` friction-velocity points. Values are rounded to 7
/// significant digits (plot data). Throws std::invalid_argument for an empty outcome.
FitReportData fit_report_data(const FitOutcome& f, int max_buckets = 1000, int bins = 0,
                              int lags = 0, int max_points = 4000);

/// A joint record and the model's simulation of it, thinned for plotting like FitReportData's
/// series (the envelope of the torque and position per bucket), values rounded to 7 digits.
struct JointRecordSeries {
  std::string name;                   ///< the record's source
  std::vector<double> t;              ///< [s]
  std::vector<double> q, q_sim;       ///< measured and simulated position [rad]
  std::vector<double> qd, qd_sim;     ///< measured and simulated velocity [rad/s]
  std::vector<double> tau, tau_pred;  ///< applied and inverse-model torque [N m]
};

/// The series of record `d` and its evaluation `e` (identify::evaluate_joint). Throws
/// std::invalid_argument if the evaluation's series do not match the record's length.
JointRecordSeries joint_record_series(const identify::JointData& d,
                                      const identify::JointEvaluation& e, int max_buckets = 1000);

}  // namespace frictionlab::workflows
