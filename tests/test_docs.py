"""The documentation's figures: the hook that computes them while the site builds, and the README's
copy of the report, which must be what the command prints today."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

import caribbean_fast
from caribbean_fast.cli import main

ROOT = Path(__file__).parent.parent


def load_docs_script(name: str) -> ModuleType:
    """A script of docs/ (they are not a package) as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_hook() -> ModuleType:
    return load_docs_script("figures_hook")


def test_hook_puts_a_commands_output_in_the_page() -> None:
    page = load_hook().expand("before\n<!-- cli-text: --version -->\nafter")
    version = f"caribbean-fast {caribbean_fast.__version__}"
    assert page == f"before\n```text\n$ caribbean-fast --version\n{version}\n```\nafter"


def test_hook_demotes_markdown_headings() -> None:
    page = load_hook().expand("<!-- cli: analyze cyberstud --format markdown -->")
    assert page.startswith("## Cyber Caribbean Stud Poker: par sheet, best strategy\n")
    assert "\n### Return table\n" in page


def test_hook_refuses_a_failing_command_and_a_misspelt_directive() -> None:
    hook = load_hook()
    with pytest.raises(RuntimeError, match="caribbean-fast analyze no-such-game exited 2"):
        hook.expand("<!-- cli: analyze no-such-game -->")
    with pytest.raises(ValueError, match="not a figures directive"):
        hook.expand("<!-- cli-txt: report -->")


def test_cli_reference_walks_every_sub_command() -> None:
    page = load_hook().expand("<!-- cli-help -->")
    for command in ("eval", "variants show", "analyze", "table run", "table audit", "plot meter"):
        assert f"## `caribbean-fast {command}`" in page
        assert f"$ caribbean-fast {command} --help\nusage: caribbean-fast {command}" in page


def test_readme_report_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    block = re.search(r"```text\n\$ caribbean-fast report\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block is not None
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["report"]) == 0
    printed = capsys.readouterr().out
    assert [line.rstrip() for line in printed.splitlines()] == [line.rstrip() for line in block[1].splitlines()]


def test_hook_puts_a_par_sheet_figure_in_a_sentence() -> None:
    hook = load_hook()
    line = "edge <!-- pct: cyberstud house_edge -->, exactly <!-- exact: cyberstud expected_return -->."
    sheet = caribbean_fast.analyze(caribbean_fast.load_variant("cyberstud"))
    assert hook.expand(line) == f"edge {float(sheet.house_edge) * 100:.4f}%, exactly {sheet.expected_return}."
    with pytest.raises(KeyError, match="cyberstud's par sheet has no figure 'house_egde'"):
        hook.expand("<!-- pct: cyberstud house_egde -->")
    with pytest.raises(ValueError, match="not a figures directive"):
        hook.expand("<!-- pct: cyberstud -->")


def load_commands_table() -> ModuleType:
    return load_docs_script("commands_table")


def test_the_protocol_page_lists_the_commands_of_the_code() -> None:
    """docs/protocol.md's commands and fields are the list in server/commands.py, as
    `python docs/commands_table.py` writes them."""
    script = load_commands_table()
    page = (ROOT / "docs" / "protocol.md").read_text()
    assert script.on_page(page) == script.tables(), "the page is stale: run python docs/commands_table.py"
    assert script.written(page) == page


def test_the_page_check_fails_when_the_page_and_the_code_differ() -> None:
    script = load_commands_table()
    page = (ROOT / "docs" / "protocol.md").read_text()
    stale = page.replace("| `rebet` | `table` |", "| `rebet` | `table`, `amount` |")
    assert stale != page and script.on_page(stale) != script.tables()
    assert script.written(stale) == page


def test_the_game_4_page_quotes_the_simulated_edge_the_cli_prints() -> None:
    """The choose variant's simulated edge on docs/games/caribbean-poker.md comes from its par
    sheet when the site is built, so it cannot drift from what `analyze` prints."""
    page = (ROOT / "docs" / "games" / "caribbean-poker.md").read_text()
    assert "<!-- pct: caribbean-poker-choose beaten_by.mean -->" in page
    sheet = json.loads(load_hook().run("analyze caribbean-poker-choose --format json"))
    assert f"{sheet['beaten_by']['mean'] * 100:.4f}%" in load_hook().expand(page)
