"""A seat's history in sentences: each step of a round as the seat saw it (`engine.history`), and
a settled result, in the game's own words ("calls" in hold'em)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import format_cards
from ..variants import Currency, Variant
from .rules import decision_word

__all__ = ["describe_step", "outcome_words"]

Step = dict[str, Any]


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
    return f"seat {s['seat'] + 1} dealt" + (f": {format_cards(s['cards'])}" if "cards" in s else "")


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
    return f"seat {s['seat'] + 1}: {outcome_words(s, c)}" if "outcome" in s else f"seat {s['seat'] + 1} settled"


def _closed(s: Step, c: Currency) -> str:
    return f"round void ({s.get('reason', '')}): every bet refunded" if s["void"] else "round closed"


_WORDS: dict[str, Callable[[Step, Currency], str]] = {
    "round_opened": lambda s, c: f"round {s['round']} opened",
    "bets": lambda s, c: f"seat {s['seat'] + 1} {_bets(s, c)}",
    "dealing": lambda s, c: f"deal to seats {', '.join(str(k) for k in s['seats'])}",
    "dealt": _dealt,
    "decided": lambda s, c: f"seat {s['seat'] + 1} {s['word']}s" + (" (automatic)" if s.get("auto") else ""),
    "exchanged": lambda s, c: (
        f"seat {s['seat'] + 1} exchanges {s['count']} card(s), fee {c.format(s['fee'])}"
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
        return f"seat {step['seat'] + 1} decided" if step["kind"] == "decided" else None  # another seat's
    if step["kind"] == "decided":
        step = step | {"word": decision_word(variant, step["decision"])}
    elif step["kind"] == "bets":
        step = step | {"word": variant.bet_words.bet}  # the second bet as the game names it
    return words(step, variant.currency)
