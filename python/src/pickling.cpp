// frictionlab Python module: pickling of the records and of the fit and compare results (so they
// cross a process pool; docs/python.md, "Pickling"). The state of an object is a tuple of its C++
// members in declaration order, each member as: a number, bool or str as itself; an enum as its
// int; std::optional as None or the value; std::vector<double> as the bytes of its doubles
// (exact, NaN and infinities included); another vector as a list; a nested struct as its tuple;
// a ModelSpec as its MODEL.json text (io::model_json, which reads back what it writes); in the
// envelope of pickle_state.hpp (a state of another version or layout is refused with a message).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/workflows/compare.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "pickle_state.hpp"

namespace frictionlab::python {

namespace py = pybind11;

namespace {

// ---- the members of each struct, in declaration order (one list for writing and reading) ----

template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, data::Record>
void members(S& r, V&& v) {
  v(r.source, r.t, r.position, r.velocity, r.acceleration, r.current, r.force);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::ParameterEstimate>
void members(S& e, V&& v) {
  v(e.name, e.field, e.unit, e.value, e.std_error, e.ci_low, e.ci_high, e.fixed, e.at_bound,
    e.at_limit, e.undetermined, e.hac_std_error, e.hac_ci_low, e.hac_ci_high);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::Metrics>
void members(S& m, V&& v) { v(m.n, m.ssr, m.rmse, m.nrmse, m.r2, m.max_abs, m.rms); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::ResidualWhiteness>
void members(S& w, V&& v) { v(w.lags, w.ljung_box_q, w.ljung_box_p, w.acf1); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::Reliability>
void members(S& r, V&& v) {
  v(r.standard_errors, r.reasons, r.whiteness, r.hac_lags, r.hac_ratio_max, r.outliers);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::IdentifiabilityFlag>
void members(S& f, V&& v) { v(f.parameter, f.kind, f.other, f.value, f.message); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::DataSummary>
void members(S& d, V&& v) {
  v(d.n, d.n_used, d.duration, d.rate_hz, d.dt_max, d.reversals, d.v_max_abs);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::StartSummary>
void members(S& s, V&& v) { v(s.initial_cost, s.final_cost, s.iterations, s.converged, s.origin); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::ModelChoice>
void members(S& m, V&& v) { v(m.name, m.asymmetric, m.shape, m.alpha, m.fit_alpha, m.elements); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, identify::FitResult>
void members(S& r, V&& v) {
  v(r.model, r.model_name, r.problem, r.method, r.params, r.Km, r.parameters, r.correlation,
    r.condition_number, r.sigma, r.num_estimated, r.training, r.aicc, r.bic, r.reliability,
    r.identifiability, r.passive, r.passivity_message, r.run_time_s, r.iterations, r.converged,
    r.termination, r.starts, r.nested_model, r.data, r.warnings, r.scheme, r.hold, r.warmup_s);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::VerdictReason>
void members(S& r, V&& v) { v(r.grade, r.rule, r.text, r.hint); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::Verdict>
void members(S& d, V&& v) { v(d.grade, d.reasons); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::NamedMetrics>
void members(S& m, V&& v) { v(m.name, m.metrics, m.training_name, m.same_as_training); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::FrictionVelocity>
void members(S& f, V&& v) { v(f.velocity, f.measured, f.simulated, f.static_curve); }
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::FitOutcome>
void members(S& f, V&& v) {
  v(f.input, f.result, f.training, f.prediction, f.residual, f.friction, f.validation, f.warnings,
    f.verdict);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::CompareRow>
void members(S& r, V&& v) {
  v(r.model, r.fit, r.validation, r.validation_rmse, r.score, r.criterion, r.delta);
}
template <class V, class S>
requires std::is_same_v<std::remove_const_t<S>, workflows::CompareOutcome>
void members(S& c, V&& v) {
  v(c.input, c.validation_names, c.problem, c.criterion, c.ranked_by_validation, c.rows, c.has_best,
    c.training, c.best_by_criterion, c.criterion_agrees, c.warnings, c.verdict);
}

template <class T>
concept Struct = requires(const T& t) {
  members(t, [](const auto&...) {});
};

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

// ---- writing ----

template <class T>
py::object to_state(const T& x) {
  if constexpr (Struct<T>) {
    py::list l;
    members(x, [&l](const auto&... m) { (l.append(to_state(m)), ...); });
    return py::tuple(l);
  } else if constexpr (std::is_same_v<T, ModelSpec>) {
    return py::str(io::to_json_text(x));
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    return py::bytes(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(double));
  } else if constexpr (is_vector<T>::value) {
    py::list l;
    for (const auto& e : x) l.append(to_state(e));
    return l;
  } else if constexpr (is_optional<T>::value) {
    return x ? to_state(*x) : py::none();
  } else if constexpr (std::is_enum_v<T>) {
    return py::int_(static_cast<long>(x));
  } else {
    return py::cast(x);
  }
}

// ---- reading ----

template <class T>
void from_state(const py::handle& h, T& x) {
  if constexpr (Struct<T>) {
    const auto t = h.cast<py::tuple>();
    std::size_t k = 0;
    members(x, [&](auto&... m) {
      if (t.size() != sizeof...(m))
        throw std::invalid_argument("pickle: a state of another layout");
      (from_state(t[k++], m), ...);
    });
  } else if constexpr (std::is_same_v<T, ModelSpec>) {
    x = io::parse_model_json(h.cast<std::string>(), "pickle").spec;
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    const std::string b = h.cast<py::bytes>();
    if (b.size() % sizeof(double) != 0)
      throw std::invalid_argument("pickle: a state of another layout");
    x.resize(b.size() / sizeof(double));
    if (!b.empty()) std::memcpy(x.data(), b.data(), b.size());
  } else if constexpr (is_vector<T>::value) {
    x.clear();
    for (const py::handle e : h) from_state(e, x.emplace_back());
  } else if constexpr (is_optional<T>::value) {
    if (h.is_none()) {
      x.reset();
    } else {
      from_state(h, x.emplace());
    }
  } else if constexpr (std::is_enum_v<T>) {
    x = static_cast<T>(h.cast<long>());
  } else {
    x = h.cast<T>();
  }
}

/// py::pickle of T: pickle_state(to_state(x)).
template <class T>
void make_picklable(py::module_& m, const char* name) {
  auto cls = py::reinterpret_borrow<py::class_<T>>(m.attr(name));
  cls.def(py::pickle([](const T& x) { return pickle_state(to_state(x)); },
                     [name](const py::tuple& s) {
                       T x;
                       from_state(unpickle_state(s, name), x);
                       return x;
                     }));
}

}  // namespace

void bind_pickling(py::module_& m) {
  make_picklable<data::Record>(m, "Record");
  make_picklable<identify::ParameterEstimate>(m, "ParameterEstimate");
  make_picklable<identify::Metrics>(m, "Metrics");
  make_picklable<identify::ResidualWhiteness>(m, "ResidualWhiteness");
  make_picklable<identify::Reliability>(m, "Reliability");
  make_picklable<identify::IdentifiabilityFlag>(m, "IdentifiabilityFlag");
  make_picklable<identify::DataSummary>(m, "DataSummary");
  make_picklable<identify::StartSummary>(m, "StartSummary");
  make_picklable<identify::FitResult>(m, "FitResult");
  make_picklable<workflows::NamedMetrics>(m, "NamedMetrics");
  make_picklable<workflows::FrictionVelocity>(m, "FrictionVelocity");
  make_picklable<workflows::FitOutcome>(m, "FitOutcome");
  make_picklable<workflows::CompareRow>(m, "CompareRow");
  make_picklable<workflows::CompareOutcome>(m, "CompareOutcome");
}

}  // namespace frictionlab::python
