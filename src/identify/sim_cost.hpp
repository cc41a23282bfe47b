// frictionlab identify: SimCost, the Ceres cost of a family (family_model.hpp): residuals
// y_k - pred_k(theta) and their Jacobian through the whole simulation, by ceres::Jet or by the
// model's forward sensitivities (sensitivity_pass.hpp), by time segments on the helper threads.
// Included by families.cpp only. docs/identification.md, "Jacobian".
#pragma once

#include <ceres/ceres.h>
#include <ceres/jet.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "family_model.hpp"
#include "fit_data.hpp"
#include "linearisation.hpp"
#include "parallel.hpp"
#include "robust.hpp"
#include "sensitivity_pass.hpp"

namespace frictionlab::identify::detail {

/// Residuals y_k - pred_k(theta) for k >= first, Jacobian by forward-mode autodiff (Jet<N>)
/// through the simulation.
///
/// Segmented evaluation (models with an array state of at most 2 entries, `threads` > 1, a long
/// enough record): the record is cut into kSegments time segments. A value-only simulation gives
/// the state z_s at each segment start; each segment is then simulated with Jets on its own
/// thread from z_s, with derivative components for the free parameters (j < nf) and for z_s
/// itself (nf + i). By the chain rule the total derivative of a prediction in segment s is
///   dp/dtheta = (dp/dtheta)|z_s + (dp/dz_s) D_s,   D_s = dz_s/dtheta,
/// and D_{s+1} = (dz_{s+1}/dtheta)|z_s + (dz_{s+1}/dz_s) D_s with D_1 from segment 0 (which
/// starts from rest): a sequential pass over the rows combines the segments exactly (the
/// sensitivity equations are linear). The values are those of the serial simulation up to
/// rounding (each segment starts from the value-only state).
template <class Info, int N>
class SimCost final : public ceres::CostFunction, public KeepsJacobian {
 public:
  static constexpr int kJetSize = N;

