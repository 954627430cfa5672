"""Records misused: opening a store never changes a record, a second writer is refused, readers
change nothing, and a malformed or tampered record is one clear line (issue 12, "Records")."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from caribbean_fast import load_variant
from caribbean_fast.cli import main
from caribbean_fast.cli.play import open_table
from caribbean_fast.cli.records import new_record
from caribbean_fast.engine import IN_USE, MemoryStore, SqliteAccountBook, SqliteStore, StoreError, Table, audit
from caribbean_fast.engine.events import chain_hash

GAME = "network-24h"  # four seats


def fingerprint(path: Path) -> dict[str, str]:
    """Every file of the store (the database, and any -wal, -shm or -journal) by its hash."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.glob(path.name + "*"))}


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "record.db"
    assert main(["table", "run", GAME, "--store", str(path), "--rounds", "5", "--seed", "4", "--seats", "2"]) == 0
    return path


def cli(*args: str) -> tuple[int, str, str]:
    """The command line in its own process: exit status, stdout, stderr."""
    done = subprocess.run([sys.executable, "-m", "caribbean_fast.cli", *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def one_error(err: str, *words: str) -> None:
    assert err.count("\n") == 1 and err.startswith("caribbean-fast: error: "), err
    assert "Traceback" not in err and all(w in err for w in words), err


def test_a_new_table_on_a_held_store_is_refused_and_changes_nothing(record: Path) -> None:
    before = fingerprint(record)
    for variant, seed in (("network-24h", 4), ("casino-holdem", 99)):
        with SqliteStore(record) as store, pytest.raises(StoreError, match="holds a table already"):
            Table(load_variant(variant), seed=seed, store=store)
    assert fingerprint(record) == before
    assert audit(SqliteStore(record, mode="read")).ok
    memory = MemoryStore()
    Table(load_variant("network-24h"), store=memory)
    with pytest.raises(StoreError, match="holds a table already"):
        Table(load_variant("network-24h"), store=memory)
    with pytest.raises(StoreError, match="'seats' is set already"):
        memory.write_meta({"seats": "3"})


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (["casino-holdem"], "network-24h (asked casino-holdem)"),
        (["network-24h", "--seats", "1"], "--seats 2 (asked 1)"),
        (["network-24h", "--seed", "5"], "--seed 4 (asked 5)"),
        (["network-24h", "--ante", "300"], "--ante default (asked 300)"),
        (["network-24h", "--balance", "7"], "--balance 10000 (asked 7)"),
    ],
)
def test_resume_refuses_options_the_record_does_not_hold(record: Path, change: list[str], named: str) -> None:
    before = fingerprint(record)
    status, _, err = cli("table", "run", *change, "--store", str(record), "--resume", "--rounds", "9")
    assert status == 2
    one_error(err, named, "leave these options out")
    assert fingerprint(record) == before
    assert main(["table", "run", GAME, "--store", str(record), "--resume", "--rounds", "7", "--seats", "2"]) == 0
    assert audit(SqliteStore(record, mode="read")).settled == 7


def test_play_on_another_games_store_is_refused(record: Path) -> None:
    before = fingerprint(record)
    for variant, seats, balance in (("casino-holdem", None, None), (GAME, 1, None), (GAME, None, 3.0)):
        args = Namespace(variant=variant, store=record, seats=seats, seed=None, balance=balance, limits=None)
        with pytest.raises(StoreError, match="continues the table it records"):
            open_table(args)
    assert fingerprint(record) == before


@pytest.mark.slow
def test_a_second_writer_in_another_process_is_refused(record: Path) -> None:
    held = SqliteStore(record)
    status, _, err = cli("table", "run", "network-24h", "--store", str(record), "--resume", "--rounds", "9")
    assert status == 2
    one_error(err, f"{IN_USE} (another process holds it)")
    with pytest.raises(StoreError, match=rf"{IN_USE} \(a store this process opened holds it\)"):
        SqliteStore(record)  # a second writer in this process too, told it is this process
    status, out, _ = cli("table", "audit", str(record))  # readers read a store being written
    assert status == 0 and out.startswith("OK: ")
    held.close()
    assert cli("table", "run", "network-24h", "--store", str(record), "--resume", "--rounds", "6")[0] == 0


def test_two_runs_racing_for_one_new_store(tmp_path: Path) -> None:
    path = tmp_path / "race.db"
    run = [sys.executable, "-m", "caribbean_fast.cli", "table", "run", "network-24h", "--store", str(path)]
    both = [subprocess.Popen([*run, "--rounds", "50"], stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(), p.communicate()[1]) for p in both]  # communicate closes the pipe
    assert sorted(status for status, _ in results) == [0, 2], results
    assert audit(SqliteStore(path, mode="read")).settled == 50


