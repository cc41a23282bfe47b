// frictionlab identify: the Family of a model, what every fit method works with.
//
// A Family maps an internal parameter vector theta (log for strictly positive parameters, plain
// for non-negative ones with a bound at 0, plain and unbounded for logits/softmax weights) to
// a model's Params, simulates the prediction of the measured channel, and builds the Ceres cost
// (autodiff with ceres::Jet through the whole simulation). See docs/identification.md.
// Implemented by family_model.hpp (FamilyModel) and families.cpp.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fit_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/models/fit_form.hpp"
#include "robust.hpp"

namespace ceres {
class CostFunction;
}

namespace frictionlab::identify::detail {

struct ParamInfo {
  std::string field;  ///< docs/models.md name of the internal parameter (or of its natural value)
  std::string name;   ///< user-facing name
  std::string unit;
  FitScale tf = FitScale::log;  ///< how theta maps to the natural value
  bool is_static = false;       ///< Km or part of the static curve (first stage of two-stage)
};

/// A reported (user) parameter: a function of the natural values.
struct UserInfo {
  std::string field, name, unit;
  int internal = -1;  ///< the internal parameter it equals (natural value), -1 if a combination
};

/// A simulation of a prediction's sum of squared residuals that goes on where it stopped
/// (Family::start_ssr): the scans simulate every candidate's first samples, then finish the
/// most promising first. One run can give the sums of several values of a parameter the
/// prediction is affine in and the state does not depend on (Family::force_affine): one
/// simulation for all of them.
class SsrRun {
 public:
  virtual ~SsrRun() = default;
  /// Simulates up to sample min(k_end, n) and returns the lowest of the partial sums of squares
  /// sum_{d.first <= k < k_end} (y_k - pred_k)^2 (sums()).
  virtual double advance(long k_end) = 0;
  /// The samples simulated so far.
  long done() const { return k_; }
  /// The partial sums so far, one per value of the affine parameter (one for a run without):
  /// a single value's summed in the order of k, like the first of several values'.
  const std::vector<double>& sums() const { return sums_; }

 protected:
  long k_ = 0;
  std::vector<double> sums_;
};

class Family {
 public:
  /// Samples between two checks of a partial sum of squares against a bound (ssr_below, the
  /// scans).
  static constexpr long kSsrChunk = 2048;

  virtual ~Family() = default;
  const std::vector<ParamInfo>& info() const { return info_; }
  const std::vector<UserInfo>& user_info() const { return user_; }
  int size() const { return static_cast<int>(info_.size()); }
  bool sensorless() const { return sensorless_; }
  /// The model's number of lsq starts when LsqOptions::starts is 0 (its Fit's `starts`).
  int default_starts() const { return default_starts_; }
  /// Index of the internal parameter with this field, -1 if none.
  int index(std::string_view field) const;

  std::vector<double> to_internal(const std::vector<double>& natural) const;
  std::vector<double> to_natural(const std::vector<double>& theta) const;

  /// Prediction of the measured channel at every sample (simulated from rest at t[0]).
  virtual void predict(const double* theta, const FitData& d, Method m, Hold h,
                       double* out) const = 0;
  /// The sum of squared residuals of that prediction, simulated on demand (SsrRun::advance);
  /// theta is copied.
  std::unique_ptr<SsrRun> start_ssr(const double* theta, const FitData& d, Method m, Hold h) const {
    return start_ssr(theta, d, m, h, -1, {});
  }
  /// The same for every natural value in `values` of the internal parameter `affine`
  /// (force_affine(affine); theta's own value of it is not used), from one simulation:
  ///   r_k(a) = r_k(a0) - (a - a0) dp_k,  dp_k = pred_k(a0 + 1) - pred_k(a0),  a0 = values[0],
  ///   sum_k r_k(a)^2 = S_rr - 2 (a - a0) S_rd + (a - a0)^2 S_dd
  /// (S_rr, S_rd, S_dd the sums of r_k(a0)^2, r_k(a0) dp_k, dp_k^2: the first value's sum is
  /// the single run's, the others' differ from a simulation of their own by rounding).
  /// affine < 0: theta's prediction alone. Throws std::invalid_argument for a parameter that is
  /// not force_affine or is log-scaled, or no values.
  virtual std::unique_ptr<SsrRun> start_ssr(const double* theta, const FitData& d, Method m, Hold h,
                                            int affine, std::span<const double> values) const = 0;
  /// Whether internal parameter i is a field the model's state does not depend on and its force
  /// is affine in (the Fit's force_affine, models/fit_form.hpp).
  virtual bool force_affine(int i) const = 0;
  /// The sum of squared residuals sum_{k >= d.first} (y_k - pred_k)^2 of that prediction,
  /// summed in the order of k (the same value as from predict), or +inf as soon as a partial
  /// sum is above bound() or not finite (checked every kSsrChunk samples; bound may fall while
  /// this runs). The partial sums only grow, so a simulation whose sum is at most every bound
  /// it sees is never stopped.
  double ssr_below(const double* theta, const FitData& d, Method m, Hold h,
                   const std::function<double()>& bound) const;
  /// Reported parameter values (size user_info().size()).
  virtual void user_values(const double* theta, double* u) const = 0;
  /// d user / d theta[free[j]]: row-major user_info().size() x free.size().
  virtual void user_jacobian(const double* theta, const std::vector<int>& free,
                             double* G) const = 0;
  /// Residuals y_k - pred_k (robustified) for k >= d.first as a Ceres cost with one parameter
  /// block: theta[free[j]], j < free.size(); the other entries of theta stay fixed. `threads`
  /// > 1: the Jacobian is evaluated by time segments in parallel where the model allows it
  /// (families.cpp, SimCost); the result does not depend on the number of threads. The
  /// Jacobian of a model whose Fit declares a Sensitivity (LuGre, Dahl, elasto-plastic) is by its
  /// forward sensitivities in plain double (models/<model>/sensitivity.hpp), the others' by Jets;
  /// `jets` = true takes the Jets for every model (the sensitivities' test oracle).
  virtual std::unique_ptr<ceres::CostFunction> make_cost(const FitData& d,
                                                         const std::vector<double>& theta,
                                                         const std::vector<int>& free,
                                                         const Robust& loss, int threads = 1,
                                                         bool jets = false) const = 0;
  virtual ModelSpec fitted(const double* theta) const = 0;
  /// The structure of the model this one contains (its Fit's nested()), if any.
  virtual std::optional<FitStructure> nested() const = 0;
  /// The natural values `nested_nat` of the family `nested` (made from nested()) as this
  /// family's natural values (Km copied; the model part by its Fit's embed()).
  virtual std::vector<double> embed(const Family& nested,
                                    const std::vector<double>& nested_nat) const = 0;
  virtual double steady(const double* theta, double v) const = 0;

 protected:
  std::vector<ParamInfo> info_;
  std::vector<UserInfo> user_;
  bool sensorless_ = false;
  int default_starts_ = 3;
};

/// The family of a model choice. `alpha` is not handled here (fixing it is the caller's).
std::unique_ptr<Family> make_family(const ModelChoice& m, ProblemKind problem, bool rotary);

/// Whether the model has a state (needs velocity reversals to identify its dynamics).
bool is_dynamic(const ModelChoice& m);
/// The dynamic models with a Stribeck curve (what two-stage fits), in registry order.
std::vector<std::string> two_stage_models();
/// The initial-guess strategy the model's fit.hpp names.
FitInit init_strategy(const ModelChoice& m);

}  // namespace frictionlab::identify::detail
