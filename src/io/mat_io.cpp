// frictionlab io: records from MATLAB .mat files and the .mat writer, via libmatio
// (include/frictionlab/io/record_io.hpp; docs/file-formats.md, "Measured records").
#include <matio.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/record_io.hpp"

namespace frictionlab::io {
namespace {

struct MatClose {
  void operator()(mat_t* m) const noexcept { Mat_Close(m); }
};
struct VarFree {
  void operator()(matvar_t* v) const noexcept { Mat_VarFree(v); }
};
using MatPtr = std::unique_ptr<mat_t, MatClose>;
using VarPtr = std::unique_ptr<matvar_t, VarFree>;

const char* const kNotMat =
    "not a MATLAB .mat file (libmatio reads versions 4, 5 and 7.3) or it is damaged";

std::uint32_t read_u32(const unsigned char* b, bool big_endian) {
  return big_endian ? (std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 |
                       std::uint32_t{b[2]} << 8 | b[3])
                    : (std::uint32_t{b[3]} << 24 | std::uint32_t{b[2]} << 16 |
                       std::uint32_t{b[1]} << 8 | b[0]);
}

// A Level 4 type code MOPT: M machine 0-4, O 0, P precision 0-5, T 0 full, 1 text, 2 sparse.
bool v4_type(std::uint32_t type) {
  return type < 5000 && (type % 1000) / 100 == 0 && (type % 100) / 10 <= 5 && type % 10 <= 2;
}

// libmatio trusts the sizes of a v5 file too: a variable whose dimensions claim more elements
// than its bytes could hold makes it allocate and clear that much memory. So the data elements
// are walked (uncompressed ones down to every nested array; a compressed one is inflated by
// libmatio unchecked): each must lie within its parent, and an
// array's element count must not exceed its bytes (nor a sparse one's column count).
void check_v5_elements(std::ifstream& in, const std::string& path, bool big,
                       unsigned long long begin, unsigned long long end, int depth) {
  const auto damaged = [&](unsigned long long at, const std::string& what) {
    throw InputError(
        path, 0, 0,
        std::string(kNotMat) + " (data element at byte " + std::to_string(at) + ": " + what + ")");
  };
  if (depth > 64) damaged(begin, "arrays nested over 64 deep");
  int index = 0;  // of a miMATRIX's subelements: 0 array flags, 1 dimensions
  unsigned array_class = 0;
  for (unsigned long long at = begin; at < end;) {
    unsigned char b[8];
    in.seekg(static_cast<std::streamoff>(at));
    if (end - at < 8 || !in.read(reinterpret_cast<char*>(b), 8)) damaged(at, "truncated tag");
    std::uint32_t type = read_u32(b, big);
    unsigned long long bytes = read_u32(b + 4, big);
    unsigned long long next = 0;
    if (depth > 0 && (type >> 16) != 0) {  // small data element: data in the tag's 4 bytes
      bytes = type >> 16;
      type &= 0xFFFF;
      if (bytes > 4) damaged(at, "small element of " + std::to_string(bytes) + " bytes");
      next = at + 8;
    } else {
      if (bytes > end - at - 8)
        damaged(at, std::to_string(bytes) + " bytes would end past the end of its " +
                        (depth == 0 ? std::string("file") : std::string("array")));
      next = at + 8 + bytes;
      if (depth > 0) next = std::min(end, (next + 7) / 8 * 8);
    }
    if (depth > 0 && index == 0) {  // array flags: the class in the low byte of the first word
      unsigned char f[4] = {};
      in.read(reinterpret_cast<char*>(f), 4);
      array_class = read_u32(f, big) & 0xFF;
    } else if (depth > 0 && index == 1) {  // dimensions: miINT32, at least 2
      if (type != 5 || bytes < 8 || bytes % 4 != 0)
        damaged(at, "dimensions are not an int32 element of 2 or more values");
      long double count = 1, columns = 0;
      for (unsigned long long k = 0; k + 4 <= bytes; k += 4) {
        unsigned char d[4] = {};
        in.read(reinterpret_cast<char*>(d), 4);
        count *= read_u32(d, big);
        if (k == 4) columns = read_u32(d, big);
      }
      // Every element is stored in at least one byte (a cell's or struct's in a tag of 8); a
      // sparse matrix (class 5) stores a column index per column.
      if (array_class == 5) count = columns;
      if (count > static_cast<long double>(end - begin))
        damaged(at, "dimensions of " + format_exact(static_cast<double>(count)) +
                        " elements in an array of " + std::to_string(end - begin) + " bytes");
    } else if (type == 14 && bytes > 0) {  // miMATRIX: a (nested) array
      check_v5_elements(in, path, big, at + 8, at + 8 + bytes, depth + 1);
    }
    ++index;
    at = next;
  }
  // A sparse array: flags, dimensions, name, row indices, column indices, values (libmatio read
  // the elements after a sparse array missing some as its indices, and allocated what they said).
  if (depth > 0 && array_class == 5 && index < 6)
    damaged(begin, "sparse array without its row indices, column indices and values");
  in.clear();
}

// libmatio takes every file without a v5/v7.3 header for a Level 4 file and trusts its variable
// headers: a name length or a matrix size larger than the file makes it allocate and clear that
// much memory (gigabytes, seconds) before it fails. So the variable headers of such a file are
// walked first, each one's name and data required to lie within the file.
void check_v4_layout(std::ifstream& in, const std::string& path) {
  in.seekg(0, std::ios::end);
  const auto size = static_cast<unsigned long long>(in.tellg());
  unsigned char head[128] = {};
  in.seekg(0);
  in.read(reinterpret_cast<char*>(head), sizeof head);
  // v5 and v7.3: a 128-byte header whose version (bytes 124-125) is 0x0100 or 0x0200 and whose
  // bytes 126-127 are the endian indicator "IM" or "MI".
  // Anything else, a v5 header with another version included, libmatio reads as Level 4.
  const bool big_header = head[126] == 'M';
  const unsigned version = big_header ? (head[124] << 8 | head[125]) : (head[125] << 8 | head[124]);
  if (in.gcount() == 128 &&
      ((head[126] == 'I' && head[127] == 'M') || (head[126] == 'M' && head[127] == 'I')) &&
      (version == 0x0100 || version == 0x0200)) {
    // v5; v7.3 (0x0200) is an HDF5 file, read by libhdf5.
    if (version == 0x0100) check_v5_elements(in, path, big_header, 128, size, 0);
    return;
  }
  in.clear();
  unsigned long long offset = 0;
  for (int index = 1; offset < size; ++index) {
    const std::string where =
        "Level 4 variable " + std::to_string(index) + " at byte " + std::to_string(offset) + ": ";
    unsigned char b[20];
    in.seekg(static_cast<std::streamoff>(offset));
    // Not even a first variable header: not a MAT file (the plain message).
    const auto not_v4 = [&](const char* what) {
      throw InputError(
          path, 0, 0,
          index == 1 ? std::string(kNotMat) : std::string(kNotMat) + " (" + where + what + ")");
    };
    if (size - offset < 20 || !in.read(reinterpret_cast<char*>(b), 20)) not_v4("truncated header");
    bool big = false;
    if (!v4_type(read_u32(b, false))) {
      big = true;
      if (!v4_type(read_u32(b, true))) not_v4("no valid type code");
    }
    const std::uint32_t type = read_u32(b, big), rows = read_u32(b + 4, big),
                        cols = read_u32(b + 8, big), imag = read_u32(b + 12, big),
                        name_len = read_u32(b + 16, big);
    static constexpr unsigned kBytes[] = {8, 4, 4, 2, 2, 1};  // by precision P
    // At most 2^32 * 2^32 * 8 * 2 = 2^68: computed in long double, compared with the file size.
    const long double data = static_cast<long double>(rows) * cols * kBytes[(type % 100) / 10] *
                             (imag != 0 && type % 10 == 0 ? 2 : 1);
    const long double end = static_cast<long double>(offset) + 20 + name_len + data;
    // (an empty 0 x N matrix with N beyond the file size made libmatio clear N elements too)
    if (name_len == 0 || imag > 1 || end > static_cast<long double>(size) || rows > size ||
        cols > size)
      throw InputError(path, 0, 0,
                       std::string(kNotMat) + " (" + where +
                           "its name and data would end at byte " +
                           format_exact(static_cast<double>(end)) + ", past the end of the file (" +
                           std::to_string(size) + " bytes))");
    offset = static_cast<unsigned long long>(end);
  }
}

MatPtr open_mat(const std::string& path) {
  require_input_file(path, "a MATLAB .mat file", kMaxRecordFileBytes);
  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
    check_v4_layout(probe, path);
  }
  MatPtr m(Mat_Open(path.c_str(), MAT_ACC_RDONLY));
  if (!m) throw InputError(path, 0, 0, kNotMat);
  return m;
}

std::vector<std::string> dir_of(mat_t* m, const std::string& path) {
  size_t n = 0;
  char* const* dir = Mat_GetDir(m, &n);
  if (!dir && n != 0) throw InputError(path, 0, 0, "cannot list the variables");
  std::vector<std::string> names;
  for (size_t k = 0; k < n; ++k)
    if (dir[k]) names.emplace_back(dir[k]);
  return names;
}

// Variable names for a message: at most 8, each printable (join_names).
std::string join(const std::vector<std::string>& v) {
  return v.empty() ? std::string("none") : join_names(v);
}

std::string shape_string(const std::vector<std::size_t>& dims) {
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(dims[i]);
  }
  return s.empty() ? std::string("0x0") : s;
}

