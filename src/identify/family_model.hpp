// frictionlab identify: the parameter family of one model (FamilyT<Info>): internal parameters ->
// the model's Params through its folder's Fit (models/fit_form.hpp), the simulation of a record
// at them (run_range), the initial guess's sums (start_ssr) and the Ceres cost (make_cost:
// SimCost, sim_cost.hpp). Generic over the model: names none. Included by families.cpp only.
// docs/identification.md, "Parameterisation".
#pragma once

#include <ceres/jet.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/registry.hpp"
#include "frictionlab/models/sensitivity_states.hpp"
#include "robust.hpp"

namespace frictionlab::identify::detail {

inline constexpr int kE = kMaxFitElements;  // element arrays of the fitting instantiations
inline constexpr int kMaxTheta = 40;  // internal parameters at most (GMS asym, 12 elements: 32)

/// Reference 000's names of the bristle parameters in the sensorless problem.
inline std::string ref_name(const std::string& field, bool sensorless) {
  if (!sensorless) return field;
  if (field == "sigma0") return "S0";
  if (field == "sigma1") return "S1";
  if (field == "sigma2") return "Kw";
  if (field == "vs") return "Vth";
  return field;
}

/// Calls fn(std::integral_constant<int, N>) for the smallest supported Jet size N >= p.
template <class Fn>
decltype(auto) with_jet_size(int p, Fn&& fn) {
  if (p <= 1) return fn(std::integral_constant<int, 1>{});
  if (p <= 2) return fn(std::integral_constant<int, 2>{});
  if (p <= 4) return fn(std::integral_constant<int, 4>{});
  if (p <= 8) return fn(std::integral_constant<int, 8>{});
  if (p <= 12) return fn(std::integral_constant<int, 12>{});
  if (p <= 16) return fn(std::integral_constant<int, 16>{});
  if (p <= 24) return fn(std::integral_constant<int, 24>{});
  return fn(std::integral_constant<int, 32>{});
}

template <class Info>
class FamilyT;
template <class Info, int N>
class SimCost;

/// Fit::Sensitivity where it is the model's own (its Params those of M: a Fit derived from
/// another keeps the Jet path unless it declares its own) for M's states; void otherwise.
template <class Fit, class M>
constexpr auto sensitivity_of() {
  if constexpr (requires { typename Fit::Sensitivity; }) {
    if constexpr (std::is_same_v<typename Fit::Sensitivity::Params, typename M::Params> &&
                  SensitivityStates<typename Fit::Sensitivity>::kStates == M::kNumStates)
      return std::type_identity<typename Fit::Sensitivity>{};
    else
      return std::type_identity<void>{};
  } else {
    return std::type_identity<void>{};
  }
}

/// The Jacobian's time segments (SimCost): a fixed number, so that the result does not depend
/// on the number of threads; records shorter than kSegments * kMinSegmentSamples are not split.
/// 16 rather than 8: the threads' last segments end closer together (docs/benchmarks.md).
inline constexpr int kSegments = 16;
inline constexpr long kMinSegmentSamples = 1000;

template <class Info>
class FamilyT final : public Family {
  using Fit = typename Info::Fit;

 public:
  FamilyT(Fit fit, bool sensorless, bool rotary) : fit_(std::move(fit)) {
    sensorless_ = sensorless;
    default_starts_ = Fit::starts;
    const bool rot = rotary || sensorless;
    if (sensorless) info_.push_back({"Km", "Km", "Nm/A", FitScale::log, true});
    std::vector<FitParam> own;
    FitParamList list{own};
    fit_.declare(list);
    for (const auto& p : own)
      info_.push_back({p.field, ref_name(p.field, sensorless), std::string(unit_text(p.unit, rot)),
                       p.scale, p.is_static});
    // Reported parameters: Km, then the model's list (reference 000's names in the sensorless
    // problem).
    const int off = sensorless ? 1 : 0;
    if (sensorless) user_.push_back({"Km", "Km", "Nm/A", 0});
    std::vector<ReportedParam> reported;
    fit_.report(own, reported);
    for (const auto& r : reported) {
      const int internal = r.internal >= 0 ? off + r.internal : -1;
      user_.push_back(
          {r.field, ref_name(r.field, sensorless), std::string(unit_text(r.unit, rot)), internal});
    }
  }