  SimCost(const FamilyT<Info>& fam, const FitData& d, std::vector<double> theta,
          std::vector<int> free, Robust loss, int threads, bool jets_only)
      : fam_(fam),
        d_(d),
        theta_(std::move(theta)),
        free_(std::move(free)),
        loss_(loss),
        threads_(threads),
        jets_only_(jets_only) {
    set_num_residuals(static_cast<int>(d_.m()));
    mutable_parameter_block_sizes()->push_back(static_cast<int>(free_.size()));
  }

  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    const auto nf = free_.size();
    bool ok = true;
    if (jacobians == nullptr || jacobians[0] == nullptr) {
      std::vector<double> th = theta_;
      for (std::size_t j = 0; j < nf; ++j)
        th[static_cast<std::size_t>(free_[j])] = parameters[0][j];
      const auto sink = [&](long k, const double& pred) {
        ok = put_residual(residuals, k, pred) && ok;
      };
      if constexpr (kSens) {
        if (!jets_only_ && segmented(nf) && !ends_the_solve(parameters[0])) {
          // The residuals by the value simulation, and the Jacobian at this point at the same
          // time on the other threads (sensitivity_pass: each segment as soon as the value
          // simulation has reached its start): Ceres asks for it here next when it accepts the
          // step, which is most steps; a rejected step costs the other threads' work only. Not
          // for a step that ends the solve without a Jacobian (ends_the_solve).
          if (const auto su = sens_setup(parameters[0])) {
            spec_residuals_.resize(static_cast<std::size_t>(d_.m()));
            spec_jacobian_.resize(static_cast<std::size_t>(d_.m()) * nf);
            spec_ok_ = sensitivity_dispatch(*su, parameters[0], th, spec_residuals_.data(),
                                            spec_jacobian_.data(), residuals, &ok);
            spec_x_.assign(parameters[0], parameters[0] + nf);
            spec_at_jacobian_ = false;
            return ok;
          }
        }
      }
      if constexpr (FamilyT<Info>::template kSegmentable<N>) {
        if (segmented(nf)) {
          // The same simulation, by segments: their start states are kept for the Jacobian
          // that Ceres asks for at this point when it accepts the step.
          const auto b = bounds();
          cache_z0_ = simulate_by_segments(th, b, sink, true);
          cache_x_.assign(parameters[0], parameters[0] + nf);
          return ok;
        }
      }
      fam_.template run<double>(th.data(), d_, Method::exact, d_.hold, sink);
      return ok;
    }
    spec_at_jacobian_ = false;
    if constexpr (kSens) {
      if (!jets_only_) {
        if (spec_x_.size() == nf && std::equal(spec_x_.begin(), spec_x_.end(), parameters[0])) {
          std::copy(spec_residuals_.begin(), spec_residuals_.end(), residuals);
          std::copy(spec_jacobian_.begin(), spec_jacobian_.end(), jacobians[0]);
          spec_at_jacobian_ = true;
          return spec_ok_;
        }
        if (const auto su = sens_setup(parameters[0])) {
          std::vector<double> th = theta_;
          for (std::size_t j = 0; j < nf; ++j)
            th[static_cast<std::size_t>(free_[j])] = parameters[0][j];
          const bool good = sensitivity_dispatch(*su, parameters[0], th, residuals, jacobians[0],
                                                 nullptr, nullptr);
          if (segmented(nf)) {  // kept for the linear model of the next step (ends_the_solve)
            const auto m = static_cast<std::size_t>(d_.m());
            spec_residuals_.assign(residuals, residuals + m);
            spec_jacobian_.assign(jacobians[0], jacobians[0] + m * nf);
            spec_x_.assign(parameters[0], parameters[0] + nf);
            spec_ok_ = good;
            spec_at_jacobian_ = true;
          }
          return good;
        }
      }
    }
    if constexpr (FamilyT<Info>::template kSegmentable<N>) {
      if (segmented(nf)) return evaluate_segmented(parameters[0], residuals, jacobians[0]);
    }
    using J = ceres::Jet<double, N>;
    std::vector<J> th(theta_.size());
    for (std::size_t i = 0; i < theta_.size(); ++i) th[i] = J(theta_[i]);
    for (std::size_t j = 0; j < nf; ++j)
      th[static_cast<std::size_t>(free_[j])] = J(parameters[0][j], static_cast<int>(j));
    fam_.template run<J>(th.data(), d_, Method::exact, d_.hold, [&](long k, const J& pred) {
      if (k < d_.first) return;
      const J r = loss_.apply(J(d_.y[static_cast<std::size_t>(k)]) - pred);
      const long row = k - d_.first;
      residuals[row] = r.a;
      double* jr = jacobians[0] + static_cast<std::size_t>(row) * nf;
      for (std::size_t j = 0; j < nf; ++j) jr[j] = r.v[static_cast<int>(j)];
      ok = ok && std::isfinite(r.a) && r.v.allFinite();
    });
    return ok;
  }

  /// The Jacobian kept with the residuals of the last residual-only evaluation, or from the
  /// last evaluation with a Jacobian (the model's sensitivities on segments), read in place.
  bool kept_at(const double* x, const double*& residuals, const double*& jacobian,
               bool& ok) const override {
    if constexpr (kSens) {
      const auto nf = free_.size();
      if (!jets_only_ && spec_x_.size() == nf && std::equal(spec_x_.begin(), spec_x_.end(), x)) {
        residuals = spec_residuals_.data();
        jacobian = spec_jacobian_.data();
        ok = spec_ok_;
        spec_at_jacobian_ = true;
        return true;
      }
    }
    return false;
  }
  /// The normal equations of the kept Jacobian, assembled from the segments' parts by the pass
  /// that computed it (sensitivity_pass).
  bool normal_at(const double* x, Eigen::MatrixXd& normal, Eigen::VectorXd& g,
                 double& ss) const override {
    const auto nf = free_.size();
    if (ne_x_.size() != nf || !std::equal(ne_x_.begin(), ne_x_.end(), x)) return false;
    normal = ne_N_;
    g = ne_g_;
    ss = ne_ss_;
    return true;
  }

