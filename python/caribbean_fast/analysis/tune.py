"""The paytable designer: the values of named paytable entries that bring a game's return to a
target, exactly, under the best strategy for each try (`resettle`: a try re-settles counts
already made).

The chosen paytable is the nearest allowed one at or above the target, proven so over the whole
allowed grid by `tune_search` (branch and bound with exact bounds; the return does not always rise
with a pay). The allowed paytables: pays never fall as hands rise (ties allowed), values are whole
multiples of the step, and each entry stays within its bounds. Where the grid is too large to
prove within the budget of re-settles, the result says so and bounds how near the nearest may be.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from ..errors import ArgumentError, ArgumentTypeError
from ..hands import HandClass
from ..progress import ProgressCallback, checked_progress
from ..variants import Family, SideBet, Variant, as_variant
from ..variants.thresholds import HandThreshold
from .parsheet import MainGame
from .resettle import Counted, counted, rtp, shape_of
from .tune_exchange import Exchange, exchange_model
from .tune_linear import Linear, linear_model
from .tune_search import Grid, Point, SearchResult, search

__all__ = [
    "Candidate",
    "CurvePoint",
    "Entry",
    "TuneResult",
    "compare",
    "parse_entry",
    "parse_target",
    "payout_curve",
    "tune",
]

MOST_SETTLES = 400  # the search's budget: paytables re-settled at most before it stops unproven
MOST_NEAREST = 100  # candidates listed either side of the target at most
STD_POOL = 50  # the nearest paytables above the target among which a standard deviation range chooses
MOST_CURVE_POINTS = 1001


@dataclass(frozen=True)
class Entry:
    """A pay to solve for: a main paytable's class ("ante_paytable" or "raise_paytable"), a side
    bet's tier (`part` = the bet's name, `tier` its hand as the TOML names it), or a progressive
    prize ("progressive", in stakes of the progressive bet)."""

    part: str
    hand: HandClass | None = None
    tier: str = ""
    bet: str = ""  # the bet as the game names it: "ante", "raise" or "call", the side bet's name...

    @property
    def name(self) -> str:
        if self.tier:
            return f"{self.part}:{self.tier}"
        assert self.hand is not None
        return f"{self.bet or self.part}:{self.hand.name.lower().replace('_', '-')}"

    @property
    def kind(self) -> str:
        """What the target reads: the main game ("main"), the side bet's name, or "progressive"."""
        return "main" if self.part.endswith("_paytable") else self.part

    def value(self, variant: Variant) -> Fraction:
        if self.kind == "main":
            return Fraction(getattr(variant, self.part).get(self.hand, 0))
        if self.kind == "progressive":
            p = variant.progressive
            assert p is not None and self.hand is not None
            prize = p.prizes.get(self.hand)
            return Fraction(prize.amount, p.stake) if prize is not None else Fraction(0)
        return next(pays for t, pays in variant.side_bet(self.part).tiers if t.spec == self.tier)


def parse_entry(variant: Variant, text: str) -> Entry:
    """`bet:hand` (e.g. `raise:royal-flush`; hold'em's and game 4's second bet is `call`), a side
    bet's tier (`aa-bonus:pair-of-aces`) or a progressive prize (`progressive:flush`)."""
    bet, _, hand = text.partition(":")
    words = {"ante": "ante_paytable", "raise": "raise_paytable", variant.bet_words.bet: "raise_paytable"}
    sides = {b.name: b for b in variant.side_bets}
    if bet in sides and hand:
        if variant.family is not Family.HOLDEM:
            raise ArgumentError(f"adjust: side bets are solved for hold'em; {variant.name} is {variant.family}")
        tiers = [t.spec for t, _ in sides[bet].tiers]
        if hand not in tiers:
            raise ArgumentError(f"adjust: {hand!r} is not a tier of {bet} ({', '.join(tiers)})")
        return Entry(bet, tier=hand)
    if bet == "progressive" and variant.progressive is None:
        raise ArgumentError(f"adjust: {variant.name} has no progressive bet")
    known = ", ".join(sorted([*words, *sides, *(["progressive"] if variant.progressive else [])]))
    if not hand:
        raise ArgumentError(f"adjust: {text!r} is not bet:hand (e.g. raise:royal-flush; bets: {known})")
    if bet not in words and bet != "progressive":
        raise ArgumentError(f"adjust: {variant.name} has no bet or side bet {bet!r} (it has: {known})")
    hand_class = _hand_class(variant, hand)
    if bet == "progressive":
        prize = variant.progressive.prizes.get(hand_class) if variant.progressive else None
        if prize is None or prize.meter_share:
            raise ArgumentError(f"adjust: the progressive has no fixed prize for {hand} to solve for")
        return Entry("progressive", hand_class, bet="progressive")
    return Entry(words[bet], hand_class, bet="ante" if bet == "ante" else variant.bet_words.bet)