std::string shape_of(const matvar_t* v) {
  std::vector<std::size_t> dims;
  for (int i = 0; i < v->rank; ++i) dims.push_back(v->dims[i]);
  return shape_string(dims);
}

std::size_t numel(const matvar_t* v) {
  std::size_t n = v->rank > 0 ? 1 : 0;
  for (int i = 0; i < v->rank; ++i) n *= v->dims[i];
  return n;
}

const char* class_name(const matvar_t* v) {
  if (v->isLogical) return "logical";
  switch (v->class_type) {
    case MAT_C_EMPTY:
      return "empty";
    case MAT_C_CELL:
      return "cell";
    case MAT_C_STRUCT:
      return "struct";
    case MAT_C_OBJECT:
      return "object";
    case MAT_C_CHAR:
      return "char";
    case MAT_C_SPARSE:
      return "sparse";
    case MAT_C_DOUBLE:
      return "double";
    case MAT_C_SINGLE:
      return "single";
    case MAT_C_INT8:
      return "int8";
    case MAT_C_UINT8:
      return "uint8";
    case MAT_C_INT16:
      return "int16";
    case MAT_C_UINT16:
      return "uint16";
    case MAT_C_INT32:
      return "int32";
    case MAT_C_UINT32:
      return "uint32";
    case MAT_C_INT64:
      return "int64";
    case MAT_C_UINT64:
      return "uint64";
    case MAT_C_FUNCTION:
      return "function handle";
    case MAT_C_OPAQUE:
      return "opaque";
  }
  return "unknown";
}

