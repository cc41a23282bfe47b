// frictionlab identify: parameter families (internal parameters -> model Params) and the Ceres
// cost that differentiates the whole simulation with ceres::Jet (forward mode, one pass for
// all parameters). docs/identification.md, "Parameterisation".
#include <ceres/ceres.h>
#include <ceres/jet.h>

#include <array>
#include <cmath>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "frictionlab/identify/options.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/dahl.hpp"
#include "frictionlab/models/elastoplastic.hpp"
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/maxwell_slip.hpp"
#include "frictionlab/models/stribeck.hpp"
#include "internal.hpp"

namespace frictionlab::identify::detail {

namespace {

constexpr int kE = kMaxFitElements;  // element arrays of the fitting instantiations
constexpr int kMaxTheta = 40;        // internal parameters at most (GMS asym, 12 elements: 32)

struct Units {
  std::string F, v, x, k, c, Fdot;
};

Units units(bool rotary) {
  if (rotary) return {"Nm", "rad/s", "rad", "Nm/rad", "Nm s/rad", "Nm/s"};
  return {"N", "m/s", "m", "N/m", "N s/m", "N/s"};
}

/// Names of the LuGre parameters in the sensorless problem (reference 000).
std::string ref_name(const std::string& field, bool sensorless) {
  if (!sensorless) return field;
  if (field == "sigma0") return "S0";
  if (field == "sigma1") return "S1";
  if (field == "sigma2") return "Kw";
  if (field == "vs") return "Vth";
  return field;
}

struct InfoBuilder {
  std::vector<ParamInfo>& out;
  const Units& u;
  bool sensorless;
  void add(const std::string& field, const std::string& unit, Tf tf, bool is_static) {
    out.push_back({field, ref_name(field, sensorless), unit, tf, is_static});
  }
  /// Curve levels (Fc[, Fs]), then vs, alpha when has_fs.
  void curve(bool asym, bool has_fs, Tf level_tf) {
    if (asym) {
      add("Fc_pos", u.F, level_tf, true);
      add("Fc_neg", u.F, level_tf, true);
      if (has_fs) {
        add("Fs_pos", u.F, level_tf, true);
        add("Fs_neg", u.F, level_tf, true);
      }
    } else {
      add("Fc", u.F, level_tf, true);
      if (has_fs) add("Fs", u.F, level_tf, true);
    }
    if (has_fs) {
      add("vs", u.v, Tf::log, true);
      add("alpha", "-", Tf::log, true);
    }
  }
};

/// Reads the curve written by InfoBuilder::curve from natural values at nat[j...].
template <class S>
StribeckCurve<S> read_curve(const S* nat, int& j, bool asym, bool has_fs, StribeckShape shape) {
  StribeckCurve<S> c;
  c.shape = shape;
  if (asym) {
    c.Fc_pos = nat[j++];
    c.Fc_neg = nat[j++];
  } else {
    c.Fc_pos = c.Fc_neg = nat[j++];
  }
  if (has_fs) {
    if (asym) {
      c.Fs_pos = nat[j++];
      c.Fs_neg = nat[j++];
    } else {
      c.Fs_pos = c.Fs_neg = nat[j++];
    }
    c.vs = nat[j++];
    c.alpha = nat[j++];
  } else {
    c.Fs_pos = c.Fc_pos;
    c.Fs_neg = c.Fc_neg;
    c.vs = S(1);
    c.alpha = S(2);
  }
  return c;
}

// ---- traits: one per model family ------------------------------------------------------------
// Each provides Model<S>, info (internal parameters after Km), user info, params<S>(natural),
// user<S>(natural, out) and fitted(natural).

struct StaticTraits {
  ModelKind kind;
  bool asym;
  StribeckShape shape;
  template <class S>
  using Model = StaticFriction<S>;

