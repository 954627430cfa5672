"""The progressive meter over time: seats betting the progressive every round, the meter growing
by each stake's contribution, paying its shares when they hit (simultaneous winners split them),
and topped back up to its reset value by the house.

Each round's first-five class is drawn from the exact distribution of five-card hands (the Rust
histogram of all 2,598,960); what each class pays comes from `settle`, a meter prize's split from
the progressive's model (`Progressive.meter_prize`), and how the meter pays and is topped up from
`settlement.draw_meter`, as at the table. Because the hits do not
depend on the meter, the long-run return per stake must equal the exact return at the average
meter the hits found (`ProgressiveReturn.expected`), which the result carries to compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .. import _core
from ..bounds import MAX_METER_ROUNDS, checked_count, checked_seed
from ..errors import ArgumentError
from ..hands import HandClass
from ..progress import ProgressCallback, checked_progress
from ..settlement import MeterDraw, draw_meter, settle
from ..variants import Family, Progressive, Variant, as_variant
from .categories import first_five_outcome

__all__ = ["MeterResult", "simulate_meter"]

_CHUNK = 2_000_000


@dataclass(frozen=True)
class MeterResult:
    variant: Variant
    rounds: int
    seats: int
    staked: int  # minor units
    fixed_paid: int
    meter_paid: int
    house_top_ups: int  # what the house put in to restore the reset value
    final_meter: int
    mean_meter_at_hits: float  # the meter each meter prize found, averaged over the prizes
    hits: dict[HandClass, int]
    exact_per_meter: Fraction  # the exact return per stake per minor unit of meter
    exact_fixed: Fraction
    partial: bool = False  # stopped by Ctrl-C: `rounds` are the rounds finished, not those asked

    @property
    def rtp(self) -> float:
        """What the progressive returned per unit staked over the run (nan before any round)."""
        return (self.fixed_paid + self.meter_paid) / self.staked if self.staked else float("nan")

    @property
    def exact_rtp_at_mean_meter(self) -> float:
        return 1 + float(self.exact_fixed) + float(self.exact_per_meter) * self.mean_meter_at_hits


def _classes(variant: Variant) -> tuple[list[HandClass], list[int]]:
    """The variant's classes and how many of the 2,598,960 five-card hands fall in each."""
    histogram = _core.strength_histogram_all(5)
    classes = list(variant.classes)
    counts = [0] * len(classes)
    for strength in np.flatnonzero(histogram):
        counts[classes.index(variant.classify(int(strength)))] += int(histogram[strength])
    return classes, counts


def _pays(variant: Variant, classes: list[HandClass]) -> tuple[list[int], list[Fraction]]:
    """Per class: the fixed prize (minor units, 0 for none) and the meter share, from `settle`."""
    p = variant.progressive
    assert p is not None
    fixed, shares = [], []
    for c in classes:
        pay = settle(variant, first_five_outcome(variant, c)).progressive
        assert pay is not None
        fixed.append(int((pay.stakes + 1) * p.stake))
        shares.append(pay.meter_share)
    return fixed, shares


