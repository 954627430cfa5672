"""Opening a table's record from the command line.

A new record is made whole or not at all: a command that fails while setting it up removes the
file it created. An existing record is continued as it was recorded: an option given that differs
from the record is refused, naming it, never silently ignored; options not given come from it.
Readers open records read-only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..engine import SqliteStore, StoreError
from ..engine.replay import table_config
from ..variants import Variant
from ..variants.toml_io import to_toml

__all__ = ["continued", "new_record", "read_record", "recorded_options", "refuse_differences"]


def read_record(path: Path) -> SqliteStore:
    """The record at `path`, opened read-only."""
    return SqliteStore(path, mode="read")


@contextmanager
def new_record(path: Path) -> Iterator[SqliteStore]:
    """A new store at `path` (refused if the file exists); removed again if the block fails."""
    store = SqliteStore(path, mode="new")
    try:
        yield store
    except BaseException:
        store.close()
        for leftover in (path, *(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))):
            leftover.unlink(missing_ok=True)
        raise


def continued(path: Path) -> SqliteStore:
    """The existing record at `path`, opened to write (and locked)."""
    return SqliteStore(path, mode="continue")


def recorded_options(store: SqliteStore) -> dict[str, Any]:
    """What the record fixes: the variant, seats, seed, each seat's first deposit, and the run's
    own options (`table run` keeps strategy, ante and progressive in the meta data `run`)."""
    meta = store.read_meta()
    try:
        config = table_config(meta)
    except StoreError as err:
        raise StoreError(f"{store.path}: {err}") from None
    try:
        run = json.loads(meta.get("run", "{}"))
    except ValueError:
        raise StoreError(f"{store.path}: malformed meta data: 'run' is not JSON") from None
    deposit = next((e for r in store.rows() for e in r.events if e.kind == "deposit"), None)
    balance = deposit.public["args"]["amount"] if deposit is not None else None
    options = {"--seats": config["seats"], "--seed": config["seed"], "--balance": balance, "--limits": config["limits"]}
    if isinstance(run, dict):
        options |= {f"--{k}": v for k, v in run.items()}
    return {"variant": config["variant"], **options}


def refuse_differences(store: SqliteStore, variant: Variant, asked: dict[str, Any]) -> dict[str, Any]:
    """The recorded options, after refusing (StoreError, naming each) a variant or an option
    given (not None) that differs from the record."""
    recorded = recorded_options(store)
    have: Variant = recorded["variant"]
    differ = []
    if to_toml(variant) != to_toml(have):
        same_name = variant.name == have.name
        differ.append(have.name + (" as recorded, not as the file named" if same_name else f" (asked {variant.name})"))
    for option, value in asked.items():
        if value is not None and option in recorded and recorded[option] != value:
            differ.append(f"{option} {'default' if recorded[option] is None else recorded[option]} (asked {value})")
    if differ:
        raise StoreError(
            f"{store.path} continues the table it records, with {', '.join(differ)}: "
            "leave these options out to continue it"
        )
    return recorded
