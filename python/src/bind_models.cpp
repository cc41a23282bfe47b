// frictionlab Python module: bind_models (bindings.hpp; docs/python.md, "Models" and
// "Simulate").
//
// Every registered model (models/registry.hpp) gets, generated from its descriptor (Info::name,
// Info::fields, Info::check, Info::defaults), with no per-model code:
//   frictionlab.<Model>Params   its parameters (LuGreParams, DahlParams, ...): keyword
//                               construction and from_dict/read through the library's MODEL.json
//                               reader (io::model_from_json: defaults, key names, messages),
//                               one property per MODEL.json key (the fields() walk), check(),
//                               to_dict/to_json/write through io::to_json, repr, ==, pickling;
//   frictionlab.<Model>         the C++ model type's static functions on one sample: force, step
//                               (integrate/stepper.hpp's advance), steady_force, state_bound, and
//                               its State and Params classes (LuGre.Params is LuGreParams).
// simulate() runs workflows::simulate_model (the library's, the CLI's) over whole arrays with
// the GIL released; simulate_batch (models_batch.cpp) many LuGre sets on one record.
#include <pybind11/stl.h>

#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/models/registry.hpp"
#include "frictionlab/sim/model_run.hpp"
#include "frictionlab/workflows/simulate.hpp"
#include "models_common.hpp"
#include "pickle_state.hpp"
#include "workflows_common.hpp"

namespace frictionlab::python {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// ---------------------------------------------------------------- names

/// The C++ model type's name for a registry name: "lugre" -> "LuGre", "coulomb-viscous" ->
/// "CoulombViscous", "gms" -> "GMS", "joint-lugre" -> "JointLuGre".
std::string class_name(std::string_view model) {
  std::string out;
  bool up = true;
  for (char c : model) {
    if (c == '-') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"Lugre", "LuGre"}, {"Gms", "GMS"}})
    if (const auto pos = out.find(from); pos != std::string::npos)
      out.replace(pos, from.size(), to);
  return out;
}

template <class I>
std::string params_class() {
  return class_name(I::name) + "Params";
}

template <class I>
using ModelOfInfo = model_of_t<typename I::Params>;

[[noreturn]] void fail_param(const std::string& cls, std::string_view key, const std::string& msg) {
  throw io::InputError::parameter(cls, std::string(key), msg);
}

std::string type_name(const py::handle& h) {
  return py::str(py::type::of(h).attr("__name__")).cast<std::string>();
}

// ---------------------------------------------------------------- JSON <-> Python

}  // namespace

nlohmann::json json_from_python(const py::handle& o, const std::string& what) {
  if (o.is_none()) return nullptr;
  if (PyBool_Check(o.ptr())) return o.cast<bool>();
  if (py::isinstance<py::str>(o)) return o.cast<std::string>();
  if (PyLong_Check(o.ptr())) return o.cast<long long>();
  if (PyFloat_Check(o.ptr())) return PyFloat_AsDouble(o.ptr());
  if (py::isinstance<py::dict>(o)) {
    json j = json::object();
    for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(o)) {
      if (!py::isinstance<py::str>(k))
        throw std::invalid_argument(what + ": keys must be strings, got " + type_name(k));
      const auto key = k.cast<std::string>();
      j[key] = json_from_python(v, what + "['" + key + "']");
    }
    return j;
  }
  if (py::isinstance<py::array>(o)) return json_from_python(o.attr("tolist")(), what);
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    json j = json::array();
    for (const auto& v : py::reinterpret_borrow<py::sequence>(o))
      j.push_back(json_from_python(v, what));
    return j;
  }
  // NumPy scalars and other numbers: integers by __index__, reals by __float__.
  if (py::hasattr(o, "__index__")) return o.attr("__index__")().cast<long long>();
  if (py::hasattr(o, "__float__")) return o.attr("__float__")().cast<double>();
  throw std::invalid_argument(what + ": expected a number, string, list or dict, got " +
                              type_name(o));
}

py::object python_from_json(const ordered_json& j) {
  switch (j.type()) {
    case ordered_json::value_t::null:
      return py::none();
    case ordered_json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case ordered_json::value_t::number_integer:
      return py::int_(j.get<long long>());
    case ordered_json::value_t::number_unsigned:
      return py::int_(j.get<unsigned long long>());
    case ordered_json::value_t::number_float:
      return py::float_(j.get<double>());
    case ordered_json::value_t::string:
      return py::str(j.get<std::string>());
    case ordered_json::value_t::array: {
      py::list l;
      for (const auto& e : j) l.append(python_from_json(e));
      return l;
    }
    case ordered_json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it)
        d[py::str(it.key())] = python_from_json(it.value());
      return d;
    }
    default:
      return py::none();
  }
}

namespace {

// ---------------------------------------------------------------- Params

template <class I>
struct PyParams : ParamsBase {
  typename I::Params p = I::defaults();
  bool checked = false;  ///< validated since the last change

