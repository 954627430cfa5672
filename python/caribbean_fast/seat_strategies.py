"""Seat strategies by name, for the command line and the terminal client: the engine's rules
(`simple`, `always`) and `best`, the par sheet's best strategy. Here, above both, the engine and
the exact analysis meet: the engine plays any table it is given and never runs the analysis."""

from __future__ import annotations

from .analysis import analyze
from .engine.autoplay import STRATEGIES, Strategy, following
from .errors import ArgumentError
from .progress import ProgressCallback
from .variants import Variant

__all__ = ["NAMES", "seat_strategy"]

NAMES: tuple[str, ...] = tuple(sorted([*STRATEGIES, "best"]))
"""Every strategy a seat can be played by, by name."""


def seat_strategy(name: str, variant: Variant, progress: ProgressCallback | None = None) -> Strategy:
    """The strategy of this name for this variant (`best` pays the enumeration the first time,
    which `progress` hears of as `analyze`'s does)."""
    if name == "best":
        return following(analyze(variant, progress=progress).table)
    if name not in STRATEGIES:
        raise ArgumentError(f"strategy: {name!r} is not one of {', '.join(NAMES)}")
    return STRATEGIES[name]