  template <class S>
  using Model = typename Fit::template Model<S, kE>;

  /// The simulation of the record from rest at sample 0: the prediction at every sample to
  /// `sink` (run_range over the whole record).
  template <class S, class Sink>
  void run(const S* theta, const FitData& d, Method m, Hold h, Sink&& sink) const {
    run_range<S>(theta, d, m, h, 0, d.n(), typename Model<S>::State{}, sink);
  }

  /// Models whose state is an array of at most 2 values (M::to_array / from_array) can have
  /// their Jacobian evaluated by time segments (SimCost).
  template <int N>
  static constexpr bool kSegmentable =
      HasArrayState<Model<ceres::Jet<double, N>>>&& Model<double>::kNumStates <= 2;
  /// The model's forward sensitivities for the fit's fast path (Fit::Sensitivity,
  /// models/fit_form.hpp), void for the Jet path.
  using Sensitivity = typename decltype(sensitivity_of<Fit, Model<double>>())::type;
  /// The size of the state as an array (a segment's start): the model's states, and after them
  /// what its sensitivities carry undifferentiated (GMS: the elements' regimes).
  static constexpr int kStates = [] {
    if constexpr (std::is_void_v<Sensitivity>) {
      return Model<double>::kNumStates;
    } else {
      return SensitivityStates<Sensitivity>::kArrayStates;
    }
  }();

  /// The simulation from the state x at sample k0: the prediction at every sample k0 <= k < k1
  /// to `sink`; returns the state at k1 (at n - 1 for k1 = n). A sink that takes two
  /// predictions, sink(k, pred, pred2), also gets the prediction with the force of theta2 from
  /// the same states (theta2 differs from theta only in force_affine parameters: the start_ssr
  /// runs of several values); its force is evaluated from theta2's own parameters throughout
  /// (what a model precomputes at a velocity, M::at, may hold them: a damping sigma1;
  /// M::at_force_only rebuilds just that from theta's).
  template <class S, class Sink>
  typename Model<S>::State run_range(const S* theta, const FitData& d, Method m, Hold h, long k0,
                                     long k1, typename Model<S>::State x, Sink&& sink,
                                     const S* theta2 = nullptr) const {
    constexpr bool kTwo = std::is_invocable_v<Sink&, long, const S&, const S&>;
    std::array<S, kMaxTheta> nat{}, nat2{};
    natural(theta, nat.data());
    const int off = sensorless_ ? 1 : 0;
    using M = Model<S>;
    const typename M::Params p = fit_.template params<S, kE>(nat.data() + off);
    typename M::Params p2 = p;
    if constexpr (kTwo) {
      natural(theta2, nat2.data());
      p2 = fit_.template params<S, kE>(nat2.data() + off);
    }
    // The prediction(s) at sample k from the force F there; force2() the force with p2.
    const auto emit = [&](long k, const S& F, const auto& force2) {
      const auto uk = static_cast<std::size_t>(k);
      if constexpr (kTwo) {
        const S F2 = force2();
        sink(k, sensorless_ ? S(nat[0] * S(d.i[uk]) - F) : F,
             sensorless_ ? S(nat2[0] * S(d.i[uk]) - F2) : F2);
      } else {
        sink(k, sensorless_ ? S(nat[0] * S(d.i[uk]) - F) : F);
      }
    };
    const long n = d.n();
    if constexpr (HasLinearAt<M>) {
      if (m == Method::exact && h == Hold::linear && k0 < k1) {
        // (g(v) once per sample, for the force and the two steps it ends and starts)
        auto w = M::at(p, S(d.v[static_cast<std::size_t>(k0)]));
        for (long k = k0; k < k1; ++k) {
          const auto uk = static_cast<std::size_t>(k);
          emit(k, M::force(p, x, w), [&] { return M::force(p2, x, at_of_other<M>(p2, w)); });
          if (k + 1 == n) break;
          const auto w1 = M::at(p, S(d.v[uk + 1]));
          x = M::step_linear(p, x, w, w1, S(d.t[uk + 1] - d.t[uk]));
          w = w1;
        }
        return x;
      }
    }
    for (long k = k0; k < k1; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      const S vk(d.v[uk]);
      if constexpr (HasAtVelocity<M>) {
        if (m == Method::exact && h == Hold::zoh) {  // (the scans: g(v) once per sample)
          const auto w = M::at(p, vk);
          emit(k, M::force(p, x, w), [&] { return M::force(p2, x, at_of_other<M>(p2, w)); });
          if (k + 1 == n) break;
          x = M::step(p, x, w, S(d.t[uk + 1] - d.t[uk]));
          continue;
        }
      }
      emit(k, M::force(p, x, vk), [&] { return M::force(p2, x, vk); });
      if (k + 1 == n) break;
      x = advance<M>(p, x, vk, S(d.v[uk + 1]), S(d.t[uk + 1] - d.t[uk]), m, h);
    }
    return x;
  }