  ModelSpec spec() const override { return I::spec(p); }
  /// The library's validation of the parameters as written to a MODEL.json file: io::to_json,
  /// then io::model_from_json (the CLI's reader: same rules, same messages, the class name in
  /// place of the file name). Returns the warnings.
  std::vector<std::string> check() {
    const json j = io::to_json(spec());
    auto f = io::model_from_json(j, params_class<I>());
    checked = true;
    return f.warnings;
  }
  ModelSpec checked_spec() override {
    if (!checked) warn_all(check());
    return spec();
  }
  /// The parameters, validated first unless unchanged since the last validation.
  const typename I::Params& checked_spec_params() {
    if (!checked) warn_all(check());
    return p;
  }
};

/// Parameters from a MODEL.json params object (the library's reader).
template <class I>
PyParams<I> params_from_json(const json& params) {
  const json j = {{"model", std::string(I::name)}, {"params", params}};
  io::ModelFile f = io::model_from_json(j, params_class<I>());
  warn_all(f.warnings);
  PyParams<I> out;
  out.p = I::params(std::get<typename I::Spec>(f.spec));
  out.checked = true;
  return out;
}

template <class I>
PyParams<I> params_from_kwargs(const py::dict& kw) {
  return params_from_json<I>(json_from_python(kw, params_class<I>()));
}

template <class I>
py::dict to_dict(const PyParams<I>& self) {
  return python_from_json(io::to_json(self.spec())["params"]);
}

// The MODEL.json keys of a model (the fields() walk), with their unit text.
struct KeyList {
  std::vector<std::pair<std::string, std::string>> keys;
  void add(std::string_view k, Unit u) {
    keys.emplace_back(std::string(k), std::string(unit_text(u)));
  }
  void number(std::string_view k, const double&, Unit u) { add(k, u); }
  void curve(const StribeckCurve<double>&) {
    for (const char* k : {"Fc", "Fc_pos", "Fc_neg", "Fs", "Fs_pos", "Fs_neg"}) add(k, Unit::force);
    add("vs", Unit::velocity);
    add("alpha", Unit::none);
    keys.emplace_back("shape", "\"exponential\" or \"rational\"");
  }
  void coulomb_level(const StribeckCurve<double>&) {
    for (const char* k : {"Fc", "Fc_pos", "Fc_neg"}) add(k, Unit::force);
  }
  void smoothing(const SignSmoothing&) { keys.emplace_back("smoothing", "\"tanh\" or \"atan\""); }
  template <class... E>
  void elements(const int&, const E&... e) {
    keys.emplace_back("n", "number of elements, read-only (change it with replace())");
    (add(e.key, e.unit), ...);
  }
  template <class A>
  void array(std::string_view k, const int&, const A&, Unit u) {
    add(k, u);
  }
  template <class A1, class A2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, const int&, const A1&,
                  const A2&, Unit u1, Unit u2) {
    add(k1, u1);
    add(k2, u2);
  }
};

template <std::size_t N>
py::list first_n(const std::array<double, N>& a, int n) {
  py::list l;
  for (int i = 0; i < n && i < static_cast<int>(N); ++i) l.append(a[static_cast<std::size_t>(i)]);
  return l;
}

// Reads one key.
struct Getter {
  std::string_view key;
  const std::string& cls;
  py::object out;
  void number(std::string_view k, const double& x, Unit) {
    if (k == key) out = py::float_(x);
  }
  void level(const char* sym, double pos, double neg) {
    if (key != sym) return;
    if (pos != neg)
      fail_param(cls, sym,
                 "the two sides differ (" + std::string(sym) + "_pos = " + std::to_string(pos) +
                     ", " + sym + "_neg = " + std::to_string(neg) + "); read " + sym + "_pos and " +
                     sym + "_neg");
    out = py::float_(pos);
  }
  void curve(const StribeckCurve<double>& c) {
    level("Fc", c.Fc_pos, c.Fc_neg);
    level("Fs", c.Fs_pos, c.Fs_neg);
    if (key == "Fc_pos") out = py::float_(c.Fc_pos);
    if (key == "Fc_neg") out = py::float_(c.Fc_neg);
    if (key == "Fs_pos") out = py::float_(c.Fs_pos);
    if (key == "Fs_neg") out = py::float_(c.Fs_neg);
    if (key == "vs") out = py::float_(c.vs);
    if (key == "alpha") out = py::float_(c.alpha);
    if (key == "shape")
      out = py::str(c.shape == StribeckShape::exponential ? "exponential" : "rational");
  }
  void coulomb_level(const StribeckCurve<double>& c) {
    level("Fc", c.Fc_pos, c.Fc_neg);
    if (key == "Fc_pos") out = py::float_(c.Fc_pos);
    if (key == "Fc_neg") out = py::float_(c.Fc_neg);
  }
  void smoothing(const SignSmoothing& s) {
    if (key == "smoothing") out = py::str(s == SignSmoothing::atan ? "atan" : "tanh");
  }
  template <class... E>
  void elements(const int& n, const E&... e) {
    if (key == "n") out = py::int_(n);
    ((key == e.key ? (void)(out = first_n(e.values, n)) : (void)0), ...);
  }
  template <class A>
  void array(std::string_view k, const int& count, const A& a, Unit) {
    if (k == key) out = first_n(a, count);
  }
  template <class A1, class A2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, const int& count,
                  const A1& a1, const A2& a2, Unit, Unit) {
    if (k1 == key) out = first_n(a1, count);
    if (k2 == key) out = first_n(a2, count);
  }
};