bool numeric_class(const matvar_t* v) {
  switch (v->class_type) {
    case MAT_C_DOUBLE:
    case MAT_C_SINGLE:
    case MAT_C_INT8:
    case MAT_C_UINT8:
    case MAT_C_INT16:
    case MAT_C_UINT16:
    case MAT_C_INT32:
    case MAT_C_UINT32:
    case MAT_C_INT64:
    case MAT_C_UINT64:
      return true;
    default:
      return false;
  }
}

std::string matlab_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Inf" : "-Inf";
  return format_exact(x);
}

[[noreturn]] void fail(const std::string& path, const std::string& var, const std::string& msg) {
  throw InputError(path, 0, 0, "variable " + quote_text(var) + ": " + msg);
}

template <class T>
std::vector<double> convert(const void* data, std::size_t n) {
  const T* p = static_cast<const T*>(data);
  std::vector<double> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = static_cast<double>(p[k]);
  return out;
}

// A variable read and checked to be a real, full, non-empty numeric array; values as doubles in
// MATLAB (column-major) order.
struct NumericArray {
  std::vector<std::size_t> dims;
  std::vector<double> values;
};

NumericArray read_numeric(mat_t* m, const std::string& path, const std::string& name,
                          const std::vector<std::string>& names) {
  bool found = false;
  for (const auto& n : names) found = found || n == name;
  if (!found)
    throw InputError(path, 0, 0,
                     "no variable " + quote_text(name) + " (variables found: " + join(names) + ")");
  VarPtr v(Mat_VarRead(m, name.c_str()));
  if (!v) fail(path, name, "cannot be read (unsupported or damaged)");
  if (v->class_type == MAT_C_SPARSE)
    fail(path, name, "is sparse; store it as a full (dense) numeric array");
  if (v->isLogical || !numeric_class(v.get())) {
    if (v->class_type == MAT_C_EMPTY || (numeric_class(v.get()) && numel(v.get()) == 0))
      fail(path, name, "is empty (" + shape_of(v.get()) + ")");
    fail(path, name,
         std::string("has class ") + class_name(v.get()) +
             "; expected a real numeric array (double, single or integer)");
  }
  if (v->isComplex) fail(path, name, "is complex; expected real values");
  const std::size_t n = numel(v.get());
  if (n == 0) fail(path, name, "is empty (" + shape_of(v.get()) + ")");
  if (!v->data) fail(path, name, "has no data");
  NumericArray a;
  for (int i = 0; i < v->rank; ++i) a.dims.push_back(v->dims[i]);
  switch (v->data_type) {
    case MAT_T_DOUBLE:
      a.values = convert<double>(v->data, n);
      break;
    case MAT_T_SINGLE:
      a.values = convert<float>(v->data, n);
      break;
    case MAT_T_INT8:
      a.values = convert<std::int8_t>(v->data, n);
      break;
    case MAT_T_UINT8:
      a.values = convert<std::uint8_t>(v->data, n);
      break;
    case MAT_T_INT16:
      a.values = convert<std::int16_t>(v->data, n);
      break;
    case MAT_T_UINT16:
      a.values = convert<std::uint16_t>(v->data, n);
      break;
    case MAT_T_INT32:
      a.values = convert<std::int32_t>(v->data, n);
      break;
    case MAT_T_UINT32:
      a.values = convert<std::uint32_t>(v->data, n);
      break;
    case MAT_T_INT64:
      a.values = convert<std::int64_t>(v->data, n);
      break;
    case MAT_T_UINT64:
      a.values = convert<std::uint64_t>(v->data, n);
      break;
    default:
      fail(path, name, "has an unsupported storage type");
  }
  return a;
}

