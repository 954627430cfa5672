"""The benchmark figures of README.md and docs/benchmarks.md, written from one results file,
benches/results.toml, so that the two pages never quote different figures or a figure nobody
recorded.

``python docs/figures_table.py`` writes README.md's figures table and docs/benchmarks.md's
current figures between their markers (``<!-- figures:start -->`` and ``<!-- figures:end -->``);
``--check`` only says whether both are current (exit 1 when not). tests/docs/test_docs.py fails when
either page is not what this writes. The results file's own comments say what a row holds.

A row a bench wrote (`--record`: benches/record.py) names the commit it ran on and the files its
figure measures; where git says one of those files has changed since that commit, the row is
marked stale on both pages (`stale`), until the bench is run again on the current code.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "benches" / "results.toml"
README = ROOT / "README.md"
PAGE = ROOT / "docs" / "benchmarks.md"
START = "<!-- figures:start -->"
END = "<!-- figures:end -->"
NOTICE = "<!-- written from benches/results.toml by docs/figures_table.py: edit that file, then run the script -->"

DECIMAL = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
GOAL = re.compile(r"^(<=|>=|<|>|=)\s*(-?[0-9]+(?:\.[0-9]+)?)$")
SYMBOL = {"<=": "≤", ">=": "≥", "<": "<", ">": ">", "=": "="}

Number = int | float | str  # a str is a number written to keep its trailing zeros: "1.30"


@dataclass(frozen=True)
class Machine:
    name: str
    processor: str
    cores: int
    date: str
    l2: str | None = None


@dataclass(frozen=True)
class Row:
    section: str
    what: str
    unit: str
    command: str
    machine: str
    value: Number | None = None
    range: tuple[Number, Number] | None = None
    values: dict[str, Number] | None = None
    goal: str | None = None
    met: bool | None = None
    readme: bool = False
    note: str | None = None
    id: str | None = None
    commit: str | None = None
    files: tuple[str, ...] = ()
    stale: bool = False  # worked out (`stale`), never written in the results file

    def figure(self) -> str:
        """The figure with its unit: `75.2 M rounds/s (72.0-85.1)`, `123.0-167.0 M hands/s`,
        `stud 2.82, hold'em 23.76 s`."""
        if self.values is not None:
            text = ", ".join(f"{name} {number(v)}" for name, v in self.values.items())
        elif self.value is not None:
            text = number(self.value)
        else:
            assert self.range is not None
            text = f"{number(self.range[0])}-{number(self.range[1])}"
        text = f"{text} {self.unit}".rstrip() if self.unit else text
        if self.value is not None and self.range is not None:
            text += f" ({number(self.range[0])}-{number(self.range[1])})"
        if self.stale:
            text += f" (stale: its files changed since {(self.commit or '')[:7]}; run it again)"
        return text

    def verdict(self) -> str | None:
        """Whether the goal is met: `met`, `not met`, `met in some runs` (a range across it) or
        `met by K of N` (named cases); None without a goal."""
        if self.goal is None:
            return None
        if self.met is not None:
            return "met" if self.met else "not met"
        found = GOAL.match(self.goal)
        assert found is not None
        op, target = found[1], _target(found[2])

        def meets(figure: Number) -> bool:
            x = float(figure)
            return {"<=": x <= target, ">=": x >= target, "<": x < target, ">": x > target, "=": x == target}[op]

        if self.values is not None:
            hits = sum(meets(v) for v in self.values.values())
            n = len(self.values)
            return "met" if hits == n else "not met" if hits == 0 else f"met by {hits} of {n}"
        if self.value is not None:
            return "met" if meets(self.value) else "not met"
        assert self.range is not None
        ends = [meets(x) for x in self.range]
        return "met" if all(ends) else "not met" if not any(ends) else "met in some runs"

    def goal_cell(self) -> str:
        if self.goal is None:
            return ""
        found = GOAL.match(self.goal)
        goal = f"{SYMBOL[found[1]]} {number(_target(found[2]))}" if found else self.goal
        return f"{goal}: {self.verdict()}"


ROW_KEYS = {f.name for f in dataclass_fields(Row)} - {"stale"}
MACHINE_KEYS = {f.name for f in dataclass_fields(Machine)} - {"name"}


@dataclass(frozen=True)
class Results:
    machines: dict[str, Machine]
    rows: list[Row]


def number(x: Number) -> str:
    """A figure as recorded, its thousands separated: 1,471, 75.2, 72.0, "1.30"."""
    return x if isinstance(x, str) else f"{x:,}"


def _target(text: str) -> int | float:
    """A goal's number, whole or not as written."""
    return float(text) if "." in text else int(text)


def _number(where: str, x: Any) -> Number:
    if isinstance(x, str) and DECIMAL.match(x):
        return str(x)
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise ValueError(f'{where}: a number (or a number in quotes, "1.30"), not {x!r}')
    return int(x) if isinstance(x, int) else float(x)


