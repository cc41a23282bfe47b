// frictionlab identify: output-error refinement of a joint (equations and choices:
// identify/joint_oe.hpp, docs/joint-identification.md "oe").
#include "frictionlab/identify/joint_oe.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/joint_controller.hpp"

#include <ceres/ceres.h>

#include <Eigen/SparseCore>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/identify/load_rule.hpp"
#include "frictionlab/identify/stats.hpp"
#include "joint_parameter_slots.hpp"
#include "parallel.hpp"
#include "solver_log.hpp"
#include "statistics.hpp"

namespace frictionlab::identify {
namespace {

using LG = JointLuGre<double>;
using SF = StaticFriction<double>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// One reported parameter and how it sits in the model (natural = exp(x) if log; a Stribeck
/// level with `stribeck` set: Fs_i = (Fc / n)(exp(x) - 1), see Mapping).
struct Entry {
  std::string name, unit;
  bool log = false;
  bool estimated = true;
  std::function<double&(JointModel&)> ref;
  bool stribeck = false;
};

/// oe's view of the joint's parameter table (identify/joint_parameters.hpp): the structural
/// ones (delta[i], K) and, with fix_rigid, the rigid body are held fixed; the positive ones are
/// estimated on a log scale. (Static friction: Fv, Fc_pos, Fc_neg must stay >= 0, and a central
/// difference at 0 would leave the valid set; a start at 0 is raised to a small positive value,
/// fit_joint_oe.)
std::vector<Entry> entries_of(const JointModel& m, bool fix_rigid) {
  std::vector<Entry> e;
  for (auto& s : detail::joint_parameter_slots(m)) {
    const bool est = !s.info.structural && !(fix_rigid && s.info.rigid_body);
    e.push_back({std::move(s.info.name), std::move(s.info.unit), s.info.positive, est,
                 std::move(s.ref), s.info.stribeck_level});
  }
  return e;
}

/// The model for internal parameters x (estimated entries only, in order).
/// Stribeck levels (stribeck_relative): Fs_i = (Fc / n)(exp(y_i) - 1) with n = n_stribeck, so
/// that every Fs_i > -Fc / n and g = Fc + sum_i Fs_i exp(...) > 0 for any internal values: a
/// central difference or a trial step can never leave the valid set through g <= 0, which
/// otherwise ends the solver (a failed Jacobian evaluation) where Fs approaches -Fc.
struct Mapping {
  JointModel base;
  std::vector<Entry> entries;
  std::vector<int> est;            ///< indices of the estimated entries
  bool symmetric_static = false;   ///< static friction with one Coulomb level "Fc"
  bool symmetric_load = false;     ///< a load dependence with one coefficient "mu"
  bool stribeck_relative = false;  ///< the map above for the Fs entries (else Fs_i = y_i)