std::vector<double> read_vector(mat_t* m, const std::string& path, const std::string& name,
                                const std::vector<std::string>& names) {
  NumericArray a = read_numeric(m, path, name, names);
  if (a.dims.size() != 2 || (a.dims[0] != 1 && a.dims[1] != 1)) {
    fail(path, name, "is not a vector: " + shape_string(a.dims) + " (expected 1xN or Nx1)");
  }
  for (std::size_t k = 0; k < a.values.size(); ++k)
    if (!std::isfinite(a.values[k]))
      fail(path, name,
           "non-finite value " + matlab_number(a.values[k]) + " at element " +
               std::to_string(k + 1));
  return std::move(a.values);
}

// `unit`: "element" (a vector) or "sample" (a channel of the matrix).
void require_increasing(const std::vector<double>& t, const std::string& path,
                        const std::string& name, const std::string& what, const std::string& unit) {
  for (std::size_t k = 1; k < t.size(); ++k)
    if (!(t[k] > t[k - 1]))
      fail(path, name,
           what + " must be strictly increasing: " + unit + " " + std::to_string(k + 1) + " (" +
               matlab_number(t[k]) + ") follows " + unit + " " + std::to_string(k) + " (" +
               matlab_number(t[k - 1]) + ")");
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

data::Record read_matrix(mat_t* m, const std::string& path, const std::string& name,
                         const std::vector<std::string>& names) {
  NumericArray a = read_numeric(m, path, name, names);
  static const char* const kChannels[4] = {"time", "current", "velocity", "torque"};
  const std::string expected =
      "expected a 4xN or Nx4 matrix of time [s], current [A], velocity [rad/s], torque [N m]";
  const std::string shape = shape_string(a.dims);
  if (a.dims.size() != 2 || (a.dims[0] != 4 && a.dims[1] != 4))
    fail(path, name, "is " + shape + ": " + expected);
  if (a.dims[0] == 4 && a.dims[1] == 4)
    fail(path, name,
         "is 4x4: the orientation (4xN or Nx4) is ambiguous with N = 4 samples; store more "
         "samples");
  const bool channels_in_rows = a.dims[0] == 4;
  const std::size_t n = channels_in_rows ? a.dims[1] : a.dims[0];
  const std::size_t rows = a.dims[0];
  std::vector<double> ch[4];
  for (std::size_t c = 0; c < 4; ++c) {
    ch[c].resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t row = channels_in_rows ? c : k;
      const std::size_t col = channels_in_rows ? k : c;
      const double x = a.values[row + rows * col];
      if (!std::isfinite(x))
        fail(path, name,
             "non-finite value " + matlab_number(x) + " at row " + std::to_string(row + 1) +
                 ", column " + std::to_string(col + 1) + " (" + kChannels[c] + ", sample " +
                 std::to_string(k + 1) + ")");
      ch[c][k] = x;
    }
  }
  require_increasing(ch[0], path, name, channels_in_rows ? "time (row 1)" : "time (column 1)",
                     "sample");
  data::Record r;
  r.source = path;
  r.t = std::move(ch[0]);
  r.current = std::move(ch[1]);
  r.velocity = std::move(ch[2]);
  r.force = std::move(ch[3]);
  return r;
}

}  // namespace