  /// M::at(p2, w.v) from w = M::at(p, w.v), p2 differing from p in force-affine parameters
  /// only: just what they change where the model says what that is (M::at_force_only).
  template <class M>
  static typename M::AtVelocity at_of_other(const typename M::Params& p2,
                                            const typename M::AtVelocity& w) {
    if constexpr (requires { M::at_force_only(p2, w); }) {
      return M::at_force_only(p2, w);
    } else {
      return M::at(p2, w.v);
    }
  }

  /// The model's parameters at theta, and Km (1 outside the sensorless problem).
  template <class S>
  std::pair<typename Model<S>::Params, S> params_at(const S* theta) const {
    std::array<S, kMaxTheta> nat{};
    natural(theta, nat.data());
    const int off = sensorless_ ? 1 : 0;
    return {fit_.template params<S, kE>(nat.data() + off), sensorless_ ? nat[0] : S(1)};
  }

  /// The state from / as its array (M::from_array / M::to_array; segmentable models).
  /// (A model without an array form has it from its sensitivities, in double: Maxwell slip.)
  template <class S>
  static typename Model<S>::State state_of(const std::array<S, kStates>& z) {
    if constexpr (HasArrayState<Model<S>>) {
      return Model<S>::from_array(z.data());
    } else {
      return Sensitivity::from_array(z);
    }
  }
  template <class S>
  static std::array<S, kStates> state_array(const typename Model<S>::State& x) {
    if constexpr (HasArrayState<Model<S>>) {
      std::array<S, kStates> out{};
      Model<S>::to_array(x, out.data());
      return out;
    } else {
      return Sensitivity::to_array(x);
    }
  }

  void predict(const double* theta, const FitData& d, Method m, Hold h,
               double* out) const override {
    run<double>(theta, d, m, h, [&](long k, const double& pred) { out[k] = pred; });
  }

