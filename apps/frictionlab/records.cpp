#include "records.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/io/record_io.hpp"

namespace frictionlab::cli {

data::Record load_record(const FitOptions& o, const std::string& path) {
  io::RecordSpec spec;
  spec.time = o.time;
  spec.position = o.position;
  spec.velocity = o.velocity;
  spec.current = o.current;
  spec.force = o.force;
  spec.matrix = o.matrix;
  data::Record r = io::read_record(path, spec);
  data::PreprocessOptions pp;
  pp.resample_rate = o.resample;
  pp.lowpass_cutoff = o.lowpass;
  pp.velocity_from_position = o.velocity_from_position;
  if (pp.resample_rate > 0 || pp.lowpass_cutoff > 0 || pp.velocity_from_position)
    r = data::preprocess(r, pp);
  data::CheckOptions co;
  co.need_velocity = true;
  co.need_force = true;
  co.need_current = o.problem == "sensorless";
  const data::RecordReport rep = data::check_record(r, co);
  for (const auto& w : rep.warnings) print_warning(w);
  return r;
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
  if (o.starts > 0) fo.lsq.starts = o.starts;
  if (o.loss == "huber") {
    fo.lsq.loss = identify::LossKind::huber;
  } else if (o.loss == "cauchy") {
    fo.lsq.loss = identify::LossKind::cauchy;
  } else if (o.loss != "none") {
    throw std::invalid_argument("--loss must be none, huber or cauchy, got '" + o.loss + "'");
  }
  fo.progress = [](std::string_view msg) { std::cerr << "frictionlab: " << msg << '\n'; };
  return fo;
}

std::string fmt(double x) {
  if (!std::isfinite(x)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.5g", x);
  return b;
}

}  // namespace frictionlab::cli
