"""Actual against theoretical: seeded tables, one of them paying a pair 2 to 1 on the raise behind
the office's back (the same game name), committed through the server's record into a database.
The changed table falls below its band within the rounds the band predicts; honest tables over
the same rounds stay inside it, at every running point; the figures equal the records'."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from office_tables import HONEST, play, rigged

from caribbean_fast.analysis.actual import LEVELS, MAIN, Moments, rounds_to_detect, theoretical
from caribbean_fast.server.office import alarms
from caribbean_fast.server.office import figures as office
from caribbean_fast.server.store import figures
from caribbean_fast.server.store.db import Database, connect
from caribbean_fast.server.wire.metrics import Metrics

pytestmark = pytest.mark.slow
SEATS = 4
VARIANTS = {HONEST.name: HONEST}


def _predicted_rounds(folder: Path) -> int:
    """The rounds after which the changed paytable falls below the 99.9% band with chance 99%."""
    honest, changed = theoretical(HONEST).wagers[MAIN], theoretical(rigged(folder)).wagers[MAIN]
    shift = float(honest.mean - changed.mean)
    variance = max(float(w.square[0] - w.mean**2) for w in (honest, changed))
    return math.ceil(rounds_to_detect(shift, variance) / SEATS)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Database, int]:
    folder = tmp_path_factory.mktemp("office")
    rounds = _predicted_rounds(folder)
    db = Database(connect(str(folder / "casino.db")))
    for k, seed in enumerate((11, 12), start=1):
        play(db, f"honest-{k}", HONEST, rounds, seed)
    play(db, "changed-1", rigged(folder), rounds, 13)
    return db, rounds


def _line(db: Database, table: str) -> office.Line:
    found = db.run_now(office.read_lines(VARIANTS, "table"))
    return next(line for line in found.lines if line.key["table"] == table)


def test_the_changed_table_alarms_within_the_predicted_rounds_and_the_honest_ones_never(
    played: tuple[Database, int],
) -> None:
    db, rounds = played
    for table in ("honest-1", "honest-2", "changed-1"):
        line = _line(db, table)
        assert line.rounds == rounds and line.spots[MAIN].wagered > 0
        series = db.run_now(office.read_running(table, HONEST))
        assert [p.rounds for p in series] == list(range(figures.STEP, rounds + 1, figures.STEP))
        main = [theoretical(HONEST).band(MAIN, m) for _, _, spots in _points(db, table) for m in [spots[MAIN]]]
        outside = [b.outside(LEVELS[1]) for b in main] + [line.spots[MAIN].outside(LEVELS[1])]
        if table.startswith("honest"):
            assert not any(outside), table  # at every running point and at the end
        else:
            assert outside[-1], f"{table}: z {line.spots[MAIN].z:.2f} after {rounds} rounds"
    found = db.run_now(office.read_lines(VARIANTS, "table"))
    standing = alarms.line_alarms(found.lines, "table")
    assert {(a.key["table"], a.level) for a in standing} == {("changed-1", "alarm")}
    every = db.run_now(alarms.read_alarms(VARIANTS))  # the game of three tables, one changed: diluted
    assert [a for a in every if a.kind == "table"] == standing and not [a for a in every if a.kind == "account"]
    assert "main" in standing[0].why and "players' side" in standing[0].why
    metrics = Metrics()
    alarms.publish(metrics, standing)
    text = metrics.text().decode()
    assert 'cf_office_alarms{kind="table",level="alarm"} 1.0' in text
    assert 'cf_office_alarms{kind="account",level="alarm"} 0.0' in text


def _points(db: Database, table: str) -> list[tuple[int, str, dict[str, Moments]]]:
    return db.run_now(lambda tx: figures.points(tx, table, HONEST.name))


def test_a_game_alarms_on_its_changed_tables_alone(played: tuple[Database, int]) -> None:
    db, _ = played
    rows = db.run_now(lambda tx: figures.table_rows(tx))
    honest = office.lines([r for r in rows if r.key["table"].startswith("honest")], VARIANTS, "game")
    changed = office.lines([r for r in rows if r.key["table"].startswith("changed")], VARIANTS, "game")
    assert alarms.line_alarms(honest.lines, "game") == []
    assert [a.key for a in alarms.line_alarms(changed.lines, "game")] == [{"game": HONEST.name, "currency": "EUR"}]


def test_the_figures_equal_the_records_to_the_minor_unit(played: tuple[Database, int]) -> None:
    db, rounds = played
    days = db.run_now(figures.days)
    assert days == ["2026-11-30"]
    kept, found = db.run_now(lambda tx: figures.reconcile(tx, days[0]))["EUR"]
    assert kept == found != 0
    by_table = db.run_now(office.read_lines(VARIANTS, "table"))
    assert sum(line.rounds for line in by_table.lines) == 3 * rounds
    assert sum(line.band.win for line in by_table.lines) == kept
    pools = db.run_now(office.read_lines(VARIANTS, "pool"))
    assert [line.spots.keys() for line in pools.lines] == [{"progressive"}]
    assert pools.lines[0].band.wagered == 3 * rounds * SEATS * (HONEST.progressive.stake if HONEST.progressive else 0)


def test_the_chart_draws_the_running_hold_inside_its_bands(played: tuple[Database, int]) -> None:
    db, _ = played
    series = db.run_now(office.read_running("honest-1", HONEST))
    svg = office.chart_svg(series, "honest-1")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<polygon") == 2 and svg.count("<polyline") == 2
    assert f"round {series[0].rounds}" in svg and f"round {series[-1].rounds}" in svg
    for p in series:
        low, high = p.band[LEVELS[1]]
        assert low < p.theoretical < high
    assert "no rounds yet" in office.chart_svg([], "empty")


def test_a_grouping_the_office_does_not_know_is_named(played: tuple[Database, int]) -> None:
    db, _ = played
    with pytest.raises(ValueError, match="by: 'week' is not one of table, game, currency, pool, day"):
        db.run_now(office.read_lines(VARIANTS, "week"))
    unknown = db.run_now(office.read_lines({}, "table"))
    assert unknown.lines == [] and unknown.unknown == [HONEST.name]
