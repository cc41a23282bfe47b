// frictionlab identify: the fit's Jacobian by the model's forward sensitivities in plain double
// (Fit::Sensitivity, models/fit_form.hpp) by time segments on the helper threads: one pass of
// SimCost (sim_cost.hpp) at a point x. Included by families.cpp only.
// docs/identification.md, "Jacobian" and "Segments from a guessed start".
#pragma once

#include <ceres/jet.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <vector>

#include "family_model.hpp"
#include "fit_data.hpp"
#include "frictionlab/models/sensitivity_states.hpp"
#include "linearisation.hpp"
#include "parallel.hpp"

namespace frictionlab::identify::detail {

/// One sensitivity pass of the cost `Cost` (a SimCost) with NL lanes (the directions that move
/// the states, then one per state of the segment's start). The directions carried through the
/// steps are the free parameters that move the states z (Sens::kStateFields, seeded with
/// dq/dtheta from one Jet evaluation of the parameterisation) and the segment's start states
/// z_s (SensitivityStates: one for LuGre, one per element for Maxwell slip); a parameter that only
/// enters the force (Sens::kForceFields, and Km) has its column from the force's closed form,
/// dF = sum_q dF/dq e_q (e.g. e_sigma1 zdot + e_sigma2 v). By the cost's time segments
/// (kSegments on records of kSegments * kMinSegmentSamples samples or more, else one), chained
/// through dz/dz_s (a matrix with several states); the numbers do not depend on the thread
/// count. Three schedules:
///  - guessed (one state, the step affine in it, no robust loss): every segment runs at once
///    from the start state 0 and is corrected by its derivatives with respect to it once the
///    true start states are chained (commit); value_residuals then receives the corrected
///    residuals;
///  - kept: the start states kept from the residuals' evaluation at x;
///  - produced: one thread computes them by the value-only simulation while the others already
///    take the segments whose start it has reached (then with value_residuals, the residuals of
///    that simulation as a residual-only evaluation gives them, and their finiteness in
///    *value_ok).
/// run() leaves the normal equations of the Jacobian in the cost (normal_at, ends_the_solve).
template <class Cost, int NL>
class SensitivityPass {
  using Sens = typename Cost::Sens;
  using States = SensitivityStates<Sens>;
  static constexpr int K = States::kStates;
  using State = typename States::State;
  using DState = typename States::template DState<NL>;
  static constexpr int N = Cost::kJetSize;
  static_assert(K == 1 || !Sens::kAffineStep, "the guessed schedule chains one state");
  static constexpr std::size_t nff = Sens::kForceFields.size();
  using StateArray = typename Cost::StateArray;
  using Lanes = std::array<double, NL>;
  using At = typename Sens::template At<NL>;

  /// A force-only free parameter: its index and dq/dtheta_j of the force-only fields.
  struct ForceOnly {
    std::size_t j;
    std::array<double, nff> e;
  };
  /// A segment's end: the states and their derivatives.
  struct End {
    std::array<std::array<double, K>, K> dz_dzs{};     // [i][l]: dz_i / dz_s,l
    std::array<std::array<double, N>, K> dz_dtheta{};  // [i][j], with z_s held
    State z{};                                         // (guessed: from the guessed start)
    std::array<double, N> dx_sum{};  // guessed: the arcs' dx summed over the segment (X)
  };
  /// A segment's part of the normal equations (segment_normal), Q its rows' derivatives with
  /// respect to the start states.
  struct SegNormal {
    Eigen::MatrixXd LL;  // L^T L (lower triangle)
    Eigen::MatrixXd LQ, QQ;
    Eigen::VectorXd Lr, Qr;
    double rr = 0;
  };

 public:
  SensitivityPass(const Cost& cost, const typename Cost::SensSetup& su, const double* x,
                  const std::vector<double>& th, double* residuals, double* jac,
                  double* value_residuals, bool* value_ok)
      : c_(cost),
        d_(cost.d_),
        su_(su),
        x_(x),
        th_(th),
        residuals_(residuals),
        jac_(jac),
        value_residuals_(value_residuals),
        value_ok_(value_ok),
        nf_(cost.free_.size()),
        zl_(su.n_lanes),
        ns_(su.n_states) {
    const auto at = c_.fam_.template params_at<double>(th.data());
    p_ = at.first;
    km_ = at.second;
    sl_ = c_.fam_.sensorless();
    sgn_f_ = sl_ ? -1.0 : 1.0;
    seed_lanes();
    find_force_only();
    cut_segments();
    choose_schedule();
  }