 private:
  bool evaluate_segmented(const double* x, double* residuals, double* jac) const {
    using J = ceres::Jet<double, N>;
    constexpr int ns = FamilyT<Info>::kStates;
    const auto nf = free_.size();
    const long n = d_.n();
    const auto b = bounds();
    std::vector<double> th = theta_;
    for (std::size_t j = 0; j < nf; ++j) th[static_cast<std::size_t>(free_[j])] = x[j];
    const std::vector<StateArray> z0 = start_states(x, th, b);
    std::vector<J> tj(theta_.size());
    for (std::size_t i = 0; i < theta_.size(); ++i) tj[i] = J(theta_[i]);
    for (std::size_t j = 0; j < nf; ++j)
      tj[static_cast<std::size_t>(free_[j])] = J(x[j], static_cast<int>(j));
    // Per segment: the rows' derivatives with respect to z_s, and the end state (with its
    // derivatives with respect to theta and z_s).
    std::vector<double> dpdz(static_cast<std::size_t>(n) * ns, 0.0);
    std::vector<std::array<J, ns>> end(kSegments);
    std::vector<char> seg_ok(kSegments, 1);
    const auto segment = [&](int s) {
      const auto us = static_cast<std::size_t>(s);
      std::array<J, ns> zs{};
      for (int i = 0; i < ns; ++i)
        zs[static_cast<std::size_t>(i)] =
            s == 0 ? J(0.0) : J(z0[us][static_cast<std::size_t>(i)], static_cast<int>(nf) + i);
      bool good = true;
      const auto sink = [&](long k, const J& pred) {
        if (k < d_.first) return;
        const J r = loss_.apply(J(d_.y[static_cast<std::size_t>(k)]) - pred);
        const long row = k - d_.first;
        residuals[row] = r.a;
        double* jr = jac + static_cast<std::size_t>(row) * nf;
        for (std::size_t j = 0; j < nf; ++j) jr[j] = r.v[static_cast<int>(j)];
        for (int i = 0; i < ns; ++i)
          dpdz[static_cast<std::size_t>(k) * ns + static_cast<std::size_t>(i)] =
              r.v[static_cast<int>(nf) + i];
        good = good && std::isfinite(r.a) && r.v.allFinite();
      };
      end[us] = fam_.template state_array<J>(
          fam_.template run_range<J>(tj.data(), d_, Method::exact, d_.hold, b[us], b[us + 1],
                                     fam_.template state_of<J>(zs), sink));
      seg_ok[us] = good ? 1 : 0;
    };
    for_each_index(kSegments, threads_, [&](std::size_t s) { segment(static_cast<int>(s)); });
    for (char c : seg_ok)
      if (!c) return false;
    // Chain the segments: D (ns x nf) = dz_s / dtheta.
    std::array<std::array<double, N>, ns> D{};
    for (int i = 0; i < ns; ++i)
      for (std::size_t j = 0; j < nf; ++j)
        D[static_cast<std::size_t>(i)][j] =
            end[0][static_cast<std::size_t>(i)].v[static_cast<int>(j)];
    for (int s = 1; s < kSegments; ++s) {
      const auto us = static_cast<std::size_t>(s);
      add_chained_rows(jac, nf, dpdz.data(), ns, std::max(b[us], d_.first), b[us + 1], d_.first,
                       [&D](int i, std::size_t j) { return D[static_cast<std::size_t>(i)][j]; });
      std::array<std::array<double, N>, ns> Dn{};
      for (int i = 0; i < ns; ++i)
        for (std::size_t j = 0; j < nf; ++j) {
          double v = end[us][static_cast<std::size_t>(i)].v[static_cast<int>(j)];
          for (int l = 0; l < ns; ++l)
            v += end[us][static_cast<std::size_t>(i)].v[static_cast<int>(nf) + l] *
                 D[static_cast<std::size_t>(l)][j];
          Dn[static_cast<std::size_t>(i)][j] = v;
        }
      D = Dn;
    }
    return true;
  }

  /// The model's sensitivities (Fit::Sensitivity, models/fit_form.hpp), or void.
  using Sens = typename FamilyT<Info>::Sensitivity;
  static constexpr bool kSens = !std::is_void_v<Sens>;
  static constexpr int kFields = [] {
    if constexpr (kSens) {
      return Sens::kFields;
    } else {
      return 1;
    }
  }();

  /// What the sensitivities derive from the parameterisation once per evaluation.
  struct SensSetup {
    std::array<std::array<double, N>, kFields> Dq{};  ///< dq/dtheta
    std::array<double, N> dkm{};                      ///< dKm/dtheta
    std::array<int, N> lane{};  ///< theta j's direction, -1: it does not move z
    int n_lanes = 0;            ///< directions that move z (the start states' follow)
    int n_states = 1;           ///< the states the parameters use (a lane each)
  };

