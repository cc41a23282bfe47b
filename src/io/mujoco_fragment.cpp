// frictionlab io: the MJCF fragment of a friction model (include/frictionlab/io/
// estimator_export.hpp, mujoco_fragment; docs/mujoco.md): a lugre model as MuJoCo's dcmotor
// actuator, or any lugre or static model as the joint's frictionloss and damping, with notes of
// what MuJoCo cannot represent.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "frictionlab/format.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "mujoco_text.hpp"

namespace frictionlab::io {
namespace {

/// Integral over r in [0, inf) of the Stribeck shape s(r) (r = |v|/vs), or +inf.
double shape_area(StribeckShape shape, double alpha) {
  constexpr double pi = 3.14159265358979323846;
  if (shape == StribeckShape::exponential) return std::tgamma(1.0 + 1.0 / alpha);
  if (alpha <= 1.0) return INFINITY;
  return (pi / alpha) / std::sin(pi / alpha);
}

/// The levels MuJoCo takes: one per term, the means of the curve's two sides (with a note when
/// they differ).
struct MeanLevels {
  double Fc, Fs;
};
MeanLevels mean_levels(const StribeckCurve<double>& c, std::vector<std::string>& notes) {
  const MeanLevels m{(c.Fc_pos + c.Fc_neg) / 2, (c.Fs_pos + c.Fs_neg) / 2};
  if (c.Fc_pos == c.Fc_neg && c.Fs_pos == c.Fs_neg) return m;
  notes.push_back(
      "asymmetric levels (Fc " + format_exact(c.Fc_pos) + " / " + format_exact(c.Fc_neg) + ", Fs " +
      format_exact(c.Fs_pos) + " / " + format_exact(c.Fs_neg) +
      "): MuJoCo has one level per term; the means of both sides are used "
      "(the curve is off by up to " +
      format_number(std::max(std::abs(c.Fc_pos - c.Fc_neg), std::abs(c.Fs_pos - c.Fs_neg)) / 2) +
      " on each side)");
  return m;
}

/// The dcmotor's Stribeck velocity for the curve c. MuJoCo's g(v) = Fc + (Fs - Fc) exp(-(v/vs)^2);
/// another shape keeps the area of the Stribeck dip, integral (g - Fc) dv, with
/// vs' = vs * A(shape, alpha) / A(exponential, 2).
double dcmotor_vs(const StribeckCurve<double>& c, double Fc, double Fs,
                  std::vector<std::string>& notes) {
  // Without a Stribeck dip (Fs = Fc on both sides) the shape has no effect.
  const bool dip = c.Fs_pos != c.Fc_pos || c.Fs_neg != c.Fc_neg;
  if (!dip || (c.shape == StribeckShape::exponential && c.alpha == 2.0)) return c.vs;
  const double a = shape_area(c.shape, c.alpha);
  const std::string shape_name =
      std::string(c.shape == StribeckShape::rational ? "rational" : "exponential") +
      " shape with alpha = " + format_exact(c.alpha);
  if (!std::isfinite(a)) {
    notes.push_back("Stribeck " + shape_name +
                    ": MuJoCo fixes exp(-(v/vs)^2), and this "
                    "shape's dip has no finite area to match; vs is kept");
    return c.vs;
  }
  const double vs = c.vs * a / shape_area(StribeckShape::exponential, 2.0);
  // The largest difference of the curves, sampled densely on [0, 20 vs].
  double dmax = 0;
  const auto m = StribeckCurve<double>::symmetric(Fc, Fs, vs, 2.0);
  const auto src = StribeckCurve<double>::symmetric(Fc, Fs, c.vs, c.alpha, c.shape);
  for (int k = 0; k <= 4000; ++k) {
    const double v = 20.0 * c.vs * k / 4000.0;
    dmax = std::max(dmax, std::abs(stribeck_g(m, v) - stribeck_g(src, v)));
  }
  notes.push_back("Stribeck " + shape_name +
                  ": MuJoCo fixes exp(-(v/vs)^2); vs = " + format_exact(c.vs) + " is replaced by " +
                  format_number(vs) + " (same area of the Stribeck dip); g(v) differs by up to " +
                  format_number(dmax) + " Nm");
  return vs;
}

struct Fragment {
  std::string intro, body;
};

/// A lugre model as a passive dcmotor actuator (MuJoCo 3.12+).
Fragment dcmotor_actuator(const LuGre<double>::Params& l, const MujocoOptions& o,
                          std::vector<std::string>& notes) {
  const auto& c = l.curve;
  const double N = o.gear;
  const auto [Fc, Fs] = mean_levels(c, notes);
  const double vs = dcmotor_vs(c, Fc, Fs, notes);
  if (l.vd > 0)
    notes.push_back("velocity-dependent damping sigma1*exp(-(v/vd)^2), vd = " + format_exact(l.vd) +
                    ": MuJoCo's sigma1 is constant; its value at v = 0 is used");
  if (N != 1.0)
    notes.push_back("gear " + format_exact(N) +
                    ": torques and stiffness divided by the gear "
                    "(actuator side), velocities unchanged (motor side)");
  Fragment f;
  f.intro =
      "Paste the actuator into the model's <actuator> section. A passive dcmotor (no\n"
      "     control input, electrical branch off) that applies the LuGre friction\n"
      "     F = sigma0 z + sigma1 dz/dt + sigma2 v to joint '" +
      o.joint +
      "', with MuJoCo's exact\n"
      "     (zero-order-hold) bristle update. Needs MuJoCo's dcmotor actuator with the input\n"
      "     signatures (MuJoCo 3.12 or later).";
  f.body = "<actuator>\n  <dcmotor name=\"" + o.joint + "_friction\" joint=\"" + o.joint + "\"" +
           (N != 1.0 ? " gear=\"" + format_exact(N) + "\"" : std::string()) +
           " input=\"none\" motorconst=\"0\"\n           lugre=\"" + format_exact(l.sigma0 / N) +
           " " + format_exact(l.sigma1 / N) + " " + format_exact(Fc / N) + " " +
           format_exact(Fs / N) + " " + format_exact(vs) + "\" damping=\"" +
           format_exact(l.sigma2 / N) + "\"/>\n</actuator>\n";
  return f;
}

/// A lugre model's steady curve as a static model, with the note of what the joint form drops.
StaticFriction<double>::Params steady_part(const LuGre<double>::Params& l,
                                           std::vector<std::string>& notes) {
  notes.push_back("presliding (bristle stiffness sigma0 = " + format_exact(l.sigma0) +
                  ", damping sigma1 = " + format_exact(l.sigma1) +
                  "): the joint's frictionloss has no bristle state; its steady curve is kept "
                  "(the dcmotor form, MuJoCo 3.12+, keeps the LuGre model)");
  StaticFriction<double>::Params p;
  p.curve = l.curve;
  p.sigma2 = l.sigma2;
  return p;
}

/// A static model (or a lugre model's steady curve) as the joint's frictionloss and damping.
Fragment joint_attributes(const StaticFriction<double>::Params& p, const MujocoOptions& o,
                          std::vector<std::string>& notes) {
  const auto& c = p.curve;
  const double N = o.gear;
  const auto [Fc, Fs] = mean_levels(c, notes);
  if (Fs != Fc)
    notes.push_back("Stribeck effect (Fs = " + format_exact(Fs) + (Fs > Fc ? " > " : " < ") +
                    "Fc = " + format_exact(Fc) +
                    "): frictionloss is one constant level; Fc is used, the " +
                    (Fs > Fc ? "dip" : "rise from standstill") + " of up to " +
                    format_number(std::abs(Fs - Fc)) +
                    " Nm at low speed is lost (a lugre fit "
                    "exports to the dcmotor actuator, which has it)");
  if (p.v_smooth > 0)
    notes.push_back(std::string(p.smoothing == SignSmoothing::atan ? "atan" : "tanh") +
                    "-smoothed sign (v_smooth = " + format_exact(p.v_smooth) +
                    "): frictionloss is MuJoCo's dry-friction constraint, softened by its "
                    "own solref/solimp instead");
  if (N != 1.0)
    notes.push_back("gear " + format_exact(N) + ": damping multiplied by the gear (joint side)");
  Fragment f;
  f.intro = "Merge these attributes into joint '" + o.joint +
            "'. frictionloss is MuJoCo's dry friction\n"
            "     (a soft constraint: Coulomb friction Fc, sticking up to a small creep; "
            "docs/mujoco.md),\n"
            "     damping its viscous term.";
  std::string attrs;
  if (Fc > 0) attrs += " frictionloss=\"" + format_exact(Fc) + "\"";
  if (p.sigma2 > 0) attrs += " damping=\"" + format_exact(p.sigma2 * N) + "\"";
  f.body = "<joint name=\"" + o.joint + "\"" + attrs + "/>\n";
  return f;
}

}  // namespace

MujocoFragment mujoco_fragment(const ModelSpec& spec, const MujocoOptions& o,
                               const std::string& source,
                               const std::vector<std::string>& source_notes) {
  if (!(o.gear > 0) || !std::isfinite(o.gear))
    throw std::invalid_argument("--gear must be > 0, got " + format_exact(o.gear));
  detail::check_mjcf_name(o.joint);
  const auto* lugre = std::get_if<LuGre<double>::Params>(&spec);
  const auto* stat = std::get_if<StaticSpec>(&spec);
  if (lugre == nullptr && stat == nullptr)
    throw std::invalid_argument("MuJoCo has no equivalent of the model '" + model_name(spec) +
                                "': export a lugre model (dcmotor actuator) or a static one "
                                "(coulomb, viscous, coulomb-viscous, stribeck: joint frictionloss "
                                "and damping)");
  const MujocoForm form =
      o.form.value_or(lugre != nullptr ? MujocoForm::dcmotor : MujocoForm::joint);
  if (form == MujocoForm::dcmotor && lugre == nullptr)
    throw std::invalid_argument("--form dcmotor: MuJoCo's dcmotor carries a lugre model; '" +
                                model_name(spec) +
                                "' is static: its form is the joint's frictionloss and damping "
                                "(--form joint)");
  MujocoFragment out;
  out.notes = source_notes;
  const Fragment f = form == MujocoForm::dcmotor ? dcmotor_actuator(*lugre, o, out.notes)
                     : lugre != nullptr
                         ? joint_attributes(steady_part(*lugre, out.notes), o, out.notes)
                         : joint_attributes(stat->params, o, out.notes);
  out.xml = detail::mujoco_comment(source, model_name(spec), f.intro, out.notes) + f.body;
  return out;
}

}  // namespace frictionlab::io