  /// The residuals and the Jacobian at x; whether every entry is finite.
  bool run() {
    c_.ne_x_.clear();
    run_segments();
    for (char ok : seg_ok_)
      if (!ok) return false;
    chain_segments();
    return true;
  }

 private:
  // ---- setup ------------------------------------------------------------------------------

  /// The seeds dq/dd of the lanes from dq/dtheta.
  void seed_lanes() {
    for (std::size_t j = 0; j < nf_; ++j)
      if (su_.lane[j] >= 0)
        for (int q = 0; q < Cost::kFields; ++q)
          seeds_.set(q, su_.lane[j], su_.Dq[static_cast<std::size_t>(q)][j]);
  }

  /// The force-only parameters: dF/dtheta_j = sum_i dF/dq_i e_q_i over Sens::kForceFields q_i.
  void find_force_only() {
    for (std::size_t j = 0; j < nf_; ++j) {
      ForceOnly f{j, {}};
      bool moves_f = false;
      for (std::size_t i = 0; i < nff; ++i) {
        f.e[i] = su_.Dq[static_cast<std::size_t>(Sens::kForceFields[i])][j];
        moves_f = moves_f || f.e[i] != 0.0;
      }
      if (su_.lane[j] < 0 && moves_f) force_only_[static_cast<std::size_t>(n_force_only_++)] = f;
    }
  }

  /// The segments' first samples, and n.
  void cut_segments() {
    n_ = d_.n();
    nseg_ = n_ >= kSegments * kMinSegmentSamples ? kSegments : 1;
    b_.resize(static_cast<std::size_t>(nseg_) + 1);
    for (int s = 0; s <= nseg_; ++s) b_[static_cast<std::size_t>(s)] = n_ * s / nseg_;
    const auto useg = static_cast<std::size_t>(nseg_);
    dpdz_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(ns_), 0.0);
    end_.resize(useg);
    seg_ok_.assign(useg, 1);
    seg_normal_.resize(useg);
  }

  /// The start states: guessed (residuals affine in the state: no value simulation first, and
  /// the numbers at x are the same whatever was evaluated before), kept, or produced by task 0
  /// while the segments run (ready_: how many segments' start states are known; segment 0
  /// starts from rest).
  void choose_schedule() {
    guessed_ = Sens::kAffineStep && nseg_ > 1 && c_.loss_.kind == LossKind::none;
    kept_ = !guessed_ && value_residuals_ == nullptr && c_.have_start_states(x_, b_);
    if (kept_) {
      z0_ = c_.cache_z0_;
    } else {
      z0_.assign(static_cast<std::size_t>(nseg_), StateArray{});
    }
    ready_.store(kept_ || guessed_ ? nseg_ : 1);
  }

  // ---- schedules ----------------------------------------------------------------------------

  void run_segments() {
    const auto useg = static_cast<std::size_t>(nseg_);
    if (kept_) {
      for_each_index(useg, c_.threads_, [this](std::size_t s) { segment(s); });
      return;
    }
    if (guessed_) {
      // (handed out in order: a segment waits only for commits of segments already running)
      for_each_index(useg, c_.threads_, [this](std::size_t s) { guarded_segment(s); });
      keep_start_states();
      if (value_residuals_ != nullptr) {
        std::copy(residuals_, residuals_ + d_.m(), value_residuals_);
        bool fine = true;
        for (long row = 0; row < d_.m(); ++row) fine = fine && std::isfinite(residuals_[row]);
        *value_ok_ = fine;
      }
      return;
    }
    // Task 0 produces the start states (for_each_index hands the tasks out in order: every
    // segment waits on a producer that is already running).
    for_each_index(useg + 1, c_.threads_, [this](std::size_t i) {
      if (i == 0) {
        produce();
      } else {
        segment(i - 1);
      }
    });
    keep_start_states();
    if (value_ok_ != nullptr) *value_ok_ = v_ok_;
  }

  void keep_start_states() {
    c_.cache_z0_ = z0_;
    c_.cache_x_.assign(x_, x_ + nf_);
  }