def parse(data: dict[str, Any]) -> Results:
    """The results file's data, checked: every key known, every row with a figure, a unit, a
    command and a machine the file describes, every goal readable or its verdict given."""
    unknown = set(data) - {"machine", "machines", "row"}
    if unknown:
        raise ValueError(f"results: unknown keys {sorted(unknown)}")
    machines = {}
    for name, fields in data.get("machines", {}).items():
        bad = set(fields) - MACHINE_KEYS
        missing = {"processor", "cores", "date"} - set(fields)
        if bad or missing:
            raise ValueError(f"machine {name}: unknown keys {sorted(bad)}, missing {sorted(missing)}")
        machines[name] = Machine(name=name, **fields)
    default = data.get("machine")
    rows = []
    for i, fields in enumerate(data.get("row", []), 1):
        where = f"row {i} ({fields.get('what', '?')})"
        bad = set(fields) - ROW_KEYS
        missing = {"section", "what", "unit", "command"} - set(fields)
        if bad or missing:
            raise ValueError(f"{where}: unknown keys {sorted(bad)}, missing {sorted(missing)}")
        fields = dict(fields)
        fields.setdefault("machine", default)
        if fields["machine"] not in machines:
            raise ValueError(f"{where}: machine {fields['machine']!r} is not among [machines]")
        if "value" in fields:
            fields["value"] = _number(where, fields["value"])
        if "range" in fields:
            low, high = (_number(where, x) for x in fields["range"])
            if float(low) > float(high):
                raise ValueError(f"{where}: a range runs from the lowest to the highest")
            fields["range"] = (low, high)
        if "values" in fields:
            fields["values"] = {k: _number(where, v) for k, v in fields["values"].items()}
            if "value" in fields or "range" in fields:
                raise ValueError(f"{where}: `values` stands alone, without `value` or `range`")
        if ("commit" in fields) != ("files" in fields):
            raise ValueError(f"{where}: `commit` and `files` go together (a bench's `--record` writes both)")
        if "files" in fields:
            fields["files"] = tuple(fields["files"])
        if not {"value", "range", "values"} & set(fields):
            raise ValueError(f"{where}: no figure (`value`, `range` or `values`)")
        goal, met = fields.get("goal"), fields.get("met")
        if goal is None and met is not None:
            raise ValueError(f"{where}: `met` without a goal")
        if goal is not None and GOAL.match(goal) and met is not None:
            raise ValueError(f"{where}: the goal {goal!r} is worked out: no `met`")
        if goal is not None and not GOAL.match(goal) and met is None:
            raise ValueError(f"{where}: the goal {goal!r} is words: say `met = true` or `false`")
        rows.append(Row(**fields))
    if not rows:
        raise ValueError("results: no rows")
    return Results(machines, rows)


def load(path: Path = RESULTS, root: Path = ROOT) -> Results:
    """The results file, its rows marked stale where their files changed (`stale`)."""
    with path.open("rb") as file:
        results = parse(tomllib.load(file))
    return Results(results.machines, [replace(r, stale=stale(r, root)) for r in results.rows])


def stale(row: Row, root: Path = ROOT) -> bool:
    """Whether a file the row names has changed since the row's commit, in the git repository at
    `root` (a commit git does not know counts as changed). A row without a commit, or a folder
    that is no git repository, is not marked."""
    if row.commit is None or not (root / ".git").exists():
        return False
    found = subprocess.run(
        ["git", "log", "--format=%H", "-1", f"{row.commit}..HEAD", "--", *row.files],
        cwd=root,
        capture_output=True,
        text=True,
    )
    return found.returncode != 0 or bool(found.stdout.strip())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def readme_table(results: Results) -> str:
    """README.md's table: the rows marked `readme`, no machine and no date."""
    rows = [[r.what, r.figure(), r.goal_cell(), f"`{r.command}`"] for r in results.rows if r.readme]
    return "\n".join([NOTICE, *_table(["what", "figure", "goal", "command"], rows)])


def page_tables(results: Results) -> str:
    """docs/benchmarks.md's current figures: the machines, then a table for each section."""
    lines = [NOTICE, ""]
    machines = []
    for m in results.machines.values():
        machines.append([f"`{m.name}`", m.processor, str(m.cores), m.l2 or "not recorded", m.date])
    lines += _table(["machine", "processor", "cores", "second-level cache a core", "date"], machines)
    sections: dict[str, list[Row]] = {}
    for row in results.rows:
        sections.setdefault(row.section, []).append(row)
    for section, rows in sections.items():
        cells = []
        for r in rows:
            figure = f"{r.figure()}; {r.note}" if r.note else r.figure()
            machine = f"`{r.machine}` at `{r.commit[:7]}`" if r.commit else f"`{r.machine}`"
            cells.append([r.what, figure, r.goal_cell(), machine, f"`{r.command}`"])
        lines += ["", f"### {section}", "", *_table(["what", "figure", "goal", "machine", "command"], cells)]
    return "\n".join(lines)


def on_page(page: str) -> str:
    """What a page holds between its markers now."""
    start, end = page.index(START) + len(START), page.index(END)
    return page[start:end].strip("\n")


def written(page: str, block: str) -> str:
    """The page with `block` between its markers."""
    start, end = page.index(START) + len(START), page.index(END)
    return page[:start] + "\n" + block + "\n" + page[end:]


def pages(results: Results) -> dict[Path, str]:
    """Each page this writes, and what belongs between its markers."""
    return {README: readme_table(results), PAGE: page_tables(results)}


def main(argv: list[str]) -> int:
    stale = []
    for path, block in pages(load()).items():
        text = path.read_text()
        if on_page(text) != block:
            stale.append(path.relative_to(ROOT))
            if "--check" not in argv:
                path.write_text(written(text, block))
    if "--check" in argv:
        print(", ".join(map(str, stale)) + ": run python docs/figures_table.py" if stale else "the figures are current")
        return 1 if stale else 0
    print(f"wrote {', '.join(map(str, stale))}" if stale else "the figures were current")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
