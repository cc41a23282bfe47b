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
#include <unordered_map>

#include "frictionlab/format.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/names.hpp"
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

std::string header_name(std::string_view raw, const std::string& file, long line, long col) {
  const std::string_view f = trim(raw);
  if (!f.empty() && f.front() == '"') {
    if (f.size() < 2 || f.back() != '"')
      throw InputError(file, line, col, "unterminated quote in column name " + quote_text(f));
    const std::string_view inner = f.substr(1, f.size() - 2);
    if (inner.find('"') != std::string_view::npos)
      throw InputError(file, line, col, "quote inside column name " + quote_text(f));
    if (inner.empty()) throw InputError(file, line, col, "empty column name");
    return std::string(inner);
  }
  if (f.find('"') != std::string_view::npos)
    throw InputError(file, line, col, "stray quote in column name " + quote_text(f));
  if (f.empty()) throw InputError(file, line, col, "empty column name");
  return std::string(f);
}

// The column names of a header line, checked: non-empty, unique (a hash set of the names seen:
// linear in the number of columns, 1,000,000 columns in about a second).
std::vector<std::string> header_names(const std::vector<std::string_view>& fields,
                                      const std::string& file, long line) {
  std::vector<std::string> names;
  names.reserve(fields.size());
  std::unordered_map<std::string_view, std::size_t> seen;
  seen.reserve(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const long col = static_cast<long>(i) + 1;
    names.push_back(header_name(fields[i], file, line, col));
    // (the views stay valid: `names` never reallocates after its reserve)
    const auto [at, fresh] = seen.emplace(names.back(), i);
    if (!fresh)
      throw InputError(file, line, col,
                       "duplicate column name " + quote_text(names.back()) + " (also column " +
                           std::to_string(at->second + 1) + ")");
  }
  return names;
}

// A header line that starts like JSON: name the JSON document's kind instead of reporting its
// first key as a column name.
[[noreturn]] void not_csv(std::string_view text, const std::string& file, long line) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    throw InputError(file, line, 1,
                     "expected a CSV header line (t,v,...), got text that starts "
                     "like JSON");
  const detail::JsonKind k = detail::json_kind(j);
  throw InputError(
      file, 0, 0,
      "this is " +
          (k == detail::JsonKind::unknown ? std::string("a JSON file") : detail::describe(k)) +
          ", not a CSV file");
}

double parse_cell(std::string_view raw, const std::string& file, long line, long col,
                  const std::string& column_name) {
  const std::string_view f = trim(raw);
  // The message is built only for a bad cell (a header of 10^6 columns has 10^6 per row).
  const auto fail = [&](const std::string& what) {
    throw InputError(file, line, col, what + " (column " + quote_text(column_name) + ")");
  };
  if (f.empty()) fail("empty cell");
  std::string_view num = f;
  if (num.front() == '+') {
    num.remove_prefix(1);
    if (num.empty() || num.front() == '+' || num.front() == '-')
      fail("not a number: " + quote_text(f));
  }
  double x = 0;
  const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), x);
  if (ec == std::errc::result_out_of_range)
    fail("number out of the range of double: " + quote_text(f));
  if (ec != std::errc() || ptr != num.data() + num.size()) fail("not a number: " + quote_text(f));
  if (!std::isfinite(x)) fail("non-finite value " + quote_text(f));
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
      "no column " + quote_text(name) + " (columns found: " + names_for_message() + ")");
}

std::string CsvTable::names_for_message() const { return join_names(names); }

const std::vector<double>& CsvTable::column(std::string_view name) const {
  return columns[index(name)];
}

CsvTable parse_csv(std::string_view text, const std::string& file, bool header) {
  require_text(text, file, "CSV");
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

    if (t.names.empty() && !header) {
      // No header: the columns are named by their 1-based numbers; this line is data.
      if (content.empty() || content.front() == '#') continue;
      const std::size_t count = split_fields(line).size();
      for (std::size_t c = 1; c <= count; ++c) t.names.push_back("column " + std::to_string(c));
      t.columns.resize(count);
    }
    if (t.header_line == 0 && header) {
      if (content.empty() || content.front() == '#') continue;
      t.header_line = line_no;
      if (content.front() == '{' || content.front() == '[') not_csv(text, file, line_no);
      const auto fields = split_fields(line);
      if (fields.size() == 1)
        for (const char d : {';', '\t', '|'})
          if (content.find(d) != std::string_view::npos)
            throw InputError(file, line_no, 0,
                             "one column named " + quote_text(content) +
                                 ": the columns seem to be "
                                 "separated by " +
                                 (d == '\t' ? std::string("tabs") : "'" + std::string(1, d) + "'") +
                                 "; frictionlab reads comma-separated "
                                 "values (t,v,F)");
      t.names = header_names(fields, file, line_no);
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
                           t.names_for_message() + "), found " + std::to_string(fields.size()));
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
      t.columns[i].push_back(
          parse_cell(fields[i], file, line_no, static_cast<long>(i) + 1, t.names[i]));
    t.row_lines.push_back(line_no);
  }
  if (!header && t.row_lines.empty())
    throw InputError(file, 0, 0, "no data rows (the file has only blank or comment lines)");
  if (t.header_line == 0 && header)
    throw InputError(file, 0, 0,
                     text.empty() ? "empty file: expected a header line"
                                  : "no header line (the file has only blank or comment lines)");
  return t;
}