  /// What the sensitivity pass (sensitivity_pass.hpp) needs at x: dq/dtheta, dKm/dtheta and the
  /// lanes. nullopt (the Jet path instead) for parameters the sensitivities do not cover
  /// (Sens::covers) or more lanes than the model's kMaxLanes (SensitivityStates: 8 by default).
  std::optional<SensSetup> sens_setup(const double* x) const {
    using J = ceres::Jet<double, N>;
    const auto nf = free_.size();
    if (nf > static_cast<std::size_t>(N)) return std::nullopt;
    std::vector<J> tj(theta_.size());
    for (std::size_t i = 0; i < theta_.size(); ++i) tj[i] = J(theta_[i]);
    for (std::size_t j = 0; j < nf; ++j)
      tj[static_cast<std::size_t>(free_[j])] = J(x[j], static_cast<int>(j));
    const auto at_j = fam_.template params_at<J>(tj.data());
    if (!Sens::template covers<J>(at_j.first)) return std::nullopt;
    // dq/dtheta (kFields x nf) and dKm/dtheta.
    SensSetup su;
    const auto qj = Sens::template fields<J>(at_j.first);
    for (int q = 0; q < kFields; ++q)
      for (std::size_t j = 0; j < nf; ++j)
        su.Dq[static_cast<std::size_t>(q)][j] =
            qj[static_cast<std::size_t>(q)].v[static_cast<int>(j)];
    for (std::size_t j = 0; j < nf; ++j) su.dkm[j] = at_j.second.v[static_cast<int>(j)];
    // The directions that move z: a lane each, then the start states'.
    for (std::size_t j = 0; j < nf; ++j) {
      bool moves_z = false;
      for (int q : Sens::kStateFields)
        moves_z = moves_z || su.Dq[static_cast<std::size_t>(q)][j] != 0.0;
      su.lane[j] = moves_z ? su.n_lanes++ : -1;
    }
    su.n_states = SensitivityStates<Sens>::states(at_j.first);
    if (su.n_lanes + su.n_states > SensitivityStates<Sens>::kMaxLanes) return std::nullopt;
    return su;
  }

  /// sensitivity_pass with the fewest lanes that hold the directions.
  bool sensitivity_dispatch(const SensSetup& su, const double* x, const std::vector<double>& th,
                            double* residuals, double* jac, double* value_residuals,
                            bool* value_ok) const {
    const int lanes = su.n_lanes + su.n_states;
    if (lanes <= 5)
      return sensitivity_pass<5>(su, x, th, residuals, jac, value_residuals, value_ok);
    if constexpr (SensitivityStates<Sens>::kMaxLanes > 8) {
      if (lanes > 8)
        return sensitivity_pass<SensitivityStates<Sens>::kMaxLanes>(su, x, th, residuals, jac,
                                                                    value_residuals, value_ok);
    }
    return sensitivity_pass<8>(su, x, th, residuals, jac, value_residuals, value_ok);
  }

  /// The Jacobian by the model's forward sensitivities in plain double (SensitivityPass):
  /// residuals and jac at x; with value_residuals, also the residuals as a residual-only
  /// evaluation gives them (and their finiteness in *value_ok).
  template <int NL>
  bool sensitivity_pass(const SensSetup& su, const double* x, const std::vector<double>& th,
                        double* residuals, double* jac, double* value_residuals,
                        bool* value_ok) const {
    return SensitivityPass<SimCost, NL>(*this, su, x, th, residuals, jac, value_residuals, value_ok)
        .run();
  }

  using StateArray = std::array<double, FamilyT<Info>::kStates>;

  /// The value-only simulation at th (from rest) by the segments [b[s], b[s+1]) (b.front() = 0,
  /// b.back() = n): every prediction to sink, and the state at each segment start (the same
  /// numbers as one pass). With to_end false the last segment is not simulated.
  template <class Sink>
  std::vector<StateArray> simulate_by_segments(const std::vector<double>& th,
                                               std::span<const long> b, Sink&& sink,
                                               bool to_end) const {
    const std::size_t nseg = b.size() - 1;
    std::vector<StateArray> z0(nseg);
    StateArray z{};
    for (std::size_t s = 0; s < nseg; ++s) {
      z0[s] = z;
      if (s + 1 < nseg || to_end)
        z = fam_.template state_array<double>(
            fam_.template run_range<double>(th.data(), d_, Method::exact, d_.hold, b[s], b[s + 1],
                                            fam_.template state_of<double>(z), sink));
    }
    return z0;
  }