  /// The value-only simulation that publishes each segment's start state (produced schedule),
  /// with the residuals into value_residuals when given.
  void produce() {
    // (its own flag, written to v_ok_ once: v_ok_ shares a cache line with what the segments
    // read at every sample, and a write per sample there costs both threads half their speed)
    bool ok_here = true;
    double* const vr = value_residuals_;
    const auto sink = [&ok_here, vr, this](long k, const double& pred) {
      if (vr != nullptr) ok_here = c_.put_residual(vr, k, pred) && ok_here;
    };
    const auto& fam = c_.fam_;
    State z{};
    try {
      for (int s = 0; s < nseg_; ++s) {
        if (s + 1 == nseg_ && vr == nullptr) break;
        const auto us = static_cast<std::size_t>(s);
        z = fam.template state_array<double>(
            fam.template run_range<double>(th_.data(), d_, Method::exact, d_.hold, b_[us],
                                           b_[us + 1], fam.template state_of<double>(z), sink));
        if (s + 1 < nseg_) {
          z0_[us + 1] = z;
          ready_.store(s + 2, std::memory_order_release);
          ready_.notify_all();
        }
      }
      v_ok_ = ok_here;
    } catch (...) {
      ready_.store(nseg_, std::memory_order_release);  // release the waiting segments
      ready_.notify_all();
      throw;
    }
  }

  /// (a segment that throws releases the ones waiting for its commit)
  void guarded_segment(std::size_t s) {
    try {
      segment(s);
    } catch (...) {
      chain_failed_.store(true);
      chained_.store(nseg_ + 1, std::memory_order_release);
      chained_.notify_all();
      throw;
    }
  }

  // ---- one segment ----------------------------------------------------------------------------

  /// Segment s: its rows (before the chaining), its end, its correction (guessed) and its part
  /// of the normal equations.
  void segment(std::size_t s) {
    for (int r = ready_.load(std::memory_order_acquire); r <= static_cast<int>(s);
         r = ready_.load(std::memory_order_acquire))
      ready_.wait(r, std::memory_order_acquire);
    const bool with_m = guessed_ && s > 0;
    thread_local std::vector<double> mloc;  // the segment's M rows (guessed)
    const long mrow0 = std::max(b_[s], d_.first) - d_.first;
    if (with_m)
      mloc.resize(static_cast<std::size_t>(std::max(0L, b_[s + 1] - d_.first - mrow0)) * nf_);
    State z = guessed_ ? State{} : z0_[s];
    DState dz{};
    if (s > 0)
      for (int i = 0; i < ns_; ++i) dz[static_cast<std::size_t>(i)][lane_of_state(i)] = 1.0;
    Lanes dF{};
    Lanes X{};  // guessed: the arcs' dx summed since the segment's start
    bool good = true;
    // What the model needs at a velocity (e.g. g(v) and its derivatives) once per sample: for
    // the force there and both steps that share it.
    At w = Sens::template at<NL>(p_, d_.v[b_[s]], seeds_);
    for (long k = b_[s]; k < b_[s + 1]; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      typename Sens::ForceParts parts;
      const double F = States::template force<NL>(p_, seeds_, z, dz, w, dF, parts);
      if (k >= d_.first) {
        const long row = k - d_.first;
        const double slope = put_row(k, F, dF, parts, w, good);
        if (with_m)
          put_row_by_start(mloc.data() + static_cast<std::size_t>(row - mrow0) * nf_, slope,
                           dz[0][lane_of_state(0)], X, w);
      }
      if (k + 1 == n_) break;
      const At w1 = Sens::template at<NL>(p_, d_.v[uk + 1], seeds_);
      // A held input (zoh) is the linear step from v_k to v_k: the exact held step (bristle.hpp).
      States::template step<NL>(p_, seeds_, z, dz, w, d_.hold == Hold::zoh ? w : w1,
                                d_.t[uk + 1] - d_.t[uk], with_m ? &X : nullptr);
      w = w1;
      if (k + 1 == b_[s + 1]) keep_end(s, z, dz, X);
    }
    seg_ok_[s] = good ? 1 : 0;
    if (guessed_) commit(s, mloc);
    if (seg_ok_[s]) segment_normal(s);
  }

