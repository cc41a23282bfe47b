// frictionlab: how a model folder states its fit parameterisation (std only). A fittable model's
// folder has a fit.hpp with a struct (LuGreFit, DahlFit, ...) named by its descriptor
// (`using Fit = LuGreFit;` in info.hpp); identify/ builds the Ceres problem, the statistics and
// the report from it without knowing the model. docs/identification.md, "Parameterisation".
//
// A Fit struct holds:
//   explicit Fit(const FitStructure&);       the structural choices (not estimated)
//   static constexpr bool dynamic;            the model has a state (needs reversals)
//   static constexpr FitInit init;            which initial-guess strategy identify runs
//   static constexpr int starts;              lsq starts when LsqOptions::starts is 0 (automatic):
//                                             1 where the data-driven initial guess was measured to
//                                             reach the optimum, more where random starts found
//                                             better optima (docs/identification.md, "Multi-start")
//   template <class S, int E> using Model;    the model template the fit simulates (E: element
//                                             arrays of the fitting instantiation)
//   void declare(FitParamList&) const;        the internal parameters, in order
//   template <class S, int E> Model<S, E>::Params params(const S* nat) const;
//                                             natural values (after the FitScale map) -> Params
//   void report(const std::vector<FitParam>& internal, std::vector<ReportedParam>&) const;
//                                             the reported parameters (model file names)
//   template <class S> void reported(const S* nat, S* out, int n) const;
//                                             their values from the n natural values
//                                             (ReportsInternal below: the internal ones)
// and, optionally:
//   static constexpr std::array<std::string_view, K> force_affine;
//                                             fields the state's equation does not contain and the
//                                             force is affine in (LuGre's sigma1, sigma2): the
//                                             initial guess's scans take every value of such a
//                                             field from one simulation (identify,
//                                             Family::start_ssr)
// and, for a model whose step has closed-form forward sensitivities (the fit's fast path: its
// Jacobian in plain double instead of ceres::Jet through the step, by time segments on helper
// threads; docs/identification.md, "Jacobian"):
//   using Sensitivity = ...;                  a struct (lugre/sensitivity.hpp: LuGreSensitivity)
//                                             with the model's Params, its fields (kFields,
//                                             fields<S>(p), covers<S>(p)), which fields move the
//                                             state (kStateFields) and which enter the force only
//                                             (kForceFields, force_field), Seeds<NL> and At<NL>,
//                                             at(), force() and step() with their sensitivities
//                                             along NL directions, and kAffineStep (the step is
//                                             affine in the state: force_by_start gives what a
//                                             segment run from a guessed start state needs);
//                                             a model with several states also declares
//                                             kStates, states(p), to_array and from_array and
//                                             steps the arrays in place
//                                             (models/sensitivity_states.hpp;
//                                             maxwell_slip/sensitivity.hpp); kArrayStates where
//                                             the array also carries what is not differentiated
//                                             (gms/sensitivity.hpp: the regimes), kMaxLanes
//                                             where more than 8 directions may be carried
//                                             Used only where Sensitivity::Params is the Params of
//                                             Model<double, E> (a Fit derived from another keeps
//                                             the Jet path unless it declares its own)
// and the model it contains (a fit starts from that model's optimum as well, so that
// it never ends worse on the training record than the nested model; docs/identification.md,
// "Nested models"):
//   std::optional<FitStructure> nested() const;   the structure of the contained model
//   void embed(const std::vector<FitParam>& nested, const std::vector<double>& nested_nat,
//              const std::vector<FitParam>& own, std::vector<double>& nat) const;
//                                             the nested optimum's natural values as this
//                                             model's, with (nearly) the same prediction; without
//                                             it, embed_by_field below
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

/// Elements of the multi-element models a fit can estimate (their fitting instantiations use
/// arrays of this size).
inline constexpr int kMaxFitElements = 12;
/// Element arrays of the double-precision Params a fit returns (ModelSpec: MaxwellSlip<double>,
/// GMS<double>); Fit::params<double, kSpecElements> gives the descriptor's Params.
inline constexpr int kSpecElements = 64;

/// How an internal (estimated) parameter theta maps to its natural value.
enum class FitScale {
  log,     ///< natural = exp(theta): strictly positive parameters
  nonneg,  ///< natural = theta with the bound theta >= 0
  free,    ///< natural = theta, unbounded (logits, softmax weights)
};

/// The initial-guess strategies identify implements (docs/identification.md, "Initial guess").
enum class FitInit {
  static_curve,    ///< linear least squares of the static curve on all samples
  bristle,         ///< static curve on near-steady samples, then a sigma0 (x sigma1) scan
  maxwell_ladder,  ///< the Maxwell-slip ladder of breakaway displacements and stiffnesses
  gms_ladder,      ///< static curve, the ladder for k and the weights nu, then a C scan
};

