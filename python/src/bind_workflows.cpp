// frictionlab Python module: fit and compare (workflows/fit.hpp, workflows/compare.hpp), their
// results, and the registration of the other workflows (workflows_joint.cpp,
// workflows_actuator.cpp, workflows_export.cpp) (bindings.hpp; docs/python.md).
#include <filesystem>

#include "bindings.hpp"
#include "frictionlab/io/compare_json.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/fit_plots.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/io/verdict_json.hpp"
#include "frictionlab/workflows/compare.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/validate.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

const std::vector<std::pair<std::string, identify::ProblemKind>>& problems() {
  static const std::vector<std::pair<std::string, identify::ProblemKind>> p{
      {io::problem_name(identify::ProblemKind::friction), identify::ProblemKind::friction},
      {io::problem_name(identify::ProblemKind::sensorless), identify::ProblemKind::sensorless}};
  return p;
}

/// The options fit and compare share (identify::FitOptions and data::PreprocessOptions of `O`).
template <class O>
void add_fit_options(OptionTable<O>& t, bool with_model) {
  auto fo = [](O& o) -> identify::FitOptions& { return o.fit; };
  t.custom(
      "problem",
      [](O& o, const py::handle& h) {
        o.fit.problem = choice("problem", option_cast<std::string>("problem", h), problems());
      },
      "'friction' (the force channel is the friction [N | N m]) or 'sensorless' (it is the "
      "joint torque Km*current - friction [N m]; needs the current channel [A])");
  if (with_model) {
    t.custom(
        "model",
        [](O& o, const py::handle& h) {
          o.fit.model = identify::parse_model(option_cast<std::string>("model", h));
        },
        "model to fit (identify::parse_model: 'lugre', 'lugre-asym', 'stribeck', 'gms:4', "
        "...); default 'lugre'");
    t.custom(
        "method",
        [](O& o, const py::handle& h) {
          o.fit.method = identify::parse_method(option_cast<std::string>("method", h));
        },
        "'lsq' (default), 'grid' (reference 000) or 'two-stage'");
    t.template add<double>(
        "alpha", [](O& o) -> double& { return o.fit.model.alpha.emplace(); },
        "Stribeck exponent held fixed at this value [-]");
    t.template add<bool>(
        "fit_alpha", [](O& o) -> bool& { return o.fit.model.fit_alpha; },
        "estimate the Stribeck exponent (default False)");
  }
  t.template add<bool>(
      "rotary", [fo](O& o) -> bool& { return fo(o).rotary; },
      "report rotary units (N m, rad/s) for the friction problem (default False)");
  t.custom(
      "hold",
      [fo](O& o, const py::handle& h) {
        fo(o).hold = choice("hold", option_cast<std::string>("hold", h),
                            std::vector<std::pair<std::string, Hold>>{{"linear", Hold::linear},
                                                                      {"zoh", Hold::zoh}});
      },
      "the velocity between samples in the fit's simulation: 'linear' (a sampled smooth "
      "motion; default for lsq, two-stage) or 'zoh' (held until the next sample: set by a "
      "digital controller or a DAC; grid always holds it)");
  t.template add<double>(
      "warmup_s", [fo](O& o) -> double& { return fo(o).warmup_s; },
      "seconds at the start left out of the residuals [s] (default 0)");
  t.template add<int>(
      "starts", [fo](O& o) -> int& { return fo(o).lsq.starts; },
      "lsq: number of starts, >= 1 (default: automatic, the model's; "
      "docs/identification.md, \"Multi-start\")");
  t.template add<double>(
      "spread", [fo](O& o) -> double& { return fo(o).lsq.spread; },
      "lsq: log-uniform factor range of the perturbed starts (default 3)");
  t.template add<unsigned>(
      "seed", [fo](O& o) -> unsigned& { return fo(o).lsq.seed; },
      "lsq: random seed of the starts (default 1)");
  t.template add<int>(
      "max_iterations", [fo](O& o) -> int& { return fo(o).lsq.max_iterations; },
      "lsq: solver iterations per start (default 200)");
  t.custom(
      "loss",
      [](O& o, const py::handle& h) {
        o.fit.lsq.loss = choice("loss", option_cast<std::string>("loss", h),
                                std::vector<std::pair<std::string, identify::LossKind>>{
                                    {"none", identify::LossKind::none},
                                    {"huber", identify::LossKind::huber},
                                    {"cauchy", identify::LossKind::cauchy}});
      },
      "lsq: robust loss 'none' (default), 'huber' or 'cauchy'");
  t.template add<double>(
      "loss_scale", [fo](O& o) -> double& { return fo(o).lsq.loss_scale; },
      "lsq: robust loss scale [force unit], > 0 (default: from the residuals)");
  t.template add<int>(
      "threads", [fo](O& o) -> int& { return fo(o).lsq.threads; },
      "lsq: threads for the starts and the Jacobian, >= 1 (default: all cores)");
  t.template add<double>(
      "resample_rate", [](O& o) -> double& { return o.preprocess.resample_rate; },
      "resample to this uniform rate first [Hz], > 0 (default: keep the samples)");
  t.template add<double>(
      "resample_max_gap", [](O& o) -> double& { return o.preprocess.resample_max_gap; },
      "resampling: the longest step to interpolate across [s] (0: 10 median "
      "steps; a longer gap is an error; inf: any)");
  t.template add<double>(
      "lowpass_cutoff", [](O& o) -> double& { return o.preprocess.lowpass_cutoff; },
      "zero-phase Butterworth low-pass cut-off [Hz], > 0 (default: none)");
  t.custom(
      "derivatives",
      [](O& o, const py::handle& h) {
        o.preprocess.derivatives =
            choice("derivatives", option_cast<std::string>("derivatives", h),
                   std::vector<std::pair<std::string, data::DerivativesFrom>>{
                       {"none", data::DerivativesFrom::none},
                       {"position", data::DerivativesFrom::position},
                       {"velocity", data::DerivativesFrom::velocity}});
      },
      "'none' (default), 'position' (velocity from the position, Savitzky-Golay) or "
      "'velocity'");
  for (const auto& name : record_spec_names()) {
    if (name == "temperature") continue;  // no friction model of fit / compare takes one
    t.custom(
        name, [](O&, const py::handle&) {},
        "the " + name + " column / variable when a record is given as a file or DataFrame" +
            (name == "time" ? " (default 't')" : ""));
  }
}