  /// The state at each segment start at the point x (th: theta with x in it): kept from the
  /// residuals' evaluation at x when that was the last one and cut at the same bounds (bit for
  /// bit the same), otherwise simulated.
  std::vector<StateArray> start_states(const double* x, const std::vector<double>& th,
                                       std::span<const long> b) const {
    if (have_start_states(x, b)) return cache_z0_;
    return simulate_by_segments(
        th, b, [](long, const double&) {}, false);
  }
  /// Whether the step to x from the last Jacobian's point decreases the cost by less than
  /// kSpecDecrease of it by the linear model there, |r + J dx|^2 = ss + 2 g^T dx + dx^T N dx
  /// against ss = |r|^2 (from the normal equations the pass that computed the kept Jacobian
  /// formed with it; every successful pass does): Ceres's function tolerance (1e-12, lsq.cpp)
  /// ends the solve at such a step without asking for the Jacobian, so none is computed ahead
  /// for it. A step the model misjudges only costs time: the Jacobian is computed when asked
  /// for.
  bool ends_the_solve(const double* x) const {
    constexpr double kSpecDecrease = 1e-10;
    const std::size_t nf = free_.size();
    if (!spec_at_jacobian_ || !spec_ok_ || ne_x_ != spec_x_) return false;
    std::array<double, N> dx{};
    for (std::size_t j = 0; j < nf; ++j) dx[j] = x[j] - spec_x_[j];
    double change = 0;
    for (std::size_t a = 0; a < nf; ++a) {
      double Na = 0;
      for (std::size_t b = 0; b < nf; ++b)
        Na += ne_N_(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) * dx[b];
      change += dx[a] * (2 * ne_g_(static_cast<Eigen::Index>(a)) + Na);
    }
    return ne_ss_ > 0 && -change < kSpecDecrease * ne_ss_;
  }
  /// The residual of sample k for the prediction pred (loss applied) into out[k - first], for
  /// k >= first; whether it is finite (true before first).
  bool put_residual(double* out, long k, double pred) const {
    if (k < d_.first) return true;
    const double r = loss_.apply(d_.y[static_cast<std::size_t>(k)] - pred);
    out[k - d_.first] = r;
    return std::isfinite(r);
  }
  /// Whether the kept start states are those at x for the segments b.
  bool have_start_states(const double* x, std::span<const long> b) const {
    return cache_z0_.size() + 1 == b.size() && cache_x_.size() == free_.size() &&
           std::equal(cache_x_.begin(), cache_x_.end(), x);
  }

  /// Whether the Jacobian is evaluated by time segments (see the class comment).
  /// (The Jets need room for the start states; the model's sensitivities carry them in lanes of
  /// their own, sens_setup.)
  bool segmented(std::size_t nf) const {
    return threads_ > 1 && (kSens || static_cast<int>(nf) + FamilyT<Info>::kStates <= N) &&
           d_.n() >= kSegments * kMinSegmentSamples;
  }
  /// The segments' first samples, and n.
  std::array<long, kSegments + 1> bounds() const {
    std::array<long, kSegments + 1> b{};
    for (int s = 0; s <= kSegments; ++s) b[static_cast<std::size_t>(s)] = d_.n() * s / kSegments;
    return b;
  }

  template <class Cost, int NL>
  friend class SensitivityPass;

  const FamilyT<Info>& fam_;
  const FitData& d_;
  std::vector<double> theta_;
  std::vector<int> free_;
  Robust loss_;
  int threads_ = 1;
  bool jets_only_ = false;
  // The point of the last residual-only evaluation and its segments' start states (Ceres
  // evaluates a cost function from one thread at a time: lsq.cpp sets num_threads = 1).
  mutable std::vector<double> cache_x_;
  mutable std::vector<StateArray> cache_z0_;
  // The Jacobian computed with the residuals of the last residual-only evaluation (at spec_x_).
  mutable std::vector<double> spec_x_;
  mutable std::vector<double> spec_residuals_;
  mutable std::vector<double> spec_jacobian_;
  mutable bool spec_ok_ = false;
  /// Whether the kept Jacobian is that of the last Jacobian evaluation (the point the solver
  /// stands at).
  mutable bool spec_at_jacobian_ = false;
  // The normal equations of the last successful sensitivity pass, at ne_x_ (normal_at,
  // ends_the_solve).
  mutable std::vector<double> ne_x_;
  mutable Eigen::MatrixXd ne_N_;
  mutable Eigen::VectorXd ne_g_;
  mutable double ne_ss_ = 0;
};

}  // namespace frictionlab::identify::detail
