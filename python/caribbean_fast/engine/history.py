"""Game recall: the last rounds of a seat, every step as that seat saw it (in sentences:
`words.history`), and a past round's proof."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import card_text
from ..variants import Variant
from .events import Event
from .fairness import root, seat_proof
from .shuffle import deck_from_seed

__all__ = ["round_proof", "seat_history"]

Step = dict[str, Any]


def seat_history(events: Sequence[Event], seat: int, last: int = 10) -> list[list[Step]]:
    """The last `last` rounds `seat` was dealt into, from the round's opening to its close."""
    rounds: list[list[Step]] = []
    current: list[Event] | None = None
    for e in events:
        if e.kind == "round_opened":
            current = []
        if current is not None:
            current.append(e)
        if e.kind == "round_closed" and current is not None:
            if any(x.kind == "dealt" and x.seat == seat for x in current):
                rounds.append([x.seen_by(seat) for x in current if not x.hidden_from(seat)])
            current = None
    return rounds[-last:] if last > 0 else []


def round_proof(events: Sequence[Event], seat: int, variant: Variant) -> dict[str, Any] | None:
    """A past round's fairness proof for `seat`, as the seat's view gave it once the round was
    over (`views._proof`), made again from the round's recorded seed and deal with
    `fairness.opening`: the round's root (`commitment`), the proof, and the cards the seat was
    shown (its own at the end, the dealer's and the board's once revealed). None when the seat
    was not dealt into the round, or the round is not over."""
    opened = next((e for e in events if e.kind == "round_opened"), None)
    dealing = next((e for e in events if e.kind == "dealing"), None)
    if opened is None or dealing is None or seat not in dealing.public["seats"]:
        return None
    if not any(e.kind == "round_closed" for e in events):
        return None
    seed = bytes.fromhex(opened.secret["seed"])
    deck = deck_from_seed(seed)
    cards: list[int] = []
    dealer: list[int] = []
    board: list[int] = []
    draws: list[tuple[int, int]] = []
    shown = False
    for e in events:
        if e.kind == "dealt" and e.seat is None:
            dealer = [*e.secret["hole"], *e.public.get("up", [])]
            board = [*e.public.get("flop", []), *e.secret.get("turn_river", [])]
        elif e.kind == "dealt" and e.seat == seat:
            cards = list(e.private["cards"])
        elif e.kind == "exchanged":
            draws.append((int(e.seat or 0), int(e.public["count"])))
            if e.seat == seat:
                cards = list(e.private["cards"])
        elif e.kind == "revealed":
            shown = True
    dealer, board = (dealer, board) if shown else ([], [])
    dealt = list(dealing.public["seats"])
    seeds = _seat_seeds(events, dealing)
    proof = seat_proof(seed, deck, variant, dealt, draws, seat, len(dealer), len(board), seeds=seeds)
    return {
        "round": opened.round,
        "seat": seat,
        "commitment": root(seed, tuple(deck)),
        "proof": proof,
        "cards": [card_text(c) for c in cards],
        "dealer": [card_text(c) for c in dealer],
        "board": [card_text(c) for c in board],
    }


def _seat_seeds(events: Sequence[Event], dealing: Event) -> list[dict[str, Any]]:
    """Every dealt seat's commitment and seed as the round recorded them (`RoundState.seat_seeds`):
    the last commitment each seat made, and the seeds the deal was cut with; none before the
    rules' fourth edition."""
    committed = {e.seat: e.public["commitment"] for e in events if e.kind == "seed_committed"}
    seeds = dealing.public.get("seeds", [])
    return [{"seat": k, "commitment": committed.get(k, ""), "seed": seed} for k, seed in seeds]
