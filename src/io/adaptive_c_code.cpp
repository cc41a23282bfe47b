// frictionlab io: the adaptive estimator in the code `export c --adaptive` writes
// (adaptive_c_code.hpp), and its start from a fit's standard errors (adaptive_start).
#include "adaptive_c_code.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "estimator_impl_text.hpp"  // kAdaptiveImplC: src/estimator/fl_adaptive_impl.h
#include "frictionlab/format.hpp"
#include "json_fields.hpp"
#include "text.hpp"

namespace frictionlab::io {
namespace {

constexpr const char* kDeclarations = R"(
/* ---- the adaptive estimator (frictionlab docs/estimator.md, "Online adaptation") ----
 * The estimator above with theta = (Km, kappa_pos, kappa_neg, sigma2, offset, kT) adapted online
 * by recursive least squares with forgetting from the cycles that know the joint's torque
 * (tau_ref: a torque sensor, or the rigid-body model's torque in free motion; has_ref = 1):
 *
 *   tau = Km*i - F,  F = (kappa_s + kT*(T - T_ref))*B + sigma2*v + offset,
 *   B = sigma0*z + sigma1(v)*dz/dt,  kappa_s = kappa_pos where B >= 0, kappa_neg where B < 0
 *
 * Its start, @N@_adaptive_default_options (from @SRC@):
@START@ *
 *   @N@_adaptive a;
 *   @N@_adaptive_options o;
 *   @N@_adaptive_default_options(&o);
 *   if (@N@_adaptive_init(&a, &o) != 0) { ...bad option... }
 *   every cycle:
 *     @N@_adaptive_output r = @N@_adaptive_step(&a, i, v, dt, T, tau_ref, has_ref);
 */
#define @NU@_ADAPT_KM 0
#define @NU@_ADAPT_KAPPA_POS 1
#define @NU@_ADAPT_KAPPA_NEG 2
#define @NU@_ADAPT_SIGMA2 3
#define @NU@_ADAPT_OFFSET 4
#define @NU@_ADAPT_KT 5
#define @NU@_ADAPT_COUNT 6

typedef struct @N@_adaptive_options {
  @T@ memory_s;  /* forgetting time constant [s]: lambda = exp(-dt/memory_s) */
  @T@ v_min;     /* no update while |v| < v_min [rad/s] */
  @T@ trace_max; /* bound on trace(P) */
  @T@ T_ref;     /* reference temperature of kT [degC] */
  @T@ P0[6];     /* initial variances of theta */
  unsigned adapt;  /* bit j set: theta[j] adapts */
} @N@_adaptive_options;

typedef struct @N@_adaptive {
  struct {
    @N@_params_t params; /* the baked parameters */
    @T@ z_max, z, v_prev;
  } est;
  @N@_adaptive_options opt;
  @T@ theta[6]; /* Km, kappa_pos, kappa_neg, sigma2, offset, kT */
  @T@ P[36];    /* their covariance, row-major */
  int enabled;  /* 0: no update */
  @T@ lambda_dt, lambda; /* the forgetting factor of the last update's dt */
} @N@_adaptive;

typedef struct @N@_adaptive_output {
  @T@ friction, torque, z;
  @T@ error;   /* tau_ref - torque [Nm] (0 without a reference) */
  int updated; /* 1: theta and P were updated this cycle */
  int ok;      /* 0: an input was not finite or dt < 0; nothing changed, outputs 0 */
} @N@_adaptive_output;

/* The start above (memory 60 s, v_min 0.01 rad/s, trace_max 100, T_ref @TREF_TEXT@ degC;
 * @ADAPT_TEXT@). */
void @N@_adaptive_default_options(@N@_adaptive_options* o);
/* theta from the baked parameters, P = diag(P0) on the adapted entries, z = 0, enabled; 0, or the
 * code of the first invalid option (20 memory_s, 21 v_min, 22 trace_max, 23 P0, 24 T_ref,
 * 25 adapt).@KT_TEXT@ */
int @N@_adaptive_init(@N@_adaptive* a, const @N@_adaptive_options* o);
void @N@_adaptive_enable(@N@_adaptive* a, int enabled);
/* The parameters that adapt from now on (bit j: theta[j]); 25 for a bit above 5. */
int @N@_adaptive_freeze(@N@_adaptive* a, unsigned adapt);
/* One cycle: current [A], velocity [rad/s], dt [s] (>= 0), temperature [degC], and the torque
 * the joint carries [Nm] if has_ref. */
@N@_adaptive_output @N@_adaptive_step(@N@_adaptive* a, @T@ current, @T@ velocity, @T@ dt,
                                      @T@ temperature, @T@ tau_ref, int has_ref);
)";

constexpr const char* kCodeHead = R"(
/* ---- the adaptive estimator's C implementation (frictionlab src/estimator/fl_adaptive_impl.h) */
#define FL_A_FN(name) @N@_adaptive##name
#define FL_A_INIT @N@_adaptive_init_nominal
#define FL_A_STATE @N@_adaptive
#define FL_A_OPTIONS @N@_adaptive_options
#define FL_A_OUTPUT @N@_adaptive_output
#define FL_A_NO_DEFAULTS
int @N@_adaptive_init_nominal(@N@_adaptive* a, const @N@_params_t* nominal,
                              const @N@_adaptive_options* o);
)";

