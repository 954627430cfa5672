"""caribbean-fast: casino table poker at native speed.

Hand evaluation (``evaluate``, ``evaluate_many``) runs in the Rust core; cards are ids 0..51
(see ``cards``). Games are variants loaded from TOML (``load_variant``), and every payout comes
from one function (``settle``). ``Table`` runs real tables, recorded in a store (``SqliteStore``),
``restore``-d after a crash and ``audit``-ed round by round.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .analysis import ParSheet, analyze
from .analysis.meter import MeterResult, simulate_meter
from .cards import Deck, card_text, format_cards, parse_card, parse_cards
from .engine import SqliteStore, Table, audit, restore
from .errors import (
    ArgumentError,
    ArgumentTypeError,
    AuditError,
    CaribbeanFastError,
    IllegalActionError,
    ImpossibleOutcomeError,
    InsufficientFundsError,
    InvalidCardsError,
    MissingExtraError,
    ReconciliationError,
    StoreError,
    VariantError,
)
from .hands import DISTINCT_STRENGTHS, HandClass, HandValue, class_floor, evaluate, evaluate_many
from .settlement import (
    Decision,
    MoneySettlement,
    Outcome,
    Settlement,
    Showdown,
    Stakes,
    settle,
    settle_money,
)
from .simulation import SessionResult, SimulationResult, simulate, simulate_sessions
from .variants import Variant, list_variants, load_variant

try:
    __version__ = version("caribbean-fast")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"

__all__ = [
    "DISTINCT_STRENGTHS",
    "ArgumentError",
    "ArgumentTypeError",
    "AuditError",
    "CaribbeanFastError",
    "Decision",
    "Deck",
    "HandClass",
    "HandValue",
    "IllegalActionError",
    "ImpossibleOutcomeError",
    "InsufficientFundsError",
    "InvalidCardsError",
    "MeterResult",
    "MissingExtraError",
    "MoneySettlement",
    "Outcome",
    "ParSheet",
    "ReconciliationError",
    "SessionResult",
    "Settlement",
    "Showdown",
    "SimulationResult",
    "SqliteStore",
    "Stakes",
    "StoreError",
    "Table",
    "Variant",
    "VariantError",
    "__version__",
    "analyze",
    "audit",
    "card_text",
    "class_floor",
    "evaluate",
    "evaluate_many",
    "format_cards",
    "list_variants",
    "load_variant",
    "parse_card",
    "parse_cards",
    "restore",
    "settle",
    "settle_money",
    "simulate",
    "simulate_meter",
    "simulate_sessions",
]
