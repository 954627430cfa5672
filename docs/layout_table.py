"""The development guide's layout, written from the code: every Rust file's and Python module's
first line of documentation (`//!`, or the module docstring), so that the guide names what is
there and says what each file is for in the file's own words.

``python docs/layout_table.py`` writes docs/development.md's layout between its markers
(``<!-- layout:start -->`` and ``<!-- layout:end -->``); ``--check`` only says whether it is
current (exit 1 when not). tests/docs/test_docs.py fails when the page is not what this writes.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "development.md"
START = "<!-- layout:start -->"
END = "<!-- layout:end -->"
NOTICE = "<!-- written from each file's first line of documentation by docs/layout_table.py -->"
WIDTH = 50  # the path column
MOST = 110  # characters of a file's first sentence shown


def first_sentence(text: str) -> str:
    """The first sentence of the first paragraph, on one line, cut at a word past `MOST`."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = paragraph.find(". ")
    sentence = paragraph if end < 0 else paragraph[: end + 1]
    return sentence if len(sentence) <= MOST else sentence[:MOST].rsplit(" ", 1)[0] + " …"


def rust_line(path: Path) -> str:
    """The first sentence of a Rust file's `//!` documentation."""
    lines = [line[3:].strip() for line in path.read_text().splitlines() if line.startswith("//!")]
    return first_sentence("\n".join(line or "\n" for line in lines))


def python_line(path: Path) -> str:
    """The first sentence of a module's docstring."""
    return first_sentence(ast.get_docstring(ast.parse(path.read_text())) or "")


def entries() -> list[tuple[str, str]]:
    """(path, first line) of every Rust file and Python module, packages first by folder."""
    rust = [(p, rust_line(p)) for p in sorted((ROOT / "rust").rglob("*.rs"))]
    python = [(p, python_line(p)) for p in sorted((ROOT / "python" / "caribbean_fast").rglob("*.py"))]
    return [(str(p.relative_to(ROOT)), line) for p, line in rust + python]


def block() -> str:
    lines = [f"{path:<{WIDTH}} {line}".rstrip() for path, line in entries()]
    return "\n".join([START, NOTICE, "```text", *lines, "```", END])


def on_page(text: str) -> str:
    """The layout block as the page holds it now."""
    start, end = text.index(START), text.index(END) + len(END)
    return text[start:end]


def main(argv: list[str]) -> int:
    text = PAGE.read_text()
    current = on_page(text) == block()
    if "--check" in argv:
        print("the layout is current" if current else "the layout is stale: run python docs/layout_table.py")
        return 0 if current else 1
    if not current:
        PAGE.write_text(text.replace(on_page(text), block()))
    print("the layout was current" if current else "the layout is written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