// Writes one key (no validation of the value's range: check() does that).
struct Setter {
  std::string_view key;
  const std::string& cls;
  py::handle value;
  bool done = false;

  double number_value() const {
    if (PyBool_Check(value.ptr()) || py::isinstance<py::str>(value) ||
        !py::hasattr(value, "__float__"))
      fail_param(cls, key, "expected a number, got " + type_name(value));
    return value.attr("__float__")().cast<double>();
  }
  std::vector<double> numbers() const {
    if (py::isinstance<py::str>(value) || !py::hasattr(value, "__len__"))
      fail_param(cls, key, "expected a list of numbers, got " + type_name(value));
    std::vector<double> out;
    for (const auto& e : py::reinterpret_borrow<py::iterable>(value)) {
      if (PyBool_Check(e.ptr()) || py::isinstance<py::str>(e) || !py::hasattr(e, "__float__"))
        fail_param(cls, key, "expected a list of numbers, got an entry of type " + type_name(e));
      out.push_back(e.attr("__float__")().cast<double>());
    }
    return out;
  }
  std::string string_value() const {
    if (!py::isinstance<py::str>(value))
      fail_param(cls, key, "expected a string, got " + type_name(value));
    return value.cast<std::string>();
  }
  void set(double& x) {
    x = number_value();
    done = true;
  }
  void number(std::string_view k, double& x, Unit) {
    if (k == key) set(x);
  }
  void curve(StribeckCurve<double>& c) {
    if (key == "Fc") c.Fc_pos = c.Fc_neg = number_value(), done = true;
    if (key == "Fs") c.Fs_pos = c.Fs_neg = number_value(), done = true;
    if (key == "Fc_pos") set(c.Fc_pos);
    if (key == "Fc_neg") set(c.Fc_neg);
    if (key == "Fs_pos") set(c.Fs_pos);
    if (key == "Fs_neg") set(c.Fs_neg);
    if (key == "vs") set(c.vs);
    if (key == "alpha") set(c.alpha);
    if (key == "shape") {
      const std::string s = string_value();
      if (s == "exponential") {
        c.shape = StribeckShape::exponential;
      } else if (s == "rational") {
        c.shape = StribeckShape::rational;
      } else {
        fail_param(cls, key, "must be \"exponential\" or \"rational\", got \"" + s + "\"");
      }
      done = true;
    }
  }
  // The Coulomb level of the static kinds: Fs follows Fc.
  void coulomb_level(StribeckCurve<double>& c) {
    if (key == "Fc") c.Fc_pos = c.Fc_neg = c.Fs_pos = c.Fs_neg = number_value(), done = true;
    if (key == "Fc_pos") c.Fc_pos = c.Fs_pos = number_value(), done = true;
    if (key == "Fc_neg") c.Fc_neg = c.Fs_neg = number_value(), done = true;
  }
  void smoothing(SignSmoothing& s) {
    if (key != "smoothing") return;
    const std::string v = string_value();
    if (v == "tanh") {
      s = SignSmoothing::tanh;
    } else if (v == "atan") {
      s = SignSmoothing::atan;
    } else {
      fail_param(cls, key, "must be \"tanh\" or \"atan\", got \"" + v + "\"");
    }
    done = true;
  }
  template <std::size_t N>
  void set_array(std::array<double, N>& a, int count, std::string_view other = {}) {
    const auto v = numbers();
    if (static_cast<int>(v.size()) != count)
      fail_param(
          cls, key,
          "has " + std::to_string(v.size()) + " entries but the parameters have " +
              std::to_string(count) +
              (other.empty() ? std::string(" elements") : " (as " + std::string(other) + ")") +
              "; change the count with replace(" + std::string(key) + "=[...], ...)");
    std::copy(v.begin(), v.end(), a.begin());
    done = true;
  }
  template <class... E>
  void elements(int& n, const E&... e) {
    if (key == "n")
      fail_param(cls, key, "is read-only; change the number of elements with replace(n=..., ...)");
    ((key == e.key ? set_array(e.values, n) : (void)0), ...);
  }
  template <std::size_t N>
  void array(std::string_view k, int& count, std::array<double, N>& a, Unit) {
    if (k != key) return;
    const auto v = numbers();
    if (v.size() > N)
      fail_param(cls, key,
                 "has " + std::to_string(v.size()) + " entries; at most " + std::to_string(N) +
                     " are supported");
    count = static_cast<int>(v.size());
    std::fill(a.begin(), a.end(), 0.0);
    std::copy(v.begin(), v.end(), a.begin());
    done = true;
  }
  template <std::size_t N1, std::size_t N2>
  void array_pair(std::string_view k1, std::string_view k2, std::string_view, int& count,
                  std::array<double, N1>& a1, std::array<double, N2>& a2, Unit, Unit) {
    if (k1 == key) set_array(a1, count, k2);
    if (k2 == key) set_array(a2, count, k1);
  }
};