std::vector<std::string> mat_variable_names(const std::string& path) {
  MatPtr m = open_mat(path);
  return dir_of(m.get(), path);
}

namespace {

/// Each channel its own variable (as parse_record_csv: each its own column): the same variable
/// read as two channels is a mistake in the options, never a record.
void check_distinct_variables(const std::string& path, const std::string& time,
                              const RecordSpec& spec) {
  const std::pair<const char*, const std::string*> named[] = {{"time", &time},
                                                              {"position", &spec.position},
                                                              {"velocity", &spec.velocity},
                                                              {"current", &spec.current},
                                                              {"force", &spec.force},
                                                              {"temperature", &spec.temperature}};
  for (std::size_t i = 0; i < std::size(named); ++i)
    for (std::size_t j = i + 1; j < std::size(named); ++j)
      if (!named[i].second->empty() && *named[i].second == *named[j].second)
        throw InputError(path, 0, 0,
                         std::string(named[i].first) + " and " + named[j].first +
                             " name the same variable '" + *named[j].second +
                             "': each channel needs its own variable");
}

}  // namespace

data::Record read_record_mat(const std::string& path, const RecordSpec& spec) {
  const bool named = !spec.time.empty() || !spec.position.empty() || !spec.velocity.empty() ||
                     !spec.current.empty() || !spec.force.empty() || !spec.temperature.empty();
  if (named && !spec.matrix.empty())
    throw std::invalid_argument("give either a matrix variable ('" + spec.matrix +
                                "') or variable names per channel for " + path + ", not both");
  const std::string& time = spec.time.empty() ? spec.time_default : spec.time;
  if (named && time.empty()) throw std::invalid_argument("no time variable given for " + path);
  MatPtr m = open_mat(path);
  const std::vector<std::string> names = dir_of(m.get(), path);
  if (!spec.matrix.empty()) return read_matrix(m.get(), path, spec.matrix, names);
  if (!named) {
    if (names.size() == 1) return read_matrix(m.get(), path, names.front(), names);
    throw InputError(path, 0, 0,
                     "give the variable names of the channels or the matrix variable (variables "
                     "found: " +
                         join(names) + ")");
  }
  data::Record r;
  r.source = path;
  check_distinct_variables(path, time, spec);
  const std::pair<const std::string*, std::vector<double>*> channels[] = {
      {&time, &r.t},
      {&spec.position, &r.position},
      {&spec.velocity, &r.velocity},
      {&spec.current, &r.current},
      {&spec.force, &r.force},
      {&spec.temperature, &r.temperature}};
  for (const auto& [s, dst] : channels) {
    if (s->empty()) continue;
    if (all_digits(*s))
      throw InputError(path, 0, 0,
                       "'" + *s +
                           "' is a column index; variables of a .mat file are chosen by "
                           "name (variables found: " +
                           join(names) + ")");
    *dst = read_vector(m.get(), path, *s, names);
    if (dst != &r.t && dst->size() != r.t.size())
      throw InputError(path, 0, 0,
                       "variables of different lengths: '" + time + "' has " +
                           std::to_string(r.t.size()) + " elements, '" + *s + "' has " +
                           std::to_string(dst->size()));
  }
  require_increasing(r.t, path, time, "time", "element");
  return r;
}

