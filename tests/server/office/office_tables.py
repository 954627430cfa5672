"""Seeded tables for the office's tests: engine tables whose commits go through the server's
record and figures into a real database (as a table's owner writes them), some of them running a
paytable changed behind the office's back (the same name, other pays)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tables import START, Clock

from caribbean_fast.analysis import analyze
from caribbean_fast.engine import Table
from caribbean_fast.engine.autoplay import following, play_round
from caribbean_fast.server.store import figures, pools, wallets
from caribbean_fast.server.store.accounts import insert_account
from caribbean_fast.server.store.db import Database
from caribbean_fast.server.store.jackpots import open_summary
from caribbean_fast.server.store.record import TableRecord
from caribbean_fast.server.store.schema import Tx
from caribbean_fast.variants import Variant, load_variant, preset_path

HONEST = load_variant("network-24h")


def rigged(folder: Path) -> Variant:
    """Game 3 under its own name, a pair on the raise paying 2 to 1 where the rules say 1."""
    text = preset_path("network-24h").read_text()
    assert "one_pair = 1\n" in text
    path = folder / "network-24h.toml"
    path.write_text(text.replace("one_pair = 1\n", "one_pair = 2\n"))
    return load_variant(path)


def play(
    db: Database,
    table_id: str,
    variant: Variant,
    rounds: int,
    seed: int,
    seats: int = 4,
    ante: int = 100,
    progressive: bool = True,
    seconds: float = 1.0,
    leave: bool = False,
) -> Table:
    """`rounds` rounds of `seats` seats playing the variant's best strategy (each seat its own
    account, its buy-in from its wallet), committed every few rounds as an owner commits them;
    `seconds` between rounds; with `leave`, every seat leaves at the end, back to its wallet."""
    record = TableRecord(table_id)
    record.figures = figures.FiguresSummary(table_id, variant)
    clock = Clock(START)
    table = Table(variant, seats=seats, seed=seed, store=record, clock=clock)
    currency, buy_in = variant.currency.code, 10**9

    def opened(tx: Tx) -> None:  # the progressive's summary and pool, as an owner opens them
        record.summary = summary = open_summary(tx, record, table.meter, variant)
        key, p = pools.pool_key(variant), variant.progressive
        if summary is not None and key is not None and p is not None:
            pools.open_pool(tx, key, p.reset, "tests")
            summary.pool, summary.shard = key, "tests"

    db.run_now(opened)
    for k in range(seats):
        account = f"{table_id}-{k}"

        def sat(tx: Tx, account: str = account, k: int = k) -> None:
            insert_account(tx, account, "-", True, START.isoformat())
            wallets.grant(tx, account, currency, buy_in)
            wallets.debit(tx, account, currency, buy_in)
            table.sit(k, account, buy_in)
            record.flush(tx)

        db.run_now(sat)
    strategy = following(analyze(variant).table)
    for r in range(rounds):
        play_round(table, strategy, ante, progressive)
        clock.now += timedelta(seconds=seconds)
        if r % 20 == 19:
            db.run_now(record.flush)
    db.run_now(record.flush)
    for k in range(seats) if leave else ():

        def left(tx: Tx, k: int = k) -> None:
            account = table.account(k)
            returned = next(e.public["returned"] for e in table.leave(k) if e.kind == "stood")
            wallets.credit(tx, account, currency, int(returned))
            record.flush(tx)

        db.run_now(left)
    return table
