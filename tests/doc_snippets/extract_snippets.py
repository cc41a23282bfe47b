#!/usr/bin/env python3
"""The C and C++ snippets of README.md and docs/*.md as programs the tests build and run
(tests/doc_snippets.cmake; DEVELOPERS.md, "Documentation snippets").

A fenced block tagged cpp or c is one of:
  - an excerpt of a file of the repository: its first line is a comment naming the file
    (`// tests/registry_example/fluid_drag/model.hpp`); every other line of the block must be a
    line of that file, in the same order (that file is compiled by the tests). Checked here;
  - a complete program (it defines main): written as it is;
  - a fragment: its #include lines, then the rest of it as the body of `int main()`. A fragment
    is what a user pastes into a function: every name it uses is declared in it.

    extract_snippets.py --source SRC --out DIR

writes DIR/<doc>_<n>.cpp or .c for every program and fragment and DIR/snippets.cmake with one
`frictionlab_doc_snippet(NAME FILE)` per program; exits 1 naming the document and line of an
excerpt that is not one. The programs run in SRC (as the documented commands do: examples/data,
../shared/data)."""
import argparse
import pathlib
import re
import sys

FENCE = re.compile(r"^```(\w*)\s*$")
EXCERPT = re.compile(r"^\s*//\s*((?:tests|examples|include|src|python|apps)/\S+)\s*$")


def blocks(path):
    """(first line number, language, lines) of every fenced cpp/c block of a Markdown file."""
    lang, start, body = None, 0, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if lang is None:
            if m and m.group(1) in ("cpp", "c++", "c"):
                lang, start, body = m.group(1), number + 1, []
            elif m and m.group(1):
                lang, start, body = "", number + 1, []  # another language: skipped
        elif m and not m.group(1):
            if lang:
                yield start, "c" if lang == "c" else "cpp", body
            lang = None
        else:
            body.append(line)


def check_excerpt(doc, start, body, source):
    """An error message, or None when every line of the block is in the named file, in order."""
    target = source / EXCERPT.match(body[0]).group(1)
    if not target.is_file():
        return f"{doc}:{start}: the excerpt names {target.relative_to(source)}, which does not exist"
    lines = [l.strip() for l in target.read_text(encoding="utf-8").splitlines()]
    at = 0
    for offset, line in enumerate(body[1:], 1):
        want = line.strip()
        if not want:
            continue
        while at < len(lines) and lines[at] != want:
            at += 1
        if at == len(lines):
            return (f"{doc}:{start + offset}: not a line of {target.relative_to(source)} "
                    f"(after the lines before it): {want}")
        at += 1
    return None


def program(body):
    """The block as a program: as it is when it defines main, else its #include lines and the
    rest as the body of main."""
    if any(re.search(r"\bint\s+main\s*\(", l) for l in body):
        return "\n".join(body) + "\n"
    includes = [l for l in body if l.lstrip().startswith("#include")]
    rest = [l for l in body if not l.lstrip().startswith("#include")]
    return ("\n".join(includes) + "\n\nint main(void) {\n" +
            "\n".join("  " + l if l.strip() else "" for l in rest) + "\n  return 0;\n}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    args = ap.parse_args()
    source = args.source.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    docs = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
    errors, entries = [], []
    for doc in docs:
        rel = doc.relative_to(source)
        for n, (start, lang, body) in enumerate(blocks(doc), 1):
            if body and EXCERPT.match(body[0]):
                err = check_excerpt(rel, start, body, source)
                if err:
                    errors.append(err)
                continue
            name = f"doc_{doc.stem.replace('-', '_').lower()}_{n}"
            file = args.out / f"{name}.{lang}"
            text = f"// {rel}, line {start} (tests/doc_snippets/extract_snippets.py)\n" + program(body)
            if not file.exists() or file.read_text(encoding="utf-8") != text:
                file.write_text(text, encoding="utf-8")  # unchanged files keep their time stamps
            entries.append(f"frictionlab_doc_snippet({name} {file.as_posix()})")
    (args.out / "snippets.cmake").write_text("\n".join(entries) + "\n", encoding="utf-8")
    for e in errors:
        print(f"extract_snippets: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
