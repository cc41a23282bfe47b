#include "frictionlab/io/lugre_xml.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <variant>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using detail::fail_key;
using detail::member;
using nlohmann::json;

std::string string_member(const json& obj, const std::string& file, const std::string& key) {
  const json& v = member(obj, file, key);
  if (!v.is_string()) fail_key(file, key, "expected a string, got " + detail::type_of(v));
  return v.get<std::string>();
}

}  // namespace

namespace {

/// The group of a LuGre set with the torque constant Km: the checks of what the group can
/// express (exponential curve, exponent 1, constant sigma1), then the values. `context` and
/// `alpha_name` name the model and its Stribeck exponent in messages ("model", "alpha" for a
/// fit.json; "joint: friction", "delta" for a joint_fit.json).
LugreGroup group_of(const LuGre<double>::Params& p, double Km, const std::string& file,
                    const std::string& context, const std::string& alpha_name, LugreGroup g) {
  const auto bad = [&](const std::string& param, const std::string& message) {
    throw InputError::parameter(file, param, message, context);
  };
  if (p.curve.shape != StribeckShape::exponential)
    bad("shape", "the LUGRE group uses the exponential Stribeck curve, got rational");
  if (p.curve.alpha != 1.0)
    bad(alpha_name,
        "the LUGRE group uses the Stribeck exponent 1, got " + format_exact(p.curve.alpha));
  if (p.vd != 0.0)
    bad("vd", "the LUGRE group has a constant S1 (vd = 0), got " + format_exact(p.vd));

  g.Km = Km;
  g.Kw = p.sigma2;
  g.S0 = p.sigma0;
  g.S1 = p.sigma1;
  g.Vth = p.curve.vs;
  g.Fc_pos = p.curve.Fc_pos;
  g.Fc_neg = p.curve.Fc_neg;
  g.Fs_pos = p.curve.Fs_pos;
  g.Fs_neg = p.curve.Fs_neg;
  const auto side = [&](const char* fs, double Fs, const char* fc, double Fc) {
    if (Fs < Fc)
      g.warnings.push_back(InputError::format(
          file, 0, 0,
          InputError::parameter_detail(fs,
                                       std::string(fs) + " = " + format_exact(Fs) + " < " + fc +
                                           " = " + format_exact(Fc) +
                                           ": reference 000's g(v) = Fc + |Fs - Fc| exp(-|v|/Vth) "
                                           "rises above Fc where the fitted curve dips below it",
                                       context)));
  };
  side("Fs_pos", g.Fs_pos, "Fc_pos", g.Fc_pos);
  side("Fs_neg", g.Fs_neg, "Fc_neg", g.Fc_neg);
  return g;
}

/// A given Km (the CLI's --km): finite and > 0.
double checked_km(double km, const std::string& file) {
  if (!std::isfinite(km) || km <= 0)
    throw InputError::parameter(file, "Km", "must be > 0, got " + format_exact(km));
  return km;
}

/// The group of a joint_fit.json (its friction read as for every export: read_friction_source).
LugreGroup group_of_joint_fit(std::string_view text, const std::string& file,
                              std::optional<double> Km) {
  const FrictionSource s = parse_friction_source(text, file);
  const auto* p = std::get_if<LuGre<double>::Params>(&s.spec);
  if (!p)
    detail::fail_file(file, "joint: friction",
                      "the LUGRE group needs a LuGre friction model, got '" + model_name(s.spec) +
                          "' (method " + s.method +
                          "); fit-joint --method sr3 or oe --init sr3 fits a LuGre friction");
  if (!Km)
    throw InputError(file, 0, 0,
                     "the LUGRE group needs Km, which a joint fit does not estimate (its torque is "
                     "in N m): give the torque constant with --km");
  LugreGroup g;
  g.model_name = model_name(joint_friction_spec(*s.joint));
  g.method = s.method;
  g.warnings = s.warnings;
  g.notes = joint_fit_notes(s, ExportTarget::lugre_group);
  return group_of(*p, checked_km(*Km, file), file, "joint: friction", "delta", std::move(g));
}

}  // namespace

