#include "records.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "frictionlab/format.hpp"
#include "frictionlab/io/record_io.hpp"

namespace frictionlab::cli {

workflows::NamedRecord read_input(const FitOptions& o, const std::string& path) {
  io::RecordSpec spec;
  spec.time = o.time;
  // std::string(...): operator=(const char*) here trips a g++ 12 -Wrestrict false positive.
  spec.time_default = std::string(kDefaultTime);
  spec.position = o.position;
  spec.velocity = o.velocity;
  spec.current = o.current;
  spec.force = o.force;
  spec.matrix = o.matrix;
  return {path, io::read_record(path, spec)};
}

Inputs read_inputs(const FitOptions& o) {
  Inputs in{read_input(o, o.input), {}};
  for (const auto& path : o.validate) in.validation.push_back(read_input(o, path));
  return in;
}

std::vector<io::NamedPath> input_paths(const FitOptions& o) {
  std::vector<io::NamedPath> in{{"--input", o.input}};
  for (const auto& path : o.validate) in.push_back({"--validate", path});
  return in;
}

identify::FitOptions identify_options(const FitOptions& o) {
  identify::FitOptions fo;
  if (o.problem == "sensorless") {
    fo.problem = identify::ProblemKind::sensorless;
  } else if (o.problem != "friction") {
    throw std::invalid_argument("--problem must be friction or sensorless, got '" + o.problem +
                                "'");
  }
  fo.model = identify::parse_model(o.model);
  fo.method = identify::parse_method(o.method);
  fo.rotary = o.rotary || fo.problem == identify::ProblemKind::sensorless;
  fo.warmup_s = o.warmup;
  if (!o.hold.empty()) fo.hold = identify::parse_hold(o.hold);
  if (o.starts > 0) fo.lsq.starts = o.starts;
  if (o.spread > 0) fo.lsq.spread = o.spread;
  fo.lsq.threads = o.threads;
  if (o.loss == "huber") {
    fo.lsq.loss = identify::LossKind::huber;
  } else if (o.loss == "cauchy") {
    fo.lsq.loss = identify::LossKind::cauchy;
  } else if (o.loss != "none") {
    throw std::invalid_argument("--loss must be none, huber or cauchy, got '" + o.loss + "'");
  }
  return fo;
}

data::PreprocessOptions preprocess_options(const FitOptions& o) {
  data::PreprocessOptions pp;
  pp.resample_rate = o.resample;
  pp.resample_max_gap = o.max_gap;
  pp.lowpass_cutoff = o.lowpass;
  if (o.velocity_from_position) pp.derivatives = data::DerivativesFrom::position;
  return pp;
}

std::string fmt(double x) { return format_display(x); }

}  // namespace frictionlab::cli