/// The sensorless problem is always rotary (identify::FitOptions::rotary).
void finish_fit_options(identify::FitOptions& fo) {
  if (fo.problem == identify::ProblemKind::sensorless) fo.rotary = true;
}

const OptionTable<workflows::FitOptions>& fit_table() {
  static OptionTable<workflows::FitOptions> t("fit");
  static bool done = false;
  if (!done) {
    add_fit_options(t, true);
    done = true;
  }
  return t;
}

const OptionTable<workflows::CompareOptions>& compare_table() {
  static OptionTable<workflows::CompareOptions> t("compare");
  static bool done = false;
  if (!done) {
    add_fit_options(t, false);
    t.custom(
        "models",
        [](workflows::CompareOptions& o, const py::handle& h) {
          std::string list;
          if (py::isinstance<py::str>(h)) {
            list = h.cast<std::string>();
          } else {
            for (const py::handle x : h) {
              if (!list.empty()) list += ',';
              list += std::string(py::str(x));
            }
          }
          try {
            o.models = workflows::parse_model_list(list);
          } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string("models: ") + e.what());
          }
        },
        "models to fit by lsq: a list of names or one comma-separated str (default "
        "'coulomb-viscous,stribeck,lugre,lugre-asym', as the CLI)");
    t.custom(
        "criterion",
        [](workflows::CompareOptions& o, const py::handle& h) {
          o.criterion = workflows::parse_criterion(option_cast<std::string>("criterion", h));
        },
        "information criterion 'aicc' (default) or 'bic'");
    done = true;
  }
  return t;
}

struct Inputs {
  workflows::NamedRecord training;
  std::vector<workflows::NamedRecord> validation;
};

workflows::NamedRecord named(const py::handle& obj, const io::RecordSpec& spec,
                             const std::string& fallback) {
  if (const auto path = as_path(obj)) return {*path, io::read_record(*path, spec)};
  data::Record r = as_record(obj, spec, fallback);
  std::string name = record_name(r, fallback);
  return {name, std::move(r)};
}

