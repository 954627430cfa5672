"""The documentation's figures: the hook that computes them while the site builds, and the README's
copy of the report, which must be what the command prints today."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import caribbean_fast
from caribbean_fast.cli import main

ROOT = Path(__file__).parents[2]


def load_docs_script(name: str) -> ModuleType:
    """A script of docs/ (they are not a package) as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # where its dataclasses look themselves up
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
    """docs/protocol.md's commands and fields are the list in server/wire/commands.py, as
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


def load_figures_table() -> ModuleType:
    return load_docs_script("figures_table")


def test_the_readme_and_the_benchmarks_page_hold_the_results_files_figures() -> None:
    """README.md's figures table and docs/benchmarks.md's current figures are what
    `python docs/figures_table.py` writes from benches/results.toml: a new result is an edit of
    that file and a run of the script."""
    script = load_figures_table()
    for path, block in script.pages(script.load()).items():
        page = path.read_text()
        assert script.on_page(page) == block, f"{path.name} is stale: run python docs/figures_table.py"
        assert script.written(page, block) == page


def test_a_new_row_reaches_the_readme_with_its_goal_worked_out() -> None:
    script = load_figures_table()
    rows: list[dict[str, object]] = [
        {"section": "S", "what": "a ratio", "value": "1.30", "unit": "times", "goal": "<= 2"},
        {"section": "S", "what": "a rate", "value": 75.2, "range": [72.0, 85.1], "unit": "M/s", "goal": ">= 100"},
        {"section": "T", "what": "runs", "range": [123, 167], "unit": "M/s", "goal": ">= 150"},
        {"section": "T", "what": "games", "values": {"a": 3, "b": 1}, "unit": "x", "goal": ">= 2"},
        {"section": "T", "what": "words", "value": 0, "unit": "", "goal": "every `ok` kept", "met": True},
    ]
    for row in rows:
        row.update(command="python benches/x.py", readme=True)
    machines = {"m": {"processor": "a processor", "cores": 2, "date": "2026-12-04"}}
    data = {"machine": "m", "machines": machines, "row": rows}
    results = script.parse(data)
    readme = script.readme_table(results)
    assert "| a ratio | 1.30 times | ≤ 2: met | `python benches/x.py` |" in readme
    assert "| a rate | 75.2 M/s (72.0-85.1) | ≥ 100: not met |" in readme
    assert "| runs | 123-167 M/s | ≥ 150: met in some runs |" in readme
    assert "| games | a 3, b 1 x | ≥ 2: met by 1 of 2 |" in readme
    assert "| words | 0 | every `ok` kept: met |" in readme
    page = script.page_tables(results)
    assert "| `m` | a processor | 2 | not recorded | 2026-12-04 |" in page
    assert page.index("### S") < page.index("### T")
    stale = "before\n<!-- figures:start -->\nold\n<!-- figures:end -->\nafter"
    assert script.written(stale, readme) == f"before\n<!-- figures:start -->\n{readme}\n<!-- figures:end -->\nafter"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"comand": "x"}, r"unknown keys \['comand'\]"),
        ({"machine": "elsewhere"}, "machine 'elsewhere' is not among"),
        ({"value": None, "goal": None}, "no figure"),
        ({"goal": "fast enough"}, "is words: say `met = true` or `false`"),
        ({"met": True}, "is worked out: no `met`"),
        ({"range": [3, 1]}, "from the lowest to the highest"),
        ({"value": "fast"}, "a number"),
    ],
)
def test_the_results_file_refuses_a_row_it_cannot_render(change: dict[str, object], message: str) -> None:
    script = load_figures_table()
    row: dict[str, object] = {"section": "S", "what": "w", "value": 1, "unit": "s", "goal": "<= 2", "command": "c"}
    row.update(change)
    row = {k: v for k, v in row.items() if v is not None}
    data = {"machine": "m", "machines": {"m": {"processor": "p", "cores": 2, "date": "d"}}, "row": [row]}
    with pytest.raises(ValueError, match=message):
        script.parse(data)


def test_a_recorded_row_is_marked_stale_once_a_file_it_names_changes(tmp_path: Path) -> None:
    """A row a bench recorded (`commit`, `files`) shows as measured while its files are as they
    were at its commit, and stale on both pages once a later commit changes one of them; a change
    to another file leaves it current."""
    script = load_figures_table()

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=tmp_path, capture_output=True, text=True, check=True)
        return done.stdout.strip()

    git("init", "-q")
    git("config", "user.email", "bench@example.com")
    git("config", "user.name", "bench")
    (tmp_path / "measured.py").write_text("x = 1\n")
    (tmp_path / "other.py").write_text("y = 1\n")
    git("add", ".")
    git("commit", "-qm", "first")
    ran_on = git("rev-parse", "HEAD")
    row = {"section": "S", "what": "w", "value": 2, "unit": "times", "goal": "<= 2.5", "command": "c"}
    row |= {"readme": True, "commit": ran_on, "files": ["measured.py"]}
    results = tmp_path / "results.toml"
    results.write_text(
        'machine = "m"\n[machines.m]\nprocessor = "p"\ncores = 2\ndate = "d"\n[[row]]\n'
        + "".join(f"{k} = {json.dumps(v)}\n" for k, v in row.items())
    )

    def readme() -> str:
        table: str = script.readme_table(script.load(results, tmp_path))
        return table

    assert "| w | 2 times | ≤ 2.5: met |" in readme()
    (tmp_path / "other.py").write_text("y = 2\n")
    git("commit", "-qam", "another file")
    assert "| w | 2 times | ≤ 2.5: met |" in readme()
    (tmp_path / "measured.py").write_text("x = 2\n")
    git("commit", "-qam", "the measured file")
    stale = f"| w | 2 times (stale: its files changed since {ran_on[:7]}; run it again) | ≤ 2.5: met |"
    assert stale in readme()
    assert stale.replace("| ≤ 2.5: met |", "") in script.page_tables(script.load(results, tmp_path))
    with pytest.raises(ValueError, match="`commit` and `files` go together"):
        script.parse(
            {
                "machine": "m",
                "machines": {"m": {"processor": "p", "cores": 2, "date": "d"}},
                "row": [{k: v for k, v in row.items() if k != "files"}],
            }
        )


def test_the_development_guides_layout_is_written_from_the_code() -> None:
    """docs/development.md lists every Rust file and Python module with its first sentence of
    documentation, as `python docs/layout_table.py` writes it (issue 43): a new or moved module, or
    a changed first line, fails here until the script is run."""
    script = load_docs_script("layout_table")
    page = (ROOT / "docs" / "development.md").read_text()
    assert script.on_page(page) == script.block(), (
        "docs/development.md's layout is stale: run python docs/layout_table.py"
    )
    listed = script.on_page(page)
    assert "python/caribbean_fast/server/store/db.py" in listed and "rust/eval/mod.rs" in listed
    assert all(line for _, line in script.entries()), "a module without a first line of documentation"
