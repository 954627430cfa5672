"""Game recall: the last rounds of a seat, every step as that seat saw it, and in words."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..cards import card_text, format_cards
from ..variants import Currency, Variant
from ..variants.presentation import bet_words, decision_word
from .events import Event
from .fairness import root, seat_proof
from .shuffle import deck_from_seed

__all__ = ["describe_step", "outcome_words", "round_proof", "seat_history"]

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
    proof = seat_proof(seed, deck, variant, dealt, draws, seat, len(dealer), len(board))
    return {
        "round": opened.round,
        "seat": seat,
        "commitment": root(seed, tuple(deck)),
        "proof": proof,
        "cards": [card_text(c) for c in cards],
        "dealer": [card_text(c) for c in dealer],
        "board": [card_text(c) for c in board],
    }


def _bets(s: Step, c: Currency) -> str:
    b = s["bets"]
    parts = [f"ante {c.format(b['ante'])}"] if b["ante"] else []
    parts += [f"{s['word']} {c.format(b['raise'])}"] if b["raise"] else []
    parts += [f"{name} {c.format(v)}" for name, v in b["side_bets"].items()]
    parts += [f"progressive {c.format(b['progressive'])}"] if b["progressive"] else []
    return "bets: " + (", ".join(parts) or "none")


def _dealt(s: Step, c: Currency) -> str:
    if s["seat"] is None:
        return f"dealer shows {format_cards(s['up'])}" if "up" in s else f"flop {format_cards(s['flop'])}"
    return f"seat {s['seat']} dealt" + (f": {format_cards(s['cards'])}" if "cards" in s else "")


def outcome_words(result: Step, c: Currency) -> str:
    """A settled seat in words: how the round ended for it, then its net, with any exchange fees
    named, so that the words never contradict the money ("lose" with a positive net, "push" for
    a win that the fees cancelled)."""
    o, net = result["outcome"], result["net"]
    if o["decision"] == "fold":
        how = "folded"
    elif not o["dealer_qualifies"]:
        how = "the dealer does not qualify"
    else:
        how = {"win": "beats the dealer", "lose": "loses to the dealer", "tie": "ties the dealer"}[o["showdown"]]
    if result.get("auto"):  # a view's result says whether the player took the decision
        how = f"{how} (decided automatically)"
    fees = -int(net.get("exchange_fees", 0))
    paid = f" (exchange fees {c.format(fees)})" if fees else ""
    return f"{result['hand']}, {how}; net {c.format(net['total'])}{paid}"


def _settled(s: Step, c: Currency) -> str:
    """Another seat's settlement is shown only as settled (its hand would tell its cards)."""
    return f"seat {s['seat']}: {outcome_words(s, c)}" if "outcome" in s else f"seat {s['seat']} settled"


def _closed(s: Step, c: Currency) -> str:
    return f"round void ({s.get('reason', '')}): every bet refunded" if s["void"] else "round closed"


_WORDS: dict[str, Callable[[Step, Currency], str]] = {
    "round_opened": lambda s, c: f"round {s['round']} opened",
    "bets": lambda s, c: f"seat {s['seat']} {_bets(s, c)}",
    "dealing": lambda s, c: f"deal to seats {', '.join(str(k) for k in s['seats'])}",
    "dealt": _dealt,
    "decided": lambda s, c: f"seat {s['seat']} {s['word']}s" + (" (automatic)" if s.get("auto") else ""),
    "exchanged": lambda s, c: (
        f"seat {s['seat']} exchanges {s['count']} card(s), fee {c.format(s['fee'])}"
        + (f": now {format_cards(s['cards'])}" if "cards" in s else "")
    ),
    "revealed": lambda s, c: f"dealer {s['dealer']}{' board ' + s['board'] if s['board'] else ''}: {s['dealer_hand']}",
    "settled": _settled,
    "round_closed": _closed,
}


def describe_step(step: Step, variant: Variant) -> str | None:
    """One step in words, in the game's own terms ("calls" in hold'em), or None for a step that
    only records a command."""
    words = _WORDS.get(step["kind"])
    if words is None:
        return None
    if step["kind"] in ("decided", "exchanged") and "decision" not in step and "count" not in step:
        return f"seat {step['seat']} decided" if step["kind"] == "decided" else None  # another seat's
    if step["kind"] == "decided":
        step = step | {"word": decision_word(variant, step["decision"])}
    elif step["kind"] == "bets":
        step = step | {"word": bet_words(variant).bet}  # the second bet as the game names it
    return words(step, variant.currency)
