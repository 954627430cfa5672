"""Evaluate the same random 7-card hands with caribbean-fast and with treys, phevaluator and
eval7 (the optional ``bench`` extra); check that all order the hands identically, and print hands
per second and ratios.

Run: ``pip install ".[bench]" && python benches/compare_evaluators.py [--hands 10000000]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.table import Table

from caribbean_fast import evaluate_many
from caribbean_fast.cards import card_text

Hands = npt.NDArray[np.uint8]
Scores = npt.NDArray[np.int64]


@dataclass
class Result:
    name: str
    hands: int
    seconds: float
    same_order: bool | None

    @property
    def rate(self) -> float:
        return self.hands / self.seconds


def random_hands(n: int, seed: int) -> Hands:
    """n random 7-card hands (distinct cards in each row)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52), dtype=np.float32), axis=1)[:, :7].astype(np.uint8)


def same_weak_order(a: Scores, b: Scores) -> bool:
    """Whether two score arrays (greater is stronger) make the same ties and comparisons."""
    order = np.argsort(a, kind="stable")
    sa, sb = a[order], b[order]
    return bool(np.array_equal(np.diff(sa) > 0, np.diff(sb) > 0) and np.all(np.diff(sb) >= 0))


def treys_scorer() -> Callable[[list[list[int]]], list[int]]:
    from treys import Card, Evaluator

    evaluator, ids = Evaluator(), [Card.new(card_text(c)) for c in range(52)]
    return lambda rows: [-evaluator.evaluate([ids[c] for c in r[:5]], [ids[c] for c in r[5:]]) for r in rows]


def phevaluator_scorer() -> Callable[[list[list[int]]], list[int]]:
    from phevaluator import evaluate_cards  # same card ids: 4 * rank + suit

    return lambda rows: [-evaluate_cards(*r) for r in rows]


def eval7_scorer() -> Callable[[list[list[int]]], list[int]]:
    import eval7

    cards = [eval7.Card(card_text(c)) for c in range(52)]
    return lambda rows: [eval7.evaluate([cards[c] for c in r]) for r in rows]


PEERS = {
    "eval7": (eval7_scorer, 1_000_000),
    "phevaluator": (phevaluator_scorer, 200_000),
    "treys": (treys_scorer, 100_000),
}


def timed(f: Callable[[], Scores], repeat: int = 3) -> tuple[float, Scores]:
    best, out = float("inf"), np.empty(0, dtype=np.int64)
    for _ in range(repeat):
        start = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=float, default=10_000_000, help="hands for caribbean-fast")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    hands = random_hands(int(args.hands), args.seed)
    ours_s, ours = timed(lambda: evaluate_many(hands).astype(np.int64), repeat=5)
    results = [Result("caribbean-fast evaluate_many", len(hands), ours_s, None)]
    for name, (make, n) in PEERS.items():
        try:
            score = make()
        except ImportError:
            results.append(Result(f"{name} (not installed)", 0, float("nan"), None))
            continue
        rows = hands[: min(n, len(hands))].tolist()
        secs, theirs = timed(lambda: np.array(score(rows), dtype=np.int64), repeat=1)  # noqa: B023
        results.append(Result(name, len(rows), secs, same_weak_order(ours[: len(rows)], theirs)))
    show(results)


def show(results: list[Result]) -> None:
    ours = results[0].rate
    fastest_peer = max((r.rate for r in results[1:] if r.hands), default=float("nan"))
    table = Table(title="7-card hands per second, same random hands (higher is better)")
    for column in ("evaluator", "hands", "seconds", "M hands/s", "caribbean-fast is x faster", "same order"):
        table.add_column(column, justify="right" if column != "evaluator" else "left")
    for r in results:
        if not r.hands:
            table.add_row(r.name, "-", "-", "-", "-", "-")
            continue
        same = "-" if r.same_order is None else ("yes" if r.same_order else "NO")
        table.add_row(r.name, f"{r.hands:,}", f"{r.seconds:.3f}", f"{r.rate / 1e6:.2f}", f"{ours / r.rate:,.0f}", same)
    Console(width=120).print(table)
    print(f"caribbean-fast vs the fastest peer: {ours / fastest_peer:,.0f}x")


if __name__ == "__main__":
    main()