def _hand_class(variant: Variant, hand: str) -> HandClass:
    try:
        hand_class = HandClass[hand.upper().replace("-", "_")]
    except KeyError:
        hand_class = None
    if hand_class is None or hand_class not in variant.classes:
        names = ", ".join(c.name.lower().replace("_", "-") for c in variant.classes)
        raise ArgumentError(f"adjust: {hand!r} is not a hand class of {variant.name} ({names})")
    return hand_class


@dataclass(frozen=True)
class Candidate:
    """A paytable tried, with its exact figures under the best strategy."""

    values: tuple[Fraction, ...]
    variant: Variant
    main: MainGame  # the main game's figures under the best strategy
    rtp: Fraction  # the return the target reads: the main game's, the side bet's, or the progressive's
    decisions: bytes = b""  # a digest of how the best strategy plays it (`Counted.decided`)

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
        """How often the seat raises (calls, in hold'em and game 4)."""
        return self.main.p_raise

    @property
    def hit_frequency(self) -> Fraction:
        return self.main.frequencies[0]


@dataclass(frozen=True)
class TuneResult:
    """The chosen paytable (the nearest at or above the target, within the standard deviation's
    range when one is asked), and the nearest candidates below and above the target. `proven`:
    the whole allowed grid (`grid_size` paytables) was searched; otherwise no allowed paytable not
    seen returns from the target to `bound`. `warnings`: what the designer should know (a paytable
    that gives the player the edge). `settles`: the search's work in re-settles (the linear
    model's counted in the same unit), against its budget."""

    entries: tuple[Entry, ...]
    target: Fraction
    chosen: Candidate
    below: tuple[Candidate, ...]
    above: tuple[Candidate, ...]
    tries: int
    note: str = ""
    proven: bool = True
    bound: Fraction | None = None
    grid_size: int = 0
    warnings: tuple[str, ...] = ()
    settles: int = 0