def foreign(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE accounts (name TEXT, cents INTEGER)")
    db.execute("INSERT INTO accounts VALUES ('alice', 100)")
    db.commit()
    db.close()
    return path


@pytest.mark.parametrize("kind", ["empty", "foreign", "text", "missing"])
@pytest.mark.parametrize("job", [["audit"], ["history"], ["run", "network-24h", "--resume", "--store"]])
def test_readers_and_resumes_leave_other_files_alone(tmp_path: Path, kind: str, job: list[str]) -> None:
    path = tmp_path / "other.db"
    if kind == "empty":
        path.touch()
    elif kind == "foreign":
        foreign(path)
    elif kind == "text":
        path.write_text("not a database\n" * 50)
    before = fingerprint(path)
    status, _, err = cli("table", *job, str(path))
    assert status == 2
    one_error(err, str(path))
    assert fingerprint(path) == before


def test_readers_leave_a_record_byte_for_byte(record: Path) -> None:
    before = fingerprint(record)
    assert list(before) == ["record.db"]  # a closed record: no -wal or -shm files
    assert cli("table", "audit", str(record))[0] == 0
    assert cli("table", "history", str(record))[0] == 0
    assert fingerprint(record) == before


def rechain(path: Path, seq: int, body: str) -> None:
    """Writes `body` into row `seq` and recomputes every hash: a forger's change."""
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body = ? WHERE seq = ?", (body, seq))
    chain = ""
    for s, b in db.execute("SELECT seq, body FROM events ORDER BY seq").fetchall():
        chain = chain_hash(chain, b)
        db.execute("UPDATE events SET chain = ? WHERE seq = ?", (chain, s))
    db.commit()
    db.close()


def first_row_with(path: Path, kind: str) -> tuple[int, list[dict[str, Any]]]:
    """The first row holding an event of `kind`: its seq and its events (a command's, an array)."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, body FROM events ORDER BY seq").fetchall()
    db.close()
    return next((int(s), json.loads(b)) for s, b in rows if f'"kind":"{kind}"' in b)


def more_net(row: dict[str, Any]) -> dict[str, Any]:
    row["public"]["net"]["total"] += 100
    return row


def bogus_argument(row: dict[str, Any]) -> dict[str, Any]:
    row["public"]["args"]["bogus"] = 1
    return row


@pytest.mark.parametrize(
    ("kind", "forge", "words"),
    [
        ("settled", more_net, "fails the audit"),
        ("deal", bogus_argument, "fails the audit"),
        ("settled", lambda row: "{not json", "a malformed row"),
        ("settled", lambda row: {"seq": 3}, "a malformed row"),
        ("settled", lambda row: row | {"time": "yesterday"}, "a malformed row"),
    ],
)
def test_history_shows_only_what_passes_the_audit(
    record: Path, kind: str, forge: Callable[[dict[str, Any]], object], words: str
) -> None:
    seq, events = first_row_with(record, kind)
    at = next(i for i, e in enumerate(events) if e["kind"] == kind)
    forged = forge(events[at])
    rechain(record, seq, forged if isinstance(forged, str) else json.dumps([*events[:at], forged, *events[at + 1 :]]))
    status, out, err = cli("table", "history", str(record))
    assert status == 2 and out == ""
    one_error(err, words)
    status, out, _ = cli("table", "audit", str(record))
    assert status == 1 and out.startswith("FAILED") and out.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("seats", "two", "malformed meta data"),
        ("variant", "[[[", "malformed meta data"),
        ("accounts", "{}", "malformed meta data"),
        ("variant", 'name = "x"', "the recorded variant: family"),
    ],
)
def test_malformed_meta_data_is_one_line(record: Path, key: str, value: str, words: str) -> None:
    db = sqlite3.connect(record)
    db.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    db.commit()
    db.close()
    status, out, _ = cli("table", "audit", str(record))
    assert status == 1 and out.count("\n") == 1 and out.startswith("FAILED") and words in out, out
    status, _, err = cli("table", "history", str(record))
    assert status == 2
    one_error(err, words)
    status, _, err = cli("table", "run", "network-24h", "--store", str(record), "--resume")
    assert status == 2
    one_error(err)


@pytest.mark.slow
def test_a_failed_start_leaves_no_store(tmp_path: Path) -> None:
    path = tmp_path / "half.db"
    with pytest.raises(StoreError), new_record(path) as store:
        Table(load_variant("network-24h"), store=store)
        raise StoreError("cut off while setting up")
    assert list(tmp_path.iterdir()) == []
    for bad in (["--seats", "9"], ["--balance", "-5"], ["--ante", "0"], ["--rounds", "-1"]):
        status, _, err = cli("table", "run", "network-24h", "--store", str(path), *bad)
        assert status == 2
        one_error(err, f"not {bad[1]}")
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["foreign", "text"])
def test_an_account_book_never_writes_into_another_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "book.db"
    if kind == "foreign":
        foreign(path)
    else:
        path.write_text("not a database\n" * 40)
    before = fingerprint(path)
    with pytest.raises(StoreError, match="not an account book"):
        SqliteAccountBook(path)
    assert fingerprint(path) == before
    fresh = SqliteAccountBook(tmp_path / "new.db")
    assert fresh.limit("alice") == (None, None)
    assert SqliteAccountBook(tmp_path / "new.db").limit("alice") == (None, None)  # the book reopens
