"""Each plot command writes a non-empty image; bad arguments get a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from caribbean_fast.cli import main


@pytest.mark.parametrize(
    "args",
    [
        ["strategy", "cyberstud"],
        ["strategy", "casino-holdem"],
        ["session", "atlantic-city", "--rounds", "200", "--bankroll", "50", "--sessions", "500"],
        ["meter", "network-24h"],
    ],
)
def test_plots_write_images(tmp_path: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"{args[0]}.png"
    assert main(["plot", *args, "-o", str(out)]) == 0
    assert out.stat().st_size > 10_000 and out.read_bytes()[:4] == b"\x89PNG"
    assert f"wrote {out}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["meter", "casino-holdem", "-o", "{tmp}/m.png"], "casino-holdem has no progressive bet to plot"),
        (["meter", "cyberstud", "-o", "{tmp}/m.txt"], "must end in .png, .svg or .pdf"),
        (["meter", "cyberstud", "-o", "{tmp}/missing/m.png"], "does not exist"),
        (["strategy", "no-such-game", "-o", "{tmp}/s.png"], "no-such-game"),
    ],
)
def test_bad_plot_arguments(tmp_path: Path, args: list[str], reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plot", *(a.format(tmp=tmp_path) for a in args)]) == 2
    assert reason in capsys.readouterr().err


def test_bad_session_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plot", "session", "cyberstud", "--rounds", "0", "-o", "x.png"]) == 2
    assert "--rounds must be 1 to 1,000,000, not 0" in capsys.readouterr().err
