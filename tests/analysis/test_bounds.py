"""The bounds every size, count and seed is held to (issue 12): each refusal is one
ArgumentError naming the argument, before any work starts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caribbean_fast import load_variant, simulate, simulate_meter, simulate_sessions
from caribbean_fast.bounds import (
    MAX_ROUNDS,
    checked_count,
    checked_number,
    checked_seed,
    checked_threads,
    parse_count,
)
from caribbean_fast.cli import main
from caribbean_fast.errors import ArgumentError
from caribbean_fast.plots import plot_session


@pytest.mark.parametrize(
    ("text", "value"), [("1", 1), ("1000000", 10**6), ("1e9", 10**9), ("2.5e3", 2500), ("1e12", MAX_ROUNDS)]
)
def test_counts_from_the_command_line(text: str, value: int) -> None:
    assert parse_count(text) == value


@pytest.mark.parametrize("text", ["0", "-1", "1e20", "1e13", "2.5", "nan", "inf", "-inf", "1e999", "x", "", "9" * 5000])
def test_bad_counts_from_the_command_line(text: str) -> None:
    with pytest.raises(ArgumentError, match="--rounds must be"):
        parse_count(text)


def test_seeds_threads_and_numbers() -> None:
    assert checked_seed(0) == 0 and checked_seed(2**64 - 1) == 2**64 - 1
    for seed in (-1, 2**64, 2**200, 1.0, True, "7"):
        with pytest.raises(ArgumentError, match="seed must be"):
            checked_seed(seed)
    assert checked_threads(None) is None and checked_threads(2) == 2
    for threads in (0, -1, 2**40, 2.0):
        with pytest.raises(ArgumentError, match="threads must be"):
            checked_threads(threads)
    assert checked_number("bankroll", 100, 1e9) == 100.0
    for bankroll in (float("nan"), float("inf"), 0, -1.0, 10**400, 2e9, "100"):
        with pytest.raises(ArgumentError, match="bankroll must be"):
            checked_number("bankroll", bankroll, 1e9)


@given(st.integers(), st.integers(1, 10**6))
def test_a_count_is_accepted_exactly_within_its_bounds(value: int, most: int) -> None:
    try:
        assert checked_count("n", value, most) == value and 1 <= value <= most
    except ArgumentError as err:
        assert not 1 <= value <= most and str(err).startswith("n must be")


def test_the_meter_and_the_session_picture_refuse_sizes_past_their_bounds(tmp_path: Path) -> None:
    v = load_variant("cyberstud")
    for rounds in (0, 2**63, 10**20):
        with pytest.raises(ArgumentError, match="rounds must be 1 to 10,000,000,000"):
            simulate_meter(v, rounds)
    with pytest.raises(ArgumentError, match="seed must be"):
        simulate_meter(v, 10, seed=-1)
    picture = tmp_path / "s.png"
    for rounds, bankroll, sessions, words in [
        (10**7, 100.0, 10, "rounds must be 1 to 1,000,000"),
        (1000, float("nan"), 10, "bankroll must be more than 0"),
        (1000, 100.0, 10**10, "sessions must be 1 to 10,000,000"),
        (10**6, 100.0, 10**7, "sessions x rounds must be at most"),
    ]:
        with pytest.raises(ArgumentError, match=words):
            plot_session(v, rounds, bankroll, picture, sessions)
    assert not picture.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["simulate", "cyberstud", "--rounds", "1e20"],
            "--rounds must be 1 to 1,000,000,000,000, not 100000000000000000000",
        ),
        (["simulate", "cyberstud", "--rounds", "nan"], "--rounds must be a whole number"),
        (["simulate", "cyberstud", "--meter", "--rounds", "1e11"], "--rounds must be 1 to 10,000,000,000"),
        (["plot", "session", "cyberstud", "-o", "x.png", "--rounds", "1e7"], "--rounds must be 1 to 1,000,000"),
        (["plot", "session", "cyberstud", "-o", "x.png", "--bankroll", "inf"], "bankroll must be more than 0"),
    ],
)
def test_the_command_line_refuses_sizes_in_one_line(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def test_simulations_refuse_sizes_before_any_work() -> None:
    v = load_variant("cyberstud")
    cases: list[tuple[dict[str, object], str]] = [
        ({"rounds": 2**64}, "rounds must be 1 to 1,000,000,000,000"),
        ({"rounds": 10**20}, "rounds must be 1 to"),
        ({"rounds": 0}, "rounds must be 1 to"),
        ({"rounds": 100, "threads": 2**40}, "threads must be 1 to 256"),
        ({"rounds": 100, "threads": -1}, "threads must be 1 to 256"),
        ({"rounds": 100, "seed": -1}, "seed must be 0 to"),
        ({"rounds": 100, "seed": 2**64}, "seed must be 0 to"),
    ]
    for kwargs, words in cases:
        with pytest.raises(ArgumentError, match=words):
            simulate(v, **kwargs)  # type: ignore[arg-type]
    for args, words in [
        ((10**10, 10, 100.0), "sessions must be 1 to 10,000,000"),
        ((10**6, 10**7, 100.0), "sessions x rounds must be at most"),
        ((10, 10, float("nan")), "bankroll must be more than 0"),
        ((10, 10, float("inf")), "bankroll must be more than 0"),
    ]:
        with pytest.raises(ArgumentError, match=words):
            simulate_sessions(v, *args)


def test_batches_are_made_as_they_are_needed() -> None:
    from caribbean_fast.analysis import simulator

    batches = simulator.batches(MAX_ROUNDS)
    assert isinstance(batches, Iterator) and next(batches) == (0, simulator.BATCH_CHUNKS)


@pytest.mark.parametrize(
    ("option", "words"),
    [(["--threads", "-1"], "threads must be 1 to 256"), (["--seed", "-1"], "seed"), (["--seed", str(2**64)], "seed")],
)
def test_simulate_refuses_threads_and_seeds_in_one_line(
    option: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "cyberstud", "--rounds", "1000", *option]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