  bool has_sigma2() const { return kind != ModelKind::coulomb; }
  bool has_fc() const { return kind != ModelKind::viscous; }
  bool has_fs() const { return kind == ModelKind::stribeck; }

  void info(InfoBuilder& b) const {
    if (has_sigma2()) b.add("sigma2", b.u.c, Tf::nonneg, true);
    if (has_fc()) b.curve(asym, has_fs(), Tf::nonneg);
  }
  template <class S>
  typename Model<S>::Params params(const S* nat) const {
    typename Model<S>::Params p;
    int j = 0;
    p.sigma2 = has_sigma2() ? nat[j++] : S(0);
    if (has_fc()) {
      p.curve = read_curve(nat, j, asym, has_fs(), shape);
    } else {
      p.curve = StribeckCurve<S>{S(0), S(0), S(0), S(0), S(1), S(2), shape};
    }
    p.v_smooth = S(0);
    return p;
  }
  int user_size(int n_internal) const { return n_internal; }
  template <class S>
  void user(const S* nat, S* u, int n) const {
    for (int i = 0; i < n; ++i) u[i] = nat[i];
  }
  FittedParams fitted(const double* nat) const { return params<double>(nat); }
};

struct LuGreTraits {
  bool asym;
  StribeckShape shape;
  template <class S>
  using Model = LuGre<S>;
  void info(InfoBuilder& b) const {
    b.add("sigma2", b.u.c, Tf::nonneg, true);
    b.curve(asym, true, Tf::log);
    b.add("sigma0", b.u.k, Tf::log, false);
    b.add("sigma1", b.u.c, Tf::nonneg, false);
  }
  template <class S>
  typename Model<S>::Params params(const S* nat) const {
    typename Model<S>::Params p;
    int j = 0;
    p.sigma2 = nat[j++];
    p.curve = read_curve(nat, j, asym, true, shape);
    p.sigma0 = nat[j++];
    p.sigma1 = nat[j++];
    p.vd = S(0);
    return p;
  }
  int user_size(int n_internal) const { return n_internal; }
  template <class S>
  void user(const S* nat, S* u, int n) const {
    for (int i = 0; i < n; ++i) u[i] = nat[i];
  }
  FittedParams fitted(const double* nat) const { return params<double>(nat); }
};

struct ElastoPlasticTraits {
  bool asym;
  StribeckShape shape;
  template <class S>
  using Model = ElastoPlastic<S>;
  void info(InfoBuilder& b) const {
    b.add("sigma2", b.u.c, Tf::nonneg, true);
    b.curve(asym, true, Tf::log);
    b.add("sigma0", b.u.k, Tf::log, false);
    b.add("sigma1", b.u.c, Tf::nonneg, false);
    // z_ba = (min g / sigma0) * logistic(q): the validity condition 0 < z_ba < min g/sigma0
    // holds for every q.
    b.add("z_ba_logit", "-", Tf::free, false);
  }
  template <class S>
  static S logistic(const S& q) {
    using std::exp;
    return S(1) / (S(1) + exp(-q));
  }
  template <class S>
  typename Model<S>::Params params(const S* nat) const {
    typename Model<S>::Params p;
    int j = 0;
    p.sigma2 = nat[j++];
    p.curve = read_curve(nat, j, asym, true, shape);
    p.sigma0 = nat[j++];
    p.sigma1 = nat[j++];
    p.z_ba = S(0);
    p.z_ba = Model<S>::gmin(p) / p.sigma0 * logistic(nat[j++]);
    return p;
  }
  int user_size(int n_internal) const { return n_internal; }
  template <class S>
  void user(const S* nat, S* u, int n) const {
    for (int i = 0; i < n - 1; ++i) u[i] = nat[i];
    u[n - 1] = params<S>(nat).z_ba;
  }
  FittedParams fitted(const double* nat) const { return params<double>(nat); }
};

struct DahlTraits {
  template <class S>
  using Model = Dahl<S>;
  void info(InfoBuilder& b) const {
    b.add("sigma0", b.u.k, Tf::log, false);
    b.add("Fc", b.u.F, Tf::log, false);
    b.add("n", "-", Tf::log, false);
  }
  template <class S>
  typename Model<S>::Params params(const S* nat) const {
    return typename Model<S>::Params{nat[0], nat[1], nat[2]};
  }
  int user_size(int n_internal) const { return n_internal; }
  template <class S>
  void user(const S* nat, S* u, int n) const {
    for (int i = 0; i < n; ++i) u[i] = nat[i];
  }
  FittedParams fitted(const double* nat) const { return params<double>(nat); }
};

struct MaxwellTraits {
  int n;
  template <class S>
  using Model = MaxwellSlip<S, kE>;
  // Internal: sigma2, k_i (log), Delta increments d_i (log): Delta_0 = d_0,
  // Delta_i = Delta_{i-1} + d_i, so that the elements stay ordered (no permutation symmetry).
  void info(InfoBuilder& b) const {
    b.add("sigma2", b.u.c, Tf::nonneg, false);
    for (int i = 0; i < n; ++i)
      b.add("k[" + std::to_string(i) + "]", b.u.k, Tf::log, false);
    for (int i = 0; i < n; ++i)
      b.add("dDelta[" + std::to_string(i) + "]", b.u.x, Tf::log, false);
  }
  template <class S>
  typename Model<S>::Params params(const S* nat) const {
    typename Model<S>::Params p;
    p.n = n;
    p.sigma2 = nat[0];
    S acc(0);
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      p.k[ui] = nat[1 + i];
      acc += nat[1 + n + i];
      p.Delta[ui] = acc;
    }
    return p;
  }
  int user_size(int n_internal) const { return n_internal; }
  template <class S>
  void user(const S* nat, S* u, int /*count*/) const {
    const auto p = params<S>(nat);
    u[0] = p.sigma2;
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      u[1 + i] = p.k[ui];
      u[1 + n + i] = p.Delta[ui];
    }
  }
  FittedParams fitted(const double* nat) const {
    const auto p = params<double>(nat);
    MaxwellSlip<double>::Params q;
    q.n = n;
    q.sigma2 = p.sigma2;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      q.k[i] = p.k[i];
      q.Delta[i] = p.Delta[i];
    }
    return q;
  }
};

