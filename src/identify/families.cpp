// frictionlab identify: parameter families (internal parameters -> model Params) and the Ceres
// cost that differentiates the whole simulation with ceres::Jet (forward mode, one pass for
// all parameters). A family is generic: each model's parameterisation is its folder's fit.hpp
// (models/fit_form.hpp), found through the registry. docs/identification.md, "Parameterisation".
#include <ceres/ceres.h>
#include <ceres/jet.h>

#include <algorithm>
#include <array>
#include <atomic>
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

#include "frictionlab/format.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/registry.hpp"
#include "internal.hpp"

namespace frictionlab::identify::detail {

namespace {

constexpr int kE = kMaxFitElements;  // element arrays of the fitting instantiations
constexpr int kMaxTheta = 40;        // internal parameters at most (GMS asym, 12 elements: 32)

/// Reference 000's names of the bristle parameters in the sensorless problem.
std::string ref_name(const std::string& field, bool sensorless) {
  if (!sensorless) return field;
  if (field == "sigma0") return "S0";
  if (field == "sigma1") return "S1";
  if (field == "sigma2") return "Kw";
  if (field == "vs") return "Vth";
  return field;
}

// ---- generic family ----------------------------------------------------------------------

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

/// Fit::Sensitivity where it is the model's own (its Params those of M: a Fit derived from
/// another keeps the Jet path unless it declares its own) and M has one state; void otherwise.
template <class Fit, class M>
constexpr auto sensitivity_of() {
  if constexpr (requires { typename Fit::Sensitivity; }) {
    if constexpr (std::is_same_v<typename Fit::Sensitivity::Params, typename M::Params> &&
                  M::kNumStates == 1)
      return std::type_identity<typename Fit::Sensitivity>{};
    else
      return std::type_identity<void>{};
  } else {
    return std::type_identity<void>{};
  }
}

/// The Jacobian's time segments (SimCost): a fixed number, so that the result does not depend
/// on the number of threads; records shorter than kSegments * kMinSegmentSamples are not split.
/// 16 rather than 8: the threads' last segments end closer together (a 30 s fit 1.5 % faster on
/// two threads, alternating with 8).
constexpr int kSegments = 16;
constexpr long kMinSegmentSamples = 1000;

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
      for (long k = std::max(b[us], d_.first); k < b[us + 1]; ++k) {
        double* jr = jac + static_cast<std::size_t>(k - d_.first) * nf;
        for (int i = 0; i < ns; ++i) {
          const double g = dpdz[static_cast<std::size_t>(k) * ns + static_cast<std::size_t>(i)];
          if (g == 0.0) continue;
          for (std::size_t j = 0; j < nf; ++j) jr[j] += g * D[static_cast<std::size_t>(i)][j];
        }
      }
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
    int n_lanes = 0;            ///< directions that move z (the start state's is n_lanes)
  };