/// Structural choices of a fit (not estimated).
struct FitStructure {
  bool asymmetric = false;  ///< separate levels per side (Fc_pos, Fc_neg, ...)
  StribeckShape shape = StribeckShape::exponential;
  int elements = 3;  ///< multi-element models
};

/// One internal parameter.
struct FitParam {
  std::string field;  ///< the model-file name of its natural value ("sigma0", "k[2]"), or of
                      ///< the reparameterisation ("dDelta[0]", "w[1]", "z_ba_logit")
  Unit unit = Unit::none;
  FitScale scale = FitScale::log;
  bool is_static = false;  ///< part of the static curve (set by the static initial fit and by the
                           ///< first stage of two-stage)
};

/// One reported parameter: a model-file field, a function of the natural values.
struct ReportedParam {
  std::string field;
  Unit unit = Unit::none;
  int internal = -1;  ///< index (in the Fit's own list) of the internal parameter it equals; -1
                      ///< if it is a combination
};

/// What Fit::declare appends to.
struct FitParamList {
  std::vector<FitParam>& out;

  void add(std::string field, Unit unit, FitScale scale, bool is_static) {
    out.push_back({std::move(field), unit, scale, is_static});
  }
  /// The curve levels (Fc[, Fs], or per side), then vs, alpha when has_fs; read back by
  /// read_fit_curve.
  void curve(bool asym, bool has_fs, FitScale level_scale) {
    if (asym) {
      add("Fc_pos", Unit::force, level_scale, true);
      add("Fc_neg", Unit::force, level_scale, true);
      if (has_fs) {
        add("Fs_pos", Unit::force, level_scale, true);
        add("Fs_neg", Unit::force, level_scale, true);
      }
    } else {
      add("Fc", Unit::force, level_scale, true);
      if (has_fs) add("Fs", Unit::force, level_scale, true);
    }
    if (has_fs) {
      add("vs", Unit::velocity, FitScale::log, true);
      add("alpha", Unit::none, FitScale::log, true);
    }
  }
};

/// Reports every internal parameter as itself (the usual case).
inline void report_internal(const std::vector<FitParam>& internal,
                            std::vector<ReportedParam>& out) {
  for (std::size_t i = 0; i < internal.size(); ++i)
    out.push_back({internal[i].field, internal[i].unit, static_cast<int>(i)});
}

/// Base of the Fit structs whose reported parameters are their internal ones (the usual case).
struct ReportsInternal {
  void report(const std::vector<FitParam>& internal, std::vector<ReportedParam>& out) const {
    report_internal(internal, out);
  }
  template <class S>
  void reported(const S* nat, S* out, int n) const {
    for (int i = 0; i < n; ++i) out[i] = nat[i];
  }
};

/// Base of the Fit structs of models with a Stribeck curve: its side choice and shape. The
/// per-side model contains the symmetric one (Fc_pos = Fc_neg = Fc, ...).
struct CurveChoice {
  bool asym = false;
  StribeckShape shape = StribeckShape::exponential;
  explicit CurveChoice(const FitStructure& s) : asym(s.asymmetric), shape(s.shape) {}
  std::optional<FitStructure> nested() const {
    if (!asym) return std::nullopt;
    return FitStructure{.asymmetric = false, .shape = shape};
  }
};

/// Natural values of a nested model as those of `own`: a field takes the value of the nested
/// field of the same name, or, for a per-side field (X_pos, X_neg), of X. Fields without a source
/// are NaN (the caller's Fit fills them).
inline void embed_by_field(const std::vector<FitParam>& nested,
                           const std::vector<double>& nested_nat, const std::vector<FitParam>& own,
                           std::vector<double>& nat) {
  nat.assign(own.size(), std::numeric_limits<double>::quiet_NaN());
  auto find = [&](const std::string& f) -> int {
    for (std::size_t i = 0; i < nested.size(); ++i)
      if (nested[i].field == f) return static_cast<int>(i);
    return -1;
  };
  for (std::size_t i = 0; i < own.size(); ++i) {
    const std::string& f = own[i].field;
    int j = find(f);
    if (j < 0 && f.size() > 4 && (f.ends_with("_pos") || f.ends_with("_neg")))
      j = find(f.substr(0, f.size() - 4));
    if (j >= 0) nat[i] = nested_nat[static_cast<std::size_t>(j)];
  }
}

/// Reads the curve FitParamList::curve declared, from natural values at nat[j...]; advances j.
/// Without Fs: Fs = Fc, vs = 1, alpha = 2 (inactive).
template <class S>
StribeckCurve<S> read_fit_curve(const S* nat, int& j, bool asym, bool has_fs, StribeckShape shape) {
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

}  // namespace frictionlab
