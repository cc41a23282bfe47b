// frictionlab identify: input checks and data summaries (docs/identification.md, "Input").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fit_data.hpp"

#include "frictionlab/format.hpp"

namespace frictionlab::identify::detail {

namespace {

void check_channel(const data::Record& rec, const std::vector<double>& c, const char* name,
                   const char* why) {
  const std::string src = rec.source.empty() ? "record" : rec.source;
  if (c.empty()) throw FitError(src + ": no '" + name + "' channel (" + why + ")");
  if (c.size() != rec.t.size())
    throw FitError(src + ": channel '" + name + "' has " + std::to_string(c.size()) +
                   " samples, the time channel " + std::to_string(rec.t.size()));
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (!std::isfinite(c[k]))
      throw FitError(src + ": non-finite value (" + format_number(c[k]) + ") in channel '" + name +
                     "' at sample " + std::to_string(k) + " (0-based), t = " +
                     (std::isfinite(rec.t[k]) ? format_number(rec.t[k]) + " s" : std::string("?")));
  }
}

}  // namespace

FitData prepare_data(const data::Record& rec, ProblemKind problem, double warmup_s) {
  const std::string src = rec.source.empty() ? "record" : rec.source;
  if (rec.t.empty()) throw FitError(src + ": the record is empty");
  check_channel(rec, rec.t, "t", "time is required");
  for (std::size_t k = 1; k < rec.t.size(); ++k)
    if (!(rec.t[k] > rec.t[k - 1]))
      throw FitError(src + ": time is not strictly increasing at sample " + std::to_string(k) +
                     " (t = " + format_number(rec.t[k - 1]) + " then " + format_number(rec.t[k]) +
                     ")");
  // (each names the option that gives the channel: the CLI's, then Python's keyword)
  check_channel(rec, rec.velocity, "velocity",
                "identification needs the velocity: --velocity COLUMN, or --position COLUMN with "
                "--velocity-from-position; Python velocity=, or position= with "
                "derivatives='position'");
  check_channel(rec, rec.force, "force",
                problem == ProblemKind::sensorless
                    ? "the measured joint torque: --force COLUMN; Python force="
                    : "the measured friction force: --force COLUMN; Python force=");
  FitData d;
  d.t = rec.t;
  d.v = rec.velocity;
  d.y = rec.force;
  d.sensorless = problem == ProblemKind::sensorless;
  if (d.sensorless) {
    check_channel(
        rec, rec.current, "current",
        "the sensorless problem needs the motor current: --current COLUMN; Python current=");
    d.i = rec.current;
  }
  if (!(warmup_s >= 0) || !std::isfinite(warmup_s))
    throw FitError("warm-up must be a finite time >= 0 s, got " + format_number(warmup_s));
  const double t1 = d.t.front() + warmup_s;
  d.first = static_cast<long>(std::lower_bound(d.t.begin(), d.t.end(), t1) - d.t.begin());
  if (max_abs(d.v) == 0) throw FitError(src + ": the velocity is zero everywhere");
  return d;
}

double max_abs(const std::vector<double>& x) {
  double m = 0;
  for (double e : x) m = std::max(m, std::abs(e));
  return m;
}

double median(std::vector<double> x) {
  if (x.empty()) return 0;
  const auto mid = x.begin() + static_cast<long>(x.size() / 2);
  std::nth_element(x.begin(), mid, x.end());
  return *mid;
}

DataSummary summarize(const FitData& d) {
  DataSummary s;
  s.n = d.n();
  s.n_used = d.m();
  s.duration = d.t.back() - d.t.front();
  std::vector<double> dt;
  dt.reserve(d.t.size());
  for (std::size_t k = 1; k < d.t.size(); ++k) dt.push_back(d.t[k] - d.t[k - 1]);
  s.dt_max = dt.empty() ? 0 : *std::max_element(dt.begin(), dt.end());
  const double md = median(dt);
  s.rate_hz = md > 0 ? 1.0 / md : 0;
  s.v_max_abs = max_abs(d.v);
  const double thr = 1e-3 * s.v_max_abs;
  int last = 0;
  for (double v : d.v) {
    const int sg = v > thr ? 1 : (v < -thr ? -1 : 0);
    if (sg != 0) {
      if (last != 0 && sg != last) ++s.reversals;
      last = sg;
    }
  }
  return s;
}

}  // namespace frictionlab::identify::detail
