#include "frictionlab/io/lugre_xml.hpp"

#include <cmath>
#include <string>
#include <variant>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

using nlohmann::json;
using detail::fail_key;
using detail::member;

std::string string_member(const json& obj, const std::string& file, const std::string& key) {
  const json& v = member(obj, file, key);
  if (!v.is_string()) fail_key(file, key, "expected a string, got " + detail::type_of(v));
  return v.get<std::string>();
}

}  // namespace

LugreGroup lugre_group_from_fit_json(const json& fit, const std::string& file) {
  if (!fit.is_object())
    throw InputError(file, 0, 0,
                     "not a fit.json file: expected a JSON object, got " + detail::type_of(fit));
  const auto fmt_it = fit.find("format");
  if (fmt_it == fit.end() || !fmt_it->is_string() || *fmt_it != "frictionlab-fit") {
    const std::string got =
        fmt_it == fit.end() ? std::string("the key is missing") : "got " + fmt_it->dump();
    fail_key(file, "format",
             "not a fit.json file: expected \"frictionlab-fit\" (written by `frictionlab fit`), " +
                 got);
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
             "'" + g.model_name + "' is not a LuGre model; the LUGRE group needs a fit of "
             "--model lugre or lugre-asym");
  const std::string problem = string_member(fit, file, "problem");
  if (problem != "sensorless")
    fail_key(file, "problem",
             "'" + problem + "': the LUGRE group needs Km, which only a --problem sensorless fit "
             "estimates");
  const json& km = member(fit, file, "Km");
  if (!km.is_number()) fail_key(file, "Km", "expected a number, got " + detail::type_of(km));
  g.Km = km.get<double>();
  if (!std::isfinite(g.Km) || g.Km <= 0)
    fail_key(file, "Km", "must be > 0, got " + format_exact(g.Km));

  const json& model = member(fit, file, "model");
  const ModelFile mf = model_from_json(model, file, "model");
  const auto* p = std::get_if<LuGre<double>::Params>(&mf.spec);
  if (!p)
    fail_key(file, "model",
             "expected a lugre model, got '" + model_name(mf.spec) + "' (model_name is '" +
                 g.model_name + "')");
  const auto bad = [&](const std::string& param, const std::string& message) {
    throw InputError::parameter(file, param, message, "model");
  };
  if (p->curve.shape != StribeckShape::exponential)
    bad("shape", "the LUGRE group uses the exponential Stribeck curve, got rational");
  if (p->curve.alpha != 1.0)
    bad("alpha", "the LUGRE group uses the Stribeck exponent 1, got " +
                     format_exact(p->curve.alpha));
  if (p->vd != 0.0)
    bad("vd", "the LUGRE group has a constant S1 (vd = 0), got " + format_exact(p->vd));

  g.Kw = p->sigma2;
  g.S0 = p->sigma0;
  g.S1 = p->sigma1;
  g.Vth = p->curve.vs;
  g.Fc_pos = p->curve.Fc_pos;
  g.Fc_neg = p->curve.Fc_neg;
  g.Fs_pos = p->curve.Fs_pos;
  g.Fs_neg = p->curve.Fs_neg;
  g.warnings = mf.warnings;
  const auto side = [&](const char* fs, double Fs, const char* fc, double Fc) {
    if (Fs < Fc)
      g.warnings.push_back(InputError::format(
          file, 0, 0,
          InputError::parameter_detail(
              fs,
              std::string(fs) + " = " + format_exact(Fs) + " < " + fc + " = " +
                  format_exact(Fc) + ": reference 000's g(v) = Fc + |Fs - Fc| exp(-|v|/Vth) "
                  "rises above Fc where the fitted curve dips below it",
              "model")));
  };
  side("Fs_pos", g.Fs_pos, "Fc_pos", g.Fc_pos);
  side("Fs_neg", g.Fs_neg, "Fc_neg", g.Fc_neg);
  return g;
}

LugreGroup parse_lugre_group(std::string_view text, const std::string& file) {
  const json j = detail::parse_json_text(text, file);
  detail::require_kind(j, file, {detail::JsonKind::fit});
  return lugre_group_from_fit_json(j, file);
}

LugreGroup read_lugre_group(const std::string& path) {
  return parse_lugre_group(read_text_file(path, "a fit.json file"), path);
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
                  "Fc_pos, Fc_neg, Fs_pos, Fs_neg [Nm] -->\n";
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