constexpr const char* kCodeTail = R"(
void @N@_adaptive_default_options(@N@_adaptive_options* o) {
  o->memory_s = @MEMORY@;
  o->v_min = @VMIN@;
  o->trace_max = @TRACE@;
  o->T_ref = @TREF@;
@P0@  o->adapt = @ADAPT@;
}
@INIT@)";

constexpr const char* kInit = R"(
int @N@_adaptive_init(@N@_adaptive* a, const @N@_adaptive_options* o) {
  return @N@_adaptive_init_nominal(a, &@N@_params, o);
}
)";

/// init with theta[kT] started at the temperature fit's slope (adaptive_start).
constexpr const char* kInitSeeded = R"(
int @N@_adaptive_init(@N@_adaptive* a, const @N@_adaptive_options* o) {
  const int err = @N@_adaptive_init_nominal(a, &@N@_params, o);
  /* theta[kT] [1/K]: the temperature fit's relative slope of the levels at T_ref */
  if (err == 0) a->theta[@NU@_ADAPT_KT] = @KT@;
  return err;
}
)";

constexpr std::size_t kKT = 5;  // kT's index in theta (FL_ADAPT_KT)
constexpr std::array<const char*, 6> kThetaNames = {"Km",     "kappa_pos", "kappa_neg",
                                                    "sigma2", "offset",    "kT"};

/// "kappa_pos, kappa_neg, sigma2 and offset adapt, Km and kT are frozen" for a mask.
std::string adapt_text(unsigned adapt) {
  std::vector<std::string> on, off;
  for (std::size_t j = 0; j < kThetaNames.size(); ++j)
    ((adapt >> j) & 1u ? on : off).emplace_back(kThetaNames[j]);
  const auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t k = 0; k < v.size(); ++k)
      out += (k == 0 ? "" : k + 1 == v.size() ? " and " : ", ") + v[k];
    return out;
  };
  std::string out =
      on.empty() ? "nothing adapts" : list(on) + (on.size() == 1 ? " adapts" : " adapt");
  if (!off.empty()) out += ", " + list(off) + (off.size() == 1 ? " is frozen" : " are frozen");
  return out;
}

/// The notes of a temperature seed: kT_v left out, and for the exponential law the size of its
/// first-order form at +-10 K (relative to the levels at T_ref).
void temperature_law_notes(AdaptiveStart& a, const TemperatureFit& t) {
  const auto& law = t.law;
  if (law.law == TemperatureLaw::exponential) {
    // exp(kT dT) - (1 + kT dT) at dT = -10 K and +10 K: what the linear adaptive law leaves out
    const auto gap = [&](double dT) { return std::exp(law.kT * dT) - (1 + law.kT * dT); };
    a.notes.push_back("the exponential law exp(kT dT) of " + t.file +
                      " is carried to first order, 1 + kT dT: they differ by " +
                      format_number(100 * gap(-10.0), 2) + " % of the levels at T_ref at -10 K, " +
                      format_number(100 * gap(10.0), 2) + " % at +10 K (kappa adapts the rest)");
  }
  a.notes.push_back("kT_v = " + format_number(law.kT_v) + " 1/K of " + t.file +
                    " (the viscous coefficient's slope) is not carried: the adaptive law has no "
                    "temperature term for sigma2, which adapts online instead");
}

/// theta[kT]'s start, its variance, T_ref and the kT bit from a temperature fit (adaptive_start).
void seed_temperature(AdaptiveStart& a, const TemperatureFit& t,
                      std::optional<double> temperature_ref) {
  const auto& law = t.law;
  a.T_ref = temperature_ref.value_or(law.T_ref);
  // the linear law's scale at T_ref: the fit's levels there relative to those at its own T_ref
  double c = 1;
  const bool linear = law.law == TemperatureLaw::linear;
  if (linear) c = 1 + law.kT * (a.T_ref - law.T_ref);
  if (!(c > 0))
    detail::fail_file(t.file, "joint: temperature",
                      "its linear law's scale at --temperature-ref " + format_number(a.T_ref) +
                          " degC, 1 + kT (T_ref - " + format_number(law.T_ref) +
                          ") = " + format_number(c) +
                          ", is not > 0 (its levels would push there): give a temperature the "
                          "law holds at");
  const bool shifted = linear && a.T_ref != law.T_ref;
  a.kT = law.kT / c;
  a.P0[kKT] = (t.se_kT / c) * (t.se_kT / c);  // [1/K^2]
  a.adapt |= 1u << kKT;
  const std::string at = " at its T_ref " + format_number(law.T_ref) + " degC";
  a.notes.push_back("P0 of kT = " + format_number(a.P0[kKT]) + " = (se(kT)" +
                    (shifted ? "/(1 + kT (T_ref - " + format_number(law.T_ref) + ")))" : ")") +
                    "^2 of " + t.file + "; kT adapts");
  a.notes.push_back("kT = " + format_number(a.kT) + " 1/K from " + t.file + " (" +
                    std::string(temperature_law_name(law.law)) +
                    " law, kT = " + format_number(law.kT) + " 1/K" + at +
                    (shifted ? "; its relative slope at T_ref: kT/(1 + kT (T_ref - " +
                                   format_number(law.T_ref) + "))"
                             : "") +
                    ")");
  a.notes.push_back(
      "T_ref = " + format_number(a.T_ref) + " degC " +
      (temperature_ref ? std::string("(--temperature-ref") : "(" + t.file + "'s T_ref") +
      ": the temperature at which the --params levels hold)");
  temperature_law_notes(a, t);
}

}  // namespace

