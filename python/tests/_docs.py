"""The Python snippets of a document, run as a user would, with the warning rule of the CLI's
documented commands (tests/cli/run_doc_examples.py): a snippet that shows a warning fails
unless the document marks it ``<!-- warns: REASON -->`` on the last non-blank line before its
```` ```python ```` fence, and a marked snippet that shows none fails too (a stale marker).
"Shows" as in a fresh session with the package's default filter: a message an earlier snippet
of the same run showed is not shown again (docs/python.md, "Warnings")."""
import re
import warnings

MARK = re.compile(r"^\s*<!--\s*warns:\s*(.*?)\s*-->\s*$")


def python_blocks(text):
    """[(code, marker reason or None)] of every ```python block of `text`, in order."""
    out = []
    for m in re.finditer(r"```python\n(.*?)```", text, re.S):
        before = [l for l in text[:m.start()].splitlines() if l.strip()]
        mark = MARK.match(before[-1]) if before else None
        out.append((m.group(1), mark.group(1) if mark else None))
    return out


def run_blocks(blocks, scope, filename):
    """exec every block in `scope`; every warning is recorded (the "always" filter, so that one
    issued before in the process, by another test, is seen again) and counts unless an earlier
    block showed it. Returns the problems: unmarked warnings and stale markers, one line each."""
    problems, shown = [], set()
    for k, (code, reason) in enumerate(blocks):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            exec(compile(code, filename, "exec"), scope)
        texts = sorted({f"{w.category.__name__}: {w.message}" for w in seen} - shown)
        shown.update(texts)
        texts = [t[:200] for t in texts]
        first = code.strip().splitlines()[0] if code.strip() else ""
        if texts and reason is None:
            problems.append(f"snippet {k + 1} ({first!r}) warns without a warns: marker: {texts}")
        if reason is not None and not texts:
            problems.append(f"snippet {k + 1} ({first!r}) is marked 'warns: {reason}' but issues "
                            "no warning: remove the marker")
    return problems
