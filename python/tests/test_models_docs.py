"""Every Python snippet of docs/python.md before "## Identification" runs (in order, one
namespace, from the repository root)."""
import os
import re
import warnings

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def test_models_snippets_of_docs_python_md_run(monkeypatch):
    text = open(os.path.join(SRC, "docs", "python.md")).read().split("## Identification")[0]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(SRC)
    ns = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for b in blocks:
            exec(compile(b, "docs/python.md", "exec"), ns)
    assert ns["s"].F.shape == ns["t"].shape and ns["tr"].steps > 0
    assert ns["Fb"].shape == (3, ns["t"].size)
