// frictionlab: strict CSV reader and round-trip writer (rules in include/frictionlab/io/csv.hpp).
#include "frictionlab/io/csv.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "frictionlab/format.hpp"
#include "frictionlab/io/output.hpp"
#include "json_fields.hpp"

namespace frictionlab::io {
namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(line.substr(start));
      return out;
    }
    out.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
}


// Show a field in a message: quoted, shortened if very long.
std::string show(std::string_view field) {
  constexpr std::size_t kMax = 40;
  if (field.size() > kMax) return "'" + std::string(field.substr(0, kMax)) + "...'";
  return "'" + std::string(field) + "'";
}

std::string header_name(std::string_view raw, const std::string& file, long line, long col) {
  const std::string_view f = trim(raw);
  if (!f.empty() && f.front() == '"') {
    if (f.size() < 2 || f.back() != '"')
      throw InputError(file, line, col, "unterminated quote in column name " + show(f));
    const std::string_view inner = f.substr(1, f.size() - 2);
    if (inner.find('"') != std::string_view::npos)
      throw InputError(file, line, col, "quote inside column name " + show(f));
    if (inner.empty()) throw InputError(file, line, col, "empty column name");
    return std::string(inner);
  }
  if (f.find('"') != std::string_view::npos)
    throw InputError(file, line, col, "stray quote in column name " + show(f));
  if (f.empty()) throw InputError(file, line, col, "empty column name");
  return std::string(f);
}

// A header line that starts like JSON: name the JSON document's kind instead of reporting its
// first key as a column name.
[[noreturn]] void not_csv(std::string_view text, const std::string& file, long line) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    throw InputError(file, line, 1, "expected a CSV header line (t,v,...), got text that starts "
                                    "like JSON");
  const detail::JsonKind k = detail::json_kind(j);
  throw InputError(file, 0, 0,
                   "this is " + (k == detail::JsonKind::unknown ? std::string("a JSON file")
                                                                 : detail::describe(k)) +
                       ", not a CSV file");
}

double parse_cell(std::string_view raw, const std::string& file, long line, long col,
                  const std::string& column_name) {
  const std::string_view f = trim(raw);
  const std::string where = " (column '" + column_name + "')";
  if (f.empty()) throw InputError(file, line, col, "empty cell" + where);
  std::string_view num = f;
  if (num.front() == '+') {
    num.remove_prefix(1);
    if (num.empty() || num.front() == '+' || num.front() == '-')
      throw InputError(file, line, col, "not a number: " + show(f) + where);
  }
  double x = 0;
  const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), x);
  if (ec == std::errc::result_out_of_range)
    throw InputError(file, line, col, "number out of the range of double: " + show(f) + where);
  if (ec != std::errc() || ptr != num.data() + num.size())
    throw InputError(file, line, col, "not a number: " + show(f) + where);
  if (!std::isfinite(x)) throw InputError(file, line, col, "non-finite value " + show(f) + where);
  return x;
}

}  // namespace

