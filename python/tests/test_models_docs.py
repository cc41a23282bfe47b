"""Every Python snippet of docs/python.md before "## Identification" runs (in order, one
namespace, from the repository root), without a warning unless the document marks it (_docs.py)."""
import os

from _docs import python_blocks, run_blocks

SRC = os.environ.get("FRICTIONLAB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def test_models_snippets_of_docs_python_md_run(monkeypatch):
    text = open(os.path.join(SRC, "docs", "python.md")).read().split("## Identification")[0]
    blocks = python_blocks(text)
    assert len(blocks) >= 4
    monkeypatch.chdir(SRC)
    ns = {}
    assert run_blocks(blocks, ns, "docs/python.md") == []
    assert ns["s"].F.shape == ns["t"].shape and ns["tr"].steps > 0
    assert ns["refused"].startswith("LuGreParams: parameter 'sigma1': the map v -> F is not passive")
    assert ns["Fb"].shape == (3, ns["t"].size)


NOT_PASSIVE = "fl.LuGreParams(sigma0=1e5, sigma1=316, sigma2=0.4, Fc=1, Fs=1.5, vs=0.001, alpha=2)\n"


def test_doc_warning_rule():
    """An unmarked snippet that warns and a marked one that does not are the problems; a message
    an earlier snippet showed is not shown again (the package's "once" filter)."""
    import frictionlab as fl
    doc = ("```python\n" + NOT_PASSIVE + "```\n\n<!-- warns: not passive -->\n\n```python\n"
           + NOT_PASSIVE + "```\n<!-- warns: stale -->\n```python\nx = 1\n```\n")
    blocks = python_blocks(doc)
    assert [r for _, r in blocks] == [None, "not passive", "stale"]
    problems = run_blocks(blocks, {"fl": fl}, "doc.md")
    assert len(problems) == 3, problems
    assert problems[0].startswith("snippet 1 ('fl.LuGreParams(") and "without a warns: marker" in problems[0]
    assert problems[1].startswith("snippet 2 (") and "is marked 'warns: not passive'" in problems[1]
    assert problems[2].startswith("snippet 3 ('x = 1') is marked 'warns: stale'")
    # marked where it first shows: no problem
    doc = "<!-- warns: not passive -->\n```python\n" + NOT_PASSIVE + "```\n```python\n" + NOT_PASSIVE + "```\n"
    assert run_blocks(python_blocks(doc), {"fl": fl}, "doc.md") == []
