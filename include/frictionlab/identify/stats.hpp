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

/// Metrics of a prediction against measurements (samples k >= first only).
Metrics compute_metrics(const std::vector<double>& y, const std::vector<double>& pred,
                        long first = 0);

/// Gaussian-likelihood information criteria with k = p + 1 (the noise variance counts):
/// AICc = N ln(SSR/N) + 2k + 2k(k+1)/(N-k-1), BIC = N ln(SSR/N) + k ln N.
double aicc(double ssr, long n, int p);
double bic(double ssr, long n, int p);

}  // namespace frictionlab::identify
