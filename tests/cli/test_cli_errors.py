"""Bad input to every sub-command ends in one line on stderr and exit status 2, never a traceback.

The cases run in-process through `main`, so any exception that escapes it fails the test.
`{tmp}` in an argument is a fresh folder holding `binary.toml` (not UTF-8), `broken.toml` (not
TOML), `text.db` (not a database) and `folder/` (a directory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from caribbean_fast.cli import main

# (argv, what the one error line must say): errors the package raises.
PACKAGE_ERRORS = [
    ("eval Xx Kd Qh Jc Th", "'Xx' is not a card"),
    ("eval As", "1 cards given where 5 to 7 are needed"),
    ("variants show no-such-game", "'no-such-game' is neither a preset"),
    ("variants show {tmp}/binary.toml", "binary.toml: not UTF-8 text (byte 0 is 0xff)"),
    ("variants show {tmp}/broken.toml", "broken.toml: not valid TOML"),
    ("variants show {tmp}/folder", "folder: cannot read: Is a directory"),
    ("analyze no-such-game", "is neither a preset"),
    ("analyze cyberstud --strategy psychic", "strategy: 'psychic' is not one of best"),
    ("simulate cyberstud --rounds 10 --seats 2", "seats: cyberstud seats 1 to 1, not 2"),
    ("simulate cyberstud --rounds 10 --exchange bogus", "exchange: 'bogus' is not an exchange strategy"),
    ("simulate cyberstud --rounds 10 --strategy bogus", "strategy: 'bogus' is not one of"),
    ("simulate casino-holdem --rounds 10 --meter", "casino-holdem has no progressive meter"),
    ("simulate cyberstud --rounds inf", "--rounds must be a whole number such as 1000000 or 1e9, not 'inf'"),
    ("simulate cyberstud --rounds 1e400", "--rounds must be a whole number such as 1000000 or 1e9, not '1e400'"),
    ("simulate cyberstud --rounds nan", "--rounds must be a whole number such as 1000000 or 1e9, not 'nan'"),
    ("simulate cyberstud --rounds 2.5", "--rounds must be a whole number such as 1000000 or 1e9, not '2.5'"),
    ("simulate cyberstud --rounds 10 --seed -1", "seed must be 0 to 18,446,744,073,709,551,615, not -1"),
    ("simulate cyberstud --rounds 10 --seed 18446744073709551616", "seed must be 0 to 18,446,744,073,709,551,615"),
    ("simulate cyberstud --rounds 10 --threads 0", "threads must be 1 to"),
    ("simulate cyberstud --rounds 10 --threads -1", "threads must be 1 to"),
    ("table run cyberstud --store {tmp}/none/t.db", "t.db: no such record"),
    ("table run cyberstud --store {tmp}/folder", "folder exists: continue it (--resume)"),
    ("table run cyberstud --store {tmp}/text.db --resume", "text.db: not a table record"),
    ("table run cyberstud --store {tmp}/new.db --seats 2", "cyberstud seats 1 to 1, not 2"),
    ("table run cyberstud --store {tmp}/new.db --balance -5", "--balance must be positive, not -5"),
    ("table run cyberstud --store {tmp}/t.db --rounds -1", "--rounds must be 0 or more, not -1"),
    ("table run cyberstud --store {tmp}/new.db --ante 1", "--ante 0.01 USD is outside the table's limits 1.00 USD to"),
    ("table run cyberstud --store {tmp}/new.db --ante 30001", "--ante 300.01 USD is outside the table's limits"),
    ("table audit {tmp}/missing.db", "missing.db: no such record"),
    ("table audit {tmp}/text.db", "text.db: not a table record: file is not a database"),
    ("table history {tmp}/text.db", "text.db: not a table record"),
    ("serve --tables {tmp}/binary.toml", "binary.toml: cannot read the tables: 'utf-8' codec can't decode byte 0xff"),
    ("serve --tables {tmp}/broken.toml", "broken.toml: cannot read the tables"),
    ("plot strategy cyberstud -o {tmp}/x.gif", "x.gif: the image must end in .png, .svg or .pdf"),
    ("plot strategy cyberstud -o {tmp}/none/x.png", "the folder"),
    ("plot meter casino-holdem -o {tmp}/x.png", "casino-holdem has no progressive bet to plot"),
    ("plot session cyberstud -o {tmp}/x.png --rounds inf", "--rounds must be a whole number such as 1000000"),
    ("plot session cyberstud -o {tmp}/x.png --bankroll nan", "bankroll must be more than 0 and at most"),
    ("plot session cyberstud -o {tmp}/x.png --seed -1", "seed must be 0 to 18,446,744,073,709,551,615, not -1"),
    ("play no-such-game", "is neither a preset"),
    ("play cyberstud --seats 2", "cyberstud seats 1 to 1, not 2"),
    ("play cyberstud --store {tmp}/text.db", "text.db: not a table record"),
]

# What the parser refuses before any work starts (`OneLineParser`): the command that refused it,
# then the reason, on one line.
ARGUMENT_ERRORS = [
    ("table history {tmp}/t.db --last x", "caribbean-fast table history: error: --last: invalid int value: 'x'"),
    ("table history", "caribbean-fast table history: error: the following arguments are required: store"),
    ("table", "caribbean-fast table: error: the following arguments are required: job"),
    ("simulate cyberstud --no-such-option", "caribbean-fast: error: unrecognized arguments: --no-such-option"),
    ("variants show", "caribbean-fast variants show: error: the following arguments are required: NAME_OR_PATH"),
    ("simulate cyberstud --threads x", "invalid int value: 'x'"),
    ("table run cyberstud --store {tmp}/t.db --seed -1", "seed must be 0 to 18,446,744,073,709,551,615, not -1"),
    ("play cyberstud --balance nan", "nan must be a finite number above 0"),
    ("play cyberstud --balance inf", "inf must be a finite number above 0"),
    ("play cyberstud --seed -1", "seed must be 0 to 18,446,744,073,709,551,615, not -1"),
    ("no-such-command", "invalid choice: 'no-such-command'"),
]


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe not text")
    (tmp_path / "broken.toml").write_text("not toml [\n")
    (tmp_path / "text.db").write_text("a text file, not a database\n")
    (tmp_path / "folder").mkdir()
    return tmp_path


def _argv(line: str, tmp: Path) -> list[str]:
    return line.replace("{tmp}", str(tmp)).split()


@pytest.mark.parametrize(("line", "reason"), PACKAGE_ERRORS)
def test_package_errors_are_one_line_and_exit_2(
    line: str, reason: str, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_argv(line, tmp)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("caribbean-fast: error: "), captured.err
    assert reason in lines[0]


@pytest.mark.parametrize(("line", "reason"), ARGUMENT_ERRORS)
def test_the_parser_refuses_in_one_line_and_exit_2(
    line: str, reason: str, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(_argv(line, tmp))
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("caribbean-fast") and ": error: " in lines[0], captured.err
    assert reason in lines[0]


def test_help_still_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["table", "history", "--help"])
    assert stop.value.code == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("usage: caribbean-fast table history") and captured.err == ""


def test_a_file_that_cannot_be_written_is_one_line(tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp / "folder" / "x.png"
    target.mkdir()  # a folder where the image should go
    assert main(["plot", "meter", "cyberstud", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("caribbean-fast: error: ") and str(target) in err, err


def test_an_ante_below_the_minimum_is_raised_where_the_rules_say_so(
    tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Game 1 (atlantic-city) raises an ante below the minimum to the minimum, as the engine does;
    the run says so and deposits 200 of the antes it plays."""
    assert main(["table", "run", "atlantic-city", "--store", str(tmp / "a.db"), "--ante", "1", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("--ante 0.01 USD is outside the limits: the rules make it 5.00 USD\n"), out
    assert "2 rounds settled" in out


def test_a_run_that_stops_early_says_why(tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """1.50 USD cannot cover an ante of 1.00 USD (at most a third of the balance): no round is dealt."""
    assert main(["table", "run", "cyberstud", "--store", str(tmp / "b.db"), "--balance", "150", "--rounds", "3"]) == 1
    err = capsys.readouterr().err
    assert err == "caribbean-fast: stopped at 0 of 3 rounds: no seat can cover an ante of 1.00 USD\n"
