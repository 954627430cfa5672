"""A bench's own rows of benches/results.toml (`--record`): each row found by its `id` and replaced
(or added at the end of its section), with the commit the bench ran on, the files whose change
makes the figure stale (`files`, which docs/figures_table.py reads), and the machine it ran on
(added to `[machines]` under the day's date and the processor's family and model).

A run of uncommitted code is no figure of a commit: `--record` refuses while any of the row's
files differs from the commit.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from host import _cpu_field

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benches" / "results.toml"
BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def commit_of(files: list[str]) -> str:
    """The commit the bench runs on; a SystemExit naming the files that differ from it."""
    changed = _git("status", "--porcelain", "--", *files)
    if changed:
        raise SystemExit(f"--record: these files differ from the commit; commit them first:\n{changed}")
    return _git("rev-parse", "HEAD")


def machine() -> tuple[str, dict[str, Any]]:
    """This machine's id in `[machines]` and its keys: the day, the maker's short name, the
    processor's family and model (`2026-12-05-amd-25-17`)."""
    name = _cpu_field("model name") or "unknown processor"
    family, model = _cpu_field("cpu family") or "0", _cpu_field("model") or "0"
    avx512 = "avx512f" in _cpu_field("flags").split()
    maker = name.split()[0].lower() if name.split() else "unknown"
    today = datetime.date.today().isoformat()
    keys: dict[str, Any] = {
        "processor": f"{name} (family {family}, model {model}), {'AVX-512' if avx512 else 'no AVX-512'}",
        "cores": os.cpu_count() or 1,
    }
    l2 = Path("/sys/devices/system/cpu/cpu0/cache/index2/size")
    if l2.exists():
        keys["l2"] = l2.read_text().strip().replace("K", " KB")
    keys["date"] = today
    return f"{today}-{re.sub(r'[^a-z0-9]+', '-', maker)}-{family}-{model}", keys


def toml_value(x: Any) -> str:
    """A value in TOML: a string, a number, a boolean, a list or an inline table of these."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int | float):
        return repr(x)
    if isinstance(x, str):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'
    if isinstance(x, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in x) + "]"
    if isinstance(x, dict):
        items = (f"{k if BARE.match(k) else toml_value(k)} = {toml_value(v)}" for k, v in x.items())
        return "{ " + ", ".join(items) + " }"
    raise TypeError(f"no TOML for {type(x).__name__}")


def _block(keys: dict[str, Any]) -> str:
    return "[[row]]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in keys.items() if v is not None)


def write(rows: list[dict[str, Any]], files: list[str], path: Path = RESULTS) -> None:
    """Writes each row (its `id` finds the row to replace; a new one goes after its section's last
    row), with `commit`, `files` and `machine` set here, and the machine's keys."""
    commit = commit_of(files)
    name, keys = machine()
    text = path.read_text()
    if f"[machines.{name}]" not in text:
        block = f"[machines.{name}]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in keys.items())
        found = re.search(r"(?m)^\[machines\.", text)
        first = found.start() if found else len(text)
        text = text[:first] + block + "\n" + text[first:]
    load = f"the machine's load average {os.getloadavg()[0]:.1f} at the end (other work slows a run)"
    for row in rows:
        note = f"{row['note']}; {load}" if row.get("note") else load
        text = replaced(text, {**row, "note": note, "machine": name, "commit": commit, "files": files})
    path.write_text(text)


def replaced(text: str, row: dict[str, Any]) -> str:
    """The results file's text with `row` in place of the row of its `id`, or added after the last
    row of its section (at the end when the section has none)."""
    blocks = re.split(r"(?m)^(?=\[\[row\]\]\n|# )", text)
    mine = toml_value(row["id"])
    new = _block(row) + "\n"
    for k, block in enumerate(blocks):
        if block.startswith("[[row]]") and f"\nid = {mine}\n" in block:
            blocks[k] = new
            return "".join(blocks)
    section = f"\nsection = {toml_value(row['section'])}\n"
    last = max((k for k, b in enumerate(blocks) if b.startswith("[[row]]") and section in b), default=None)
    if last is None:
        return text.rstrip("\n") + "\n\n" + new.rstrip("\n") + "\n"
    blocks[last] = blocks[last].rstrip("\n") + "\n\n"
    blocks.insert(last + 1, new)
    return "".join(blocks)