  JointModel model(const double* x) const {
    JointModel m = base;
    for (std::size_t j = 0; j < est.size(); ++j) {
      const Entry& e = entries[static_cast<std::size_t>(est[j])];
      if (!(e.stribeck && stribeck_relative)) e.ref(m) = e.log ? std::exp(x[j]) : x[j];
    }
    if (auto* p = std::get_if<LG::Params>(&m.friction); p != nullptr && stribeck_relative) {
      const double share = p->Fc / static_cast<double>(p->n_stribeck);
      for (std::size_t j = 0; j < est.size(); ++j) {
        const Entry& e = entries[static_cast<std::size_t>(est[j])];
        if (e.stribeck) e.ref(m) = share * std::expm1(x[j]);
      }
    }
    // Static friction: Fs follows Fc (Coulomb + viscous); a symmetric model keeps both sides,
    // and one load coefficient both.
    if (auto* sf = std::get_if<SF::Params>(&m.friction)) {
      auto& c = sf->curve;
      if (symmetric_static) c.Fc_neg = c.Fc_pos;
      c.Fs_pos = c.Fc_pos;
      c.Fs_neg = c.Fc_neg;
    }
    if (symmetric_load && m.load) m.load->mu_back = m.load->mu_drive;
    return m;
  }
  std::vector<double> internal(const JointModel& m0) const {
    JointModel m = m0;
    std::vector<double> x;
    const auto* p = std::get_if<LG::Params>(&m.friction);
    for (int j : est) {
      const Entry& e = entries[static_cast<std::size_t>(j)];
      const double v = e.ref(m);
      if (e.stribeck && stribeck_relative && p != nullptr)
        x.push_back(std::log1p(v * static_cast<double>(p->n_stribeck) / p->Fc));
      else
        x.push_back(e.log ? std::log(v) : v);
    }
    return x;
  }
  /// The estimated parameters' natural values at internal x.
  std::vector<double> natural(const double* x) const {
    JointModel m = model(x);
    std::vector<double> v;
    for (int j : est) v.push_back(entries[static_cast<std::size_t>(j)].ref(m));
    return v;
  }
};

/// Bristle states along every record for recently evaluated parameter vectors. z at a segment's
/// start depends only on the model parameters, and integrating it from the record's start for
/// every segment and every evaluation costs O(record length) each, O(length^2 / segment) per
/// Jacobian. A central-difference Jacobian evaluates the same 2 np + 1 parameter vectors for
/// every segment, so a small cache keyed by the exact vector computes each trajectory once.
class BristleCache {
 public:
  explicit BristleCache(std::size_t capacity) : capacity_(capacity) {}
  /// z along data[rec] for the parameter vector x (n values) and its model m.
  std::shared_ptr<const std::vector<std::vector<double>>> get(const double* x, std::size_t n,
                                                              const JointModel& m,
                                                              std::span<const JointData> data) {
    std::vector<double> key(x, x + n);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (const auto& e : entries_)
        if (e.first == key) return e.second;
    }
    auto z = std::make_shared<std::vector<std::vector<double>>>();
    for (const JointData& d : data)
      z->push_back(sim::bristle_state(m, d.t, d.qd, 0.0, d.temperature));
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.emplace_back(std::move(key), z);
    if (entries_.size() > capacity_) entries_.pop_front();
    return z;
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::deque<
      std::pair<std::vector<double>, std::shared_ptr<const std::vector<std::vector<double>>>>>
      entries_;
};

struct Problem {
  Mapping map;
  std::span<const JointData> data;
  double wq = 1, wqd = 1;  ///< w / s for each channel
  double wtau = 0;         ///< closed loop: 1 / s_tau for the torque residuals, else 0
  std::vector<std::vector<double>> drive;  ///< closed loop: the controller's drive per record
  JointOeOptions opt;
  std::unique_ptr<BristleCache> zcache;
  std::vector<IdentifiabilityFlag> held;  ///< parameters the records cannot determine, held
};

struct Segment {
  std::size_t rec = 0, k0 = 0, k1 = 0;  ///< samples k0..k1 (inclusive) of data[rec]
};

/// Number of residuals of a segment: q and qd (and tau in closed loop) at every sample after
/// the first, and also at the first when its initial state is estimated.
std::size_t residual_count(const Segment& s, bool free_x0, bool closed_loop) {
  return (closed_loop ? 3 : 2) * (s.k1 - s.k0 + (free_x0 ? 1 : 0));
}

/// The Jacobian of the natural parameters with respect to the internal ones, G(c, j) =
/// d theta_c / d x_j, with theta in the order of sim::joint_sensitivity_parameters (P rows, np
/// columns); empty when the model has no sensitivities (static friction, a temperature law, a
/// load dependence).
/// Log scale:
/// d exp(x) / dx = exp(x); a relative Stribeck level Fs_i = (Fc / n) expm1(y_i):
/// dFs_i/dy_i = (Fc / n) exp(y_i), and through Fc, dFs_i/dx_Fc = (Fs_i / Fc) dFc/dx_Fc.
Eigen::MatrixXd natural_jacobian(const Mapping& map, const double* x) {
  const JointModel m = map.model(x);
  const std::vector<std::string> names = sim::joint_sensitivity_parameters(m);
  const auto* p = std::get_if<LG::Params>(&m.friction);
  if (names.empty() || p == nullptr || m.temperature || m.load) return {};
  JointModel mm = m;  // read through the entries' references
  const auto np = static_cast<Eigen::Index>(map.est.size());
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(names.size()), np);
  std::vector<Eigen::Index> row(map.est.size());
  Eigen::Index fc_col = -1;
  for (Eigen::Index j = 0; j < np; ++j) {
    const Entry& e = map.entries[static_cast<std::size_t>(map.est[static_cast<std::size_t>(j)])];
    const auto it = std::find(names.begin(), names.end(), e.name);
    // The joint's parameter table (joint_parameters.cpp) and the simulation's list of
    // differentiated parameters name every non-structural parameter alike.
    if (it == names.end())
      throw std::logic_error("oe: parameter " + e.name + " has no sensitivity in the simulation");
    const auto c = static_cast<Eigen::Index>(it - names.begin());
    row[static_cast<std::size_t>(j)] = c;
    const double v = e.ref(mm);
    if (e.stribeck && map.stribeck_relative)
      G(c, j) = p->Fc / static_cast<double>(p->n_stribeck) * std::exp(x[j]);
    else
      G(c, j) = e.log ? v : 1.0;
    if (e.name == "Fc") fc_col = j;
  }
  if (map.stribeck_relative && fc_col >= 0) {
    const Eigen::Index c_fc = row[static_cast<std::size_t>(fc_col)];
    for (Eigen::Index j = 0; j < np; ++j) {
      const Entry& e = map.entries[static_cast<std::size_t>(map.est[static_cast<std::size_t>(j)])];
      if (!e.stribeck) continue;
      const Eigen::Index c = row[static_cast<std::size_t>(j)];
      G(c, fc_col) += e.ref(mm) / p->Fc * G(c_fc, fc_col);
    }
  }
  return G;
}

/// What segment_residuals also computes with forward sensitivities of the simulation.
struct SegmentJacobian {
  std::span<const double> dz;          ///< the record's sim::bristle_state_sensitivity (n x P)
  const Eigen::MatrixXd* G = nullptr;  ///< natural_jacobian at the point (P x np)
  double* jx = nullptr;                ///< m x np, row-major
  double* jx0 = nullptr;               ///< m x 2, row-major (nullptr: not wanted)
  bool ok = false;                     ///< out: every entry evaluated and finite
};

/// Simulated segment residuals; false if the parameters are invalid or the simulation fails.
/// x0: the estimated initial (q, qd) of the segment, or nullptr for the measured ones. With
/// `jac`, the same simulation carries forward sensitivities (sim::
/// simulate_joint_model_sensitivity, the same trajectory bit for bit; z0's derivative from the
/// record's bristle state) and the residuals' Jacobian is written: jx = Jn G with Jn the rows'
/// derivatives with respect to the natural parameters, and jx0 those with respect to (q0, qd0).
bool segment_residuals(const Problem& P, const Segment& s, const double* x, const double* x0,
                       double* r, SegmentJacobian* jac = nullptr) {
  const JointModel m = P.map.model(x);
  const JointData& d = P.data[s.rec];
  if (jac != nullptr) jac->ok = false;
  try {
    sim::check_joint_model(m);
    double z0 = 0;
    if (sim::is_dynamic(m) && s.k0 > 0)
      z0 = (*P.zcache->get(x, P.map.est.size(), m, P.data))[s.rec][s.k0];
    const std::size_t len = s.k1 - s.k0 + 1;
    const sim::JointState init{x0 != nullptr ? x0[0] : d.q[s.k0],
                               x0 != nullptr ? x0[1] : d.qd[s.k0], z0};
    const bool cl = P.opt.closed_loop;
    const JointController& c = P.opt.controller;
    const std::vector<double>& input = cl ? P.drive[s.rec] : d.tau;
    const auto t = std::span(d.t).subspan(s.k0, len);
    const auto u = std::span(input).subspan(s.k0, len);
    const auto temp =
        m.temperature ? std::span(d.temperature).subspan(s.k0, len) : std::span<const double>();
    const sim::JointSimOptions so{P.opt.max_step, cl ? c.kp : 0.0, cl ? c.kd : 0.0};
    sim::JointSensitivity sens;
    sim::JointTrajectory tr;
    if (jac == nullptr) {
      tr = sim::simulate_joint_model(m, t, u, init, so, temp);
    } else {
      const auto Pn = static_cast<std::size_t>(jac->G->rows());
      std::vector<double> dz0(Pn, 0.0);
      if (s.k0 > 0)
        std::copy_n(jac->dz.begin() + static_cast<std::ptrdiff_t>(s.k0 * Pn), Pn, dz0.begin());
      tr = sim::simulate_joint_model_sensitivity(m, t, u, init, dz0, so, sens);
    }
    double* out = r;
    for (std::size_t j = x0 != nullptr ? 0 : 1; j < len; ++j) {
      const std::size_t k = s.k0 + j;
      *out++ = P.wq * (tr.q[j] - d.q[k]);
      *out++ = P.wqd * (tr.qd[j] - d.qd[k]);
      if (cl) *out++ = P.wtau * (input[k] - c.kp * tr.q[j] - c.kd * tr.qd[j] - d.tau[k]);
    }
    if (jac != nullptr) {
      const auto Pn = static_cast<std::size_t>(jac->G->rows());
      const auto np = static_cast<Eigen::Index>(jac->G->cols());
      const auto C = static_cast<std::size_t>(sens.columns);
      using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      const int channels = cl ? 3 : 2;
      const std::size_t first = x0 != nullptr ? 0 : 1;
      const auto rows =
          static_cast<Eigen::Index>((len - first) * static_cast<std::size_t>(channels));
      RowMajor Jn(rows, static_cast<Eigen::Index>(Pn));
      Eigen::Index row = 0;
      bool finite = true;
      for (std::size_t j = first; j < len; ++j) {
        const double* dq = sens.dq.data() + j * C;
        const double* dqd = sens.dqd.data() + j * C;
        for (int ch = 0; ch < channels; ++ch, ++row) {
          // d r / d column k of the sensitivities for this row's channel.
          const auto dr = [&](std::size_t k) {
            return ch == 0   ? P.wq * dq[k]
                   : ch == 1 ? P.wqd * dqd[k]
                             : P.wtau * (-c.kp * dq[k] - c.kd * dqd[k]);
          };
          for (std::size_t k = 0; k < Pn; ++k) Jn(row, static_cast<Eigen::Index>(k)) = dr(k);
          if (jac->jx0 != nullptr && x0 != nullptr) {
            jac->jx0[row * 2] = dr(Pn);
            jac->jx0[row * 2 + 1] = dr(Pn + 1);
            finite =
                finite && std::isfinite(jac->jx0[row * 2]) && std::isfinite(jac->jx0[row * 2 + 1]);
          }
        }
      }
      Eigen::Map<RowMajor> Jx(jac->jx, rows, np);
      Jx.noalias() = Jn * *jac->G;
      jac->ok = finite && Jx.allFinite();
    }
  } catch (const std::exception&) {
    return false;  // (jac->ok is still false)
  }
  for (std::size_t j = 0; j < residual_count(s, x0 != nullptr, P.opt.closed_loop); ++j)
    if (!std::isfinite(r[j])) {
      if (jac != nullptr) jac->ok = false;
      return false;
    }
  return true;
}

/// The central-difference step of parameter value x: what ceres::DynamicNumericDiffCostFunction
/// <CENTRAL> takes with the default NumericDiffOptions (relative_step_size 1e-6, at least
/// sqrt(machine epsilon)), so that the Jacobian below is Ceres's own, bit for bit.
double central_step(double x) {
  return std::max(std::sqrt(std::numeric_limits<double>::epsilon()), std::abs(x) * 1e-6);
}

/// One column of a segment's Jacobian by central differences, computed as Ceres's numeric
/// differentiation computes it: col = (r(p + delta e_j) - r(p - delta e_j)) * ((1 / delta) / 2),
/// where p is the model parameters (block 0) or the segment's initial state (block 1). `col`
/// has m entries (written with stride `stride`); false if either evaluation fails.
bool segment_column(const Problem& P, const Segment& s, const double* x, const double* x0,
                    int block, int j, double* col, int stride, std::vector<double>& rp,
                    std::vector<double>& rm) {
  const int np = static_cast<int>(P.map.est.size());
  std::vector<double> xv(x, x + np);
  std::array<double, 2> x0v{};
  if (x0 != nullptr) x0v = {x0[0], x0[1]};
  double& target = block == 0 ? xv[static_cast<std::size_t>(j)] : x0v[static_cast<std::size_t>(j)];
  const double at = target;
  const double delta = central_step(at);
  const double* x0p = x0 != nullptr ? x0v.data() : nullptr;
  target = at + delta;
  if (!segment_residuals(P, s, xv.data(), x0p, rp.data())) return false;
  target = at - delta;
  if (!segment_residuals(P, s, xv.data(), x0p, rm.data())) return false;
  double one_over_delta = 1.0 / delta;
  one_over_delta /= 2;
  for (std::size_t k = 0; k < rp.size(); ++k)
    col[static_cast<std::ptrdiff_t>(k) * stride] = (rp[k] - rm[k]) * one_over_delta;
  return true;
}

/// Every segment's residuals and Jacobians at the point Ceres is about to evaluate, computed on
/// `threads` threads before Ceres asks the residual blocks for them (a ceres::EvaluationCallback:
/// Ceres has copied the point into the parameter blocks' memory, x and x0, before it calls
/// PrepareForEvaluation). The residual blocks then only copy their rows, and Ceres itself runs
/// in one thread: its sums of the cost and the gradient over the blocks are taken in one fixed
/// order, so that the solve does not depend on the scheduling (with Ceres's own threads it did,
/// see the Solver::Options below), while the simulations - all of the time - use every core.
/// The Jacobian: by forward sensitivities (evaluate_sensitivities, with the residuals' own
/// simulation), or the values of ceres::DynamicNumericDiffCostFunction<CENTRAL> on
/// segment_residuals, bit for bit (segment_column).
class SegmentEvaluator final : public ceres::EvaluationCallback {
 public:
  SegmentEvaluator(const Problem& P, std::span<const Segment> segs, const std::vector<double>& x,
                   const std::vector<std::array<double, 2>>& x0, int threads)
      : P_(P), segs_(segs), x_(x), x0_(x0), threads_(threads), values_(segs.size()) {
    const std::size_t np = P.map.est.size();
    for (std::size_t i = 0; i < segs.size(); ++i) {
      const std::size_t m =
          residual_count(segs[i], P.opt.estimate_initial_state, P.opt.closed_loop);
      values_[i].r.resize(m);
      values_[i].jx.resize(m * np);
      if (P.opt.estimate_initial_state) values_[i].jx0.resize(m * 2);
    }
    sensitivities_ = P.opt.jacobian == JointOeOptions::Jacobian::sensitivities &&
                     natural_jacobian(P.map, P.map.internal(P.map.base).data()).size() > 0;
  }