Inputs read_inputs(const py::handle& training, const py::handle& validation,
                   const py::kwargs& kwargs) {
  const io::RecordSpec spec = record_spec(kwargs, "t");
  Inputs in{named(training, spec, "training"), {}};
  if (validation.is_none()) return in;
  if (py::isinstance<py::list>(validation) || py::isinstance<py::tuple>(validation)) {
    std::size_t k = 0;
    for (const py::handle v : validation)
      in.validation.push_back(named(v, spec, "validation[" + std::to_string(k++) + "]"));
  } else {
    in.validation.push_back(named(validation, spec, "validation[0]"));
  }
  return in;
}

std::string fit_json_text(const workflows::FitOutcome& f) {
  return io::fit_outcome_to_json(f).dump(2) + "\n";
}

std::vector<std::string> compare_model_paths(const workflows::CompareOutcome& c,
                                             const std::string& dir) {
  std::vector<std::string> paths;
  const std::filesystem::path d(dir);
  for (const auto& r : c.rows)
    paths.push_back((d / io::compare_model_directory(r.model) / "model.json").string());
  return paths;
}

void bind_results(py::module_& m) {
  py::class_<identify::ParameterEstimate>(m, "ParameterEstimate",
                                          "One parameter of a fit (identify::ParameterEstimate).")
      .def_readonly("name", &identify::ParameterEstimate::name,
                    "reference 000's name (sensorless) or the MODEL.json field name")
      .def_readonly("field", &identify::ParameterEstimate::field, "MODEL.json field ('sigma0')")
      .def_readonly("unit", &identify::ParameterEstimate::unit)
      .def_readonly("value", &identify::ParameterEstimate::value, "[unit]")
      .def_readonly("std_error", &identify::ParameterEstimate::std_error,
                    "white-noise standard error [unit]; NaN: not available")
      .def_readonly("ci_low", &identify::ParameterEstimate::ci_low, "95 % interval [unit]")
      .def_readonly("ci_high", &identify::ParameterEstimate::ci_high, "95 % interval [unit]")
      .def_readonly("fixed", &identify::ParameterEstimate::fixed)
      .def_readonly("at_bound", &identify::ParameterEstimate::at_bound)
      .def_readonly("at_limit", &identify::ParameterEstimate::at_limit)
      .def_readonly("undetermined", &identify::ParameterEstimate::undetermined)
      .def_readonly("hac_std_error", &identify::ParameterEstimate::hac_std_error,
                    "Newey-West (HAC) standard error [unit]")
      .def_readonly("hac_ci_low", &identify::ParameterEstimate::hac_ci_low)
      .def_readonly("hac_ci_high", &identify::ParameterEstimate::hac_ci_high)
      .def("__repr__", [](const identify::ParameterEstimate& e) {
        return "ParameterEstimate(" + e.name + " = " + std::string(py::repr(py::float_(e.value))) +
               " " + e.unit + ", std_error " + std::string(py::repr(py::float_(e.std_error))) + ")";
      });
  py::class_<identify::Metrics>(m, "Metrics", "Goodness of fit on a record (identify::Metrics).")
      .def_readonly("n", &identify::Metrics::n, "samples compared (after the warm-up)")
      .def_readonly("ssr", &identify::Metrics::ssr, "sum of squared residuals [unit^2]")
      .def_readonly("rmse", &identify::Metrics::rmse, "[N | N m]")
      .def_readonly("nrmse", &identify::Metrics::nrmse, "rmse / range of the measured channel")
      .def_readonly("r2", &identify::Metrics::r2)
      .def_readonly("max_abs", &identify::Metrics::max_abs, "largest |residual| [N | N m]")
      .def("__repr__", [](const identify::Metrics& x) {
        return "Metrics(n=" + std::to_string(x.n) +
               ", rmse=" + std::string(py::repr(py::float_(x.rmse))) + ")";
      });
  py::class_<identify::ResidualWhiteness>(m, "ResidualWhiteness")
      .def_readonly("lags", &identify::ResidualWhiteness::lags)
      .def_readonly("ljung_box_q", &identify::ResidualWhiteness::ljung_box_q)
      .def_readonly("ljung_box_p", &identify::ResidualWhiteness::ljung_box_p)
      .def_readonly("acf1", &identify::ResidualWhiteness::acf1);
  py::class_<identify::Reliability>(m, "Reliability",
                                    "Whether the standard errors can be trusted, and why not.")
      .def_readonly("standard_errors", &identify::Reliability::standard_errors)
      .def_readonly("reasons", &identify::Reliability::reasons)
      .def_readonly("whiteness", &identify::Reliability::whiteness)
      .def_readonly("hac_lags", &identify::Reliability::hac_lags)
      .def_readonly("hac_ratio_max", &identify::Reliability::hac_ratio_max);
  py::class_<identify::IdentifiabilityFlag>(m, "IdentifiabilityFlag",
                                            "A parameter (or the fit) the record cannot determine, "
                                            "and why (identify::identifiability_flags).")
      .def_readonly("parameter", &identify::IdentifiabilityFlag::parameter,
                    "'' for the fit as a whole")
      .def_readonly("kind", &identify::IdentifiabilityFlag::kind,
                    "bound, limit, undetermined, no_std_error, relative_error, correlation, "
                    "condition, reversals, near_zero")
      .def_readonly("other", &identify::IdentifiabilityFlag::other,
                    "the other parameter of a correlation")
      .def_readonly("value", &identify::IdentifiabilityFlag::value, "the number behind the flag")
      .def_readonly("message", &identify::IdentifiabilityFlag::message, "the reason in plain words")
      .def("__repr__", [](const identify::IdentifiabilityFlag& f) {
        return "IdentifiabilityFlag(" + f.parameter + ", " + f.kind + ": " + f.message + ")";
      });
  py::class_<identify::DataSummary>(m, "DataSummary")
      .def_readonly("n", &identify::DataSummary::n)
      .def_readonly("n_used", &identify::DataSummary::n_used)
      .def_readonly("duration", &identify::DataSummary::duration, "[s]")
      .def_readonly("rate_hz", &identify::DataSummary::rate_hz, "[Hz]")
      .def_readonly("dt_max", &identify::DataSummary::dt_max, "[s]")
      .def_readonly("reversals", &identify::DataSummary::reversals)
      .def_readonly("v_max_abs", &identify::DataSummary::v_max_abs);
  py::class_<identify::StartSummary>(m, "StartSummary")
      .def_readonly("initial_cost", &identify::StartSummary::initial_cost)
      .def_readonly("final_cost", &identify::StartSummary::final_cost)
      .def_readonly("iterations", &identify::StartSummary::iterations)
      .def_readonly("converged", &identify::StartSummary::converged)
      .def_readonly("origin", &identify::StartSummary::origin);

  using identify::FitResult;
  py::class_<FitResult>(m, "FitResult", "The result of an identification (identify::FitResult).")
      .def_readonly("model_name", &FitResult::model_name)
      .def_property_readonly("problem",
                             [](const FitResult& r) { return io::problem_name(r.problem); })
      .def_property_readonly("method",
                             [](const FitResult& r) { return identify::method_name(r.method); })
      .def_property_readonly(
          "params", [](const FitResult& r) { return model_to_python(r.params); },
          "the fitted friction model: its MODEL.json object (dict)")
      .def_readonly("Km", &FitResult::Km, "motor torque constant [N m/A] (sensorless), or None")
      .def_property_readonly(
          "parameters",
          [](const py::object& self) {
            return ref_list(self.cast<const FitResult&>().parameters, self);
          },
          "every parameter, estimated or fixed (ParameterEstimate)")
      .def_property_readonly(
          "correlation", [](const FitResult& r) { return matrix(r.correlation); },
          "correlation matrix of the parameters (NaN where not available)")
      .def_property_readonly(
          "covariance", [](const FitResult& r) { return matrix(identify::covariance(r)); },
          "covariance matrix of the parameters in their units "
          "(identify::covariance: correlation x std_error x std_error; 0 for "
          "fixed ones, NaN where not available)")
      .def_readonly("condition_number", &FitResult::condition_number)
      .def_readonly("sigma", &FitResult::sigma, "residual standard deviation [N | N m]")
      .def_readonly("num_estimated", &FitResult::num_estimated)
      .def_readonly("training", &FitResult::training, "Metrics on the training record")
      .def_readonly("aicc", &FitResult::aicc)
      .def_readonly("bic", &FitResult::bic)
      .def_readonly("reliability", &FitResult::reliability)
      .def_readonly("identifiability", &FitResult::identifiability,
                    "what the record cannot determine (IdentifiabilityFlag list; empty: none)")
      .def_readonly("passive", &FitResult::passive)
      .def_readonly("passivity_message", &FitResult::passivity_message)
      .def_readonly("run_time_s", &FitResult::run_time_s, "[s]")
      .def_readonly("iterations", &FitResult::iterations)
      .def_readonly("converged", &FitResult::converged)
      .def_readonly("termination", &FitResult::termination)
      .def_readonly("starts", &FitResult::starts)
      .def_readonly("nested_model", &FitResult::nested_model)
      .def_readonly("data", &FitResult::data)
      .def_readonly("warnings", &FitResult::warnings)
      .def_readonly("warmup_s", &FitResult::warmup_s, "[s]")
      .def_property_readonly(
          "hold", [](const FitResult& r) { return std::string(hold_name(r.hold)); },
          "the input between samples the fit simulated with: 'linear' or 'zoh'")
      .def(
          "model_json", [](const FitResult& r) { return io::to_json_text(r.params); },
          "The fitted model as MODEL.json text (what the CLI writes as model.json).");

  py::class_<workflows::NamedMetrics>(m, "NamedMetrics")
      .def_readonly("name", &workflows::NamedMetrics::name)
      .def_readonly("metrics", &workflows::NamedMetrics::metrics)
      .def_readonly("training_name", &workflows::NamedMetrics::training_name,
                    "the training record's name when this record is the training record, else ''")
      .def_readonly("same_as_training", &workflows::NamedMetrics::same_as_training,
                    "'the same file', 'the same samples' (this record is the training record) "
                    "or ''");
  using workflows::FrictionVelocity;
  py::class_<FrictionVelocity>(m, "FrictionVelocity",
                               "Friction against velocity, sorted by velocity (read-only views).")
      .def_property_readonly("velocity", view_of(&FrictionVelocity::velocity), "[m/s | rad/s]")
      .def_property_readonly("measured", view_of(&FrictionVelocity::measured), "[N | N m]")
      .def_property_readonly("simulated", view_of(&FrictionVelocity::simulated), "[N | N m]")
      .def_property_readonly("static_curve", view_of(&FrictionVelocity::static_curve), "[N | N m]");

  using workflows::FitOutcome;
  py::class_<FitOutcome> fit(m, "FitOutcome", R"doc(
What fit returns (workflows::FitOutcome): the identification `result` (FitResult: parameters,
standard errors, intervals, correlation, metrics, AICc/BIC, the fitted model), the prepared
training record, its prediction and residual, the friction-velocity data, the validation
metrics and the warnings. Shortcuts: parameters, correlation, aicc, bic, model (the MODEL.json
dict). to_json() is the CLI's fit.json text, write(dir) writes the CLI's output directory.
)doc");
  fit.def_readonly("input", &FitOutcome::input, "the training record's name")
      .def_readonly("result", &FitOutcome::result)
      .def_readonly("training", &FitOutcome::training, "the prepared training record")
      .def_property_readonly("prediction", view_of(&FitOutcome::prediction),
                             "the model's prediction of the force channel [N | N m]")
      .def_property_readonly("residual", view_of(&FitOutcome::residual),
                             "force - prediction [N | N m]")
      .def_readonly("friction", &FitOutcome::friction)
      .def_property_readonly(
          "validation",
          [](const py::object& s) { return ref_list(s.cast<const FitOutcome&>().validation, s); },
          "NamedMetrics of every validation record")
      .def_readonly("warnings", &FitOutcome::warnings)
      .def_readonly(
          "verdict", &FitOutcome::verdict,
          "the Verdict on the fit: good, doubtful or bad, why and what to try (docs/verdicts.md)")
      .def_property_readonly("parameters",
                             [](const py::object& s) {
                               return ref_list(s.cast<const FitOutcome&>().result.parameters, s);
                             })
      .def_property_readonly("correlation",
                             [](const FitOutcome& f) { return matrix(f.result.correlation); })
      .def_property_readonly(
          "covariance", [](const FitOutcome& f) { return matrix(identify::covariance(f.result)); })
      .def_property_readonly("aicc", [](const FitOutcome& f) { return f.result.aicc; })
      .def_property_readonly("bic", [](const FitOutcome& f) { return f.result.bic; })
      .def_property_readonly(
          "model", [](const FitOutcome& f) { return model_to_python(f.result.params); },
          "the fitted friction model: its MODEL.json object (dict)")
      .def(
          "model_json", [](const FitOutcome& f) { return io::to_json_text(f.result.params); },
          "The fitted model as MODEL.json text (the CLI's model.json).")
      .def("to_json", &fit_json_text, "The CLI's fit.json text (io::fit_to_json).")
      .def(
          "write",
          [](const FitOutcome& f, const py::object& dir, bool plots) {
            return io::write_fit_outputs(path_argument(dir, "dir"), f, plots);
          },
          py::arg("dir"), py::arg("plots") = true,
          "Write the CLI's output directory (fit.json, model.json, plots); returns the paths.")
      .def(
          "report_html",
          [](const FitOutcome& f, const std::string& title) {
            return io::report_html({{f.input, io::fit_outcome_to_json(f)}},
                                   python_report_options(title));
          },
          py::arg("title") = "", "The report page as text (what report() writes).")
      .def(
          "_repr_html_",
          [](const FitOutcome& f) {
            // (fit.json without its report series: the summary draws no plot)
            nlohmann::ordered_json j = io::fit_to_json(f.result, f.input, f.validation);
            j["warnings"] = f.warnings;
            j["verdict"] = io::verdict_to_json(f.verdict);
            return io::report_summary_html({f.input, j});
          },
          "A notebook's view: the verdict, the parameter table and the identifiability flags.");
  def_report(fit, &FitOutcome::input, &io::fit_outcome_to_json,
             "Write the identification report: one self-contained HTML page (docs/report.md), the "
             "page `frictionlab fit --report` writes; returns the path.");

  py::class_<workflows::CompareRow>(m, "CompareRow", "One model of a comparison.")
      .def_readonly("model", &workflows::CompareRow::model)
      .def_readonly("fit", &workflows::CompareRow::fit)
      .def_property_readonly("validation",
                             [](const py::object& s) {
                               return ref_list(s.cast<const workflows::CompareRow&>().validation,
                                               s);
                             })
      .def_readonly("validation_rmse", &workflows::CompareRow::validation_rmse, "[N | N m]")
      .def_readonly("score", &workflows::CompareRow::score, "the ranking error [N | N m]")
      .def_readonly("criterion", &workflows::CompareRow::criterion, "AICc or BIC")
      .def_readonly("delta", &workflows::CompareRow::delta);
  using workflows::CompareOutcome;
  py::class_<CompareOutcome> compare(m, "CompareOutcome", R"doc(
What compare returns (workflows::CompareOutcome): the models ranked, best first (`rows`), the
criterion's verdict. to_json(out) is the CLI's compare.json for output directory `out`
(its "model_json" paths), write(dir) writes the CLI's output directory.
)doc");
  compare.def_readonly("input", &CompareOutcome::input)
      .def_readonly("validation_names", &CompareOutcome::validation_names)
      .def_property_readonly("problem",
                             [](const CompareOutcome& c) { return io::problem_name(c.problem); })
      .def_property_readonly(
          "criterion",
          [](const CompareOutcome& c) { return workflows::criterion_key(c.criterion); })
      .def_readonly("ranked_by_validation", &CompareOutcome::ranked_by_validation)
      .def_property_readonly(
          "rows",
          [](const py::object& s) { return ref_list(s.cast<const CompareOutcome&>().rows, s); })
      .def_readonly("best_by_criterion", &CompareOutcome::best_by_criterion)
      .def_readonly("criterion_agrees", &CompareOutcome::criterion_agrees)
      .def_readonly("has_best", &CompareOutcome::has_best,
                    "rows[0] has a finite ranking error (False: no model is recommended)")
      .def_readonly("warnings", &CompareOutcome::warnings)
      .def_readonly("verdict", &CompareOutcome::verdict,
                    "the Verdict on the comparison: the recommended model's and the ranking's "
                    "(docs/verdicts.md)")
      .def(
          "to_json",
          [](const CompareOutcome& c, const py::object& out) {
            return io::compare_to_json(c, compare_model_paths(c, path_argument(out, "out")))
                       .dump(2) +
                   "\n";
          },
          py::arg("out") = "frictionlab-compare",
          "The CLI's compare.json text for output directory `out` (io::compare_to_json).")
      .def(
          "write",
          [](const CompareOutcome& c, const py::object& dir) {
            return io::write_compare_outputs(path_argument(dir, "dir"), c);
          },
          py::arg("dir"), "Write compare.json and <model>/model.json; returns the paths.");
  def_report(
      compare, &CompareOutcome::input,
      [](const CompareOutcome& c) {
        return io::compare_to_json(c, compare_model_paths(c, "frictionlab-compare"));
      },
      "Write the identification report of the comparison (the ranking, the recommendation "
      "and why, every model's section): the page `compare --report` writes; returns the path.");
}

}  // namespace

