"""The paytable designer: the values of named paytable entries that bring a game's return to a
target, exactly, under the best strategy for each try (`resettle`: a try re-settles counts
already made).

The return never falls when a payout rises (the player may keep the old strategy), so the
search moves every named entry together along one line, from its lowest allowed value to its
highest, finds where the line crosses the target by bisection, and then tries every paytable
within a few steps of the crossing: those are the candidates on either side of the target. Each
candidate keeps the constraints: pays never fall as hands rise (ties allowed), values are whole
multiples of the step, and each entry stays within its bounds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from ..errors import ArgumentError
from ..hands import HandClass
from ..variants import Variant, as_variant
from ..variants.presentation import bet_words
from .parsheet import MainGame
from .resettle import Counted, counted, rtp, shape_of

__all__ = ["Candidate", "Entry", "TuneResult", "parse_entry", "tune"]

NEIGHBOURHOOD = 2  # steps either side of the crossing tried for each entry
MOST_TRIES = 4096  # candidates tried around the crossing at most (the nearest entries vary first)


@dataclass(frozen=True)
class Entry:
    """A paytable entry: a bet's paytable ("ante", or the second bet's: "raise", "call") and a class."""

    paytable: str  # a `Variant` field: ante_paytable or raise_paytable
    hand: HandClass

    @property
    def name(self) -> str:
        bet = "ante" if self.paytable == "ante_paytable" else "raise"
        return f"{bet}:{self.hand.name.lower().replace('_', '-')}"

    def value(self, variant: Variant) -> Fraction:
        return Fraction(getattr(variant, self.paytable).get(self.hand, 0))


def parse_entry(variant: Variant, text: str) -> Entry:
    """`bet:hand-slug` (e.g. `raise:royal-flush`; hold'em's and game 4's second bet is `call`)."""
    bet, _, hand = text.partition(":")
    words = {"ante": "ante_paytable", "raise": "raise_paytable", bet_words(variant).bet: "raise_paytable"}
    if bet not in words or not hand:
        raise ArgumentError(
            f"adjust: {text!r} is not bet:hand (bets: {', '.join(sorted(words))}; e.g. raise:royal-flush)"
        )
    try:
        hand_class = HandClass[hand.upper().replace("-", "_")]
    except KeyError:
        names = ", ".join(c.name.lower().replace("_", "-") for c in variant.classes)
        raise ArgumentError(f"adjust: {hand!r} is not a hand class of {variant.name} ({names})") from None
    if hand_class not in variant.classes:
        raise ArgumentError(f"adjust: {hand!r} is not a hand class of {variant.name}")
    return Entry(words[bet], hand_class)


@dataclass(frozen=True)
class Candidate:
    """A paytable tried, with its exact figures under the best strategy."""

    values: tuple[Fraction, ...]
    variant: Variant
    main: MainGame

    @property
    def rtp(self) -> Fraction:
        return rtp(self.main)

    @property
    def house_edge(self) -> Fraction:
        return -self.main.expected_return

    @property
    def element_of_risk(self) -> Fraction:
        return -self.main.expected_return / self.main.average_wager

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.main.variance)

    @property
    def raise_rate(self) -> Fraction:
        return self.main.p_raise

    @property
    def hit_frequency(self) -> Fraction:
        return self.main.frequencies[0]


@dataclass(frozen=True)
class TuneResult:
    """The chosen paytable (the nearest at or above the target, within the standard deviation's
    range when one is asked), and the nearest candidates below and above the target."""

    entries: tuple[Entry, ...]
    target: Fraction
    chosen: Candidate
    below: tuple[Candidate, ...]
    above: tuple[Candidate, ...]
    tries: int
    note: str = ""


