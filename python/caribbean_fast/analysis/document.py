"""The whole par sheet of a variant, as a lab files it: the best strategy's sheet with the return
under the least favourable named strategy beside it, the distribution of one round's net by
amount, the confidence bands of the return over N rounds and a volatility index, the largest win
and its odds, a sheet for each side bet and the progressive, hands and theoretical win per hour
under stated assumptions, the strategy card, and the figures' provenance. Every figure is computed
here or in the modules it reads; the assumptions are inputs with stated defaults."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..errors import ArgumentError
from ..progress import ProgressCallback
from ..variants import Variant, as_variant
from ..variants.toml_io import to_toml
from .card import StrategyCard, strategy_card
from .distribution import Band, NetDistribution, bands, volatility_index
from .parsheet import TIES, ParSheet
from .wagers import ProgressiveSheet, WagerSheet, progressive_sheet, side_bet_sheets

__all__ = ["Assumptions", "ParDocument", "Provenance", "par_document", "variant_hash"]

DEFAULT_ROUNDS_PER_HOUR = 60


@dataclass(frozen=True)
class Assumptions:
    """What the per-hour figures assume: rounds a seat plays an hour, seats playing at a table
    (None: every seat of the variant), and the average ante in minor units (None: the lowest
    table's minimum ante)."""

    rounds_per_hour: int = DEFAULT_ROUNDS_PER_HOUR
    seats: int | None = None
    ante: int | None = None

    def checked(self, variant: Variant) -> Assumptions:
        """With the defaults filled in from the variant; bad values refused, naming them."""
        for name, value in (("rounds_per_hour", self.rounds_per_hour), ("seats", self.seats), ("ante", self.ante)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ArgumentError(f"{name}: a whole number of at least 1, not {value!r}")
        seats = variant.seats if self.seats is None else self.seats
        if seats > variant.seats:
            raise ArgumentError(f"seats: {variant.name} has {variant.seats} seat(s), not {seats}")
        ante = min(lim.minimum for lim in variant.limits) if self.ante is None else self.ante
        return Assumptions(self.rounds_per_hour, seats, ante)

    def lines(self, variant: Variant) -> list[str]:
        """The assumptions in words, as printed with the figures."""
        assert self.seats is not None and self.ante is not None
        return [
            f"a seat plays {self.rounds_per_hour} rounds an hour (default {DEFAULT_ROUNDS_PER_HOUR})",
            f"{self.seats} seat(s) play at a table (default: every seat of the variant, {variant.seats})",
            f"the average ante is {variant.currency.format(self.ante)} (default: the lowest table's minimum)",
            "the per-hour win counts the main game only, played by the sheet's strategy",
        ]


@dataclass(frozen=True)
class Hourly:
    """Rounds and the house's theoretical win an hour, for a seat and for a table (minor units)."""

    seat_rounds: int
    table_rounds: int
    seat_win: Fraction
    table_win: Fraction


def hourly(sheet: ParSheet, a: Assumptions) -> Hourly:
    assert a.seats is not None and a.ante is not None
    seat = a.rounds_per_hour * a.ante * sheet.house_edge
    return Hourly(a.rounds_per_hour, a.rounds_per_hour * a.seats, seat, seat * a.seats)


def variant_hash(variant: Variant) -> str:
    """The SHA-256 of the variant's TOML as the package writes it: the same rules, the same hash."""
    return hashlib.sha256(to_toml(variant).encode()).hexdigest()


@dataclass(frozen=True)
class Provenance:
    """Where the figures come from."""

    variant_hash: str
    package_version: str
    method: str  # "exact" or "exact, with simulated parts: ..."
    ties: str


def _provenance(sheet: ParSheet) -> Provenance:
    from .. import __version__  # the package's own (the package imports this module)

    simulated = []
    if sheet.beaten_by:
        simulated.append(f"the strategy that beats the house ({sheet.beaten_by.rounds:,} rounds)")
    method = "exact: every deal enumerated, every figure a fraction"
    if sheet.exchanges:
        method += " (exchanges valued under the stated approximation)"
    if simulated:
        method += "; simulated: " + ", ".join(simulated)
    return Provenance(variant_hash(sheet.variant), __version__, method, sheet.ties)


@dataclass(frozen=True)
class ParDocument:
    """Everything a filed par sheet holds (see the module)."""

    sheet: ParSheet
    least_favourable: ParSheet | None  # None: the family has no other named strategy
    net: NetDistribution
    bands: tuple[Band, ...]
    volatility_index: float
    side_bets: tuple[WagerSheet, ...]
    progressive: ProgressiveSheet | None
    progressive_bands: tuple[Band, ...]
    assumptions: Assumptions
    hourly: Hourly
    card: StrategyCard
    provenance: Provenance
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def variant(self) -> Variant:
        return self.sheet.variant


def _least_favourable(variant: Variant, ties: str, progress: ProgressCallback | None) -> ParSheet | None:
    from . import analyze, strategies  # the package's entry point, whose cache of sheets this shares

    sheets = [analyze(variant, name, progress, ties) for name in strategies(variant) if name != "best"]
    return min(sheets, key=lambda s: s.expected_return, default=None)


def par_document(
    variant: Variant | str | Path,
    strategy: str = "best",
    *,
    ties: str = "raise",
    assumptions: Assumptions | None = None,
    progress: ProgressCallback | None = None,
) -> ParDocument:
    """The par sheet of a variant under a named strategy (the best by default), whole (see the
    module); `progress` as `analyze`'s."""
    from . import analyze

    variant = as_variant(variant)
    if ties not in TIES:
        raise ArgumentError(f"ties: {ties!r} is not one of {', '.join(TIES)}")
    if assumptions is not None and not isinstance(assumptions, Assumptions):
        raise ArgumentError(f"assumptions: an Assumptions, not {type(assumptions).__name__}")
    a = (assumptions or Assumptions()).checked(variant)
    sheet = analyze(variant, strategy, progress, ties)
    net = NetDistribution.of((e.net, e.combinations) for e in sheet.events)
    progressive = progressive_sheet(sheet)
    return ParDocument(
        sheet=sheet,
        least_favourable=_least_favourable(variant, ties, progress),
        net=net,
        bands=bands(net),
        volatility_index=volatility_index(net),
        side_bets=side_bet_sheets(sheet),
        progressive=progressive,
        progressive_bands=bands(progressive.distribution) if progressive else (),
        assumptions=a,
        hourly=hourly(sheet, a),
        card=strategy_card(sheet),
        provenance=_provenance(sheet),
    )