  /// Whether the initial-state blocks are free (their Jacobian columns wanted).
  void set_free_x0(bool free) {
    free_x0_ = free;
    jacobians_ = false;
  }

  void PrepareForEvaluation(bool evaluate_jacobians, bool new_evaluation_point) override {
    if (new_evaluation_point || !residuals_) {
      point_x_ = x_;
      point_x0_ = x0_;
      residuals_ = jacobians_ = false;
    }
    if (!residuals_) {
      // The bristle trajectory of the point once, before the segments that all need it.
      if (sim::is_dynamic(P_.map.base)) bristle(point_x_);
      // With forward sensitivities the Jacobian comes with the residuals' own simulation: Ceres
      // asks for it at every accepted point (most trial points), and the residual-only pass
      // would simulate every segment a second time.
      if (sensitivities_) {
        evaluate_sensitivities();
        return;
      }
      detail::for_each_index(segs_.size(), threads_, [this](std::size_t i) {
        values_[i].ok =
            segment_residuals(P_, segs_[i], point_x_.data(), x0_of(i), values_[i].r.data());
      });
      residuals_ = true;
    }
    if (evaluate_jacobians && !jacobians_) {
      if (sensitivities_) {
        evaluate_sensitivities();
        return;
      }
      const int np = static_cast<int>(P_.map.est.size());
      const int cols = np + (free_x0_ ? 2 : 0);
      for (auto& v : values_) v.col_ok.assign(static_cast<std::size_t>(cols), 0);
      // The bristle trajectories of the 2 np perturbed parameter vectors first (one each,
      // shared by every segment through the cache), then the columns.
      if (sim::is_dynamic(P_.map.base))
        detail::for_each_index(2 * static_cast<std::size_t>(np), threads_, [this](std::size_t k) {
          std::vector<double> xv = point_x_;
          const std::size_t j = k / 2;
          xv[j] += (k % 2 == 0 ? 1 : -1) * central_step(point_x_[j]);
          bristle(xv);
        });
      detail::for_each_index(
          segs_.size() * static_cast<std::size_t>(cols), threads_, [&](std::size_t task) {
            const std::size_t i = task / static_cast<std::size_t>(cols);
            const int c = static_cast<int>(task % static_cast<std::size_t>(cols));
            Values& v = values_[i];
            std::vector<double> rp(v.r.size()), rm(v.r.size());
            const bool ok = c < np ? segment_column(P_, segs_[i], point_x_.data(), x0_of(i), 0, c,
                                                    v.jx.data() + c, np, rp, rm)
                                   : segment_column(P_, segs_[i], point_x_.data(), x0_of(i), 1,
                                                    c - np, v.jx0.data() + (c - np), 2, rp, rm);
            v.col_ok[static_cast<std::size_t>(c)] = ok ? 1 : 0;
          });
      jacobians_ = true;
    }
  }