def tune(
    variant: Variant | str | Path,
    target_rtp: Fraction | float | str,
    adjust: Sequence[str],
    *,
    step: Fraction | int | str = Fraction(1),
    bounds: Mapping[str, tuple[Fraction | int | str, Fraction | int | str]] | None = None,
    std_range: tuple[float, float] | None = None,
    nearest: int = 3,
    meter: int | None = None,
    allow_player_edge: bool = False,
    most_settles: int = MOST_SETTLES,
    progress: ProgressCallback | None = None,
) -> TuneResult:
    """The values of the `adjust` entries (`bet:hand`, e.g. `raise:royal-flush`) that meet
    `target_rtp` (0.985, "0.985" or "98.5%") under the best strategy: the nearest allowed paytable
    at or above it, proven over every allowed paytable (see `TuneResult.proven`). The variant may
    be a preset name or a TOML path. `step` is a payout's unit, `bounds` each entry's lowest and
    highest pay, `std_range` a range for the standard deviation (antes), `nearest` how many
    candidates to list either side of the target. A side bet's tiers (`aa-bonus:flush`) are solved
    for the side bet's return under the main game's best strategy; the progressive's fixed prizes
    (`progressive:flush`, in stakes of the progressive bet) for its return at `meter` (minor
    units; default the reset). A paytable that gives the player the edge (the main game under best
    play, a side bet, or the progressive at its reset) is refused unless `allow_player_edge`, and
    warned of then. `most_settles`: the search's budget of paytables re-settled. `progress`: called
    with (paytables of the grid settled or ruled out, paytables of the grid)."""
    variant, target_rtp, progress = as_variant(variant), parse_target(target_rtp), checked_progress(progress)
    if isinstance(adjust, str) or not isinstance(adjust, Sequence):
        raise ArgumentTypeError(f"adjust: a list of entries such as ['raise:royal-flush'], not {adjust!r:.60}")
    entries = tuple(parse_entry(variant, _text("adjust", text)) for text in adjust)
    if not entries or len(set(entries)) != len(entries):
        raise ArgumentError("adjust: name one or more different entries, e.g. raise:royal-flush,raise:straight-flush")
    kinds = {e.kind for e in entries}
    if len(kinds) > 1:
        raise ArgumentError(
            "adjust: the entries of one target at a time (the main game, a side bet or the "
            f"progressive), not {', '.join(sorted(kinds))}"
        )
    (kind,) = kinds
    step = _fraction("step", step)
    if step <= 0:
        raise ArgumentError(f"step: must be positive, not {step}")
    std_range, nearest = _checked_std(std_range), _checked_whole("nearest", nearest, 1, MOST_NEAREST)
    meter = None if meter is None else _checked_whole("meter", meter, 0, 10**15)
    most_settles = _checked_whole("most_settles", most_settles, 1, 10**7)
    if not isinstance(allow_player_edge, bool):
        raise ArgumentTypeError(f"allow_player_edge: True or False, not {allow_player_edge!r:.60}")
    ranges = _ranges(variant, entries, step, _checked_bounds(bounds))
    counts = counted(variant)
    measure = _measure(counts, kind, meter)
    tries: dict[tuple[Fraction, ...], Candidate] = {}

    def at(values: tuple[Fraction, ...]) -> Candidate:
        if values not in tries:
            tried = _with(variant, entries, values)
            tries[values] = Candidate(values, tried, *measure(tried))
        return tries[values]

    def point(ks: tuple[int, ...]) -> Point:
        c = at(tuple(k * step for k in ks))
        if kind == "main":
            return Point(c.rtp, c.main.expected_return, c.main.average_wager, c.decisions)
        return Point(c.rtp, c.rtp - 1, Fraction(1), c.decisions)

    grid, spans = _grid(variant, entries, ranges, step), zip(entries, ranges, strict=True)
    model = _model(counts, grid, lambda ks: _with(variant, entries, [k * step for k in ks])) if kind == "main" else None
    found = search(
        grid,
        target_rtp,
        max(nearest, STD_POOL) if std_range else nearest,
        point,
        wager_span=_wager_span(variant) if kind == "main" and variant.exchanges else None,
        every_corner=kind == "main" and variant.exchanges is not None,
        most_settles=most_settles,
        settles=lambda: len(tries) + (0 if model is None else int(model.work)),
        start=tuple(int(min(max(_ceil_to(e.value(variant), step), lo), hi) / step) for e, (lo, hi) in spans),
        progress=progress,
        model=model,
    )
    below, above = (_candidates(found_side, step, at) for found_side in (found.below, found.above))
    if not above:
        _out_of_reach(target_rtp, found, at(tuple(lo for lo, _ in ranges)), at(tuple(hi for _, hi in ranges)))
    result = _choose(entries, target_rtp, below, above, std_range, nearest, len(tries))
    result = replace(result, proven=found.proven, bound=found.bound, grid_size=grid.size, settles=found.settles)
    assert all(_rising(variant, entries, c.values) for c in (*result.below, *result.above))
    return _edge_checked(result, kind, counts, allow_player_edge)


def _candidates(
    side: Sequence[tuple[Fraction, tuple[int, ...]]], step: Fraction, at: Callable[[tuple[Fraction, ...]], Candidate]
) -> list[Candidate]:
    """The paytables the search found, each re-settled: its return must be the one the search
    worked out in integers (a check of the search on every paytable it gives)."""
    out = []
    for value, ks in side:
        c = at(tuple(k * step for k in ks))
        assert c.rtp == value, (ks, c.rtp, value)
        out.append(c)
    return out


def _out_of_reach(target: Fraction, found: SearchResult, low: Candidate, high: Candidate) -> None:
    nearest = f"; the nearest below returns {_pct(found.below[0][0])}" if found.below else ""
    unproven = "" if found.proven else " (within the search's budget)"
    raise ArgumentError(
        f"target: {_pct(target)} is out of reach of these entries{unproven}: they reach {_pct(low.rtp)} to "
        f"{_pct(high.rtp)} at their lowest and highest pays{nearest}"
    )


