"""The command line, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from caribbean_fast import __version__
from caribbean_fast.cli import main


def test_eval_prints_best_five_class_and_strength(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "As", "Kd", "Qh", "Jc", "Th", "9s", "2d"]) == 0
    out = capsys.readouterr().out
    assert "best five: As Kd Qh Jc Th" in out
    assert "class:     Straight" in out
    assert "Straight, Ace high" in out


def test_bad_cards_exit_non_zero_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "As", "As", "Qh", "Jc", "Th"]) == 2
    assert "As appears twice" in capsys.readouterr().err


def test_console_script_version() -> None:
    out = subprocess.run([sys.executable, "-m", "caribbean_fast.cli", "--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stdout.strip() == f"caribbean-fast {__version__}"


def test_variants_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for name in ("atlantic-city", "cyberstud", "network-24h", "caribbean-poker", "casino-holdem"):
        assert name in out


def test_variants_show_prints_rules_and_paytables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "show", "network-24h"]) == 0
    out = capsys.readouterr().out
    assert "dealer does not qualify" in out and "200 to 1" in out and "1250.00 EUR" in out


def test_variants_show_a_bad_file_exits_non_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nfamily = "stud"\nraise_multipel = 2\n')
    assert main(["variants", "show", str(bad)]) == 2
    assert "raise_multipel: unknown key (did you mean raise_multiple?)" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["analyze", "tune"])
def test_help_says_where_counted_tables_are_kept_and_how_to_clear_them(
    command: str, counted_tables_cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # the folder's path on one line
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert f"kept in {counted_tables_cache}" in out and "delete the folder" in out