  std::unique_ptr<SsrRun> start_ssr(const double* theta, const FitData& d, Method m, Hold h,
                                    int affine, std::span<const double> values) const override {
    // One value: the sum of the residuals' squares. Several values of a force-affine parameter:
    // the residuals at a0 = values[0] and their change per unit of the parameter from the same
    // states (theta2: a0 + 1), three running sums (see the declaration).
    class Run final : public SsrRun {
     public:
      Run(const FamilyT& f, const double* theta, const FitData& d, Method m, Hold h, int affine,
          std::span<const double> values)
          : f_(f),
            theta_(theta, theta + f.size()),
            d_(d),
            m_(m),
            h_(h),
            values_(values.begin(), values.end()) {
        sums_.assign(std::max<std::size_t>(values_.size(), 1), 0.0);
        if (affine < 0) return;
        const auto ui = static_cast<std::size_t>(affine);
        theta_[ui] = values_[0];  // natural = internal: the scale is not log
        theta2_ = theta_;
        theta2_[ui] = values_[0] + 1.0;
      }
      double advance(long k_end) override {
        k_end = std::min(k_end, d_.n());
        if (k_ < k_end) {
          double rr = rr_, rd = rd_, dd = dd_;
          if (theta2_.empty()) {
            x_ = f_.template run_range<double>(
                theta_.data(), d_, m_, h_, k_, k_end, x_, [this, &rr](long k, const double& pred) {
                  if (k < d_.first) return;
                  const double r = d_.y[static_cast<std::size_t>(k)] - pred;
                  rr += r * r;
                });
          } else {
            x_ = f_.template run_range<double>(
                theta_.data(), d_, m_, h_, k_, k_end, x_,
                [this, &rr, &rd, &dd](long k, const double& pred, const double& pred2) {
                  if (k < d_.first) return;
                  const double r = d_.y[static_cast<std::size_t>(k)] - pred, dp = pred2 - pred;
                  rr += r * r;
                  rd += r * dp;
                  dd += dp * dp;
                },
                theta2_.data());
          }
          rr_ = rr;
          rd_ = rd;
          dd_ = dd;
          k_ = k_end;
        }
        if (theta2_.empty()) {
          sums_[0] = rr_;
          return rr_;
        }
        double lowest = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < values_.size(); ++j) {
          const double da = values_[j] - values_[0];
          sums_[j] = j == 0 ? rr_ : rr_ - 2 * da * rd_ + da * da * dd_;
          if (!std::isfinite(sums_[j])) sums_[j] = std::numeric_limits<double>::quiet_NaN();
          if (sums_[j] < lowest) lowest = sums_[j];
        }
        return std::isfinite(lowest) ? lowest : std::numeric_limits<double>::quiet_NaN();
      }

     private:
      const FamilyT& f_;
      std::vector<double> theta_, theta2_;  // theta2_: empty for one value
      const FitData& d_;
      Method m_;
      Hold h_;
      std::vector<double> values_;
      double rr_ = 0, rd_ = 0, dd_ = 0;
      typename Model<double>::State x_{};
    };
    if (affine >= 0 &&
        (!force_affine(affine) || info_[static_cast<std::size_t>(affine)].tf == FitScale::log ||
         values.empty()))
      throw std::invalid_argument(
          "start_ssr: parameter " + std::to_string(affine) +
          " is not a force-affine parameter on a linear scale, or no values");
    return std::make_unique<Run>(*this, theta, d, m, h, affine,
                                 affine < 0 ? std::span<const double>() : values);
  }

  bool force_affine(int i) const override {
    if (i < 0 || i >= size()) return false;
    if constexpr (requires { Fit::force_affine; }) {
      for (std::string_view f : Fit::force_affine)
        if (info_[static_cast<std::size_t>(i)].field == f) return true;
    }
    return false;
  }

  void user_values(const double* theta, double* u) const override {
    std::array<double, kMaxTheta> nat{};
    natural(theta, nat.data());
    user_from_natural<double>(nat.data(), u);
  }