AdaptiveStart adaptive_start(const FrictionSource& s, const estimator::EstimatorParams<double>& p,
                             const TemperatureFit* t, std::optional<double> temperature_ref) {
  AdaptiveStart a;
  a.P0 = {0.0, 0.1, 0.1, 1e-3, 1e-2, 0.0};  // adaptive_estimator.h's defaults
  // theta[j]'s variance from the fit's standard error of `field`, relative to `scale`
  const auto from_fit = [&](int j, const char* what, const char* field, double scale) {
    const auto it = s.std_errors.find(field);
    const auto k = static_cast<std::size_t>(j);
    if (it == s.std_errors.end() || !std::isfinite(it->second) || !(scale > 0)) {
      a.notes.push_back(std::string("P0 of ") + what + " = " + format_number(a.P0[k]) +
                        " (the default: " + s.file + " has no standard error of " + field + ")");
      return;
    }
    const double r = it->second / scale;
    a.P0[k] = r * r;
    std::string note = std::string("P0 of ") + what + " = " + format_number(a.P0[k]) + " = (se(";
    note.append(field).append(")");
    if (scale != 1.0) note.append("/").append(field);
    a.notes.push_back(note.append(")^2 of the fit"));
  };
  from_fit(0, "Km", "Km", 1.0);
  from_fit(1, "kappa_pos", "Fc_pos", p.friction.curve.Fc_pos);
  from_fit(2, "kappa_neg", "Fc_neg", p.friction.curve.Fc_neg);
  from_fit(3, "sigma2", "sigma2", 1.0);
  a.notes.push_back("P0 of offset = 0.01 (the default: a friction fit has no offset)");
  if (t != nullptr)
    seed_temperature(a, *t, temperature_ref);
  else
    a.notes.push_back("P0 of kT = 0 (frozen: with a temperature sensor set its bit and P0)");
  return a;
}

namespace detail {

std::string c_literal(double x, bool single) {
  std::string s =
      single ? format_number(static_cast<double>(static_cast<float>(x)), 9) : format_number(x, 17);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return single ? s + "f" : s;
}

AdaptiveCCode adaptive_c_code(const AdaptiveStart& start, bool single) {
  std::string notes, p0;
  for (const std::string& n : start.notes) notes += " *   " + n + "\n";
  for (std::size_t j = 0; j < start.P0.size(); ++j)
    p0 += "  o->P0[" + std::to_string(j) + "] = " + c_literal(start.P0[j], single) + ";\n";
  const bool seeded = start.kT != 0.0;
  AdaptiveCCode out{kDeclarations, std::string(kCodeHead) + kAdaptiveImplC + kCodeTail};
  replace_all(out.declarations, "@START@", notes);
  replace_all(out.declarations, "@TREF_TEXT@", format_number(start.T_ref));
  replace_all(out.declarations, "@ADAPT_TEXT@", adapt_text(start.adapt));
  replace_all(out.declarations, "@KT_TEXT@",
              seeded ? "\n * theta[kT] starts at " + c_literal(start.kT, single) +
                           " [1/K], the temperature fit's slope at T_ref."
                     : "");
  char adapt[16];
  std::snprintf(adapt, sizeof adapt, "0x%xu", start.adapt);
  replace_all(out.code, "@INIT@", seeded ? kInitSeeded : kInit);
  replace_all(out.code, "@KT@", c_literal(start.kT, single));
  replace_all(out.code, "@ADAPT@", adapt);
  replace_all(out.code, "@MEMORY@", c_literal(60.0, single));
  replace_all(out.code, "@VMIN@", c_literal(0.01, single));
  replace_all(out.code, "@TRACE@", c_literal(100.0, single));
  replace_all(out.code, "@TREF@", c_literal(start.T_ref, single));
  replace_all(out.code, "@P0@", p0);
  return out;
}

}  // namespace detail
}  // namespace frictionlab::io