def tune(
    variant: Variant | str | Path,
    target_rtp: Fraction | float | str,
    adjust: Sequence[str],
    *,
    step: Fraction = Fraction(1),
    bounds: dict[str, tuple[Fraction, Fraction]] | None = None,
    std_range: tuple[float, float] | None = None,
    nearest: int = 3,
) -> TuneResult:
    """The values of the `adjust` entries (`bet:hand`, e.g. `raise:royal-flush`) that meet
    `target_rtp` (0.985, "0.985" or "98.5%") under the best strategy; the variant may be a preset
    name or a TOML path. `step` is a payout's unit, `bounds` each entry's lowest and highest pay,
    `std_range` a range for the standard deviation (antes), `nearest` how many candidates to list
    either side of the target."""
    variant, target_rtp = as_variant(variant), _target(target_rtp)
    entries = tuple(parse_entry(variant, text) for text in adjust)
    if not entries or len(set(entries)) != len(entries):
        raise ArgumentError("adjust: name one or more different entries, e.g. raise:royal-flush,raise:straight-flush")
    if step <= 0:
        raise ArgumentError(f"step: must be positive, not {step}")
    ranges = _ranges(variant, entries, step, bounds or {})
    counts = counted(variant)
    tries: dict[tuple[Fraction, ...], Candidate] = {}

    def at(values: tuple[Fraction, ...]) -> Candidate:
        if values not in tries:
            tried = _with(variant, entries, values)
            tries[values] = Candidate(values, tried, _main(counts, tried))
        return tries[values]

    low, high = at(tuple(lo for lo, _ in ranges)), at(tuple(hi for _, hi in ranges))
    if not low.rtp <= target_rtp <= high.rtp:
        raise ArgumentError(
            f"target: {_pct(target_rtp)} is out of reach of these entries; they reach "
            f"{_pct(low.rtp)} to {_pct(high.rtp)} within their bounds"
        )
    base = tuple(
        min(max(_ceil_to(e.value(variant), step), lo), hi) for e, (lo, hi) in zip(entries, ranges, strict=True)
    )
    crossing = _bisect(at, base, ranges, step, target_rtp)
    for values in _around(crossing, ranges, step):
        if _rising(variant, entries, values):
            at(values)
    return _choose(entries, target_rtp, list(tries.values()), std_range, nearest, len(tries))


def _target(value: Fraction | float | str) -> Fraction:
    """A return as a fraction of the stake: 0.985, "0.985" or "98.5%"."""
    try:
        if isinstance(value, str):
            text = value.strip()
            return Fraction(text.rstrip("%")) / (100 if text.endswith("%") else 1)
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise TypeError
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise ArgumentError(f"target_rtp: {value!r} is not a return such as 0.985 or '98.5%'") from None


def _main(counts: Counted, variant: Variant) -> MainGame:
    return counts.main(variant)[0]


def _with(variant: Variant, entries: Sequence[Entry], values: Sequence[Fraction]) -> Variant:
    tables: dict[str, dict[HandClass, Fraction]] = {}
    for entry, value in zip(entries, values, strict=True):
        table = tables.setdefault(entry.paytable, dict(getattr(variant, entry.paytable)))
        table[entry.hand] = value
    changed = replace(variant, **tables)  # type: ignore[arg-type]
    assert shape_of(changed) == shape_of(variant)
    return changed


def _ranges(
    variant: Variant, entries: Sequence[Entry], step: Fraction, bounds: dict[str, tuple[Fraction, Fraction]]
) -> list[tuple[Fraction, Fraction]]:
    """Each entry's lowest and highest value: its bounds (default: from the pay of the next class
    below that is not adjusted to that of the next above, or 10 times its pay), on the step."""
    unknown = sorted(set(bounds) - {e.name for e in entries})
    if unknown:
        raise ArgumentError(f"bounds: {unknown[0]!r} is not one of the adjusted entries")
    ranges = []
    for entry in entries:
        lo, hi = bounds.get(entry.name) or _default_bounds(variant, entries, entry)
        lo, hi = _ceil_to(lo, step), Fraction(math.floor(hi / step)) * step
        if lo > hi or lo < 0:
            raise ArgumentError(f"bounds: {entry.name} has no allowed value from {lo} to {hi} in steps of {step}")
        ranges.append((lo, hi))
    return ranges


