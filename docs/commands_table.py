"""The commands of docs/protocol.md, written from the protocol's list of commands
(`caribbean_fast.server.wire.commands`), so that the page and the server never disagree.

``python docs/commands_table.py`` writes the tables into the page between its two markers;
``--check`` only says whether they are current (exit 1 when not). tests/docs/test_docs.py fails when
the page's tables are not what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from caribbean_fast.server.wire.commands import PROTOCOL

PAGE = Path(__file__).parent / "protocol.md"
BEGIN = "<!-- commands: written from python/caribbean_fast/server/wire/commands.py by docs/commands_table.py -->"
END = "<!-- commands: end -->"


def _row(*cells: str) -> str:
    return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"


def tables() -> str:
    """The table of commands, then the table of their fields' kinds and bounds."""
    lines = ["| type | fields | what it does | `result` when accepted |", "|---|---|---|---|"]
    for spec in PROTOCOL.values():
        fields = ", ".join(f"`{f.name}`" + (f" ({f.note})" if f.note else "") for f in spec.fields)
        lines.append(_row(f"`{spec.name}`", fields, spec.does, spec.result))
    kinds: dict[tuple[str, str], list[str]] = {}
    for spec in PROTOCOL.values():
        for f in spec.fields:
            kinds.setdefault((f.name, f.describe()), []).append(spec.name)
    lines += [
        "",
        "A field outside its kind or bounds is refused `bad_field`, its name in the message:",
        "",
        "| field | of | value |",
        "|---|---|---|",
    ]
    for (name, value), names in kinds.items():
        of = "every command but " + ", ".join(f"`{n}`" for n in PROTOCOL if n not in names)
        if len(names) < len(PROTOCOL) / 2:
            of = ", ".join(f"`{n}`" for n in names)
        lines.append(_row(f"`{name}`", of, value))
    return "\n".join(lines)


def on_page(page: str) -> str:
    """The tables as the page holds them now."""
    start, end = page.index(BEGIN) + len(BEGIN), page.index(END)
    return page[start:end].strip("\n")


def written(page: str) -> str:
    """The page with its tables written afresh."""
    start, end = page.index(BEGIN) + len(BEGIN), page.index(END)
    return page[:start] + "\n" + tables() + "\n" + page[end:]


def main(argv: list[str]) -> int:
    page = PAGE.read_text()
    if "--check" in argv:
        current = on_page(page) == tables()
        print(f"{PAGE.name}: " + ("the commands are current" if current else "run python docs/commands_table.py"))
        return 0 if current else 1
    PAGE.write_text(written(page))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