def simulate_meter(
    variant: Variant | str | Path,
    rounds: int,
    seed: int = 0,
    seats: int = 1,
    progress: ProgressCallback | None = None,
) -> MeterResult:
    """`rounds` rounds of `seats` seats all betting the progressive, the meter starting at its
    reset. `progress`: called with (rounds done, rounds) before the first chunk of rounds and
    after each one (see `progress.ProgressCallback`). Ctrl-C stops the run and returns the chunks
    of rounds finished, marked `partial`."""
    variant, progress = as_variant(variant), checked_progress(progress)
    p = variant.progressive
    if p is None or variant.family is not Family.STUD:
        raise ArgumentError(f"{variant.name} has no progressive meter")
    if not p.paid_on_fold:
        raise ArgumentError("the meter simulation needs a progressive paid whatever the seat decides")
    seats = checked_count("seats", seats, variant.seats)
    rounds = checked_count("rounds", rounds, MAX_METER_ROUNDS // seats)
    seed = checked_seed(seed)
    classes, hands = _classes(variant)
    probabilities = np.array(hands, dtype=np.float64) / sum(hands)
    fixed, shares = _pays(variant, classes)
    rng = np.random.default_rng(seed)
    run = _Run(p.reset, 0, {"fixed": 0, "meter": 0, "top_up": 0}, np.zeros(len(classes), dtype=np.int64), ())
    if progress is not None:
        progress(0, rounds)
    partial = False
    try:
        for start in range(0, rounds, _CHUNK):
            drawn = rng.choice(len(classes), size=(min(_CHUNK, rounds - start), seats), p=probabilities)
            run = _played(run, p, drawn, start, fixed, shares)  # one assignment: a chunk counts whole or not
            if progress is not None:
                progress(run.rounds, rounds)
    except KeyboardInterrupt:
        partial = True
    rounds, totals, found = run.rounds, run.totals, run.found
    meter = run.meter + p.contribution * seats * (rounds - run.last_round)
    per_meter, fixed_net = _exact(hands, fixed, shares, p.stake)
    return MeterResult(
        variant=variant,
        rounds=rounds,
        seats=seats,
        staked=rounds * seats * p.stake,
        fixed_paid=totals["fixed"],
        meter_paid=totals["meter"],
        house_top_ups=totals["top_up"],
        final_meter=meter,
        mean_meter_at_hits=float(np.mean(found)) if found else float(p.reset),
        hits=dict(zip(classes, run.hits.tolist(), strict=True)),
        exact_per_meter=per_meter,
        exact_fixed=fixed_net,
        partial=partial,
    )


@dataclass(frozen=True)
class _Run:
    """The meter run after its finished chunks (what Ctrl-C keeps)."""

    meter: int
    last_round: int  # the round the meter last grew to
    totals: dict[str, int]
    hits: npt.NDArray[np.int64]
    found: tuple[int, ...]  # the meter each meter prize found
    rounds: int = 0


def _played(
    run: _Run, p: Progressive, drawn: npt.NDArray[np.int64], start: int, fixed: list[int], shares: list[Fraction]
) -> _Run:
    """The run after one more chunk of rounds (`drawn`: each round's seats' classes), built on
    copies so that an interrupted chunk changes nothing."""
    seats = drawn.shape[1]
    counts = np.bincount(drawn.ravel(), minlength=len(shares))
    meter, last_round, totals, found = run.meter, run.last_round, dict(run.totals), list(run.found)
    totals["fixed"] += int(np.dot(counts, fixed))
    meter_classes = [i for i, share in enumerate(shares) if share > 0]
    for r in np.unique(np.flatnonzero(np.isin(drawn, meter_classes)) // seats):
        meter += p.contribution * seats * (start + int(r) + 1 - last_round)
        last_round = start + int(r) + 1
        meter = _pay_round(p, drawn[r], shares, meter, totals, found)
    return _Run(meter, last_round, totals, run.hits + counts, tuple(found), start + len(drawn))


def _pay_round(
    p: Progressive,
    round_classes: npt.NDArray[np.int64],
    shares: list[Fraction],
    meter: int,
    totals: dict[str, int],
    found: list[int],
) -> int:
    """Pays one round's meter prizes from the meter as the round found it; returns the new meter."""
    winners = [int(c) for c in round_classes if shares[int(c)] > 0]
    prizes = [p.meter_prize(shares[c], meter, winners.count(c)) for c in winners]
    found.extend(meter for _ in winners)
    draw: MeterDraw = draw_meter(meter, prizes, p.reset)
    totals["meter"] += sum(prizes)
    totals["top_up"] += sum(prizes) - sum(draw.from_meter) + draw.top_up
    return draw.meter


def _exact(hands: list[int], fixed: list[int], shares: list[Fraction], stake: int) -> tuple[Fraction, Fraction]:
    """The exact return per stake: per minor unit of meter, and fixed (net of the stake)."""
    total = sum(hands)
    per_meter = sum((Fraction(n, total) * s / stake for n, s in zip(hands, shares, strict=True)), Fraction(0))
    paid = sum((Fraction(n * f, total * stake) for n, f in zip(hands, fixed, strict=True)), Fraction(0))
    return per_meter, paid - 1