// ---------------------------------------------------------------- State

template <class I>
struct PyState {
  typename ModelOfInfo<I>::State x{};
};

template <class I>
py::object state_z(const PyState<I>& s) {
  using M = ModelOfInfo<I>;
  if constexpr (M::kNumStates == 0) {
    return py::none();
  } else if constexpr (requires { s.x.z[0]; }) {
    py::list l;
    for (double z : s.x.z) l.append(z);
    return l;
  } else {
    return py::float_(s.x.z);
  }
}

template <class I>
void set_state_z(PyState<I>& s, const py::handle& value) {
  using M = ModelOfInfo<I>;
  const std::string cls = class_name(I::name) + ".State";
  if constexpr (M::kNumStates == 0) {
    if (!value.is_none()) throw std::invalid_argument(cls + ": a static model has no state");
  } else if constexpr (requires { s.x.z[0]; }) {
    const auto v = value.cast<std::vector<double>>();
    if (v.size() > s.x.z.size())
      throw std::invalid_argument(cls + ": z has " + std::to_string(v.size()) +
                                  " entries; at most " + std::to_string(s.x.z.size()) +
                                  " elements");
    s.x.z.fill(0.0);
    std::copy(v.begin(), v.end(), s.x.z.begin());
  } else {
    s.x.z = value.cast<double>();
  }
}

Method parse_method_arg(const std::string& name) {
  if (auto m = sim::parse_method(name)) return *m;
  throw std::invalid_argument("method: unknown integrator '" + name +
                              "' (one of: exact, implicit-euler, euler, rk4)");
}

std::optional<Hold> parse_hold_arg(const py::handle& h) {
  if (h.is_none()) return std::nullopt;
  const auto s = py::isinstance<py::str>(h) ? h.cast<std::string>() : std::string("?");
  if (s == "linear") return Hold::linear;
  if (s == "zoh") return Hold::zoh;
  throw std::invalid_argument("hold: must be \"linear\" or \"zoh\", got " +
                              std::string(py::str(py::repr(h))));
}

double finite_arg(double x, const char* name) {
  if (!std::isfinite(x))
    throw std::invalid_argument(std::string(name) + " is not finite (" + std::to_string(x) + ")");
  return x;
}

// ---------------------------------------------------------------- binding one model

template <class I>
struct ModelTag {};

