"""Exact par sheets: every deal enumerated in Rust, settled with `settle` in Python."""

from __future__ import annotations

from pathlib import Path

from ..errors import ArgumentError, ArgumentTypeError
from ..progress import ProgressCallback, checked_progress
from ..variants import Family, Variant, as_variant
from . import holdem, stud
from .parsheet import TIES, Event, ParSheet, ProgressiveReturn, SideBetReturn
from .strategy import StrategyTable

__all__ = [
    "TIES",
    "Event",
    "ParSheet",
    "ProgressiveReturn",
    "SideBetReturn",
    "StrategyTable",
    "analyze",
    "strategies",
]


def strategies(family: Family | Variant) -> dict[str, str]:
    """The named strategies of a family (or of a variant's family), with what each does."""
    if isinstance(family, Variant):
        family = family.family
    if not isinstance(family, Family):
        raise ArgumentTypeError(f"family: a Family or a Variant, not {type(family).__name__} {family!r:.60}")
    table = stud.STRATEGIES if family is Family.STUD else holdem.STRATEGIES
    return {name: description for name, (description, _) in table.items()}


_SHEETS: dict[tuple[Variant, str, str], ParSheet] = {}
# Kept by hand, not by functools.lru_cache: a progress callback is no part of what is computed.
# A sheet holds its strategy table (about 5 MB), so only the last few used are kept.
KEPT_SHEETS = 8


def analyze(
    variant: Variant | str | Path,
    strategy: str = "best",
    progress: ProgressCallback | None = None,
    ties: str = "raise",
) -> ParSheet:
    """The exact par sheet of a variant (or a preset name, or a TOML path) under a named strategy
    (see `strategies`), computed once per (variant, strategy): a Variant is immutable and
    hashable, so the sheet is kept by it. `progress`: called with (steps done, steps) while every
    deal is enumerated, which happens once per process and dealer qualifier, not for a sheet
    already computed (see `progress.ProgressCallback`). The last `KEPT_SHEETS` sheets used are
    kept; an older one is settled again from the counts (the enumeration is cached apart).
    `ties`: what the best strategy does where raising (calling) is worth exactly what folding is,
    "raise" (the default, as the tables play) or "fold" (`parsheet.TIES`)."""
    variant, progress = as_variant(variant), checked_progress(progress)
    known = strategies(variant.family)
    if strategy not in known:
        raise ArgumentError(f"strategy: {strategy!r} is not one of {', '.join(known)}")
    if not isinstance(ties, str) or ties not in TIES:
        raise ArgumentError(f"ties: {ties!r} is not one of {', '.join(TIES)}")
    key = (variant, strategy, ties)
    sheet = _SHEETS.pop(key, None)  # put back last: the dict's order is the order of use
    if sheet is None:
        analyze_family = stud.analyze_stud if variant.family is Family.STUD else holdem.analyze_holdem
        sheet = analyze_family(variant, strategy, progress, ties)
    _SHEETS[key] = sheet
    while len(_SHEETS) > KEPT_SHEETS:
        del _SHEETS[next(iter(_SHEETS))]
    return sheet
