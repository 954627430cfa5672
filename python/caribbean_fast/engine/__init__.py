"""The table engine: real tables of the five games as event-sourced state machines.

`Table` runs rounds (bets, deal, decisions, exchanges, showdown, settlement through `settle_money`)
over a ledger that always reconciles; every step is an immutable `Event` written to an
`EventStore` (SQLite by default); `restore` rebuilds a table from its store after a crash and
`audit` checks a record round by round.
"""

from ..errors import AuditError, ReconciliationError, StoreError
from .accounts import AccountBook, MemoryAccountBook, SqliteAccountBook
from .events import Event
from .ledger import Ledger
from .limits import next_week_start
from .replay import AuditReport, audit, restore
from .shuffle import SecureSeeds, SeededSeeds, commitment, deck_from_seed
from .state import Bets, Phase
from .store import IN_USE, EventStore, MemoryStore, SqliteStore
from .table import Table
from .views import OtherSeat, SeatView

__all__ = [
    "IN_USE",
    "AccountBook",
    "AuditError",
    "AuditReport",
    "Bets",
    "Event",
    "EventStore",
    "Ledger",
    "MemoryAccountBook",
    "MemoryStore",
    "OtherSeat",
    "Phase",
    "ReconciliationError",
    "SeatView",
    "SecureSeeds",
    "SeededSeeds",
    "SqliteAccountBook",
    "SqliteStore",
    "StoreError",
    "Table",
    "audit",
    "commitment",
    "deck_from_seed",
    "next_week_start",
    "restore",
]