  /// The residual block of segment i: its rows at `params` (the values computed above when
  /// params is the prepared point, else computed here, serially).
  bool evaluate(std::size_t i, double const* const* params, double* residuals,
                double** jacobians) const {
    const Values& v = values_[i];
    const std::size_t np = P_.map.est.size();
    const bool same = residuals_ && std::equal(params[0], params[0] + np, point_x_.begin()) &&
                      (!P_.opt.estimate_initial_state ||
                       (params[1][0] == point_x0_[i][0] && params[1][1] == point_x0_[i][1]));
    const bool want_x = jacobians != nullptr && jacobians[0] != nullptr;
    const bool want_x0 =
        jacobians != nullptr && P_.opt.estimate_initial_state && jacobians[1] != nullptr;
    if (same && (!(want_x || want_x0) || (jacobians_ && (!want_x0 || free_x0_)))) {
      if (!v.ok) return false;
      std::copy(v.r.begin(), v.r.end(), residuals);
      if (!want_x && !want_x0) return true;
      for (std::size_t c = 0; c < np; ++c)
        if (!v.col_ok[c]) return false;
      if (want_x0 && !(v.col_ok[np] && v.col_ok[np + 1])) return false;
      if (want_x) std::copy(v.jx.begin(), v.jx.end(), jacobians[0]);
      if (want_x0) std::copy(v.jx0.begin(), v.jx0.end(), jacobians[1]);
      return true;
    }
    // Not the prepared point (Ceres evaluates only prepared points; kept for safety).
    const double* x0 = P_.opt.estimate_initial_state ? params[1] : nullptr;
    if (!segment_residuals(P_, segs_[i], params[0], x0, residuals)) return false;
    std::vector<double> rp(v.r.size()), rm(v.r.size());
    if (want_x)
      for (std::size_t c = 0; c < np; ++c)
        if (!segment_column(P_, segs_[i], params[0], x0, 0, static_cast<int>(c), jacobians[0] + c,
                            static_cast<int>(np), rp, rm))
          return false;
    if (want_x0)
      for (int c = 0; c < 2; ++c)
        if (!segment_column(P_, segs_[i], params[0], x0, 1, c, jacobians[1] + c, 2, rp, rm))
          return false;
    return true;
  }

 private:
  /// Residuals and Jacobians of every segment at the point by forward sensitivities: the
  /// bristle state's derivatives along every record once, then one simulation with
  /// sensitivities per segment.
  void evaluate_sensitivities() {
    const int cols = static_cast<int>(P_.map.est.size()) + (free_x0_ ? 2 : 0);
    const Eigen::MatrixXd G = natural_jacobian(P_.map, point_x_.data());
    std::vector<std::vector<double>> dz(P_.data.size());
    bool dz_ok = true;
    try {
      const JointModel m = P_.map.model(point_x_.data());
      detail::for_each_index(P_.data.size(), threads_, [&](std::size_t r) {
        dz[r] = sim::bristle_state_sensitivity(m, P_.data[r].t, P_.data[r].qd);
      });
    } catch (const std::exception&) {
      dz_ok = false;
    }
    detail::for_each_index(segs_.size(), threads_, [&](std::size_t i) {
      Values& v = values_[i];
      SegmentJacobian jac{dz[segs_[i].rec], &G, v.jx.data(),
                          v.jx0.empty() ? nullptr : v.jx0.data()};
      v.ok = dz_ok && segment_residuals(P_, segs_[i], point_x_.data(), x0_of(i), v.r.data(), &jac);
      v.col_ok.assign(static_cast<std::size_t>(cols), jac.ok && v.ok ? 1 : 0);
    });
    residuals_ = jacobians_ = true;
  }

  /// The bristle trajectories of the parameter vector xv into the cache.
  void bristle(const std::vector<double>& xv) const {
    try {
      const JointModel m = P_.map.model(xv.data());
      sim::check_joint_model(m);
      P_.zcache->get(xv.data(), xv.size(), m, P_.data);
    } catch (const std::exception&) {
      // segment_residuals meets the same failure and reports it
    }
  }

  struct Values {
    std::vector<double> r, jx, jx0;  ///< residuals; Jacobians (row-major m x np, m x 2)
    bool ok = false;                 ///< the residuals could be evaluated
    std::vector<char> col_ok;        ///< each Jacobian column could be evaluated
  };
  const double* x0_of(std::size_t i) const {
    return P_.opt.estimate_initial_state ? point_x0_[i].data() : nullptr;
  }

  const Problem& P_;
  std::span<const Segment> segs_;
  const std::vector<double>& x_;                  ///< the model parameters' block
  const std::vector<std::array<double, 2>>& x0_;  ///< the initial states' blocks
  int threads_ = 1;
  std::vector<Values> values_;
  std::vector<double> point_x_;
  std::vector<std::array<double, 2>> point_x0_;
  bool residuals_ = false, jacobians_ = false, free_x0_ = false;
  /// The Jacobian by forward sensitivities (JointOeOptions::jacobian, and the model has them).
  bool sensitivities_ = false;
};

/// Segment i's residual block: its values from the SegmentEvaluator.
class SegmentCost final : public ceres::CostFunction {
 public:
  SegmentCost(const SegmentEvaluator& e, std::size_t i, int np, bool free_x0, int m)
      : e_(e), i_(i) {
    mutable_parameter_block_sizes()->push_back(np);
    if (free_x0) mutable_parameter_block_sizes()->push_back(2);
    set_num_residuals(m);
  }
  bool Evaluate(double const* const* params, double* residuals, double** jacobians) const override {
    return e_.evaluate(i_, params, residuals, jacobians);
  }

