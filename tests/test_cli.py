"""The command line, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys

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
    out = subprocess.run(
        [sys.executable, "-m", "caribbean_fast.cli", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"caribbean-fast {__version__}"
