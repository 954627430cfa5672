"""Exact par sheets: every deal enumerated in Rust, settled with `settle` in Python."""

from __future__ import annotations

from pathlib import Path

from ..errors import ArgumentError
from ..progress import ProgressCallback
from ..variants import Family, Variant, as_variant
from . import holdem, stud
from .parsheet import Event, ParSheet, ProgressiveReturn, SideBetReturn
from .strategy import StrategyTable

__all__ = [
    "Event",
    "ParSheet",
    "ProgressiveReturn",
    "SideBetReturn",
    "StrategyTable",
    "analyze",
    "strategies",
]


def strategies(family: Family) -> dict[str, str]:
    """The named strategies of a family, with what each does."""
    table = stud.STRATEGIES if family is Family.STUD else holdem.STRATEGIES
    return {name: description for name, (description, _) in table.items()}


_SHEETS: dict[tuple[Variant, str], ParSheet] = {}
# Kept by hand, not by functools.cache: a progress callback is no part of what is computed.


def analyze(
    variant: Variant | str | Path, strategy: str = "best", progress: ProgressCallback | None = None
) -> ParSheet:
    """The exact par sheet of a variant (or a preset name, or a TOML path) under a named strategy
    (see `strategies`), computed once per (variant, strategy): a Variant is immutable and
    hashable, so the sheet is kept by it. `progress`: called with (steps done, steps) while every
    deal is enumerated, which happens once per process and dealer qualifier, not for a sheet
    already computed (see `progress.ProgressCallback`)."""
    variant = as_variant(variant)
    known = strategies(variant.family)
    if strategy not in known:
        raise ArgumentError(f"strategy: {strategy!r} is not one of {', '.join(known)}")
    key = (variant, strategy)
    if key not in _SHEETS:
        analyze_family = stud.analyze_stud if variant.family is Family.STUD else holdem.analyze_holdem
        _SHEETS[key] = analyze_family(variant, strategy, progress)
    return _SHEETS[key]
