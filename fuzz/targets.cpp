// frictionlab fuzz targets: see targets.hpp.
#include "targets.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/lugre_xml.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/io/simulate_io.hpp"
#include "frictionlab/io/system_json.hpp"

namespace frictionlab::fuzz {
namespace {

/// A check on what a reader accepted; a failure is a finding.
void require(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "frictionlab fuzz: check failed: %s\n", what.c_str());
  std::abort();
}

void require_finite(const std::vector<double>& x, const std::string& what) {
  for (double v : x) require(std::isfinite(v), what + " has a non-finite value");
}

void require_increasing(const std::vector<double>& x, const std::string& what) {
  for (std::size_t i = 1; i < x.size(); ++i)
    require(x[i] > x[i - 1], what + " is not strictly increasing");
}

/// Run a reader whose InputError is not the end of the target (several readers of one input).
template <class F>
void rejected_or(F&& f) {
  try {
    f();
  } catch (const io::InputError&) {
  }
}

// ---- CSV: the table reader, the record reader and simulate's input reader ----
void run_csv(std::string_view input) {
  const std::string file = "fuzz.csv";
  const io::CsvTable table = io::parse_csv(input, file);
  require(table.columns.size() == table.names.size(), "one column per name");
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    require(!table.names[c].empty(), "column names are not empty");
    require(table.columns[c].size() == table.rows(), "every column has rows() values");
    require_finite(table.columns[c], std::string("column ") + table.names[c]);
    for (std::size_t d = 0; d < c; ++d) require(table.names[c] != table.names[d], "unique names");
  }
  for (std::size_t r = 0; r < table.rows(); ++r)
    require(table.row_lines[r] > table.header_line &&
                (r == 0 || table.row_lines[r] > table.row_lines[r - 1]),
            "row lines increase after the header");
  // The writer's text reads back bit-exactly (names of its own: any reader-accepted name is not
  // necessarily writable, e.g. a quoted "#x" that would start a comment line).
  std::vector<std::string> names;
  std::vector<const std::vector<double>*> columns;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    names.push_back(std::to_string(c));
    names.back().insert(0, 1, 'c');  // (not "c" + ...: a false -Wrestrict of GCC 12)
    columns.push_back(&table.columns[c]);
  }
  if (!names.empty()) {
    const io::CsvTable back = io::parse_csv(io::format_csv(names, columns), "round-trip.csv");
    require(back.names == names && back.columns == table.columns, "CSV round trip");
  }
  rejected_or([&] { io::require_strictly_increasing(table, table.names.at(0)); });

  for (const io::RecordSpec& spec :
       {io::RecordSpec{.time = "0", .velocity = "1"},
        io::RecordSpec{
            .position = "x", .velocity = "v", .current = "i", .force = "F", .time_default = "t"}}) {
    rejected_or([&] {
      const data::Record rec = io::parse_record_csv(input, file, spec);
      require_increasing(rec.t, "record time");
      for (const auto* ch : {&rec.position, &rec.velocity, &rec.current, &rec.force}) {
        require(ch->empty() || ch->size() == rec.t.size(), "record channels as long as t");
        require_finite(*ch, "record channel");
      }
    });
  }
  rejected_or([&] {
    const workflows::ModelInput in = io::parse_model_input(input, file);
    require(in.t.size() >= 2, "simulate input has 2 rows");
    require_increasing(in.t, "simulate input t");
    require((in.v.empty() != in.x.empty()) && in.v.size() + in.x.size() == in.t.size(),
            "simulate input has v or x");
  });
}

// ---- MODEL.json ----
void run_model_json(std::string_view input) {
  const io::ModelFile m = io::parse_model_json(input, "fuzz.json");
  const std::string text = io::to_json_text(m.spec);
  const io::ModelFile back = io::parse_model_json(text, "round-trip.json");
  require(io::to_json_text(back.spec) == text, "MODEL.json round trip:\n" + text);
}

// ---- SYSTEM.json (a torque_csv is looked for beside fuzz/SYSTEM.json, where there is none) ----
void run_system_json(std::string_view input) {
  const io::SystemFile s = io::parse_system_json(input, "fuzz-nonexistent/SYSTEM.json");
  require(!s.friction_model.empty(), "SYSTEM.json names its friction model");
}

