// frictionlab: validation of the the actuator friction budgets M1..M6 parameters (check(params);
// rules: docs/models.md, "valid" columns; building blocks: models/param_checks.hpp).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/actuator_budgets/model.hpp"
#include "frictionlab/models/param_checks.hpp"

namespace frictionlab {

/// Actuator friction budgets M1..M6: every coefficient >= 0, vs > 0, alpha > 0.
inline std::vector<ParamIssue> check(const ActuatorFrictionParams<double>& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.nonnegative("Kv", p.Kv);
  c.nonnegative("Kc", p.Kc);
  c.nonnegative("Kcs", p.Kcs);
  c.positive("vs", p.vs);
  c.positive("alpha", p.alpha);
  c.nonnegative("Kl", p.Kl);
  c.nonnegative("Kls", p.Kls);
  c.nonnegative("Km", p.Km);
  c.nonnegative("Ke", p.Ke);
  c.nonnegative("Kms", p.Kms);
  c.nonnegative("Kes", p.Kes);
  c.nonnegative("Keq", p.Keq);
  c.nonnegative("Kmq", p.Kmq);
  return out;
}

}  // namespace frictionlab