// ---- writer ----------------------------------------------------------------------------------

namespace {

VarPtr make_double(const char* name, const std::vector<std::size_t>& dims,
                   const std::vector<double>& re) {
  std::vector<size_t> d(dims.begin(), dims.end());
  return VarPtr(Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, static_cast<int>(d.size()),
                              d.data(), const_cast<double*>(re.data()), 0));
}

VarPtr make_variable(const MatVariable& v) {
  std::vector<size_t> d(v.dims.begin(), v.dims.end());
  const int rank = static_cast<int>(d.size());
  const std::size_t n = v.real.size();
  const char* name = v.name.c_str();
  switch (v.mat_class) {
    case MatClass::double_array: {
      if (v.imag.empty()) return make_double(name, v.dims, v.real);
      std::vector<double> re = v.real, im = v.imag;
      mat_complex_split_t z{re.data(), im.data()};
      return VarPtr(
          Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, rank, d.data(), &z, MAT_F_COMPLEX));
    }
    case MatClass::single_array: {
      std::vector<float> re(v.real.begin(), v.real.end());
      if (v.imag.empty())
        return VarPtr(
            Mat_VarCreate(name, MAT_C_SINGLE, MAT_T_SINGLE, rank, d.data(), re.data(), 0));
      std::vector<float> im(v.imag.begin(), v.imag.end());
      mat_complex_split_t z{re.data(), im.data()};
      return VarPtr(
          Mat_VarCreate(name, MAT_C_SINGLE, MAT_T_SINGLE, rank, d.data(), &z, MAT_F_COMPLEX));
    }
    case MatClass::int32_array: {
      std::vector<std::int32_t> x(n);
      for (std::size_t k = 0; k < n; ++k) x[k] = static_cast<std::int32_t>(v.real[k]);
      return VarPtr(Mat_VarCreate(name, MAT_C_INT32, MAT_T_INT32, rank, d.data(), x.data(), 0));
    }
    case MatClass::logical_array: {
      std::vector<std::uint8_t> x(n);
      for (std::size_t k = 0; k < n; ++k) x[k] = v.real[k] != 0 ? 1 : 0;
      return VarPtr(
          Mat_VarCreate(name, MAT_C_UINT8, MAT_T_UINT8, rank, d.data(), x.data(), MAT_F_LOGICAL));
    }
    case MatClass::char_array: {
      std::vector<std::uint8_t> x(n);
      for (std::size_t k = 0; k < n; ++k) x[k] = static_cast<std::uint8_t>(v.real[k]);
      return VarPtr(Mat_VarCreate(name, MAT_C_CHAR, MAT_T_UINT8, rank, d.data(), x.data(), 0));
    }
    case MatClass::sparse_double: {
      if (rank != 2) throw std::invalid_argument("write_mat: a sparse variable must be 2-D");
      std::vector<mat_uint32_t> ir, jc{0};
      std::vector<double> nz;
      for (std::size_t c = 0; c < d[1]; ++c) {
        for (std::size_t r = 0; r < d[0]; ++r) {
          const double x = v.real[r + d[0] * c];
          if (x == 0) continue;
          ir.push_back(static_cast<mat_uint32_t>(r));
          nz.push_back(x);
        }
        jc.push_back(static_cast<mat_uint32_t>(nz.size()));
      }
      mat_sparse_t s{};
      s.nzmax = static_cast<mat_uint32_t>(nz.size());
      s.ir = ir.data();
      s.nir = static_cast<mat_uint32_t>(ir.size());
      s.jc = jc.data();
      s.njc = static_cast<mat_uint32_t>(jc.size());
      s.ndata = static_cast<mat_uint32_t>(nz.size());
      s.data = nz.data();
      return VarPtr(Mat_VarCreate(name, MAT_C_SPARSE, MAT_T_DOUBLE, 2, d.data(), &s, 0));
    }
    case MatClass::cell: {
      size_t one[2] = {1, 1};
      VarPtr cell(Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, one, nullptr, 0));
      if (!cell) return cell;
      VarPtr inner = make_double(nullptr, v.dims, v.real);
      if (!inner) return VarPtr();
      Mat_VarSetCell(cell.get(), 0, inner.release());  // the cell owns it now
      return cell;
    }
    case MatClass::structure: {
      size_t one[2] = {1, 1};
      const char* const fields[2] = {"value", nullptr};  // null-terminated
      VarPtr st(Mat_VarCreateStruct2(name, 2, one, fields));
      if (!st) return st;
      VarPtr inner = make_double("value", v.dims, v.real);
      if (!inner) return VarPtr();
      Mat_VarSetStructFieldByName(st.get(), "value", 0, inner.release());  // owned by st
      return st;
    }
  }
  return VarPtr();
}

}  // namespace