def _default_bounds(variant: Variant, entries: Sequence[Entry], entry: Entry) -> tuple[Fraction, Fraction]:
    fixed = {e.hand for e in entries if e.paytable == entry.paytable}
    table = getattr(variant, entry.paytable)
    below = [Fraction(v) for c, v in table.items() if c < entry.hand and c not in fixed]
    above = [Fraction(v) for c, v in table.items() if c > entry.hand and c not in fixed]
    return max(below, default=Fraction(0)), min(above, default=10 * max(entry.value(variant), Fraction(1)))


def _ceil_to(value: Fraction, step: Fraction) -> Fraction:
    return Fraction(math.ceil(value / step)) * step


def _line(
    base: Sequence[Fraction], ranges: Sequence[tuple[Fraction, Fraction]], step: Fraction, t: Fraction
) -> tuple[Fraction, ...]:
    """Every entry the share `t` of the way from its present value (`base`) to its highest value
    (t from 0 to 1), or to its lowest (t from 0 to -1), on the step: the search stays near the
    paytable the designer started from."""
    return tuple(
        Fraction(math.floor((b + t * ((hi if t > 0 else b) - (b if t > 0 else lo))) / step)) * step
        for b, (lo, hi) in zip(base, ranges, strict=True)
    )


def _bisect(
    at: Callable[[tuple[Fraction, ...]], Candidate],
    base: Sequence[Fraction],
    ranges: Sequence[tuple[Fraction, Fraction]],
    step: Fraction,
    target: Fraction,
) -> tuple[Fraction, ...]:
    """Where the line through the present values crosses the target (to a step)."""
    lo, hi = Fraction(-1), Fraction(1)
    finest = min((step / (b - a) for a, b in ranges if b > a), default=Fraction(1))
    while hi - lo > finest / 2:
        mid = (lo + hi) / 2
        if at(_line(base, ranges, step, mid)).rtp < target:
            lo = mid
        else:
            hi = mid
    return _line(base, ranges, step, hi)


def _around(
    centre: Sequence[Fraction], ranges: Sequence[tuple[Fraction, Fraction]], step: Fraction
) -> list[tuple[Fraction, ...]]:
    """The paytables within `NEIGHBOURHOOD` steps of the crossing in every entry, within bounds."""
    axes = [
        [c + k * step for k in range(-NEIGHBOURHOOD, NEIGHBOURHOOD + 1) if lo <= c + k * step <= hi]
        for c, (lo, hi) in zip(centre, ranges, strict=True)
    ]
    return list(itertools.islice(itertools.product(*axes), MOST_TRIES))


def _rising(variant: Variant, entries: Sequence[Entry], values: Sequence[Fraction]) -> bool:
    """Pays never fall as hands rise, in every paytable an entry changes (ties allowed)."""
    changed = _with(variant, entries, values)
    for name in {e.paytable for e in entries}:
        pays = [Fraction(v) for _, v in sorted(getattr(changed, name).items())]
        if any(a > b for a, b in itertools.pairwise(pays)):
            return False
    return True


def _choose(
    entries: tuple[Entry, ...],
    target: Fraction,
    tried: list[Candidate],
    std_range: tuple[float, float] | None,
    nearest: int,
    tries: int,
) -> TuneResult:
    note = ""
    pool = tried
    if std_range is not None:
        within = [c for c in tried if std_range[0] <= c.std_dev <= std_range[1]]
        if within:
            pool = within
        else:
            note = (
                f"no paytable tried has a standard deviation from {std_range[0]} to {std_range[1]} antes; "
                "these are the nearest to the target return"
            )
    below = sorted((c for c in pool if c.rtp < target), key=lambda c: target - c.rtp)[:nearest]
    above = sorted((c for c in pool if c.rtp >= target), key=lambda c: c.rtp - target)[:nearest]
    chosen = above[0] if above else below[0]
    return TuneResult(entries, target, chosen, tuple(below), tuple(above), tries, note)


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"
