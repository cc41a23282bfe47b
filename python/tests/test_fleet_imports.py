"""The fleet package's modules import each other without cycles (python/frictionlab/fleet).

The module-level imports between the package's modules form an acyclic graph, no function imports
a sibling module (a function-level import is how a cycle hides), and each module imports first in
a fresh interpreter.
"""
import ast
import os
import subprocess
import sys

import pytest

import frictionlab.fleet

PACKAGE = os.path.dirname(frictionlab.fleet.__file__)
MODULES = sorted(f[:-3] for f in os.listdir(PACKAGE) if f.endswith(".py"))
# imported inside the functions that need it: it imports Dask's `distributed`, which the package
# does not need on import (a scheduler plugin, not a cycle)
LAZY = {"_dask_plugin"}


def _tree(module: str) -> ast.Module:
    with open(os.path.join(PACKAGE, module + ".py"), encoding="utf-8") as f:
        return ast.parse(f.read(), module + ".py")


def _siblings(node: ast.AST) -> set[str]:
    """The package's modules an import statement names (`from . import x`, `from .x import y`,
    `from frictionlab.fleet.x import y`, `import frictionlab.fleet.x`)."""
    prefix = "frictionlab.fleet"
    names = set()
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level == 1 or base == prefix or base.startswith(prefix + "."):
            base = base if node.level == 1 else base[len(prefix) + 1:]
            if base:
                names.add(base.split(".")[0])
            else:
                names.update(a.name for a in node.names)
    elif isinstance(node, ast.Import):
        names.update(a.name[len(prefix) + 1:].split(".")[0] for a in node.names
                     if a.name.startswith(prefix + "."))
    return names & set(MODULES)


def _module_level_imports(module: str) -> set[str]:
    """The sibling modules `module` imports when it is imported (statements outside functions
    and classes, including those under a module-level if/try)."""
    found = set()
    todo = list(_tree(module).body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        found |= _siblings(node)
        todo.extend(ast.iter_child_nodes(node))
    return found - {module}


def _function_level_imports(module: str) -> list[tuple[str, int]]:
    """(sibling module, line) of every import inside a function of `module`."""
    out = []
    for fn in ast.walk(_tree(module)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                out += [(name, node.lineno) for name in _siblings(node)]
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of `graph` (its modules in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(m):
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_module_level_import_graph_is_acyclic():
    graph = {m: _module_level_imports(m) for m in MODULES}
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph))}"
    # the graph has the expected shape: the leaves import no sibling, the task runs on keys
    assert graph["errors"] == set() and graph["files"] == set()
    assert {"evaluation", "keys"} <= graph["tasks"]
    assert "tasks" not in graph["analysis"] and "analysis" not in graph["tasks"]


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_function_imports_a_sibling_module():
    hidden = [f"{m}.py:{line}: imports {name}" for m in MODULES
              for name, line in _function_level_imports(m) if name not in LAZY]
    assert hidden == []


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_first_in_a_fresh_interpreter(module):
    r = subprocess.run([sys.executable, "-c", f"import frictionlab.fleet.{module}"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_config_hash_has_one_home():
    """The configuration hash of a task key and the one current_results matches are the same
    JointType.hash (keys.make_task, analysis.current_results)."""
    sources = {m: open(os.path.join(PACKAGE, m + ".py"), encoding="utf-8").read() for m in MODULES}
    hashing = sorted(m for m, s in sources.items() if "canonical().encode()" in s)
    assert hashing == ["config"]
