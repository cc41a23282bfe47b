// frictionlab data: the record preprocessing pipeline (include/frictionlab/data/preprocess.hpp).
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/data/checks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/decimate.hpp"
#include "frictionlab/signal/reintegrate.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"
#include "frictionlab/signal/tvreg.hpp"

namespace frictionlab::data {
namespace {

/// The channels every stage applies to (all but time), and their names.
std::array<std::vector<double>*, 6> channels(Record& r) {
  return {&r.position, &r.velocity, &r.acceleration, &r.current, &r.force, &r.temperature};
}
constexpr std::array<const char*, 6> kChannelNames{"position", "velocity", "acceleration",
                                                   "current",  "force",    "temperature"};

/// The options' own requirements, before any work (std::invalid_argument).
void check_options(const PreprocessOptions& o) {
  auto bad = [](const std::string& m) { throw std::invalid_argument(m); };
  if (o.decimate < 1) bad("decimate must be >= 1, got " + std::to_string(o.decimate));
  if (!(o.trim_s >= 0) || !std::isfinite(o.trim_s))
    bad("trim_s must be finite and >= 0 s, got " + format_number(o.trim_s));
  if (!(o.tv_force_alpha >= 0) || !std::isfinite(o.tv_force_alpha))
    bad("tv_force_alpha must be finite and >= 0, got " + format_number(o.tv_force_alpha));
  if (!(o.diff_window_s >= 0) || !std::isfinite(o.diff_window_s))
    bad("diff_window_s must be finite and >= 0 s, got " + format_number(o.diff_window_s));
  if (!(o.resample_max_gap >= 0))
    bad("resample_max_gap must be >= 0 s (0: " + format_number(kResampleGapSteps) +
        " median steps), got " + format_number(o.resample_max_gap));
  if (o.reintegrate && o.derivatives != DerivativesFrom::position)
    bad("reintegrate needs derivatives from position (it integrates their acceleration)");
}

/// Stage 1's refusal to interpolate across a gap: the first step of `t` longer than max_gap
/// (0: kResampleGapSteps median steps) is a RecordError at the sample that ends it.
void check_resampling_gaps(const std::vector<double>& t, double max_gap, const std::string& src) {
  const signal::SamplingStats s = signal::sampling_stats(t);
  const double limit = max_gap > 0 ? max_gap : kResampleGapSteps * s.dt_median;
  if (!(s.dt_max > limit)) return;
  std::size_t k = 1;
  while (!(t[k] - t[k - 1] > limit)) ++k;
  const double gap = t[k] - t[k - 1];
  const std::string rule = max_gap > 0
                               ? "the largest gap allowed, " + format_number(max_gap) + " s"
                               : format_number(kResampleGapSteps) + " times the median step " +
                                     format_number(s.dt_median) + " s";
  throw RecordError(src, k + 1, "time",
                    "resampling: a gap of " + format_number(gap) +
                        " s from t = " + format_number(t[k - 1]) +
                        " s to t = " + format_number(t[k]) + " s is longer than " + rule +
                        ": interpolation would invent the data inside it; split the record at "
                        "the gap, or allow it explicitly (max gap in seconds: --max-gap, "
                        "resample_max_gap)");
}

}  // namespace

std::string describe(const PreprocessOptions& o) {
  std::vector<std::string> stages;
  if (o.resample_rate > 0)
    stages.push_back("resample to " + format_number(o.resample_rate) + " Hz");
  if (o.lowpass_cutoff > 0)
    stages.push_back("low-pass " + format_number(o.lowpass_cutoff) + " Hz (Butterworth order " +
                     std::to_string(o.lowpass_order) + ", zero-phase)");
  if (o.derivatives != DerivativesFrom::none) {
    const char* method = o.diff.method == signal::DiffMethod::central ? "central differences"
                         : o.diff.method == signal::DiffMethod::tvreg ? "TV-regularised"
                                                                      : "Savitzky-Golay";
    stages.push_back(o.derivatives == DerivativesFrom::position
                         ? std::string("velocity and acceleration from position (") + method + ")"
                         : std::string("acceleration from velocity (") + method + ")");
  }
  if (o.reintegrate) stages.emplace_back("re-integrated");
  if (o.tv_force_alpha > 0)
    stages.push_back("TV de-noised force (alpha " + format_number(o.tv_force_alpha) + ")");
  if (o.decimate > 1)
    stages.push_back(
        "keep every " + std::to_string(o.decimate) + "-th sample" +
        (o.decimate_filter == DecimateFilter::antialias ? " (anti-alias filter)" : ""));
  if (o.trim_s > 0) stages.push_back("trim " + format_number(o.trim_s) + " s at each end");
  std::string out;
  for (const auto& s : stages) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

Record preprocess(const Record& in, const PreprocessOptions& opt) {
  const std::string src = source_name(in);
  std::string stage = "options";
  try {
    check_options(opt);
    if (opt.resample_rate == 0 && opt.lowpass_cutoff == 0 &&
        opt.derivatives == DerivativesFrom::none && !opt.reintegrate && opt.tv_force_alpha == 0 &&
        opt.decimate == 1 && opt.trim_s == 0)
      return in;  // no stage
    Record r = in;
    stage = "channels";
    for (std::size_t i = 0; i < kChannelNames.size(); ++i)
      if (const std::size_t n = channels(r)[i]->size(); n != 0 && n != r.t.size())
        throw std::invalid_argument(std::string("channel '") + kChannelNames[i] + "' has " +
                                    std::to_string(n) + " samples, 'time' has " +
                                    std::to_string(r.t.size()));
    if (opt.resample_rate != 0) {
      stage = "resampling";
      check_resampling_gaps(in.t, opt.resample_max_gap, src);
      const std::vector<double> grid = signal::uniform_grid(
          in.t.empty() ? 0.0 : in.t.front(), in.t.empty() ? 0.0 : in.t.back(), opt.resample_rate);
      for (auto* c : channels(r))
        if (!c->empty()) *c = signal::interp_linear(in.t, *c, grid);
      r.t = grid;
    }
    // Stages 2-7: the sample rate of a uniform grid, checked at the first stage that needs it.
    std::optional<double> fs_cache;
    auto fs = [&] {
      if (!fs_cache) {
        try {
          fs_cache = 1.0 / signal::require_uniform(r.t, opt.uniform_tolerance, stage).dt_mean;
        } catch (const std::invalid_argument& e) {
          // The remedy by its option: resampling is the stage before this one.
          throw std::invalid_argument(std::string(e.what()) + kResampleHint);
        }
      }
      return *fs_cache;
    };
    const bool plain_decimation = opt.decimate > 1 && opt.decimate_filter == DecimateFilter::none;
    if (opt.lowpass_cutoff != 0) {
      stage = "low-pass filtering";
      if (plain_decimation && !(opt.lowpass_cutoff < 0.5 * fs() / opt.decimate))
        throw std::invalid_argument("the low-pass cut-off " + format_number(opt.lowpass_cutoff) +
                                    " Hz must be below the Nyquist frequency after decimation by " +
                                    std::to_string(opt.decimate) + " (" +
                                    format_number(0.5 * fs() / opt.decimate) + " Hz)");
      const signal::Sos sos = signal::butter_lowpass(opt.lowpass_order, opt.lowpass_cutoff, fs());
      for (auto* c : channels(r))
        if (!c->empty()) *c = signal::sosfiltfilt(sos, *c);
    }
    if (opt.derivatives != DerivativesFrom::none) {
      const bool from_position = opt.derivatives == DerivativesFrom::position;
      stage = from_position ? "derivatives from position" : "derivatives from velocity";
      const std::vector<double>& x = from_position ? r.position : r.velocity;
      if (x.empty())
        throw std::invalid_argument(std::string("the record has no ") +
                                    (from_position ? "position" : "velocity") + " channel");
      signal::DiffOptions d = opt.diff;
      if (opt.diff_window_s > 0 && d.method == signal::DiffMethod::savgol) {
        int w = static_cast<int>(std::lround(opt.diff_window_s * fs()));
        if (w % 2 == 0) ++w;
        if (w < 5) w = 5;
        d.window = w;
      } else {
        (void)fs();  // the uniform grid of stages 2-7
      }
      signal::Derivatives der = signal::differentiate(r.t, x, d);
      if (from_position) {
        r.velocity = std::move(der.first);
        r.acceleration = std::move(der.second);
      } else {
        r.acceleration = std::move(der.first);
      }
    }
    if (opt.reintegrate) {
      stage = "re-integration";
      signal::Reintegrated ri = signal::reintegrate(r.t, r.acceleration, r.position);
      r.position = std::move(ri.position);
      r.velocity = std::move(ri.velocity);
    }
    if (opt.tv_force_alpha > 0) {
      stage = "TV de-noising of the force";
      if (r.force.empty()) throw std::invalid_argument("the record has no force channel");
      (void)fs();
      signal::TVRegOptions to;
      to.alpha = opt.tv_force_alpha;
      to.order = 1;
      r.force = signal::tvreg(r.t, r.force, to).smoothed;
    }
    if (opt.decimate > 1 || opt.trim_s > 0) {
      stage = opt.decimate > 1 ? "decimation" : "trimming";
      const double t_lo = r.t.empty() ? 0.0 : r.t.front() + opt.trim_s;
      const double t_hi = r.t.empty() ? 0.0 : r.t.back() - opt.trim_s;
      const auto k = static_cast<std::size_t>(opt.decimate);
      const bool antialias = opt.decimate > 1 && opt.decimate_filter == DecimateFilter::antialias;
      const double rate = fs();
      // The samples kept: t_0, t_k, t_2k, ... within [t_lo, t_hi] (indices of the full grid).
      std::vector<std::size_t> kept;
      for (std::size_t i = 0; i < r.t.size(); i += k)
        if (r.t[i] >= t_lo && r.t[i] <= t_hi) kept.push_back(i);
      // x at the kept samples; x holds every stride-th sample of the full grid.
      auto pick = [&](const std::vector<double>& x, std::size_t stride) {
        std::vector<double> y;
        y.reserve(kept.size());
        for (std::size_t i : kept) y.push_back(x[i / stride]);
        return y;
      };
      for (auto* c : channels(r)) {
        if (c->empty()) continue;
        *c = antialias ? pick(signal::decimate(*c, opt.decimate, rate, opt.decimate_order,
                                               opt.decimate_cutoff_ratio),
                              k)
                       : pick(*c, 1);
      }
      r.t = pick(r.t, 1);
      if (r.t.size() < 3)
        throw std::invalid_argument("only " + std::to_string(r.t.size()) +
                                    " samples left after decimation and trimming");
    }
    return r;
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const RecordError*>(&e)) throw;
    throw RecordError(src, 0, "", stage + ": " + e.what());
  }
}

CheckOptions checks_before_preprocessing(CheckOptions checks, const PreprocessOptions& options) {
  // A step of n median steps has jitter n - 1.
  if (options.resample_rate > 0)
    checks.jitter_warning = std::max(checks.jitter_warning, kResampleGapSteps - 1);
  return checks;
}

}  // namespace frictionlab::data
