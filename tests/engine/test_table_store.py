"""The record: a run killed at random points and resumed loses and doubles nothing; a changed row
fails the audit, naming its round; the command line over a store."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from caribbean_fast.cli import main
from caribbean_fast.engine import SqliteStore, audit, restore
from caribbean_fast.engine.events import chain_hash, event_to_json, events_to_json
from caribbean_fast.engine.store import Row

RUN = [sys.executable, "-m", "caribbean_fast.cli", "table", "run"]


def run_args(name: str, store: Path, rounds: int) -> list[str]:
    return [
        name,
        "--store",
        str(store),
        "--rounds",
        str(rounds),
        "--seed",
        "9",
        "--progressive",
        "--balance",
        "10000000",
    ]


def final_money(path: Path) -> tuple[int, ...]:
    table = restore(SqliteStore(path))
    return (*(table.balance(k) for k in range(table.seats)), table.house, table.meter)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cyberstud", "casino-holdem"])
def test_killed_and_resumed_runs_lose_nothing(tmp_path: Path, name: str) -> None:
    rounds, store = 400, tmp_path / "killed.db"
    chance = random.Random(name)
    first = subprocess.Popen([*RUN, *run_args(name, store, rounds)], stdout=subprocess.DEVNULL)
    _wait_for_rounds(store, 1)  # killed once the record holds a round, however slow the machine
    time.sleep(chance.uniform(0.0, 0.5))
    first.kill()
    first.wait()
    resume = [*RUN, name, "--store", str(store), "--rounds", str(rounds), "--resume"]  # options from the store
    for _ in range(2):  # resume, and kill again at another point
        again = subprocess.Popen(resume, stdout=subprocess.DEVNULL)
        time.sleep(chance.uniform(0.8, 1.6))
        again.kill()
        again.wait()
    assert main(["table", "run", *run_args(name, store, rounds), "--resume"]) == 0
    report = audit(SqliteStore(store))
    assert report.ok and report.settled == rounds and report.cut_off == 0, report.summary()
    if name == "cyberstud":  # stud rounds are completed on restore: the money ends exactly as unbroken
        assert main(["table", "run", *run_args(name, tmp_path / "whole.db", rounds)]) == 0
        assert final_money(store) == final_money(tmp_path / "whole.db")


def _wait_for_rounds(store: Path, rounds: int, seconds: float = 60) -> None:
    """Waits until the record holds `rounds` rounds' opening (read as a reader would)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(sqlite3.Error):
            db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
            try:
                query = 'SELECT COUNT(*) FROM events WHERE body LIKE \'%"kind":"round_opened"%\''
                found = db.execute(query).fetchone()[0]  # inside the row of the command that opened it
            finally:
                db.close()
            if found >= rounds:
                return
        time.sleep(0.05)
    raise TimeoutError(f"{store}: no {rounds} rounds in {seconds} s")


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "record.db"
    assert main(["table", "run", *run_args("network-24h", path, 30), "--seats", "3"]) == 0
    return path