// ---- what export reads: fit.json, ESTIMATOR.json, MODEL.json ----
void run_friction_source(std::string_view input) {
  const io::FrictionSource s = io::parse_friction_source(input, "fuzz.json");
  const std::string model = io::to_json_text(s.spec);
  require(io::to_json_text(io::parse_model_json(model, "round-trip.json").spec) == model,
          "model of a friction source round trip:\n" + model);
  rejected_or([&] {
    const io::ExportText json = io::export_json(s, {});
    // An ESTIMATOR.json that export writes is one export reads, with the same parameters.
    const io::FrictionSource again = io::parse_friction_source(json.text, "round-trip.json");
    require(io::export_json(again, {}).text.size() > 0, "ESTIMATOR.json round trip");
    io::CExportOptions c;
    require(!io::export_c(s, c).source.empty(), "C export has a source");
  });
  try {
    require(!io::export_mujoco(s, {}).xml.empty(), "MJCF fragment is not empty");
  } catch (const std::invalid_argument&) {
    // documented: a model MuJoCo has no equivalent of
  }
}

// ---- fit.json -> the LUGRE group (export xml) ----
void run_lugre_group(std::string_view input) {
  const io::LugreGroup g = io::parse_lugre_group(input, "fuzz.json");
  require(!io::lugre_group_xml(g, "fuzz.json").empty(), "LUGRE group XML");
}

// ---- JOINT.json / joint_fit.json, and CONTROLLER.json ----
void run_joint_json(std::string_view input) {
  rejected_or([&] { (void)io::parse_controller_json(input, "fuzz.json"); });
  const io::JointFile j = io::parse_joint_json(input, "fuzz.json");
  const std::string text = io::joint_to_json(j.model).dump();
  const io::JointFile back = io::joint_from_json(nlohmann::json::parse(text), "round-trip.json");
  require(io::joint_to_json(back.model).dump() == text, "JOINT.json round trip:\n" + text);
}

// ---- BAM servo logs ----
void run_servo_log(std::string_view input) {
  const io::ServoLogRead r = io::parse_servo_log(input, "fuzz.json");
  require_finite(r.log.timestamp, "servo log timestamps");
}

// ---- BAM actuator parameter files ----
void run_servo_params(std::string_view input) {
  const sim::ServoSetup s = io::parse_servo_params(input, "fuzz.json");
  const std::string text = io::servo_params_json(s);
  require(io::servo_params_json(io::parse_servo_params(text, "round-trip.json")) == text,
          "parameter file round trip:\n" + text);
}

// ---- .mat records (v4, v5, v7.3 via libmatio): matio reads files, so the input is written to
// an anonymous in-memory file and read through its /proc/self/fd path ----
std::string mat_path(std::string_view input) {
  static const int fd = memfd_create("frictionlab-fuzz.mat", MFD_CLOEXEC);
  if (fd < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  if (ftruncate(fd, 0) != 0 ||
      pwrite(fd, input.data(), input.size(), 0) != static_cast<ssize_t>(input.size())) {
    std::perror("writing the .mat input");
    std::abort();
  }
  return std::string("/proc/self/fd/") + std::to_string(fd);
}

void run_mat(std::string_view input) {
  const std::string path = mat_path(input);
  rejected_or([&] { (void)io::mat_variable_names(path); });
  const auto read = [&](const io::RecordSpec& spec) {
    const data::Record rec = io::read_record_mat(path, spec);
    require_increasing(rec.t, ".mat record time");
    for (const auto* ch : {&rec.position, &rec.velocity, &rec.current, &rec.force}) {
      require(ch->empty() || ch->size() == rec.t.size(), ".mat channels as long as t");
      require_finite(*ch, ".mat channel");
    }
  };
  rejected_or([&] { read({.time = "t", .velocity = "v"}); });
  rejected_or([&] { read({.matrix = "data"}); });
  read({});  // the default spec last: its InputError is the target's
}

}  // namespace

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"csv", "CSV tables, records (read_record) and simulate's input", run_csv},
      {"model_json", "MODEL.json", run_model_json},
      {"system_json", "SYSTEM.json", run_system_json},
      {"friction_source", "fit.json, ESTIMATOR.json, MODEL.json as export reads them",
       run_friction_source},
      {"lugre_group", "fit.json as export xml reads it", run_lugre_group},
      {"joint_json", "JOINT.json, joint_fit.json, CONTROLLER.json", run_joint_json},
      {"servo_log", "BAM servo logs", run_servo_log},
      {"servo_params", "BAM actuator parameter files", run_servo_params},
      {"mat", ".mat records (v4, v5, v7.3)", run_mat},
  };
  return all;
}

const Target& target(std::string_view name) {
  for (const Target& t : targets())
    if (name == t.name) return t;
  throw std::invalid_argument("no fuzz target '" + std::string(name) + "'");
}

}  // namespace frictionlab::fuzz
