// frictionlab: statistics used by the identification results (docs/identification.md,
// section "Results").
#pragma once

#include <vector>

#include "frictionlab/identify/result.hpp"

namespace frictionlab::identify {

/// Student-t quantile t_p(nu): P(T <= t) = p for T with nu > 0 degrees of freedom, 0 < p < 1.
/// Computed by bisection on the CDF written with the regularized incomplete beta function
/// (continued fraction, modified Lentz); for nu > 1e7 the normal distribution (difference
/// < 1e-7).
double student_t_quantile(double p, double nu);

/// CDF of Student's t with nu degrees of freedom.
double student_t_cdf(double t, double nu);

/// Survival function of the chi-square distribution with k > 0 degrees of freedom,
/// P(X > x) = Q(k/2, x/2) (regularized upper incomplete gamma: series for x < k/2 + 1, continued
/// fraction (modified Lentz) above). 1 for x <= 0.
double chi_square_sf(double x, double k);

/// Whiteness of residuals r (in time order) over lags 1..h: the autocorrelations rho_l, the
/// Ljung-Box statistic Q = n (n + 2) sum_l rho_l^2 / (n - l) and its p-value P(chi2_h > Q)
/// (Ljung & Box 1978). White residuals give p roughly uniform; p < 0.01 means coloured
/// residuals (model error or correlated noise), under which the white-noise standard errors are
/// too small. h = min(lags, n / 5); n >= 10 required (else all NaN).
ResidualWhiteness residual_whiteness(const std::vector<double>& r, int lags = 20);

/// Residuals coloured enough that the white-noise standard errors cannot be trusted: Ljung-Box
/// p < 0.01 and a lag-1 autocorrelation > 0.5 or HAC standard errors more than twice the
/// white-noise ones (Reliability::hac_ratio_max).
bool strongly_coloured(const Reliability& rel);

/// Metrics of a prediction against measurements (samples k >= first only).
Metrics compute_metrics(const std::vector<double>& y, const std::vector<double>& pred,
                        long first = 0);
/// The same metrics from the residuals y_k - prediction_k of the samples k >= first
/// (residuals[k - first]), when those are what is at hand (a fit's last evaluation).
Metrics metrics_of_residuals(const std::vector<double>& y, const std::vector<double>& residuals,
                             long first = 0);

/// Gaussian-likelihood information criteria with k = p + 1 (the noise variance counts):
/// AICc = N ln(SSR/N) + 2k + 2k(k+1)/(N-k-1), BIC = N ln(SSR/N) + k ln N.
double aicc(double ssr, long n, int p);
double bic(double ssr, long n, int p);

}  // namespace frictionlab::identify