def _edge_checked(result: TuneResult, kind: str, counts: Counted, allow: bool) -> TuneResult:
    """Refuses a chosen paytable that gives the player the edge, unless allowed; warns of it then."""
    c = result.chosen
    if kind == "main":
        edge = c.main.expected_return > 0
        figure = f"returns {_pct(c.rtp)}, a house edge of {_pct(-c.main.expected_return)} per ante"
    elif kind == "progressive":
        _, raises = counts.main(c.variant)
        at_reset = counts.progressive(c.variant, raises)
        edge = at_reset.expected(at_reset.reset) > 0
        figure = f"returns {_pct(1 + at_reset.expected(at_reset.reset))} at its reset"
    else:
        edge, figure = c.rtp > 1, f"returns {_pct(c.rtp)}"
    if not edge:
        return result
    words = f"the paytable chosen gives the player the edge: it {figure} under the best strategy"
    if not allow:
        raise ArgumentError(f"target: {words}; pass allow_player_edge=True (--allow-player-edge) to accept it")
    return replace(result, warnings=(*result.warnings, f"WARNING: {words}"))


def _model(counts: Counted, grid: Grid, at: Callable[[tuple[int, ...]], Variant]) -> Linear | Exchange | None:
    """The exact model the search reads the main game from: `tune_linear`'s without exchanges,
    `tune_exchange`'s with them (None where neither holds: the search re-settles)."""
    if at(grid.lows).exchanges is None:
        return linear_model(counts, grid.lows, grid.highs, at)
    return exchange_model(counts, grid.lows, grid.highs, at)


def _wager_span(variant: Variant) -> tuple[Fraction, Fraction]:
    """The least and most a round stakes, in antes: the ante alone, or the raise and every exchange's fee."""
    x = variant.exchanges
    fees = Fraction(x.fee_antes) * x.most_per_round if x is not None else Fraction(0)
    return Fraction(1), 1 + Fraction(variant.raise_multiple) + fees


def _grid(
    variant: Variant, entries: Sequence[Entry], ranges: Sequence[tuple[Fraction, Fraction]], step: Fraction
) -> Grid:
    """The allowed paytables in steps: each entry's range, and a lower hand's pay never above a
    higher one's in the same table (the hands around them that stay are in the ranges)."""
    order = sorted(range(len(entries)), key=lambda i: (entries[i].part, _rank(entries[i])))
    pairs = tuple(
        (i, j)
        for i, j in itertools.permutations(range(len(entries)), 2)
        if entries[i].part == entries[j].part and _rank(entries[i]) < _rank(entries[j]) and _rises(variant, entries[i])
    )
    lows = tuple(int(lo / step) for lo, _ in ranges)
    highs = tuple(int(hi / step) for _, hi in ranges)
    return Grid(lows, highs, pairs, tuple(order))


def _rises(variant: Variant, entry: Entry) -> bool:
    """Whether the entry's pay is one that must rise with the hands (a meter share is not)."""
    return all(rises for r, _, rises in _pays(variant, entry) if r == _rank(entry))


def _text(what: str, value: object) -> str:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{what}: entries are text such as 'raise:royal-flush', not {value!r:.60}")
    return value


def _fraction(what: str, value: object) -> Fraction:
    """A pay or a step: a Fraction, a whole number, a finite float, or text such as '1/2' or '2.5'."""
    try:
        if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
            raise TypeError
        number = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ArgumentTypeError(f"{what}: a number such as 1, '1/2' or Fraction(1, 2), not {value!r:.60}") from None
    return number


