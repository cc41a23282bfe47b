// frictionlab CLI: the list of subcommands (commands.hpp, Registered): each lives in its own file
// and adds one line here.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::cli {

void register_simulate(CLI::App& app, Registry& registry);          // simulate.cpp
void register_fit(CLI::App& app, Registry& registry);               // fit.cpp
void register_compare(CLI::App& app, Registry& registry);           // compare.cpp
void register_export(CLI::App& app, Registry& registry);            // export.cpp (and export xml)
void register_demo(CLI::App& app, Registry& registry);              // demo.cpp
void register_fit_actuator(CLI::App& app, Registry& registry);      // fit_actuator.cpp
void register_export_estimator(CLI::App& app, Registry& registry);  // export_estimator.cpp
void register_fit_joint(CLI::App& app, Registry& registry);        // fit_joint.cpp (and eval-joint)
void register_report(CLI::App& app, Registry& registry);           // report.cpp
void register_export_actuator(CLI::App& app, Registry& registry);  // export_actuator.cpp
void register_fleet(CLI::App& app, Registry& registry);            // fleet.cpp
void register_fit_robot(CLI::App& app, Registry& registry);        // fit_robot.cpp
void register_excite(CLI::App& app, Registry& registry);           // excite.cpp
void register_export_robot(CLI::App& app, Registry& registry);     // export_robot.cpp

namespace {
std::string& stored_command_line() {
  static std::string s;
  return s;
}
}  // namespace

CLI::App* add_registered(CLI::App& parent, Registry& registry, const std::string& name,
                         const std::string& description, std::function<void()> run) {
  CLI::App* cmd = parent.add_subcommand(name, description);
  registry.push_back({cmd, std::move(run)});
  return cmd;
}

void set_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    std::string a = i == 0 ? std::string("frictionlab") : std::string(argv[i]);
    const bool plain =
        !a.empty() &&
        a.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+@%") ==
            std::string::npos;
    if (!plain) {
      std::string q = "'";
      for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      a = q + "'";
    }
    s += (i == 0 ? "" : " ") + a;
  }
  stored_command_line() = s;
}

frictionlab::io::ReportOptions report_options() {
  frictionlab::io::ReportOptions o;
  o.generator = std::string("frictionlab ") + FRICTIONLAB_VERSION;
  o.command = stored_command_line();
  return o;
}

void check_report_output(const std::string& report,
                         const std::vector<frictionlab::io::NamedPath>& inputs) {
  if (report.empty()) return;
  frictionlab::io::check_output_file(report, "--report");
  frictionlab::io::check_outputs_not_inputs(inputs, {{"--report", report}});
}

void check_result_files(const std::vector<std::string>& files, const std::string& report,
                        const std::vector<frictionlab::io::NamedPath>& inputs) {
  std::vector<frictionlab::io::NamedPath> outputs;
  for (const auto& f : files) {
    frictionlab::io::check_output_in_directory(f, "--out");
    outputs.push_back({"--out", f});
  }
  if (!report.empty()) outputs.push_back({"--report", report});
  frictionlab::io::check_outputs_distinct(outputs);
  frictionlab::io::check_outputs_not_inputs(inputs, outputs);
}

void emit_text(const std::string& output, const std::string& text, const std::string& what) {
  if (output.empty() || frictionlab::io::is_stdout(output)) {
    frictionlab::io::write_text_output(std::string(frictionlab::io::kStdout), text);
  } else {
    frictionlab::io::write_text_output(output, text);
    print_written(output, what);
  }
}

void register_commands(CLI::App& app, Registry& registry) {
  // In the order of `frictionlab --help`.
  register_simulate(app, registry);
  register_fit(app, registry);
  register_compare(app, registry);
  register_export(app, registry);  // before export_estimator and export_actuator: they extend it
  register_demo(app, registry);
  register_report(app, registry);
  register_fit_joint(app, registry);
  register_fit_robot(app, registry);
  register_excite(app, registry);
  register_fit_actuator(app, registry);
  register_export_estimator(app, registry);
  register_export_actuator(app, registry);  // after export_estimator: it extends `export mujoco`
  register_export_robot(app, registry);     // after export: it adds `export robot`
  register_fleet(app, registry);
}

CLI::Option* add_out_option(CLI::App* cmd, std::string& out, const std::string& help) {
  return cmd->add_option("--out", out, help)->type_name("DIR")->capture_default_str();
}

CLI::Option* add_report_option(CLI::App* cmd, std::string& report) {
  return cmd
      ->add_option("--report", report,
                   "Also write the report: one self-contained HTML page (docs/report.md)")
      ->type_name("FILE.html");
}

void print_verdict(const workflows::Verdict& v, const std::string& indent, std::ostream* out) {
  std::ostream& o = out ? *out : std::cout;
  o << indent << "verdict: " << v.line() << '\n';
  for (const auto& r : v.reasons)
    if (r.grade == workflows::Grade::good)
      o << indent << "note: " << r.text << (r.hint.empty() ? "" : " (" + r.hint + ")") << '\n';
}

}  // namespace frictionlab::cli