  void user_jacobian(const double* theta, const std::vector<int>& free, double* G) const override {
    const auto q = user_.size();
    const auto nf = free.size();
    if (nf == 0) return;
    with_jet_size(static_cast<int>(nf), [&](auto nc) {
      constexpr int N = decltype(nc)::value;
      using J = ceres::Jet<double, N>;
      std::array<J, kMaxTheta> th{}, nat{};
      for (int i = 0; i < size(); ++i) th[static_cast<std::size_t>(i)] = J(theta[i]);
      for (std::size_t j = 0; j < nf; ++j)
        th[static_cast<std::size_t>(free[j])] = J(theta[free[j]], static_cast<int>(j));
      natural(th.data(), nat.data());
      std::array<J, kMaxTheta + 1> u{};
      user_from_natural<J>(nat.data(), u.data());
      for (std::size_t r = 0; r < q; ++r)
        for (std::size_t j = 0; j < nf; ++j) G[r * nf + j] = u[r].v[static_cast<int>(j)];
    });
  }

  std::unique_ptr<ceres::CostFunction> make_cost(const FitData& d, const std::vector<double>& theta,
                                                 const std::vector<int>& free, const Robust& loss,
                                                 int threads, bool jets) const override {
    // Room in the Jet for the segment's start state when the evaluation is segmented.
    const bool segmented =
        threads > 1 && kSegmentable<8> && d.n() >= kSegments * kMinSegmentSamples;
    const int width = static_cast<int>(free.size()) + (segmented ? kStates : 0);
    return with_jet_size(width, [&](auto nc) -> std::unique_ptr<ceres::CostFunction> {
      constexpr int N = decltype(nc)::value;
      return std::make_unique<SimCost<Info, N>>(*this, d, theta, free, loss, threads, jets);
    });
  }

  ModelSpec fitted(const double* theta) const override {
    std::array<double, kMaxTheta> nat{};
    natural(theta, nat.data());
    using P = decltype(fit_.template params<double, kSpecElements>(nat.data()));
    static_assert(std::is_same_v<P, typename Info::Params>,
                  "Fit::params<double, kSpecElements> must give the descriptor's Params");
    return Info::spec(
        fit_.template params<double, kSpecElements>(nat.data() + (sensorless_ ? 1 : 0)));
  }

  std::optional<FitStructure> nested() const override {
    if constexpr (requires { fit_.nested(); }) {
      return fit_.nested();
    } else {
      return std::nullopt;
    }
  }

  std::vector<double> embed(const Family& nested,
                            const std::vector<double>& nested_nat) const override {
    const std::size_t off = sensorless_ ? 1 : 0;
    const auto strip = [&](const std::vector<ParamInfo>& info) {
      std::vector<FitParam> out;
      for (std::size_t i = off; i < info.size(); ++i)
        out.push_back({info[i].field, Unit::none, info[i].tf, info[i].is_static});
      return out;
    };
    const auto own = strip(info_), inner = strip(nested.info());
    const std::vector<double> inner_nat(nested_nat.begin() + static_cast<std::ptrdiff_t>(off),
                                        nested_nat.end());
    std::vector<double> nat;
    if constexpr (requires { fit_.embed(inner, inner_nat, own, nat); }) {
      fit_.embed(inner, inner_nat, own, nat);
    } else {
      embed_by_field(inner, inner_nat, own, nat);
    }
    if (sensorless_) nat.insert(nat.begin(), nested_nat[0]);
    return nat;
  }

  double steady(const double* theta, double v) const override {
    std::array<double, kMaxTheta> nat{};
    natural(theta, nat.data());
    using M = typename Fit::template Model<double, kE>;
    return M::steady_force(fit_.template params<double, kE>(nat.data() + (sensorless_ ? 1 : 0)), v);
  }

 private:
  template <class S>
  void natural(const S* theta, S* nat) const {
    using std::exp;
    for (int i = 0; i < size(); ++i)
      nat[i] = info_[static_cast<std::size_t>(i)].tf == FitScale::log ? exp(theta[i]) : theta[i];
  }

  template <class S>
  void user_from_natural(const S* nat, S* u) const {
    const int off = sensorless_ ? 1 : 0;
    if (sensorless_) u[0] = nat[0];
    fit_.template reported<S>(nat + off, u + off, size() - off);
  }

  Fit fit_;
};

}  // namespace frictionlab::identify::detail