  /// dF/dtheta_j of a force-only parameter from per_field(i), the derivative with respect to
  /// its force-only field i (dF/dq_i, or its derivative with respect to the start state).
  template <class PerField>
  static double force_only_column(const ForceOnly& f, const PerField& per_field) {
    if constexpr (nff == 0) {  // (a model without force-only fields: never called)
      return 0.0;
    } else {
      double c = per_field(0) * f.e[0];
      for (std::size_t i = 1; i < nff; ++i) c += per_field(static_cast<int>(i)) * f.e[i];
      return c;
    }
  }

  /// Row k of the residuals and the Jacobian (with z_s held) from the force F and its
  /// sensitivities, and q = dpdz[k]; returns the loss's slope d r / d(y - pred).
  double put_row(long k, double F, const Lanes& dF, const typename Sens::ForceParts& parts,
                 const At& w, bool& good) {
    const auto uk = static_cast<std::size_t>(k);
    // r = y - pred; the loss's slope by a Jet<1>.
    const double pred = sl_ ? km_ * d_.i[uk] - F : F;
    const ceres::Jet<double, 1> rl = c_.loss_.apply(ceres::Jet<double, 1>(d_.y[uk] - pred, 0));
    const long row = k - d_.first;
    residuals_[row] = rl.a;
    const double slope = rl.v[0];
    double* jr = jac_ + static_cast<std::size_t>(row) * nf_;
    for (std::size_t j = 0; j < nf_; ++j) {
      double dpred = sl_ ? d_.i[uk] * su_.dkm[j] : 0.0;
      if (su_.lane[j] >= 0) dpred += sgn_f_ * dF[static_cast<std::size_t>(su_.lane[j])];
      jr[j] = dpred;
    }
    for (int e = 0; e < n_force_only_; ++e) {
      const ForceOnly& f = force_only_[static_cast<std::size_t>(e)];
      jr[f.j] += sgn_f_ * force_only_column(f, [&](int i) {
                   return Sens::template force_field<NL>(parts, w, i);
                 });
    }
    for (std::size_t j = 0; j < nf_; ++j) {
      jr[j] *= -slope;
      good = good && std::isfinite(jr[j]);
    }
    for (int i = 0; i < ns_; ++i)
      dpdz_[uk * static_cast<std::size_t>(ns_) + static_cast<std::size_t>(i)] =
          -slope * sgn_f_ * dF[lane_of_state(i)];
    good = good && std::isfinite(rl.a);
    return slope;
  }

  /// Guessed: the row's derivatives with respect to the start state z_s into mr. z = z^ + Phi
  /// (z_s - z^_s) with Phi = dz/dz_s; the force's derivatives along every direction and the
  /// force-only fields' with respect to z_s come from the model (Sens::force_by_start; a model
  /// whose step is not affine in the state has none, and is never guessed).
  void put_row_by_start(double* mr, double slope, double Phi, const Lanes& X, const At& w) const {
    if constexpr (Sens::kAffineStep) {
      Lanes m_lane;
      std::array<double, nff> m_force;
      Sens::template force_by_start<NL>(p_, seeds_, w, Phi, X, m_lane, m_force);
      for (std::size_t j = 0; j < nf_; ++j) {
        const int l = su_.lane[j];
        mr[j] = l >= 0 ? m_lane[static_cast<std::size_t>(l)] : 0.0;
      }
      for (int e = 0; e < n_force_only_; ++e) {
        const ForceOnly& f = force_only_[static_cast<std::size_t>(e)];
        mr[f.j] +=
            force_only_column(f, [&](int i) { return m_force[static_cast<std::size_t>(i)]; });
      }
      for (std::size_t j = 0; j < nf_; ++j) mr[j] *= -slope * sgn_f_;
    } else {
      (void)mr, (void)slope, (void)Phi, (void)X, (void)w;
    }
  }

  /// The step into the next segment: its state and sensitivities are segment s's end.
  void keep_end(std::size_t s, const State& z, const DState& dz, const Lanes& X) {
    End& e = end_[s];
    e.z = z;
    for (int i = 0; i < ns_; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      for (int l = 0; l < ns_; ++l)
        e.dz_dzs[ui][static_cast<std::size_t>(l)] = dz[ui][lane_of_state(l)];
      for (std::size_t j = 0; j < nf_; ++j)
        if (su_.lane[j] >= 0) e.dz_dtheta[ui][j] = dz[ui][static_cast<std::size_t>(su_.lane[j])];
    }
    for (std::size_t j = 0; j < nf_; ++j)
      if (su_.lane[j] >= 0) e.dx_sum[j] = X[static_cast<std::size_t>(su_.lane[j])];
  }

