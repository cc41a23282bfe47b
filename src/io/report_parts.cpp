// frictionlab io: the pieces every section of the report page uses (report_parts.hpp).
#include "report_parts.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/plot_svg.hpp"

namespace frictionlab::io::report {

std::string esc(const std::string& s) { return escape_markup(s); }

bool is_num(const oj& j) { return j.is_number(); }
double num(const oj& j) { return j.is_number() ? j.get<double>() : std::nan(""); }

/// A number for a person: 5 significant digits, "–" for null/NaN.
std::string show(const oj& j, int digits) {
  if (!is_num(j) || !std::isfinite(num(j))) return "&ndash;";
  return esc(format_number(num(j), digits));
}

/// data-value="exact" (the JSON's double as shortest round-trip text) or "" for null.
std::string exact_attr(const oj& j) {
  return is_num(j) ? esc(format_exact(num(j))) : std::string();
}

std::vector<double> numbers(const oj& j) {
  std::vector<double> out;
  if (!j.is_array()) return out;
  out.reserve(j.size());
  for (const auto& x : j) out.push_back(num(x));
  return out;
}

[[noreturn]] void bad(const std::string& src, const std::string& what) {
  throw InputError(src, 0, 0, what);
}

const oj& need(const oj& j, const std::string& src, const std::string& key) {
  if (!j.is_object() || !j.contains(key)) bad(src, "key '" + key + "' is missing");
  return j.at(key);
}

/// Replace every occurrence of `from` in `s` by `to`.
/// The "report" object of a result file (what its section draws); InputError naming the file and
/// the command to run again (`command`: "the fit", "fit-joint", ...) when it has none.
const oj& report_data(const oj& result, const std::string& src, const std::string& command) {
  if (!result.contains("report") || !result.at("report").is_object())
    bad(src,
        "has no report data (key 'report'): it was written by a frictionlab from before "
        "reports; run " +
            command + " again");
  return result.at("report");
}

/// The result's "warnings" as a list (nothing when there are none).
std::string warnings_list(const oj& result) {
  if (!result.contains("warnings") || result.at("warnings").empty()) return {};
  std::string s = "<ul class=\"warnings\">\n";
  for (const auto& w : result.at("warnings")) s += "<li>" + esc(w.get<std::string>()) + "</li>\n";
  return s + "</ul>\n";
}

/// An inline SVG from plot_svg, tagged for the page (class="plot" data-plot=KIND). Its element
/// ids (the clip paths) are prefixed with `uid`: ids are global to the HTML document, and a
/// clip-path url would otherwise resolve to another plot's clip rectangle.
std::string inline_svg(const Plot& p, const std::string& kind, const std::string& uid) {
  Plot tagged = p;
  tagged.attributes.insert(
      tagged.attributes.begin(),
      {{"class", "plot"}, {"data-plot", kind}, {"role", "img"}, {"aria-label", p.title}});
  tagged.id_prefix = uid + "-" + p.id_prefix;
  return render_svg(tagged);
}

/// A zoomable time plot: its data {"t", "xlabel", "panels": [{"label", "series": [{"name",
/// "y"}]}]} as JSON for the page's script, the SVG it draws into, the zoom controls.
std::string time_plot_box(const oj& data, const std::string& id) {
  std::string text = data.dump();
  // Inside <script>: no "</script>" can end it early ('<' only occurs inside strings in JSON).
  std::string safe;
  for (char ch : text) safe += ch == '<' ? std::string("\\u003c") : std::string(1, ch);
  return "<div class=\"timeplot\" id=\"" + id +
         "\">\n"
         "<div class=\"controls\"><label>from <input type=\"range\" class=\"zoom-start\" min=\"0\" "
         "max=\"1000\" value=\"0\" aria-label=\"start of the visible range\"></label> <label>to "
         "<input type=\"range\" class=\"zoom-end\" min=\"0\" max=\"1000\" value=\"1000\" "
         "aria-label=\"end of the visible range\"></label> <button type=\"button\" "
         "class=\"zoom-reset\">show all</button> <span class=\"range-label\"></span> <span "
         "class=\"hint\">drag across the plot to zoom; double-click to show all</span></div>\n"
         "<svg class=\"plot\" data-plot=\"time\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 "
         "0 960 600\" "
         "role=\"img\" aria-label=\"measured and predicted against time\"></svg>\n"
         "<script type=\"application/json\" class=\"plot-data\">" +
         safe + "</script>\n</div>\n";
}

/// A result's "verdict" object (io/verdict_json.hpp): the grade with its reasons and what to try,
/// coloured by grade (good: ok, doubtful: warn, bad: bad); notes (grade good) listed after.
std::string verdict_block(const oj& v) {
  if (!v.is_object()) return "";
  const std::string grade = v.value("grade", std::string("good"));
  const std::string cls = grade == "bad" ? "bad" : grade == "doubtful" ? "warn" : "ok";
  std::string s = "<div class=\"verdict " + cls + "\" data-grade=\"" + esc(grade) +
                  "\"><b>Verdict: " + esc(grade) + ".</b>";
  std::string items;
  for (const auto& r : v.value("reasons", oj::array())) {
    const std::string g = r.value("grade", std::string());
    const std::string hint = r.value("hint", std::string());
    items += "<li class=\"" + esc(g == "good" ? std::string("note") : g) + "\">" +
             (g == "good" ? std::string("Note: ") : "") + esc(r.value("text", std::string())) +
             (hint.empty() ? "" : " <span class=\"hint\">Try: " + esc(hint) + ".</span>") + "</li>";
  }
  if (!items.empty()) s += "<ul class=\"reasons\">" + items + "</ul>";
  return s + "</div>\n";
}

}  // namespace frictionlab::io::report