void bind_fit_compare(py::module_& m) {
  bind_results(m);
  m.def(
      "fit",
      [](const py::object& training, const py::object& validation, const py::object& progress,
         const py::kwargs& kwargs) {
        workflows::FitOptions o;
        fit_table().apply(o, kwargs);
        finish_fit_options(o.fit);
        const Inputs in = read_inputs(training, validation, kwargs);
        return run_released(progress, [&](const workflows::Progress& p) {
          return workflows::fit(in.training, in.validation, o, p);
        });
      },
      py::arg("training"), py::arg("validation") = py::none(), py::kw_only(),
      py::arg("progress") = py::none(),
      (std::string(R"doc(fit(training, validation=None, *, progress=None, **options) -> FitOutcome

Identify friction parameters from a measured record (workflows::fit; the CLI's `fit`).
training, validation: a Record, a file path (CSV / .mat, read with the channel options), a
pandas DataFrame or a dict of arrays (Record's keywords); validation may be a list.
)doc") +
       kProgressDoc + "\n" + fit_table().doc())
          .c_str());
  m.def(
      "compare",
      [](const py::object& training, const py::object& validation, const py::object& progress,
         const py::kwargs& kwargs) {
        workflows::CompareOptions o;
        o.models = workflows::parse_model_list("coulomb-viscous,stribeck,lugre,lugre-asym");
        compare_table().apply(o, kwargs);
        finish_fit_options(o.fit);
        o.fit.method = identify::FitMethod::lsq;
        const Inputs in = read_inputs(training, validation, kwargs);
        return run_released(progress, [&](const workflows::Progress& p) {
          return workflows::compare(in.training, in.validation, o, p);
        });
      },
      py::arg("training"), py::arg("validation") = py::none(), py::kw_only(),
      py::arg("progress") = py::none(),
      (std::string(
           R"doc(compare(training, validation=None, *, progress=None, **options) -> CompareOutcome

Fit several models to one record by lsq and rank them (workflows::compare; the CLI's
`compare`): by validation RMSE (training RMSE without validation records), with AICc/BIC.
Records as for fit.
)doc") +
       kProgressDoc + "\n" + compare_table().doc())
          .c_str());
}

namespace {

/// _option_rule(name): the range of a numeric option as the workflows check a value the user gives
/// (workflows::check_option: the "not given" value refused), for frictionlab.fleet's checks of a
/// configuration; None for an option without one.
void bind_option_rule(py::module_& m) {
  m.def(
      "_option_rule",
      [](const std::string& name) -> py::object {
        const workflows::OptionRule* r = workflows::find_option_rule(name);
        if (r == nullptr) return py::none();
        py::dict d;
        d["integer"] = r->integer;
        d["lo"] = r->lo;
        d["lo_open"] = r->lo_open;
        d["hi"] = r->hi;
        d["description"] = workflows::describe(*r);
        return d;
      },
      py::arg("name"),
      "The range of numeric option `name` (workflows/validate.hpp): a dict integer, lo, lo_open, "
      "hi, description; None without one.");
}

}  // namespace

void bind_workflows(py::module_& m) {
  bind_option_rule(m);
  bind_verdict(m);
  bind_fit_compare(m);
  bind_joint(m);
  bind_actuator(m);
  bind_robot(m);
  bind_export(m);
  bind_actuator_export(m);
}

}  // namespace frictionlab::python