  /// The lane of start state i's direction.
  std::size_t lane_of_state(int i) const {
    return static_cast<std::size_t>(zl_) + static_cast<std::size_t>(i);
  }

  /// Guessed: segment s (> 0) ran from z^_s = 0, z is affine in z_s, and its rows' derivatives
  /// with respect to z_s are in `mloc` (rows r0..): once z_s is known (the segments before
  /// have committed), its residuals, rows and end are corrected while they are in cache,
  ///   r += q delta, row += M delta, dz_end/dtheta -= Phi_end X_end delta,  delta = z_s - z^_s,
  /// and z_{s+1} = z^_end + Phi_end delta published for the next one.
  void commit(std::size_t s, const std::vector<double>& mloc) {
    for (int c = chained_.load(std::memory_order_acquire);
         c <= static_cast<int>(s) && !chain_failed_.load();
         c = chained_.load(std::memory_order_acquire))
      chained_.wait(c, std::memory_order_acquire);
    if (chain_failed_.load()) return;
    const double delta = z0_[s][0];  // (z^_s = 0; one state)
    const double phi_end = end_[s].dz_dzs[0][0];
    if (s > 0 && delta != 0.0) {
      for (std::size_t j = 0; j < nf_; ++j)
        end_[s].dz_dtheta[0][j] -= phi_end * end_[s].dx_sum[j] * delta;
      const long r0 = std::max(b_[s], d_.first) - d_.first, r1 = b_[s + 1] - d_.first;
      bool good = true;
      for (long row = r0; row < r1; ++row) {
        const auto ur = static_cast<std::size_t>(row);
        residuals_[row] += dpdz_[ur + static_cast<std::size_t>(d_.first)] * delta;
        good = good && std::isfinite(residuals_[row]);
        double* jr = jac_ + ur * nf_;
        const double* mr = mloc.data() + static_cast<std::size_t>(row - r0) * nf_;
        for (std::size_t j = 0; j < nf_; ++j) {
          jr[j] += mr[j] * delta;
          good = good && std::isfinite(jr[j]);
        }
      }
      if (!good) seg_ok_[s] = 0;
    }
    if (s + 1 < static_cast<std::size_t>(nseg_)) z0_[s + 1][0] = end_[s].z[0] + phi_end * delta;
    chained_.store(static_cast<int>(s) + 2, std::memory_order_release);
    chained_.notify_all();
  }

  /// Segment s's part of the normal equations while its rows are in cache: with L its rows
  /// before the chaining and Q = dpdz (a column per start state), its rows after it are
  /// L + Q D_s, D_s = dz_s/dtheta.
  void segment_normal(std::size_t s) {
    const long r0 = std::max(b_[s], d_.first) - d_.first, r1 = b_[s + 1] - d_.first;
    if (r1 <= r0) return;
    const Eigen::Map<const RowMatrix> L(jac_ + static_cast<std::size_t>(r0) * nf_, r1 - r0,
                                        static_cast<Eigen::Index>(nf_));
    const Eigen::Map<const Eigen::VectorXd> rv(residuals_ + r0, r1 - r0);
    const Eigen::Map<const RowMatrix> Q(
        dpdz_.data() + static_cast<std::size_t>(r0 + d_.first) * static_cast<std::size_t>(ns_),
        r1 - r0, ns_);
    SegNormal& sn = seg_normal_[s];
    sn.LL.setZero(static_cast<Eigen::Index>(nf_), static_cast<Eigen::Index>(nf_));
    sn.LL.template selfadjointView<Eigen::Lower>().rankUpdate(L.transpose());
    sn.LQ.noalias() = L.transpose() * Q;
    sn.Lr.noalias() = L.transpose() * rv;
    sn.QQ.noalias() = Q.transpose() * Q;
    sn.Qr.noalias() = Q.transpose() * rv;
    sn.rr = rv.squaredNorm();
  }

  // ---- chaining ----------------------------------------------------------------------------

