"""caribbean-fast: casino table poker at native speed.

Hand evaluation (``evaluate``, ``evaluate_many``) runs in the Rust core; cards are ids 0..51
(see ``cards``). Games are variants loaded from TOML (``load_variant``), and every payout comes
from one function (``settle``). ``Table`` runs real tables, recorded in a store (``SqliteStore``),
``restore``-d after a crash and ``audit``-ed round by round.

Importing the package loads only the cards, the hands and the errors: every other name loads its
module the first time it is used (PEP 562), so that evaluating a hand does not wait for the
analysis, the engine or the terminal's libraries.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .cards import Deck, card_text, format_cards, parse_card, parse_cards
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

if TYPE_CHECKING:  # what the names below load on first use, for type checkers and editors
    from .analysis import ParSheet, analyze
    from .analysis.meter import MeterResult, simulate_meter
    from .analysis.tune import TuneResult, tune
    from .engine import SqliteStore, Table, audit, restore
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

    __version__: str

_LAZY: dict[str, str] = {
    **dict.fromkeys(["ParSheet", "analyze"], "analysis"),
    **dict.fromkeys(["MeterResult", "simulate_meter"], "analysis.meter"),
    **dict.fromkeys(["TuneResult", "tune"], "analysis.tune"),
    **dict.fromkeys(["SqliteStore", "Table", "audit", "restore"], "engine"),
    **dict.fromkeys(
        ["Decision", "MoneySettlement", "Outcome", "Settlement", "Showdown", "Stakes", "settle", "settle_money"],
        "settlement",
    ),
    **dict.fromkeys(["SessionResult", "SimulationResult", "simulate", "simulate_sessions"], "simulation"),
    **dict.fromkeys(["Variant", "list_variants", "load_variant"], "variants"),
}
"""Each name loaded on first use, and the submodule it comes from."""


def _installed_version() -> str:
    """The installed distribution's version (importlib.metadata is slow to import: read when asked)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("caribbean-fast")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """Loads a lazy public name's module on first use, and keeps the name here for the next."""
    if name == "__version__":
        value: Any = _installed_version()
    elif name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "__version__"})


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
    "TuneResult",
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
    "tune",
]