 private:
  const SegmentEvaluator& e_;
  std::size_t i_;
};

/// The last accepted iterate (Ceres's update_state_every_iteration puts it into the parameter
/// blocks before the iteration callbacks run). With an evaluation callback, Ceres writes every
/// evaluated point into the blocks; a solve that ends in FAILURE (no usable solution) leaves
/// the last evaluated point there, so the blocks are restored from here.
class AcceptedState final : public ceres::IterationCallback {
 public:
  AcceptedState(std::vector<double>& x, std::vector<std::array<double, 2>>& x0) : x_(x), x0_(x0) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary&) override {
    sx_ = x_;
    sx0_ = x0_;
    return ceres::SOLVER_CONTINUE;
  }
  void restore() const {
    if (sx_.empty()) return;
    x_ = sx_;
    x0_ = sx0_;
  }

 private:
  std::vector<double>& x_;
  std::vector<std::array<double, 2>>& x0_;
  std::vector<double> sx_;
  std::vector<std::array<double, 2>> sx0_;
};

double rms_about_mean(std::span<const JointData> data, bool velocity) {
  double sum = 0, sum2 = 0;
  double n = 0;
  for (const JointData& d : data) {
    for (double x : velocity ? d.qd : d.q) {
      sum += x;
      sum2 += x * x;
      n += 1;
    }
  }
  const double mean = sum / n;
  return std::sqrt(std::max(sum2 / n - mean * mean, 0.0));
}

/// One progress line per iteration; a cancelled fit (JointOeOptions::progress) stops at the
/// next iteration (fit_joint_oe then throws Cancelled).
class ProgressCallback : public ceres::IterationCallback {
 public:
  explicit ProgressCallback(const Progress& progress) : progress_(progress) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    if (progress_.cancelled()) {
      aborted_ = true;
      return ceres::SOLVER_ABORT;
    }
    if (progress_.report)
      progress_.say("oe: iteration " + std::to_string(s.iteration) + ": cost " +
                    format_number(s.cost) + (s.step_is_successful ? "" : " (step rejected)"));
    return ceres::SOLVER_CONTINUE;
  }
  /// Whether a solve was stopped by the cancel hook.
  bool aborted() const { return aborted_; }

 private:
  const Progress& progress_;
  bool aborted_ = false;
};

/// The options, the records and the initial model, before any work.
void check_oe_inputs(std::span<const JointData> data, const JointModel& initial,
                     const JointOeOptions& opt) {
  if (!(opt.segment_s >= 0) || !std::isfinite(opt.segment_s))
    throw FitError("oe: segment length must be a finite number >= 0 s, got " +
                   format_number(opt.segment_s));
  if (!(opt.max_step > 0) || !std::isfinite(opt.max_step))
    throw FitError("oe: max_step must be > 0 s, got " + format_number(opt.max_step));
  if (opt.max_iterations < 1)
    throw FitError("oe: max_iterations must be >= 1, got " + std::to_string(opt.max_iterations));
  if (initial.temperature)
    for (const JointData& d : data)
      if (d.temperature.size() != d.size())
        throw FitError("oe: the initial model's friction depends on the temperature and record '" +
                       d.source + "' has no temperature channel (--temperature COLUMN)");
  check_joint_data(data, 3);
  try {
    sim::check_joint_model(initial);
  } catch (const std::invalid_argument& e) {
    throw FitError(std::string("oe: the initial model is not valid: ") + e.what());
  }
}

/// The entries named in `names` held at their initial values, each with an `undetermined` flag
/// saying why (`why`) and at what value (in `unit`); `value` is the flag's number.
void hold_entries(Problem& P, std::initializer_list<std::string_view> names, double value,
                  const std::string& why, const std::string& unit) {
  for (Entry& e : P.map.entries) {
    if (std::find(names.begin(), names.end(), e.name) == names.end()) continue;
    e.estimated = false;
    std::string message = "oe: " + e.name + " is not determined by the records: ";
    message += why;
    message += "; held at ";
    message += format_number(e.ref(P.map.base));
    message += unit;
    P.held.push_back({e.name, "undetermined", "", value, std::move(message)});
  }
}

/// A temperature law's kT and kT_v held where the records' moving samples hardly warm (the rule
/// of identify/temperature_spread.hpp, idim's).
void hold_undetermined_temperature(Problem& P, const JointModel& initial) {
  if (!initial.temperature) return;
  const double spread = temperature_spread(moving_temperatures(P.data, 0.0).T);
  if (spread < kTemperatureMinSpread)
    hold_entries(P, {"kT", "kT_v"}, spread, temperature_spread_reason(spread), " 1/K");
}

/// A load dependence's coefficients held where the records' moving samples do not determine them
/// (the rule of identify/load_rule.hpp, idim's and the arm fit's, on the records' applied
/// torque).
void hold_undetermined_load(Problem& P, const JointModel& initial) {
  if (!initial.load) return;
  LoadSides sides;
  for (const JointData& d : P.data)
    for (std::size_t k = 0; k < d.size(); ++k) sides.add(d.tau[k], d.qd[k]);
  const std::string why = load_undetermined_reason(sides.drive, sides.back);
  if (!why.empty())
    hold_entries(P, {"mu", "mu_drive", "mu_back"}, load_relative_spread(sides.drive, sides.back),
                 why, "");
}

