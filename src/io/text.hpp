// frictionlab io (internal): text substitution shared by the writers that fill templates (the
// report page, the C export, MODEL.json's messages).
#pragma once

#include <string>

namespace frictionlab::io::detail {

/// Replace every occurrence of `from` in `s` by `to` (left to right; a replacement is not
/// searched again).
inline void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace frictionlab::io::detail
