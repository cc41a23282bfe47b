// frictionlab io: verdicts in result files (include/frictionlab/io/verdict_json.hpp).
#include "frictionlab/io/verdict_json.hpp"

namespace frictionlab::io {

nlohmann::ordered_json verdict_to_json(const workflows::Verdict& v) {
  nlohmann::ordered_json reasons = nlohmann::ordered_json::array();
  for (const auto& r : v.reasons)
    reasons.push_back(nlohmann::ordered_json{{"grade", workflows::grade_name(r.grade)},
                                             {"rule", r.rule},
                                             {"text", r.text},
                                             {"hint", r.hint}});
  return nlohmann::ordered_json{{"grade", workflows::grade_name(v.grade)},
                                {"line", v.line()},
                                {"reasons", std::move(reasons)}};
}

}  // namespace frictionlab::io