void write_mat(const std::string& path, const std::vector<MatVariable>& variables,
               MatVersion version) {
  for (const MatVariable& v : variables) {
    if (v.name.empty()) throw std::invalid_argument("write_mat: empty variable name");
    if (v.dims.size() < 2)
      throw std::invalid_argument("write_mat: variable '" + v.name + "' needs at least 2 dims");
    std::size_t n = 1;
    for (std::size_t d : v.dims) n *= d;
    if (n != v.real.size())
      throw std::invalid_argument("write_mat: variable '" + v.name + "' has " +
                                  std::to_string(v.real.size()) + " values for " +
                                  std::to_string(n) + " elements");
    if (!v.imag.empty() && (v.imag.size() != n || (v.mat_class != MatClass::double_array &&
                                                   v.mat_class != MatClass::single_array)))
      throw std::invalid_argument("write_mat: variable '" + v.name +
                                  "': imaginary parts only for double/single, one per element");
  }
  const mat_ft ft = version == MatVersion::v4   ? MAT_FT_MAT4
                    : version == MatVersion::v5 ? MAT_FT_MAT5
                                                : MAT_FT_MAT73;
  MatPtr m(Mat_CreateVer(path.c_str(), nullptr, ft));
  if (!m) throw InputError(path, 0, 0, "cannot create the .mat file");
  for (const MatVariable& v : variables) {
    VarPtr var = make_variable(v);
    if (!var) throw InputError(path, 0, 0, "variable '" + v.name + "': cannot be created");
    if (Mat_VarWrite(m.get(), var.get(), MAT_COMPRESSION_NONE) != 0)
      throw InputError(path, 0, 0, "variable '" + v.name + "': cannot be written");
  }
  if (Mat_Close(m.release()) != 0) throw InputError(path, 0, 0, "cannot close the .mat file");
}

}  // namespace frictionlab::io