/// The parameter mapping of the initial model. The names of the log-scale parameters that
/// started at 0 go to `raised`.
void map_parameters(Problem& P, const JointModel& initial, const JointOeOptions& opt,
                    std::vector<std::string>& raised) {
  P.map.base = initial;
  if (auto* p = std::get_if<LG::Params>(&P.map.base.friction)) {
    // A zero damping cannot be estimated on a log scale: start from a small positive value
    // (1e-3 of critical damping of the bristle spring with the joint's inertia).
    if (!(p->sigma1 > 0)) p->sigma1 = 1e-3 * 2 * std::sqrt(p->sigma0 * initial.I);
  }
  P.map.entries = entries_of(P.map.base, opt.fix_rigid_body);
  P.zcache = std::make_unique<BristleCache>(4 * P.map.entries.size() + 8);
  if (const auto* sf = std::get_if<SF::Params>(&initial.friction))
    P.map.symmetric_static = sf->curve.Fc_pos == sf->curve.Fc_neg;
  P.map.symmetric_load = initial.load && initial.load->mu_drive == initial.load->mu_back;
  hold_undetermined_temperature(P, initial);
  hold_undetermined_load(P, initial);
  for (std::size_t j = 0; j < P.map.entries.size(); ++j)
    if (P.map.entries[j].estimated) P.map.est.push_back(static_cast<int>(j));
  // The relative Stribeck map needs every initial Fs_i > -Fc / n (a valid g allows one very
  // negative level if others are positive): otherwise the levels stay linear.
  if (const auto* p = std::get_if<LG::Params>(&P.map.base.friction); p != nullptr) {
    P.map.stribeck_relative = p->n_stribeck > 0;
    for (int i = 0; i < p->n_stribeck; ++i)
      if (!(p->Fs[static_cast<std::size_t>(i)] * p->n_stribeck > -p->Fc))
        P.map.stribeck_relative = false;
  }
  // A log-scale parameter that starts at 0 (e.g. an idim coefficient held at its bound) starts
  // at 1e-6 of its unit instead: the log scale reaches any positive value in a few steps.
  for (const int j : P.map.est) {
    const Entry& e = P.map.entries[static_cast<std::size_t>(j)];
    if (e.log && !(e.ref(P.map.base) > 0)) {
      e.ref(P.map.base) = 1e-6;
      raised.push_back(e.name);
    }
  }
}

/// The channel weights 1 / (standard deviation) of the fitted outputs, and in closed loop the
/// controller's drive of every record and the torque's weight.
void weigh_channels(Problem& P, std::span<const JointData> data, const JointOeOptions& opt) {
  const double sq = rms_about_mean(data, false), sqd = rms_about_mean(data, true);
  const bool use_q = opt.output != JointOeOptions::Output::velocity;
  const bool use_qd = opt.output != JointOeOptions::Output::position;
  if (use_q && !(sq > 0)) throw FitError("oe: the position does not vary over the records");
  if (use_qd && !(sqd > 0)) throw FitError("oe: the velocity does not vary over the records");
  P.wq = use_q ? 1 / sq : 0;
  P.wqd = use_qd ? 1 / sqd : 0;
  if (!opt.closed_loop) return;
  const JointController& c = opt.controller;
  if (!(c.kp >= 0) || !(c.kd >= 0) || !std::isfinite(c.kp) || !std::isfinite(c.kd) ||
      !std::isfinite(c.kff) || !std::isfinite(c.bias))
    throw FitError(
        "oe: closed loop: the controller gains must be finite with kp, kd >= 0 "
        "(kp = " +
        format_number(c.kp) + ", kd = " + format_number(c.kd) + ")");
  double sum = 0, sum2 = 0, cnt = 0;
  for (const JointData& d : data) {
    P.drive.push_back(controller_drive(c, d));  // FitError without desired channels
    for (const double v : d.tau) {
      sum += v;
      sum2 += v * v;
      cnt += 1;
    }
  }
  const double mean = sum / cnt;
  const double stau = std::sqrt(std::max(sum2 / cnt - mean * mean, 0.0));
  if (!(stau > 0)) throw FitError("oe: the torque does not vary over the records");
  P.wtau = 1 / stau;
}

/// Segments of about segment_s seconds (the last one of a record absorbs a short rest).
std::vector<Segment> make_segments(std::span<const JointData> data, double segment_s) {
  std::vector<Segment> segs;
  for (std::size_t r = 0; r < data.size(); ++r) {
    const auto& t = data[r].t;
    std::size_t k0 = 0;
    while (k0 + 1 < t.size()) {
      std::size_t k1 = t.size() - 1;
      if (segment_s > 0) {
        k1 = k0 + 1;
        while (k1 + 1 < t.size() && t[k1] - t[k0] < segment_s) ++k1;
        if (t.back() - t[k1] < 0.5 * segment_s) k1 = t.size() - 1;
      }
      segs.push_back({r, k0, k1});
      k0 = k1;
    }
  }
  return segs;
}

/// The initial model must simulate.
void check_initial_simulates(const Problem& P, const std::vector<Segment>& segs,
                             const std::vector<double>& x) {
  std::vector<double> r(residual_count(segs[0], false, P.opt.closed_loop));
  if (!segment_residuals(P, segs[0], x.data(), nullptr, r.data()))
    throw FitError("oe: the initial model cannot be simulated on " +
                   (P.data[0].source.empty() ? std::string("the record") : P.data[0].source));
}

/// One residual block per segment (with its initial state when estimated); the number of
/// residuals.
long add_segment_costs(ceres::Problem& problem, SegmentEvaluator& evaluator,
                       const std::vector<Segment>& segs, std::vector<double>& x,
                       std::vector<std::array<double, 2>>& x0, const JointOeOptions& opt) {
  const auto np = static_cast<int>(x.size());
  long nres = 0;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const Segment& s = segs[i];
    const auto m = static_cast<int>(residual_count(s, opt.estimate_initial_state, opt.closed_loop));
    auto* cost = new SegmentCost(evaluator, i, np, opt.estimate_initial_state, m);
    nres += m;
    if (opt.estimate_initial_state)
      problem.AddResidualBlock(cost, nullptr, x.data(), x0[i].data());
    else
      problem.AddResidualBlock(cost, nullptr, x.data());
  }
  return nres;
}

/// The solver's options: dense QR, one thread, silent, the progress and accepted-state
/// callbacks.
ceres::Solver::Options solver_options(const JointOeOptions& opt, ProgressCallback& cb,
                                      AcceptedState& accepted) {
  ceres::Solver::Options so;
  so.linear_solver_type = ceres::DENSE_QR;
  so.max_num_iterations = opt.max_iterations;
  // Ceres in one thread: with several, it sums the cost and the gradient over the segments in
  // per-thread partial sums whose split depends on the scheduling, and on an ill-conditioned
  // problem (the DFKI pendulum's sigma0, sigma1) those last-bit differences took the solver
  // down different paths from run to run (tests/test_trust_dfki.cpp failed intermittently).
  // The simulations run on `threads` threads in the SegmentEvaluator instead.
  so.num_threads = 1;
  so.function_tolerance = 1e-10;
  so.parameter_tolerance = 1e-10;
  // No glog lines from the solver (a rejected step that leaves the valid parameter set is
  // normal here, and Ceres would print a warning for each); progress goes to opt.progress.
  so.logging_type = ceres::SILENT;
  so.callbacks.push_back(&cb);
  so.callbacks.push_back(&accepted);
  // The parameter blocks hold the last accepted iterate, so that a failure to evaluate the
  // Jacobian there (a central difference that leaves the valid parameter set) keeps the
  // progress made; the result then carries a warning.
  so.update_state_every_iteration = true;
  return so;
}