struct GmsTraits {
  int n;
  bool asym;
  StribeckShape shape;
  template <class S>
  using Model = GMS<S, kE>;
  // Internal: sigma2, curve, k_i (log), softmax weights w_0..w_{n-2} (w_{n-1} = 0), C (log).
  void info(InfoBuilder& b) const {
    b.add("sigma2", b.u.c, Tf::nonneg, true);
    b.curve(asym, true, Tf::log);
    for (int i = 0; i < n; ++i)
      b.add("k[" + std::to_string(i) + "]", b.u.k, Tf::log, false);
    for (int i = 0; i + 1 < n; ++i)
      b.add("w[" + std::to_string(i) + "]", "-", Tf::free, false);
    b.add("C", b.u.Fdot, Tf::log, false);
  }
  int curve_size() const { return asym ? 6 : 4; }
  template <class S>
  typename Model<S>::Params params(const S* nat) const {
    using std::exp;
    typename Model<S>::Params p;
    p.n = n;
    int j = 0;
    p.sigma2 = nat[j++];
    p.curve = read_curve(nat, j, asym, true, shape);
    for (int i = 0; i < n; ++i) p.k[static_cast<std::size_t>(i)] = nat[j++];
    // Softmax with the largest weight subtracted (no overflow).
    std::array<S, kE> e{};
    S wmax(0);
    for (int i = 0; i + 1 < n; ++i)
      if (nat[j + i] > wmax) wmax = nat[j + i];
    S sum(0);
    for (int i = 0; i < n; ++i) {
      const S w = i + 1 < n ? nat[j + i] : S(0);
      e[static_cast<std::size_t>(i)] = exp(w - wmax);
      sum += e[static_cast<std::size_t>(i)];
    }
    for (int i = 0; i < n; ++i) p.nu[static_cast<std::size_t>(i)] = e[static_cast<std::size_t>(i)] / sum;
    j += n - 1;
    p.C = nat[j++];
    return p;
  }
  int user_size(int n_internal) const { return n_internal + 1; }
  template <class S>
  void user(const S* nat, S* u, int /*count*/) const {
    const auto p = params<S>(nat);
    int j = 0;
    const int head = 1 + curve_size();
    for (; j < head; ++j) u[j] = nat[j];
    for (int i = 0; i < n; ++i) u[j++] = p.k[static_cast<std::size_t>(i)];
    for (int i = 0; i < n; ++i) u[j++] = p.nu[static_cast<std::size_t>(i)];
    u[j++] = p.C;
  }
  FittedParams fitted(const double* nat) const {
    const auto p = params<double>(nat);
    GMS<double>::Params q;
    q.n = n;
    q.sigma2 = p.sigma2;
    q.curve = p.curve;
    q.C = p.C;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      q.k[i] = p.k[i];
      q.nu[i] = p.nu[i];
    }
    return q;
  }
};

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

