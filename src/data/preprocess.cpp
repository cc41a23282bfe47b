// frictionlab data: record preprocessing (include/frictionlab/data/preprocess.hpp).
#include "frictionlab/data/preprocess.hpp"

#include <cmath>
#include <stdexcept>

#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::data {

Record preprocess(const Record& in, const PreprocessOptions& opt) {
  const std::string src = source_name(in);
  std::string stage;
  try {
    Record r = in;
    if (opt.resample_rate != 0) {
      stage = "resampling";
      const std::vector<double> grid =
          signal::uniform_grid(in.t.empty() ? 0.0 : in.t.front(),
                               in.t.empty() ? 0.0 : in.t.back(), opt.resample_rate);
      for (auto* c : {&r.position, &r.velocity, &r.current, &r.force})
        if (!c->empty()) *c = signal::interp_linear(in.t, *c, grid);
      r.t = grid;
    }
    if (opt.lowpass_cutoff != 0) {
      stage = "low-pass filtering";
      const signal::SamplingStats s =
          signal::require_uniform(r.t, opt.uniform_tolerance, "low-pass filtering");
      const signal::Sos sos =
          signal::butter_lowpass(opt.lowpass_order, opt.lowpass_cutoff, 1.0 / s.dt_mean);
      for (auto* c : {&r.position, &r.velocity, &r.current, &r.force})
        if (!c->empty()) *c = signal::sosfiltfilt(sos, *c);
    }
    if (opt.velocity_from_position) {
      stage = "velocity from position";
      if (r.position.empty())
        throw std::invalid_argument("the record has no position channel");
      r.velocity = signal::differentiate(r.t, r.position, opt.diff).first;
    }
    return r;
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const RecordError*>(&e)) throw;
    throw RecordError(src, 0, "", stage + ": " + e.what());
  }
}

}  // namespace frictionlab::data
