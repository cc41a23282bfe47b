"""The type stubs (_frictionlab.pyi, with _workflows.pyi that it re-exports) name exactly what the
compiled module has: every public function, class, method, property and attribute, and every
argument name (CONTRIBUTING.md, "Type stubs").

The names and arguments of the module are read from pybind11's signature line (the first line of
each docstring: "name(a: T, b: T = ..., *, c: T = ...) -> R"); the stubs are parsed with ast.
Stub-only type aliases (module-level assignments such as `_Path = ...`) describe argument types and
are not compared. Nor are the stub-only classes (private names) that other stub classes build on:
their members count in each class that has them as a base (generic ones too: `_Model[P, S]`) or
that names one as a nested class (`State = _ZState[LuGre]`). The classmethods that the stubs
declare for staticmethods (to bind a generic base's type parameters) are compared by their
arguments after `cls`.
"""
import ast
import os

import frictionlab
from frictionlab import _frictionlab as module

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR",
                     os.path.join(os.path.dirname(__file__), "..", ".."))
STUBS = [os.path.join(SRC, "python", "frictionlab", f) for f in ("_frictionlab.pyi",
                                                                 "_workflows.pyi")]
# pybind11's own members of every bound class (object's and pybind11_object's)
BASE_MEMBERS = set(dir(type(module.Metrics).__mro__[0])) | set(dir(module.Metrics.__mro__[-2]))


# ---- the compiled module ----

def _split_top(text: str) -> list[str]:
    """`text` split at the commas outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, None, ""
    for c in text:
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += c
    return parts + [cur] if cur.strip() else parts


def _signature_args(doc: str, name: str) -> tuple[tuple[str, ...], bool]:
    """(argument names, has **kwargs) of pybind11's first signature line of `doc`; "self" and
    the markers `*` and `/` left out."""
    line = doc.split("\n", 1)[0]
    assert line.startswith(name + "("), f"{name}: no signature line in its docstring: {line!r}"
    inner, depth = "", 0
    for c in line[len(name):]:
        depth += c == "("
        depth -= c == ")"
        inner += c
        if depth == 0:
            break
    names, kwargs = [], False
    for part in _split_top(inner[1:-1]):
        arg = part.split(":", 1)[0].split("=", 1)[0].strip()
        if arg.startswith("**"):
            kwargs = True
        elif arg not in ("self", "*", "/", "") and not arg.startswith("*"):
            names.append(arg)
    return tuple(names), kwargs


def _is_routine(x) -> bool:
    return type(x).__name__ in ("builtin_function_or_method", "instancemethod")


def _module_class(cls) -> dict:
    """member name -> ("method", args, **kwargs) | ("value",) | ("class", members) of a bound
    class, inherited ones included, pybind11's own left out. A class attribute that is another
    class (LuGre.Params) is a value; a base class (ModelParams) also has what every one of its
    subclasses in the module has (a stub declares that interface on the base)."""
    out = {}
    for name in dir(cls):
        if name.startswith("_") and name != "__init__" or name in BASE_MEMBERS - {"__init__"}:
            continue
        if name == "__init__" and not (cls.__init__.__doc__ or "").startswith("__init__("):
            continue  # no constructor bound: pybind11's, which raises "No constructor defined"
        attr = getattr(cls, name)
        if isinstance(attr, type):
            nested = attr.__qualname__ == f"{cls.__qualname__}.{name}"
            out[name] = ("class", _module_class(attr)) if nested else ("value",)
        elif _is_routine(attr) or isinstance(attr, staticmethod):
            out[name] = ("method",) + _signature_args(attr.__doc__ or "", name)
        else:
            out[name] = ("value",)
    subclasses = [c for c in cls.__subclasses__() if getattr(module, c.__name__, None) is c]
    if subclasses:
        members = [_module_class(c) for c in subclasses]
        for name in set.intersection(*(set(m) for m in members)) - set(out):
            if all(m[name] == members[0][name] for m in members):
                out[name] = ("inherited by all",) + members[0][name]
    return out


def _module_api() -> dict:
    api = {}
    for name in dir(module):
        if name.startswith("__"):
            continue  # private functions (_fit_robot) are compared too: Python wrappers call them
        x = getattr(module, name)
        if isinstance(x, type) and issubclass(x, BaseException):
            api[name] = ("class", {})
        elif isinstance(x, type):
            api[name] = ("class", _module_class(x))
        elif callable(x):
            api[name] = ("method",) + _signature_args(x.__doc__ or "", name)
    return api


# ---- the stubs ----

def _stub_function(fn: ast.FunctionDef) -> tuple:
    a = fn.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    bound = {"self", "cls"} if any(isinstance(d, ast.Name) and d.id == "classmethod"
                                   for d in fn.decorator_list) else {"self"}
    return ("method", tuple(names[1:] if names and names[0] in bound else names),
            a.kwarg is not None)


def _stub_class_named(expr: ast.expr, classes: dict):
    """The stub class (ast.ClassDef) that `expr` names, `Name` or a generic one's `Name[...]`;
    None if it names none."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    return classes.get(expr.id) if isinstance(expr, ast.Name) else None


def _stub_only_classes(classes: dict) -> set[str]:
    """The private classes that other stub classes have as a base or as a nested class."""
    used = set()
    for node in classes.values():
        named = list(node.bases) + [item.value for item in node.body if isinstance(item, ast.Assign)]
        used |= {c.name for c in (_stub_class_named(e, classes) for e in named) if c}
    return {name for name in used if name.startswith("_")}