/// What the solve reports: Ceres's summary (its initial cost the first pass's), the iterations
/// of the first pass and Ceres's glog lines (solver_log.hpp).
struct OeSolve {
  ceres::Solver::Summary summary;
  int iterations_first = 0;
  std::vector<std::string> lines;
};

/// Solve, in two passes when initial states are estimated: first with the measured ones (held
/// constant), which brings the model parameters near the optimum, then with them free. From a
/// distant start, freeing them at once lets the first steps trade model errors for initial
/// states and wander off the valid parameter set. Throws Cancelled when cancelled.
OeSolve solve_oe(ceres::Problem& problem, SegmentEvaluator& evaluator, std::vector<double>& x,
                 std::vector<std::array<double, 2>>& x0, const JointOeOptions& opt) {
  ProgressCallback cb(opt.progress);
  AcceptedState accepted(x, x0);
  ceres::Solver::Options so = solver_options(opt, cb, accepted);
  OeSolve out;
  const auto solve = [&] {
    for (auto& line : solve_quietly(so, &problem, &out.summary))
      out.lines.push_back(std::move(line));
  };
  if (opt.estimate_initial_state) {
    for (auto& s0 : x0) problem.SetParameterBlockConstant(s0.data());
    solve();
    if (cb.aborted()) throw Cancelled();
    if (!out.summary.IsSolutionUsable()) accepted.restore();
    const double first_cost = out.summary.initial_cost;
    const int first_iterations = static_cast<int>(out.summary.iterations.size()) - 1;
    for (auto& s0 : x0) problem.SetParameterBlockVariable(s0.data());
    evaluator.set_free_x0(true);
    // The Jacobian now has the structure of bundle adjustment: every segment's residuals
    // depend on the model parameters and on that segment's initial state only. Eliminating the
    // initial states (Schur complement) leaves an np x np system instead of a dense QR of the
    // whole (residuals x (np + 2 segments)) Jacobian. (A fresh ordering: Ceres edits the one
    // it is given.)
    so.linear_solver_type = ceres::DENSE_SCHUR;
    auto ordering = std::make_shared<ceres::ParameterBlockOrdering>();
    for (auto& s0 : x0) ordering->AddElementToGroup(s0.data(), 0);
    ordering->AddElementToGroup(x.data(), 1);
    so.linear_solver_ordering = ordering;
    solve();
    if (!out.summary.IsSolutionUsable()) accepted.restore();
    out.summary.initial_cost = first_cost;
    out.iterations_first = first_iterations;
  } else {
    solve();
    if (!out.summary.IsSolutionUsable()) accepted.restore();
  }
  if (cb.aborted()) throw Cancelled();
  return out;
}

/// The result's model, costs, iterations and the solver's warnings.
void fill_solution(JointOeResult& out, const Problem& P, const std::vector<double>& x,
                   const OeSolve& s, long nres, std::size_t segments) {
  out.model = P.map.model(x.data());
  out.initial_cost = s.summary.initial_cost;
  out.final_cost = s.summary.final_cost;
  out.iterations = s.iterations_first + static_cast<int>(s.summary.iterations.size()) - 1;
  out.converged = s.summary.termination_type == ceres::CONVERGENCE;
  out.termination = s.summary.message;
  for (const auto& line : s.lines)
    if (line.find(s.summary.message) == std::string::npos)
      out.warnings.push_back("oe: solver: " + line);
  out.residuals = nres;
  out.segments = static_cast<int>(segments);
  if (!out.converged)
    out.warnings.push_back("oe: the solver did not converge (" + s.summary.message + ")");
}

/// The linearised covariance of the internal model parameters, its Newey-West counterpart
/// (empty when J^T J is singular or J could not be evaluated) and what the statistics found
/// (for detail::assess; the fitted channel with the most coloured residuals is the one judged).
struct OeCovariance {
  Eigen::MatrixXd cov, hac;
  detail::Findings findings;
};

/// Whiteness of each fitted channel over the concatenated segments (rows: per sample, the
/// channels q, qd (, tau) in this order; residual blocks in the order added, i.e. time order):
/// the most coloured one goes to rel.whiteness; returns its name.
std::string most_coloured_channel(const Problem& P, const std::vector<double>& res, long samples,
                                  int nch, Reliability& rel) {
  const std::array<double, 3> weight{P.wq, P.wqd, P.wtau};
  const std::array<const char*, 3> channel{"position", "velocity", "torque"};
  std::string coloured;
  for (int c = 0; c < nch; ++c) {
    if (weight[static_cast<std::size_t>(c)] == 0) continue;
    std::vector<double> rc(static_cast<std::size_t>(samples));
    for (long k = 0; k < samples; ++k)
      rc[static_cast<std::size_t>(k)] = res[static_cast<std::size_t>(k * nch + c)];
    const ResidualWhiteness w = residual_whiteness(rc);
    if (coloured.empty() || w.acf1 > rel.whiteness.acf1 || std::isnan(rel.whiteness.acf1)) {
      rel.whiteness = w;
      coloured = channel[static_cast<std::size_t>(c)];
    }
  }
  return coloured;
}

