"""Progress as the library reports it (issue 35): a callback hears (done, total), done never going
back and ending at the total, and changes nothing of what is computed; the command line draws the
calls as a rich bar on a terminal, and draws nothing elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

import caribbean_fast.analysis as analysis
import caribbean_fast.analysis.meter as meter
import caribbean_fast.analysis.situations as situations
import caribbean_fast.simulation as simulation
from caribbean_fast import analyze, simulate, simulate_meter, simulate_sessions
from caribbean_fast.analysis.simulator import BATCH_CHUNKS, CHUNK_ROUNDS
from caribbean_fast.cli.progress import progress_bar


class Heard:
    """A progress callback that keeps what it was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    def check(self, total: int) -> None:
        """Done never went back, the total never changed, and the last call ended the work."""
        dones = [done for done, _ in self.calls]
        assert dones == sorted(dones) and dones[0] == 0, self.calls
        assert {t for _, t in self.calls} == {total} and self.calls[-1] == (total, total), self.calls


def test_a_small_simulation_reports_its_rounds_to_the_total() -> None:
    heard = Heard()
    result = simulate("cyberstud", 1_000, seed=4, progress=heard)
    heard.check(1_000)
    quiet = simulate("cyberstud", 1_000, seed=4)
    assert (result.mean, result.stderr, result.per_seat) == (quiet.mean, quiet.stderr, quiet.per_seat)


@pytest.mark.slow
def test_a_simulation_reports_after_each_batch() -> None:
    rounds = 2 * BATCH_CHUNKS * CHUNK_ROUNDS + 5  # two whole batches and a few rounds more
    heard = Heard()
    simulate("cyberstud", rounds, seed=4, strategy="always-raise", progress=heard)
    heard.check(rounds)
    assert len(heard.calls) == 4  # the start, then each of the three batches


def test_sessions_report_each_batch_and_play_what_one_batch_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = simulate_sessions("cyberstud", 2_000, 500, bankroll=10, seed=1)
    monkeypatch.setattr(simulation, "SESSION_BATCH_ROUNDS", 300 * 500)  # batches of 300 sessions
    heard = Heard()
    batched = simulate_sessions("cyberstud", 2_000, 500, bankroll=10, seed=1, progress=heard)
    heard.check(2_000)
    assert len(heard.calls) == 1 + 7
    assert (batched.final == whole.final).all() and (batched.ruined == whole.ruined).all()


def test_the_meter_reports_each_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meter, "_CHUNK", 30_000)
    heard = Heard()
    simulate_meter("network-24h", 100_000, seed=5, progress=heard)
    heard.check(100_000)
    assert len(heard.calls) == 1 + 4


@pytest.mark.slow
def test_the_analysis_reports_the_enumeration_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(situations, "_STUD", {})  # counted again here, and dropped after the test
    monkeypatch.setenv("CARIBBEAN_FAST_CACHE", str(tmp_path))  # with nothing kept to read instead
    monkeypatch.setattr(analysis, "_SHEETS", {})
    heard, again = Heard(), Heard()
    sheet = analyze("cyberstud", progress=heard)
    heard.check(situations.STEPS)
    assert len(heard.calls) > 2  # the core reported as it went, not only at the ends
    assert analyze("cyberstud", progress=again) is sheet and again.calls == []  # nothing left to count


def test_the_command_line_draws_a_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    with progress_bar("counting") as progress:
        assert progress is None  # the tests' stderr is no terminal
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    with progress_bar("counting") as progress:
        assert progress is not None
        for done in (0, 5, 10):
            progress(done, 10)