LugreGroup lugre_group_from_fit_json(const json& fit, const std::string& file,
                                     std::optional<double> Km) {
  if (!fit.is_object())
    throw InputError(file, 0, 0,
                     "not a fit.json file: expected a JSON object, got " + detail::type_of(fit));
  const auto fmt_it = fit.find("format");
  if (fmt_it == fit.end() || !fmt_it->is_string() || *fmt_it != "frictionlab-fit") {
    const std::string got =
        fmt_it == fit.end() ? std::string("the key is missing") : "got " + fmt_it->dump();
    fail_key(
        file, "format",
        "not a fit.json file: expected \"frictionlab-fit\" (written by `frictionlab fit`), " + got);
  }
  const json& version = member(fit, file, "version");
  if (!version.is_number_integer() || version.get<long>() != 1)
    fail_key(file, "version",
             "unsupported fit.json version " + version.dump() + " (this frictionlab reads 1)");

  LugreGroup g;
  g.model_name = string_member(fit, file, "model_name");
  g.method = string_member(fit, file, "method");
  if (g.model_name == "lugre-rational")
    fail_key(file, "model_name",
             "'lugre-rational': the LUGRE group uses the exponential Stribeck curve; fit "
             "--model lugre or lugre-asym");
  if (g.model_name != "lugre" && g.model_name != "lugre-asym")
    fail_key(file, "model_name",
             "'" + g.model_name +
                 "' is not a LuGre model; the LUGRE group needs a fit of "
                 "--model lugre or lugre-asym");
  double km = 0;
  if (Km) {
    km = checked_km(*Km, file);
  } else {
    const std::string problem = string_member(fit, file, "problem");
    if (problem != "sensorless")
      fail_key(file, "problem",
               "'" + problem +
                   "': the LUGRE group needs Km, which only a --problem sensorless "
                   "fit estimates (or give it with --km)");
    const json& km_json = member(fit, file, "Km");
    if (!km_json.is_number())
      fail_key(file, "Km", "expected a number, got " + detail::type_of(km_json));
    km = km_json.get<double>();
    if (!std::isfinite(km) || km <= 0) fail_key(file, "Km", "must be > 0, got " + format_exact(km));
  }

  const json& model = member(fit, file, "model");
  ModelFile mf = model_from_json(model, file, "model");
  const auto* p = std::get_if<LuGre<double>::Params>(&mf.spec);
  if (!p)
    fail_key(file, "model",
             "expected a lugre model, got '" + model_name(mf.spec) + "' (model_name is '" +
                 g.model_name + "')");
  g.warnings = std::move(mf.warnings);
  return group_of(*p, km, file, "model", "alpha", std::move(g));
}

LugreGroup parse_lugre_group(std::string_view text, const std::string& file,
                             std::optional<double> Km) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(j, file, {detail::JsonKind::fit, detail::JsonKind::joint_fit});
  if (detail::json_kind(j) == detail::JsonKind::joint_fit)
    return group_of_joint_fit(text, file, Km);
  return lugre_group_from_fit_json(j, file, Km);
}

LugreGroup read_lugre_group(const std::string& path, std::optional<double> Km) {
  return parse_lugre_group(read_text_file(path, "a fit.json or joint_fit.json file"), path, Km);
}

std::string lugre_group_xml(const LugreGroup& g, const std::string& source) {
  // XML comments may not contain "--".
  std::string src;
  for (char c : source) {
    if (c == '-' && !src.empty() && src.back() == '-') src += ' ';
    src += c;
  }
  std::string s = "<!-- frictionlab export xml: " + src + " (" + g.model_name + ", " + g.method +
                  "); one joint: merge the values of several joints as columns.\n"
                  "     Km [Nm/A], Kw [Nm/(rad/s)], S0 [Nm/rad], S1 [Nm/(rad/s)], Vth [rad/s], "
                  "Fc_pos, Fc_neg, Fs_pos, Fs_neg [Nm]";
  if (!g.notes.empty()) {
    s += "\n     Not represented:";
    // The notes are fixed words and numbers: no "--" in them.
    for (const auto& n : g.notes) s += "\n       - " + n;
  }
  s += " -->\n";
  s += "<group name=\"LUGRE\">\n";
  const auto line = [&](const std::string& name, double x) {
    std::string head = "    <param name=\"" + name + "\">";
    head.resize(26, ' ');
    s += head + ' ' + format_exact(x) + " </param>\n";
  };
  line("Km", g.Km);
  line("Kw", g.Kw);
  line("S0", g.S0);
  line("S1", g.S1);
  line("Vth", g.Vth);
  line("Fc_pos", g.Fc_pos);
  line("Fc_neg", g.Fc_neg);
  line("Fs_pos", g.Fs_pos);
  line("Fs_neg", g.Fs_neg);
  s += "</group>\n";
  return s;
}

}  // namespace frictionlab::io