namespace {

// "1 GiB", "256 MiB", "3.2 GiB": a size in binary units for messages.
std::string size_words(std::uintmax_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 0x1p30) return format_number(b / 0x1p30, 3) + " GiB";
  if (b >= 0x1p20) return format_number(b / 0x1p20, 3) + " MiB";
  return std::to_string(bytes) + " bytes";
}

[[noreturn]] void too_large(const std::string& path, std::string_view what, std::uintmax_t size,
                            std::uintmax_t max_bytes) {
  throw InputError(path, 0, 0,
                   "is " + std::to_string(size) + " bytes, more than the limit of " +
                       size_words(max_bytes) + " (" + std::to_string(max_bytes) + " bytes) for " +
                       std::string(what) + " (docs/file-formats.md, \"Limits\")");
}

// The file types an input must not be, in words (special_file_kind).
constexpr std::array<Named<std::filesystem::file_type>, 4> kSpecialFileKinds{{
    {std::filesystem::file_type::character, "a character device"},
    {std::filesystem::file_type::block, "a block device"},
    {std::filesystem::file_type::fifo, "a FIFO (named pipe)"},
    {std::filesystem::file_type::socket, "a socket"},
}};

// "a character device" for a file type that is not a regular file or a directory; "" for
// those and for a path that does not exist (the open reports it).
const char* special_file_kind(std::filesystem::file_type type) {
  return name_of(kSpecialFileKinds, type, "").data();
}

}  // namespace

std::uintmax_t require_input_file(const std::string& path, std::string_view what,
                                  std::uintmax_t max_bytes) {
  note_input(path);  // an output of this command must never be read as its input (io/output.hpp)
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows symbolic links; opens nothing
  if (st.type() == fs::file_type::directory)
    throw InputError(path, 0, 0, "is a directory, expected " + std::string(what));
  if (const std::string kind = special_file_kind(st.type()); !kind.empty())
    throw InputError(path, 0, 0,
                     "is " + kind + ", not a regular file: expected " + std::string(what) +
                         " (frictionlab reads its inputs from regular files, not from devices, "
                         "pipes or sockets)");
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(path, 0, 0, "cannot read its size: " + ec.message());
  if (size > max_bytes) too_large(path, what, size, max_bytes);
  return size;
}

std::string read_text_file(const std::string& path, std::string_view what,
                           std::uintmax_t max_bytes) {
  const std::uintmax_t size = require_input_file(path, what, max_bytes);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  // Read in blocks up to the limit: a file that grows while it is read (a log being written)
  // stops at the limit rather than filling the memory.
  std::array<char, 1 << 16> block{};
  while (in.read(block.data(), block.size()) || in.gcount() > 0) {
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw InputError(path, 0, 0,
                       "grew past the limit of " + size_words(max_bytes) + " for " +
                           std::string(what) +
                           " while it was read (docs/file-formats.md, "
                           "\"Limits\")");
  }
  if (in.bad()) throw InputError(path, 0, 0, "read error");
  return text;
}

namespace {

// What a binary text is, from its first bytes: "MATLAB .mat?", ... ; "" when none is known.
std::string binary_signature(std::string_view text) {
  const auto starts = [&](std::string_view magic) { return text.substr(0, magic.size()) == magic; };
  if (starts("MATLAB ") && text.substr(0, 20).find("MAT-file") != std::string_view::npos)
    return "MATLAB .mat?";
  if (starts("\x89HDF\r\n\x1A\n")) return "HDF5: a MATLAB v7.3 .mat?";
  if (starts("\x1F\x8B")) return "gzip-compressed?";
  if (starts("PK\x03\x04")) return "a zip archive?";
  return "";
}

}  // namespace

void require_text(std::string_view text, const std::string& file, std::string_view kind) {
  const std::string k(kind);
  if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF")
    throw InputError(
        file, 0, 0,
        "is UTF-16 text (it starts with a UTF-16 byte-order mark); frictionlab reads " + k +
            " as UTF-8: save it as UTF-8");
  const std::string signature = binary_signature(text);
  const std::size_t nul = text.substr(0, 1024).find('\0');
  if (signature.empty() && nul == std::string_view::npos) return;
  const std::string why =
      signature.empty() ? "a NUL byte at byte " + std::to_string(nul + 1) : signature;
  std::string hint = "frictionlab reads " + k + " files as UTF-8 text";
  if (signature.find(".mat") != std::string::npos)
    hint = "a MATLAB record is read as one when its name ends in .mat";
  throw InputError(file, 0, 0,
                   "looks like a binary file (" + why + "), not " + k + " text; " + hint);
}

void write_text_file(const std::string& path, std::string_view text) {
  write_file_atomic(path, text);
}

void make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError(path, 0, 0, "cannot create the directory: " + ec.message());
}

CsvTable read_csv(const std::string& path, bool header) {
  return parse_csv(read_text_file(path, "a CSV file", kMaxRecordFileBytes), path, header);
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
