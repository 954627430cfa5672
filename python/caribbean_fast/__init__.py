"""caribbean-fast: casino table poker at native speed.

Hand evaluation (``evaluate``, ``evaluate_many``) runs in the Rust core; cards are ids 0..51
(see ``cards``). Later modules add variants, settlement, exact analysis, simulation and tables.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .cards import Deck, card_text, format_cards, parse_card, parse_cards
from .errors import (
    CaribbeanFastError,
    IllegalActionError,
    InsufficientFundsError,
    InvalidCardsError,
    VariantError,
)
from .hands import DISTINCT_STRENGTHS, HandClass, HandValue, class_floor, evaluate, evaluate_many

try:
    __version__ = version("caribbean-fast")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"

__all__ = [
    "DISTINCT_STRENGTHS",
    "CaribbeanFastError",
    "Deck",
    "HandClass",
    "HandValue",
    "IllegalActionError",
    "InsufficientFundsError",
    "InvalidCardsError",
    "VariantError",
    "__version__",
    "card_text",
    "class_floor",
    "evaluate",
    "evaluate_many",
    "format_cards",
    "parse_card",
    "parse_cards",
]