def _checked_whole(what: str, value: object, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{what}: a whole number, not {value!r:.60}")
    if not least <= value <= most:
        raise ArgumentError(f"{what}: {least:,} to {most:,}, not {value:,}")
    return value


def _checked_std(value: object) -> tuple[float, float] | None:
    if value is None:
        return None
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ArgumentTypeError(f"std_range: a pair (low, high) of standard deviations, not {value!r:.60}")
    low, high = (float(_fraction("std_range", v)) for v in value)
    if not 0 <= low <= high:
        raise ArgumentError(f"std_range: low from 0 and at most high, not {low}..{high}")
    return low, high


def _checked_bounds(value: object) -> dict[str, tuple[Fraction, Fraction]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"bounds: a dict of entry to (low, high), not {value!r:.60}")
    out = {}
    for name, span in value.items():
        if not isinstance(span, (tuple, list)) or len(span) != 2:
            raise ArgumentTypeError(f"bounds: {name!r} takes a pair (low, high), not {span!r:.60}")
        out[_text("bounds", name)] = (_fraction(f"bounds {name}", span[0]), _fraction(f"bounds {name}", span[1]))
    return out


def parse_target(value: Fraction | float | str) -> Fraction:
    """A return as a fraction of the stake, from 0% to 200%: 0.985, "0.985" or "98.5%"."""
    try:
        if isinstance(value, str):
            text = value.strip()
            target = Fraction(text.rstrip("%")) / (100 if text.endswith("%") else 1)
        elif isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise TypeError
        else:
            target = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise ArgumentError(f"target_rtp: {value!r} is not a return such as 0.985 or '98.5%'") from None
    if not 0 < target < 2:
        raise ArgumentError(f"target_rtp: {value!r} is not a return from 0% to 200%")
    return target


def _measure(counts: Counted, kind: str, meter: int | None) -> Callable[[Variant], tuple[MainGame, Fraction, bytes]]:
    """A try's main game, the return the target reads, and how the best strategy plays it."""

    def measure(variant: Variant) -> tuple[MainGame, Fraction, bytes]:
        main, raises, decisions = counts.decided(variant)
        if kind == "main":
            return main, rtp(main), decisions
        if kind == "progressive":
            p = counts.progressive(variant, raises)
            return main, 1 + p.expected(p.reset if meter is None else meter), decisions
        return main, 1 + counts.side_bet(variant, kind, raises), decisions

    return measure


def _with(variant: Variant, entries: Sequence[Entry], values: Sequence[Fraction]) -> Variant:
    """The variant with the entries' new pays."""
    tables: dict[str, dict[HandClass, Fraction]] = {}
    tiers: dict[str, dict[str, Fraction]] = {}
    prizes: dict[HandClass, Fraction] = {}
    for entry, value in zip(entries, values, strict=True):
        if entry.kind == "main":
            assert entry.hand is not None
            tables.setdefault(entry.part, dict(getattr(variant, entry.part)))[entry.hand] = value
        elif entry.kind == "progressive":
            assert entry.hand is not None
            prizes[entry.hand] = value
        else:
            tiers.setdefault(entry.part, {})[entry.tier] = value
    changed = replace(variant, **tables)  # type: ignore[arg-type]
    if tiers:
        changed = replace(changed, side_bets=tuple(_tiered(b, tiers.get(b.name, {})) for b in variant.side_bets))
    if prizes and variant.progressive is not None:
        p = variant.progressive
        new = {
            c: replace(prize, amount=int(prizes[c] * p.stake)) if c in prizes else prize
            for c, prize in p.prizes.items()
        }
        changed = replace(changed, progressive=replace(p, prizes=new))
    assert shape_of(changed) == shape_of(variant)
    return changed


def _tiered(bet: SideBet, pays: dict[str, Fraction]) -> SideBet:
    return replace(bet, tiers=tuple((t, pays.get(t.spec, paid)) for t, paid in bet.tiers))


def _pays(variant: Variant, entry: Entry) -> list[tuple[int, Fraction, bool]]:
    """Every pay of the entry's table, lowest hand first: (the hand's rank, the pay, whether the
    pay is a fixed one that rises with the hand)."""
    if entry.kind == "main":
        return [(int(c), Fraction(v), True) for c, v in getattr(variant, entry.part).items()]
    if entry.kind == "progressive":
        p = variant.progressive
        assert p is not None
        return [(int(c), Fraction(z.amount, p.stake), not z.meter_share) for c, z in p.prizes.items()]
    return [(t.strength, Fraction(v), True) for t, v in variant.side_bet(entry.part).tiers]


def _ranges(
    variant: Variant, entries: Sequence[Entry], step: Fraction, bounds: dict[str, tuple[Fraction, Fraction]]
) -> list[tuple[Fraction, Fraction]]:
    """Each entry's lowest and highest value: its bounds (default: from the pay of the next class
    below that is not adjusted to that of the next above, or 10 times its pay), on the step."""
    named = {_bound_name(variant, name): span for name, span in bounds.items()}
    unknown = sorted(set(named) - {e.name for e in entries})
    if unknown:
        raise ArgumentError(f"bounds: {unknown[0]!r} is not one of the adjusted entries")
    _check_step(variant, entries, step)
    ranges = []
    for entry in entries:
        floor, ceiling = _default_bounds(variant, entries, entry)
        lo, hi = named.get(entry.name, (floor, ceiling))
        if entry.name in named:  # within the pays of the hands around it that stay: pays rise with hands
            lo, hi = max(lo, floor), min(hi, ceiling) if _has_fixed_above(variant, entries, entry) else hi
        lo, hi = _ceil_to(lo, step), Fraction(math.floor(hi / step)) * step
        if entry.kind != "main":  # a side bet's tier and a prize pay something
            lo = max(lo, step)
        if lo > hi or lo < 0:
            raise ArgumentError(
                f"bounds: {entry.name} has no allowed value from {lo} to {hi} in steps of {step} "
                "(the pays of the hands around it that are not adjusted bound it too)"
            )
        ranges.append((lo, hi))
    return ranges


def _bound_name(variant: Variant, name: str) -> str:
    """A bound's entry as `parse_entry` names it (`raise:` and the game's `call:` alike)."""
    try:
        return parse_entry(variant, name).name
    except ArgumentError:
        return name


def _has_fixed_above(variant: Variant, entries: Sequence[Entry], entry: Entry) -> bool:
    adjusted = {_rank(e) for e in entries if e.part == entry.part}
    return any(r > _rank(entry) and r not in adjusted for r, _, rises in _pays(variant, entry) if rises)


def _check_step(variant: Variant, entries: Sequence[Entry], step: Fraction) -> None:
    """A progressive prize is whole minor units: the step in stakes must make them."""
    p = variant.progressive
    if p is not None and any(e.kind == "progressive" for e in entries) and (step * p.stake).denominator != 1:
        raise ArgumentError(f"step: {step} of a {p.stake}-unit stake is not a whole number of minor units")


def _default_bounds(variant: Variant, entries: Sequence[Entry], entry: Entry) -> tuple[Fraction, Fraction]:
    """From the pay of the next hand below that is not adjusted to that of the next above (or
    ten times the entry's pay, at least one)."""
    adjusted = {e.name for e in entries if e.part == entry.part}
    ranks = {e.name: _rank(e) for e in entries if e.part == entry.part}
    mine = ranks[entry.name]
    fixed = [(r, v) for r, v, rises in _pays(variant, entry) if rises and r not in {ranks[n] for n in adjusted}]
    below = [v for r, v in fixed if r < mine]
    above = [v for r, v in fixed if r > mine]
    return max(below, default=Fraction(0)), min(above, default=10 * max(entry.value(variant), Fraction(1)))


def _rank(entry: Entry) -> int:
    """Where the entry's hand sits among its table's (a class, or a side bet tier's strength)."""
    return int(entry.hand) if entry.hand is not None else HandThreshold(entry.tier).strength


def _ceil_to(value: Fraction, step: Fraction) -> Fraction:
    return Fraction(math.ceil(value / step)) * step


def _rising(variant: Variant, entries: Sequence[Entry], values: Sequence[Fraction]) -> bool:
    """Pays never fall as hands rise, in every table an entry changes (ties allowed)."""
    changed = _with(variant, entries, values)
    for entry in {e.part: e for e in entries}.values():
        pays = [v for _, v, rises in sorted(_pays(changed, entry), key=lambda p: p[0]) if rises]
        if any(a > b for a, b in itertools.pairwise(pays)):
            return False
    return True


def _choose(
    entries: tuple[Entry, ...],
    target: Fraction,
    below: list[Candidate],
    above: list[Candidate],
    std_range: tuple[float, float] | None,
    nearest: int,
    tries: int,
) -> TuneResult:
    """The nearest at or above the target (within the standard deviation's range, when one is
    asked and one of the nearest `STD_POOL` above meets it)."""
    note, pool = "", above
    if std_range is not None:
        within = [c for c in above if std_range[0] <= c.std_dev <= std_range[1]]
        if within:
            pool = within
        else:
            note = (
                f"none of the {len(above)} nearest paytables at or above the target has a standard deviation "
                f"from {std_range[0]} to {std_range[1]} antes; these are the nearest to the target return"
            )
    return TuneResult(entries, target, pool[0], tuple(below[:nearest]), tuple(pool[:nearest]), tries, note)


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


@dataclass(frozen=True)
class CurvePoint:
    """The return at one value of a payout, and whether the best strategy changed on the way to it."""

    value: Fraction
    rtp: Fraction
    raise_rate: Fraction
    strategy_changed: bool


def payout_curve(variant: Variant | str | Path, adjust: str, points: int = 41) -> list[CurvePoint]:
    """The main game's return as one paytable entry runs over its allowed values (the pays of the
    hands below and above it, at most `points` values), each exact, with the values at which the
    best strategy changes marked."""
    variant = as_variant(variant)
    entry = parse_entry(variant, adjust)
    if isinstance(points, bool) or not isinstance(points, int) or not 2 <= points <= MOST_CURVE_POINTS:
        raise ArgumentError(f"points: 2 to {MOST_CURVE_POINTS:,}, not {points!r:.60}")
    if entry.kind != "main":
        raise ArgumentError(f"adjust: {adjust!r} is not a main paytable entry (bet:hand)")
    (lo, hi), counts = _default_bounds(variant, [entry], entry), counted(variant)
    values = sorted({lo + (hi - lo) * Fraction(k, points - 1) for k in range(points)})
    curve, before = [], None
    for value in values:
        tried = _with(variant, [entry], [value])
        main, raises = counts.main(tried)
        changed = before is not None and not bool((raises == before).all())
        curve.append(CurvePoint(value, rtp(main), main.p_raise, changed))
        before = raises
    return curve


def compare(first: Variant | str | Path, second: Variant | str | Path) -> list[tuple[str, str, str]]:
    """Two paytables side by side, row by row: every pay that either names, then the exact
    figures of each under its best strategy (a row per line: what, the first's, the second's)."""
    a, b = as_variant(first), as_variant(second)
    rows: list[tuple[str, str, str]] = []
    for part, bet in (("ante_paytable", "ante"), ("raise_paytable", a.bet_words.bet)):
        pa, pb = getattr(a, part), getattr(b, part)
        for c in sorted(set(pa) | set(pb), reverse=True):
            rows.append((f"{bet}: {c.label}", _pay(pa.get(c)), _pay(pb.get(c))))
    for side in sorted({s.name for s in (*a.side_bets, *b.side_bets)}):
        ta, tb = (dict((t.spec, v) for t, v in _tiers(v, side)) for v in (a, b))
        for spec in sorted(set(ta) | set(tb)):
            rows.append((f"{side}: {spec}", _pay(ta.get(spec)), _pay(tb.get(spec))))
    bets = {v.bet_words.bet for v in (a, b)}
    figures = [_figures(v, " or ".join(sorted(bets))) for v in (a, b)]
    rows += [(name, figures[0][name], figures[1][name]) for name in figures[0]]
    return rows


def _tiers(variant: Variant, name: str) -> tuple[tuple[HandThreshold, Fraction], ...]:
    return next((s.tiers for s in variant.side_bets if s.name == name), ())


def _pay(value: Fraction | None) -> str:
    return "-" if value is None else f"{value} to 1"


def _figures(variant: Variant, bet: str) -> dict[str, str]:
    main, _ = counted(variant).main(variant)
    return {
        "return to player": f"{float(rtp(main)):.4%}",
        "house edge (per ante)": f"{float(-main.expected_return):.4%}",
        "element of risk": f"{float(-main.expected_return / main.average_wager):.4%}",
        "standard deviation (antes)": f"{math.sqrt(main.variance):.4f}",
        f"{bet} rate": f"{float(main.p_raise):.2%}",
        "hit frequency": f"{float(main.frequencies[0]):.2%}",
    }