/// Linearised covariance at the optimum, and what decides whether it can be trusted
/// (detail::assess, docs/identification.md "Results").
OeCovariance oe_covariance(ceres::Problem& problem, const Problem& P, long nres, long n_free,
                           int np, JointOeResult& out) {
  auto& rel = out.reliability;
  OeCovariance oc;
  detail::Findings& f = oc.findings;
  f.converged = out.converged;
  double cost = 0;
  std::vector<double> res;
  ceres::CRSMatrix crs;
  ceres::Problem::EvaluateOptions eo;
  eo.num_threads = 1;  // the evaluator runs the simulations on eval_threads
  if (!(problem.Evaluate(eo, &cost, &res, nullptr, &crs) && nres > n_free)) {
    out.warnings.push_back(
        "oe: the Jacobian at the optimum could not be evaluated: no standard "
        "errors");
    f.jacobian_failure = "could not be evaluated";
    return oc;
  }
  // J is sparse (each segment's rows touch the model parameters and that segment's initial
  // state): J^T J from the sparse matrix, not a dense (residuals x (np + 2 segments)) one.
  const Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor>> J(
      crs.num_rows, crs.num_cols, static_cast<Eigen::Index>(crs.values.size()), crs.rows.data(),
      crs.cols.data(), crs.values.data());
  const Eigen::MatrixXd JtJ = Eigen::MatrixXd(J.transpose() * J);
  // Columns: the model parameters first (the block x was added first), then the initial
  // states; the covariance of the model parameters is the top-left block of the full one.
  const detail::LinearCovariance lc = detail::linear_covariance_normal(JtJ, 2 * cost, crs.num_rows);
  out.condition_number = lc.condition_number;
  f.information.condition_number = lc.condition_number;
  f.information.singular = lc.singular;
  std::vector<std::string> dead;
  for (long j : lc.dead)
    if (j < np)
      dead.push_back(
          P.map.entries[static_cast<std::size_t>(P.map.est[static_cast<std::size_t>(j)])].name);
  for (const auto& name : dead)
    out.flags.push_back(
        {name, "undetermined", "", kNaN,
         "oe: parameter " + name + " has no effect on the simulated output (not identifiable)"});
  f.no_effect = dead;
  const int nch = P.opt.closed_loop ? 3 : 2;
  const long samples = nres / nch;
  const std::string coloured = most_coloured_channel(P, res, samples, nch, rel);
  if (!coloured.empty()) f.coloured = coloured;
  if (lc.singular) {
    out.flags.push_back({"", "condition", "", lc.condition_number,
                         "oe: J^T J is singular at the optimum: no standard errors"});
    return oc;
  }
  oc.cov = lc.cov.topLeftCorner(np, np);
  // Newey-West over the samples: the score of a sample sums its channels' rows; the
  // initial states are nuisance parameters (A_top: the model parameters' rows of
  // A = (J^T J)^-1). A_top g_k = sum_rows r_row A_top J_row^T, so the scores are taken of
  // J A_top^T (np wide instead of np + 2 segments) and the sandwich needs no further A.
  rel.hac_lags = static_cast<int>(detail::hac_bandwidth(rel.whiteness.acf1, samples));
  const Eigen::MatrixXd A_top = lc.cov.topRows(np) / lc.s2;
  oc.hac = detail::hac_covariance_scores(
      detail::sample_scores(Eigen::MatrixXd(J * A_top.transpose()), res, nch),
      Eigen::MatrixXd::Identity(np, np), rel.hac_lags,
      static_cast<double>(nres) / static_cast<double>(nres - n_free));
  return oc;
}

/// The estimates with their white-noise and HAC intervals: the covariance of the natural
/// parameters is G cov G^T with G = d natural / d internal (delta method; G by central
/// differences of the map, which is cheap and covers every parameterisation: exp for the
/// log-scale ones, the relative Stribeck map).
std::vector<ParameterEstimate> oe_estimates(const Problem& P, const std::vector<double>& x,
                                            const OeCovariance& oc, double tq, JointModel m,
                                            Reliability& rel) {
  const auto np = static_cast<int>(x.size());
  Eigen::MatrixXd cov_nat, hac_nat;
  if (oc.cov.size() > 0) {
    Eigen::MatrixXd G(np, np);
    for (int c = 0; c < np; ++c) {
      const auto cu = static_cast<std::size_t>(c);
      const double h = 1e-6 * std::max(1.0, std::abs(x[cu]));
      std::vector<double> xp = x, xm = x;
      xp[cu] += h;
      xm[cu] -= h;
      const std::vector<double> vp = P.map.natural(xp.data()), vm = P.map.natural(xm.data());
      for (int r = 0; r < np; ++r)
        G(r, c) = (vp[static_cast<std::size_t>(r)] - vm[static_cast<std::size_t>(r)]) / (2 * h);
    }
    cov_nat = G * oc.cov * G.transpose();
    hac_nat = G * oc.hac * G.transpose();
  }
  std::vector<ParameterEstimate> out;
  for (std::size_t j = 0, ie = 0; j < P.map.entries.size(); ++j) {
    const Entry& e = P.map.entries[j];
    ParameterEstimate pe;
    pe.name = pe.field = e.name;
    pe.unit = e.unit;
    pe.value = e.ref(m);
    pe.fixed = !e.estimated;
    pe.undetermined = std::any_of(P.held.begin(), P.held.end(), [&](const IdentifiabilityFlag& f) {
      return f.parameter == e.name;
    });
    if (pe.fixed) {
      pe.std_error = 0;
      pe.ci_low = pe.ci_high = pe.value;
    } else {
      const auto a = static_cast<Eigen::Index>(ie++);
      if (cov_nat.size() > 0)
        detail::set_intervals(pe, std::sqrt(std::max(cov_nat(a, a), 0.0)), tq, rel,
                              std::sqrt(std::max(hac_nat(a, a), 0.0)));
      else
        detail::set_intervals(pe, kNaN, tq, rel, std::nullopt);
    }
    out.push_back(pe);
  }
  return out;
}

}  // namespace

JointOeResult fit_joint_oe(std::span<const JointData> data, const JointModel& initial,
                           const JointOeOptions& opt) {
  check_oe_inputs(data, initial, opt);
  Problem P;
  P.data = data;
  P.opt = opt;
  std::vector<std::string> raised;
  map_parameters(P, initial, opt, raised);
  weigh_channels(P, data, opt);
  const std::vector<Segment> segs = make_segments(data, opt.segment_s);

  const auto t_start = std::chrono::steady_clock::now();
  std::vector<double> x = P.map.internal(P.map.base);
  const auto np = static_cast<int>(x.size());
  check_initial_simulates(P, segs, x);
  // Estimated initial states (q, qd) of the segments, started at the measured values.
  std::vector<std::array<double, 2>> x0(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i)
    x0[i] = {data[segs[i].rec].q[segs[i].k0], data[segs[i].rec].qd[segs[i].k0]};
  SegmentEvaluator evaluator(P, segs, x, x0, detail::resolve_threads(opt.threads));
  ceres::Problem::Options po;
  po.evaluation_callback = &evaluator;
  ceres::Problem problem(po);
  const long nres = add_segment_costs(problem, evaluator, segs, x, x0, opt);
  const OeSolve solved = solve_oe(problem, evaluator, x, x0, opt);

  JointOeResult out;
  // A detail of the parameterisation, not of the result (the start of a zero parameter):
  // a progress line.
  if (opt.progress.report)
    for (const auto& name : raised)
      opt.progress.say("oe: " + name +
                       " started at 0, which its log scale cannot hold: started at "
                       "1e-6 instead");
  fill_solution(out, P, x, solved, nres, segs.size());
  out.flags = P.held;
  const long n_free = np + (opt.estimate_initial_state ? 2 * static_cast<long>(segs.size()) : 0);
  const OeCovariance oc = oe_covariance(problem, P, nres, n_free, np, out);
  const double tq =
      student_t_quantile(0.975, static_cast<double>(std::max<long>(nres - n_free, 1)));
  out.parameters = oe_estimates(P, x, oc, tq, out.model, out.reliability);
  detail::assess(oc.findings, out.reliability);
  if (opt.progress.report)
    opt.progress.say(
        "oe: " + std::to_string(out.iterations) + " iterations, cost " +
        format_number(out.initial_cost) + " -> " + format_number(out.final_cost) + " in " +
        format_number(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count()) +
        " s");
  return out;
}

}  // namespace frictionlab::identify
