// frictionlab io: records from CSV files, and the file-type dispatch
// (include/frictionlab/io/record_io.hpp). The .mat part is in mat_io.cpp.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/record_io.hpp"

namespace frictionlab::io {
namespace {

constexpr std::string_view kRecordFile = "a record file (.csv or .mat)";

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "0: time, 1: position, ..." for a message: at most 8 columns, then "... and N more".
std::string numbered_names(const CsvTable& t) {
  constexpr std::size_t kShown = 8;
  std::string s;
  for (std::size_t i = 0; i < t.names.size() && i < kShown; ++i)
    s += (i ? ", " : "") + std::to_string(i) + ": " + printable_text(t.names[i], 40);
  if (t.names.size() > kShown)
    s += ", ... and " + std::to_string(t.names.size() - kShown) + " more";
  return s;
}

// The RecordSpec channels after time, in parse_record_csv's order (the options' names).
constexpr const char* kSpecChannelNames[] = {"position", "velocity", "current", "force",
                                             "temperature"};

// Column index of a spec: a name, or all digits = 0-based index.
std::size_t column_of(const CsvTable& t, const std::string& spec) {
  if (!all_digits(spec)) return t.index(spec);
  std::size_t idx = 0;
  for (char c : spec) {
    if (idx > 1'000'000) break;
    idx = idx * 10 + static_cast<std::size_t>(c - '0');
  }
  if (idx >= t.names.size())
    throw InputError(t.file, t.header_line, 0,
                     "column index " + printable_text(spec) + " out of range: the file has " +
                         std::to_string(t.names.size()) + " columns (0-based indices " +
                         numbered_names(t) + ")");
  return idx;
}

void check_csv_spec(const RecordSpec& spec, const std::string& file) {
  if (!spec.matrix.empty())
    throw std::invalid_argument("a matrix variable ('" + spec.matrix +
                                "') applies to .mat files only, not to the CSV file " + file);
  if (spec.time.empty() && spec.time_default.empty())
    throw std::invalid_argument("no time column given for " + file);
}

}  // namespace

data::Record parse_record_csv(std::string_view text, const std::string& file,
                              const RecordSpec& spec) {
  check_csv_spec(spec, file);
  const CsvTable table = parse_csv(text, file);
  if (table.row_lines.empty())
    throw InputError(
        file, table.header_line, 0,
        "the file has a header line (" + table.names_for_message() + ") but no data rows");
  data::Record r;
  r.source = file;
  const std::size_t tc = column_of(table, spec.time.empty() ? spec.time_default : spec.time);
  require_strictly_increasing(table, table.names[tc]);
  r.t = table.columns[tc];
  const std::pair<const std::string*, std::vector<double>*> channels[] = {
      {&spec.position, &r.position},
      {&spec.velocity, &r.velocity},
      {&spec.current, &r.current},
      {&spec.force, &r.force},
      {&spec.temperature, &r.temperature}};
  // Each channel its own column: the same column read as two channels (velocity and force,
  // say) is a mistake in the options, never a record.
  std::vector<std::pair<std::size_t, const char*>> used{{tc, "time"}};
  for (std::size_t k = 0; k < std::size(channels); ++k) {
    const std::string& s = *channels[k].first;
    if (s.empty()) continue;
    const std::size_t c = column_of(table, s);
    for (const auto& [other, name] : used)
      if (other == c)
        throw InputError(file, table.header_line, 0,
                         std::string(name) + " and " + kSpecChannelNames[k] +
                             " name the same column " + std::to_string(c) + " '" + table.names[c] +
                             "': each channel needs its own column");
    used.emplace_back(c, kSpecChannelNames[k]);
    *channels[k].second = table.columns[c];
  }
  return r;
}

data::Record read_record_csv(const std::string& path, const RecordSpec& spec) {
  check_csv_spec(spec, path);  // a spec error before any file error
  return parse_record_csv(read_text_file(path, kRecordFile, kMaxRecordFileBytes), path, spec);
}

data::Record read_record(const std::string& path, const RecordSpec& spec) {
  std::string ext;
  if (const auto dot = path.find_last_of('.');
      dot != std::string::npos && path.find_first_of("/\\", dot) == std::string::npos)
    ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "mat") return read_record_mat(path, spec);
  if (ext != "csv" && ext != "txt") {
    // Unknown extension: a MAT v5 / v7.3 file starts with its text header "MATLAB ...". Only
    // a regular file is opened to look (a FIFO would block the open).
    require_input_file(path, kRecordFile, kMaxRecordFileBytes);
    std::ifstream in(path, std::ios::binary);
    char head[6] = {};
    if (in && in.read(head, sizeof head) && std::string_view(head, sizeof head) == "MATLAB")
      return read_record_mat(path, spec);
  }
  return read_record_csv(path, spec);
}

}  // namespace frictionlab::io
