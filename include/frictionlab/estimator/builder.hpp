// frictionlab: host-side construction of the torque estimator (estimator/torque_estimator.hpp):
// every problem of a double-precision parameter set, with messages, before anything runs on a
// controller. Allocates and throws; never needed on the target.
//
//   auto est = frictionlab::estimator::make_estimator<float>(params);  // throws
//   std::invalid_argument
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/estimator/torque_estimator.h"
#include "frictionlab/estimator/torque_estimator.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/models/validation.hpp"

namespace frictionlab::estimator {

/// The problems of a parameter set: models/validation.hpp's check() of the LuGre model (errors and
/// warnings, e.g. a set that is not passive) plus "Km" (> 0) and "hold".
inline std::vector<ParamIssue> check(const EstimatorParams<double>& p) {
  std::vector<ParamIssue> out = frictionlab::check(p.friction);
  validation_detail::Checker c(out);
  c.positive("Km", p.Km);
  if (p.hold != Hold::zoh && p.hold != Hold::linear) c.error("hold", "must be zoh or linear");
  return out;
}

namespace detail {
/// x converted to S, or an error message if it does not survive the conversion (a finite nonzero
/// double that overflows to inf or underflows to 0 in float).
template <class S>
bool representable(double x) {
  if (!std::isfinite(x)) return true;  // reported by check()
  const S y = static_cast<S>(x);
  const double lim = static_cast<double>(std::numeric_limits<S>::max());
  if (std::abs(x) > lim) return false;
  return x == 0.0 || y != S(0);
}
}  // namespace detail

/// The parameters in precision S: every value rounded to nearest. Throws std::invalid_argument
/// naming the parameter if a value overflows or underflows S.
template <class S>
EstimatorParams<S> convert(const EstimatorParams<double>& p) {
  std::string bad;
  auto cv = [&](const char* name, double x) {
    if (!detail::representable<S>(x)) {
      if (!bad.empty()) bad += '\n';
      bad += std::string("parameter '") + name + "': " + format_exact(x) +
             " is not representable in " + (sizeof(S) == 4 ? "float" : "the scalar type");
    }
    return static_cast<S>(x);
  };
  EstimatorParams<S> q;
  q.Km = cv("Km", p.Km);
  q.friction.sigma0 = cv("sigma0", p.friction.sigma0);
  q.friction.sigma1 = cv("sigma1", p.friction.sigma1);
  q.friction.sigma2 = cv("sigma2", p.friction.sigma2);
  q.friction.curve.Fc_pos = cv("Fc_pos", p.friction.curve.Fc_pos);
  q.friction.curve.Fc_neg = cv("Fc_neg", p.friction.curve.Fc_neg);
  q.friction.curve.Fs_pos = cv("Fs_pos", p.friction.curve.Fs_pos);
  q.friction.curve.Fs_neg = cv("Fs_neg", p.friction.curve.Fs_neg);
  q.friction.curve.vs = cv("vs", p.friction.curve.vs);
  q.friction.curve.alpha = cv("alpha", p.friction.curve.alpha);
  q.friction.curve.shape = p.friction.curve.shape;
  q.friction.vd = cv("vd", p.friction.vd);
  q.hold = p.hold;
  if (!bad.empty()) throw std::invalid_argument(bad);
  return q;
}

/// The messages of the errors in `issues` ("parameter 'NAME': message", one per line).
inline std::string error_text(const std::vector<ParamIssue>& issues) {
  std::string s;
  for (const auto& i : issues)
    if (!i.warning) {
      if (!s.empty()) s += '\n';
      s += "parameter '";
      s += i.param;
      s += "': ";
      s += i.message;
    }
  return s;
}

/// A ready estimator in precision S (state zero). Throws std::invalid_argument listing every error
/// of check(p) and every value not representable in S; warnings are appended to *warnings
/// ("parameter 'NAME': message") when given.
template <class S>
TorqueEstimator<S> make_estimator(const EstimatorParams<double>& p,
                                  std::vector<std::string>* warnings = nullptr) {
  const auto issues = check(p);
  if (has_errors(issues)) throw std::invalid_argument(error_text(issues));
  if (warnings)
    for (const auto& i : issues)
      if (i.warning) warnings->push_back("parameter '" + i.param + "': " + i.message);
  TorqueEstimator<S> e;
  const ParamError err = e.init(convert<S>(p));
  if (err != ParamError::ok)
    throw std::invalid_argument(std::string("parameter '") + param_name(err) +
                                "': invalid after conversion to the scalar type");
  return e;
}

/// The C API's parameter struct (fl_estimator_params_f32 or _f64, torque_estimator.h) holding
/// the set p, each value converted to the struct's scalar.
template <class CP, class S>
CP to_c_params(const EstimatorParams<S>& p) noexcept {
  using T = decltype(CP{}.Km);
  const auto& f = p.friction;
  CP c{};
  c.Km = T(p.Km);
  c.sigma0 = T(f.sigma0);
  c.sigma1 = T(f.sigma1);
  c.sigma2 = T(f.sigma2);
  c.Fc_pos = T(f.curve.Fc_pos);
  c.Fc_neg = T(f.curve.Fc_neg);
  c.Fs_pos = T(f.curve.Fs_pos);
  c.Fs_neg = T(f.curve.Fs_neg);
  c.vs = T(f.curve.vs);
  c.alpha = T(f.curve.alpha);
  c.vd = T(f.vd);
  c.shape =
      f.curve.shape == StribeckShape::rational ? FL_STRIBECK_RATIONAL : FL_STRIBECK_EXPONENTIAL;
  c.hold = p.hold == Hold::linear ? FL_HOLD_LINEAR : FL_HOLD_ZOH;
  return c;
}

}  // namespace frictionlab::estimator