template <class I>
void bind_model(py::module_& m, py::class_<ParamsBase>& base) {
  using PP = PyParams<I>;
  using M = ModelOfInfo<I>;
  const std::string cname = class_name(I::name);
  const std::string pname = params_class<I>();

  KeyList keys;
  {
    typename I::Params d = I::defaults();
    I::fields(d, keys);
  }
  std::string key_doc;
  for (const auto& [k, u] : keys.keys) key_doc += "    " + k + " [" + u + "]\n";

  py::class_<PP, ParamsBase> pc(
      m, pname.c_str(),
      ("The parameters of the '" + std::string(I::name) + "' model (C++ " + cname +
       "<double>::Params; docs/models.md). "
       "Keyword construction with the MODEL.json keys; missing keys take "
       "the documented defaults; the values are validated with the "
       "library's messages (frictionlab.Error). Keys [unit; rotary joints: "
       "N -> Nm, m -> rad]:\n" +
       key_doc)
          .c_str());
  pc.def(py::init([](const py::kwargs& kw) { return params_from_kwargs<I>(kw); }),
         "Parameters from MODEL.json keys (docs/models.md), validated.");
  for (const auto& kv : keys.keys) {
    const std::string key = kv.first;
    pc.def_property(
        key.c_str(),
        [key](const PP& self) {
          const std::string cls = params_class<I>();
          Getter g{key, cls, {}};
          I::fields(self.p, g);
          return g.out;
        },
        [key](PP& self, const py::object& value) {
          const std::string cls = params_class<I>();
          Setter s{key, cls, value};
          I::fields(self.p, s);
          self.checked = false;
        },
        (key + " [" + kv.second + "]").c_str());
  }
  pc.def(
      "check", [](PP& self) { return self.check(); },
      "Validate with the library's rules (the checks of reading a MODEL.json file). Raises "
      "frictionlab.Error listing every invalid parameter; returns the warnings (list of str).");
  pc.def("to_dict", &to_dict<I>, "The MODEL.json params object as a dict (documentation order).");
  pc.def_static(
      "from_dict",
      [](const py::dict& d) {
        if (d.contains("model")) {
          auto f = io::model_from_json(json_from_python(d, params_class<I>()), params_class<I>());
          if (model_name(f.spec) != I::name)
            throw std::invalid_argument(
                params_class<I>() + ".from_dict: the object describes model '" +
                model_name(f.spec) + "', not '" + std::string(I::name) + "'");
          warn_all(f.warnings);
          PP out;
          out.p = I::params(std::get<typename I::Spec>(f.spec));
          out.checked = true;
          return out;
        }
        return params_from_kwargs<I>(d);
      },
      py::arg("d"),
      "Parameters from a params dict, or a whole MODEL.json object {'model': ..., 'params': "
      "{...}}.");
  pc.def(
      "to_json", [](const PP& self) { return io::to_json_text(self.spec()); },
      "The MODEL.json text (io::to_json_text: what the CLI's fit writes as model.json).");
  pc.def(
      "write",
      [](const PP& self, const py::object& path) {
        io::write_text_output(py::module_::import("os").attr("fspath")(path).cast<std::string>(),
                              io::to_json_text(self.spec()));
      },
      py::arg("path"), "Write the MODEL.json file (to_json()) to path.");
  pc.def(
      "replace",
      [](const PP& self, const py::kwargs& kw) {
        json j = io::to_json(self.spec())["params"];
        const json upd = json_from_python(kw, params_class<I>());
        for (auto it = upd.begin(); it != upd.end(); ++it) {
          // A level given in the other form replaces both forms (Fc <-> Fc_pos, Fc_neg).
          for (const auto& [sym, pos, neg] :
               {std::tuple<std::string, std::string, std::string>{"Fc", "Fc_pos", "Fc_neg"},
                {"Fs", "Fs_pos", "Fs_neg"}}) {
            if (it.key() == sym) j.erase(pos), j.erase(neg);
            if (it.key() == pos || it.key() == neg) j.erase(sym);
          }
          j[it.key()] = it.value();
        }
        return params_from_json<I>(j);
      },
      "A copy with some keys replaced (validated): p.replace(n=3, k=[...], Delta=[...]).");
  pc.def("__repr__", [](const PP& self) {
    std::string s = params_class<I>() + "(";
    bool first = true;
    for (const auto& [k, v] : to_dict<I>(self)) {
      s += std::string(first ? "" : ", ") + std::string(py::str(k)) + "=" +
           std::string(py::str(py::repr(v)));
      first = false;
    }
    return s + ")";
  });
  pc.def("__eq__", [](const PP& a, const py::object& b) -> py::object {
    if (!py::isinstance<PP>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::bool_(io::to_json(a.spec()) == io::to_json(b.cast<const PP&>().spec()));
  });
  pc.attr("__hash__") = py::none();
  pc.def("__copy__", [](const PP& self) { return PP(self); });
  pc.def("__deepcopy__", [](const PP& self, const py::handle&) { return PP(self); });
  pc.def(py::pickle([](const PP& self) { return to_dict<I>(self); },
                    [](const py::dict& d) { return params_from_kwargs<I>(d); }));
  pc.attr("model") = std::string(I::name);
  {
    py::list kl;
    for (const auto& kv : keys.keys) kl.append(kv.first);
    pc.attr("keys") = py::tuple(kl);
  }

  // The model type: its State and static functions on one sample.
  py::class_<ModelTag<I>> mc(m, cname.c_str(),
                             ("The '" + std::string(I::name) + "' model (C++ " + cname +
                              "<double>): force, step and steady_force on one sample, its State "
                              "and Params. Whole records: frictionlab.simulate.")
                                 .c_str());
  mc.attr("Params") = pc;
  mc.attr("name") = std::string(I::name);
  mc.attr("num_states") = M::kNumStates;

  using PS = PyState<I>;
  py::class_<PS> sc(
      mc, "State",
      M::kNumStates == 0 ? "The (empty) state of a static model."
      : requires(PS s) { s.x.z[0]; }
          ? "The element deflections z [m] (a list of the largest element count; "
            "the first n are used)."
          : "The state z [m] (bristle or element deflection; rad for a joint).");
  sc.def(py::init([](const py::object& z, const py::object& slipping) {
           PS s;
           if (!z.is_none()) set_state_z<I>(s, z);
           if (!slipping.is_none()) {
             if constexpr (requires { s.x.slipping; }) {
               const auto b = slipping.cast<std::vector<bool>>();
               if (b.size() > s.x.slipping.size())
                 throw std::invalid_argument(class_name(I::name) +
                                             ".State: slipping has too many entries");
               for (std::size_t i = 0; i < b.size(); ++i) s.x.slipping[i] = b[i];
             } else {
               throw std::invalid_argument(class_name(I::name) + ".State has no 'slipping'");
             }
           }
           return s;
         }),
         py::arg("z") = py::none(), py::arg("slipping") = py::none(),
         "The state; default: zero (relaxed), the initial state of simulate.");
  if constexpr (M::kNumStates > 0) {
    sc.def_property("z", &state_z<I>, &set_state_z<I>, "deflection(s) [m]");
  }
  if constexpr (requires(PS s) { s.x.slipping; }) {
    sc.def_property(
        "slipping",
        [](const PS& s) {
          py::list l;
          for (bool b : s.x.slipping) l.append(b);
          return l;
        },
        [](PS& s, const std::vector<bool>& b) {
          for (std::size_t i = 0; i < s.x.slipping.size(); ++i)
            s.x.slipping[i] = i < b.size() && b[i];
        },
        "element regimes (False: stick, True: slip)");
  }
  sc.def("__repr__", [](const PS& s) {
    std::string r = class_name(I::name) + ".State(";
    if constexpr (M::kNumStates > 0) r += "z=" + std::string(py::str(py::repr(state_z<I>(s))));
    return r + ")";
  });

  mc.def_static(
      "force",
      [](PP& p, const PS& x, double v) { return M::force(p.checked_spec_params(), x.x, v); },
      py::arg("params"), py::arg("state"), py::arg("v"),
      "Friction force [N] in state x at velocity v [m/s] (C++ M::force(p, x, v)).");
  mc.def_static(
      "steady_force", [](PP& p, double v) { return M::steady_force(p.checked_spec_params(), v); },
      py::arg("params"), py::arg("v"), "Steady-state friction force [N] at velocity v [m/s].");
  mc.def_static(
      "step",
      [](PP& p, const PS& x, double v0, double h, const py::object& v1, const std::string& method) {
        const auto& params = p.checked_spec_params();
        const Method meth = parse_method_arg(method);
        if (!frictionlab::supports<M>(meth))
          throw std::invalid_argument("model '" + std::string(I::name) +
                                      "' does not support the integrator '" + method +
                                      "' (supported: " + sim::supported_methods(p.spec()) + ")");
        finite_arg(v0, "v0");
        if (!(finite_arg(h, "h") > 0))
          throw std::invalid_argument("h must be > 0, got " + std::to_string(h));
        const bool linear = !v1.is_none();
        const double w1 = linear ? finite_arg(v1.cast<double>(), "v1") : v0;
        return PS{advance<M>(params, x.x, v0, w1, h, meth, linear ? Hold::linear : Hold::zoh)};
      },
      py::arg("params"), py::arg("state"), py::arg("v0"), py::arg("h"), py::arg("v1") = py::none(),
      py::arg("method") = "exact",
      "The state after a step of h [s] from `state` (integrate/stepper.hpp, advance): the input "
      "velocity held at v0 [m/s] (v1 None: hold zoh) or linear from v0 to v1 (hold linear); "
      "method: exact, implicit-euler, euler, rk4 (as the model supports). A loop of force at "
      "v[k], then step(v[k], t[k+1]-t[k], v[k+1]) reproduces simulate() bit for bit.");
  if constexpr (requires(const typename M::Params& q) { M::state_bound(q); }) {
    mc.def_static(
        "state_bound", [](PP& p) { return M::state_bound(p.checked_spec_params()); },
        py::arg("params"), "The invariant bound on |z| [m] the exact step keeps.");
  }
  mc.def_static(
      "supports",
      [](const std::string& method) { return frictionlab::supports<M>(parse_method_arg(method)); },
      py::arg("method"),
      "Whether the model has the integration method (exact, implicit-euler, euler, rk4).");
  (void)base;
}

// ---------------------------------------------------------------- simulate

struct Simulation {
  std::string model, hold;
  py::object t, x, v, F;
  std::vector<std::string> state_names;
  py::list states;
  double state_bound = 0;
  long bound_exceeded = -1;
  std::vector<std::string> warnings;
  py::tuple inputs_in_place;
};

}  // namespace

