// frictionlab CLI: the subcommands (argument parsing in main.cpp; the work is done by the
// library: the workflows (workflows/simulate, export, demo, ...), io/model_json, io/system_json,
// io/simulate_io, io/demo_files, sim/model_run, sim/systems, io/csv, io/plot_svg,
// identify/, io/fit_json, io/lugre_xml).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "console.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"

namespace CLI {
class App;
}

namespace frictionlab::workflows {
struct Verdict;
}

namespace frictionlab::cli {

/// A subcommand that lives in its own file: it adds itself (options bound to storage it owns,
/// e.g. a std::shared_ptr captured by `run`) and main calls `run` when the user selected it.
/// Its errors follow run_simulate's contract (io::InputError, std::invalid_argument,
/// std::runtime_error -> "frictionlab: error: ...", exit 1).
struct Registered {
  CLI::App* command = nullptr;
  std::function<void()> run;
};
using Registry = std::vector<Registered>;

/// Every self-registering subcommand, called once by main (commands.cpp lists them).
void register_commands(CLI::App& app, Registry& registry);

/// Remember the command line of this run (main calls it first).
void set_command_line(int argc, char** argv);
/// What the reports of this run say made them: "frictionlab X.Y.Z" and the command line, quoted
/// for a POSIX shell.
frictionlab::io::ReportOptions report_options();
/// Before any work: a --report FILE.html (if given) can be written and is none of `inputs`.
void check_report_output(const std::string& report,
                         const std::vector<frictionlab::io::NamedPath>& inputs);
/// Before any work: the files a command writes in its results directory (--out) can be written
/// (io::check_output_in_directory), are none of `inputs` (nor any file it reads later:
/// io::note_input), and --report is none of them.
void check_result_files(const std::vector<std::string>& files, const std::string& report,
                        const std::vector<frictionlab::io::NamedPath>& inputs);

struct SimulateOptions {
  // --model mode (velocity- or displacement-driven friction model)
  std::string model, input;
  std::string hold = "linear";
  bool hold_given = false;
  // --system mode (coupled mechanical system)
  std::string system, params;
  double output_dt = 0.0;
  double rtol = 0.0;  // 0 = library default
  // both
  std::string output, plot, integrator;
  double dt = 0.0;  // 0 = not given
};

/// The time column / variable of fit and compare when --time is not given (a default, not a
/// choice: io::RecordSpec::time_default).
inline constexpr const char* kDefaultTime = "t";

struct FitOptions {
  std::string input, out = "frictionlab-fit";
  std::vector<std::string> validate;
  // channels: column names or 0-based indices (CSV), variable names (.mat); empty: not given
  std::string time, position, velocity, current, force, matrix;
  std::string problem = "friction", model = "lugre", method = "lsq", loss = "none";
  std::string hold;  ///< --hold linear|zoh; "" not given (identify::FitOptions::hold)
  bool rotary = false;
  double warmup = 0;
  int starts = 0;     // 0 = library default
  double spread = 0;  // 0 = library default (identify::LsqOptions::spread)
  int threads = 0;    // 0 = every core
  // preprocessing
  double resample = 0, lowpass = 0;
  double max_gap = 0;  ///< --max-gap [s]; 0: data::PreprocessOptions' default
  bool velocity_from_position = false;
  bool no_plots = false;
  std::string report;  ///< --report FILE.html (fit, compare): the identification report; "" none
};

/// Run `fit`; throws on errors like run_simulate (and identify::FitError).
void run_fit(const FitOptions& o);

/// The command line of this run, quoted for a POSIX shell (the reports show it).
void set_command_line(int argc, char** argv);
const std::string& command_line();

struct CompareOptions {
  /// Record, channels, problem, preprocessing, warm-up, starts and loss, as for `fit`; `model`
  /// and `method` are not used (every model of `models` is fitted by lsq).
  FitOptions fit = compare_defaults();
  std::string models = "coulomb-viscous,stribeck,lugre,lugre-asym";  ///< comma-separated
  std::string criterion = "aicc";                                    ///< aicc | bic

  static FitOptions compare_defaults() {
    FitOptions f;
    f.out = "frictionlab-compare";
    return f;
  }
};

/// Run `compare`; throws like run_fit.
void run_compare(const CompareOptions& o);

struct ExportOptions {
  std::string params;  ///< fit.json or joint_fit.json
  std::string output;  ///< empty: stdout
  double km = 0;       ///< --km [Nm/A]; 0: not given (Km must be > 0)
};

/// Run `export xml`; throws io::InputError on errors.
void run_export_xml(const ExportOptions& o);

struct DemoOptions {
  std::string out = "frictionlab-demo";
};

/// Run `simulate`; throws io::InputError / std::invalid_argument / std::runtime_error on errors.
void run_simulate(const SimulateOptions& o);

/// Run `demo`.
void run_demo(const DemoOptions& o);

/// Write `text` to `output` (empty or "-": the standard output); into a file, followed by
/// print_written(OUTPUT, WHAT).
void emit_text(const std::string& output, const std::string& text, const std::string& what);

/// A result's verdict (docs/verdicts.md) on `out` (nullptr: the standard output):
/// "INDENTverdict: LINE", then each note (a reason of grade good) as "INDENTnote: TEXT (HINT)".
void print_verdict(const workflows::Verdict& v, const std::string& indent = "  ",
                   std::ostream* out = nullptr);

}  // namespace frictionlab::cli