def rewrite(path: Path, kind: str, change: str, rechain: bool) -> int:
    """Changes the first event of `kind` past the first rounds (`change`: "net" or "seed") in
    its command's row; returns its round."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, body, chain FROM events ORDER BY seq").fetchall()
    seq, events = next((s, Row(b, c).events) for s, b, c in rows if s > 100 and f'"kind":"{kind}"' in b)
    at, event = next((i, e) for i, e in enumerate(events) if e.kind == kind)
    if change == "net":
        net = dict(event.public["net"]) | {"total": event.public["net"]["total"] + 100}
        event = type(event)(**{**event.__dict__, "public": {**event.public, "net": net}})
    else:
        event = type(event)(**{**event.__dict__, "secret": {"seed": "00" * 32}})
    events[at] = event
    db.execute("UPDATE events SET body = ? WHERE seq = ?", (events_to_json(events), seq))
    if rechain:
        chain = ""
        for s, b in db.execute("SELECT seq, body FROM events ORDER BY seq").fetchall():
            chain = chain_hash(chain, b)
            db.execute("UPDATE events SET chain = ? WHERE seq = ?", (chain, s))
    db.commit()
    db.close()
    return event.round


@pytest.mark.parametrize(
    ("kind", "change", "rechain", "reason"),
    [
        ("settled", "net", False, "does not match its hash"),
        ("settled", "net", True, "is not what the table does on replay"),
        ("round_opened", "seed", True, "does not match the commitment"),
    ],
)
def test_a_changed_row_fails_the_audit(
    record: Path, kind: str, change: str, rechain: bool, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["table", "audit", str(record)]) == 0
    round_ = rewrite(record, kind, change, rechain)
    capsys.readouterr()
    assert main(["table", "audit", str(record)]) == 1
    out = capsys.readouterr().out
    assert f"FAILED at round {round_}" in out and reason in out


def test_history_and_errors(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["table", "history", str(record), "--seat", "1", "--last", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("--- round") == 2 and "seat 2 dealt: " in out and "opened" in out  # words count from 1
    assert main(["table", "history", str(record), "--seat", "7"]) == 2
    assert main(["table", "audit", str(record.with_name("missing.db"))]) == 2
    assert main(["table", "run", *run_args("network-24h", record, 5)]) == 2  # exists: needs --resume
    assert "exists: continue it (--resume)" in capsys.readouterr().err
    fresh = record.with_name("fresh.db")
    assert main(["table", "run", *run_args("network-24h", fresh, 5), "--seats", "9"]) == 2
    assert "seats 1 to 4, not 9" in capsys.readouterr().err and not fresh.exists()


def test_run_with_the_best_strategy(tmp_path: Path) -> None:
    path = tmp_path / "best.db"
    assert main(["table", "run", "caribbean-poker", "--store", str(path), "--rounds", "20", "--strategy", "best"]) == 0
    report = audit(SqliteStore(path))
    assert report.ok and report.settled == 20


@pytest.mark.parametrize("name", ["network-24h", "casino-holdem", "atlantic-city"])
def test_event_text_is_the_standard_librarys_canonical_json(name: str) -> None:
    """orjson writes the stored text; it must be the text the standard library writes (the chain
    hashes of every record cover it), and where it could differ the latter writes it."""
    from datetime import UTC, datetime

    from caribbean_fast import load_variant
    from caribbean_fast.engine import MemoryStore, Table
    from caribbean_fast.engine.autoplay import play_round
    from caribbean_fast.engine.events import Event, canonical_json

    variant = load_variant(name)
    table = Table(variant, seed=5, store=MemoryStore())
    for seat in range(table.seats):
        table.deposit(seat, 10**9)
    for _ in range(40):
        play_round(table, "simple", table.limits.minimum, variant.progressive is not None)
    events = table.recorded()  # every round's: memory holds only the latest round
    assert sum(e.kind == "round_closed" for e in events) == 40 and len(events) == table.seq
    for event in events:
        body = json.loads(event_to_json(event))
        assert event_to_json(event) == canonical_json(body)
    odd = Event(0, 1, "bets", datetime(2026, 1, 1, tzinfo=UTC), 0, {"name": "é", "big": 10**30, "k": {"b": 1, "a": 2}})
    assert event_to_json(odd) == canonical_json(json.loads(event_to_json(odd)))
    assert '"\\u00e9"' in event_to_json(odd) and "1000000000000000000000000000000" in event_to_json(odd)
    # A command's row: the array of its events as each writes alone, the odd one among them too.
    for command in (events[:3], events[3:9], [events[0], odd, events[1]]):
        assert events_to_json(command) == "[" + ",".join(event_to_json(e) for e in command) + "]"
    assert isinstance(table.store, MemoryStore)
    stored = table.store.rows()  # a row a command: 40 rounds of 3 seats or one, a few commands each
    assert sum(len(row.events) for row in stored) == table.seq and len(stored) < table.seq / 2


def test_a_record_of_a_row_an_event_goes_on_in_rows_of_a_command(tmp_path: Path) -> None:
    """A record written before rows were a command's (an object a row) restores, goes on in rows
    of a command on one chain, and audits; its events are the table's, in order."""
    from caribbean_fast import load_variant
    from caribbean_fast.engine import MemoryStore, Table
    from caribbean_fast.engine.autoplay import play_round

    variant = load_variant("cyberstud")
    memory = MemoryStore()
    table = Table(variant, seed=4, store=memory)
    table.deposit(0, 10**6)
    for _ in range(3):
        play_round(table, "simple", table.limits.minimum, True)
    table.ante(0, table.limits.minimum)  # a round left open
    events = table.recorded()
    path = tmp_path / "old.db"
    old = SqliteStore(path)
    old.write_meta(memory.read_meta())
    old.close()
    db = sqlite3.connect(path)
    chain = ""
    for e in events:  # as the store wrote them before: a row an event, its JSON an object
        text = event_to_json(e)
        chain = chain_hash(chain, text)
        db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", (e.seq, e.round, e.kind, e.seat, text, chain))
    db.commit()
    db.close()
    store = SqliteStore(path)
    resumed = restore(store)
    assert resumed.seq == len(events) + 2  # the restore: its command and its event, in one row
    resumed.deal()
    resumed.raise_(0)
    assert [e.seq for e in resumed.recorded()] == list(range(resumed.seq))
    store.close()
    report = audit(SqliteStore(path, mode="read"))
    assert report.ok and report.settled == 4 and report.events == resumed.seq, report.summary()
    shapes = [b[:1] for (b,) in sqlite3.connect(path).execute("SELECT body FROM events ORDER BY seq")]
    assert shapes == ["{"] * len(events) + ["["] * 3  # restored, deal, raise: a row each