template <class Traits>
class FamilyT;

/// Residuals y_k - pred_k(theta) for k >= first, Jacobian by forward-mode autodiff (Jet<N>)
/// through the simulation.
template <class Traits, int N>
class SimCost final : public ceres::CostFunction {
 public:
  SimCost(const FamilyT<Traits>& fam, const FitData& d, std::vector<double> theta,
          std::vector<int> free, Robust loss)
      : fam_(fam), d_(d), theta_(std::move(theta)), free_(std::move(free)), loss_(loss) {
    set_num_residuals(static_cast<int>(d_.m()));
    mutable_parameter_block_sizes()->push_back(static_cast<int>(free_.size()));
  }

  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    const auto nf = free_.size();
    bool ok = true;
    if (jacobians == nullptr || jacobians[0] == nullptr) {
      std::vector<double> th = theta_;
      for (std::size_t j = 0; j < nf; ++j) th[static_cast<std::size_t>(free_[j])] = parameters[0][j];
      fam_.template run<double>(th.data(), d_, Method::exact, Hold::linear,
                                [&](long k, const double& pred) {
                                  if (k < d_.first) return;
                                  const double r = loss_.apply(d_.y[static_cast<std::size_t>(k)] - pred);
                                  residuals[k - d_.first] = r;
                                  ok = ok && std::isfinite(r);
                                });
      return ok;
    }
    using J = ceres::Jet<double, N>;
    std::vector<J> th(theta_.size());
    for (std::size_t i = 0; i < theta_.size(); ++i) th[i] = J(theta_[i]);
    for (std::size_t j = 0; j < nf; ++j)
      th[static_cast<std::size_t>(free_[j])] = J(parameters[0][j], static_cast<int>(j));
    fam_.template run<J>(th.data(), d_, Method::exact, Hold::linear, [&](long k, const J& pred) {
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

 private:
  const FamilyT<Traits>& fam_;
  const FitData& d_;
  std::vector<double> theta_;
  std::vector<int> free_;
  Robust loss_;
};

template <class Traits>
class FamilyT final : public Family {
 public:
  FamilyT(Traits traits, bool sensorless, bool rotary) : traits_(traits) {
    sensorless_ = sensorless;
    const Units u = units(rotary || sensorless);
    InfoBuilder b{info_, u, sensorless};
    if (sensorless) b.add("Km", "Nm/A", Tf::log, true);
    traits_.info(b);
    // User parameters: Km, then the traits' list. Names/units follow the internal ones where
    // the user parameter is an internal one; the combinations are named below.
    const int off = sensorless ? 1 : 0;
    const int n_int = size() - off;
    const int n_user = traits_.user_size(n_int);
    if (sensorless) user_.push_back({"Km", "Km", "Nm/A", 0});
    user_names(u, off, n_int, n_user);
  }

  template <class S, class Sink>
  void run(const S* theta, const FitData& d, Method m, Hold h, Sink&& sink) const {
    std::array<S, kMaxTheta> nat{};
    natural(theta, nat.data());
    const int off = sensorless_ ? 1 : 0;
    using M = typename Traits::template Model<S>;
    const typename M::Params p = traits_.template params<S>(nat.data() + off);
    typename M::State x{};
    const long n = d.n();
    for (long k = 0; k < n; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      const S vk(d.v[uk]);
      const S F = M::force(p, x, vk);
      if (sensorless_) {
        sink(k, nat[0] * S(d.i[uk]) - F);
      } else {
        sink(k, F);
      }
      if (k + 1 == n) break;
      x = advance<M>(p, x, vk, S(d.v[uk + 1]), S(d.t[uk + 1] - d.t[uk]), m, h);
    }
  }

  void predict(const double* theta, const FitData& d, Method m, Hold h,
               double* out) const override {
    run<double>(theta, d, m, h, [&](long k, const double& pred) { out[k] = pred; });
  }

  void user_values(const double* theta, double* u) const override {
    std::array<double, kMaxTheta> nat{};
    natural(theta, nat.data());
    user_from_natural<double>(nat.data(), u);
  }

  void user_jacobian(const double* theta, const std::vector<int>& free,
                     double* G) const override {
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

  std::unique_ptr<ceres::CostFunction> make_cost(const FitData& d,
                                                 const std::vector<double>& theta,
                                                 const std::vector<int>& free,
                                                 const Robust& loss) const override {
    return with_jet_size(static_cast<int>(free.size()),
                         [&](auto nc) -> std::unique_ptr<ceres::CostFunction> {
                           constexpr int N = decltype(nc)::value;
                           return std::make_unique<SimCost<Traits, N>>(*this, d, theta, free, loss);
                         });
  }

  FittedParams fitted(const double* theta) const override {
    std::array<double, kMaxTheta> nat{};
    natural(theta, nat.data());
    return traits_.fitted(nat.data() + (sensorless_ ? 1 : 0));
  }

  double steady(const double* theta, double v) const override {
    std::array<double, kMaxTheta> nat{};
    natural(theta, nat.data());
    using M = typename Traits::template Model<double>;
    return M::steady_force(traits_.template params<double>(nat.data() + (sensorless_ ? 1 : 0)), v);
  }

 private:
  template <class S>
  void natural(const S* theta, S* nat) const {
    using std::exp;
    for (int i = 0; i < size(); ++i)
      nat[i] = info_[static_cast<std::size_t>(i)].tf == Tf::log ? exp(theta[i]) : theta[i];
  }

  template <class S>
  void user_from_natural(const S* nat, S* u) const {
    const int off = sensorless_ ? 1 : 0;
    if (sensorless_) u[0] = nat[0];
    traits_.template user<S>(nat + off, u + off, size() - off);
  }

  void user_names(const Units& u, int off, int n_int, int n_user) {
    if constexpr (std::is_same_v<Traits, MaxwellTraits>) {
      const int n = traits_.n;
      user_.push_back({"sigma2", "sigma2", u.c, off});
      for (int i = 0; i < n; ++i) {
        const std::string f = "k[" + std::to_string(i) + "]";
        user_.push_back({f, f, u.k, off + 1 + i});
      }
      for (int i = 0; i < n; ++i) {
        const std::string f = "Delta[" + std::to_string(i) + "]";
        user_.push_back({f, f, u.x, i == 0 ? off + 1 + n : -1});
      }
    } else if constexpr (std::is_same_v<Traits, GmsTraits>) {
      const int n = traits_.n;
      const int head = 1 + traits_.curve_size();
      for (int i = 0; i < head; ++i) {
        const auto& pi = info_[static_cast<std::size_t>(off + i)];
        user_.push_back({pi.field, pi.name, pi.unit, off + i});
      }
      for (int i = 0; i < n; ++i) {
        const std::string f = "k[" + std::to_string(i) + "]";
        user_.push_back({f, f, u.k, off + head + i});
      }
      for (int i = 0; i < n; ++i) {
        const std::string f = "nu[" + std::to_string(i) + "]";
        user_.push_back({f, f, "-", -1});
      }
      user_.push_back({"C", "C", u.Fdot, size() - 1});
    } else if constexpr (std::is_same_v<Traits, ElastoPlasticTraits>) {
      for (int i = 0; i + 1 < n_int; ++i) {
        const auto& pi = info_[static_cast<std::size_t>(off + i)];
        user_.push_back({pi.field, pi.name, pi.unit, off + i});
      }
      user_.push_back({"z_ba", "z_ba", u.x, -1});
    } else {
      for (int i = 0; i < n_int; ++i) {
        const auto& pi = info_[static_cast<std::size_t>(off + i)];
        user_.push_back({pi.field, pi.name, pi.unit, off + i});
      }
    }
    (void)n_user;
  }

  Traits traits_;
};

}  // namespace

int Family::index(std::string_view field) const {
  for (std::size_t i = 0; i < info_.size(); ++i)
    if (info_[i].field == field) return static_cast<int>(i);
  return -1;
}

std::vector<double> Family::to_internal(const std::vector<double>& natural) const {
  std::vector<double> th(natural.size());
  for (std::size_t i = 0; i < natural.size(); ++i)
    th[i] = info_[i].tf == Tf::log ? std::log(natural[i]) : natural[i];
  return th;
}

std::vector<double> Family::to_natural(const std::vector<double>& theta) const {
  std::vector<double> nat(theta.size());
  for (std::size_t i = 0; i < theta.size(); ++i)
    nat[i] = info_[i].tf == Tf::log ? std::exp(theta[i]) : theta[i];
  return nat;
}

bool is_dynamic(ModelKind k) {
  switch (k) {
    case ModelKind::coulomb:
    case ModelKind::viscous:
    case ModelKind::coulomb_viscous:
    case ModelKind::stribeck:
      return false;
    default:
      return true;
  }
}

std::unique_ptr<Family> make_family(const ModelChoice& m, ProblemKind problem, bool rotary) {
  const bool sl = problem == ProblemKind::sensorless;
  switch (m.kind) {
    case ModelKind::coulomb:
    case ModelKind::viscous:
    case ModelKind::coulomb_viscous:
    case ModelKind::stribeck:
      return std::make_unique<FamilyT<StaticTraits>>(StaticTraits{m.kind, m.asymmetric, m.shape},
                                                      sl, rotary);
    case ModelKind::lugre:
      return std::make_unique<FamilyT<LuGreTraits>>(LuGreTraits{m.asymmetric, m.shape}, sl, rotary);
    case ModelKind::elasto_plastic:
      return std::make_unique<FamilyT<ElastoPlasticTraits>>(
          ElastoPlasticTraits{m.asymmetric, m.shape}, sl, rotary);
    case ModelKind::dahl:
      return std::make_unique<FamilyT<DahlTraits>>(DahlTraits{}, sl, rotary);
    case ModelKind::maxwell_slip:
      return std::make_unique<FamilyT<MaxwellTraits>>(MaxwellTraits{m.elements}, sl, rotary);
    case ModelKind::gms:
      return std::make_unique<FamilyT<GmsTraits>>(GmsTraits{m.elements, m.asymmetric, m.shape}, sl,
                                                  rotary);
  }
  throw FitError("unknown model kind");
}

}  // namespace frictionlab::identify::detail
