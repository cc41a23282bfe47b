// frictionlab: the text pieces of the MJCF fragments (src/io/mujoco_text.hpp).
#include "mujoco_text.hpp"

#include <stdexcept>

namespace frictionlab::io::detail {

void check_mjcf_name(const std::string& joint) {
  if (joint.empty() || joint.find_first_of("\"<>&") != std::string::npos)
    throw std::invalid_argument("--joint: '" + joint + "' is not a usable MJCF name");
}

namespace {

/// `text` with every "--" broken up ("- -"), so that it can stand inside an XML comment.
std::string comment_safe(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '-' && !out.empty() && out.back() == '-') out += ' ';
    out += ch;
  }
  return out;
}

}  // namespace

std::string mujoco_comment(const std::string& source, const std::string& what,
                           const std::string& intro, const std::vector<std::string>& notes) {
  std::string comment =
      "<!-- frictionlab export mujoco: " + source + " (" + what + ").\n     " + intro + "\n";
  if (notes.empty()) {
    comment += "     MuJoCo represents this model exactly.\n";
  } else {
    comment += "     Not represented exactly:\n";
    for (const auto& n : notes) comment += "       - " + n + "\n";
  }
  return "<!--" + comment_safe(comment.substr(4)) + "-->\n";
}

}  // namespace frictionlab::io::detail
