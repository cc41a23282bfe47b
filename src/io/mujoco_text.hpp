// frictionlab (private to src/io): the text pieces every MJCF fragment of `export mujoco` shares
// (io/estimator_export.hpp, mujoco_fragment: a friction model; io/actuator_export.hpp: a fitted
// servo actuator).
#pragma once

#include <string>
#include <vector>

namespace frictionlab::io::detail {

/// Throw std::invalid_argument "--joint: 'NAME' is not a usable MJCF name" for an empty name or
/// one with a character that would need escaping in an XML attribute (" < > &).
void check_mjcf_name(const std::string& joint);

/// The fragment's leading XML comment:
///   <!-- frictionlab export mujoco: SOURCE (WHAT).
///        INTRO
///        MuJoCo represents this model exactly.          (no notes)
///        Not represented exactly:                        (else, one line per note)
///          - NOTE
///   -->
/// ending with a newline. XML comments may not contain "--": every "--" of the free text is
/// broken up as "- -".
std::string mujoco_comment(const std::string& source, const std::string& what,
                           const std::string& intro, const std::vector<std::string>& notes);

}  // namespace frictionlab::io::detail