bool CsvTable::has(std::string_view name) const noexcept {
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

std::size_t CsvTable::index(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  throw InputError(
      file, header_line, 0,
      "no column '" + std::string(name) + "' (columns found: " + join_list(names) + ")");
}

const std::vector<double>& CsvTable::column(std::string_view name) const {
  return columns[index(name)];
}

CsvTable parse_csv(std::string_view text, const std::string& file) {
  CsvTable t;
  t.file = file;
  // UTF-8 byte-order mark (spreadsheet exports).
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

  long line_no = 0;
  long first_blank = 0;  // first blank line after the header (allowed only at the end)
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view content = trim(line);

    if (t.header_line == 0) {
      if (content.empty() || content.front() == '#') continue;
      t.header_line = line_no;
      if (content.front() == '{' || content.front() == '[') not_csv(text, file, line_no);
      const auto fields = split_fields(line);
      if (fields.size() == 1)
        for (const char d : {';', '\t', '|'})
          if (content.find(d) != std::string_view::npos)
            throw InputError(file, line_no, 0,
                             "one column named " + show(content) + ": the columns seem to be "
                             "separated by " + (d == '\t' ? std::string("tabs") : "'" +
                             std::string(1, d) + "'") + "; frictionlab reads comma-separated "
                             "values (t,v,F)");
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const long col = static_cast<long>(i) + 1;
        std::string name = header_name(fields[i], file, line_no, col);
        for (std::size_t j = 0; j < t.names.size(); ++j)
          if (t.names[j] == name)
            throw InputError(
                file, line_no, col,
                "duplicate column name '" + name + "' (also column " + std::to_string(j + 1) + ")");
        t.names.push_back(std::move(name));
      }
      t.columns.resize(t.names.size());
      continue;
    }

    if (content.empty()) {
      if (first_blank == 0) first_blank = line_no;
      continue;
    }
    if (first_blank != 0)
      throw InputError(file, first_blank, 0,
                       "blank line inside the data (blank lines are allowed only at the end of "
                       "the file)");
    if (content.front() == '#')
      throw InputError(file, line_no, 0, "comment lines are allowed only before the header");

    const auto fields = split_fields(line);
    if (fields.size() != t.names.size()) {
      const long col = static_cast<long>(std::min(fields.size(), t.names.size())) + 1;
      throw InputError(file, line_no, col,
                       "expected " + std::to_string(t.names.size()) + " fields (" +
                           join_list(t.names) + "), found " + std::to_string(fields.size()));
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
      t.columns[i].push_back(
          parse_cell(fields[i], file, line_no, static_cast<long>(i) + 1, t.names[i]));
    t.row_lines.push_back(line_no);
  }
  if (t.header_line == 0)
    throw InputError(file, 0, 0,
                     text.empty() ? "empty file: expected a header line"
                                  : "no header line (the file has only blank or comment lines)");
  return t;
}

void require_input_file(const std::string& path, std::string_view what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, 0, 0, "is a directory, expected " + std::string(what));
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
}

std::string read_text_file(const std::string& path, std::string_view what) {
  require_input_file(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, 0, "read error");
  return ss.str();
}

void write_text_file(const std::string& path, std::string_view text) {
  write_file_atomic(path, text);
}

void make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError(path, 0, 0, "cannot create the directory: " + ec.message());
}

CsvTable read_csv(const std::string& path) {
  return parse_csv(read_text_file(path, "a CSV file"), path);
}

void require_strictly_increasing(const CsvTable& table, std::string_view name) {
  const std::size_t c = table.index(name);
  const auto& x = table.columns[c];
  for (std::size_t r = 1; r < x.size(); ++r) {
    if (!(x[r] > x[r - 1]))
      throw InputError(table.file, table.row_lines[r], static_cast<long>(c) + 1,
                       "column '" + std::string(name) + "' must be strictly increasing: " +
                           format_exact(x[r]) + " follows " + format_exact(x[r - 1]) + " (line " +
                           std::to_string(table.row_lines[r - 1]) + ")");
  }
}

std::string format_csv(const std::vector<std::string>& names,
                       const std::vector<const std::vector<double>*>& columns) {
  if (names.size() != columns.size())
    throw std::invalid_argument("format_csv: " + std::to_string(names.size()) + " names for " +
                                std::to_string(columns.size()) + " columns");
  if (names.empty()) throw std::invalid_argument("format_csv: no columns");
  const std::size_t n = columns[0]->size();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (names[c].empty() || names[c].find_first_of(",\"\r\n") != std::string::npos)
      throw std::invalid_argument("format_csv: invalid column name '" + names[c] + "'");
    if (columns[c]->size() != n)
      throw std::invalid_argument("format_csv: column '" + names[c] + "' has " +
                                  std::to_string(columns[c]->size()) + " rows, column '" +
                                  names[0] + "' has " + std::to_string(n));
  }
  std::string s;
  s.reserve((n + 1) * columns.size() * 12);
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (c) s += ',';
    s += names[c];
  }
  s += '\n';
  std::array<char, 32> buf{};
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double x = (*columns[c])[r];
      if (!std::isfinite(x))
        throw std::invalid_argument("format_csv: non-finite value " + format_exact(x) +
                                    " in column '" + names[c] + "', row " + std::to_string(r + 1));
      if (c) s += ',';
      const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), x);
      if (ec != std::errc()) throw std::logic_error("format_csv: to_chars failed");
      s.append(buf.data(), ptr);
    }
    s += '\n';
  }
  return s;
}

void write_csv(const std::string& path, const std::vector<std::string>& names,
               const std::vector<const std::vector<double>*>& columns) {
  write_text_output(path, format_csv(names, columns));
}

}  // namespace frictionlab::io