ModelSpec model_argument(const py::handle& model) {
  if (py::isinstance<ParamsBase>(model)) return model.cast<ParamsBase&>().checked_spec();
  if (py::isinstance<py::str>(model) || py::hasattr(model, "__fspath__")) {
    auto f =
        io::read_model_file(py::module_::import("os").attr("fspath")(model).cast<std::string>());
    warn_all(f.warnings);
    return f.spec;
  }
  throw std::invalid_argument(
      "model: expected model parameters (frictionlab.LuGreParams, ...) or the path of a "
      "MODEL.json file, got " +
      type_name(model));
}

namespace {

/// simulate's model and its temperature law: a MODEL.json path (its "temperature", read only
/// here) or Params with `temperature_law` (a dict of the same keys); both is an error.
ModelSpec simulated_model(const py::handle& model, const py::handle& temperature_law,
                          std::optional<TemperatureDependence<double>>& law) {
  if (!temperature_law.is_none())
    law = io::temperature_law_from_json(json_from_python(temperature_law, "temperature_law"),
                                        "temperature_law", "");
  if (!py::isinstance<py::str>(model) && !py::hasattr(model, "__fspath__"))
    return model_argument(model);
  const std::string file = py::module_::import("os").attr("fspath")(model).cast<std::string>();
  auto f = io::read_model_file(file, io::ModelTemperature::taken);
  warn_all(f.warnings);
  if (f.temperature && law)
    throw std::invalid_argument("temperature_law: " + file +
                                " has a temperature law of its own; give one of them");
  if (f.temperature) law = f.temperature;
  return f.spec;
}

}  // namespace

