"""Exact par sheets: every deal enumerated in Rust, settled with `settle` in Python."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..errors import ArgumentError
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


def analyze(variant: Variant | str | Path, strategy: str = "best") -> ParSheet:
    """The exact par sheet of a variant (or a preset name, or a TOML path) under a named strategy
    (see `strategies`), computed once per (variant, strategy): a Variant is immutable and
    hashable, so the sheet is cached by it."""
    variant = as_variant(variant)
    known = strategies(variant.family)
    if strategy not in known:
        raise ArgumentError(f"strategy: {strategy!r} is not one of {', '.join(known)}")
    return _analyze(variant, strategy)


@cache
def _analyze(variant: Variant, strategy: str) -> ParSheet:
    if variant.family is Family.STUD:
        return stud.analyze_stud(variant, strategy)
    return holdem.analyze_holdem(variant, strategy)