  /// The Jacobian by the model's forward sensitivities in plain double (Fit::Sensitivity, e.g.
  /// models/lugre/sensitivity.hpp) instead of Jets. The directions carried through the steps
  /// are the free parameters that move the state z (Sens::kStateFields, seeded with dq/dtheta
  /// from one Jet evaluation of the parameterisation) and the segment's start state; a
  /// parameter that only enters the force (Sens::kForceFields, and Km) has its column from the
  /// force's closed form, dF = sum_q dF/dq e_q (e.g. e_sigma1 zdot + e_sigma2 v). By the same
  /// time segments as evaluate_segmented (kSegments on records of kSegments * kMinSegmentSamples
  /// samples or more, else one), chained through dz/dz_s; the numbers do not depend on the thread
  /// count. Without a robust loss the segments run at once from the start state 0 and are corrected
  /// by their derivatives with respect to it once the true start states are chained
  /// (`guessed` in sensitivity_pass; docs/identification.md, "Segments from a guessed start");
  /// value_residuals then receives the corrected residuals. With one, the start states come
  /// from the value-only simulation at the same point: kept from the residuals' evaluation
  /// (start_states), or computed by one thread while the others already take the segments
  /// whose start it has reached (then with value_residuals, the residuals of that simulation as
  /// a residual-only evaluation gives them, and their finiteness in *value_ok). nullopt (the
  /// Jet path instead) for parameters the sensitivities do not cover (Sens::covers).
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
    // The directions that move z: a lane each, then the start state's.
    for (std::size_t j = 0; j < nf; ++j) {
      bool moves_z = false;
      for (int q : Sens::kStateFields)
        moves_z = moves_z || su.Dq[static_cast<std::size_t>(q)][j] != 0.0;
      su.lane[j] = moves_z ? su.n_lanes++ : -1;
    }
    if (su.n_lanes + 1 > 8) return std::nullopt;
    return su;
  }

  /// sensitivity_pass with the fewest lanes that hold the directions.
  bool sensitivity_dispatch(const SensSetup& su, const double* x, const std::vector<double>& th,
                            double* residuals, double* jac, double* value_residuals,
                            bool* value_ok) const {
    if (su.n_lanes + 1 <= 5)
      return sensitivity_pass<5>(su, x, th, residuals, jac, value_residuals, value_ok);
    return sensitivity_pass<8>(su, x, th, residuals, jac, value_residuals, value_ok);
  }

  template <int NL>
  bool sensitivity_pass(const SensSetup& su, const double* x, const std::vector<double>& th,
                        double* residuals, double* jac, double* value_residuals,
                        bool* value_ok) const {
    const auto nf = free_.size();
    ne_x_.clear();
    const int zl = su.n_lanes;  // the start state's direction
    // (not structured bindings: the lambda below uses them, which clang before 16 rejects)
    const auto at = fam_.template params_at<double>(th.data());
    const typename Sens::Params& p = at.first;
    const double km = at.second;
    const bool sl = fam_.sensorless();
    typename Sens::template Seeds<NL> seeds;
    for (std::size_t j = 0; j < nf; ++j)
      if (su.lane[j] >= 0)
        for (int q = 0; q < kFields; ++q)
          seeds.set(q, su.lane[j], su.Dq[static_cast<std::size_t>(q)][j]);
    // The force-only parameters: dF/dtheta_j = sum_i dF/dq_i e_q_i over Sens::kForceFields q_i.
    constexpr std::size_t nff = Sens::kForceFields.size();
    struct ForceOnly {
      std::size_t j;
      std::array<double, nff> e;
    };
    std::array<ForceOnly, N> force_only{};
    int n_force_only = 0;
    for (std::size_t j = 0; j < nf; ++j) {
      ForceOnly f{j, {}};
      bool moves_f = false;
      for (std::size_t i = 0; i < nff; ++i) {
        f.e[i] = su.Dq[static_cast<std::size_t>(Sens::kForceFields[i])][j];
        moves_f = moves_f || f.e[i] != 0.0;
      }
      if (su.lane[j] < 0 && moves_f) force_only[static_cast<std::size_t>(n_force_only++)] = f;
    }
    // dF/dtheta_j of a force-only parameter from the force's parts at w (`by_start`: of their
    // derivatives with respect to the start state, m_force).
    const auto force_only_column = [](const ForceOnly& f, const auto& per_field) {
      double c = per_field(0) * f.e[0];
      for (std::size_t i = 1; i < nff; ++i) c += per_field(static_cast<int>(i)) * f.e[i];
      return c;
    };
    const long n = d_.n();
    const int nseg = n >= kSegments * kMinSegmentSamples ? kSegments : 1;
    std::vector<long> b(static_cast<std::size_t>(nseg) + 1);
    for (int s = 0; s <= nseg; ++s) b[static_cast<std::size_t>(s)] = n * s / nseg;
    // The start states: kept, or produced by task 0 while the segments run (ready: how many
    // segments' start states are known; segment 0 starts from rest).
    // With residuals affine in the state (no robust loss), every segment runs at once from the
    // start state 0 and is corrected after (`guessed`, see below): no value simulation first,
    // and the numbers at x are the same whatever was evaluated before. With a robust loss the
    // start states are kept from the residuals' evaluation at x, or produced meanwhile.
    std::vector<StateArray> z0;
    const bool guessed = Sens::kAffineStep && nseg > 1 && loss_.kind == LossKind::none;
    const bool kept = !guessed && value_residuals == nullptr && have_start_states(x, b);
    if (kept) {
      z0 = cache_z0_;
    } else {
      z0.assign(static_cast<std::size_t>(nseg), StateArray{});
    }
    std::atomic<int> ready{kept || guessed ? nseg : 1};
    bool v_ok = true;
    const auto produce = [&]() {
      // (its own flag, written to v_ok once: v_ok shares a cache line with what the segments
      // read at every sample, and a write per sample there costs both threads half their speed)
      bool ok_here = true;
      const auto sink = [&ok_here, value_residuals, this](long k, const double& pred) {
        if (value_residuals != nullptr) ok_here = put_residual(value_residuals, k, pred) && ok_here;
      };
      StateArray z{};
      try {
        for (int s = 0; s < nseg; ++s) {
          if (s + 1 == nseg && value_residuals == nullptr) break;
          const auto us = static_cast<std::size_t>(s);
          z = fam_.template state_array<double>(
              fam_.template run_range<double>(th.data(), d_, Method::exact, d_.hold, b[us],
                                              b[us + 1], fam_.template state_of<double>(z), sink));
          if (s + 1 < nseg) {
            z0[us + 1] = z;
            ready.store(s + 2, std::memory_order_release);
            ready.notify_all();
          }
        }
        v_ok = ok_here;
      } catch (...) {
        ready.store(nseg, std::memory_order_release);  // release the waiting segments
        ready.notify_all();
        throw;
      }
    };
    std::vector<double> dpdz(static_cast<std::size_t>(n), 0.0);
    struct End {
      double dz_dzs = 0;
      std::array<double, N> dz_dtheta{};  // with z_s held
      double z = 0;                       // the state (guessed: from the guessed start)
      std::array<double, N> dx_sum{};     // guessed: the arcs' dx summed over the segment (X)
    };
    // guessed: how many segments' true start states are known (z0[0..chained-1]; segment 0
    // starts from rest); every segment commits its correction in order (commit below).
    std::atomic<int> chained{1};
    std::atomic<bool> chain_failed{false};
    std::vector<End> end(static_cast<std::size_t>(nseg));
    std::vector<char> seg_ok(static_cast<std::size_t>(nseg), 1);
    struct SegNormal {
      Eigen::MatrixXd LL;  // L^T L (lower triangle)
      Eigen::VectorXd Lq, Lr;
      double qq = 0, qr = 0, rr = 0;
    };
    std::vector<SegNormal> seg_normal(static_cast<std::size_t>(nseg));
    const double sgn_f = sl ? -1.0 : 1.0;  // pred = Km i - F (sensorless) or F
    // A segment's part of the normal equations while its rows are in cache: with L its rows
    // before the chaining below and q = dpdz, its rows after it are L + q D_s^T.
    const auto segment_normal = [&](std::size_t s) {
      const long r0 = std::max(b[s], d_.first) - d_.first, r1 = b[s + 1] - d_.first;
      if (r1 <= r0) return;
      const Eigen::Map<const RowMatrix> L(jac + static_cast<std::size_t>(r0) * nf, r1 - r0,
                                          static_cast<Eigen::Index>(nf));
      const Eigen::Map<const Eigen::VectorXd> rv(residuals + r0, r1 - r0);
      const Eigen::Map<const Eigen::VectorXd> qv(dpdz.data() + (r0 + d_.first), r1 - r0);
      SegNormal& sn = seg_normal[s];
      sn.LL.setZero(static_cast<Eigen::Index>(nf), static_cast<Eigen::Index>(nf));
      sn.LL.template selfadjointView<Eigen::Lower>().rankUpdate(L.transpose());
      sn.Lq.noalias() = L.transpose() * qv;
      sn.Lr.noalias() = L.transpose() * rv;
      sn.qq = qv.squaredNorm();
      sn.qr = qv.dot(rv);
      sn.rr = rv.squaredNorm();
    };
    // guessed: segment s (> 0) ran from z^_s = 0, z is affine in z_s, and its rows' derivatives
    // with respect to z_s are in `mloc` (rows r0..): once z_s is known (the segments before
    // have committed), its residuals, rows and end are corrected while they are in cache,
    //   r += q delta, row += M delta, dz_end/dtheta -= Phi_end X_end delta,  delta = z_s - z^_s,
    // and z_{s+1} = z^_end + Phi_end delta published for the next one.
    const auto commit = [&](std::size_t s, const std::vector<double>& mloc) {
      for (int c = chained.load(std::memory_order_acquire);
           c <= static_cast<int>(s) && !chain_failed.load();
           c = chained.load(std::memory_order_acquire))
        chained.wait(c, std::memory_order_acquire);
      if (chain_failed.load()) return;
      const double delta = z0[s][0];  // (z^_s = 0)
      if (s > 0 && delta != 0.0) {
        for (std::size_t j = 0; j < nf; ++j)
          end[s].dz_dtheta[j] -= end[s].dz_dzs * end[s].dx_sum[j] * delta;
        const long r0 = std::max(b[s], d_.first) - d_.first, r1 = b[s + 1] - d_.first;
        bool good = true;
        for (long row = r0; row < r1; ++row) {
          const auto ur = static_cast<std::size_t>(row);
          residuals[row] += dpdz[ur + static_cast<std::size_t>(d_.first)] * delta;
          good = good && std::isfinite(residuals[row]);
          double* jr = jac + ur * nf;
          const double* mr = mloc.data() + static_cast<std::size_t>(row - r0) * nf;
          for (std::size_t j = 0; j < nf; ++j) {
            jr[j] += mr[j] * delta;
            good = good && std::isfinite(jr[j]);
          }
        }
        if (!good) seg_ok[s] = 0;
      }
      if (s + 1 < static_cast<std::size_t>(nseg)) z0[s + 1][0] = end[s].z + end[s].dz_dzs * delta;
      chained.store(static_cast<int>(s) + 2, std::memory_order_release);
      chained.notify_all();
    };
    const auto segment = [&](std::size_t s) {
      for (int r = ready.load(std::memory_order_acquire); r <= static_cast<int>(s);
           r = ready.load(std::memory_order_acquire))
        ready.wait(r, std::memory_order_acquire);
      const bool with_m = guessed && s > 0;
      thread_local std::vector<double> mloc;  // the segment's M rows (guessed)
      const long mrow0 = std::max(b[s], d_.first) - d_.first;
      if (with_m)
        mloc.resize(static_cast<std::size_t>(std::max(0L, b[s + 1] - d_.first - mrow0)) * nf);
      double z = guessed ? 0.0 : z0[s][0];
      std::array<double, NL> dz{};
      dz[static_cast<std::size_t>(zl)] = s == 0 ? 0.0 : 1.0;
      std::array<double, NL> dF{};
      std::array<double, NL> X{};  // guessed: the arcs' dx summed since the segment's start
      bool good = true;
      // What the model needs at a velocity (e.g. g(v) and its derivatives) once per sample: for
      // the force there and both steps that share it.
      typename Sens::template At<NL> w = Sens::template at<NL>(p, d_.v[b[s]], seeds);
      for (long k = b[s]; k < b[s + 1]; ++k) {
        const auto uk = static_cast<std::size_t>(k);
        typename Sens::ForceParts parts;
        const double F = Sens::template force<NL>(p, seeds, z, dz, w, dF, parts);
        if (k >= d_.first) {
          // r = y - pred; the loss's slope by a Jet<1>.
          const double pred = sl ? km * d_.i[uk] - F : F;
          const ceres::Jet<double, 1> rl = loss_.apply(ceres::Jet<double, 1>(d_.y[uk] - pred, 0));
          const long row = k - d_.first;
          residuals[row] = rl.a;
          const double slope = rl.v[0];
          double* jr = jac + static_cast<std::size_t>(row) * nf;
          for (std::size_t j = 0; j < nf; ++j) {
            double dpred = sl ? d_.i[uk] * su.dkm[j] : 0.0;
            if (su.lane[j] >= 0) dpred += sgn_f * dF[static_cast<std::size_t>(su.lane[j])];
            jr[j] = dpred;
          }
          for (int e = 0; e < n_force_only; ++e) {
            const ForceOnly& f = force_only[static_cast<std::size_t>(e)];
            jr[f.j] += sgn_f * force_only_column(f, [&](int i) {
                         return Sens::template force_field<NL>(parts, w, i);
                       });
          }
          for (std::size_t j = 0; j < nf; ++j) {
            jr[j] *= -slope;
            good = good && std::isfinite(jr[j]);
          }
          dpdz[uk] = -slope * sgn_f * dF[static_cast<std::size_t>(zl)];
          good = good && std::isfinite(rl.a);
          if (with_m) {
            // d(row)/dz_s: z = z^ + Phi (z_s - z^_s) with Phi = dz/dz_s, and the force's
            // derivatives along every direction and the force-only fields' with respect to z_s
            // from the model (Sens::force_by_start).
            const double Phi = dz[static_cast<std::size_t>(zl)];
            std::array<double, NL> m_lane;
            std::array<double, nff> m_force;
            Sens::template force_by_start<NL>(p, seeds, w, Phi, X, m_lane, m_force);
            double* mr = mloc.data() + static_cast<std::size_t>(row - mrow0) * nf;
            for (std::size_t j = 0; j < nf; ++j) {
              const int l = su.lane[j];
              mr[j] = l >= 0 ? m_lane[static_cast<std::size_t>(l)] : 0.0;
            }
            for (int e = 0; e < n_force_only; ++e) {
              const ForceOnly& f = force_only[static_cast<std::size_t>(e)];
              mr[f.j] +=
                  force_only_column(f, [&](int i) { return m_force[static_cast<std::size_t>(i)]; });
            }
            for (std::size_t j = 0; j < nf; ++j) mr[j] *= -slope * sgn_f;
          }
        }
        if (k + 1 == n) break;
        const typename Sens::template At<NL> w1 = Sens::template at<NL>(p, d_.v[uk + 1], seeds);
        // A held input (zoh) is the linear step from v_k to v_k: the exact held step (bristle.hpp).
        z = Sens::template step<NL>(p, seeds, z, dz, w, d_.hold == Hold::zoh ? w : w1,
                                    d_.t[uk + 1] - d_.t[uk], with_m ? &X : nullptr);
        w = w1;
        if (k + 1 == b[s + 1]) {
          // The step into the next segment: its state and sensitivities are the segment's end.
          end[s].dz_dzs = dz[static_cast<std::size_t>(zl)];
          end[s].z = z;
          for (std::size_t j = 0; j < nf; ++j)
            if (su.lane[j] >= 0) {
              end[s].dz_dtheta[j] = dz[static_cast<std::size_t>(su.lane[j])];
              end[s].dx_sum[j] = X[static_cast<std::size_t>(su.lane[j])];
            }
        }
      }
      seg_ok[s] = good ? 1 : 0;
      if (guessed) commit(s, mloc);
      if (seg_ok[s]) segment_normal(s);
    };
    // (a segment that throws releases the ones waiting for its commit)
    const auto guarded_segment = [&](std::size_t s) {
      try {
        segment(s);
      } catch (...) {
        chain_failed.store(true);
        chained.store(nseg + 1, std::memory_order_release);
        chained.notify_all();
        throw;
      }
    };
    if (kept) {
      for_each_index(static_cast<std::size_t>(nseg), threads_, segment);
    } else if (guessed) {
      // (handed out in order: a segment waits only for commits of segments already running)
      for_each_index(static_cast<std::size_t>(nseg), threads_, guarded_segment);
      cache_z0_ = z0;
      cache_x_.assign(x, x + nf);
      if (value_residuals != nullptr) {
        std::copy(residuals, residuals + d_.m(), value_residuals);
        bool fine = true;
        for (long row = 0; row < d_.m(); ++row) fine = fine && std::isfinite(residuals[row]);
        *value_ok = fine;
      }
    } else {
      // Task 0 produces the start states (for_each_index hands the tasks out in order: every
      // segment waits on a producer that is already running).
      for_each_index(static_cast<std::size_t>(nseg) + 1, threads_, [&](std::size_t i) {
        if (i == 0) {
          produce();
        } else {
          segment(i - 1);
        }
      });
      cache_z0_ = z0;
      cache_x_.assign(x, x + nf);
      if (value_ok != nullptr) *value_ok = v_ok;
    }
    for (char c : seg_ok)
      if (!c) return false;
    // Chain the segments: D = dz_s/dtheta, D_{s+1} = (dz_{s+1}/dtheta)|z_s + dz_{s+1}/dz_s D_s.
    // The normal equations from the segments' parts: J_s = L_s + q_s D_s^T gives
    //   J_s^T J_s = L^T L + (L^T q) D^T + D (L^T q)^T + (q^T q) D D^T,  J_s^T r = L^T r + (q^T r)
    //   D.
    const auto np = static_cast<Eigen::Index>(nf);
    Eigen::MatrixXd NN = Eigen::MatrixXd::Zero(np, np);
    Eigen::VectorXd gg = Eigen::VectorXd::Zero(np);
    double ss = 0;
    const auto add_normal = [&](std::size_t s, const std::array<double, N>* Dp) {
      const SegNormal& sn = seg_normal[s];
      if (sn.LL.size() == 0) return;
      NN += sn.LL;
      gg += sn.Lr;
      ss += sn.rr;
      if (Dp == nullptr) return;
      const Eigen::Map<const Eigen::VectorXd> Dv(Dp->data(), np);
      NN.noalias() += sn.Lq * Dv.transpose() + Dv * sn.Lq.transpose() + sn.qq * Dv * Dv.transpose();
      gg.noalias() += sn.qr * Dv;
    };
    add_normal(0, nullptr);  // segment 0 starts from rest: q = 0
    std::array<double, N> D = end[0].dz_dtheta;
    for (int s = 1; s < nseg; ++s) {
      const auto us = static_cast<std::size_t>(s);
      add_normal(us, &D);
      for (long k = std::max(b[us], d_.first); k < b[us + 1]; ++k) {
        const double gk = dpdz[static_cast<std::size_t>(k)];
        if (gk == 0.0) continue;
        double* jr = jac + static_cast<std::size_t>(k - d_.first) * nf;
        for (std::size_t j = 0; j < nf; ++j) jr[j] += gk * D[j];
      }
      std::array<double, N> Dn{};
      for (std::size_t j = 0; j < nf; ++j) Dn[j] = end[us].dz_dtheta[j] + end[us].dz_dzs * D[j];
      D = Dn;
    }
    // (the lower triangle of the L^T L parts holds the sum; the rank-1 terms are symmetric)
    ne_N_ = NN.selfadjointView<Eigen::Lower>();
    ne_g_ = gg;
    ne_ss_ = ss;
    ne_x_.assign(x, x + nf);
    return true;
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
  bool segmented(std::size_t nf) const {
    return threads_ > 1 && static_cast<int>(nf) + FamilyT<Info>::kStates <= N &&
           d_.n() >= kSegments * kMinSegmentSamples;
  }
  /// The segments' first samples, and n.
  std::array<long, kSegments + 1> bounds() const {
    std::array<long, kSegments + 1> b{};
    for (int s = 0; s <= kSegments; ++s) b[static_cast<std::size_t>(s)] = d_.n() * s / kSegments;
    return b;
  }

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
  static constexpr int kStates = Model<double>::kNumStates;
  /// The model's forward sensitivities for the fit's fast path (Fit::Sensitivity,
  /// models/fit_form.hpp), void for the Jet path.
  using Sensitivity = typename decltype(sensitivity_of<Fit, Model<double>>())::type;

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
  template <class S>
  static typename Model<S>::State state_of(const std::array<S, kStates>& z) {
    return Model<S>::from_array(z.data());
  }
  template <class S>
  static std::array<S, kStates> state_array(const typename Model<S>::State& x) {
    std::array<S, kStates> out{};
    Model<S>::to_array(x, out.data());
    return out;
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

}  // namespace

double Family::ssr_below(const double* theta, const FitData& d, Method m, Hold h,
                         const std::function<double()>& bound) const {
  const auto run = start_ssr(theta, d, m, h);
  double s = 0;
  while (run->done() < d.n()) {
    s = run->advance(run->done() + kSsrChunk);
    if (!(s <= bound())) return std::numeric_limits<double>::infinity();
  }
  return s;
}

int Family::index(std::string_view field) const {
  for (std::size_t i = 0; i < info_.size(); ++i)
    if (info_[i].field == field) return static_cast<int>(i);
  return -1;
}

std::vector<double> Family::to_internal(const std::vector<double>& natural) const {
  std::vector<double> th(natural.size());
  for (std::size_t i = 0; i < natural.size(); ++i)
    th[i] = info_[i].tf == FitScale::log ? std::log(natural[i]) : natural[i];
  return th;
}

std::vector<double> Family::to_natural(const std::vector<double>& theta) const {
  std::vector<double> nat(theta.size());
  for (std::size_t i = 0; i < theta.size(); ++i)
    nat[i] = info_[i].tf == FitScale::log ? std::exp(theta[i]) : theta[i];
  return nat;
}

std::unique_ptr<Family> make_family(const ModelChoice& m, ProblemKind problem, bool rotary) {
  const bool sl = problem == ProblemKind::sensorless;
  std::unique_ptr<Family> out;
  with_model(m.name, [&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) {
      const FitStructure st{m.asymmetric, m.shape, m.elements};
      out = std::make_unique<FamilyT<I>>(typename I::Fit(st), sl, rotary);
    }
  });
  if (!out)
    throw FitError("model '" + m.name +
                   "' cannot be fitted; fittable: " + join_list(fit_model_names()));
  return out;
}

bool is_dynamic(const ModelChoice& m) {
  bool dynamic = false;
  with_model(m.name, [&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) dynamic = I::Fit::dynamic;
  });
  return dynamic;
}

std::vector<std::string> two_stage_models() {
  std::vector<std::string> out;
  for_each_model([&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) {
      std::vector<FitParam> params;
      FitParamList list{params};
      typename I::Fit(FitStructure{}).declare(list);
      bool has_vs = false;
      for (const auto& p : params) has_vs = has_vs || p.field == "vs";
      if (I::Fit::dynamic && has_vs) out.emplace_back(I::name);
    }
    return false;
  });
  return out;
}

FitInit init_strategy(const ModelChoice& m) {
  FitInit init = FitInit::static_curve;
  with_model(m.name, [&]<class I>(std::type_identity<I>) {
    if constexpr (I::fit.fit) init = I::Fit::init;
  });
  return init;
}

}  // namespace frictionlab::identify::detail