py::object params_object(const ModelSpec& spec, bool validated) {
  py::object out;
  visit_model(spec, [&]<class I>(std::type_identity<I>, const typename I::Params& p) {
    PyParams<I> pp;
    pp.p = p;
    pp.checked = validated;
    out = py::cast(std::move(pp));
  });
  return out;
}

void bind_models(py::module_& m) {
  py::class_<ParamsBase> base(m, "ModelParams",
                              "Base class of the parameters of every model (LuGreParams, ...).");
  base.def_property_readonly(
      "model_name", [](const ParamsBase& p) { return model_name(p.spec()); },
      "The model's MODEL.json name ('lugre', ...).");

  for_each_model([&]<class I>(std::type_identity<I>) {
    bind_model<I>(m, base);
    return false;
  });

  m.def(
      "model_names", [] { return model_names(); },
      "Every model a MODEL.json file can name, in documentation order (docs/models.md).");
  m.def(
      "read_model",
      [](const py::object& path) {
        auto f =
            io::read_model_file(py::module_::import("os").attr("fspath")(path).cast<std::string>());
        warn_all(f.warnings);
        return params_object(f.spec, /*validated=*/true);
      },
      py::arg("path"),
      "Read a MODEL.json file (io::read_model_file): the Params object of its model.");
  m.def(
      "parse_model_json",
      [](const std::string& text, const std::string& file) {
        auto f = io::parse_model_json(text, file);
        warn_all(f.warnings);
        return params_object(f.spec, /*validated=*/true);
      },
      py::arg("text"), py::arg("file") = "<string>",
      "Parse MODEL.json text; `file` names it in messages.");
  m.def(
      "model_from_dict",
      [](const py::dict& d) {
        auto f = io::model_from_json(json_from_python(d, "model"), "model");
        warn_all(f.warnings);
        return params_object(f.spec, /*validated=*/true);
      },
      py::arg("d"), "A Params object from a MODEL.json object {'model': NAME, 'params': {...}}.");

  py::class_<Simulation>(m, "SimulateModelOutcome",
                         "The result of simulate (C++ workflows::SimulateModelOutcome): arrays "
                         "over the input's samples.")
      .def_readonly("model", &Simulation::model, "the model's name")
      .def_readonly("hold", &Simulation::hold, "the hold used: 'linear' or 'zoh'")
      .def_readonly("t", &Simulation::t,
                    "sample times [s]: a read-only view of the input t (of its float64 "
                    "conversion if it was not float64 contiguous)")
      .def_readonly(
          "x", &Simulation::x,
          "the input displacement [m] (a read-only view, as t), None for a velocity input")
      .def_readonly("v", &Simulation::v,
                    "velocity [m/s] driving the model: a read-only view of the input v, or the "
                    "velocity of x's piecewise-linear interpolant")
      .def_readonly("F", &Simulation::F, "friction force at every sample [N]")
      .def_readonly("state_names", &Simulation::state_names, "'z', 'z1'..'zn', or none (static)")
      .def_readonly("states", &Simulation::states, "one array per state [m], in state_names order")
      .def_readonly("state_bound", &Simulation::state_bound,
                    "invariant bound on |state| [m], 0 if none")
      .def_readonly("bound_exceeded", &Simulation::bound_exceeded,
                    "first sample where a state left its bound, -1 if none")
      .def_readonly("warnings", &Simulation::warnings,
                    "accepted but doubtful (also issued as warnings)")
      .def_readonly("_inputs_in_place", &Simulation::inputs_in_place,
                    "debug: whether t and the input series were read in place (no conversion)")
      .def(py::pickle(
          [](const Simulation& s) {
            return pickle_state(py::make_tuple(s.model, s.hold, s.t, s.x, s.v, s.F, s.state_names,
                                               s.states, s.state_bound, s.bound_exceeded,
                                               s.warnings, s.inputs_in_place));
          },
          [](const py::tuple& state) {
            const auto f = unpickle_state(state, "SimulateModelOutcome", 12).cast<py::tuple>();
            Simulation s;
            s.model = f[0].cast<std::string>();
            s.hold = f[1].cast<std::string>();
            s.t = f[2], s.x = f[3], s.v = f[4], s.F = f[5];
            s.state_names = f[6].cast<std::vector<std::string>>();
            s.states = f[7].cast<py::list>();
            s.state_bound = f[8].cast<double>();
            s.bound_exceeded = f[9].cast<long>();
            s.warnings = f[10].cast<std::vector<std::string>>();
            s.inputs_in_place = f[11].cast<py::tuple>();
            return s;
          }))
      .def("__repr__", [](const Simulation& s) {
        return "SimulateModelOutcome(model='" + s.model + "', hold='" + s.hold +
               "', samples=" + std::to_string(py::len(s.t)) + ")";
      });

  m.def(
      "simulate",
      [](const py::object& model, const py::object& t, const py::object& v, const py::object& x,
         const py::object& temperature, const py::object& temperature_law, const py::object& hold,
         const std::string& method, const py::object& max_substep, const py::object& progress) {
        workflows::SimulateModelOptions o;
        const ModelSpec spec = simulated_model(model, temperature_law, o.temperature);
        o.method = parse_method_arg(method);
        o.hold = parse_hold_arg(hold);
        if (!max_substep.is_none()) {  // (None: one step per sample)
          o.max_substep = option_cast<double>("max_substep", max_substep);
          workflows::check_option("max_substep", o.max_substep);
        }
        o.copy_input = false;
        const DoubleArray ta(t, "t");
        ta.require_finite("t");
        std::optional<DoubleArray> va, xa;
        if (!v.is_none()) va.emplace(v, "v"), va->require_finite("v");
        if (!x.is_none()) xa.emplace(x, "x"), xa->require_finite("x");
        workflows::ModelInputView in;  // the arrays in place (float64 contiguous) or converted
        in.t = ta.span();
        if (va) in.v = va->span();
        if (xa) in.x = xa->span();
        std::optional<DoubleArray> temperature_array;
        if (!temperature.is_none()) {
          temperature_array.emplace(temperature, "temperature");
          in.temperature = temperature_array->span();
        }
        const py::tuple in_place = py::make_tuple(ta.in_place(), va   ? va->in_place()
                                                                 : xa ? xa->in_place()
                                                                      : false);
        // (no more steps than the workflow's polling interval: on the calling thread)
        const bool short_call = workflows::substep_count(in.t, o.max_substep) <= 65536;
        workflows::SimulateModelOutcome r = run_released(
            progress,
            [&](const workflows::Progress& pr) {
              return workflows::simulate_model(spec, in, o, pr);
            },
            short_call);
        warn_all(r.warnings);
        Simulation s;
        s.model = r.model;
        s.hold = r.hold == Hold::zoh ? "zoh" : "linear";
        // t, x and v (unless derived from x) are the inputs, not copied (o.copy_input).
        s.t = ta.readonly_view();
        s.x = xa ? py::object(xa->readonly_view()) : py::object(py::none());
        s.v = va ? py::object(va->readonly_view()) : py::object(to_numpy(std::move(r.v)));
        s.F = to_numpy(std::move(r.F));
        s.state_names = r.state_names;
        for (auto& z : r.states) s.states.append(to_numpy(std::move(z)));
        s.state_bound = r.state_bound;
        s.bound_exceeded = r.bound_exceeded;
        s.warnings = r.warnings;
        s.inputs_in_place = in_place;
        return s;
      },
      py::arg("model"), py::arg("t"), py::arg("v") = py::none(), py::kw_only(),
      py::arg("x") = py::none(), py::arg("temperature") = py::none(),
      py::arg("temperature_law") = py::none(), py::arg("hold") = py::none(),
      py::arg("method") = "exact", py::arg("max_substep") = py::none(),
      py::arg("progress") = py::none(),
      (std::string(
           "Drive a friction model from its zero state along a sampled record (the CLI's `simulate "
           "--model`, workflows::simulate_model), in C++ with the GIL released.\n\n") +
       "model: a Params object (LuGreParams, ...) or a MODEL.json path. t: sample times [s], "
       "strictly increasing, at least 2. v: velocity [m/s] at every t, or x= displacement [m] "
       "(exactly one). hold: 'linear' (default for v) or 'zoh' (the only one for x). method: "
       "'exact' (default), 'implicit-euler', 'euler', 'rk4'. max_substep: largest internal step "
       "[s], > 0 (None: one step per sample). temperature: the temperature [degC] at every t, "
       "for a model with a temperature law: a MODEL.json path with \"temperature\", or "
       "Params with temperature_law={'law': 'linear' or 'exponential', 'T_ref': degC, 'kT': 1/K, "
       "'kT_v': 1/K} (docs/models.md, \"Temperature-dependent friction\"). "
       "Arrays: 1-D float64 (read in place if contiguous) or "
       "float32. "
       "Returns a SimulateModelOutcome (F [N] and the states at every sample). " +
       std::string(kProgressDoc) + " (reported every 65536 samples)")
          .c_str());
  bind_systems(m);
  bind_batch(m);
}

}  // namespace frictionlab::python