def _stub_class(node: ast.ClassDef, classes: dict) -> dict:
    out = {}
    for base in node.bases:
        if (cls := _stub_class_named(base, classes)) is not None:
            out.update(_stub_class(cls, classes))
    for item in node.body:
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(
                item.targets[0], ast.Name):
            # `State = _ZState[LuGre]`: the nested class is the stub-only one it names
            cls = _stub_class_named(item.value, classes)
            if cls is not None and cls.name.startswith("_"):
                out[item.targets[0].id] = ("class", _stub_class(cls, classes))
        elif isinstance(item, ast.FunctionDef) and (not item.name.startswith("_") or
                                                   item.name == "__init__"):
            prop = any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
            out[item.name] = ("value",) if prop else _stub_function(item)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out[item.target.id] = ("value",)
        elif isinstance(item, ast.ClassDef):
            out[item.name] = ("class", _stub_class(item, classes))
    return out


def _stub_texts() -> list[str]:
    out = []
    for path in STUBS:
        with open(path, encoding="utf-8") as f:
            out.append(f.read())
    return out


def _stub_api(texts: list[str]) -> dict:
    """The names of the stub sources `texts` (one module)."""
    body = [n for text in texts for n in ast.parse(text).body]
    classes = {n.name: n for n in body if isinstance(n, ast.ClassDef)}
    helpers = _stub_only_classes(classes)
    api = {}
    for n in body:
        if isinstance(n, ast.ClassDef) and n.name in helpers:
            continue
        if isinstance(n, ast.ClassDef):
            api[n.name] = ("class", {} if n.name == "Error" else _stub_class(n, classes))
        elif isinstance(n, ast.FunctionDef):
            api[n.name] = _stub_function(n)
    return api


# ---- the comparison ----

def _differences(stub: dict, built: dict, where: str = "") -> list[str]:
    out = []
    for name in sorted(set(stub) | set(built)):
        at = where + name
        if name in built and built[name][0] == "inherited by all":
            # what every subclass has: the stub may declare it on the base, or leave it out
            if name in stub:
                out += _differences({name: stub[name]}, {name: built[name][1:]}, where)
        elif name not in stub:
            out.append(f"{at}: in the module, not in the stubs")
        elif name not in built:
            out.append(f"{at}: in the stubs, not in the module")
        elif stub[name][0] != built[name][0]:
            out.append(f"{at}: a {built[name][0]} in the module, a {stub[name][0]} in the stubs")
        elif built[name][0] == "class":
            out += _differences(stub[name][1], built[name][1], at + ".")
        elif built[name][0] == "method":
            out += _argument_differences(at, stub[name], built[name])
    return out


def _argument_differences(at: str, stub: tuple, built: tuple) -> list[str]:
    """The stub's arguments must be the binding's; where the binding takes **kwargs (a Params
    class's keys, a workflow's options), the stub may spell them out after those."""
    _, s_args, s_kwargs = stub
    _, b_args, b_kwargs = built
    if b_kwargs and s_args[:len(b_args)] == b_args and (s_kwargs or len(s_args) > len(b_args)):
        return []
    if s_args != b_args or s_kwargs != b_kwargs:
        return [f"{at}: arguments {b_args}{' **kwargs' if b_kwargs else ''} in the module, "
                f"{s_args}{' **kwargs' if s_kwargs else ''} in the stubs"]
    return []


def test_the_stubs_name_every_function_class_method_and_argument_of_the_module():
    assert _differences(_stub_api(_stub_texts()), _module_api()) == []


def test_the_comparison_sees_a_missing_name_and_a_renamed_argument():
    built = {"fit": ("method", ("training", "validation"), True),
             "Record": ("class", {"t": ("value",), "read": ("method", ("path",), True)})}
    stub = {"fit": ("method", ("training", "data"), True),
            "Record": ("class", {"read": ("method", ("path",), True)})}
    assert _differences(stub, built) == [
        "Record.t: in the module, not in the stubs",
        "fit: arguments ('training', 'validation') **kwargs in the module, ('training', 'data') "
        "**kwargs in the stubs"]


def test_the_comparison_sees_through_the_stub_only_bases_and_nested_aliases():
    stub = _stub_api(["""
class _Model(Generic[_P, _S]):
    @classmethod
    def force(cls, params: _P, state: _S, v: float) -> float: ...
    @staticmethod
    def supports(method: str) -> bool: ...
class _ZState(Generic[_M]):
    z: float
class LuGre(_Model[LuGreParams, _ZState[LuGre]]):
    State = _ZState[LuGre]
"""])
    assert stub == {"LuGre": ("class", {"force": ("method", ("params", "state", "v"), False),
                                        "supports": ("method", ("method",), False),
                                        "State": ("class", {"z": ("value",)})})}
    built = {"LuGre": ("class", {"force": ("method", ("params", "state", "v"), False),
                                 "step": ("method", ("params", "state", "v0", "h"), False),
                                 "State": ("class", {})})}
    assert _differences(stub, built) == ["LuGre.State.z: in the stubs, not in the module",
                                         "LuGre.step: in the module, not in the stubs",
                                         "LuGre.supports: in the stubs, not in the module"]


def test_the_signature_reader_splits_nested_types_and_defaults():
    doc = "f(a: list[tuple[int, int]], b: str = 'x,y', *, c: dict[str, int] = {}, **kwargs) -> None"
    assert _signature_args(doc, "f") == (("a", "b", "c"), True)


def test_the_package_re_exports_the_workflows_stub():
    with open(STUBS[0], encoding="utf-8") as f:
        assert "from ._workflows import *" in f.read()
    assert frictionlab.fit is module.fit