  /// Chains the segments, D = dz_s/dtheta (states x parameters),
  /// D_{s+1} = (dz_{s+1}/dtheta)|z_s + (dz_{s+1}/dz_s) D_s, into the rows, and the normal
  /// equations from the segments' parts: J_s = L_s + Q_s D_s gives
  /// J_s^T J_s = L^T L + (L^T Q) D + D^T (L^T Q)^T + D^T (Q^T Q) D and J_s^T r = L^T r + D^T Q^T r.
  void chain_segments() {
    const auto np = static_cast<Eigen::Index>(nf_);
    Eigen::MatrixXd NN = Eigen::MatrixXd::Zero(np, np);
    Eigen::VectorXd gg = Eigen::VectorXd::Zero(np);
    double ss = 0;
    const auto add_normal = [&](std::size_t s, const Eigen::MatrixXd* D) {
      const SegNormal& sn = seg_normal_[s];
      if (sn.LL.size() == 0) return;
      NN += sn.LL;
      gg += sn.Lr;
      ss += sn.rr;
      if (D == nullptr) return;
      const Eigen::MatrixXd LQD = sn.LQ * *D;
      NN.noalias() += LQD + LQD.transpose() + D->transpose() * sn.QQ * *D;
      gg.noalias() += D->transpose() * sn.Qr;
    };
    add_normal(0, nullptr);  // segment 0 starts from rest: Q = 0
    Eigen::MatrixXd D = end_matrix(end_[0].dz_dtheta, nf_);
    for (int s = 1; s < nseg_; ++s) {
      const auto us = static_cast<std::size_t>(s);
      add_normal(us, &D);
      add_chained_rows(us, D);
      D = end_matrix(end_[us].dz_dtheta, nf_) + end_matrix(end_[us].dz_dzs, ns_) * D;
    }
    // (the lower triangle of the L^T L parts holds the sum; the other terms are symmetric)
    c_.ne_N_ = NN.selfadjointView<Eigen::Lower>();
    c_.ne_g_ = gg;
    c_.ne_ss_ = ss;
    c_.ne_x_.assign(x_, x_ + nf_);
  }

  /// Segment s's rows after the chaining: row k += Q_k D (Q_k: dpdz of sample k).
  void add_chained_rows(std::size_t s, const Eigen::MatrixXd& D) {
    detail::add_chained_rows(
        jac_, nf_, dpdz_.data(), ns_, std::max(b_[s], d_.first), b_[s + 1], d_.first,
        [&D](int i, std::size_t j) { return D(i, static_cast<Eigen::Index>(j)); });
  }

  /// The states' rows of an End array (ns_ x cols) as a matrix.
  template <std::size_t C>
  Eigen::MatrixXd end_matrix(const std::array<std::array<double, C>, K>& a,
                             std::size_t cols) const {
    Eigen::MatrixXd m(ns_, static_cast<Eigen::Index>(cols));
    for (int i = 0; i < ns_; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        m(i, static_cast<Eigen::Index>(j)) = a[static_cast<std::size_t>(i)][j];
    return m;
  }

  const Cost& c_;
  const FitData& d_;
  const typename Cost::SensSetup& su_;
  const double* x_;
  const std::vector<double>& th_;
  double* residuals_;
  double* jac_;
  double* value_residuals_;
  bool* value_ok_;
  std::size_t nf_;
  int zl_;  // the first start state's direction (lane)
  int ns_;  // the start states (lanes zl_ .. zl_ + ns_ - 1)
  typename Sens::Params p_;
  double km_ = 1;
  bool sl_ = false;   // the sensorless problem
  double sgn_f_ = 1;  // pred = Km i - F (sensorless) or F
  typename Sens::template Seeds<NL> seeds_;
  std::array<ForceOnly, N> force_only_{};
  int n_force_only_ = 0;
  long n_ = 0;
  int nseg_ = 1;
  std::vector<long> b_;
  bool guessed_ = false, kept_ = false;
  std::vector<State> z0_;
  std::atomic<int> ready_{1};
  bool v_ok_ = true;
  std::vector<double> dpdz_;
  // guessed: how many segments' true start states are known (z0_[0..chained_-1]; segment 0
  // starts from rest); every segment commits its correction in order (commit).
  std::atomic<int> chained_{1};
  std::atomic<bool> chain_failed_{false};
  std::vector<End> end_;
  std::vector<char> seg_ok_;
  std::vector<SegNormal> seg_normal_;
};

}  // namespace frictionlab::identify::detail
